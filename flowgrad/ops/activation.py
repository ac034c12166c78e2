"""PReLU as one primitive with PyTorch's node (PreluKernelBackward0): max(0, x) + w * min(0, x), one
weight per channel (dim 1) or one for all. Its formulas are tensor code, so every order works."""
from __future__ import annotations

from .. import backend
from ._declare import _grad_enabled, derivative
from . import elementwise as E
from . import reduction as R
from . import shape as S

__all__ = ["prelu"]


def _broadcast_weight(weight, ndim: int):
    """The weight shaped to broadcast against the input: along dim 1, or a scalar."""
    if weight._data.size == 1 or ndim < 2:
        return S.reshape(weight, ())
    return S.reshape(weight, (-1,) + (1,) * (ndim - 2))


def _weight_grad(grad, self, weight):
    g = E.where(self > 0, grad * 0, grad * self)
    if weight._data.size == 1 or self._data.ndim < 2:
        return S.reshape(R.sum(g), weight._data.shape)
    return R.sum(g, (0,) + tuple(range(2, self._data.ndim)))


PreluKernelBackward0 = derivative(
    "PreluKernelBackward0",
    self=lambda grad, self, weight: E.where(self > 0, grad, grad * _broadcast_weight(weight, self._data.ndim)),
    weight=_weight_grad)


def prelu(x, weight):
    d, wd = x._data, weight._data
    xp = backend.namespace(d)
    w = wd.reshape(()) if wd.size == 1 or d.ndim < 2 else wd.reshape((-1,) + (1,) * (d.ndim - 2))
    out = x._out_cls._make(xp.where(d > 0, d, w * d).astype(d.dtype, copy=False))
    if _grad_enabled() and (x._requires_grad or weight._requires_grad):
        PreluKernelBackward0.record((x, weight), out)
    return out
