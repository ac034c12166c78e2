"""The KL rules PyTorch registers between different families that flowgrad builds (Beta, Exponential,
Gamma, Laplace, Normal, Uniform; Bernoulli and Poisson), in PyTorch's formulas; registered when the
package is imported."""
from __future__ import annotations

import math

from .. import backend, ops
from .continuous import Exponential, Uniform
from .counts import Poisson
from .discrete import Bernoulli
from .gamma import Beta, Gamma
from .kl import register_kl
from .normal import Laplace, Normal
from .utils import euler_constant


def _infinite_like(t):
    return t._new(backend.namespace(t._data).full_like(t._data, math.inf))


def _x_log_x(t):
    return t * ops.log(t)


def _inf_where(mask, result):
    return ops.where(mask, math.inf, result)


@register_kl(Bernoulli, Poisson)
def _kl_bernoulli_poisson(p, q):
    return -p.entropy() - (p.probs * ops.log(q.rate) - q.rate)


@register_kl(Poisson, Bernoulli)
def _kl_poisson_infinity(p, q):
    return _infinite_like(p.rate)


@register_kl(Beta, Exponential)
def _kl_beta_exponential(p, q):
    return -p.entropy() - ops.log(q.rate) + q.rate * (p.concentration1 / (p.concentration1 + p.concentration0))


@register_kl(Beta, Gamma)
def _kl_beta_gamma(p, q):
    t1 = -p.entropy()
    t2 = ops.lgamma(q.concentration) - q.concentration * ops.log(q.rate)
    t3 = (q.concentration - 1) * (ops.digamma(p.concentration1) - ops.digamma(p.concentration1 + p.concentration0))
    t4 = q.rate * p.concentration1 / (p.concentration1 + p.concentration0)
    return t1 + t2 - t3 + t4


@register_kl(Beta, Normal)
def _kl_beta_normal(p, q):
    e_beta = p.concentration1 / (p.concentration1 + p.concentration0)
    var_normal = ops.pow(q.scale, 2)
    t1 = -p.entropy()
    t2 = 0.5 * ops.log(var_normal * 2 * math.pi)
    t3 = (e_beta * (1 - e_beta) / (p.concentration1 + p.concentration0 + 1) + ops.pow(e_beta, 2)) * 0.5
    t4 = q.loc * e_beta
    t5 = ops.pow(q.loc, 2) * 0.5
    return t1 + t2 + (t3 - t4 + t5) / var_normal


@register_kl(Beta, Uniform)
def _kl_beta_uniform(p, q):
    result = -p.entropy() + ops.log(q.high - q.low)
    return _inf_where(ops.logical_or(q.low > p.support.lower_bound, q.high < p.support.upper_bound), result)


@register_kl(Exponential, Beta)
@register_kl(Exponential, Uniform)
def _kl_exponential_infinity(p, q):
    return _infinite_like(p.rate)


@register_kl(Exponential, Gamma)
def _kl_exponential_gamma(p, q):
    ratio = q.rate / p.rate
    t1 = -q.concentration * ops.log(ratio)
    return t1 + ratio + ops.lgamma(q.concentration) + q.concentration * euler_constant - (1 + euler_constant)


@register_kl(Exponential, Normal)
def _kl_exponential_normal(p, q):
    var_normal = ops.pow(q.scale, 2)
    rate_sqr = ops.pow(p.rate, 2)
    t1 = 0.5 * ops.log(rate_sqr * var_normal * 2 * math.pi)
    t2 = ops.reciprocal(rate_sqr)
    t3 = q.loc / p.rate
    t4 = ops.pow(q.loc, 2) * 0.5
    return t1 - 1 + (t2 - t3 + t4) / var_normal


@register_kl(Gamma, Beta)
@register_kl(Gamma, Uniform)
def _kl_gamma_infinity(p, q):
    return _infinite_like(p.concentration)


@register_kl(Gamma, Exponential)
def _kl_gamma_exponential(p, q):
    return -p.entropy() - ops.log(q.rate) + q.rate * p.concentration / p.rate


@register_kl(Gamma, Normal)
def _kl_gamma_normal(p, q):
    var_normal = ops.pow(q.scale, 2)
    beta_sqr = ops.pow(p.rate, 2)
    t1 = 0.5 * ops.log(beta_sqr * var_normal * 2 * math.pi) - p.concentration - ops.lgamma(p.concentration)
    t2 = 0.5 * (ops.pow(p.concentration, 2) + p.concentration) / beta_sqr
    t3 = q.loc * p.concentration / p.rate
    t4 = 0.5 * ops.pow(q.loc, 2)
    return t1 + (p.concentration - 1) * ops.digamma(p.concentration) + (t2 - t3 + t4) / var_normal


@register_kl(Laplace, Beta)
@register_kl(Laplace, Exponential)
@register_kl(Laplace, Gamma)
@register_kl(Laplace, Uniform)
def _kl_laplace_infinity(p, q):
    return _infinite_like(p.loc)


@register_kl(Laplace, Normal)
def _kl_laplace_normal(p, q):
    var_normal = ops.pow(q.scale, 2)
    scale_sqr_var_ratio = ops.pow(p.scale, 2) / var_normal
    t1 = 0.5 * ops.log(2 * scale_sqr_var_ratio / math.pi)
    t2 = 0.5 * ops.pow(p.loc, 2)
    t3 = p.loc * q.loc
    t4 = 0.5 * ops.pow(q.loc, 2)
    return -t1 + scale_sqr_var_ratio + (t2 - t3 + t4) / var_normal - 1


@register_kl(Normal, Beta)
@register_kl(Normal, Exponential)
@register_kl(Normal, Gamma)
@register_kl(Normal, Uniform)
def _kl_normal_infinity(p, q):
    return _infinite_like(p.loc)


@register_kl(Normal, Laplace)
def _kl_normal_laplace(p, q):
    loc_diff = p.loc - q.loc
    scale_ratio = p.scale / q.scale
    loc_diff_scale_ratio = loc_diff / p.scale
    t1 = ops.log(scale_ratio)
    t2 = math.sqrt(2 / math.pi) * p.scale * ops.exp(-0.5 * ops.pow(loc_diff_scale_ratio, 2))
    t3 = loc_diff * ops.erf(math.sqrt(0.5) * loc_diff_scale_ratio)
    return -t1 + (t2 + t3) / q.scale - (0.5 * (1 + math.log(0.5 * math.pi)))


@register_kl(Uniform, Beta)
def _kl_uniform_beta(p, q):
    common_term = p.high - p.low
    t1 = ops.log(common_term)
    t2 = (q.concentration1 - 1) * (_x_log_x(p.high) - _x_log_x(p.low) - common_term) / common_term
    t3 = (q.concentration0 - 1) * (_x_log_x(1 - p.high) - _x_log_x(1 - p.low) + common_term) / common_term
    t4 = ops.lgamma(q.concentration1) + ops.lgamma(q.concentration0) - ops.lgamma(q.concentration1 + q.concentration0)
    result = t3 + t4 - t1 - t2
    return _inf_where(ops.logical_or(p.high > q.support.upper_bound, p.low < q.support.lower_bound), result)


@register_kl(Uniform, Exponential)
def _kl_uniform_exponential(p, q):
    result = q.rate * (p.high + p.low) / 2 - ops.log((p.high - p.low) * q.rate)
    return _inf_where(p.low < q.support.lower_bound, result)


@register_kl(Uniform, Gamma)
def _kl_uniform_gamma(p, q):
    common_term = p.high - p.low
    t1 = ops.log(common_term)
    t2 = ops.lgamma(q.concentration) - q.concentration * ops.log(q.rate)
    t3 = (1 - q.concentration) * (_x_log_x(p.high) - _x_log_x(p.low) - common_term) / common_term
    t4 = q.rate * (p.high + p.low) / 2
    return _inf_where(p.low < q.support.lower_bound, -t1 + t2 + t3 + t4)


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p, q):
    common_term = p.high - p.low
    t1 = ops.log(math.sqrt(math.pi * 2) * q.scale / common_term)
    t2 = ops.pow(common_term, 2) / 12
    t3 = ops.pow((p.high + p.low - 2 * q.loc) / 2, 2)
    return t1 + 0.5 * (t2 + t3) / ops.pow(q.scale, 2)
