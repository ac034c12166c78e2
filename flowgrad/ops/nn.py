"""Neural-network primitives: softmax and log_softmax (the losses and layers compose them)."""
from __future__ import annotations

from .. import backend
from ..autograd.graph import Node, saved_fields
from . import _grad_enabled, float_array, make_node, normalize_dim, save_output
from . import reduction as R

__all__ = ["softmax", "log_softmax"]


@saved_fields("result", dim="dim")
class SoftmaxBackward0(Node):
    __slots__ = ("dim",)

    def backward(self, g):
        (y,) = self.unpack()
        return (y * (g - R.sum(g * y, self.dim, keepdim=True)),)


@saved_fields("result", dim="dim")
class LogSoftmaxBackward0(Node):
    __slots__ = ("dim",)

    def backward(self, g):
        (y,) = self.unpack()
        from .elementwise import exp
        return (g - exp(y) * R.sum(g, self.dim, keepdim=True),)


def _shifted(x, dim, dtype):
    d = float_array(x) if dtype is None else x._data.astype(backend.to_np_dtype(dtype))
    xp = backend.namespace(d)
    dim = normalize_dim(dim, d.ndim)
    if d.ndim == 0:
        return xp, d - d, dim
    return xp, d - xp.max(d, axis=dim, keepdims=True) if d.size else d, dim


def softmax(x, dim, dtype=None):
    xp, s, dim = _shifted(x, dim, dtype)
    e = xp.exp(s)
    out = x._out_cls._make(e / (xp.sum(e, axis=dim, keepdims=True) if s.ndim else e))
    if _grad_enabled() and x._requires_grad:
        node = make_node(SoftmaxBackward0, (x,), out)
        node._saved = (save_output(out),)
        node.dim = dim
    return out


def log_softmax(x, dim, dtype=None):
    xp, s, dim = _shifted(x, dim, dtype)
    out = x._out_cls._make(s - (xp.log(xp.sum(xp.exp(s), axis=dim, keepdims=True)) if s.ndim else s))
    if _grad_enabled() and x._requires_grad:
        node = make_node(LogSoftmaxBackward0, (x,), out)
        node._saved = (save_output(out),)
        node.dim = dim
    return out


METHODS = {"softmax": softmax, "log_softmax": log_softmax}
