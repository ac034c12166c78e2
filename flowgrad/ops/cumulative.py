"""Running products, log-sum-exps and extrema along a dim: cumprod, logcumsumexp, cummax, cummin,
and the in-place cumsum_ / cumprod_ (cumsum lives with the sums in reduction.py)."""
from __future__ import annotations

import numpy as np

from .. import backend
from ._args import normalize_dim
from ._declare import _grad_enabled, derivative
from . import elementwise as E
from . import indexing as I
from . import reduction as R
from . import shape as S
from .special import complex_log_add_exp

__all__ = ["cumprod", "cummax", "cummin", "logcumsumexp", "cumsum_inplace", "cumprod_inplace"]


# ------------------------------------------------------------------------------- cumprod

def _reversed_cumsum(g, dim):
    return S.flip(R.cumsum(S.flip(g, (dim,)), dim), (dim,))


def _cumprod_grad(grad, self, result, dim):
    """d cumprod: sum over k >= i of grad_k * prod_{j <= k, j != i} x_j. Without zeros in x that is
    a reversed cumsum of grad * result over x; with zeros, each i's products are taken with x_i set
    to one (an n x n cumprod along dim). Conjugated on complex tensors."""
    if self._data.ndim == 0 or self._data.shape[dim] <= 1:
        return grad
    if bool((self._data != 0).all()):
        return _reversed_cumsum(grad * E._conj(result), dim) / E._conj(self)
    n = self._data.shape[dim]
    xp = backend.namespace(self._data)
    moved_x, moved_g = S.movedim(self, dim, -1), S.movedim(grad, dim, -1)
    eye = self._new(xp.eye(n, dtype=bool))
    # others[..., i, j] = x_j, or 1 where j == i
    others = E.where(eye, self._new(xp.ones((), dtype=self._data.dtype)), S.unsqueeze(moved_x, -2))
    below = self._new(xp.tril(xp.ones((n, n), dtype=self._data.dtype)))   # [k, i] = 1 where i <= k
    products = cumprod(others, -1)                                           # [..., i, k]
    g = R.sum(E._conj(products) * S.unsqueeze(moved_g, -2) * S.t(below), -1)
    return S.movedim(g, -1, dim)


CumprodBackward0 = derivative("CumprodBackward0", complex=True, keep="dim", self=_cumprod_grad)


def cumprod(x, dim, dtype=None):
    """Running product along `dim` (integers and bools as int64, unless `dtype` says otherwise)."""
    d = x._data if dtype is None else x._data.astype(backend.to_np_dtype(dtype))
    if d.dtype.kind in "bui" and dtype is None:
        d = d.astype(np.int64)
    dim = normalize_dim(dim, d.ndim)
    out = x._out_cls._make(backend.namespace(d).cumprod(d, axis=dim) if d.ndim else d.copy())
    if _grad_enabled() and x._requires_grad:
        CumprodBackward0.record((x,), out, dim)
    return out


# --------------------------------------------------------------------------- logcumsumexp

def _reversed_logcumsumexp(x, dim):
    return S.flip(logcumsumexp(S.flip(x, (dim,)), dim), (dim,))


def _logcumsumexp_grad(grad, self, result, dim):
    """sum over k >= i of grad_k exp(x_i - result_k), summed in log space for the positive and the
    negative parts of grad separately (so it stays finite where exp(-result) would overflow); a
    complex one at once, conjugated as PyTorch's."""
    if grad._data.ndim == 0 or grad._data.size == 0:
        return grad
    if grad._data.dtype.kind == "c":
        return E._conj(E.exp(_reversed_logcumsumexp(E.log(E._conj(grad)) - result, dim) + self))
    lowest = float(np.finfo(grad._data.dtype).min)
    log_abs = E.log(E.abs(grad))
    positive = E.where(grad > 0, log_abs, lowest)
    negative = E.where(grad < 0, log_abs, lowest)
    return (E.exp(_reversed_logcumsumexp(positive - result, dim) + self)
            - E.exp(_reversed_logcumsumexp(negative - result, dim) + self))


LogcumsumexpBackward0 = derivative("LogcumsumexpBackward0", complex=True, keep="dim", self=_logcumsumexp_grad)


def _complex_logcumsumexp(xp, d, dim: int):
    """PyTorch's running complex log-add-exp, step by step along `dim` in complex128 from -inf."""
    w = xp.moveaxis(d, dim, 0).astype(np.complex128) if d.ndim else d.astype(np.complex128)[None]
    out = xp.empty_like(w)
    acc = xp.full(w.shape[1:], -np.inf, dtype=np.complex128)
    for i in range(w.shape[0]):
        acc = out[i] = complex_log_add_exp(xp, w[i], acc)
    out = xp.ascontiguousarray(xp.moveaxis(out, 0, dim)) if d.ndim else out.reshape(())
    return out.astype(d.dtype)


def logcumsumexp(x, dim):
    """log(cumsum(exp(x))) along `dim`, without overflow (floating dtypes only)."""
    d = x._data
    if d.dtype.kind not in "fVc":
        raise x.policy.errors.not_implemented_for(op="logcumsumexp_out_cpu", dtype_scalar=d.dtype)
    dim = normalize_dim(dim, d.ndim)
    xp = backend.namespace(d)
    with backend.quiet(xp):   # (bfloat16 accumulated in float32)
        if d.dtype.kind == "c":
            r = _complex_logcumsumexp(xp, d, dim)
        else:
            r = backend.running(xp, "logaddexp", backend.opmath(d), dim) if d.ndim else d.copy()
    out = x._out_cls._make(r.astype(d.dtype) if d.dtype.kind == "V" else r)
    if _grad_enabled() and x._requires_grad:
        LogcumsumexpBackward0.record((x,), out, dim)
    return out


# ------------------------------------------------------------------------- in place (cumsum_, cumprod_)

def _in_place_checked(x, fn, kernel: str, dim, dtype):
    """fn(x, dim, dtype) for x.<fn>_(dim, dtype): the result must keep x's dtype, and bools are refused."""
    d = x._data
    if dtype is not None and backend.to_np_dtype(dtype) != d.dtype:
        raise x.policy.errors.inplace_dtype_mismatch(self_ctype=d.dtype, out_ctype=backend.to_np_dtype(dtype))
    if d.dtype.kind == "b":
        raise x.policy.errors.not_implemented_for(op=kernel, dtype_scalar=d.dtype)
    return fn(x, dim, dtype)


def cumsum_inplace(x, dim, dtype=None):
    """The running sum x.cumsum_(dim, dtype) writes (in x's dtype)."""
    return _in_place_checked(x, R.cumsum, "cumsum_out_cpu", dim, dtype)


def cumprod_inplace(x, dim, dtype=None):
    """The running product x.cumprod_(dim, dtype) writes (in x's dtype)."""
    return _in_place_checked(x, cumprod, "cumprod_out_cpu", dim, dtype)


# ----------------------------------------------------------------------------- cummax / cummin

def _cum_extremum_grad(grad, in_shape, dim, indices):
    """All of a position's gradient goes to the input its running extremum came from."""
    return I.scatter_into_zeros(in_shape, dim, indices, grad) if in_shape else grad


CummaxBackward0 = derivative("CummaxBackward0", keep="in_shape dim indices", self=_cum_extremum_grad)
CumminBackward0 = derivative("CumminBackward0", keep="in_shape dim indices", self=_cum_extremum_grad)


def _cum_extremum(x, dim, ufunc, node):
    d = x._data
    if d.dtype.kind == "c":
        raise x.policy.errors.not_implemented_for(op=f"cum{ufunc[:3]}_cpu", dtype_scalar=d.dtype)
    xp = backend.namespace(d)
    dim = normalize_dim(dim, d.ndim)
    if d.ndim == 0:
        values, idx = d.copy(), xp.zeros((), dtype=np.int64)
    else:
        values = backend.running(xp, ufunc, d, dim)
        # the last position at or before each one that holds its running extremum (a NaN, once met)
        hit = d == values
        if d.dtype.kind in "fV":
            hit |= xp.isnan(d) & xp.isnan(values)
        steps = xp.arange(d.shape[dim], dtype=np.int64).reshape((-1,) + (1,) * (d.ndim - dim - 1))
        idx = backend.running(xp, "maximum", xp.where(hit, steps, -1), dim)
    indices = x._new(idx)
    out = x._out_cls._make(values)
    if _grad_enabled() and x._requires_grad:
        node.record((x,), out, d.shape, dim, indices)
    return R.values_indices(out, indices)


def cummax(x, dim):
    """Running maximum along `dim` and where each came from (the latest of equal values; NaN wins)."""
    return _cum_extremum(x, dim, "maximum", CummaxBackward0)


def cummin(x, dim):
    """Running minimum along `dim` and where each came from (the latest of equal values; NaN wins)."""
    return _cum_extremum(x, dim, "minimum", CumminBackward0)


METHODS = {"cumprod": cumprod, "cummax": cummax, "cummin": cummin, "logcumsumexp": logcumsumexp}
