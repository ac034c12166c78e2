"""The KL rules PyTorch registers for Binomial, OneHotCategorical, ContinuousBernoulli and
LowRankMultivariateNormal, among themselves and with the other families flowgrad builds, in
PyTorch's formulas; registered when the package is imported."""
from __future__ import annotations

import math

import numpy as np

from .. import ops
from ..ops import linalg_decomp
from .continuous import Exponential, Uniform
from .continuous_bernoulli import ContinuousBernoulli
from .counts import Binomial, Poisson
from .gamma import Beta, Gamma
from .kl import _kl_categorical_categorical, register_kl
from .kl_cross import (_inf_where, _infinite_like, _kl_exponential_infinity, _kl_gamma_infinity,
                       _kl_laplace_infinity, _kl_normal_infinity, _kl_poisson_infinity)
from .kl_transformed import _kl_gumbel_infinity, _kl_pareto_infinity
from .lowrank_multivariate_normal import lowrank_logdet, lowrank_mahalanobis
from .multinomial import OneHotCategorical
from .multivariate_normal import MultivariateNormal, batch_mahalanobis
from .normal import Laplace, Normal
from .transformed_families import Gumbel, Pareto
from .lowrank_multivariate_normal import LowRankMultivariateNormal

register_kl(Poisson, Binomial)(_kl_poisson_infinity)
for _p, _rule in ((Exponential, _kl_exponential_infinity), (Gamma, _kl_gamma_infinity), (Gumbel, _kl_gumbel_infinity),
                  (Laplace, _kl_laplace_infinity), (Normal, _kl_normal_infinity), (Pareto, _kl_pareto_infinity)):
    register_kl(_p, ContinuousBernoulli)(_rule)


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p, q):
    if bool(ops.any(p.total_count < q.total_count)._data):
        raise p._policy.errors.kl_binomial_counts()
    kl = p.total_count * (p.probs * (p.logits - q.logits) + ops.log1p(-p.probs) - ops.log1p(-q.probs))
    return _inf_where(p.total_count > q.total_count, kl)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_continuous_bernoulli_continuous_bernoulli(p, q):
    t1 = p.mean * (p.logits - q.logits)
    t2 = p._cont_bern_log_norm() + ops.log1p(-p.probs)
    t3 = -q._cont_bern_log_norm() - ops.log1p(-q.probs)
    return t1 + t2 + t3


def _minus_cb_cross_entropy(p, q):
    """-H(p) - E_p[log q] for q continuous Bernoulli: what the rules from Beta and Uniform share."""
    return -p.entropy() - p.mean * q.logits - ops.log1p(-q.probs) - q._cont_bern_log_norm()


@register_kl(Beta, ContinuousBernoulli)
def _kl_beta_continuous_bernoulli(p, q):
    return _minus_cb_cross_entropy(p, q)


@register_kl(ContinuousBernoulli, Exponential)
def _kl_continuous_bernoulli_exponential(p, q):
    return -p.entropy() - ops.log(q.rate) + q.rate * p.mean


@register_kl(ContinuousBernoulli, Normal)
def _kl_continuous_bernoulli_normal(p, q):
    t2 = 0.5 * (math.log(2.0 * math.pi) + ops.pow(q.loc / q.scale, 2)) + ops.log(q.scale)
    t3 = (p.variance + ops.pow(p.mean, 2) - 2.0 * q.loc * p.mean) / (2.0 * ops.pow(q.scale, 2))
    return -p.entropy() + t2 + t3


@register_kl(ContinuousBernoulli, Uniform)
def _kl_continuous_bernoulli_uniform(p, q):
    result = -p.entropy() + ops.log(q.high - q.low)
    return _inf_where(ops.logical_or(q.low >= p.support.lower_bound, q.high <= p.support.upper_bound), result)


@register_kl(ContinuousBernoulli, Pareto)
def _kl_continuous_bernoulli_infinity(p, q):
    return _infinite_like(p.probs)


@register_kl(Uniform, ContinuousBernoulli)
def _kl_uniform_continuous_bernoulli(p, q):
    result = _minus_cb_cross_entropy(p, q)
    return _inf_where(ops.logical_or(p.high >= q.support.upper_bound, p.low <= q.support.lower_bound), result)


def _trace_xxt(m):
    """trace(X X^T) over the batch: the sum of squares of each matrix."""
    return ops.sum(ops.pow(m, 2), (-2, -1))


def _check_events(p, q, which: str) -> None:
    if tuple(p.event_shape) != tuple(q.event_shape):
        raise p._policy.errors.kl_lowrank_event_shapes(which=which)


def _solve_lower(L, B):
    batch = np.broadcast_shapes(L._data.shape[:-2], B._data.shape[:-2])
    return linalg_decomp.solve_triangular(ops.broadcast_to(L, batch + L._data.shape[-2:]),
                                          ops.broadcast_to(B, batch + B._data.shape[-2:]), upper=False)


def _woodbury_factor(q):
    """A with inv(cov_q) = inv(D_q) - A^T A."""
    qWt_qDinv = ops.transpose(q._unbroadcasted_cov_factor, -2, -1) / ops.unsqueeze(q._unbroadcasted_cov_diag, -2)
    return _solve_lower(q._capacitance_tril, qWt_qDinv)


def _lowrank_logdet_of(d):
    return lowrank_logdet(d._unbroadcasted_cov_diag, d._capacitance_tril)


def _lowrank_mahalanobis_of(q, x):
    return lowrank_mahalanobis(q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag, x, q._capacitance_tril)


@register_kl(LowRankMultivariateNormal, LowRankMultivariateNormal)
def _kl_lowrank_lowrank(p, q):
    _check_events(p, q, "Low Rank Multivariate Normals")
    term1 = _lowrank_logdet_of(q) - _lowrank_logdet_of(p)
    term3 = _lowrank_mahalanobis_of(q, q.loc - p.loc)
    A = _woodbury_factor(q)
    pD, qD, pW = p._unbroadcasted_cov_diag, q._unbroadcasted_cov_diag, p._unbroadcasted_cov_factor
    term21 = ops.sum(pD / qD, -1)
    term22 = _trace_xxt(pW * ops.unsqueeze(ops.rsqrt(qD), -1))
    term23 = _trace_xxt(A * ops.unsqueeze(ops.sqrt(pD), -2))
    term24 = _trace_xxt(ops.matmul(A, pW))
    return 0.5 * (term1 + term21 + term22 - term23 - term24 + term3 - p.event_shape[0])


@register_kl(MultivariateNormal, LowRankMultivariateNormal)
def _kl_mvn_lowrank(p, q):
    _check_events(p, q, "(Low Rank) Multivariate Normals")
    pL = p._unbroadcasted_scale_tril
    term1 = _lowrank_logdet_of(q) - 2 * ops.sum(ops.log(linalg_decomp.diagonal(pL, 0, -2, -1)), -1)
    term3 = _lowrank_mahalanobis_of(q, q.loc - p.loc)
    A = _woodbury_factor(q)
    term21 = _trace_xxt(pL * ops.unsqueeze(ops.rsqrt(q._unbroadcasted_cov_diag), -1))
    term22 = _trace_xxt(ops.matmul(A, pL))
    return 0.5 * (term1 + term21 - term22 + term3 - p.event_shape[0])


@register_kl(LowRankMultivariateNormal, MultivariateNormal)
def _kl_lowrank_mvn(p, q):
    _check_events(p, q, "(Low Rank) Multivariate Normals")
    qL = q._unbroadcasted_scale_tril
    term1 = 2 * ops.sum(ops.log(linalg_decomp.diagonal(qL, 0, -2, -1)), -1) - _lowrank_logdet_of(p)
    term3 = batch_mahalanobis(qL, q.loc - p.loc)
    p_diag = linalg_decomp._diag_embed(ops.sqrt(p._unbroadcasted_cov_diag))
    term21 = _trace_xxt(_solve_lower(qL, p._unbroadcasted_cov_factor))
    term22 = _trace_xxt(_solve_lower(qL, p_diag))
    return 0.5 * (term1 + term21 + term22 + term3 - p.event_shape[0])
