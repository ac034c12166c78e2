"""kl_divergence(p, q) by the most specific registered (type of p, type of q) rule, and register_kl;
the same-family rules PyTorch registers for the distributions flowgrad builds, in PyTorch's formulas
(so their gradients are PyTorch's too); kl_cross.py holds the rules between families."""
from __future__ import annotations

import functools
import math
import warnings

import numpy as np

from .. import ops
from ..autograd import api, mode
from ..autograd.policy import TORCH
from ..ops import linalg_decomp
from ..ops import layers as _layers
from .continuous import Exponential, Uniform
from .counts import Geometric, Poisson
from .discrete import Bernoulli, Categorical
from .dirichlet import Dirichlet
from .distribution import Distribution, ExponentialFamily
from .gamma import Beta, Gamma
from .independent import Independent
from .multivariate_normal import MultivariateNormal, batch_mahalanobis
from .normal import Laplace, Normal
from .utils import sum_rightmost

__all__ = ["register_kl", "kl_divergence"]

_KL_REGISTRY: dict = {}
_KL_MEMOIZE: dict = {}


def register_kl(type_p, type_q):
    """Decorator registering `fn(p, q)` as the KL divergence of a (type_p, type_q) pair."""
    for which, value in (("p", type_p), ("q", type_q)):
        if not isinstance(value, type) and issubclass(value, Distribution):
            raise TORCH.errors.kl_register_type(which=which, value=value)

    def decorator(fun):
        _KL_REGISTRY[type_p, type_q] = fun
        _KL_MEMOIZE.clear()
        return fun

    return decorator


@functools.total_ordering
class _Match:
    __slots__ = ("types",)

    def __init__(self, *types):
        self.types = types

    def __eq__(self, other):
        return self.types == other.types

    def __le__(self, other):
        for x, y in zip(self.types, other.types):
            if not issubclass(x, y):
                return False
            if x is not y:
                break
        return True


def _dispatch_kl(type_p, type_q):
    """The most specific match, warning where the left and right orders disagree."""
    matches = [(p, q) for p, q in _KL_REGISTRY if issubclass(type_p, p) and issubclass(type_q, q)]
    if not matches:
        return NotImplemented
    left_p, left_q = min(_Match(*m) for m in matches).types
    right_q, right_p = min(_Match(*reversed(m)) for m in matches).types
    left_fun, right_fun = _KL_REGISTRY[left_p, left_q], _KL_REGISTRY[right_p, right_q]
    if left_fun is not right_fun:
        warnings.warn(TORCH.errors.kl_ambiguous(p=type_p.__name__, q=type_q.__name__, left=left_p.__name__,
                                                right=right_q.__name__), stacklevel=2)
    return left_fun


def kl_divergence(p: Distribution, q: Distribution):
    """KL(p || q), batched over the batch shape."""
    try:
        fun = _KL_MEMOIZE[type(p), type(q)]
    except KeyError:
        fun = _KL_MEMOIZE[type(p), type(q)] = _dispatch_kl(type(p), type(q))
    if fun is NotImplemented:
        raise p._policy.errors.kl_not_implemented(p=type(p).__name__, q=type(q).__name__)
    return fun(p, q)


# ----------------------------------------------------------------------------- rules

@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    softplus = _layers.softplus
    t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    t1 = ops.where(p.probs == 0, 0.0, ops.where(q.probs == 0, math.inf, t1))
    t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    t2 = ops.where(p.probs == 1, 0.0, ops.where(q.probs == 1, math.inf, t2))
    return t1 + t2


@register_kl(Beta, Beta)
def _kl_beta_beta(p, q):
    sum_p = p.concentration1 + p.concentration0
    sum_q = q.concentration1 + q.concentration0
    t1 = ops.lgamma(q.concentration1) + ops.lgamma(q.concentration0) + ops.lgamma(sum_p)
    t2 = ops.lgamma(p.concentration1) + ops.lgamma(p.concentration0) + ops.lgamma(sum_q)
    t3 = (p.concentration1 - q.concentration1) * ops.digamma(p.concentration1)
    t4 = (p.concentration0 - q.concentration0) * ops.digamma(p.concentration0)
    t5 = (sum_q - sum_p) * ops.digamma(sum_p)
    return t1 - t2 + t3 + t4 + t5


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    shape = t._data.shape
    t = ops.where(ops.broadcast_to(q.probs == 0, shape), math.inf, t)
    t = ops.where(ops.broadcast_to(p.probs == 0, shape), 0.0, t)
    return ops.sum(t, -1)


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    sum_p = ops.sum(p.concentration, -1)
    sum_q = ops.sum(q.concentration, -1)
    t1 = ops.lgamma(sum_p) - ops.lgamma(sum_q)
    t2 = ops.sum(ops.lgamma(p.concentration) - ops.lgamma(q.concentration), -1)
    t3 = p.concentration - q.concentration
    t4 = ops.digamma(p.concentration) - ops.unsqueeze(ops.digamma(sum_p), -1)
    return t1 - t2 + ops.sum(t3 * t4, -1)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    rate_ratio = q.rate / p.rate
    return -ops.log(rate_ratio) + rate_ratio - 1


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p, q):
    """The Bregman divergence of the log-normalizer between the natural parameters."""
    if type(p) is not type(q):
        raise p._policy.errors.kl_cross_exponential_family()
    with mode._GradModeGuard(True):
        p_nparams = [t.detach().requires_grad_(True) for t in p._natural_params]
        q_nparams = q._natural_params
        lg_normal = p._log_normalizer(*p_nparams)
        gradients = api.grad([ops.sum(lg_normal)], p_nparams, create_graph=True, policy=p._policy)
        result = q._log_normalizer(*q_nparams) - lg_normal
        for pnp, qnp, g in zip(p_nparams, q_nparams, gradients):
            result = result - sum_rightmost((qnp - pnp) * g, len(q.event_shape))
    return result


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p, q):
    t1 = q.concentration * ops.log(p.rate / q.rate)
    t2 = ops.lgamma(q.concentration) - ops.lgamma(p.concentration)
    t3 = (p.concentration - q.concentration) * ops.digamma(p.concentration)
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


@register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p, q):
    return -p.entropy() - ops.log1p(-q.probs) / p.probs - q.logits


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    return p.rate * (ops.log(p.rate) - ops.log(q.rate)) - (p.rate - q.rate)


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    scale_ratio = p.scale / q.scale
    loc_abs_diff = ops.abs(p.loc - q.loc)
    return -ops.log(scale_ratio) + loc_abs_diff / q.scale + scale_ratio * ops.exp(-loc_abs_diff / p.scale) - 1


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariatenormal_multivariatenormal(p, q):
    if tuple(p.event_shape) != tuple(q.event_shape):
        raise p._policy.errors.kl_mvn_event_shapes()
    pL, qL = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    half_term1 = q._half_log_det() - p._half_log_det()
    batch = np.broadcast_shapes(qL._data.shape[:-2], pL._data.shape[:-2])
    n = p.event_shape[0]
    solved = linalg_decomp.solve_triangular(ops.broadcast_to(qL, batch + (n, n)), ops.broadcast_to(pL, batch + (n, n)),
                                            upper=False)
    term2 = ops.sum(ops.pow(solved, 2), (-2, -1))
    term3 = batch_mahalanobis(qL, q.loc - p.loc)
    return half_term1 + 0.5 * (term2 + term3 - n)


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    var_ratio = ops.pow(p.scale / q.scale, 2)
    t1 = ops.pow((p.loc - q.loc) / q.scale, 2)
    return 0.5 * (var_ratio + t1 - 1 - ops.log(var_ratio))


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    result = ops.log((q.high - q.low) / (p.high - p.low))
    outside = ops.logical_or(q.low > p.low, q.high < p.high)
    return ops.where(outside, math.inf, result)
