"""What the distributions share: broadcasting parameters to tensors, probabilities <-> logits,
lazily computed attributes, and the random draws (non-differentiable arrays from flowgrad's seeded
stream, shaped and typed as a parameter)."""
from __future__ import annotations

import numbers

import numpy as np

from .. import backend, creation, ops
from ..autograd import mode
from ..tensor import Tensor

euler_constant = 0.57721566490153286060


def broadcast_all(values, tensor_cls: type, device=None) -> list[Tensor]:
    """The values (tensors or Python numbers) as tensors of one broadcast shape: numbers take the dtype
    and device of the first tensor, or the default float dtype on `device` (as `tensor_cls`) when there
    is none."""
    like = next((v for v in values if isinstance(v, Tensor)), None)
    for v in values:
        if not isinstance(v, (Tensor, numbers.Number)):
            raise tensor_cls.policy.errors.dist_broadcast_types()
    out = []
    for v in values:
        if isinstance(v, Tensor):
            out.append(v)
        elif like is not None:
            out.append(like._new(backend.namespace(like._data).asarray(v, dtype=like._data.dtype)))
        else:
            arr = np.asarray(v, dtype=backend.default_float())
            out.append(tensor_cls._make(arr if device is None else backend.to_device(arr, backend.Device(device))))
    shape = np.broadcast_shapes(*(t._data.shape for t in out))
    return [t if t._data.shape == shape else ops.broadcast_to(t, shape) for t in out]


def full_like(like: Tensor, value: float, shape=None) -> Tensor:
    """A tensor of `value` (no graph) with like's dtype and device, of like's shape or `shape`."""
    d = like._data
    return like._new(backend.namespace(d).full(d.shape if shape is None else tuple(shape), value, dtype=d.dtype))


def clamp_probs(probs: Tensor) -> Tensor:
    eps = float(np.finfo(probs._data.dtype).eps)
    return ops.clamp(probs, eps, 1 - eps)


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    return ops.sigmoid(logits) if is_binary else ops.softmax(logits, -1)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    ps = clamp_probs(probs)
    return ops.log(ps) - ops.log1p(-ps) if is_binary else ops.log(ps)


class lazy_property:
    """An attribute computed (with grad enabled) on first access and then stored on the instance."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        with mode._GradModeGuard(True):
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def sum_rightmost(value: Tensor, dim: int) -> Tensor:
    """Sum over the rightmost `dim` dims."""
    if dim == 0:
        return value
    return ops.sum(value, tuple(range(-dim, 0)))


# ----------------------------------------------------------------------------- random draws

def _shaped(like: Tensor, shape) -> np.ndarray:
    xp = backend.namespace(like._data)
    return xp.empty(tuple(shape), dtype=like._data.dtype)


def standard_normal(shape, like: Tensor) -> Tensor:
    return like._new(creation.normal_like(_shaped(like, shape), 0.0, 1.0))


def uniform(shape, like: Tensor, low: float = 0.0, high: float = 1.0) -> Tensor:
    return like._new(creation.uniform_like(_shaped(like, shape), low, high))


def standard_exponential(shape, like: Tensor) -> Tensor:
    return like._new(creation.standard_exponential_like(_shaped(like, shape)))


def binomial(count: Tensor, probs: Tensor) -> Tensor:
    """Binomial(count, probs) draws, one per element (not differentiable)."""
    return probs._new(creation.binomial_like(count._data, probs._data))


def poisson(rate: Tensor) -> Tensor:
    """Poisson(rate) draws, one per element (not differentiable)."""
    return rate._new(creation.poisson_like(rate._data))
