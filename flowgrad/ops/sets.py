"""The distinct values of a tensor: unique (sorted, whole or by slices along a dim) and
unique_consecutive (runs of equal neighbours collapsed), with the inverse mapping and the counts.
As in PyTorch, NaNs are all distinct, and the values' node refuses to be differentiated. isin: which
elements belong to a set of test elements."""
from __future__ import annotations

import numpy as np

from .. import backend
from ..tensor import Tensor
from ._args import binary_arrays, normalize_dim, typename
from ._declare import _grad_enabled, derivative
from . import iterator_layout as L

__all__ = ["unique", "unique_consecutive", "isin"]


def _refuse(grad, op):
    raise grad.policy.errors.unique_not_differentiable(op=op)


Unique2Backward0 = derivative("Unique2Backward0", keep="op", self=_refuse)
UniqueDimBackward0 = derivative("UniqueDimBackward0", keep="op", self=_refuse)
UniqueConsecutiveBackward0 = derivative("UniqueConsecutiveBackward0", keep="op", self=_refuse)


def _results(x, values, inverse, counts, return_inverse, return_counts, node, op):
    xp = backend.namespace(x._data)
    out = x._out_cls._make(values)
    if _grad_enabled() and x._requires_grad:
        node.record((x,), out, op)
    if not (return_inverse or return_counts):
        return out
    results = [out]
    if return_inverse:
        results.append(x._out_cls._make(xp.asarray(inverse, dtype=np.int64)))
    if return_counts:
        results.append(x._out_cls._make(xp.asarray(counts, dtype=np.int64)))
    return tuple(results)


def _check_flags(x, fn: str, **flags) -> None:
    """PyTorch's parser takes only a Python bool for these flags (not 1, None or a tensor)."""
    for name, value in flags.items():
        if type(value) is not bool:
            raise x.policy.errors.argument_type(fn=fn, argument=name, expected="bool", type=typename(value))


def _dim_of(x, dim):
    d = x._data
    if d.ndim == 0:
        raise x.policy.errors.sdpa_dim_scalar(dim=dim)
    return normalize_dim(dim, d.ndim)


def unique(input, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False, dim=None):
    """The distinct values of `input` in ascending order (the distinct slices along `dim`), with
    where each entry went (`return_inverse`) and how often each value occurs (`return_counts`)."""
    _check_flags(input, "_unique2" if dim is None else "unique_dim", sorted=sorted, return_inverse=return_inverse,
                 return_counts=return_counts)
    d = input._data
    if d.dtype.kind == "c":
        raise input.policy.errors.not_implemented_for(op="unique", dtype_scalar=d.dtype)
    xp = backend.namespace(d)
    if dim is None:
        values, inverse, counts = xp.unique(d.reshape(-1), return_inverse=True, return_counts=True,
                                            equal_nan=False)
        return _results(input, values, inverse.reshape(d.shape), counts, return_inverse, return_counts,
                        Unique2Backward0, "_unique2")
    axis = _dim_of(input, dim)
    if d.shape[axis] == 0:
        values, inverse, counts = d, xp.zeros(0, np.int64), xp.zeros(0, np.int64)
    else:
        values, inverse, counts = xp.unique(d, return_inverse=True, return_counts=True, axis=axis)
    return _results(input, values, inverse.reshape(-1), counts, return_inverse, return_counts,
                    UniqueDimBackward0, "unique_dim")


def unique_consecutive(input, return_inverse: bool = False, return_counts: bool = False, dim=None):
    """`input` with each run of equal neighbours (equal slices along `dim`) kept once, with the
    run each entry belongs to (`return_inverse`) and the runs' lengths (`return_counts`)."""
    _check_flags(input, "unique_consecutive", return_inverse=return_inverse, return_counts=return_counts)
    d = input._data
    if d.dtype.kind == "c":
        raise input.policy.errors.not_implemented_for(op="unique", dtype_scalar=d.dtype)
    xp = backend.namespace(d)
    if dim is None:
        flat, axis, shape = d.reshape(-1), 0, d.shape
    else:
        axis = _dim_of(input, dim)
        flat, shape = d, (d.shape[axis],)
    n = flat.shape[axis]
    if n:
        lead = (slice(None),) * axis
        changed = flat[lead + (slice(1, None),)] != flat[lead + (slice(None, -1),)]
        if flat.ndim > 1:
            changed = changed.any(axis=tuple(i for i in range(flat.ndim) if i != axis))
        starts = xp.concatenate([xp.ones(1, bool), changed]).nonzero()[0]
    else:
        starts = xp.zeros(0, np.int64)
    values = xp.take(flat, starts, axis=axis)
    inverse = xp.cumsum(xp.concatenate([xp.zeros(min(n, 1), np.int64), changed.astype(np.int64)])
                        if n else xp.zeros(0, np.int64)).reshape(shape)
    counts = xp.diff(xp.concatenate([starts, xp.asarray([n])]))
    return _results(input, values, inverse, counts, return_inverse, return_counts, UniqueConsecutiveBackward0,
                    "unique_consecutive")


def _check_flat_view(t, dtype, policy) -> None:
    """PyTorch's elementwise isin (the one it runs where the test elements are few) views them, cast to
    the common dtype with their dims' order kept, as one dim: raise its view error where none can."""
    strides = L.strides_of(t) if t.dtype == dtype else L.output_strides(t.shape, [(t.shape, L.strides_of(t))])
    if L.view_strides(t.shape, strides, (t.size,)) is None:
        raise policy.errors.view_stride()


def isin(elements, test_elements, assume_unique=False, invert=False):
    """Whether each of `elements` (a tensor or a number) is among `test_elements` (NaN is in no set),
    compared in their promoted dtype; `invert` negates. `assume_unique` is a speed hint PyTorch takes
    that changes no result."""
    ref = elements if isinstance(elements, Tensor) else test_elements
    for t in (elements, test_elements):
        if isinstance(t, Tensor) and t._data.dtype.kind in "bc":
            raise t.policy.errors.isin_dtype(dtype_scalar=t._data.dtype)
    _, a, b, _, _ = binary_arrays(elements, test_elements)
    xp = backend.namespace(a if hasattr(a, "dtype") else b)
    a, b = xp.asarray(a), xp.asarray(b)
    if isinstance(test_elements, Tensor) and ref.policy.isin_views_tests and b.size < int(10 * a.size ** 0.145):
        _check_flat_view(test_elements._data, b.dtype, ref.policy)
    return ref._out_cls._make(xp.isin(a, b, invert=bool(invert)))


METHODS = {"unique": unique, "unique_consecutive": unique_consecutive}
