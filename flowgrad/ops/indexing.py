"""Writes and gathers: setitem (index_put), gather/scatter, masked_fill, fill/copy, and
`inplace()`, the one mechanism every in-place method goes through (version bump, leaf checks,
history rebasing, CopySlices for views). Reading by a key (getitem) is a shape primitive."""
from __future__ import annotations


import numbers

import numpy as np

from .. import backend, user_warning
from ..tensor import Tensor
from ._args import binary_arrays, broadcast_error, check_fill_value, normalize_dim, reraise_broadcast, typename
from ..autograd.mode import _GradModeGuard
from ._declare import _grad_enabled, _state, derivative, identity, variant
from . import elementwise as E
from . import shape as S
from .shape import getitem, index_into_zeros, normalize_key  # noqa: F401  (indexing's public names too)

__all__ = ["getitem", "setitem", "index_put", "index_put_values", "gather", "scatter", "scatter_add", "scatter_into_zeros",
           "index_select", "masked_fill", "masked_select", "inplace", "fill", "copy_from", "take_along_dim",
           "nonzero", "where", "index_add"]


# ------------------------------------------------------------------------------- setitem

IndexPutBackward0 = derivative("IndexPutBackward0", keep="key accumulate",
                               self=lambda grad, key, accumulate: grad if accumulate else zero_at(grad, key),
                               values=lambda grad, key: getitem(grad, key))
# setitem with a basic key: PyTorch records it as a copy into a view, shown as CopySlices
CopySlicesIndex = variant(IndexPutBackward0, "torch::autograd::CopySlices")


def index_put(x, key, value, accumulate=False):
    """`x` with `value` written (`accumulate`: added, repeated positions each adding) at `key` (out of
    place; setitem runs it through `inplace`)."""
    d = x._data
    xp = backend.namespace(d)
    key, advanced = normalize_key(key, xp, x.policy)
    v = value._data if isinstance(value, Tensor) else value
    r = d.copy()
    try:
        if accumulate:
            backend.ufunc_at(xp, "add", r, key if isinstance(key, tuple) else (key,),
                             xp.broadcast_to(v, d[key].shape))
        else:
            r[key] = v
    except ValueError:
        if not advanced:
            raise
        raise x.policy.errors.index_put_shape(value=list(xp.shape(v)), result=list(d[key].shape)) from None
    out = x._out_cls._make(r)
    tv = value if isinstance(value, Tensor) else None
    if _grad_enabled() and (x._requires_grad or (tv is not None and tv._requires_grad)):
        pure_advanced = advanced and all(hasattr(k, "ndim") for k in key)
        (IndexPutBackward0 if pure_advanced else CopySlicesIndex).record((x, tv), out, key, accumulate)
    return out


def index_put_values(x, indices, values, accumulate=False):
    """PyTorch's `index_put` (and, through `inplace`, `index_put_`): `values`, a tensor of x's dtype,
    written at the index tensors `indices` (one bool mask and a 0-d value: any dtype, as in masked_fill)."""
    indices = tuple(indices)
    vd, dt = values._data, x._data.dtype
    if vd.dtype != dt and not vd.ndim and len(indices) == 1 and isinstance(indices[0], Tensor) \
            and indices[0]._data.dtype == np.bool_:
        check_fill_value(x.policy, vd[()], dt)
        values = E.cast(values, dt)
    if values._data.dtype != dt:
        raise x.policy.errors.index_put_dtypes(self_scalar=x._data.dtype, source_scalar=values._data.dtype)
    return index_put(x, tuple(indices), values, bool(accumulate))


def setitem(x, key, value):
    if isinstance(value, Tensor) and value._data.dtype != x._data.dtype:
        value = E.cast(value, x._data.dtype)
    value = check_fill_value(x.policy, value, x._data.dtype)
    inplace(x, index_put, key, value, leaf_error="leaf_view_inplace")


ZeroAtBackward = derivative("ZeroAtBackward", keep="key", self=lambda grad, key: zero_at(grad, key))


def zero_at(g, key):
    """`g` with the entries at `key` set to zero (self-adjoint)."""
    r = g._data.copy()
    r[key] = 0
    out = g._out_cls._make(r)
    if _grad_enabled() and g._requires_grad:
        ZeroAtBackward.record((g,), out, key)
    return out


# ----------------------------------------------------------------------- gather / scatter

def along(index, dim):
    """Full index tuple addressing `index`'s positions along `dim` (of `as_1d`'s view of a 0-d array)."""
    if index.ndim == 0:
        return (index,)
    xp = backend.namespace(index)
    grids = backend.open_grid(xp, index.shape, dim + index.ndim if dim < 0 else dim)
    grids[dim] = index
    return tuple(grids)


def as_1d(a):
    """A 0-d array as a view of one element (PyTorch counts a 0-d tensor's dims as one), others as they are."""
    return a.reshape(1) if a.ndim == 0 else a


def values_at(src, index):
    """The values of `src` at the positions of `index` (its first element for a 0-d index)."""
    return as_1d(src)[tuple(slice(0, s) for s in index.shape) or 0]


GatherBackward0 = derivative("GatherBackward0", paddle="TakeAlongAxisGradNode", keep="in_shape dim index",
                             self=lambda grad, in_shape, dim, index: scatter_into_zeros(in_shape, dim, index, grad))


def check_index(op, x, dim, idx, name="self"):
    """PyTorch's checks of gather's / scatter's index: an integer tensor of x's number of
    dimensions whose entries lie in [0, size) along `dim`."""
    if idx.dtype != np.int64 and idx.dtype != np.int32:
        raise x.policy.errors.index_dtype(op=op)
    d = x._data
    if idx.ndim != d.ndim and (idx.ndim > 1 or d.ndim > 1):
        raise x.policy.errors.index_ndim(name=name)
    if idx.size:
        n = d.shape[dim] if d.ndim else 1
        lo, hi = int(idx.min()), int(idx.max())
        if lo < (-n if x.policy.negative_indices_wrap else 0) or hi >= n:
            raise x.policy.errors.index_bounds(index=lo if lo < 0 else hi, dim=dim, size=n)


def check_index_size(x, dim, idx, src) -> None:
    """PyTorch's check of a reducing scatter's index: no larger than src, nor than x apart from `dim`."""
    d = x._data
    if idx.ndim and any(k > (src.shape[i] if src.ndim else 1) or (i != dim and k > (d.shape[i] if d.ndim else 1))
                        for i, k in enumerate(idx.shape)):
        raise x.policy.errors.scatter_index_size(index=list(idx.shape), dest=list(d.shape), dim=dim,
                                                 src=list(src.shape))


def gather(x, dim, index):
    d = x._data
    dim = normalize_dim(dim, d.ndim)
    idx = index._data
    check_index("gather", x, dim, idx, "input")
    out = x._out_cls._make(as_1d(d)[along(idx, dim)])
    if _grad_enabled() and x._requires_grad:
        GatherBackward0.record((x,), out, d.shape, dim, index.detach())
    return out


def take_along_dim(x, indices, dim=None):
    """PyTorch's take_along_dim(input, indices, dim): gather with broadcasting of the other dims."""
    if dim is not None and indices._data.dtype != np.int64:    # (without dim: gather's own check)
        raise x.policy.errors.take_along_dim_dtype(dtype_scalar=indices._data.dtype)
    if dim is not None and x._data.ndim != indices._data.ndim:
        raise x.policy.errors.take_along_dim_ndim(ndim=x._data.ndim, indices_ndim=indices._data.ndim)
    if dim is None:      # (views, as PyTorch's: a layout no view flattens raises its view error)
        return gather(S.view(x, -1), 0, S.view(indices, -1))
    dim = normalize_dim(dim, x._data.ndim)
    shape = list(np.broadcast_shapes(*(tuple(1 if i == dim else s for i, s in enumerate(t._data.shape))
                                       for t in (x, indices))))
    xs = shape[:dim] + [x._data.shape[dim]] + shape[dim + 1:]
    ids = shape[:dim] + [indices._data.shape[dim]] + shape[dim + 1:]
    return gather(S.expand(x, xs), dim, S.expand(indices, ids))


ScatterAddBackward0 = derivative("ScatterAddBackward0", keep="dim index", self=identity,
                                 src=lambda grad, dim, index: gather(grad, dim, index))


def _added_at(base, dim, index, src):
    """A copy of the array `base` with `src` added at `index` along `dim`, recorded as PyTorch's
    ScatterAddBackward0 of `src` (and of `base` where it is a tensor)."""
    d = src._data
    xp = backend.namespace(d)
    z = base._data.copy() if isinstance(base, Tensor) else base
    idx = index._data
    xp.add.at(as_1d(z), along(idx, dim), values_at(d, idx))
    out = src._out_cls._make(z)
    x = base if isinstance(base, Tensor) else None
    if _grad_enabled() and (src._requires_grad or (x is not None and x._requires_grad)):
        ScatterAddBackward0.record((x, src), out, dim, index.detach())
    return out


def scatter_into_zeros(shape, dim, index, src):
    """Zeros of `shape` with `src` added at `index` along `dim`: the adjoint of gather."""
    return _added_at(backend.namespace(src._data).zeros(shape, dtype=src._data.dtype), dim, index, src)


def scatter_add(x, dim, index, src):
    dim = normalize_dim(dim, x._data.ndim)
    check_index("scatter", x, dim, index._data)
    if src._data.dtype != x._data.dtype:
        raise x.policy.errors.scatter_src_dtype()
    check_index_size(x, dim, index._data, src._data)
    return _added_at(x, dim, index, src)


def _scatter_self_grad(grad, dim, index):
    """The gradient where scatter did not write: grad masked by 1 - (positions written)."""
    ones = grad._new(backend.namespace(grad._data).ones(index._data.shape, grad._data.dtype))
    return grad * (1 - scatter_into_zeros(grad._data.shape, dim, index, ones).clamp(max=1))


ScatterBackward0 = derivative("ScatterBackward0", keep="dim index", self=_scatter_self_grad,
                              src=lambda grad, dim, index: gather(grad, dim, index))


_SCATTER_REDUCE = {"add": "add", "multiply": "multiply"}
_WARNED: set = set()   # warnings PyTorch gives once per process


def scatter(x, dim, index, src=None, value=None, reduce=None):
    """`x` with `src` (a tensor, or a number `value`) written at `index` along `dim`; with
    `reduce=` "add" or "multiply" combined into the entries there instead, repeated indices each
    contributing."""
    policy = x.policy
    if src is None:
        if value is None:
            raise policy.errors.scatter_no_source()
        src = value
    if reduce is not None and reduce not in _SCATTER_REDUCE:
        raise policy.errors.scatter_reduce()
    d = x._data
    dim = normalize_dim(dim, d.ndim)
    idx = index._data
    check_index("scatter", x, dim, idx)
    ts = src if isinstance(src, Tensor) else None
    if ts is None and not isinstance(src, (numbers.Number, np.bool_)):     # (a list: no source PyTorch takes)
        raise policy.errors.argument_type(fn="scatter", argument="src", expected="Tensor", type=typename(src))
    if ts is not None and ts._data.dtype != d.dtype:
        raise policy.errors.scatter_src_dtype()
    v = values_at(ts._data, idx) if ts is not None else check_fill_value(policy, src, d.dtype)
    r = d.copy()
    pos = along(idx, dim)
    if reduce is None:
        as_1d(r)[pos] = v
    else:
        if ts is not None and "scatter_reduce" not in _WARNED:
            _WARNED.add("scatter_reduce")
            user_warning.warn(policy.errors.scatter_reduce_deprecated())
        backend.ufunc_at(backend.namespace(r), _SCATTER_REDUCE[reduce], as_1d(r), pos, v)
    out = x._out_cls._make(r)
    if _grad_enabled() and (x._requires_grad or (ts is not None and ts._requires_grad)):
        if reduce is None:
            ScatterBackward0.record((x, ts), out, dim, index.detach())
        else:
            E.NoDerivative.record((x, ts), out, "aten::scatter")   # scatter's reduce=
    return out


# ------------------------------------------------------------------- index_select / index_add

IndexSelectBackward0 = derivative("IndexSelectBackward0", keep="in_shape dim index",
                                  self=lambda grad, in_shape, dim, index: index_add(
                                      grad._new(backend.namespace(grad._data).zeros(in_shape, grad._data.dtype)),
                                      dim, index, grad))


def index_select(x, dim, index):
    """The slices of `x` at the positions `index` (a vector or one number) names along `dim`."""
    d = x._data
    dim = normalize_dim(dim, d.ndim)
    idx = index._data if isinstance(index, Tensor) else backend.namespace(d).asarray(index)
    policy = x.policy
    if idx.ndim > 1:
        raise policy.errors.index_select_vector()
    if idx.dtype != np.int64 and idx.dtype != np.int32:
        raise policy.errors.index_select_dtype()
    n = d.shape[dim] if d.ndim else 1
    flat = idx.reshape(-1).astype(np.int64)
    if flat.size:
        if int(flat.min()) < (-n if policy.negative_indices_wrap else 0) or int(flat.max()) >= n:
            raise policy.errors.index_out_of_range()
        if policy.negative_indices_wrap:
            flat = flat % n
    r = backend.namespace(d).take(at_least_1d(d), flat, axis=dim)
    out = x._out_cls._make(r.reshape(()) if d.ndim == 0 and r.size == 1 else r)
    if _grad_enabled() and x._requires_grad:
        IndexSelectBackward0.record((x,), out, d.shape, dim, x._new(flat))
    return out


def positions(ndim: int, dim: int, idx) -> tuple:
    """The key addressing the entries `idx` along `dim` of an array of `ndim` (>= 1) dims."""
    return (slice(None),) * dim + (idx,)


def at_least_1d(d):
    return d.reshape(1) if d.ndim == 0 else d


def select_slices(grad, dim, index):
    """`grad`'s slices at `index` along `dim` (a 0-dim gradient as one slice)."""
    return index_select(grad if grad._data.ndim else S.reshape(grad, (1,)), dim, index)


def first_outside(idx, low: int, high: int) -> int:
    """The first entry of `idx` outside [low, high); None when all lie inside."""
    bad = idx[(idx < low) | (idx >= high)]
    return int(bad[0]) if bad.size else None


# ------------------------------------------------------------------------------- index_add

IndexAddBackward0 = derivative("IndexAddBackward0", keep="dim index alpha", self=identity,
                               source=lambda grad, dim, index, alpha: select_slices(grad, dim, index) * alpha
                               if alpha != 1 else select_slices(grad, dim, index))


def index_add(x, dim, index, source, alpha=1):
    """`x` with `alpha * source`'s slices added at the positions `index` names along `dim`."""
    policy = x.policy
    d, s, idx = x._data, source._data, index._data
    dim = normalize_dim(dim, d.ndim)
    if idx.ndim > 1:
        raise policy.errors.index_add_vector(ndim=idx.ndim, dtype_scalar=idx.dtype, size=list(idx.shape))
    if idx.dtype != np.int64 and idx.dtype != np.int32:
        raise policy.errors.index_add_dtype(dtype_scalar=idx.dtype)
    if s.dtype != d.dtype:
        raise policy.errors.index_add_source_dtype(self_scalar=d.dtype, source_scalar=s.dtype)
    if s.ndim and dim >= s.ndim:
        raise policy.errors.index_add_source_dim(dim=dim, ndim=s.ndim)
    n_src = s.shape[dim] if s.ndim else 1
    if idx.size != n_src:
        raise policy.errors.index_add_count(count=idx.size, size=n_src, dim=dim)
    if s.ndim != d.ndim or any(a != b for i, (a, b) in enumerate(zip(d.shape, s.shape)) if i != dim):
        raise policy.errors.index_add_shape(self_size=list(d.shape), source_size=list(s.shape))
    size = d.shape[dim] if d.ndim else 1
    bad = first_outside(idx, 0, size) if d.size else None     # (an empty self: nothing added, nothing checked)
    if bad is not None:
        raise policy.errors.index_bounds(index=bad, dim=dim, size=size)
    xp = backend.namespace(d)
    v = s if alpha == 1 else (s * d.dtype.type(alpha)).astype(d.dtype, copy=False)
    r = d.copy()
    if d.size:
        xp.add.at(at_least_1d(r), positions(d.ndim, dim, idx.reshape(-1)), at_least_1d(v))
    out = x._out_cls._make(r)
    if _grad_enabled() and (x._requires_grad or source._requires_grad):
        IndexAddBackward0.record((x, source), out, dim, index.detach().reshape(-1), alpha)
    return out


MaskedFillBackward0 = derivative("MaskedFillBackward0", keep="mask", self=lambda grad, mask: zero_at(grad, mask))


def masked_fill(x, mask, value):
    m = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
    if m.dtype != np.bool_:
        raise x.policy.errors.masked_fill_mask(dtype_ctype=m.dtype)
    d = x._data
    xp = backend.namespace(d)
    if m.shape != d.shape:      # the result takes the broadcast shape of input and mask
        err = broadcast_error(d.shape, m.shape, x.policy)
        if err is not None:
            raise err
        m = xp.broadcast_to(m, np.broadcast_shapes(d.shape, m.shape))
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise x.policy.errors.masked_fill_value_dims(ndim=value._data.ndim)
        value = value._data[()]
    v = check_fill_value(x.policy, value, d.dtype)
    out = x._out_cls._make(xp.where(m, xp.asarray(v, dtype=d.dtype), d))
    if _grad_enabled() and x._requires_grad:
        MaskedFillBackward0.record((x,), out, m)
    return out


def masked_select(x, mask):
    m = mask._data if isinstance(mask, Tensor) else mask
    if m.dtype != np.bool_:
        raise x.policy.errors.masked_select_mask()
    xp = backend.namespace(x._data)
    err = broadcast_error(m.shape, x._data.shape, x.policy)
    if err is not None:
        raise err
    shape = np.broadcast_shapes(x._data.shape, m.shape)
    xb = S.expand(x, shape) if x._data.shape != shape else x
    return getitem(xb, xp.broadcast_to(m, shape))


def nonzero(x, as_tuple=False):
    d = x._data
    if d.ndim == 0:   # a 0-dim tensor reads as one entry: position 0 when it is nonzero
        hits = int(bool(d))
        xp = backend.namespace(d)
        if as_tuple:
            return (x._out_cls._make(xp.zeros(hits, dtype=np.int64)),)
        return x._out_cls._make(xp.zeros((hits, 0), dtype=np.int64))
    nz = backend.namespace(d).nonzero(d)
    if as_tuple:
        return tuple(x._out_cls._make(a.astype(np.int64)) for a in nz)
    return x._out_cls._make(backend.namespace(x._data).stack(nz, axis=1).astype(np.int64))


def where(condition, a=None, b=None):
    """`a` where `condition` holds, else `b` (elementwise.where); `where(condition)` alone is
    `nonzero(condition, as_tuple=True)`, as in PyTorch."""
    if a is None and b is None:
        return nonzero(condition, as_tuple=True)
    if a is None or b is None:
        raise condition.policy.errors.argument_missing(fn="where", argument="input" if a is None else "other")
    return E.where(condition, a, b)


# -------------------------------------------------------------------------- fill / copy

FillBackward0 = derivative("FillBackward0", self=lambda grad: grad * 0)
ZeroBackward0 = variant(FillBackward0, "ZeroBackward0")


def _fill_value(x, value):
    """What `fill_` writes: a number, or a 0-d tensor's value (PyTorch refuses a tensor of more dims)."""
    if value is None or isinstance(value, (str, list, tuple)):
        raise x.policy.errors.argument_type_at(fn="fill_", argument="value", position=1, expected="Number",
                                               type=type(value).__name__)
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise x.policy.errors.fill_value_dims(ndim=value._data.ndim)
        value = value._data
    return check_fill_value(x.policy, value, x._data.dtype)


def fill(x, value):
    d = x._data
    v = _fill_value(x, value)
    out = x._out_cls._make(backend.namespace(d).full(d.shape, v, dtype=d.dtype))
    if _grad_enabled() and x._requires_grad:
        FillBackward0.record((x,), out)
    return out


def fill_zero(x):
    """Zeros like `x` (what `x.zero_()` writes)."""
    out = x._out_cls._make(backend.namespace(x._data).zeros_like(x._data))
    if _grad_enabled() and x._requires_grad:
        ZeroBackward0.record((x,), out)
    return out


CopyBackwardsInplace = derivative("CopyBackwards", paddle="AssignGradNode",
                                  self=lambda grad: grad * 0, src=identity)


def copy_from(x, src):
    """`src` broadcast to `x`'s shape and cast to its dtype (what `x.copy_(src)` writes)."""
    d = x._data
    if src is None or isinstance(src, str):
        raise x.policy.errors.argument_type_at(fn="copy_", argument="other", position=1, expected="Tensor",
                                               type=type(src).__name__)
    s = src._data if isinstance(src, Tensor) else np.asarray(src)
    if type(s) is not type(d):
        s = backend.to_device(s, x.device)
    xp = backend.namespace(d)
    if s.dtype.kind == "c" and d.dtype.kind != "c":
        s = E.complex_to_real(x.policy, s, d.dtype)
    try:
        r = xp.array(xp.broadcast_to(s, d.shape), dtype=d.dtype)
    except ValueError as e:
        try:    # (src broadcasts with x but to a larger shape: PyTorch's in-place error)
            wide = np.broadcast_shapes(s.shape, d.shape)
        except ValueError:
            reraise_broadcast(e, x._out_cls, d, s)
        raise x.policy.errors.inplace_shape(shape=list(d.shape), broadcast=list(wide)) from None
    out = x._out_cls._make(r)
    ts = src if isinstance(src, Tensor) else None
    if _grad_enabled() and (x._requires_grad or (ts is not None and ts._requires_grad)):
        CopyBackwardsInplace.record((x, ts), out)
    return out


# ------------------------------------------------------------------------------- inplace

# History of a base after an in-place op on one of its views: the view's region takes its gradient
# from the op's result, the rest from the base's old history.
CopySlices = derivative("torch::autograd::CopySlices", keep="view_fn",
                        self=lambda grad, view_fn: zero_view(grad, view_fn),
                        src=lambda grad, view_fn: view_fn(grad))
ZeroViewBackward = derivative("ZeroViewBackward", keep="view_fn", self=lambda grad, view_fn: zero_view(grad, view_fn))


def zero_view(g, view_fn):
    """`g` with the region `view_fn` selects set to zero (self-adjoint)."""
    r = g._data.copy()
    prev = _grad_enabled()
    _state.grad_enabled = False
    try:
        region = view_fn(g._new(r))
    finally:
        _state.grad_enabled = prev
    region._data[...] = 0
    out = g._out_cls._make(r)
    if _grad_enabled() and g._requires_grad:
        ZeroViewBackward.record((g,), out, view_fn)
    return out


def inplace(self, fn, *args, leaf_error="leaf_inplace", **kwargs):
    """Apply `fn(self, *args)` in place: compute it out of place, write the result into `self`'s
    array, bump the version counter, and move `self`'s history (and its base's, for a view) onto
    the new node."""
    ext = self._extra
    if ext is not None and ext.inference and not _state.inference:
        raise self.policy.errors.inference_inplace()
    rec = _grad_enabled() and (self._requires_grad or
                                   any(isinstance(a, Tensor) and a._requires_grad for a in args))
    if not rec:
        if fn in _UFUNC_NAMES and len(args) == 1 and not kwargs and _ufunc_inplace(self, fn, args[0]):
            return self
        if (fn is fill or fn is fill_zero) and not kwargs and _fill_inplace(self, fn, args):
            return self
        try:
            res = fn(self, *args, **kwargs)
        except NotImplementedError:
            _complex_cast_first(self, fn, args)
            raise
        _write(self, res)
        return self
    if self._grad_fn is None and self._requires_grad:
        if self.policy.leaf_inplace_writes_first and leaf_error == "leaf_inplace":
            with _GradModeGuard(False):  # paddle's kernel has run when it refuses (the version stays)
                self._data[...] = fn(self._new(self._data), *args, **kwargs)._data
        raise self.policy.error(leaf_error, tensor=self)
    view = self._view
    if view is not None:
        base = view[0]
        if view[2] is not None:  # an op name, or (error kind, name) for a custom Function's output
            kind, op = view[2] if type(view[2]) is tuple else ("multi_view_inplace", view[2])
            raise self.policy.error(kind, output_nr=self.output_nr, op=op)
        if base._grad_fn is None and base._requires_grad:
            raise self.policy.errors.leaf_view_inplace(tensor=base)
    alias = self._new(self._data.copy())
    alias._requires_grad, alias._grad_fn, alias.output_nr = self._requires_grad, self._grad_fn, self.output_nr
    try:
        res = fn(alias, *args, **kwargs)
    except NotImplementedError:
        _complex_cast_first(self, fn, args)
        raise
    _write(self, res)
    retains = self.retains_grad
    if retains:  # the retained grad follows the tensor to its new history
        del self._grad_fn._hooks.retains[self.output_nr]
    if view is None:
        self._grad_fn, self.output_nr, self._requires_grad = res._grad_fn, res.output_nr, res._requires_grad
    else:
        _rebase_view(self, view, res)
    if retains:
        self.retain_grad()
    return self


_UFUNC_NAMES = {E.add: "add", E.sub: "subtract", E.mul: "multiply", E.div: "divide"}


def _ufunc_inplace(self, fn, other) -> bool:
    """`self op= other` straight into self's float array (no temporary, no copy back: an optimizer
    step) when nothing is recorded, the result dtype is self's own and `other` has self's shape or
    is a scalar; False when the general path must run instead."""
    d = self._data
    _, a, b, _, _ = binary_arrays(self, other, fn is E.div)
    if a is not d or d.dtype.kind not in "fV" or not backend.writeable(d) or \
            (hasattr(b, "shape") and b.shape != d.shape):
        return False
    getattr(backend.namespace(d), _UFUNC_NAMES[fn])(d, b, out=d)
    self._bump()
    return True


def _fill_inplace(self, fn, args) -> bool:
    """`fill_` / `zero_` written where the tensor's array stands when nothing is recorded: no second
    buffer of the tensor's size; False when the general path must run (a read-only array)."""
    d = self._data
    if not backend.writeable(d):
        return False
    if fn is fill_zero:
        d[...] = 0
    else:
        d[...] = _fill_value(self, args[0])
    self._bump()
    return True


def _rebase_view(self, view, res) -> None:
    """After an in-place op on a view: the base's history becomes CopySlices over the old base and
    the op's result, and the view is re-derived from the base."""
    base, view_fn, _ = view
    CopySlices.record((base, res), base, view_fn)
    base.output_nr = 0
    rederived = view_fn(base)
    self._grad_fn, self.output_nr, self._requires_grad = rederived._grad_fn, rederived.output_nr, True


def _complex_cast_first(self, fn, args) -> None:
    """Where a kernel refused a complex operand of a real in-place op: PyTorch's cast check of the
    result type into self's dtype comes first, and refuses it (a comparison's result is bool: its
    kernel's refusal stands)."""
    d = self._data
    if d.dtype.kind == "c" or fn in (E.lt, E.le, E.gt, E.ge):
        return
    tensors = [a._data for a in (self, *args) if isinstance(a, Tensor)]
    numbers = tuple(type(a) for a in args if isinstance(a, (bool, int, float, complex)))
    if not any(t.dtype.kind == "c" for t in tensors) and complex not in numbers:
        return
    for t in tensors[1:]:        # (shapes are checked before types)
        err = broadcast_error(d.shape, t.shape, self.policy)
        if err is not None:
            raise err from None
    r = backend.result_type(tuple(t.dtype for t in tensors if t.ndim), tuple(t.dtype for t in tensors if not t.ndim),
                            numbers, backend.default_float())
    raise self.policy.errors.result_type_cast(result_scalar=r, want_scalar=d.dtype) from None


def _write(self, res) -> None:
    d, r = self._data, res._data
    if r.shape != d.shape:
        raise self.policy.errors.inplace_shape(shape=list(d.shape), broadcast=list(r.shape))
    if r.dtype != d.dtype:
        if (r.dtype.kind in "fV" and d.dtype.kind in "iub") or (r.dtype.kind in "iu" and d.dtype.kind == "b") or \
                (r.dtype.kind == "c" and d.dtype.kind != "c"):
            raise self.policy.errors.result_type_cast(result_scalar=r.dtype, want_scalar=d.dtype)
        r = r.astype(d.dtype)
    if not backend.writeable(d):
        raise self.policy.errors.inplace_overlap()
    d[...] = r
    self._bump()


METHODS = {
    "__setitem__": setitem, "gather": gather, "scatter": scatter, "index_add": index_add,
    "scatter_add": scatter_add, "index_select": index_select, "masked_fill": masked_fill,
    "masked_select": masked_select, "take_along_dim": take_along_dim, "nonzero": nonzero,
    "index_put": index_put_values,
}
