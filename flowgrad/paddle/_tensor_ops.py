"""paddle's names and arguments for the op table's index, search, cumulative and repeating ops:
index_add / index_fill (+ in place), repeat_interleave, bucketize, searchsorted, histogram, cumprod,
cummax, cummin, unique_consecutive."""
from __future__ import annotations

import numpy as np

from .. import backend
from .. import ops as _ops
from ..ops import shape as S


def _axis(x, axis):
    """A tensor flattened where paddle's axis is None, with the axis to use."""
    return (S.flatten(x), 0) if axis is None else (x, int(axis))


def index_add(x, index, axis, value, alpha=1, name=None):
    return _ops.index_add(x, axis, index, value, alpha)


def index_add_(x, index, axis, value, alpha=1, name=None):
    return _ops.inplace(x, _ops.index_add, axis, index, value, alpha)


def index_fill(x, index, axis, value, name=None):
    return _ops.index_fill(x, axis, index, value)


def index_fill_(x, index, axis, value, name=None):
    return _ops.inplace(x, _ops.index_fill, axis, index, value)


def repeat_interleave(x, repeats, axis=None, name=None, *, output_size=None):
    return _ops.repeat_interleave(x, repeats, axis, output_size)


def bucketize(x, sorted_sequence, out_int32: bool = False, right: bool = False, name=None):
    return _ops.bucketize(x, sorted_sequence, out_int32, right)


def searchsorted(sorted_sequence, values, out_int32: bool = False, right: bool = False, name=None, *, side=None,
                 sorter=None):
    return _ops.searchsorted(sorted_sequence, values, out_int32, right, side, sorter)


def histogram(input, bins: int = 100, min=0.0, max=0.0, weight=None, density: bool = False, name=None):
    """Counts of input's entries in `bins` equal bins over [min, max] (the data's range where
    min == max), as int64 (float with `weight` or `density`, which flowgrad has not built)."""
    if weight is not None:
        raise input.policy.errors.argument_unsupported(name="histogram", argument="weight", value=weight, default=None)
    if density:
        raise input.policy.errors.argument_unsupported(name="histogram", argument="density", value=density,
                                                       default=False)
    d = input._data
    as_float = input if d.dtype.kind == "f" else input._new(d.astype(np.float64))
    return _ops.cast(_ops.histc(as_float, bins, min, max), np.int64)


def cumprod(x, dim=None, dtype=None, name=None):
    x, axis = _axis(x, dim)
    return _ops.cumprod(x, axis, dtype)


def _cum_extremum(fn, x, axis, dtype):
    x, axis = _axis(x, axis)
    values, indices = fn(x, axis)
    kind = backend.to_np_dtype(dtype)
    return values, indices if kind == np.int64 else _ops.cast(indices, kind)


def cummax(x, axis=None, dtype="int64", name=None):
    return _cum_extremum(_ops.cummax, x, axis, dtype)


def cummin(x, axis=None, dtype="int64", name=None):
    return _cum_extremum(_ops.cummin, x, axis, dtype)


def unique_consecutive(x, return_inverse: bool = False, return_counts: bool = False, axis=None, dtype="int64",
                       name=None):
    """x with runs of equal neighbours (slices along `axis`) kept once; the inverse (flat where
    axis is None) and the counts as `dtype`."""
    out = _ops.unique_consecutive(x, return_inverse, return_counts, axis)
    if not isinstance(out, tuple):
        return out
    kind = backend.to_np_dtype(dtype)
    values, rest = out[0], list(out[1:])
    if return_inverse and axis is None:
        rest[0] = S.flatten(rest[0])
    return (values, *(r if kind == np.int64 else _ops.cast(r, kind) for r in rest))


FUNCTIONS = {"index_add": index_add, "index_add_": index_add_, "index_fill": index_fill, "index_fill_": index_fill_,
             "repeat_interleave": repeat_interleave, "bucketize": bucketize, "searchsorted": searchsorted,
             "histogram": histogram, "cumprod": cumprod, "cummax": cummax, "cummin": cummin,
             "unique_consecutive": unique_consecutive}
# paddle's Tensor methods (searchsorted is a function only)
METHODS = {name: fn for name, fn in FUNCTIONS.items() if name != "searchsorted"}
