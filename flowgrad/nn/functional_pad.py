"""F.pad: constant padding (a primitive that also crops), reflection and replication padding (one
gather each, with PyTorch's node names) and circular padding (an index_select per dim)."""
from __future__ import annotations

import numpy as np

from .. import ops
from ..ops import conv as _conv
from ..ops import padding as _padding
from .functional_conv import _dims

__all__ = ["pad"]


def pad(input, pad, mode: str = "constant", value=None):
    pad = ops.shape.parse_shape((pad,), input.policy)   # ints only, as PyTorch's
    if mode == "constant":
        return _conv.constant_pad(input, pad, 0 if value is None else value)
    policy = input.policy
    if mode not in ("reflect", "replicate", "circular"):
        raise policy.errors.nn_pad_mode(mode=mode)
    if value is not None and value != 0:
        raise policy.errors.pad_mode_value(mode=mode)
    if len(pad) % 2:
        raise policy.errors.pad_length_odd()
    d = input._data
    k = len(pad) // 2
    if k not in (1, 2, 3) or d.ndim not in (k + 1, k + 2):
        raise policy.errors.pad_mode_dims(size=len(pad), ndim=d.ndim)
    if mode != "circular" and d.dtype.kind == "b":
        raise policy.errors.not_implemented_for(op=f"{'reflection' if mode == 'reflect' else 'replication'}_pad{k}d",
                                                dtype_scalar=d.dtype)
    for i in range(k):
        dim = d.ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        n = d.shape[dim]
        if mode == "reflect" and (lo >= n or hi >= n):
            raise policy.errors.nn_pad_reflect_size(arg=4 + 2 * i, lo=lo, hi=hi, dim=dim, size=list(d.shape))
        if mode == "circular":
            if lo > n or hi > n:
                raise policy.errors.pad_circular_wrap()
            if n + min(lo, 0) + min(hi, 0) <= 0:
                raise policy.errors.pad_circular_empty()
    out_shape = list(d.shape)
    for i in range(k):
        out_shape[d.ndim - 1 - i] += pad[2 * i] + pad[2 * i + 1]
    if mode != "circular" and k == 1 and out_shape[-1] < 1:
        raise policy.errors.pad_too_small(size=d.shape[-1], out=out_shape[-1])
    if mode != "circular" and min(out_shape) < 0:
        raise policy.errors.pad_negative_dimension(dim=min(out_shape), size=_dims(out_shape))
    if mode != "circular":
        return _padding.index_pad(input, pad, mode)
    out = input
    for i in range(k):      # a negative amount crops first; the wrap reads the cropped dim
        dim = d.ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        n = d.shape[dim] + min(lo, 0) + min(hi, 0)
        idx = _padding.pad_index(n, max(lo, 0), max(hi, 0), mode) - min(lo, 0)
        out = ops.index_select(out, dim, out._new(idx.astype(np.int64)))
    return out
