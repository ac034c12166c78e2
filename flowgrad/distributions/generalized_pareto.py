"""GeneralizedPareto(loc, scale, concentration): the generalized Pareto distribution, with the
exponential case where the concentration is (close to) 0, sampled by its inverse cdf."""
from __future__ import annotations

import math

from .. import backend, ops
from . import constraints
from .distribution import Distribution
from .utils import full_like, uniform


def _near_zero(c):
    """PyTorch's isclose(c, 0): |c| <= 1e-8."""
    d = c._data
    return c._new(backend.namespace(d).abs(d) <= 1e-8)


class GeneralizedPareto(Distribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive, "concentration": constraints.real}
    has_rsample = True
    _params = ("loc", "scale", "concentration")

    def __init__(self, loc, scale, concentration, validate_args=None):
        self._init_params((loc, scale, concentration), validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_params(GeneralizedPareto, batch_shape, _instance)

    def _safe_concentration(self, eq_zero):
        return ops.where(eq_zero, full_like(self.concentration, 1.0), self.concentration)

    def rsample(self, sample_shape=()):
        return self.icdf(uniform(self._extended_shape(sample_shape), self.loc))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero = _near_zero(self.concentration)
        safe = self._safe_concentration(eq_zero)
        y = 1 / safe + full_like(z, 1.0)
        where_nonzero = ops.where(y == 0, y, y * ops.log1p(safe * z))
        return -ops.log(self.scale) - ops.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero = _near_zero(self.concentration)
        safe = self._safe_concentration(eq_zero)
        return ops.where(eq_zero, -z, -ops.log1p(safe * z) / safe)

    def log_cdf(self, value):
        return ops.log1p(-ops.exp(self.log_survival_function(value)))

    def cdf(self, value):
        return ops.exp(self.log_cdf(value))

    def icdf(self, value):
        eq_zero = _near_zero(self.concentration)
        safe = self._safe_concentration(eq_zero)
        logu = ops.log1p(-value)
        where_nonzero = self.loc + self.scale / safe * ops.expm1(-safe * logu)
        return ops.where(eq_zero, self.loc - self.scale * logu, where_nonzero)

    def _z(self, x):
        return (x - self.loc) / self.scale

    @property
    def mean(self):
        valid = self.concentration < 1
        safe = ops.where(valid, self.concentration, 0.5)
        return ops.where(valid, self.loc + self.scale / (1 - safe), math.nan)

    @property
    def variance(self):
        valid = self.concentration < 0.5
        safe = ops.where(valid, self.concentration, 0.25)
        return ops.where(valid, self.scale ** 2 / ((1 - safe) ** 2 * (1 - 2 * safe)), math.nan)

    def entropy(self):
        return ops.broadcast_to(ops.log(self.scale) + self.concentration + 1, tuple(self._batch_shape))

    @property
    def mode(self):
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        upper = ops.where(self.concentration < 0, self.loc - self.scale / self.concentration, math.inf)
        return constraints.interval(self.loc, upper)
