"""Statistics composed of the op table as PyTorch composes them (so they record its nodes): cov
(frequency and analytic weights, a correction), corrcoef, quantile and nanquantile; and histogram
(counts and bin edges, whose node refuses differentiation as PyTorch's does)."""
from __future__ import annotations

import warnings

import numpy as np

from .. import backend
from ..tensor import Tensor
from ._args import normalize_dim
from ._declare import derivative, recording
from . import complex_numbers as C
from . import elementwise as E
from . import indexing as I
from . import linalg as L
from . import reduction as R
from . import shape as S

__all__ = ["cov", "corrcoef", "quantile", "nanquantile", "histogram"]


def _check_weights(x, w, name: str, observations: int) -> None:
    policy, d = x.policy, w._data
    if d.ndim > 1:
        raise policy.errors.cov_weights_ndim(name=name, ndim=d.ndim)
    integral = d.dtype.kind in "iu"
    if integral != (name == "fweights") or (not integral and d.dtype.kind not in "fV"):
        raise policy.errors.cov_weights_dtype(name=name, dtype_scalar=d.dtype,
                                              wanted="integral" if name == "fweights" else "floating point")
    if d.size != observations:
        raise policy.errors.cov_weights_numel(name=name, numel=d.size, observations=observations)
    if observations and bool((d < 0).any()):
        raise policy.errors.cov_weights_negative(name=name)


def cov(input, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in `input`'s rows (a 1-D input: one variable), each
    observation weighted by `fweights * aweights`, normalised by the weights' sum less `correction`."""
    policy, d = input.policy, input._data
    if d.ndim > 2:
        raise policy.errors.stat_ndim(op="cov", ndim=d.ndim)
    if d.dtype.kind == "b":
        raise policy.errors.cov_bool()
    if not isinstance(correction, int) or isinstance(correction, bool):
        raise policy.errors.cov_correction_type(type=type(correction).__name__)
    x = S.reshape(input, (1, -1)) if d.ndim < 2 else input
    observations = x._data.shape[1]
    w = None
    for name, weights in (("fweights", fweights), ("aweights", aweights)):
        if weights is not None:
            _check_weights(input, weights, name, observations)
            w = weights if w is None else w * weights
    if w is None:
        w_sum = observations
        avg = E.div(R.sum(x, 1), w_sum)
        factor = w_sum - correction
    else:
        w_sum = R.sum(w)
        if not bool(w_sum._data != 0):
            raise policy.errors.cov_weights_zero()
        avg = R.sum(x * w, 1) / w_sum
        factor = (w_sum - correction * R.sum(w * aweights) / w_sum) if aweights is not None and correction \
            else w_sum - correction
    if bool(factor <= 0 if not isinstance(factor, Tensor) else (factor._data <= 0)):
        warnings.warn(policy.errors.cov_dof())
        factor = 0 if not isinstance(factor, Tensor) else factor * 0
    x = x - S.unsqueeze(avg, 1)
    c = L.mm(x, E.conj(S.t(x * w if w is not None else x)))
    return S.squeeze(E.div(c, factor))


def corrcoef(input):
    """Pearson's correlation coefficients of the variables in `input`'s rows, clipped to [-1, 1]
    (a complex one: its real and imaginary parts each)."""
    d = input._data
    if d.ndim > 2:
        raise input.policy.errors.stat_ndim(op="corrcoef", ndim=d.ndim)
    c = cov(input)
    if c._data.ndim == 0:
        return c / c
    diag = S.diagonal(c)
    std = E.sqrt(C.real(diag) if diag._data.dtype.kind == "c" else diag)
    c = c / S.unsqueeze(std, 1)
    c = c / S.unsqueeze(std, 0)
    if c._data.dtype.kind == "c":
        return C.complex(E.clamp(C.real(c), -1, 1), E.clamp(C.imag(c), -1, 1))
    return E.clamp(c, -1, 1)


# ------------------------------------------------------------------------------- quantiles

INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile_arguments(x, q, interpolation):
    """q as a tensor of x's dtype, after PyTorch's checks in PyTorch's order."""
    policy, d = x.policy, x._data
    if interpolation not in INTERPOLATIONS:
        raise policy.errors.quantile_interpolation(interpolation=interpolation)
    if not isinstance(q, Tensor):
        if not 0 <= q <= 1:
            raise policy.errors.quantile_q_range(q=q)
        q = x._new(backend.namespace(d).asarray(q, dtype=d.dtype))
    if d.size == 0:
        raise policy.errors.quantile_empty()
    if q._data.ndim > 1:
        raise policy.errors.quantile_q_ndim()
    if d.dtype.kind != "f" or d.dtype.itemsize < 4:
        raise policy.errors.quantile_dtype()
    if q._data.dtype != d.dtype:
        raise policy.errors.quantile_q_dtype()
    if not bool(((q._data >= 0) & (q._data <= 1)).all()):
        raise policy.errors.quantile_q_values()
    return q


def _quantile(x, q, dim, keepdim, interpolation, ignore_nan):
    q = _quantile_arguments(x, q, interpolation)
    d = x._data
    if dim is not None and d.ndim:
        dim = normalize_dim(dim, d.ndim, x.policy)
        out_shape = list(d.shape)
        if keepdim:
            out_shape[dim] = 1
        else:
            del out_shape[dim]
        moved = x if dim == d.ndim - 1 else S.transpose(S.unsqueeze(x, -1), dim, -1)
        ordered = R.sort(moved)[0]
    else:
        out_shape = [1] * d.ndim if keepdim else []
        ordered = R.sort(S.flatten(x))[0]
    n = ordered._data.shape[-1]
    ordered = S.reshape(ordered, tuple(out_shape) + (n,))
    if n > 2 ** 24:
        raise x.policy.errors.quantile_too_large()
    nan = R.any(E.isnan(ordered), -1, True)
    if ignore_nan:
        counts = R.sum(E.logical_not(E.isnan(ordered)), -1, True)
        ranks = q * E.cast(counts - 1, d.dtype)
        ranks = I.masked_fill(ranks, ranks < 0, 0)
    else:
        ranks = q * (n - 1)
        shape = backend.namespace(nan._data).broadcast_shapes(ranks._data.shape, nan._data.shape)
        ranks = I.masked_fill(S.expand_to(ranks, shape), S.expand_to(nan, shape), n - 1)
    if interpolation in ("lower", "higher", "nearest"):
        ranks = {"lower": E.floor, "higher": E.ceil, "nearest": E.round}[interpolation](ranks)
    below_rank = E.cast(ranks, np.dtype(np.int64))
    below = I.gather(ordered, -1, below_rank)
    if interpolation in ("linear", "midpoint"):
        weights = ranks - E.cast(below_rank, d.dtype) if interpolation == "linear" else 0.5
        above = I.gather(ordered, -1, E.cast(E.ceil(ranks), np.dtype(np.int64)))
        below = below + weights * (above - below)
    if q._data.ndim == 0:
        return S.squeeze_(below, -1)
    return S.squeeze_(S.transpose_(S.unsqueeze_(below, 0), 0, -1), -1)


def quantile(input, q, dim=None, keepdim=False, interpolation="linear"):
    """The q-th quantiles of `input` (over `dim`, else of all its elements), between the two nearest
    ranks as `interpolation` says; a NaN makes its quantiles NaN. A 1-D q gives its quantiles in a
    new first dim."""
    return _quantile(input, q, dim, keepdim, interpolation, False)


def nanquantile(input, q, dim=None, keepdim=False, interpolation="linear"):
    """quantile over the values that are not NaN (NaN where all are)."""
    return _quantile(input, q, dim, keepdim, interpolation, True)


# ------------------------------------------------------------------------------- histogram

def _refuse(grad, op):
    raise grad.policy.errors.derivative_not_implemented(op=op)


HistogramBackward = derivative("NotImplemented", keep="op", self=_refuse)


def _linspace_as_torch(xp, lo: float, hi: float, n: int, dt):
    """PyTorch's CPU linspace of `n` values in float dtype `dt`: the first half `lo + step * i`, the
    rest `hi - step * (n - 1 - i)`, each one fused multiply-add in `dt` (a half-precision dtype
    rounds each operation)."""
    s, e = xp.asarray(lo, dtype=dt), xp.asarray(hi, dtype=dt)
    i = xp.arange(n)
    k = xp.where(i < n // 2, i, n - 1 - i)
    base = xp.where(i < n // 2, s, e)
    sign = xp.where(i < n // 2, 1.0, -1.0)
    if dt.itemsize <= 2:
        step = (e - s) / xp.asarray(n - 1, dtype=dt)
        return base + (sign * (step * k.astype(dt))).astype(dt)
    if dt.itemsize == 4:        # a product of float32 and a small int is exact in float64
        step = xp.float64((e - s) / xp.asarray(n - 1, dtype=dt))
        return (base.astype(xp.float64) + sign * step * k).astype(dt)
    step = (e - s) / (n - 1)
    p = step * k                # Dekker's exact product, then the sum rounded once
    t = 134217729.0 * step
    high = t - (t - step)
    err = (high * k - p) + (step - high) * k
    top = base + sign * p
    virtual = top - base
    low = (base - (top - virtual)) + (sign * p - virtual)
    return top + (low + sign * err)


def _histogram_edges(input, bins, range):
    """The bin edges: the given tensor's, or `bins` equal bins over `range` (the data's own range by
    default, widened by 0.5 each way where it is one value), None where PyTorch's kernel refuses the
    dtype anyway."""
    policy, d = input.policy, input._data
    xp = backend.namespace(d)
    if isinstance(bins, Tensor):
        e = bins._data
        if e.ndim != 1:
            raise policy.errors.histogram_bins_ndim(ndim=e.ndim)
        if e.dtype != d.dtype:
            raise policy.errors.histogram_bins_dtype(input_ctype=d.dtype, bins_ctype=e.dtype)
        if e.shape[0] < 2:
            raise policy.errors.histc_bins(bins=e.shape[0] - 1)
        return e
    if bins <= 0:
        raise policy.errors.histc_bins(bins=bins)
    if range is not None:
        lo, hi = (float(v) for v in range)
    elif d.size:
        if d.dtype not in (np.float32, np.float64):
            raise policy.errors.not_implemented_for(op="histogramdd", dtype_scalar=d.dtype)
        lo, hi = float(d.min()), float(d.max())
    else:
        lo, hi = 0.0, 1.0
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise policy.errors.histogram_range(min=lo, max=hi)
    if lo > hi:
        raise policy.errors.histogram_order(min=lo, max=hi)
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    if d.dtype.kind == "b":
        raise policy.errors.not_implemented_for(op="linspace_cpu", dtype_scalar=d.dtype)
    return _linspace_as_torch(xp, lo, hi, bins + 1, d.dtype) if backend.is_float(d.dtype) else None


def _bin_positions(xp, values, edges, equal_bins: bool):
    """Each value's bin (values inside the edges), as PyTorch's kernel finds it: for equal bins, the
    bin `(value - first) * bins / (last - first)` computes in the dtype, then an upper bound search
    among the edges beside it; else a search among all edges. The last bin holds its right edge."""
    n = edges.shape[0] - 1
    if not equal_bins:
        return xp.minimum(xp.searchsorted(edges, values, side="right") - 1, n - 1)
    dt = edges.dtype
    guess = (values - edges[0]) * xp.asarray(n, dtype=dt) / (edges[-1] - edges[0])
    guess = xp.clip(xp.nan_to_num(guess, posinf=n), 0, n).astype(xp.int64)
    first = xp.maximum(guess - 1, 0)
    pos = first - 1
    for j in (guess - 1, guess, guess + 1):
        pos = pos + ((j >= first) & (j <= n) & (edges[xp.clip(j, 0, n)] <= values))
    return xp.minimum(pos, n - 1)


def histogram(input, bins=100, range=None, weight=None, density=False):
    """(hist, bin_edges): how many of `input`'s elements (or how much of their `weight`) fall into
    each bin, a bin holding its left edge and the last one its right edge too; with `density`, the
    counts as a probability density over the bins."""
    policy, d = input.policy, input._data
    edges = _histogram_edges(input, bins, range)
    if weight is not None:
        w = weight._data
        if w.dtype != d.dtype:
            raise policy.errors.histogram_weight_dtype(input_ctype=d.dtype, weight_ctype=w.dtype)
        if w.size != d.size:
            raise policy.errors.histogram_weight_shape(input=[d.size, 1], weight=[w.size])
    if edges is None or not backend.is_float(d.dtype):
        raise policy.errors.not_implemented_for(op="histogram_cpu", dtype_scalar=d.dtype)
    xp = backend.namespace(d)
    values = d.reshape(-1)
    n = edges.shape[0] - 1
    inside = (values >= edges[0]) & (values <= edges[-1])
    pos = _bin_positions(xp, values[inside], edges, not isinstance(bins, Tensor))
    w = xp.ones_like(values) if weight is None else weight._data.reshape(-1)
    hist = xp.bincount(pos, weights=w[inside].astype(np.float64), minlength=n)[:n].astype(d.dtype)
    if density:
        with backend.quiet(xp):
            hist = hist / hist.sum() / (edges[1:] - edges[:-1])
    out = input._out_cls._make(hist), input._out_cls._make(xp.asarray(edges, dtype=d.dtype).copy())
    if recording(input):
        for t in out:
            HistogramBackward.record((input,), t, "aten::histogram")
    return out


METHODS = {"cov": cov, "corrcoef": corrcoef, "quantile": quantile, "nanquantile": nanquantile,
           "histogram": histogram}
