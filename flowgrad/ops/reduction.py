"""Reductions: sum, mean, prod, max/min (full, by dim, amax/amin), median, var, std, norm,
logsumexp, cumsum, sort, plus the non-differentiable argmax/argmin/all/any/count_nonzero.

A reduction's node keeps the input's shape, the reduced dims and keepdim (`_REDUCED`)."""
from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from .. import backend
from ..tensor import Tensor
from ._args import float_array, normalize_dim, normalize_dims
from ._declare import _grad_enabled, derivative, variant
from . import complex_numbers as C
from . import elementwise as E
from . import indexing as I
from . import shape as S
from .shape import sum_to  # noqa: F401  (a reduction's public name too)

__all__ = ["sort", "median", "sum", "mean", "prod", "max", "min", "amax", "amin", "var", "std", "norm", "logsumexp",
           "cumsum", "argmax", "argmin", "all", "any", "var_mean", "std_mean", "count_nonzero"]

values_indices = namedtuple("values_indices", ["values", "indices"])


def _keep_shape(in_shape, dims) -> tuple:
    return tuple(1 if i in dims else s for i, s in enumerate(in_shape))


def _kept(g, in_shape, dims, keepdim):
    """`g` reshaped so it broadcasts against the reduced input (dims restored as size 1)."""
    return g if keepdim or not g._data.ndim else S.reshape(g, _keep_shape(in_shape, dims))


_REDUCED = "in_shape dims keepdim"


# ------------------------------------------------------------------------------------ sum

SumBackward0 = derivative("SumBackward0", complex=True, oneflow="reduce_sumBackward", keep=_REDUCED,
                          self=lambda grad, in_shape, dims, keepdim: S.expand_to(_kept(grad, in_shape, dims, keepdim),
                                                                                 in_shape))
SumBackward1 = variant(SumBackward0, "SumBackward1", oneflow="reduce_sumBackward")


def sum(x, dim=None, keepdim=False, dtype=None):
    d = x._data
    dims = normalize_dims(dim, d.ndim)
    out_dt = backend.to_np_dtype(dtype) if dtype is not None else (np.dtype(np.int64) if d.dtype.kind in "biu"
                                                                    else d.dtype)
    with backend.quiet(backend.namespace(d)):    # inf + -inf is NaN, silently as in PyTorch
        if out_dt.kind == "V":   # bfloat16, accumulated in float32 as PyTorch's
            r = backend.opmath(d).sum(axis=dims, keepdims=keepdim).astype(out_dt)
        else:
            r = d.sum(axis=dims, keepdims=keepdim, dtype=out_dt)
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        (SumBackward0 if dim is None else SumBackward1).record((x,), out, d.shape, dims, keepdim)
    return out


def _nansum_grad(grad, self, in_shape, dims, keepdim):
    d = self._data
    return S.expand_to(_kept(grad, in_shape, dims, keepdim), in_shape) * self._new(~backend.namespace(d).isnan(d))


NansumBackward0 = derivative("NansumBackward0", keep=_REDUCED, self=_nansum_grad)


def nansum(x, dim=None, keepdim=False, dtype=None):
    """The sum with NaNs counted as zero (their gradient is zero)."""
    d = x._data
    if d.dtype.kind == "c":
        raise x.policy.errors.nansum_complex()
    out_dt = d.dtype if dtype is None else backend.to_np_dtype(dtype)
    if d.dtype.kind not in "fV" or out_dt.kind not in "fV":
        return sum(x, dim, keepdim, dtype)
    dims = normalize_dims(dim, d.ndim)
    xp = backend.namespace(d)
    w = backend.opmath(d.astype(out_dt, copy=False))
    with backend.quiet(xp):    # inf + -inf is NaN, silently as in PyTorch
        r = xp.nansum(w, axis=dims, keepdims=keepdim)
    out = x._out_cls._make(r.astype(out_dt, copy=False))
    if _grad_enabled() and x._requires_grad:
        NansumBackward0.record((x,), out, d.shape, dims, keepdim)
    return out


# ------------------------------------------------------------------------------------ mean

MeanBackward0 = derivative("MeanBackward0", complex=True, oneflow="scalar_mulBackward", keep=_REDUCED,
                           self=lambda grad, in_shape, dims, keepdim: S.expand_to(
                               _kept(grad, in_shape, dims, keepdim), in_shape) / _count(in_shape, dims))
MeanBackward1 = variant(MeanBackward0, "MeanBackward1", oneflow="scalar_mulBackward")


def mean(x, dim=None, keepdim=False, dtype=None):
    d = x._data
    if dtype is not None:
        d = d.astype(backend.to_np_dtype(dtype))
        if d.dtype.kind not in "fcV":
            raise x.policy.errors.mean_dtype_arg(dtype_scalar=d.dtype)
    if d.dtype.kind not in "fcV":
        raise x.policy.errors.mean_dtype(dtype_scalar=d.dtype)
    dims = normalize_dims(dim, d.ndim)
    xp = backend.namespace(d)
    with backend.quiet(xp):
        r = xp.mean(backend.opmath(d), axis=dims, keepdims=keepdim)
    out = x._out_cls._make(r.astype(d.dtype) if d.dtype.kind == "V" else r)
    if _grad_enabled() and x._requires_grad:
        (MeanBackward0 if dim is None else MeanBackward1).record((x,), out, x._data.shape, dims, keepdim)
    return out


# ------------------------------------------------------------------------------------ prod

def _prod_grad(grad, self, result, in_shape, dims, keepdim):
    gk = _kept(grad, in_shape, dims, keepdim)
    if not bool((self._data == 0).any()):
        return gk * E._conj(_kept(result, in_shape, dims, keepdim) / self)
    # with zeros: the product of the other elements, through an (n, n) masked product
    if len(dims) != 1:
        flat = S.reshape(self, (-1,))
        return S.reshape(gk * E._conj(_prod_others(flat, 0)), in_shape)
    return gk * E._conj(_prod_others(self, dims[0]))


ProdBackward0 = derivative("ProdBackward0", complex=True, keep=_REDUCED, self=_prod_grad)
ProdBackward1 = variant(ProdBackward0, "ProdBackward1")


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
        (ProdBackward0 if dim is None else ProdBackward1).record((x,), out, x._data.shape, dims, keepdim)
    return out


# ------------------------------------------------------------------------------- max / min

def _ties_grad(grad, self, result, in_shape, dims, keepdim):
    """Full max/min, amax/amin, median: the gradient split evenly among the elements equal to the result."""
    mask = self == _kept(result, in_shape, dims, keepdim)
    count = sum(mask, dims, keepdim=True)
    return _kept(grad, in_shape, dims, keepdim) * mask / count


MaxBackward1 = derivative("MaxBackward1", keep=_REDUCED, self=_ties_grad)
MinBackward1 = variant(MaxBackward1, "MinBackward1")
AmaxBackward0 = variant(MaxBackward1, "AmaxBackward0")
AminBackward0 = variant(MaxBackward1, "AminBackward0")
MedianBackward0 = variant(MaxBackward1, "MedianBackward0")


def _selected_grad(grad, indices, in_shape, dims, keepdim):
    """max/min/median along a dim: the gradient goes to the selected index."""
    if not in_shape:  # max over dim 0 of a 0-d tensor is the tensor itself
        return grad
    dim = dims[0]
    if not keepdim:
        grad = S.unsqueeze(grad, dim)
        indices = S.unsqueeze(indices, dim)
    return I.scatter_into_zeros(in_shape, dim, indices, grad)


MaxBackward0 = derivative("MaxBackward0", save="indices", keep=_REDUCED, self=_selected_grad)
MinBackward0 = variant(MaxBackward0, "MinBackward0")
MedianBackward1 = variant(MaxBackward0, "MedianBackward1")


def _check_not_empty(x, name, dim) -> None:
    """PyTorch's errors for a max / min / argmax over no elements: `dim` as the caller gave it
    (None: all of them)."""
    d = x._data
    if d.size:
        return
    if dim is None:
        if name.startswith("arg"):
            raise x.policy.errors.reduce_empty_arg(op=name)
        raise x.policy.errors.reduce_empty(op=name)
    for given in ((dim,) if isinstance(dim, (int, np.integer)) else dim):
        if d.ndim and d.shape[normalize_dim(int(given), d.ndim)] == 0:
            raise x.policy.errors.reduce_empty_dim(op=name, dim=given)


_ALL_KERNELS = {"max": "max_all", "min": "min_all", "amax": "max_values_cpu", "amin": "min_values_cpu"}


def _full_extremum(x, fn, node_cls, dims, keepdim, name, dim=None):
    d = x._data
    if d.dtype.kind == "c":
        raise x.policy.errors.not_implemented_for(op=_ALL_KERNELS[name], dtype_scalar=d.dtype)
    if not d.size:
        _check_not_empty(x, name, dim)
    out = x._out_cls._make(getattr(backend.namespace(d), fn)(d, axis=dims, keepdims=keepdim))
    if _grad_enabled() and x._requires_grad:
        node_cls.record((x,), out, d.shape, dims, keepdim)
    return out


def _dim_extremum(x, dim, keepdim, arg_fn, node_cls):
    d = x._data
    if d.dtype.kind == "c":
        raise x.policy.errors.reduce_complex(op=arg_fn[3:])
    if not d.size:
        _check_not_empty(x, arg_fn[3:], dim)
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
        node_cls.record((x,), values, indices, d.shape, (dim,), keepdim)
    return values_indices(values, indices)


def max(x, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return E.maximum(x, dim)
    if dim is None:
        return _full_extremum(x, "max", MaxBackward1, normalize_dims(None, x._data.ndim), False, "max")
    return _dim_extremum(x, dim, keepdim, "argmax", MaxBackward0)


def min(x, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return E.minimum(x, dim)
    if dim is None:
        return _full_extremum(x, "min", MinBackward1, normalize_dims(None, x._data.ndim), False, "min")
    return _dim_extremum(x, dim, keepdim, "argmin", MinBackward0)


def median(x, dim=None, keepdim=False):
    """The lower median (PyTorch's convention); with `dim`, values and indices."""
    d = x._data
    if d.dtype == np.bool_:
        raise x.policy.errors.not_implemented_for(op="median_cpu", dtype_scalar=d.dtype)
    if d.dtype.kind == "c":
        raise x.policy.errors.not_implemented_for(op="median_cpu" if dim is None else "median_out",
                                                  dtype_scalar=d.dtype)
    xp = backend.namespace(d)
    if dim is None:
        flat = d.reshape(-1)
        val = xp.sort(flat)[(flat.size - 1) // 2] if flat.size else xp.asarray(np.nan, d.dtype)   # (empty: NaN)
        out = x._out_cls._make(xp.asarray(val))
        if _grad_enabled() and x._requires_grad:
            MedianBackward0.record((x,), out, d.shape, normalize_dims(None, d.ndim), False)
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
        MedianBackward1.record((x,), values, indices, d.shape, (dim,), keepdim)
    return values_indices(values, indices)


def amax(x, dim=(), keepdim=False):
    dim = dim if dim != () else None
    return _full_extremum(x, "max", AmaxBackward0, normalize_dims(dim, x._data.ndim), keepdim, "amax", dim)


def amin(x, dim=(), keepdim=False):
    dim = dim if dim != () else None
    return _full_extremum(x, "min", AminBackward0, normalize_dims(dim, x._data.ndim), keepdim, "amin", dim)


def _arg_extremum(fn, x, dim, keepdim):
    d = x._data
    if d.dtype.kind == "c":
        raise x.policy.errors.reduce_complex(op=fn)
    if not d.size:
        _check_not_empty(x, fn, dim)
    xp = backend.namespace(d)
    if dim is None:
        r = getattr(xp, fn)(d.reshape(-1))
        if keepdim:
            r = xp.asarray(r).reshape((1,) * d.ndim)
        return x._out_cls._make(xp.asarray(r, dtype=np.int64))
    return x._out_cls._make(getattr(xp, fn)(d, axis=normalize_dim(dim, d.ndim), keepdims=keepdim).astype(np.int64))


def argmax(x, dim=None, keepdim=False):
    if x._data.dtype == np.bool_:
        raise x.policy.errors.arg_extremum_bool(op="argmax")
    return _arg_extremum("argmax", x, dim, keepdim)


def argmin(x, dim=None, keepdim=False):
    if x._data.dtype == np.bool_:
        raise x.policy.errors.arg_extremum_bool(op="argmin")
    return _arg_extremum("argmin", x, dim, keepdim)


def sort(x, dim=-1, descending=False):
    """Values and indices sorted along `dim`; stable, also descending (ties keep their order).
    Differentiable through the gather of the values."""
    d = x._data
    if d.dtype.kind == "c":
        raise x.policy.errors.sort_complex(op="Sort")
    xp = backend.namespace(d)
    dim = normalize_dim(dim, d.ndim)
    if d.dtype.kind == "V":       # bfloat16 keys in float32 (exact; NumPy's sort then orders NaN last)
        d = d.astype(np.float32)
    if d.ndim == 0:
        idx = xp.zeros((), dtype=np.int64)
    elif descending:  # a stable sort of the negated keys; NaNs (sorted last) then rotated to the front
        key = ~d if d.dtype.kind == "b" else -(d.astype(np.int64) if d.dtype.kind == "u" else d)
        idx = xp.argsort(key, axis=dim, kind="stable")
        if d.dtype.kind == "f" and d.size:
            nans = xp.isnan(d).sum(axis=dim, keepdims=True)
            n = d.shape[dim]
            pos = xp.arange(n).reshape((n,) + (1,) * (d.ndim - dim - 1))
            idx = xp.take_along_axis(idx, (pos - nans) % n, axis=dim)
    else:
        idx = xp.argsort(d, axis=dim, kind="stable")
    it = x._new(idx.astype(np.int64))
    return values_indices(I.gather(x, dim, it) if x.ndim else S.clone(x), it)


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


def _var_grad(grad, self, in_shape, dims, keepdim, correction):
    n = _count(in_shape, dims)
    centered = self - mean(self, dims, keepdim=True)
    scale = 2.0 / (n - correction) if n != correction else math.inf  # NaN grads, as PyTorch
    return _kept(grad, in_shape, dims, keepdim) * centered * scale


def _std_grad(grad, self, result, in_shape, dims, keepdim, correction):
    n = _count(in_shape, dims)
    centered = self - mean(self, dims, keepdim=True)
    rk = _kept(result, in_shape, dims, keepdim)
    denom = rk * (n - correction) if n != correction else rk * math.inf
    g = _kept(grad, in_shape, dims, keepdim) * centered / E.where(rk == 0, rk + 1, denom)
    return E.where(rk == 0, g * 0, g)  # PyTorch: zero gradient where std is zero


VarBackward0 = derivative("VarBackward0", keep=_REDUCED + " correction", self=_var_grad)
StdBackward0 = derivative("StdBackward0", keep=_REDUCED + " correction", self=_std_grad)


def _count(shape, dims):
    n = 1
    for i in dims:
        n *= shape[i]
    return n


def _var_args(dim, unbiased, correction):
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    return dim, _correction(unbiased, correction)


def _moment_input(x, name: str):
    """x's float array for var / std; PyTorch refuses other dtypes (a policy may cast them)."""
    d = x._data
    if d.dtype.kind not in "fV":
        policy = x.policy
        if d.dtype.kind == "c":
            raise policy.errors.complex_unsupported(op=name)
        if not policy.ints_cast_to_float:
            raise policy.errors.moment_dtype(op=name)
        d = d.astype(backend.default_float())
    return d


def _complex_var(x, dim, unbiased, keepdim, correction):
    """The variance of a complex tensor, real as PyTorch's: the variances of both parts, summed."""
    return var(C.real(x), dim, unbiased, keepdim, correction=correction) + \
        var(C.imag(x), dim, unbiased, keepdim, correction=correction)


def var(x, dim=None, unbiased=None, keepdim=False, *, correction=None, _name="std and var"):
    if x._data.dtype.kind == "c":
        return _complex_var(x, dim, unbiased, keepdim, correction)
    dim, c = _var_args(dim, unbiased, correction)
    d = _moment_input(x, _name)
    dims = normalize_dims(dim, d.ndim)
    xp = backend.namespace(d)
    with backend.quiet(xp):
        out = x._out_cls._make(xp.var(d, axis=dims, ddof=c, keepdims=keepdim))
    if _grad_enabled() and x._requires_grad:
        VarBackward0.record((x,), out, d.shape, dims, keepdim, c)
    return out


def std(x, dim=None, unbiased=None, keepdim=False, *, correction=None, _name="std and var"):
    if x._data.dtype.kind == "c":
        return E.sqrt(_complex_var(x, dim, unbiased, keepdim, correction))
    dim, c = _var_args(dim, unbiased, correction)
    d = _moment_input(x, _name)
    dims = normalize_dims(dim, d.ndim)
    xp = backend.namespace(d)
    with backend.quiet(xp):
        out = x._out_cls._make(xp.std(d, axis=dims, ddof=c, keepdims=keepdim))
    if _grad_enabled() and x._requires_grad:
        StdBackward0.record((x,), out, d.shape, dims, keepdim, c)
    return out


def var_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return var(x, dim, unbiased, keepdim, correction=correction, _name="var_mean"), mean(x, dim, keepdim)


def std_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return std(x, dim, unbiased, keepdim, correction=correction, _name="std_mean"), mean(x, dim, keepdim)


# ------------------------------------------------------------------------------------ norm

def _norm_grad(grad, self, result, in_shape, dims, keepdim, ord):
    if ord == 0:     # the count of nonzeros is piecewise constant: PyTorch gives no gradient
        return None
    gk = _kept(grad, in_shape, dims, keepdim)
    rk = _kept(result, in_shape, dims, keepdim)
    if ord == 1:
        return gk * E.sign(self)
    if ord == float("inf") or ord == float("-inf"):
        mask = E.abs(self) == rk
        return gk * E.sign(self) * mask / sum(mask, dims, keepdim=True)
    safe = E.where(rk == 0, rk + 1, rk)
    if ord == 2:
        scaled = self / safe
    else:
        scaled = self * E.abs(self) ** (ord - 2) / safe ** (ord - 1)
    return gk * E.where(rk == 0, scaled * 0, scaled)


LinalgVectorNormBackward0 = derivative("LinalgVectorNormBackward0", paddle="PNormGradNode",
                                       keep=_REDUCED + " ord", self=_norm_grad)


def norm(x, p="fro", dim=None, keepdim=False, dtype=None):
    if x._data.dtype.kind == "c" and dtype is None:   # a complex tensor's norm is its moduli's
        return norm(E.abs(x), p, dim, keepdim)
    if p == "fro" or p is None:
        p = 2
    elif isinstance(p, str):   # (the nuclear norm is torch.linalg.matrix_norm's)
        raise x.policy.errors.norm_order(ord=p)
    if x._data.dtype.kind not in "fcV" and dtype is None:
        raise x.policy.errors.norm_dtype(dtype_scalar=x._data.dtype)
    d = float_array(x, "norm")
    xp = backend.namespace(d)
    dt, d = d.dtype, backend.opmath(d)
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
    out = x._out_cls._make(xp.asarray(r, dtype=dt))
    if _grad_enabled() and x._requires_grad:
        LinalgVectorNormBackward0.record((x,), out, d.shape, dims, keepdim, p)
    return out


# ------------------------------------------------------------------------------- logsumexp

def _logsumexp_grad(grad, self, result, in_shape, dims, keepdim):
    return _kept(grad, in_shape, dims, keepdim) * E._conj(E.exp(self - _kept(result, in_shape, dims, keepdim)))


LogsumexpBackward0 = derivative("LogsumexpBackward0", complex=True, keep=_REDUCED, aliases={"dims": "dim"},
                                self=_logsumexp_grad)


def logsumexp(x, dim, keepdim=False):
    d = x._data if x._data.dtype.kind == "c" else float_array(x, "logsumexp")
    xp = backend.namespace(d)
    dims = normalize_dims(dim, d.ndim)
    # shifted by the largest (real part), as PyTorch does
    m = xp.max(d.real, axis=dims, keepdims=True) if d.size else xp.zeros(_keep_shape(d.shape, dims), d.real.dtype)
    m = xp.where(xp.isfinite(m), m, 0)
    with backend.quiet(xp):
        r = xp.log(xp.sum(xp.exp(d - m), axis=dims, keepdims=True)) + m
    if not keepdim:
        r = r.reshape(tuple(s for i, s in enumerate(d.shape) if i not in dims))
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        LogsumexpBackward0.record((x,), out, d.shape, dims, keepdim)
    return out


# ------------------------------------------------------------------------------------ cumsum

CumsumBackward0 = derivative("CumsumBackward0", complex=True, keep="dim", self=lambda grad, dim: grad if grad._data.ndim == 0 else
                             S.flip(cumsum(S.flip(grad, (dim,)), dim), (dim,)))


def cumsum(x, dim, dtype=None):
    d = x._data if dtype is None else x._data.astype(backend.to_np_dtype(dtype))
    if d.dtype.kind in "bui" and dtype is None:
        d = d.astype(np.int64)
    dim = normalize_dim(dim, d.ndim)
    r = backend.namespace(d).cumsum(backend.opmath(d), axis=dim) if d.ndim else d.copy()
    out = x._out_cls._make(r.astype(d.dtype) if d.dtype.kind == "V" else r)
    if _grad_enabled() and x._requires_grad:
        CumsumBackward0.record((x,), out, dim)
    return out


METHODS = {
    "median": median, "sum": sum, "mean": mean, "prod": prod, "max": max, "min": min, "amax": amax, "amin": amin, "var": var,
    "std": std, "norm": norm, "logsumexp": logsumexp, "cumsum": cumsum, "argmax": argmax, "argmin": argmin,
    "all": all, "any": any, "sum_to_size": lambda self, *size: sum_to(self, S.parse_shape(size, self.policy)),
    "count_nonzero": count_nonzero,
}
