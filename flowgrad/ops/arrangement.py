"""Ops that rearrange a tensor's elements: rot90 (one node, `Rot90Backward0`), tensor_split (slices),
take and put on the flattened tensor (`TakeBackward0` / `PutBackward0`, each the other's gradient)."""
from __future__ import annotations

import operator

from .. import backend
from ..tensor import Tensor
from ._args import check_same, normalize_dim
from ._declare import derivative, recording
from . import indexing as I
from . import shape as S

__all__ = ["rot90", "tensor_split", "take", "put"]


# ------------------------------------------------------------------------------------- rot90

Rot90Backward0 = derivative("Rot90Backward0", complex=True, keep="k dims",
                            self=lambda grad, k, dims: rot90(grad, -k, dims))


def rot90(input, k=1, dims=(0, 1)):
    """`input` turned k quarter turns in the plane of `dims`, from the first dim towards the second."""
    x = input
    policy, d = x.policy, x._data
    dims = list(dims)
    if len(dims) != 2:
        raise policy.errors.rot90_dims_count(count=len(dims))
    if d.ndim < 2:
        raise policy.errors.rot90_ndim(ndim=d.ndim)
    d0, d1 = (normalize_dim(i, d.ndim, policy) for i in dims)
    if d0 == d1:
        raise policy.errors.rot90_same_dims(dim0=dims[0], dim1=dims[1])
    xp = backend.namespace(d)
    turns = operator.index(k) % 4
    if turns == 0:
        r = d.copy()
    elif turns == 2:
        r = xp.flip(d, axis=(d0, d1)).copy()
    else:
        r = xp.swapaxes(xp.flip(d, axis=d1 if turns == 1 else d0).copy(), d0, d1)
    out = x._out_cls._make(r)
    if recording(x):
        Rot90Backward0.record((x,), out, k, (d0, d1))
    return out


# ------------------------------------------------------------------------------ tensor_split

def tensor_split(x, indices_or_sections, dim=0):
    """Views of `x` along `dim`: `n` near-equal sections (the first `size % n` one longer), or the
    pieces between the given indices (each a Python slice: negative indices count from the end)."""
    policy, d = x.policy, x._data
    if d.ndim == 0:
        raise policy.errors.tensor_split_0d(ndim=d.ndim)
    split = indices_or_sections
    if isinstance(split, Tensor):
        s = split._data
        if s.dtype.kind not in "iu" or s.dtype.itemsize != 8:
            raise policy.errors.tensor_split_dtype(dtype_scalar=s.dtype)
        if s.ndim > 1:
            raise policy.errors.tensor_split_ndim(ndim=s.ndim)
        split = int(s) if s.ndim == 0 else [int(i) for i in split._host()]
    dim = normalize_dim(dim, d.ndim, policy)
    n = d.shape[dim]
    if isinstance(split, (list, tuple)):
        bounds = [0, *(operator.index(i) for i in split), None]
    else:
        sections = operator.index(split)
        if sections <= 0:
            raise policy.errors.tensor_split_sections(sections=sections)
        size, extra = divmod(n, sections)
        bounds = [i * size + min(i, extra) for i in range(sections + 1)]
    lead = (slice(None),) * dim
    return tuple(S.getitem(x, lead + (slice(a, b),)) for a, b in zip(bounds, bounds[1:]))


# ------------------------------------------------------------------------------ take / put

def _flat_index(x, index, op: str):
    """`index` into the flattened `x`, negative positions wrapped, with PyTorch's checks."""
    policy, i = x.policy, index._data
    if i.dtype.kind not in "iu" or i.dtype.itemsize != 8:
        raise policy.errors.flat_index_dtype(op=op, dtype_scalar=i.dtype)
    n = x._data.size
    if i.size:
        if n == 0 and op == "take":
            raise policy.errors.take_empty()
        xp = backend.namespace(i)
        bad = (i < -n) | (i >= n)
        if bool(bad.any()):
            raise policy.errors.flat_index_range(index=int(i[bad].reshape(-1)[0]), numel=n)
        return xp.where(i < 0, i + n, i)
    return i


TakeBackward0 = derivative("TakeBackward0", complex=True, keep="shape index",
                           self=lambda grad, shape, index: _into_zeros(grad, shape, index))
PutBackward0 = derivative(
    "PutBackward0", complex=True, keep="index accumulate source_shape",
    self=lambda grad, index, accumulate: grad if accumulate else _put_zeros(grad, index),
    source=lambda grad, index, source_shape: S.reshape(_take(grad, index), source_shape))


def _take(x, flat):
    out = x._out_cls._make(x._data.reshape(-1)[flat])
    if recording(x):
        TakeBackward0.record((x,), out, tuple(x._data.shape), flat)
    return out


def _put(x, flat, source, accumulate):
    xp = backend.namespace(x._data)
    r = x._data.copy()
    view, values = r.reshape(-1), source._data.reshape(-1)
    if accumulate:
        xp.add.at(view, flat.reshape(-1), values)
    else:
        view[flat.reshape(-1)] = values
    out = x._out_cls._make(r)
    if recording(x, source):
        PutBackward0.record((x, source), out, flat, accumulate, tuple(source._data.shape))
    return out


def _into_zeros(grad, shape, flat):
    """take's gradient: zeros of the input's shape with the gradient added at the taken positions."""
    zeros = grad._new(backend.namespace(grad._data).zeros(shape, dtype=grad._data.dtype))
    return _put(zeros, flat, grad, True)


def _put_zeros(grad, flat):
    """put's gradient for `self`: the gradient with the overwritten positions zeroed."""
    xp = backend.namespace(grad._data)
    return _put(grad, flat, grad._new(xp.zeros(flat.shape, dtype=grad._data.dtype)), False)


def take(x, index):
    """The elements of the flattened `x` at `index`, in `index`'s shape."""
    return _take(x, _flat_index(x, index, "take"))


def put(x, index, source, accumulate=False):
    """`x` with the elements of `source` written (or added, `accumulate`) at the flat positions `index`."""
    policy = x.policy
    if type(source)._out_cls is not x._out_cls or type(source._data) is not type(x._data):
        check_same(x._out_cls, x, source)
    i = index._data
    if i.dtype.kind not in "iu" or i.dtype.itemsize != 8:
        raise policy.errors.flat_index_dtype(op="put_", dtype_scalar=i.dtype)
    if source._data.dtype != x._data.dtype:
        raise policy.errors.put_dtype(self_scalar=x._data.dtype, source_scalar=source._data.dtype)
    if source._data.size != i.size:
        raise policy.errors.put_numel(source=source._data.size, index=i.size)
    return _put(x, _flat_index(x, index, "put_"), source, bool(accumulate))


METHODS = {"rot90": rot90, "tensor_split": tensor_split, "take": take, "put": put,
           "put_": lambda self, index, source, accumulate=False: I.inplace(self, put, index, source, accumulate)}
