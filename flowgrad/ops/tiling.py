"""Tensors made by repeating another's entries: repeat_interleave and the Kronecker product, as
compositions of views, gathers and products (their gradients follow from those)."""
from __future__ import annotations

import numpy as np

from .. import backend
from ..tensor import Tensor
from ._args import normalize_dim
from . import elementwise as E
from . import indexing as I
from . import iterator_layout as L
from . import shape as S

__all__ = ["repeat_interleave", "kron"]


def _repeat_counts(policy, repeats: Tensor, dim: int | None = None, size: int = 0):
    """`repeats` as a 1-d count per slice, checked in PyTorch's order: `size` slices along `dim` (a
    single count is spread over them); dim None in the one-argument form."""
    r = repeats._data
    one_arg = dim is None
    if not one_arg:
        if r.ndim > 1:
            raise policy.errors.repeat_interleave_repeats_dim()
        r = r.reshape(-1)
        if r.shape[0] != 1 and r.shape[0] != size:
            raise policy.errors.repeat_interleave_size(repeats=r.shape[0], dim=dim, size=size)
    if r.dtype.kind not in "iu":
        raise policy.errors.not_implemented_for(op="repeat_interleave_cpu", dtype_scalar=r.dtype)
    if one_arg and r.ndim != 1:
        raise policy.errors.repeat_interleave_vector()
    if r.size and int(r.min()) < 0:
        raise policy.errors.repeat_interleave_negative_tensor()
    if not one_arg and r.shape[0] == 1:
        r = backend.namespace(r).full(size, int(r[0]), dtype=r.dtype)
    return r


def _positions(policy, counts, output_size):
    """arange(len(counts)) with entry i repeated counts[i] times."""
    xp = backend.namespace(counts)
    total = int(counts.sum())
    if output_size is not None and output_size != total:
        raise policy.errors.repeat_interleave_allocated()
    return xp.repeat(xp.arange(counts.shape[0], dtype=np.int64), counts)


def repeat_interleave(input, repeats=None, dim=None, output_size=None):
    """Each slice of `input` along `dim` (of the flattened input when dim is None) repeated
    `repeats` times (an int, or one count per slice); with `input` alone, the indices
    0..len(input)-1 repeated input[i] times."""
    policy = input.policy
    if repeats is None:   # repeat_interleave(repeats)
        counts = _repeat_counts(policy, input)
        return input._out_cls._make(_positions(policy, counts, output_size).astype(input._data.dtype))
    x = S.reshape(input, (-1,)) if dim is None else input
    d = x._data
    axis = normalize_dim(dim if dim is not None else 0, d.ndim)
    if d.ndim == 0:
        x, d = S.reshape(x, (1,)), d.reshape(1)
    size = d.shape[axis]
    if isinstance(repeats, Tensor):
        counts = _repeat_counts(policy, repeats, axis, size)
        return I.index_select(x, axis, x._new(_positions(policy, counts, output_size)))
    if repeats < 0:
        raise policy.errors.repeat_interleave_negative()
    if output_size is not None and output_size != size * repeats:
        raise policy.errors.repeat_interleave_output_size(expected=size * repeats, got=output_size)
    shape = d.shape
    spread = S.expand(S.unsqueeze(x, axis + 1), shape[:axis + 1] + (repeats,) + shape[axis + 1:])
    return S.reshape(spread, shape[:axis] + (size * repeats,) + shape[axis + 1:])


def kron(input, other, strided: bool = True):
    """The Kronecker product: each entry of `input` times the whole of `other`, tiled over the
    dims of the larger (the smaller padded with leading ones). `strided`: PyTorch's view of the
    product as the result, which raises its view error where the inputs' layouts allow no view
    (paddle copies)."""
    a, b = input._data, other._data
    n = max(a.ndim, b.ndim)
    sa, sb = (1,) * (n - a.ndim) + a.shape, (1,) * (n - b.ndim) + b.shape
    ra, rb = tuple(k for s in sa for k in (s, 1)), tuple(k for s in sb for k in (1, s))
    shape = tuple(p * q for p, q in zip(sa, sb))
    # the product's layout follows the inputs' (PyTorch's TensorIterator)
    if strided:
        views = [(r, L.view_strides(t.shape, L.strides_of(t), r)) for t, r in ((a, ra), (b, rb))]
        both = tuple(q if p == 1 else p for p, q in zip(ra, rb))
        if L.view_strides(both, L.output_strides(both, views), shape) is None:
            raise input.policy.errors.view_stride()
    return S.reshape(E.mul(S.reshape(input, ra), S.reshape(other, rb)), shape)


METHODS = {"repeat_interleave": repeat_interleave, "kron": kron}
