"""What the distributions share: broadcasting parameters to tensors, probabilities <-> logits,
lazily computed attributes, and the random draws (non-differentiable arrays from flowgrad's seeded
stream, shaped and typed as a parameter)."""
from __future__ import annotations

import math
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


def _tril_positions(n: int, diag: int, xp):
    """The flat positions, in row order, of the entries of an n x n matrix on or below diagonal `diag`."""
    rows, cols = xp.nonzero(xp.arange(n) < xp.arange(n).reshape(-1, 1) + (diag + 1))
    return rows * n + cols


def vec_to_tril_matrix(vec: Tensor, diag: int = 0) -> Tensor:
    """Vectors (over the last dim) laid out in row order as the entries of D x D lower-triangular
    matrices on or below diagonal `diag`, zeros elsewhere."""
    size = vec._data.shape[-1]
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * size + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > float(np.finfo(vec._data.dtype).eps):
        raise vec.policy.errors.dist_tril_size(size=size)
    n = round(n)
    xp = backend.namespace(vec._data)
    source = xp.full(n * n, size)          # (the position of an appended zero)
    source[_tril_positions(n, diag, xp)] = xp.arange(size)
    zero = vec._new(xp.zeros(vec._data.shape[:-1] + (1,), dtype=vec._data.dtype))
    padded = ops.cat([vec, zero], -1)
    index = vec._new(xp.broadcast_to(source, padded._data.shape[:-1] + (n * n,)).astype(np.int64))
    return ops.reshape(ops.gather(padded, -1, index), vec._data.shape[:-1] + (n, n))


def tril_matrix_to_vec(mat: Tensor, diag: int = 0) -> Tensor:
    """The entries of D x D matrices on or below diagonal `diag`, in row order (over the last dim)."""
    n = mat._data.shape[-1]
    if diag < -n or diag >= n:
        raise mat.policy.errors.dist_tril_diag(diag=diag, low=-n, high=n - 1)
    xp = backend.namespace(mat._data)
    flat = ops.reshape(mat, mat._data.shape[:-2] + (n * n,))
    positions = _tril_positions(n, diag, xp).astype(np.int64)
    index = mat._new(xp.broadcast_to(positions, flat._data.shape[:-1] + positions.shape))
    return ops.gather(flat, -1, index)


def _half_steps(a: Tensor, p: int) -> Tensor:
    """a[..., None] - (0, 1/2, ..., (p - 1)/2)."""
    d = a._data
    return ops.unsqueeze(a, -1) - a._new(backend.namespace(d).arange(p, dtype=d.dtype) / 2)


def mvlgamma(a: Tensor, p: int) -> Tensor:
    """The multivariate log-gamma function of dimension p."""
    return p * (p - 1) / 4 * math.log(math.pi) + ops.sum(ops.lgamma(_half_steps(a, p)), -1)


def mvdigamma(a: Tensor, p: int) -> Tensor:
    """The multivariate digamma function of dimension p (the derivative of mvlgamma)."""
    return ops.sum(ops.digamma(_half_steps(a, p)), -1)


def sum_rightmost(value: Tensor, dim: int) -> Tensor:
    """Sum over the rightmost `dim` dims (all of them when it has fewer, as PyTorch's does)."""
    if dim == 0:
        return value
    shape = value._data.shape
    return ops.sum(ops.reshape(value, shape[:max(len(shape) - dim, 0)] + (-1,)), -1)


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
