"""Uniform(low, high) and Exponential(rate)."""
from __future__ import annotations

import math

from .. import ops
from . import constraints
from .distribution import Distribution, ExponentialFamily
from .utils import standard_exponential, uniform


class Uniform(Distribution):
    has_rsample = True
    _params = ("low", "high")

    @property
    def arg_constraints(self):
        return {"low": constraints.less_than(self.high), "high": constraints.greater_than(self.low)}

    def __init__(self, low, high, validate_args=None):
        self._init_params((low, high), validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_params(Uniform, batch_shape, _instance)

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        return constraints.interval(self.low, self.high)

    @property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def mode(self):
        return math.nan * self.high

    @property
    def stddev(self):
        return (self.high - self.low) / 12 ** 0.5

    @property
    def variance(self):
        return ops.pow(self.high - self.low, 2) / 12

    def rsample(self, sample_shape=()):
        rand = uniform(self._extended_shape(sample_shape), self.low)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        dt = self.low._data.dtype
        lb = ops.cast(self.low <= value, dt)
        ub = ops.cast(self.high > value, dt)
        return ops.log(lb * ub) - ops.log(self.high - self.low)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return ops.clamp((value - self.low) / (self.high - self.low), 0, 1)

    def icdf(self, value):
        return value * (self.high - self.low) + self.low

    def entropy(self):
        return ops.log(self.high - self.low)


class Exponential(ExponentialFamily):
    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _params = ("rate",)
    _mean_carrier_measure = 0

    def __init__(self, rate, validate_args=None):
        self._init_params((rate,), validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_params(Exponential, batch_shape, _instance)

    @property
    def mean(self):
        return ops.reciprocal(self.rate)

    @property
    def mode(self):
        return self.rate * 0

    @property
    def stddev(self):
        return ops.reciprocal(self.rate)

    @property
    def variance(self):
        return ops.pow(self.rate, -2)

    def rsample(self, sample_shape=()):
        return standard_exponential(self._extended_shape(sample_shape), self.rate) / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return ops.log(self.rate) - self.rate * value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 1 - ops.exp(-self.rate * value)

    def icdf(self, value):
        return -ops.log1p(-value) / self.rate

    def entropy(self):
        return 1.0 - ops.log(self.rate)

    @property
    def _natural_params(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -ops.log(-x)
