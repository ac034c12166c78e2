"""Writes along one dim through an index: index_copy, index_fill (a vector of positions along `dim`;
index_add, index_select's adjoint, is in indexing.py) and scatter_reduce (an index tensor shaped like the source, reduced by sum, prod,
mean, amax or amin). Each checks its arguments in ATen's order with its messages."""
from __future__ import annotations

import numpy as np

from .. import backend
from ..tensor import Tensor
from ._args import check_fill_value, normalize_dim
from ._declare import _grad_enabled, derivative
from . import elementwise as E
from . import indexing as I
from . import reduction as R
from . import shape as S

__all__ = ["index_copy", "index_fill", "scatter_reduce"]


# ------------------------------------------------------------------------------ index_copy

IndexCopyBackward0 = derivative("IndexCopyBackward0", keep="dim index",
                                self=lambda grad, dim, index: index_fill(grad, dim, index, 0),
                                source=lambda grad, dim, index: I.select_slices(grad, dim, index))


def index_copy(x, dim, index, source):
    """`x` with `source`'s slices written at the positions `index` names along `dim`."""
    policy = x.policy
    d, s, idx = x._data, source._data, index._data
    dim = normalize_dim(dim, d.ndim)
    if idx.ndim > 1:
        raise policy.errors.index_copy_vector(ndim=idx.ndim)
    if s.ndim == 0 and idx.size != 1:
        raise policy.errors.index_copy_scalar(count=idx.size)
    if s.ndim != d.ndim and s.ndim and d.ndim:
        raise policy.errors.index_copy_ndim(source=s.ndim, dest=d.ndim)
    if idx.dtype != np.int64:
        raise policy.errors.index_copy_dtype(dtype_scalar=idx.dtype)
    if s.dtype != d.dtype:
        raise policy.errors.index_copy_source_dtype(self_scalar=d.dtype, source_scalar=s.dtype)
    sliced_self = [n for i, n in enumerate(d.shape) if i != dim]
    sliced_source = [n for i, n in enumerate(s.shape) if i != dim]
    if sliced_self != sliced_source:
        raise policy.errors.index_copy_slices(dest=" ".join(map(str, sliced_self)), dim=dim,
                                              source=" ".join(map(str, sliced_source)))
    if s.ndim and idx.size != s.shape[dim]:
        raise policy.errors.index_copy_count(count=idx.size, size=s.shape[dim])
    size = d.shape[dim] if d.ndim else 1
    bad = I.first_outside(idx, 0, size)
    if bad is not None:
        raise policy.errors.index_copy_bounds(index=bad, dim=dim, size=size)
    r = d.copy()
    I.at_least_1d(r)[I.positions(d.ndim, dim, idx.reshape(-1))] = I.at_least_1d(s)
    out = x._out_cls._make(r)
    if _grad_enabled() and (x._requires_grad or source._requires_grad):
        IndexCopyBackward0.record((x, source), out, dim, index.detach().reshape(-1))
    return out


# ------------------------------------------------------------------------------ index_fill

IndexFillBackward0 = derivative("IndexFillBackward0", keep="dim index",
                                self=lambda grad, dim, index: index_fill(grad, dim, index, 0))
IndexFillBackward1 = derivative("IndexFillBackward1", keep="dim index distinct",
                                self=lambda grad, dim, index, distinct: index_fill(grad, dim, index, 0),
                                value=lambda grad, dim, index, distinct: R.sum(I.select_slices(grad, dim, distinct)))


def index_fill(x, dim, index, value):
    """`x` with the slices at the positions `index` names along `dim` (negative ones counting from
    the end) set to `value`, a number or a 0-dim tensor."""
    policy = x.policy
    d, idx = x._data, index._data
    dim = normalize_dim(dim, d.ndim)
    tv = value if isinstance(value, Tensor) else None
    if tv is not None and tv._data.ndim:
        raise policy.errors.index_fill_value_dim(ndim=tv._data.ndim)
    if idx.dtype != np.int64:
        raise policy.errors.index_fill_dtype()
    if idx.ndim > 1:
        raise policy.errors.index_fill_vector()
    size = d.shape[dim] if d.ndim else 1
    bad = I.first_outside(idx, -size, size)
    if bad is not None:
        raise policy.errors.index_fill_bounds(index=bad, dim=dim, size=size)
    xp = backend.namespace(d)
    if d.dtype.kind != "c" and isinstance(tv._data[()] if tv is not None else value, (complex, np.complexfloating)):
        raise policy.errors.index_fill_complex()
    v = tv._data if tv is not None else check_fill_value(policy, value, d.dtype)
    r = d.copy()
    wrapped = idx.reshape(-1) % size if size else idx.reshape(-1)
    I.at_least_1d(r)[I.positions(d.ndim, dim, wrapped)] = xp.asarray(v).astype(d.dtype)
    out = x._out_cls._make(r)
    if _grad_enabled() and (x._requires_grad or (tv is not None and tv._requires_grad)):
        if d.dtype.kind not in "fV":   # a tensor value that requires grad, written into integers
            raise policy.errors.index_fill_autograd_dtype(dtype_scalar=d.dtype)
        kept = x._new(wrapped)
        if tv is None:
            IndexFillBackward0.record((x,), out, dim, kept)
        else:
            IndexFillBackward1.record((x, tv), out, dim, kept, x._new(xp.unique(wrapped)))
    return out


# -------------------------------------------------------------------------- scatter_reduce

# the reductions scatter_reduce takes ("max" and "min" run as amax and amin, as in PyTorch, whose
# backward then refuses them)
_REDUCTIONS = {"sum": "sum", "prod": "prod", "mean": "mean", "amax": "amax", "amin": "amin", "max": "amax",
               "min": "amin"}


def _counts(like, dim, index, include_self):
    """How many values each position of a mean reduced (1 where none)."""
    xp = backend.namespace(like._data)
    n = like._new(xp.full(like._data.shape, 1 if include_self else 0, dtype=like._data.dtype))
    ones = like._new(xp.ones(index._data.shape, dtype=like._data.dtype))
    n = I.scatter_add(n, dim, index, ones)
    return I.masked_fill(n, n == 0, 1)


def _tied(self, src, result, dim, index):
    """Where self and src reach an amax / amin result, and the count of them per position (the
    gradient is shared evenly among ties)."""
    value = I.gather(result, dim, index)
    self_hit, src_hit = self == result, _src_part(src, index) == value
    n = I.scatter_add(E.cast(self_hit, self._data.dtype), dim, index, E.cast(src_hit, self._data.dtype))
    return self_hit, src_hit, n


def _src_part(src, index):
    """The part of `src` that scatter_reduce reads: its leading block of `index`'s shape."""
    s = src._data.shape
    if s == index._data.shape:
        return src
    return S.getitem(src, tuple(slice(0, k) for k in index._data.shape))


def _scatter_reduce_self_grad(grad, self, src, result, dim, index, reduce, include_self):
    _check_differentiable(grad, reduce)
    if reduce == "sum":
        g = grad
    elif reduce == "prod":
        masked = I.masked_fill(self, self == 0, 1)
        g = grad * scatter_reduce(masked, dim, index, src, "prod", include_self) / masked
    elif reduce == "mean":
        g = grad / _counts(grad, dim, index, include_self)
    else:
        self_hit, _, n = _tied(self, src, result, dim, index)
        g = self_hit * (grad / n)
    return g if include_self else I.scatter(g, dim, index, value=0)


def _scatter_reduce_src_grad(grad, self, src, result, dim, index, reduce, include_self):
    _check_differentiable(grad, reduce)
    part = _src_part(src, index)
    if reduce == "sum":
        g = I.gather(grad, dim, index)
    elif reduce == "mean":
        g = I.gather(grad, dim, index) / I.gather(_counts(grad, dim, index, include_self), dim, index)
    elif reduce == "prod":
        g = _prod_src_grad(grad, self, part, result, dim, index, include_self)
    else:
        _, src_hit, n = _tied(self, src, result, dim, index)
        g = src_hit * I.gather(grad / n, dim, index)
    return g if part is src else _pad_to(g, src._data.shape)


def _check_differentiable(grad, reduce):
    if reduce not in ("sum", "prod", "mean", "amax", "amin"):
        raise grad.policy.errors.scatter_reduce_backward_kind(reduce=reduce)


def _prod_src_grad(grad, self, src, result, dim, index, include_self):
    """d prod / d src: the product of the other values at the position, exact where src holds zeros."""
    zero = src == 0
    xp = backend.namespace(src._data)
    zeros_at = I.scatter_add(self._new(xp.zeros(self._data.shape, self._data.dtype)), dim, index,
                             E.cast(zero, self._data.dtype))
    n_zeros = I.gather(zeros_at, dim, index)
    single = E.logical_and(zero, n_zeros == 1)
    without = scatter_reduce(self, dim, index, I.masked_fill(src, single, 1), "prod", include_self)
    g = E.where(single, I.gather(grad * without, dim, index),
                I.gather(grad * result, dim, index) / I.masked_fill(src, zero, 1))
    if _grad_enabled() and bool((n_zeros._data > 1).any()):
        g = _no_double_backward(g)
    return g


ScatterReduceDoubleBackward = derivative("torch::autograd::Error", self=lambda grad: _refuse_double_backward(grad))


def _no_double_backward(g):
    """`g` behind a node that refuses to be differentiated (PyTorch's Error node)."""
    out = g._new(g._data)
    ScatterReduceDoubleBackward.record((g,), out)
    return out


def _refuse_double_backward(grad):
    raise grad.policy.errors.scatter_reduce_double_backward()


def _pad_to(g, shape):
    """`g` in the leading block of zeros of `shape` (src larger than index gets no gradient elsewhere)."""
    return I.index_put(g._new(backend.namespace(g._data).zeros(shape, g._data.dtype)),
                       tuple(slice(0, k) for k in g._data.shape), g)


ScatterReduceBackward0 = derivative("ScatterReduceBackward0", keep="dim index reduce include_self",
                                    self=_scatter_reduce_self_grad, src=_scatter_reduce_src_grad)


def _identity_of(reduce, dt):
    """What a position holds before the first value when scatter_reduce leaves self out."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dt.kind in "fV":
        return -np.inf if reduce == "amax" else np.inf
    if dt.kind == "b":
        return reduce == "amin"
    info = np.iinfo(dt)
    return info.min if reduce == "amax" else info.max


_UFUNCS = {"sum": "add", "mean": "add", "prod": "multiply", "amax": "maximum", "amin": "minimum"}


def scatter_reduce(x, dim, index, src, reduce, include_self=True):
    """`x` with each value of `src` combined into the position `index` names along `dim`, by
    `reduce`; `include_self=False` leaves x's own value at the written positions out."""
    policy = x.policy
    if reduce not in _REDUCTIONS:
        raise policy.errors.scatter_reduce_kind(reduce=reduce)
    kind = _REDUCTIONS[reduce]
    d, s = x._data, src._data
    dim = normalize_dim(dim, d.ndim)
    idx = index._data
    I.check_index("scatter", x, dim, idx)
    if s.dtype != d.dtype:
        raise policy.errors.scatter_src_dtype()
    I.check_index_size(x, dim, idx, s)
    xp = backend.namespace(d)
    r = d.copy()
    pos = I.along(idx, dim)
    v = I.values_at(s, idx)
    if not include_self:
        I.as_1d(r)[pos] = _identity_of(kind, d.dtype)
    backend.ufunc_at(xp, _UFUNCS[kind], I.as_1d(r), pos, v)
    if kind == "mean":
        n = xp.full(d.shape, 1 if include_self else 0, dtype=np.int64)
        xp.add.at(I.as_1d(n), pos, 1)
        n = xp.maximum(n, 1)
        r = (r / n).astype(d.dtype) if d.dtype.kind in "fV" else (r // n).astype(d.dtype)
    out = x._out_cls._make(r)
    if _grad_enabled() and (x._requires_grad or src._requires_grad):
        ScatterReduceBackward0.record((x, src), out, dim, index.detach(), reduce, include_self)
    return out


METHODS = {"index_copy": index_copy, "index_fill": index_fill,
           "scatter_reduce": scatter_reduce}
