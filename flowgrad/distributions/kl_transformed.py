"""The KL rules PyTorch registers for Cauchy and the transformed families (Gumbel, HalfNormal,
Pareto, TransformedDistribution), among themselves and with the other families flowgrad builds, in
PyTorch's formulas; registered when the package is imported."""
from __future__ import annotations

import math

from .. import ops
from .continuous import Exponential, Uniform
from .gamma import Beta, Gamma
from .kl import _kl_normal_normal, kl_divergence, register_kl
from .kl_cross import (_inf_where, _infinite_like, _kl_exponential_infinity, _kl_gamma_infinity,
                       _kl_laplace_infinity, _kl_normal_infinity, _x_log_x)
from .normal import Cauchy, Laplace, Normal
from .transformed import TransformedDistribution
from .transformed_families import Gumbel, HalfNormal, Pareto
from .utils import euler_constant

for _p, _rule in ((Exponential, _kl_exponential_infinity), (Gamma, _kl_gamma_infinity),
                  (Laplace, _kl_laplace_infinity), (Normal, _kl_normal_infinity)):
    register_kl(_p, Pareto)(_rule)


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(p, q):
    t1 = ops.log(ops.pow(p.scale + q.scale, 2) + ops.pow(p.loc - q.loc, 2))
    return t1 - ops.log(4 * p.scale * q.scale)


@register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(p, q):
    ct1, ct2, ct3 = p.scale / q.scale, q.loc / q.scale, p.loc / q.scale
    t1 = -ops.log(ct1) - ct2 + ct3
    t3 = ops.exp(ct2 + ops.lgamma(1 + ct1) - ct3)
    return t1 + ct1 * euler_constant + t3 - (1 + euler_constant)


@register_kl(HalfNormal, HalfNormal)
def _kl_halfnormal_halfnormal(p, q):
    return _kl_normal_normal(p.base_dist, q.base_dist)


@register_kl(Pareto, Pareto)
def _kl_pareto_pareto(p, q):
    alpha_ratio = q.alpha / p.alpha
    result = q.alpha * ops.log(p.scale / q.scale) - ops.log(alpha_ratio) + alpha_ratio - 1
    return _inf_where(p.support.lower_bound < q.support.lower_bound, result)


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p, q):
    if p.transforms != q.transforms or tuple(p.event_shape) != tuple(q.event_shape):
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)


@register_kl(Exponential, Gumbel)
def _kl_exponential_gumbel(p, q):
    scale_rate = p.rate * q.scale
    loc_scale = q.loc / q.scale
    t1 = ops.log(scale_rate) - 1
    t2 = ops.exp(loc_scale) * scale_rate / (scale_rate + 1)
    return t1 - loc_scale + t2 + ops.reciprocal(scale_rate)


@register_kl(Gamma, Gumbel)
def _kl_gamma_gumbel(p, q):
    beta_scale = p.rate * q.scale
    loc_scale = q.loc / q.scale
    c = p.concentration
    t1 = (c - 1) * ops.digamma(c) - ops.lgamma(c) - c
    t2 = ops.log(beta_scale) + c / beta_scale
    t3 = ops.exp(loc_scale) * ops.pow(1 + ops.reciprocal(beta_scale), -c) - loc_scale
    return t1 + t2 + t3


@register_kl(Gumbel, Beta)
@register_kl(Gumbel, Exponential)
@register_kl(Gumbel, Gamma)
@register_kl(Gumbel, Pareto)
@register_kl(Gumbel, Uniform)
def _kl_gumbel_infinity(p, q):
    return _infinite_like(p.loc)


@register_kl(Gumbel, Normal)
def _kl_gumbel_normal(p, q):
    ratio = p.scale / q.scale
    t1 = ops.log(ratio / math.sqrt(2 * math.pi))
    t2 = ops.pow(math.pi * ratio * 0.5, 2) / 3
    t3 = ops.pow((p.loc + p.scale * euler_constant - q.loc) / q.scale, 2) * 0.5
    return -t1 + t2 + t3 - (euler_constant + 1)


@register_kl(Normal, Gumbel)
def _kl_normal_gumbel(p, q):
    mean_scale = p.loc / q.scale
    var_scale_sq = ops.pow(p.scale / q.scale, 2)
    loc_scale = q.loc / q.scale
    t1 = ops.log(var_scale_sq) * 0.5
    t3 = ops.exp(-mean_scale + 0.5 * var_scale_sq + loc_scale)
    return -t1 + (mean_scale - loc_scale) + t3 - (0.5 * (1 + math.log(2 * math.pi)))


@register_kl(Beta, Pareto)
def _kl_beta_infinity(p, q):
    return _infinite_like(p.concentration1)


@register_kl(Pareto, Beta)
@register_kl(Pareto, Uniform)
def _kl_pareto_infinity(p, q):
    return _infinite_like(p.scale)


@register_kl(Pareto, Exponential)
def _kl_pareto_exponential(p, q):
    scale_rate = p.scale * q.rate
    result = ops.log(p.alpha / scale_rate) - ops.reciprocal(p.alpha) + p.alpha * scale_rate / (p.alpha - 1) - 1
    return _inf_where(p.alpha <= 1, result)


@register_kl(Pareto, Gamma)
def _kl_pareto_gamma(p, q):
    common = ops.log(p.scale) + ops.reciprocal(p.alpha)
    t1 = ops.log(p.alpha) - common
    t2 = ops.lgamma(q.concentration) - q.concentration * ops.log(q.rate)
    t3 = (1 - q.concentration) * common
    t4 = q.rate * p.alpha * p.scale / (p.alpha - 1)
    return _inf_where(p.alpha <= 1, t1 + t2 + t3 + t4 - 1)


@register_kl(Pareto, Normal)
def _kl_pareto_normal(p, q):
    var_normal = 2 * ops.pow(q.scale, 2)
    common = p.scale / (p.alpha - 1)
    t1 = ops.log(math.sqrt(2 * math.pi) * q.scale * p.alpha / p.scale)
    t3 = p.alpha * ops.pow(common, 2) / (p.alpha - 2)
    t4 = ops.pow(p.alpha * common - q.loc, 2)
    return _inf_where(p.alpha <= 2, t1 - ops.reciprocal(p.alpha) + (t3 + t4) / var_normal - 1)


@register_kl(Uniform, Gumbel)
def _kl_uniform_gumbel(p, q):
    common = q.scale / (p.high - p.low)
    high_diff = (p.high - q.loc) / q.scale
    low_diff = (p.low - q.loc) / q.scale
    t1 = ops.log(common) + 0.5 * (high_diff + low_diff)
    return t1 - common * (ops.exp(-high_diff) - ops.exp(-low_diff))


@register_kl(Uniform, Pareto)
def _kl_uniform_pareto(p, q):
    width = p.high - p.low
    t1 = ops.log(q.alpha * ops.pow(q.scale, q.alpha) * width)
    t2 = (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    return _inf_where(p.low < q.support.lower_bound, t2 * (q.alpha + 1) - t1)
