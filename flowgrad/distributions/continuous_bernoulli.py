"""ContinuousBernoulli(probs | logits): the density on [0, 1] proportional to p**x (1 - p)**(1 - x),
with PyTorch's Taylor expansions inside the unstable region around p = 1/2 (`lims`)."""
from __future__ import annotations

import math
import numbers

from .. import ops
from ..ops import layers as _layers
from . import constraints
from .discrete import _expand_probs_logits, _one_of
from .distribution import Distribution, ExponentialFamily
from .utils import clamp_probs, full_like, lazy_property, logits_to_probs, probs_to_logits, uniform


class ContinuousBernoulli(ExponentialFamily):
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        _one_of(probs, logits, self._tensor_cls.policy)
        given = probs if probs is not None else logits
        (param,) = self._broadcast(given)
        if probs is not None:
            if validate_args is not None and not bool(ops.all(self.arg_constraints["probs"].check(param))._data):
                raise self._tensor_cls.policy.errors.dist_cb_probs()
            param = clamp_probs(param)
        setattr(self, "probs" if probs is not None else "logits", param)
        self._param = param
        self._lims = lims
        Distribution.__init__(self, () if isinstance(given, numbers.Number) else param._data.shape,
                              validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(ContinuousBernoulli, _instance)
        new._lims = self._lims
        shape = tuple(batch_shape)
        _expand_probs_logits(self, new, shape)
        return self._finish_expand(new, shape)

    def _outside_unstable_region(self):
        return ops.logical_or(self.probs <= self._lims[0], self.probs > self._lims[1])

    def _cut_probs(self):
        return ops.where(self._outside_unstable_region(), self.probs, full_like(self.probs, self._lims[0]))

    def _cont_bern_log_norm(self):
        cut = self._cut_probs()
        below_half = ops.where(cut <= 0.5, cut, full_like(cut, 0.0))
        above_half = ops.where(cut >= 0.5, cut, full_like(cut, 1.0))
        log_norm = ops.log(ops.abs(ops.log1p(-cut) - ops.log(cut))) - ops.where(
            cut <= 0.5, ops.log1p(-2.0 * below_half), ops.log(2.0 * above_half - 1.0))
        x = ops.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return ops.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self):
        cut = self._cut_probs()
        mus = cut / (2.0 * cut - 1.0) + 1.0 / (ops.log1p(-cut) - ops.log(cut))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * ops.pow(x, 2)) * x
        return ops.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self):
        return ops.sqrt(self.variance)

    @property
    def variance(self):
        cut = self._cut_probs()
        variances = cut * (cut - 1.0) / ops.pow(1.0 - 2.0 * cut, 2) + 1.0 / ops.pow(ops.log1p(-cut) - ops.log(cut), 2)
        x = ops.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return ops.where(self._outside_unstable_region(), variances, taylor)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self):
        return self._tensor_cls._size(self._param._data.shape)

    def rsample(self, sample_shape=()):
        return self.icdf(uniform(self._extended_shape(sample_shape), self.probs))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = self._broadcast(self.logits, value)
        return (-_layers.binary_cross_entropy_with_logits(logits, value, reduction="none")
                + self._cont_bern_log_norm())

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        cut = self._cut_probs()
        cdfs = (ops.pow(cut, value) * ops.pow(1.0 - cut, 1.0 - value) + cut - 1.0) / (2.0 * cut - 1.0)
        unbounded = ops.where(self._outside_unstable_region(), cdfs, value)
        return ops.where(value <= 0.0, full_like(value, 0.0),
                         ops.where(value >= 1.0, full_like(value, 1.0), unbounded))

    def icdf(self, value):
        cut = self._cut_probs()
        return ops.where(self._outside_unstable_region(),
                         (ops.log1p(-cut + value * (2.0 * cut - 1.0)) - ops.log1p(-cut))
                         / (ops.log(cut) - ops.log1p(-cut)), value)

    def entropy(self):
        log_probs0 = ops.log1p(-self.probs)
        log_probs1 = ops.log(self.probs)
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0

    @property
    def _natural_params(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        outside = ops.logical_or(x <= self._lims[0] - 0.5, x > self._lims[1] - 0.5)
        cut = ops.where(outside, x, full_like(x, self._lims[0] - 0.5))
        log_norm = ops.log(ops.abs(ops.expm1(cut))) - ops.log(ops.abs(cut))
        taylor = 0.5 * x + ops.pow(x, 2) / 24.0 - ops.pow(x, 4) / 2880.0
        return ops.where(outside, log_norm, taylor)
