"""Poisson(rate) and Geometric(probs | logits): distributions over counts."""
from __future__ import annotations

import numpy as np

from .. import ops
from ..autograd import mode
from ..ops import layers as _layers
from . import constraints
from .discrete import _BinaryProbs
from .distribution import Distribution, ExponentialFamily
from .utils import poisson, uniform


class Poisson(ExponentialFamily):
    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer
    _params = ("rate",)

    def __init__(self, rate, validate_args=None):
        self._init_params((rate,), validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_params(Poisson, batch_shape, _instance)

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return ops.floor(self.rate)

    @property
    def variance(self):
        return self.rate

    def sample(self, sample_shape=()):
        with mode._GradModeGuard(False):
            return poisson(ops.broadcast_to(self.rate, tuple(self._extended_shape(sample_shape))))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        rate, value = self._broadcast(self.rate, value)
        return ops.xlogy(value, rate) - rate - ops.lgamma(value + 1)

    @property
    def _natural_params(self):
        return (ops.log(self.rate),)

    def _log_normalizer(self, x):
        return ops.exp(x)


class Geometric(_BinaryProbs, Distribution):
    """The number of failures before the first success, success having probability `probs`."""

    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None):
        super().__init__(probs, logits, validate_args)
        if self._validate_args and probs is not None:
            valid = self.probs > 0
            if not bool(ops.all(valid)._data):
                raise self._policy.errors.dist_probs_positive(
                    type=type(self.probs).__name__, shape=tuple(self.probs._data.shape), dist=repr(self),
                    value=self.probs._new(self.probs._data[~valid._data]))

    def expand(self, batch_shape, _instance=None):
        return self._expand_binary(Geometric, batch_shape, _instance)

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return self.probs * 0

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with mode._GradModeGuard(False):
            tiny = float(np.finfo(self.probs._data.dtype).tiny)
            u = uniform(shape, self.probs, tiny, 1)
            return ops.floor(ops.log(u) / ops.log1p(-self.probs))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = self._broadcast(value, self.probs)
        probs = ops.where(ops.logical_and(probs == 1, value == 0), 0.0, probs)
        return value * ops.log1p(-probs) + ops.log(self.probs)

    def entropy(self):
        return _layers.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none") / self.probs
