"""Ops that rearrange or combine tensors' elements: rot90 (one node, `Rot90Backward0`), tensor_split
(slices), take and put on the flattened tensor (`TakeBackward0` / `PutBackward0`, each the other's
gradient), block_diag (`BlockDiagBackward0`), and cartesian_prod, combinations and vander composed
as PyTorch composes them."""
from __future__ import annotations

import operator

import numpy as np

from .. import backend
from ..autograd.policy import policy_of
from ..tensor import Tensor
from ._args import check_same, int_argument, normalize_dim
from ._declare import derivative, recording
from . import cumulative as CU
from . import indexing as I
from . import shape as S

__all__ = ["rot90", "tensor_split", "take", "put", "block_diag", "cartesian_prod", "combinations", "vander"]


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
    turns = int_argument(k, policy) % 4
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


# ------------------------------------------------------------------------------ block_diag

def _blocks(grad, shapes, grad_input_mask):
    """Each input's block of the gradient, in the input's shape."""
    out, row, col = [], 0, 0
    for needed, shape in zip(grad_input_mask, shapes):
        rows, cols = (1, 1) if len(shape) == 0 else (1, shape[0]) if len(shape) == 1 else shape
        out.append(S.reshape(S.getitem(grad, (slice(row, row + rows), slice(col, col + cols))), shape)
                   if needed else None)
        row, col = row + rows, col + cols
    return tuple(out)


BlockDiagBackward0 = derivative("BlockDiagBackward0", complex=True, keep="shapes", variadic=True, tensors=_blocks)


def block_diag(*tensors, empty_cls=Tensor):
    """The tensors (0-d: 1 x 1, 1-d: one row) as the blocks of a block-diagonal matrix, in their
    promoted dtype (none: a 1 x 0 matrix of class `empty_cls`)."""
    policy = policy_of(*tensors) if tensors else Tensor.policy
    for i, t in enumerate(tensors):
        if t._data.ndim > 2:
            raise policy.errors.block_diag_ndim(index=i, ndim=t._data.ndim)
    if not tensors:
        return empty_cls._make(np.zeros((1, 0), dtype=backend.default_float()))
    for t in tensors[1:]:
        if type(t)._out_cls is not tensors[0]._out_cls or type(t._data) is not type(tensors[0]._data):
            check_same(tensors[0]._out_cls, tensors[0], t)
    arrays = [t._data.reshape((1, -1) if t._data.ndim < 2 else t._data.shape) for t in tensors]
    dt = backend.result_type(tuple(a.dtype for a in arrays), (), (), backend.default_float())
    xp = backend.namespace(arrays[0])
    r = xp.zeros((sum(a.shape[0] for a in arrays), sum(a.shape[1] for a in arrays)), dtype=dt)
    row = col = 0
    for a in arrays:
        r[row:row + a.shape[0], col:col + a.shape[1]] = a
        row, col = row + a.shape[0], col + a.shape[1]
    out = tensors[0]._out_cls._make(r)
    if recording(*tensors):
        BlockDiagBackward0.record(tuple(tensors), out, tuple(tuple(t._data.shape) for t in tensors))
    return out


# ----------------------------------------------------------------- cartesian_prod / combinations

def _vector(t) -> None:
    if t._data.ndim != 1:
        raise t.policy.errors.expect_vector(shape=list(t._data.shape))


def _grids(tensors):
    """PyTorch's meshgrid ("ij") of 1-D tensors: each expanded along its own dim."""
    shape = tuple(t._data.shape[0] for t in tensors)
    grids = []
    for i, t in enumerate(tensors):
        view = [1] * len(tensors)
        view[i] = -1
        grids.append(S.expand_to(S.reshape(t, tuple(view)), shape))
    return grids


def cartesian_prod(*tensors):
    """Every tuple of one element from each 1-D tensor, as the rows of a matrix (one tensor: itself)."""
    for t in tensors:
        _vector(t)
    if len(tensors) == 1:
        return tensors[0]
    if any(t._data.dtype != tensors[0]._data.dtype for t in tensors):
        raise tensors[0].policy.errors.meshgrid_dtype()
    return S.stack([S.flatten(g) for g in _grids(tensors)], 1)


def combinations(input, r=2, with_replacement=False):
    """The length-r combinations of a 1-D tensor's elements (with repeats: `with_replacement`), as
    the rows of a matrix, in lexicographic order of positions."""
    _vector(input)
    policy, d = input.policy, input._data
    if r < 0:
        raise policy.errors.combinations_negative(r=r)
    if r == 0:
        return input._new(backend.namespace(d).zeros((0,), dtype=d.dtype))
    xp = backend.namespace(d)
    positions = xp.indices((d.shape[0],) * r)      # a combination: positions in order (ties with replacement)
    ordered = positions[:-1] <= positions[1:] if with_replacement else positions[:-1] < positions[1:]
    mask = input._new(ordered.all(axis=0))
    return S.stack([I.masked_select(g, mask) for g in _grids([input] * r)], 1)


# ------------------------------------------------------------------------------------- vander

def vander(x, N=None, increasing=False):
    """The powers x^0 .. x^(N-1) of a 1-D tensor as columns (decreasing unless `increasing`), in
    at least int64 (the dtype of a cumulative product)."""
    policy, d = x.policy, x._data
    if d.ndim != 1:
        raise policy.errors.vander_ndim()
    n = d.shape[0] if N is None else N
    if n < 0:
        raise policy.errors.vander_negative()
    dt = backend.result_type((d.dtype, np.dtype(np.int64)), (), (), backend.default_float())
    xp = backend.namespace(d)
    result = x._new(xp.ones((d.shape[0], n), dtype=dt) if n > 0 else xp.empty((d.shape[0], 0), dtype=dt))
    if n > 1:
        tail = (slice(None), slice(1, None))
        I.inplace(S.getitem(result, tail), I.copy_from, S.unsqueeze(x, 1))
        I.inplace(S.getitem(result, tail), I.copy_from, CU.cumprod(S.getitem(result, tail), 1))
    return result if increasing else S.flip(result, 1)


METHODS = {"rot90": rot90, "tensor_split": tensor_split, "take": take, "put": put,
           "put_": lambda self, index, source, accumulate=False: I.inplace(self, put, index, source, accumulate)}
