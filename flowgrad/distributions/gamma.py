"""Gamma(concentration, rate), Chi2(df) and Beta(concentration1, concentration0). Samples come from
NumPy's gamma sampler, differentiated implicitly with PyTorch's approximations
(flowgrad/ops/random_grads.py)."""
from __future__ import annotations

import numbers

import numpy as np

from .. import backend, ops
from . import constraints
from .dirichlet import check_concentration, dirichlet_entropy, dirichlet_log_prob
from .distribution import ExponentialFamily


class Gamma(ExponentialFamily):
    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _params = ("concentration", "rate")
    _mean_carrier_measure = 0

    def __init__(self, concentration, rate, validate_args=None):
        self._init_params((concentration, rate), validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_params(Gamma, batch_shape, _instance)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ops.clamp((self.concentration - 1) / self.rate, min=0)

    @property
    def variance(self):
        return self.concentration / ops.pow(self.rate, 2)

    def rsample(self, sample_shape=()):
        shape = tuple(self._extended_shape(sample_shape))
        value = ops.standard_gamma(ops.broadcast_to(self.concentration, shape)) / ops.broadcast_to(self.rate, shape)
        # (kept off 0 without touching the graph, as PyTorch clamps the detached value in place)
        d = value._data
        value._data = backend.namespace(d).maximum(d, np.finfo(d.dtype).tiny)
        return value

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (ops.xlogy(self.concentration, self.rate) + ops.xlogy(self.concentration - 1, value)
                - self.rate * value - ops.lgamma(self.concentration))

    def entropy(self):
        return (self.concentration - ops.log(self.rate) + ops.lgamma(self.concentration)
                + (1.0 - self.concentration) * ops.digamma(self.concentration))

    @property
    def _natural_params(self):
        return self.concentration - 1, -self.rate

    def _log_normalizer(self, x, y):
        return ops.lgamma(x + 1) + (x + 1) * ops.log(-ops.reciprocal(y))


class Beta(ExponentialFamily):
    """Beta(concentration1, concentration0): a Dirichlet over (x, 1 - x), held as one stacked
    concentration (its validation names that Dirichlet, as PyTorch's does)."""

    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        c1, c0 = self._broadcast(concentration1, concentration0)
        self._concentration = ops.stack([c1, c0], -1)
        if validate_args is not False and (validate_args or self._validate_args):
            check_concentration(self, self._concentration)
        numbers_only = isinstance(concentration1, numbers.Number) and isinstance(concentration0, numbers.Number)
        super().__init__(() if numbers_only else c1._data.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Beta, _instance)
        shape = tuple(batch_shape)
        new._concentration = ops.broadcast_to(self._concentration, shape + (2,))
        return self._finish_expand(new, shape)

    @property
    def concentration1(self):
        return ops.select(self._concentration, -1, 0)

    @property
    def concentration0(self):
        return ops.select(self._concentration, -1, 1)

    @property
    def mean(self):
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self):
        return (self.concentration1 - 1) / (self.concentration1 + self.concentration0 - 2)

    @property
    def variance(self):
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (ops.pow(total, 2) * (total + 1))

    def rsample(self, sample_shape=()):
        shape = tuple(self._extended_shape(sample_shape))
        return ops.select(ops.sample_dirichlet(ops.broadcast_to(self._concentration, shape + (2,))), -1, 0)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return dirichlet_log_prob(self._concentration, ops.stack([value, 1.0 - value], -1))

    def entropy(self):
        return dirichlet_entropy(self._concentration)

    @property
    def _natural_params(self):
        return self.concentration1, self.concentration0

    def _log_normalizer(self, x, y):
        return ops.lgamma(x) + ops.lgamma(y) - ops.lgamma(x + y)


class Chi2(Gamma):
    """Gamma(df / 2, 1 / 2)."""

    arg_constraints = {"df": constraints.positive}

    def __init__(self, df, validate_args=None):
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, self._get_checked_instance(Chi2, _instance))

    @property
    def df(self):
        return self.concentration * 2
