"""Searching sorted boundaries and counting into bins: searchsorted, bucketize, histc. None of
them is differentiable (their results are positions and counts)."""
from __future__ import annotations

import math

import numpy as np

from .. import backend
from ..tensor import Tensor
from ._args import int_argument

__all__ = ["searchsorted", "bucketize", "histc"]


def _binary_search(bounds, values, right: bool, sorter):
    """PyTorch's lower bound (upper bound where `right`) of each value in `bounds`' last dim, as one
    vectorised binary search: `bounds` is 1-d (any `values`) or shares `values`' leading dims. A
    NaN compares false both ways, so a NaN value lands after every boundary, as in PyTorch."""
    xp = backend.namespace(bounds)
    n = bounds.shape[-1]
    if n == 0 or values.size == 0:
        return xp.zeros(values.shape, dtype=np.int64)
    rows = bounds.reshape(-1, n)
    v = values.reshape(rows.shape[0], -1)
    order = None if sorter is None else sorter.reshape(-1, n)
    lo = xp.zeros(v.shape, dtype=np.int64)
    hi = xp.full(v.shape, n, dtype=np.int64)
    active = lo < hi
    while bool(active.any()):
        mid = (lo + hi) // 2
        pos = xp.minimum(mid, n - 1)
        if order is not None:
            pos = xp.take_along_axis(order, pos, axis=-1)
        at = xp.take_along_axis(rows, pos, axis=-1)
        go_right = ~(at > v) if right else ~(at >= v)
        lo = xp.where(active & go_right, mid + 1, lo)
        hi = xp.where(active & ~go_right, mid, hi)
        active = lo < hi
    return lo.reshape(values.shape)


def _values(like: Tensor, values):
    """The values to search: a tensor's array, or a Python number as a 0-dim array."""
    return values._data if isinstance(values, Tensor) else backend.namespace(like._data).asarray(values)


def _real(policy, *arrays) -> None:
    """PyTorch's search kernel refuses complex numbers (no order)."""
    for a in arrays:
        if a.dtype.kind == "c":
            raise policy.errors.not_implemented_for(op="searchsorted_out_cpu", dtype_scalar=a.dtype)


def searchsorted(sorted_sequence, values, out_int32: bool = False, right: bool = False, side=None, sorter=None):
    """Where each value would be inserted into the sorted last dim of `sorted_sequence` to keep it
    sorted: before equal entries (`side="left"`), or after them (`right=True` / `side="right"`);
    `sorter` gives the order that sorts an unsorted sequence."""
    policy = sorted_sequence.policy
    b = sorted_sequence._data
    v = _values(sorted_sequence, values)
    if side is not None and side not in ("left", "right"):
        raise policy.errors.searchsorted_side(side=side)
    if right and side == "left":
        raise policy.errors.searchsorted_side_right(side=side)
    _real(policy, b, v)
    order = None
    if sorter is not None:
        order = sorter._data
        if order.shape != b.shape:
            raise policy.errors.searchsorted_sorter_size(boundary=list(b.shape), sorter=list(order.shape))
        if order.dtype != np.int64:
            raise policy.errors.searchsorted_sorter_dtype(dtype_scalar=order.dtype)
        if order.size and (int(order.min()) < 0 or int(order.max()) >= b.shape[-1]):
            raise policy.errors.searchsorted_sorter_range()
    if v.ndim == 0 and b.ndim != 1:
        raise policy.errors.searchsorted_scalar(ndim=b.ndim, value_ndim=v.ndim, numel=v.size)
    if b.ndim == 0:
        raise policy.errors.searchsorted_boundaries_0d()
    if b.ndim != 1 and (b.ndim != v.ndim or b.shape[:-1] != v.shape[:-1]):
        raise policy.errors.searchsorted_dims(boundaries=list(b.shape), values=list(v.shape))
    if b.dtype.kind == "b" and v.dtype.kind == "b":    # (the kernel runs in the two's common dtype)
        raise policy.errors.not_implemented_for(op="searchsorted_out_cpu", dtype_scalar=b.dtype)
    pos = _binary_search(b, v, right or side == "right", order)
    return sorted_sequence._out_cls._make(pos.astype(np.int32 if out_int32 else np.int64))


def bucketize(input, boundaries, out_int32: bool = False, right: bool = False):
    """The bucket of each entry of `input` between the 1-d sorted `boundaries`: i such that
    boundaries[i-1] < x <= boundaries[i] (`right=True`: boundaries[i-1] <= x < boundaries[i]);
    unlike searchsorted's, bool boundaries are searched too, as in PyTorch."""
    b = boundaries._data
    if b.ndim != 1:
        raise boundaries.policy.errors.bucketize_boundaries(ndim=b.ndim)
    v = _values(boundaries, input)
    _real(boundaries.policy, v, b)
    pos = _binary_search(b, v, right, None)
    return boundaries._out_cls._make(pos.astype(np.int32 if out_int32 else np.int64))


def histc(input, bins: int = 100, min=0, max=0):
    """Counts of `input`'s entries in `bins` equal bins over [min, max] (the data's own range
    where min == max; entries outside are not counted), in input's dtype."""
    policy = input.policy
    d = input._data
    bins = int_argument(bins, policy)      # (an int, or an integer tensor of one element)
    if bins <= 0:
        raise policy.errors.histc_bins(bins=bins)
    if d.dtype.kind not in "fV":
        raise policy.errors.not_implemented_for(op="histogram_cpu", dtype_scalar=d.dtype)
    if min > max:
        raise policy.errors.histc_order()
    lo, hi = float(min), float(max)
    if lo == hi and d.size:
        lo, hi = float(d.min()), float(d.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise policy.errors.histc_range(min=lo, max=hi)
    xp = backend.namespace(d)
    left, width = d.dtype.type(lo), d.dtype.type(hi) - d.dtype.type(lo)
    inside = d[(d >= left) & (d <= d.dtype.type(hi))]
    pos = ((inside - left) * bins / width).astype(np.int64)   # in input's dtype, as PyTorch
    counts = xp.bincount(xp.minimum(pos, bins - 1), minlength=bins)
    return input._out_cls._make(counts.astype(d.dtype))


METHODS = {"histc": histc}
