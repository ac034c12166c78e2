"""Bernoulli(probs | logits) and Categorical(probs | logits)."""
from __future__ import annotations

import math
import numbers

import numpy as np

from .. import backend, ops
from ..ops import layers as _layers
from ..autograd import mode
from . import constraints
from .distribution import Distribution, ExponentialFamily
from .utils import lazy_property, logits_to_probs, probs_to_logits, uniform


def _support_values(like, count: int, dtype, batch: tuple, expand: bool):
    """0 .. count-1 along a new leading dim, shaped (count,) + (1,) * len(batch) or expanded to batch."""
    xp = backend.namespace(like._data)
    values = xp.arange(count, dtype=dtype).reshape((-1,) + (1,) * len(batch))
    if expand:
        values = xp.ascontiguousarray(xp.broadcast_to(values, (count,) + batch))
    return like._new(values)


def _expand_probs_logits(dist, new, param_shape: tuple) -> None:
    """`new` gets whichever of probs / logits `dist` holds, broadcast to `param_shape`."""
    for name in ("probs", "logits"):
        if name in dist.__dict__:
            setattr(new, name, ops.broadcast_to(dist.__dict__[name], param_shape))
            new._param = getattr(new, name)


def _one_of(probs, logits, policy):
    if (probs is None) == (logits is None):
        raise policy.errors.dist_probs_or_logits()


class _BinaryProbs:
    """What Bernoulli and Geometric share: one success probability given as `probs` or `logits` (the
    other computed when asked)."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}

    def __init__(self, probs=None, logits=None, validate_args=None):
        _one_of(probs, logits, self._tensor_cls.policy)
        given = probs if probs is not None else logits
        (param,) = self._broadcast(given)
        setattr(self, "probs" if probs is not None else "logits", param)
        self._param = param
        Distribution.__init__(self, () if isinstance(given, numbers.Number) else param._data.shape,
                              validate_args=validate_args)

    def _expand_binary(self, cls, batch_shape, _instance):
        new = self._get_checked_instance(cls, _instance)
        shape = tuple(batch_shape)
        _expand_probs_logits(self, new, shape)
        return self._finish_expand(new, shape)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)


class Bernoulli(_BinaryProbs, ExponentialFamily):
    support = constraints.boolean
    has_enumerate_support = True
    _mean_carrier_measure = 0

    def expand(self, batch_shape, _instance=None):
        return self._expand_binary(Bernoulli, batch_shape, _instance)

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        m = ops.cast(self.probs >= 0.5, self.probs._data.dtype)
        return ops.where(self.probs == 0.5, math.nan, m)

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with mode._GradModeGuard(False):
            p = ops.broadcast_to(self.probs, shape)
            return ops.cast(uniform(shape, p) < p, p._data.dtype)

    def enumerate_support(self, expand: bool = True):
        return _support_values(self._param, 2, self._param._data.dtype, tuple(self._batch_shape), expand)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = self._broadcast(self.logits, value)
        return -_layers.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return _layers.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    @property
    def _natural_params(self):
        return (ops.log(self.probs / (1 - self.probs)),)

    def _log_normalizer(self, x):
        return ops.log1p(ops.exp(x))


class Categorical(Distribution):
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.independent(constraints.real, 1)}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        policy = self._tensor_cls.policy
        _one_of(probs, logits, policy)
        if probs is not None:
            if probs._data.ndim < 1:
                raise policy.errors.dist_param_ndim(param="probs")
            self.probs = probs / ops.sum(probs, -1, keepdim=True)
        else:
            if logits._data.ndim < 1:
                raise policy.errors.dist_param_ndim(param="logits")
            self.logits = logits - ops.logsumexp(logits, -1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param._data.shape[-1]
        batch = self._param._data.shape[:-1] if self._param._data.ndim > 1 else ()
        super().__init__(batch, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Categorical, _instance)
        shape = tuple(batch_shape)
        _expand_probs_logits(self, new, shape + (self._num_events,))
        new._num_events = self._num_events
        return self._finish_expand(new, shape)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits)

    @property
    def param_shape(self):
        return self._param._data.shape

    @property
    def mean(self):
        p = self._param
        return p._new(backend.namespace(p._data).full(self._extended_shape(), math.nan, dtype=p._data.dtype))

    @property
    def mode(self):
        return ops.argmax(self.probs, -1)

    @property
    def variance(self):
        return self.mean

    def sample(self, sample_shape=()):
        """Inverse-CDF draws: the index of the first cumulative probability above a uniform draw."""
        shape = tuple(sample_shape) + tuple(self._batch_shape)
        with mode._GradModeGuard(False):
            p = self.probs
            cdf = p._data.cumsum(-1)
            xp = backend.namespace(cdf)
            u = uniform(shape, p)._data[..., None] * cdf[..., -1:]
            idx = (xp.broadcast_to(cdf, shape + cdf.shape[-1:]) <= u).sum(-1)
            return p._new(xp.minimum(idx, self._num_events - 1).astype(np.int64))

    def enumerate_support(self, expand: bool = True):
        return _support_values(self._param, self._num_events, np.int64, tuple(self._batch_shape), expand)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = ops.unsqueeze(ops.cast(value, np.int64), -1)
        shape = np.broadcast_shapes(value._data.shape, self.logits._data.shape)
        value = ops.broadcast_to(value, shape)[..., :1]
        log_pmf = ops.broadcast_to(self.logits, shape)
        return ops.squeeze(ops.gather(log_pmf, -1, value), -1)

    def entropy(self):
        min_real = float(np.finfo(self.logits._data.dtype).min)
        logits = ops.clamp(self.logits, min=min_real)
        return -ops.sum(logits * self.probs, -1)
