"""Multinomial(total_count, probs | logits), OneHotCategorical(probs | logits) and
OneHotCategoricalStraightThrough: vector-valued relatives of Categorical, held as one."""
from __future__ import annotations

import math

import numpy as np

from .. import backend, ops
from ..autograd import mode
from . import constraints
from .counts import Binomial
from .discrete import Categorical
from .distribution import Distribution


class _OfCategorical(Distribution):
    """A distribution held as a Categorical (`_categorical`) over the last dim of its parameters."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def _set_categorical(self, probs, logits, validate_args) -> None:
        self._categorical = self._cls(Categorical)(probs, logits)
        Distribution.__init__(self, self._categorical.batch_shape, self._categorical.param_shape[-1:],
                              validate_args=validate_args)

    def _expand_categorical(self, cls, batch_shape, _instance):
        new = self._get_checked_instance(cls, _instance)
        new._categorical = self._categorical.expand(batch_shape)
        return new

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def param_shape(self):
        return self._tensor_cls._size(self._categorical.param_shape)


class Multinomial(_OfCategorical):
    def __init__(self, total_count: int = 1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise self._tensor_cls.policy.errors.dist_multinomial_count()
        self.total_count = total_count
        self._set_categorical(probs, logits, None)
        self._binomial = self._cls(Binomial)(total_count=total_count, probs=self.probs)
        Distribution.__init__(self, self._batch_shape, self._event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._expand_categorical(Multinomial, batch_shape, _instance)
        new.total_count = self.total_count
        return self._finish_expand(new, tuple(batch_shape), self._event_shape)

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self):
        return constraints.multinomial(self.total_count)

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        """Counts of `total_count` categorical draws."""
        with mode._GradModeGuard(False):
            draws = self._categorical.sample((self.total_count,) + tuple(sample_shape))._data
            xp = backend.namespace(draws)
            k = self._event_shape[0]
            counts = (draws[..., None] == xp.arange(k)).sum(0)
            return self.probs._new(counts.astype(self.probs._data.dtype))

    def entropy(self):
        n = float(self.total_count)
        # (PyTorch takes lgamma of the integer count as a tensor of the default float dtype)
        term1 = n * self._categorical.entropy() - float(np.asarray(math.lgamma(n + 1), backend.default_float()))
        support = self._binomial.enumerate_support(expand=False)[1:]
        binomial_probs = ops.exp(self._binomial.log_prob(support))
        weights = ops.lgamma(support + 1)
        return term1 + ops.sum(binomial_probs * weights, (0, -1))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = self._broadcast(self.logits, value)
        logits = ops.where(ops.logical_and(value == 0, logits == -math.inf), 0.0, logits)
        log_factorial_n = ops.lgamma(ops.sum(value, -1) + 1)
        log_factorial_xs = ops.sum(ops.lgamma(value + 1), -1)
        return log_factorial_n - log_factorial_xs + ops.sum(logits * value, -1)


def _one_hot(indices, k: int, like):
    xp = backend.namespace(indices)
    return like._new((indices[..., None] == xp.arange(k)).astype(like._data.dtype))


class OneHotCategorical(_OfCategorical):
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._set_categorical(probs, logits, validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._expand_categorical(OneHotCategorical, batch_shape, _instance)
        return self._finish_expand(new, tuple(batch_shape), self._event_shape)

    @property
    def _param(self):
        return self._categorical._param

    @property
    def mean(self):
        return self._categorical.probs

    @property
    def mode(self):
        probs = self._categorical.probs
        return _one_hot(probs._data.argmax(-1), probs._data.shape[-1], probs)

    @property
    def variance(self):
        return self._categorical.probs * (1 - self._categorical.probs)

    def sample(self, sample_shape=()):
        probs = self._categorical.probs
        with mode._GradModeGuard(False):
            return _one_hot(self._categorical.sample(sample_shape)._data, self._categorical._num_events, probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(ops.argmax(value, -1))

    def entropy(self):
        return self._categorical.entropy()

    def enumerate_support(self, expand: bool = True):
        n = self._event_shape[0]
        p = self._param._data
        xp = backend.namespace(p)
        values = xp.eye(n, dtype=p.dtype).reshape((n,) + (1,) * len(self._batch_shape) + (n,))
        if expand:
            values = xp.ascontiguousarray(xp.broadcast_to(values, (n,) + tuple(self._batch_shape) + (n,)))
        return self._param._new(values)


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """OneHotCategorical whose rsample passes gradients to the probabilities as if the one-hot draw
    were the probabilities themselves (the straight-through estimator)."""

    has_rsample = True

    def rsample(self, sample_shape=()):
        samples = self.sample(sample_shape)
        probs = self._categorical.probs
        return samples + (probs - probs.detach())
