"""Indexing and in-place primitives: getitem, setitem (index_put), gather/scatter, masked_fill,
fill/copy, and `inplace()`, the one mechanism every in-place method goes through (version bump,
leaf checks, history rebasing, CopySlices for views)."""
from __future__ import annotations

import numpy as np

from .. import backend
from ..autograd.graph import Node, _next_seq
from ..tensor import Tensor
from . import _state, _grad_enabled, edge, make_node, normalize_dim
from . import elementwise as E
from . import shape as S

__all__ = ["getitem", "setitem", "index_put", "gather", "scatter", "scatter_add", "scatter_into_zeros",
           "index_select", "masked_fill", "masked_select", "inplace", "fill", "copy_from", "take_along_dim",
           "nonzero"]


# ---------------------------------------------------------------------------------- keys

def _array_key(k, xp):
    if isinstance(k, Tensor):
        a = k._data
        return a if a.dtype == np.bool_ or a.dtype.kind in "iu" else a.astype(np.int64)
    if isinstance(k, (list, np.ndarray)):
        a = xp.asarray(k)
        if a.dtype.kind == "f" and a.size == 0:
            a = a.astype(np.int64)
        return a
    return k


def normalize_key(key, xp) -> tuple:
    """A tuple key with tensors/lists turned into arrays; returns (key, is_advanced)."""
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    advanced = False
    for k in key:
        k = _array_key(k, xp)
        if isinstance(k, (bool, np.bool_)):
            k = xp.asarray(k)
        if hasattr(k, "dtype") and hasattr(k, "ndim"):
            advanced = True
        elif isinstance(k, slice) and k.step is not None and k.step <= 0:
            raise ValueError("step must be greater than zero")
        out.append(k)
    return tuple(out), advanced


def _node_for_key(key, advanced):
    if advanced:
        if len(key) == 1 and getattr(key[0], "ndim", 1) == 0 and key[0].dtype.kind in "iu":
            return SelectBackward0
        return IndexBackward0
    real = [k for k in key if k is not Ellipsis]
    if not real:
        return AliasIndexBackward
    if all(k is None for k in real):
        return UnsqueezeIndexBackward
    last = next((k for k in reversed(real) if k is not None), None)
    return SelectBackward0 if isinstance(last, (int, np.integer)) else SliceBackward0


# ------------------------------------------------------------------------------- getitem

class IndexBackward0(Node):
    __slots__ = ("in_shape", "key")

    def backward(self, g):
        return (index_into_zeros(g, self.in_shape, self.key),)


class SelectBackward0(IndexBackward0):
    __slots__ = ()


class SliceBackward0(IndexBackward0):
    __slots__ = ()


# PyTorch's names for what a basic key does: only None -> unsqueeze; only Ellipsis -> alias
UnsqueezeIndexBackward = type("UnsqueezeBackward0", (IndexBackward0,), {"__slots__": ()})
AliasIndexBackward = type("AliasBackward0", (IndexBackward0,), {"__slots__": ()})


def getitem(x, key):
    d = x._data
    xp = backend.namespace(d)
    key, advanced = normalize_key(key, xp)
    try:
        r = d[key]
    except IndexError as exc:
        raise IndexError(str(exc).replace("axis", "dimension")) from None
    out = x._out_cls._make(r)
    if not advanced:
        S.as_view(x, out, lambda b: getitem(b, key))
    if _grad_enabled() and x._requires_grad:
        node = make_node(_node_for_key(key, advanced), (x,), out)
        node.in_shape, node.key = d.shape, key
    return out


class IndexIntoZerosBackward(Node):
    __slots__ = ("key",)

    def backward(self, g):
        return (getitem(g, self.key),)


def index_into_zeros(g, shape, key):
    """Zeros of `shape` with `g` added at `key` (duplicates accumulate): the adjoint of getitem."""
    d = g._data
    xp = backend.namespace(d)
    z = xp.zeros(shape, dtype=d.dtype)
    if any(hasattr(k, "ndim") for k in key):
        xp.add.at(z, key, d) if xp is np else xp.add.at(z, key, d)
    else:
        z[key] = d
    out = g._out_cls._make(z)
    if _grad_enabled() and g._requires_grad:
        make_node(IndexIntoZerosBackward, (g,), out).key = key
    return out


# ------------------------------------------------------------------------------- setitem

class IndexPutBackward0(Node):
    __slots__ = ("key",)

    def backward(self, g):
        na, nv = self.next_edges
        return (zero_at(g, self.key) if na is not None else None), (getitem(g, self.key) if nv is not None else None)


# setitem with a basic key: PyTorch records it as a copy into a view, shown as CopySlices
CopySlicesIndex = type("CopySlices", (IndexPutBackward0,), {"__slots__": (), "_name": "torch::autograd::CopySlices"})


def index_put(x, key, value):
    """`x` with `value` written at `key` (out of place; setitem runs it through `inplace`)."""
    d = x._data
    xp = backend.namespace(d)
    key, advanced = normalize_key(key, xp)
    v = value._data if isinstance(value, Tensor) else value
    r = d.copy()
    r[key] = v
    out = x._out_cls._make(r)
    tv = value if isinstance(value, Tensor) else None
    if _grad_enabled() and (x._requires_grad or (tv is not None and tv._requires_grad)):
        pure_advanced = advanced and all(hasattr(k, "ndim") for k in key)
        make_node(IndexPutBackward0 if pure_advanced else CopySlicesIndex, (x, tv), out).key = key
    return out


def setitem(x, key, value):
    if isinstance(value, Tensor) and value._data.dtype != x._data.dtype:
        from .elementwise import cast
        value = cast(value, x._data.dtype)
    inplace(x, index_put, key, value, leaf_error="leaf_view_inplace")


class ZeroAtBackward(Node):
    __slots__ = ("key",)

    def backward(self, g):
        return (zero_at(g, self.key),)


def zero_at(g, key):
    """`g` with the entries at `key` set to zero (self-adjoint)."""
    r = g._data.copy()
    r[key] = 0
    out = g._out_cls._make(r)
    if _grad_enabled() and g._requires_grad:
        make_node(ZeroAtBackward, (g,), out).key = key
    return out


# ----------------------------------------------------------------------- gather / scatter

def _along(index, dim):
    """Full index tuple addressing `index`'s positions along `dim`."""
    xp = backend.namespace(index)
    grids = list(xp.indices(index.shape, sparse=True))
    grids[dim] = index
    return tuple(grids)


class GatherBackward0(Node):
    __slots__ = ("in_shape", "dim", "index")

    def backward(self, g):
        return (scatter_into_zeros(self.in_shape, self.dim, self.index, g),)


def gather(x, dim, index):
    d = x._data
    dim = normalize_dim(dim, d.ndim)
    idx = index._data
    if idx.dtype != np.int64:
        raise RuntimeError("gather(): Expected dtype int64 for index")
    out = x._out_cls._make(d[_along(idx, dim)])
    if _grad_enabled() and x._requires_grad:
        node = make_node(GatherBackward0, (x,), out)
        node.in_shape, node.dim, node.index = d.shape, dim, index.detach()
    return out


def take_along_dim(x, indices, dim=None):
    """PyTorch's take_along_dim(input, indices, dim): gather with broadcasting of the other dims."""
    if dim is None:
        return gather(S.reshape(x, (-1,)), 0, S.reshape(indices, (-1,)))
    dim = normalize_dim(dim, x._data.ndim)
    shape = list(np.broadcast_shapes(*(tuple(1 if i == dim else s for i, s in enumerate(t._data.shape))
                                       for t in (x, indices))))
    xs = shape[:dim] + [x._data.shape[dim]] + shape[dim + 1:]
    ids = shape[:dim] + [indices._data.shape[dim]] + shape[dim + 1:]
    return gather(S.expand(x, xs), dim, S.expand(indices, ids))


class ScatterAddBackward0(Node):
    __slots__ = ("dim", "index")

    def backward(self, g):
        return (gather(g, self.dim, self.index),)


def scatter_into_zeros(shape, dim, index, src):
    """Zeros of `shape` with `src` added at `index` along `dim`: the adjoint of gather."""
    d = src._data
    xp = backend.namespace(d)
    z = xp.zeros(shape, dtype=d.dtype)
    idx = index._data
    xp.add.at(z, _along(idx, dim), d[tuple(slice(0, s) for s in idx.shape)])
    out = src._out_cls._make(z)
    if _grad_enabled() and src._requires_grad:
        node = make_node(ScatterAddBackward0, (src,), out)
        node.dim, node.index = dim, index.detach()
    return out


def scatter_add(x, dim, index, src):
    return x + scatter_into_zeros(x._data.shape, normalize_dim(dim, x._data.ndim), index, src)


class ScatterBackward0(Node):
    __slots__ = ("dim", "index")

    def backward(self, g):
        na, ns = self.next_edges
        gx = None
        if na is not None:
            gx = g * (1 - scatter_into_zeros(g._data.shape, self.dim, self.index,
                                             g._new(backend.namespace(g._data).ones(self.index._data.shape,
                                                                                  g._data.dtype))).clamp(max=1))
        return gx, (gather(g, self.dim, self.index) if ns is not None else None)


def scatter(x, dim, index, src=None, value=None, reduce=None):
    if src is None:
        src = value
    d = x._data
    dim = normalize_dim(dim, d.ndim)
    idx = index._data
    r = d.copy()
    pos = _along(idx, dim)
    if isinstance(src, Tensor):
        r[pos] = src._data[tuple(slice(0, s) for s in idx.shape)]
        ts = src
    else:
        r[pos] = src
        ts = None
    out = x._out_cls._make(r)
    if _grad_enabled() and (x._requires_grad or (ts is not None and ts._requires_grad)):
        node = make_node(ScatterBackward0, (x, ts), out)
        node.dim, node.index = dim, index.detach()
    return out


def index_select(x, dim, index):
    dim = normalize_dim(dim, x._data.ndim)
    idx = index._data if isinstance(index, Tensor) else np.asarray(index)
    if idx.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    return getitem(x, (slice(None),) * dim + (idx.reshape(-1),))


class MaskedFillBackward0(Node):
    __slots__ = ("mask",)

    def backward(self, g):
        return (zero_at(g, self.mask),)


def masked_fill(x, mask, value):
    m = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
    if m.dtype != np.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {m.dtype}")
    d = x._data
    xp = backend.namespace(d)
    m_full = xp.broadcast_to(m, d.shape) if m.shape != d.shape else m
    v = value._data if isinstance(value, Tensor) else value
    out = x._out_cls._make(xp.where(m_full, xp.asarray(v, dtype=d.dtype), d))
    if _grad_enabled() and x._requires_grad:
        make_node(MaskedFillBackward0, (x,), out).mask = m_full
    return out


def masked_select(x, mask):
    m = mask._data if isinstance(mask, Tensor) else mask
    xp = backend.namespace(x._data)
    shape = np.broadcast_shapes(x._data.shape, m.shape)
    xb = S.expand(x, shape) if x._data.shape != shape else x
    return getitem(xb, xp.broadcast_to(m, shape))


def nonzero(x, as_tuple=False):
    nz = backend.namespace(x._data).nonzero(x._data)
    if as_tuple:
        return tuple(x._out_cls._make(a.astype(np.int64)) for a in nz)
    return x._out_cls._make(backend.namespace(x._data).stack(nz, axis=1).astype(np.int64))


# -------------------------------------------------------------------------- fill / copy

class FillBackward0(Node):
    __slots__ = ()

    def backward(self, g):
        return (g * 0,)


def fill(x, value):
    d = x._data
    v = value._data if isinstance(value, Tensor) else value
    out = x._out_cls._make(backend.namespace(d).full(d.shape, v, dtype=d.dtype))
    if _grad_enabled() and x._requires_grad:
        make_node(FillBackward0, (x,), out)
    return out


class ZeroBackward0(FillBackward0):
    __slots__ = ()


class CopyBackwardsInplace(Node):
    __slots__ = ()
    _name = "CopyBackwards"

    def backward(self, g):
        na, ns = self.next_edges
        return (g * 0 if na is not None else None), (g if ns is not None else None)


def copy_from(x, src):
    """`src` broadcast to `x`'s shape and cast to its dtype (what `x.copy_(src)` writes)."""
    d = x._data
    s = src._data if isinstance(src, Tensor) else np.asarray(src)
    if type(s) is not type(d):
        s = backend.to_device(s, x.device)
    xp = backend.namespace(d)
    r = xp.array(xp.broadcast_to(s, d.shape), dtype=d.dtype)
    out = x._out_cls._make(r)
    ts = src if isinstance(src, Tensor) else None
    if _grad_enabled() and (x._requires_grad or (ts is not None and ts._requires_grad)):
        make_node(CopyBackwardsInplace, (x, ts), out)
    return out


# ------------------------------------------------------------------------------- inplace

class CopySlices(Node):
    """History of a base after an in-place op on one of its views: the view's region takes its
    gradient from the op's result, the rest from the base's old history."""

    __slots__ = ("view_fn",)
    _name = "torch::autograd::CopySlices"

    def backward(self, g):
        nb, nr = self.next_edges
        return (zero_view(g, self.view_fn) if nb is not None else None), (self.view_fn(g) if nr is not None else None)


class ZeroViewBackward(Node):
    __slots__ = ("view_fn",)

    def backward(self, g):
        return (zero_view(g, self.view_fn),)


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
        make_node(ZeroViewBackward, (g,), out).view_fn = view_fn
    return out


def inplace(self, fn, *args, leaf_error="leaf_inplace", **kwargs):
    """Apply `fn(self, *args)` in place: compute it out of place, write the result into `self`'s
    array, bump the version counter, and move `self`'s history (and its base's, for a view) onto
    the new node."""
    ext = self._extra
    if ext is not None and ext.inference and not _state.inference:
        raise self.policy.error("inference_inplace")
    rec = _grad_enabled() and (self._requires_grad or
                                   any(isinstance(a, Tensor) and a._requires_grad for a in args))
    if not rec:
        if fn in _UFUNC_NAMES and len(args) == 1 and not kwargs and _ufunc_inplace(self, fn, args[0]):
            return self
        res = fn(self, *args, **kwargs)
        _write(self, res)
        return self
    if self.grad_fn is None and self._requires_grad:
        raise self.policy.error(leaf_error, tensor=self)
    view = self._view
    if view is not None:
        base = view[0]
        if view[2] is not None:  # an op name, or (error kind, name) for a custom Function's output
            kind, op = view[2] if type(view[2]) is tuple else ("multi_view_inplace", view[2])
            raise self.policy.error(kind, output_nr=self.output_nr, op=op)
        if base.grad_fn is None and base._requires_grad:
            raise self.policy.error("leaf_view_inplace", tensor=base)
    alias = self._new(self._data.copy())
    alias._requires_grad, alias.grad_fn, alias.output_nr = self._requires_grad, self.grad_fn, self.output_nr
    res = fn(alias, *args, **kwargs)
    _write(self, res)
    retains = self.retains_grad
    if retains:  # the retained grad follows the tensor to its new history
        del self.grad_fn._hooks.retains[self.output_nr]
    if view is None:
        self.grad_fn, self.output_nr, self._requires_grad = res.grad_fn, res.output_nr, res._requires_grad
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
    from . import binary_arrays
    d = self._data
    _, a, b, _, _ = binary_arrays(self, other, fn is E.div)
    if a is not d or d.dtype.kind != "f" or not d.flags.writeable or (hasattr(b, "shape") and b.shape != d.shape):
        return False
    getattr(backend.namespace(d), _UFUNC_NAMES[fn])(d, b, out=d)
    self._bump()
    return True


def _rebase_view(self, view, res) -> None:
    """After an in-place op on a view: the base's history becomes CopySlices over the old base and
    the op's result, and the view is re-derived from the base."""
    base, view_fn, _ = view
    node = CopySlices.__new__(CopySlices)
    node.next_edges = (edge(base), edge(res))
    node.out_meta = ((base._data.shape, base._data.dtype),)
    node.out_cls = type(base)._out_cls
    node._saved = None
    node.seq = _next_seq()
    node._hooks = node._metadata = node._trace = None
    node.view_fn = view_fn
    base.grad_fn, base.output_nr, base._requires_grad = node, 0, True
    rederived = view_fn(base)
    self.grad_fn, self.output_nr, self._requires_grad = rederived.grad_fn, rederived.output_nr, True


def _write(self, res) -> None:
    d, r = self._data, res._data
    if r.shape != d.shape:
        raise RuntimeError(f"output with shape [{', '.join(map(str, d.shape))}] doesn't match the broadcast shape "
                           f"[{', '.join(map(str, r.shape))}]")
    if r.dtype != d.dtype:
        if (r.dtype.kind == "f" and d.dtype.kind in "iub") or (r.dtype.kind in "iu" and d.dtype.kind == "b"):
            names = self.policy.type_name
            raise RuntimeError(f"result type {names(r.dtype)[6:-6]} can't be cast to the desired output type "
                               f"{names(d.dtype)[6:-6]}")
        r = r.astype(d.dtype)
    if not d.flags.writeable:
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a single "
                           "memory location. Please clone() the tensor before performing the operation.")
    d[...] = r
    self._bump()


METHODS = {
    "__getitem__": getitem, "__setitem__": setitem, "gather": gather, "scatter": scatter,
    "scatter_add": scatter_add, "index_select": index_select, "masked_fill": masked_fill,
    "masked_select": masked_select, "take_along_dim": take_along_dim, "nonzero": nonzero,
}
