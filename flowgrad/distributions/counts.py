"""Poisson(rate), Geometric(probs | logits), Binomial(total_count, probs | logits) and
NegativeBinomial(total_count, probs | logits): distributions over counts."""
from __future__ import annotations

import numpy as np

from .. import backend, ops
from ..autograd import mode
from ..ops import layers as _layers
from . import constraints
from .discrete import _BinaryProbs, _expand_probs_logits, _one_of
from .distribution import Distribution, ExponentialFamily
from .gamma import Gamma
from .utils import binomial, lazy_property, logits_to_probs, poisson, probs_to_logits, uniform


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


class _CountOfTrials(Distribution):
    """What Binomial and NegativeBinomial share: a total count broadcast with one success
    probability, given as `probs` or `logits` (the other computed when asked), in its dtype."""

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        _one_of(probs, logits, self._tensor_cls.policy)
        name = "probs" if probs is not None else "logits"
        count, param = self._broadcast(total_count, probs if probs is not None else logits)
        self.total_count = ops.cast(count, param._data.dtype)
        setattr(self, name, param)
        self._param = param
        Distribution.__init__(self, param._data.shape, validate_args=validate_args)

    def _expand_count(self, cls, batch_shape, _instance):
        new = self._get_checked_instance(cls, _instance)
        shape = tuple(batch_shape)
        new.total_count = ops.broadcast_to(self.total_count, shape)
        _expand_probs_logits(self, new, shape)
        return self._finish_expand(new, shape)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self):
        return self._tensor_cls._size(self._param._data.shape)


def _clamp_by_zero(x):
    return (ops.clamp(x, min=0) + x - ops.clamp(x, max=0)) / 2


class Binomial(_CountOfTrials):
    arg_constraints = {"total_count": constraints.nonnegative_integer, "probs": constraints.unit_interval,
                       "logits": constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        super().__init__(total_count, probs, logits, validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_count(Binomial, batch_shape, _instance)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ops.clamp(ops.floor((self.total_count + 1) * self.probs), max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        shape = tuple(self._extended_shape(sample_shape))
        with mode._GradModeGuard(False):
            return binomial(ops.broadcast_to(self.total_count, shape), ops.broadcast_to(self.probs, shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        n, logits = self.total_count, self.logits
        normalize = (n * _clamp_by_zero(logits) + n * ops.log1p(ops.exp(-ops.abs(logits)))
                     - ops.lgamma(n + 1))
        return value * logits - ops.lgamma(value + 1) - ops.lgamma(n - value + 1) - normalize

    def _homogeneous_count(self, fn: str) -> int:
        d = self.total_count._data
        count = int(d.max())
        if not d.min() == count:
            raise self._policy.errors.dist_inhomogeneous_count(fn=fn)
        return count

    def entropy(self):
        self._homogeneous_count("entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -ops.sum(ops.exp(log_prob) * log_prob, 0)

    def enumerate_support(self, expand: bool = True):
        count = self._homogeneous_count("enumerate_support")
        p = self._param._data
        xp = backend.namespace(p)
        values = xp.arange(1 + count, dtype=p.dtype).reshape((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = xp.ascontiguousarray(xp.broadcast_to(values, (1 + count,) + tuple(self._batch_shape)))
        return self._param._new(values)


class NegativeBinomial(_CountOfTrials):
    """The number of successes before `total_count` failures, success having probability `probs`."""

    arg_constraints = {"total_count": constraints.greater_than_eq(0),
                       "probs": constraints.half_open_interval(0.0, 1.0), "logits": constraints.real}
    support = constraints.nonnegative_integer

    def expand(self, batch_shape, _instance=None):
        return self._expand_count(NegativeBinomial, batch_shape, _instance)

    @property
    def mean(self):
        return self.total_count * ops.exp(self.logits)

    @property
    def mode(self):
        return ops.clamp(ops.floor((self.total_count - 1) * ops.exp(self.logits)), min=0.0)

    @property
    def variance(self):
        return self.mean / ops.sigmoid(-self.logits)

    @lazy_property
    def _gamma(self):
        return self._cls(Gamma)(concentration=self.total_count, rate=ops.exp(-self.logits), validate_args=False)

    def sample(self, sample_shape=()):
        with mode._GradModeGuard(False):
            return poisson(self._gamma.sample(sample_shape=sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        n = self.total_count
        log_unnormalized = n * -_layers.softplus(self.logits) + value * -_layers.softplus(-self.logits)
        log_normalization = -ops.lgamma(n + value) + ops.lgamma(1.0 + value) + ops.lgamma(n)
        log_normalization = ops.where(n + value == 0.0, 0.0, log_normalization)
        return log_unnormalized - log_normalization
