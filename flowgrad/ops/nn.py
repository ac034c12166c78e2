"""Neural-network primitives: softmax and log_softmax (the losses and layers compose them)."""
from __future__ import annotations

import numpy as np

from .. import backend
from ._args import float_array, normalize_dim
from ._declare import _grad_enabled, derivative
from . import elementwise as E
from . import reduction as R

__all__ = ["softmax", "log_softmax"]

SoftmaxBackward0 = derivative("SoftmaxBackward0", keep="dim",
                              self=lambda grad, result, dim: result * (grad - R.sum(grad * result, dim, keepdim=True)))
LogSoftmaxBackward0 = derivative("LogSoftmaxBackward0", keep="dim",
                                 self=lambda grad, result, dim: grad - E.exp(result) * R.sum(grad, dim, keepdim=True))


def _shifted(x, dim, dtype, kernel, half_in_half=False):
    d = x._data
    if dtype is not None:
        d = d.astype(backend.to_np_dtype(dtype))
    if d.dtype.kind not in "fV":
        policy = x.policy
        if not policy.ints_cast_to_float:
            lastdim = d.ndim == 0 or dim in (-1, d.ndim - 1)
            raise policy.errors.not_implemented_for(op=kernel + ("_lastdim" if lastdim else "") + "_kernel_impl",
                                                    dtype_scalar=d.dtype)
        d = float_array(x, kernel)
    xp = backend.namespace(d)
    dim = normalize_dim(dim, d.ndim)
    out_dt = d.dtype
    if out_dt.itemsize == 2 and not (half_in_half and out_dt.kind == "f"):
        d = d.astype(np.float32)   # half precision in float32, rounded once, as PyTorch's CPU kernels
    with backend.quiet(xp):   # a row of -inf (or inf) makes NaN, silently as in PyTorch
        if d.ndim == 0:
            return xp, d - d, dim, out_dt
        return xp, d - xp.max(d, axis=dim, keepdims=True) if d.size else d, dim, out_dt


def softmax(x, dim, dtype=None):
    xp, s, dim, out_dt = _shifted(x, dim, dtype, "softmax")
    e = xp.exp(s)
    with backend.quiet(xp):
        r = e / (xp.sum(e, axis=dim, keepdims=True) if s.ndim else e)
    out = x._out_cls._make(r.astype(out_dt, copy=False))
    if _grad_enabled() and x._requires_grad:
        SoftmaxBackward0.record((x,), out, dim)
    return out


def log_softmax(x, dim, dtype=None):
    # (PyTorch's kernel over the last dim computes float16 in float16)
    last = x._data.ndim == 0 or normalize_dim(dim, x._data.ndim) == x._data.ndim - 1
    xp, s, dim, out_dt = _shifted(x, dim, dtype, "log_softmax", half_in_half=last)
    with backend.quiet(xp):
        r = s - (xp.log(xp.sum(xp.exp(s), axis=dim, keepdims=True)) if s.ndim else s)
    out = x._out_cls._make(r.astype(out_dt, copy=False))
    if _grad_enabled() and x._requires_grad:
        LogSoftmaxBackward0.record((x,), out, dim)
    return out


METHODS = {"softmax": softmax, "log_softmax": log_softmax}
