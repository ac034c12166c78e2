"""Normal(loc, scale), Laplace(loc, scale) and Cauchy(loc, scale)."""
from __future__ import annotations

import math

import numpy as np

from .. import ops
from . import constraints
from .distribution import Distribution, ExponentialFamily
from .utils import full_like, standard_normal, uniform


class _LocationScale:
    """What Normal and Laplace share: real loc and positive scale broadcast together; mean and mode
    are loc."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True
    _params = ("loc", "scale")

    def __init__(self, loc, scale, validate_args=None):
        self._init_params((loc, scale), validate_args)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc


class Normal(_LocationScale, ExponentialFamily):
    _mean_carrier_measure = 0

    def expand(self, batch_shape, _instance=None):
        return self._expand_params(Normal, batch_shape, _instance)

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return ops.pow(self.stddev, 2)

    def rsample(self, sample_shape=()):
        eps = standard_normal(self._extended_shape(sample_shape), self.loc)
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale ** 2
        return -((value - self.loc) ** 2) / (2 * var) - ops.log(self.scale) - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + ops.erf((value - self.loc) * ops.reciprocal(self.scale) / math.sqrt(2)))

    def icdf(self, value):
        return self.loc + self.scale * ops.erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + ops.log(self.scale)

    @property
    def _natural_params(self):
        return self.loc / self.scale ** 2, -0.5 * ops.reciprocal(self.scale ** 2)

    def _log_normalizer(self, x, y):
        return -0.25 * x ** 2 / y + 0.5 * ops.log(-math.pi / y)


class Laplace(_LocationScale, Distribution):
    def expand(self, batch_shape, _instance=None):
        return self._expand_params(Laplace, batch_shape, _instance)

    @property
    def variance(self):
        return 2 * ops.pow(self.scale, 2)

    @property
    def stddev(self):
        return math.sqrt(2) * self.scale

    def rsample(self, sample_shape=()):
        eps = float(np.finfo(self.loc._data.dtype).eps)
        u = uniform(self._extended_shape(sample_shape), self.loc, eps - 1, 1)
        return self.loc - self.scale * ops.sign(u) * ops.log1p(-ops.abs(u))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -ops.log(2 * self.scale) - ops.abs(value - self.loc) / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * ops.sign(value - self.loc) * ops.expm1(-ops.abs(value - self.loc) / self.scale)

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * ops.sign(term) * ops.log1p(-2 * ops.abs(term))

    def entropy(self):
        return 1 + ops.log(2 * self.scale)


class Cauchy(_LocationScale, Distribution):
    """Mean and variance undefined (nan and inf, as PyTorch gives them); the mode is loc."""

    def expand(self, batch_shape, _instance=None):
        return self._expand_params(Cauchy, batch_shape, _instance)

    @property
    def mean(self):
        return full_like(self.loc, math.nan, self._extended_shape())

    @property
    def variance(self):
        return full_like(self.loc, math.inf, self._extended_shape())

    def rsample(self, sample_shape=()):
        eps = ops.tan(math.pi * (uniform(self._extended_shape(sample_shape), self.loc) - 0.5))
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -math.log(math.pi) - ops.log(self.scale) - ops.log1p(((value - self.loc) / self.scale) ** 2)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        return ops.atan2(z, full_like(z, 1.0)) / math.pi + 0.5

    def icdf(self, value):
        return ops.tan(math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self):
        return math.log(4 * math.pi) + ops.log(self.scale)
