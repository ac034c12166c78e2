"""Reflection and replication padding of the last 1-3 dims as one gather.

The padded output reads, for each of its cells over the padded dims, one input cell (`index`, a
flat position over those dims); the gradient adds each output cell's gradient back into the cell it
read (a scatter-add, whose own derivative is the gather again).
"""
from __future__ import annotations

import math

import numpy as np

from .. import backend
from ._declare import _grad_enabled, derivative, variant
from . import indexing as I
from . import shape as S

__all__ = ["pad_index", "index_pad"]


def pad_index(n: int, lo: int, hi: int, mode: str) -> np.ndarray:
    """The input cell each output cell of one padded dim reads ('reflect', 'replicate', 'circular')."""
    idx = np.arange(-lo, n + hi)
    if mode == "reflect":
        period = 2 * (n - 1)
        idx = np.abs(idx) % period if period else np.zeros_like(idx)
        idx = np.where(idx >= n, period - idx, idx)
    elif mode == "replicate":
        idx = np.clip(idx, 0, n - 1)
    else:
        idx = idx % n
    return idx


ReflectionPad1DBackward0 = derivative("ReflectionPad1DBackward0", keep="x_shape index cells",
                                      self=lambda grad, x_shape, index, cells: _pad_grad(grad, x_shape, index, cells))
ReflectionPad2DBackward0 = variant(ReflectionPad1DBackward0, "ReflectionPad2DBackward0")
ReflectionPad3DBackward0 = variant(ReflectionPad1DBackward0, "ReflectionPad3DBackward0")
ReplicationPad1DBackward0 = variant(ReflectionPad1DBackward0, "ReplicationPad1DBackward0")
ReplicationPad2DBackward0 = variant(ReflectionPad1DBackward0, "ReplicationPad2DBackward0")
ReplicationPad3DBackward0 = variant(ReflectionPad1DBackward0, "ReplicationPad3DBackward0")
_ROWS = {("reflect", 1): ReflectionPad1DBackward0, ("reflect", 2): ReflectionPad2DBackward0,
         ("reflect", 3): ReflectionPad3DBackward0, ("replicate", 1): ReplicationPad1DBackward0,
         ("replicate", 2): ReplicationPad2DBackward0, ("replicate", 3): ReplicationPad3DBackward0}


def _pad_grad(grad, x_shape, index, cells):
    rows = math.prod(x_shape) // cells if cells else 0
    gx = I.scatter_into_zeros((rows, cells), 1, index, S.reshape(grad, (rows, -1)))
    return S.reshape(gx, x_shape)


def index_pad(x, pad, mode: str):
    """Pad the last len(pad)//2 dims of `x` ('reflect' or 'replicate'); `pad` lists (before, after)
    pairs from the last dim back, as F.pad does."""
    d = x._data
    xp = backend.namespace(d)
    k = len(pad) // 2
    spatial = d.shape[d.ndim - k:]
    per_dim = [pad_index(spatial[i], pad[2 * (k - 1 - i)], pad[2 * (k - 1 - i) + 1], mode) for i in range(k)]
    flat = np.zeros((), dtype=np.int64)
    for n, idx in zip(spatial, per_dim):
        flat = np.add.outer(flat * n, idx)
    out_spatial = flat.shape
    cells = math.prod(spatial)
    rows = math.prod(d.shape[:d.ndim - k])
    index = xp.asarray(flat.reshape(-1))
    out = x._out_cls._make(d.reshape(rows, cells)[:, index].reshape(d.shape[:d.ndim - k] + out_spatial))
    if _grad_enabled() and x._requires_grad:
        full = x._out_cls._make(xp.broadcast_to(index, (rows, index.shape[0])))
        _ROWS[(mode, k)].record((x,), out, d.shape, full, cells)
    return out
