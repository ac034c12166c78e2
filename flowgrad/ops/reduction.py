"""Reductions: sum, mean, prod, max/min (full, by dim, amax/amin), var, std, norm, logsumexp,
cumsum, plus the non-differentiable argmax/argmin/all/any and `sum_to` used by the engine."""
from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from .. import backend
from ..autograd.graph import Node, saved_fields
from . import _grad_enabled, float_array, make_node, normalize_dim, normalize_dims, save, save_output
from . import elementwise as E
from . import shape as S
from . import indexing as I

__all__ = ["sort", "median", "sum", "mean", "prod", "max", "min", "amax", "amin", "var", "std", "norm", "logsumexp", "cumsum",
           "argmax", "argmin", "all", "any", "sum_to", "var_mean", "std_mean", "count_nonzero"]

values_indices = namedtuple("values_indices", ["values", "indices"])


def _keep_shape(in_shape, dims) -> tuple:
    return tuple(1 if i in dims else s for i, s in enumerate(in_shape))


def _kept(g, in_shape, dims, keepdim):
    """`g` reshaped so it broadcasts against the reduced input (dims restored as size 1)."""
    return g if keepdim or not g._data.ndim else S.reshape(g, _keep_shape(in_shape, dims))


class _ReduceNode(Node):
    __slots__ = ("in_shape", "dims", "keepdim")


def _reduce_node(node_cls, x, out, dims, keepdim, saved=None):
    node = make_node(node_cls, (x,), out, saved)
    node.in_shape, node.dims, node.keepdim = x._data.shape, dims, keepdim
    return node


# ------------------------------------------------------------------------------------ sum

class SumBackward0(_ReduceNode):
    __slots__ = ()

    def backward(self, g):
        return (S.expand_to(_kept(g, self.in_shape, self.dims, self.keepdim), self.in_shape),)


class SumBackward1(SumBackward0):
    __slots__ = ()


def sum(x, dim=None, keepdim=False, dtype=None):
    d = x._data
    dims = normalize_dims(dim, d.ndim)
    out_dt = backend.to_np_dtype(dtype) if dtype is not None else (np.dtype(np.int64) if d.dtype.kind in "biu"
                                                                    else d.dtype)
    out = x._out_cls._make(d.sum(axis=dims, keepdims=keepdim, dtype=out_dt))
    if _grad_enabled() and x._requires_grad:
        _reduce_node(SumBackward0 if dim is None else SumBackward1, x, out, dims, keepdim)
    return out


class SumToSizeBackward0(Node):
    __slots__ = ("in_shape",)

    def backward(self, g):
        return (S.expand_to(g, self.in_shape),)


def sum_to(x, shape: tuple):
    """Sum `x` down to `shape` (the reverse of broadcasting); the engine's one unbroadcast."""
    d = x._data
    shape = tuple(shape)
    lead = d.ndim - len(shape)
    if lead < 0:
        return S.reshape(x, shape)
    inner = tuple(i for i, s in enumerate(shape) if s == 1 and d.shape[lead + i] != 1)
    r = d.sum(axis=tuple(range(lead))) if lead else d   # no reshape: the result owns its memory
    if inner:
        r = r.sum(axis=inner, keepdims=True)
    if r.shape != shape:
        r = r.reshape(shape)
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        make_node(SumToSizeBackward0, (x,), out).in_shape = d.shape
    return out


# ------------------------------------------------------------------------------------ mean

class MeanBackward0(_ReduceNode):
    __slots__ = ()

    def backward(self, g):
        n = 1
        for i in self.dims:
            n *= self.in_shape[i]
        return (S.expand_to(_kept(g, self.in_shape, self.dims, self.keepdim), self.in_shape) / n,)


class MeanBackward1(MeanBackward0):
    __slots__ = ()


def mean(x, dim=None, keepdim=False, dtype=None):
    d = x._data
    if dtype is not None:
        d = d.astype(backend.to_np_dtype(dtype))
    if d.dtype.kind != "f":
        raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating point or "
                           f"complex dtype. Got: {x.policy.type_name(d.dtype)[6:-6]}")
    dims = normalize_dims(dim, d.ndim)
    out = x._out_cls._make(backend.namespace(d).mean(d, axis=dims, keepdims=keepdim))
    if _grad_enabled() and x._requires_grad:
        _reduce_node(MeanBackward0 if dim is None else MeanBackward1, x, out, dims, keepdim)
    return out


# ------------------------------------------------------------------------------------ prod

@saved_fields("self", "result")
class ProdBackward0(_ReduceNode):
    __slots__ = ()

    def backward(self, g):
        x, r = self.unpack()
        gk = _kept(g, self.in_shape, self.dims, self.keepdim)
        if not bool((x._data == 0).any()):
            return (gk * _kept(r, self.in_shape, self.dims, self.keepdim) / x,)
        # with zeros: the product of the other elements, through an (n, n) masked product
        if len(self.dims) != 1:
            flat = S.reshape(x, (-1,))
            return (S.reshape(gk * _prod_others(flat, 0), self.in_shape),)
        return (gk * _prod_others(x, self.dims[0]),)


class ProdBackward1(ProdBackward0):
    __slots__ = ()


def _prod_others(x, dim):
    n = x._data.shape[dim]
    moved = S.movedim(x, dim, -1)
    rows = S.expand(S.unsqueeze(moved, -2), moved._data.shape[:-1] + (n, n))
    eye = x._new(backend.namespace(x._data).eye(n, dtype=bool))
    others = prod(E.where(eye, 1.0, rows), -1)
    return S.movedim(others, -1, dim)


def prod(x, dim=None, keepdim=False, dtype=None):
    d = x._data if dtype is None else x._data.astype(backend.to_np_dtype(dtype))
    if d.dtype.kind in "bu" or d.dtype.kind == "i":
        d = d.astype(np.int64)
    dims = normalize_dims(dim, d.ndim)
    out = x._out_cls._make(backend.namespace(d).prod(d, axis=dims, keepdims=keepdim))
    if _grad_enabled() and x._requires_grad:
        node = _reduce_node(ProdBackward0 if dim is None else ProdBackward1, x, out, dims, keepdim)
        node._saved = (save(x), save_output(out))
    return out


# ------------------------------------------------------------------------------- max / min

@saved_fields("self", "result")
class MaxBackward1(_ReduceNode):
    """Full max/min and amax/amin: the gradient is split evenly among tied elements."""

    __slots__ = ()

    def backward(self, g):
        x, r = self.unpack()
        rk = _kept(r, self.in_shape, self.dims, self.keepdim)
        mask = x == rk
        count = sum(mask, self.dims, keepdim=True)
        return (_kept(g, self.in_shape, self.dims, self.keepdim) * mask / count,)


class MinBackward1(MaxBackward1):
    __slots__ = ()


class AmaxBackward0(MaxBackward1):
    __slots__ = ()


class AminBackward0(MaxBackward1):
    __slots__ = ()


class MedianBackward0(MaxBackward1):
    __slots__ = ()


@saved_fields("indices", keepdim="keepdim")
class MaxBackward0(_ReduceNode):
    """max/min along a dim: the gradient goes to the selected index."""

    __slots__ = ()

    def backward(self, g):
        (idx,) = self.unpack()
        if not self.in_shape:  # max over dim 0 of a 0-d tensor is the tensor itself
            return (g,)
        dim = self.dims[0]
        if not self.keepdim:
            g = S.unsqueeze(g, dim)
            idx = S.unsqueeze(idx, dim)
        return (I.scatter_into_zeros(self.in_shape, dim, idx, g),)


class MinBackward0(MaxBackward0):
    __slots__ = ()


class MedianBackward1(MaxBackward0):
    __slots__ = ()


def _full_extremum(x, fn, node_cls, dims, keepdim, name):
    d = x._data
    if d.size == 0 and dims and 0 in [d.shape[i] for i in dims]:
        raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                         "reduction dim with the 'dim' argument.")
    out = x._out_cls._make(getattr(backend.namespace(d), fn)(d, axis=dims, keepdims=keepdim))
    if _grad_enabled() and x._requires_grad:
        node = _reduce_node(node_cls, x, out, dims, keepdim)
        node._saved = (save(x), save_output(out))
    return out


def _dim_extremum(x, dim, keepdim, arg_fn, node_cls):
    d = x._data
    xp = backend.namespace(d)
    dim = normalize_dim(dim, d.ndim)
    if d.ndim == 0:
        idx = xp.zeros((), dtype=np.int64)
        vals = d.copy()
    else:
        idx = getattr(xp, arg_fn)(d, axis=dim, keepdims=True)
        vals = xp.take_along_axis(d, idx, axis=dim)
        if not keepdim:
            idx, vals = idx.squeeze(dim), vals.squeeze(dim)
    values, indices = x._out_cls._make(vals), x._out_cls._make(idx.astype(np.int64))
    if _grad_enabled() and x._requires_grad:
        node = _reduce_node(node_cls, x, values, (dim,), keepdim)
        node._saved = (save(indices),)
    return values_indices(values, indices)


def max(x, dim=None, keepdim=False):
    from ..tensor import Tensor
    if isinstance(dim, Tensor):
        return E.maximum(x, dim)
    if dim is None:
        return _full_extremum(x, "max", MaxBackward1, normalize_dims(None, x._data.ndim), False, "max")
    return _dim_extremum(x, dim, keepdim, "argmax", MaxBackward0)


def min(x, dim=None, keepdim=False):
    from ..tensor import Tensor
    if isinstance(dim, Tensor):
        return E.minimum(x, dim)
    if dim is None:
        return _full_extremum(x, "min", MinBackward1, normalize_dims(None, x._data.ndim), False, "min")
    return _dim_extremum(x, dim, keepdim, "argmin", MinBackward0)


def median(x, dim=None, keepdim=False):
    """The lower median (PyTorch's convention); with `dim`, values and indices."""
    d = x._data
    xp = backend.namespace(d)
    if dim is None:
        flat = d.reshape(-1)
        val = xp.sort(flat)[(flat.size - 1) // 2]
        out = x._out_cls._make(xp.asarray(val))
        if _grad_enabled() and x._requires_grad:
            node = _reduce_node(MedianBackward0, x, out, normalize_dims(None, d.ndim), False)
            node._saved = (save(x), save_output(out))
        return out
    dim = normalize_dim(dim, d.ndim)
    order = xp.argsort(d, axis=dim, kind="stable")
    k = (d.shape[dim] - 1) // 2
    idx = xp.take(order, [k], axis=dim)
    vals = xp.take_along_axis(d, idx, axis=dim)
    if not keepdim:
        idx, vals = idx.squeeze(dim), vals.squeeze(dim)
    values, indices = x._out_cls._make(vals), x._out_cls._make(idx.astype(np.int64))
    if _grad_enabled() and x._requires_grad:
        node = _reduce_node(MedianBackward1, x, values, (dim,), keepdim)
        node._saved = (save(indices),)
    return values_indices(values, indices)


def amax(x, dim=(), keepdim=False):
    return _full_extremum(x, "max", AmaxBackward0, normalize_dims(dim if dim != () else None, x._data.ndim),
                          keepdim, "amax")


def amin(x, dim=(), keepdim=False):
    return _full_extremum(x, "min", AminBackward0, normalize_dims(dim if dim != () else None, x._data.ndim),
                          keepdim, "amin")


def _arg_extremum(fn, x, dim, keepdim):
    d = x._data
    xp = backend.namespace(d)
    if dim is None:
        r = getattr(xp, fn)(d.reshape(-1))
        if keepdim:
            r = xp.asarray(r).reshape((1,) * d.ndim)
        return x._out_cls._make(xp.asarray(r, dtype=np.int64))
    return x._out_cls._make(getattr(xp, fn)(d, axis=normalize_dim(dim, d.ndim), keepdims=keepdim).astype(np.int64))


def argmax(x, dim=None, keepdim=False):
    return _arg_extremum("argmax", x, dim, keepdim)


def argmin(x, dim=None, keepdim=False):
    return _arg_extremum("argmin", x, dim, keepdim)


def sort(x, dim=-1, descending=False):
    """Values and indices sorted along `dim`; stable, also descending (ties keep their order).
    Differentiable through the gather of the values."""
    d = x._data
    xp = backend.namespace(d)
    dim = normalize_dim(dim, d.ndim)
    if d.ndim == 0:
        idx = xp.zeros((), dtype=np.int64)
    elif descending:  # a stable sort of the negated keys
        key = ~d if d.dtype.kind == "b" else -(d.astype(np.int64) if d.dtype.kind == "u" else d)
        idx = xp.argsort(key, axis=dim, kind="stable")
    else:
        idx = xp.argsort(d, axis=dim, kind="stable")
    it = x._new(idx.astype(np.int64))
    return values_indices(I.gather(x, dim, it) if d.ndim else S.clone(x), it)


def all(x, dim=None, keepdim=False):
    d = x._data
    return x._out_cls._make(backend.namespace(d).all(d, axis=None if dim is None else normalize_dims(dim, d.ndim),
                                                     keepdims=keepdim))


def any(x, dim=None, keepdim=False):
    d = x._data
    return x._out_cls._make(backend.namespace(d).any(d, axis=None if dim is None else normalize_dims(dim, d.ndim),
                                                     keepdims=keepdim))


def count_nonzero(x, dim=None):
    d = x._data
    return x._out_cls._make(backend.namespace(d).count_nonzero(d, axis=dim).astype(np.int64))


# ------------------------------------------------------------------------------- var / std

def _correction(unbiased, correction):
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


@saved_fields("self", correction="correction", keepdim="keepdim")
class VarBackward0(_ReduceNode):
    __slots__ = ("correction",)

    def backward(self, g):
        (x,) = self.unpack()
        n = _count(self.in_shape, self.dims)
        centered = x - mean(x, self.dims, keepdim=True)
        scale = 2.0 / (n - self.correction) if n != self.correction else math.inf  # NaN grads, as PyTorch
        return (_kept(g, self.in_shape, self.dims, self.keepdim) * centered * scale,)


@saved_fields("self", "result", correction="correction", keepdim="keepdim")
class StdBackward0(_ReduceNode):
    __slots__ = ("correction",)

    def backward(self, g):
        x, r = self.unpack()
        n = _count(self.in_shape, self.dims)
        centered = x - mean(x, self.dims, keepdim=True)
        rk = _kept(r, self.in_shape, self.dims, self.keepdim)
        denom = rk * (n - self.correction) if n != self.correction else rk * math.inf
        grad = _kept(g, self.in_shape, self.dims, self.keepdim) * centered / E.where(rk == 0, rk + 1, denom)
        return (E.where(rk == 0, grad * 0, grad),)  # PyTorch: zero gradient where std is zero


def _count(shape, dims):
    n = 1
    for i in dims:
        n *= shape[i]
    return n


def _var_args(dim, unbiased, correction):
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    return dim, _correction(unbiased, correction)


def var(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    dim, c = _var_args(dim, unbiased, correction)
    d = float_array(x)
    dims = normalize_dims(dim, d.ndim)
    out = x._out_cls._make(backend.namespace(d).var(d, axis=dims, ddof=c, keepdims=keepdim))
    if _grad_enabled() and x._requires_grad:
        node = _reduce_node(VarBackward0, x, out, dims, keepdim, (save(x),))
        node.correction = c
    return out


def std(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    dim, c = _var_args(dim, unbiased, correction)
    d = float_array(x)
    dims = normalize_dims(dim, d.ndim)
    out = x._out_cls._make(backend.namespace(d).std(d, axis=dims, ddof=c, keepdims=keepdim))
    if _grad_enabled() and x._requires_grad:
        node = _reduce_node(StdBackward0, x, out, dims, keepdim)
        node._saved = (save(x), save_output(out))
        node.correction = c
    return out


def var_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return var(x, dim, unbiased, keepdim, correction=correction), mean(x, dim, keepdim)


def std_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return std(x, dim, unbiased, keepdim, correction=correction), mean(x, dim, keepdim)


# ------------------------------------------------------------------------------------ norm

@saved_fields("self", "result", ord="p", keepdim="keepdim")
class LinalgVectorNormBackward0(_ReduceNode):
    __slots__ = ("p",)

    def backward(self, g):
        x, r = self.unpack()
        p = self.p
        gk = _kept(g, self.in_shape, self.dims, self.keepdim)
        rk = _kept(r, self.in_shape, self.dims, self.keepdim)
        if p == 1:
            return (gk * E.sign(x),)
        if p == float("inf") or p == float("-inf"):
            mask = E.abs(x) == rk
            return (gk * E.sign(x) * mask / sum(mask, self.dims, keepdim=True),)
        safe = E.where(rk == 0, rk + 1, rk)
        if p == 2:
            scaled = x / safe
        else:
            scaled = x * E.abs(x) ** (p - 2) / safe ** (p - 1)
        return (gk * E.where(rk == 0, scaled * 0, scaled),)


def norm(x, p="fro", dim=None, keepdim=False, dtype=None):
    if p == "fro" or p is None:
        p = 2
    d = float_array(x)
    xp = backend.namespace(d)
    dims = normalize_dims(dim, d.ndim)
    a = xp.abs(d)
    if p == float("inf"):
        r = xp.max(a, axis=dims, keepdims=keepdim)
    elif p == float("-inf"):
        r = xp.min(a, axis=dims, keepdims=keepdim)
    elif p == 0:
        r = xp.sum(a != 0, axis=dims, keepdims=keepdim).astype(d.dtype)
    elif p == 1:
        r = xp.sum(a, axis=dims, keepdims=keepdim)
    elif p == 2:
        r = xp.sqrt(xp.sum(d * d, axis=dims, keepdims=keepdim))
    else:
        r = xp.sum(a ** p, axis=dims, keepdims=keepdim) ** (1.0 / p)
    out = x._out_cls._make(xp.asarray(r, dtype=d.dtype))
    if _grad_enabled() and x._requires_grad:
        node = _reduce_node(LinalgVectorNormBackward0, x, out, dims, keepdim)
        node._saved = (save(x), save_output(out))
        node.p = p
    return out


# ------------------------------------------------------------------------------- logsumexp

@saved_fields("self", "result", dim="dims", keepdim="keepdim")
class LogsumexpBackward0(_ReduceNode):
    __slots__ = ()

    def backward(self, g):
        x, r = self.unpack()
        return (_kept(g, self.in_shape, self.dims, self.keepdim) *
                E.exp(x - _kept(r, self.in_shape, self.dims, self.keepdim)),)


def logsumexp(x, dim, keepdim=False):
    d = float_array(x)
    xp = backend.namespace(d)
    dims = normalize_dims(dim, d.ndim)
    m = xp.max(d, axis=dims, keepdims=True) if d.size else xp.zeros(_keep_shape(d.shape, dims), d.dtype)
    m = xp.where(xp.isfinite(m), m, 0)
    r = xp.log(xp.sum(xp.exp(d - m), axis=dims, keepdims=True)) + m
    if not keepdim:
        r = r.reshape(tuple(s for i, s in enumerate(d.shape) if i not in dims))
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        node = _reduce_node(LogsumexpBackward0, x, out, dims, keepdim)
        node._saved = (save(x), save_output(out))
    return out


# ------------------------------------------------------------------------------------ cumsum

class CumsumBackward0(Node):
    __slots__ = ("dim",)

    def backward(self, g):
        if g._data.ndim == 0:
            return (g,)
        return (S.flip(cumsum(S.flip(g, (self.dim,)), self.dim), (self.dim,)),)


def cumsum(x, dim, dtype=None):
    d = x._data if dtype is None else x._data.astype(backend.to_np_dtype(dtype))
    if d.dtype.kind in "bui" and dtype is None:
        d = d.astype(np.int64)
    dim = normalize_dim(dim, d.ndim)
    out = x._out_cls._make(backend.namespace(d).cumsum(d, axis=dim) if d.ndim else d.copy())
    if _grad_enabled() and x._requires_grad:
        make_node(CumsumBackward0, (x,), out).dim = dim
    return out


METHODS = {
    "median": median, "sum": sum, "mean": mean, "prod": prod, "max": max, "min": min, "amax": amax, "amin": amin, "var": var,
    "std": std, "norm": norm, "logsumexp": logsumexp, "cumsum": cumsum, "argmax": argmax, "argmin": argmin,
    "all": all, "any": any, "sum_to_size": lambda self, *size: sum_to(self, size[0] if len(size) == 1 and
                                                                       isinstance(size[0], (tuple, list)) else size),
    "count_nonzero": count_nonzero,
}
