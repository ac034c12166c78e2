"""Max and average pooling over 2 or 3 spatial dims (N, C, *spatial), on conv_nd's im2col (1-d
pooling runs as 2-d pooling of height 1, as in PyTorch).

The callers (flowgrad/nn/functional_pool.py) check the arguments and the output size first.
Windows are read with per-side padding, so ceil mode needs no extra copy: the overhang past the
input is padding that never wins a max and that the average's divisor leaves out.
"""
from __future__ import annotations

import math

import numpy as np

from .. import backend
from ._declare import _grad_enabled, derivative, variant
from . import indexing as I
from . import shape as S
from .conv_nd import col2im, im2col

__all__ = ["pool_output_size", "max_pool_with_indices", "adaptive_max_pool", "max_unpool", "avg_pool"]


def pool_output_size(n: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> tuple[int, int]:
    """PyTorch's pooling output size along one dim, and the extra right padding ceil mode needs."""
    span = n + 2 * p - d * (k - 1) - 1
    out = (span + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    extra = max(0, (out - 1) * s + d * (k - 1) + 1 - (n + 2 * p))
    return out, extra


def _geometry(size, kernel, stride, padding, dilation, ceil_mode):
    outs, pads = [], []
    for i in range(len(size)):
        o, extra = pool_output_size(size[i], kernel[i], stride[i], padding[i], dilation[i], ceil_mode)
        outs.append(o)
        pads += [padding[i], padding[i] + extra]
    return tuple(outs), tuple(pads)


# ------------------------------------------------------------------------------------- max pooling

def _per_channel(shape) -> tuple:
    """(N, C, *spatial) -> (N, C, prod(spatial)), for an empty array too."""
    return (*shape[:2], math.prod(shape[2:]))


def _max_pool_grad(grad, x_shape, indices):
    """The gradient goes to the position each window's maximum came from (summed where windows
    overlap): a scatter-add, whose own derivative is a gather."""
    n, c = x_shape[:2]
    gx = I.scatter_into_zeros((n, c, math.prod(x_shape[2:])), 2, indices, S.reshape(grad, _per_channel(grad.shape)))
    return S.reshape(gx, x_shape)


MaxPool2DWithIndicesBackward0 = derivative("MaxPool2DWithIndicesBackward0", oneflow="max_pool_2dBackward",
                                           keep="x_shape indices", self=_max_pool_grad)
MaxPool3DWithIndicesBackward0 = variant(MaxPool2DWithIndicesBackward0, "MaxPool3DWithIndicesBackward0",
                                        oneflow="max_pool_3dBackward")
_MAX_ROWS = {2: MaxPool2DWithIndicesBackward0, 3: MaxPool3DWithIndicesBackward0}
_ADAPTIVE_MAX_ROWS = {2: variant(MaxPool2DWithIndicesBackward0, "AdaptiveMaxPool2DBackward0"),
                      3: variant(MaxPool2DWithIndicesBackward0, "AdaptiveMaxPool3DBackward0")}


def _window_max(xp, windows):
    """Each window's (last axis) position of its max and the max: PyTorch's kernels keep the first
    maximum, but a NaN window the last NaN (they replace the running max by every NaN they meet)."""
    am = xp.argmax(windows, axis=-1)
    vals = xp.take_along_axis(windows, am[..., None], axis=-1)[..., 0]
    if vals.dtype.kind in "fc":
        nan = xp.isnan(vals)       # argmax stops at a window's first NaN
        if nan.any():
            last = windows.shape[-1] - 1 - xp.argmax(xp.isnan(windows[..., ::-1]), axis=-1)
            am = xp.where(nan, last, am)
    return am, vals


def max_pool_with_indices(x, kernel, stride, padding, dilation, ceil_mode):
    """Max over each window; also the flat index (over the spatial dims) of each maximum, as PyTorch
    returns it."""
    d = x._data
    xp = backend.namespace(d)
    n, c, *size = d.shape
    nd = len(size)
    outs, pads = _geometry(size, kernel, stride, padding, dilation, ceil_mode)
    fill = -np.inf if d.dtype.kind in "fV" else np.iinfo(d.dtype).min
    cols = im2col(xp, d, kernel, stride, pads, dilation, fill, outs)           # (N, *outs, C, K)
    am, vals = _window_max(xp, cols)                                           # (N, *outs, C)
    to_channels = (0, nd + 1, *range(1, nd + 1))
    vals = vals.transpose(to_channels)
    rest, offsets = am.transpose(to_channels), [None] * nd                    # kernel offset per dim
    for i in range(nd - 1, 0, -1):
        offsets[i], rest = rest % kernel[i], rest // kernel[i]
    offsets[0] = rest
    idx = None
    for i in range(nd):
        start = (xp.arange(outs[i]) * stride[i] - padding[i]).reshape((-1,) + (1,) * (nd - 1 - i))
        pos = (offsets[i] * dilation[i] if dilation[i] != 1 else offsets[i]) + start
        idx = pos if idx is None else idx * size[i] + pos
    idx = idx.astype(np.int64)
    out = x._out_cls._make(vals)
    if _grad_enabled() and x._requires_grad:
        _MAX_ROWS[nd].record((x,), out, d.shape, x._out_cls._make(idx.reshape(_per_channel(idx.shape))))
    return out, x._out_cls._make(idx)


def adaptive_max_pool(x, table):
    """Max over windows of any sizes: `table` (a host array of shape (*out, widest window)) lists the
    flat spatial positions of each output cell's window (a short window repeats one of its own
    last cells, which never changes its max nor which cell PyTorch picks)."""
    d = x._data
    xp = backend.namespace(d)
    n, c = d.shape[:2]
    outs = table.shape[:-1]
    windows = d.reshape(_per_channel(d.shape))[:, :, xp.asarray(table.reshape(-1))].reshape((n, c) + table.shape)
    am, vals = _window_max(xp, windows)
    cell = xp.arange(math.prod(outs)).reshape(outs)
    idx = xp.asarray(table.reshape(-1, table.shape[-1]))[cell, am].astype(np.int64)
    out = x._out_cls._make(vals)
    if _grad_enabled() and x._requires_grad:
        _ADAPTIVE_MAX_ROWS[len(outs)].record((x,), out, d.shape, x._out_cls._make(idx.reshape(_per_channel(idx.shape))))
    return out, x._out_cls._make(idx)


# -------------------------------------------------------------------------------------- unpooling

# unpooling writes each value at its index; the gradient reads it back from there (a gather)
MaxUnpool2DBackward0 = derivative(
    "MaxUnpool2DBackward0", keep="x_shape indices",
    self=lambda grad, x_shape, indices: S.reshape(I.gather(S.reshape(grad, (x_shape[0], x_shape[1], -1)), 2, indices),
                                                  x_shape))
MaxUnpool3DBackward0 = variant(MaxUnpool2DBackward0, "MaxUnpool3DBackward0")


def max_unpool(x, indices, size):
    """Zeros of spatial size `size` with each value of (N, C, *spatial) `x` written at its flat index
    (a repeated index keeps one of its values)."""
    d = x._data
    xp = backend.namespace(d)
    n, c = d.shape[:2]
    idx = indices._data.reshape(_per_channel(indices._data.shape))
    out = xp.zeros((n, c, math.prod(size)), dtype=d.dtype)
    out[xp.arange(n)[:, None, None], xp.arange(c)[None, :, None], idx] = d.reshape(_per_channel(d.shape))
    res = x._out_cls._make(out.reshape((n, c) + tuple(size)))
    if _grad_enabled() and x._requires_grad:
        row = MaxUnpool2DBackward0 if len(size) == 2 else MaxUnpool3DBackward0
        row.record((x,), res, d.shape, x._out_cls._make(idx))
    return res


# ------------------------------------------------------------------------------------- avg pooling

def _divisors(size, kernel, stride, padding, outs, count_include_pad):
    """Each window's divisor (PyTorch's rule: padding counts unless told otherwise, the ceil-mode
    overhang never does): an int when every window has the same, else a host array of the output's
    spatial shape."""
    per_dim = []
    for n_in, k, s, p, o in zip(size, kernel, stride, padding, outs):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, n_in + p)
        if not count_include_pad:
            start, end = np.maximum(start, 0), np.minimum(end, n_in)
        per_dim.append(end - start)
    if all((v == v[0]).all() for v in per_dim):
        return int(math.prod(int(v[0]) for v in per_dim))
    div = np.ones((), dtype=np.float64)
    for v in per_dim:
        div = np.multiply.outer(div, v.astype(np.float64))
    return div


def _divide(xp, a, divisor):
    if isinstance(divisor, int):
        return a / divisor
    return a / xp.asarray(divisor).astype(a.dtype)


# The gradient divided by each window's divisor and spread back over the window (a transposed
# convolution with a kernel of ones); its own derivative is the pooling again.
AvgPool2DBackward0 = derivative("AvgPool2DBackward0", oneflow="avg_pool_2dBackward", keep="x_shape geom divisor",
                                self=lambda grad, x_shape, geom, divisor: _avg_pool_backward(grad, x_shape, geom,
                                                                                             divisor))
AvgPool2DBackwardBackward = derivative("AvgPool2DBackwardBackward0", oneflow="avg_pool_2d_gradBackward",
                                       keep="geom divisor",
                                       grad_output=lambda grad, geom, divisor: _avg_pool(grad, geom, divisor))
AvgPool3DBackward0 = variant(AvgPool2DBackward0, "AvgPool3DBackward0", oneflow="avg_pool_3dBackward")
AvgPool3DBackwardBackward = variant(AvgPool2DBackwardBackward, "AvgPool3DBackwardBackward0",
                                    oneflow="avg_pool_3d_gradBackward")
_AVG_ROWS = {2: (AvgPool2DBackward0, AvgPool2DBackwardBackward), 3: (AvgPool3DBackward0, AvgPool3DBackwardBackward)}


def _avg_pool(x, geom, divisor):
    kernel, stride, pads, outs = geom
    d = x._data
    xp = backend.namespace(d)
    nd = d.ndim - 2
    sums = im2col(xp, d, kernel, stride, pads, (1,) * nd, outs=outs).sum(axis=-1).transpose(
        0, nd + 1, *range(1, nd + 1))
    out = x._out_cls._make(_divide(xp, sums, divisor).astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        _AVG_ROWS[nd][0].record((x,), out, d.shape, geom, divisor)
    return out


def _avg_pool_backward(g, x_shape, geom, divisor):
    kernel, stride, pads, outs = geom
    gd = g._data
    xp = backend.namespace(gd)
    nd = gd.ndim - 2
    scaled = _divide(xp, gd, divisor).astype(gd.dtype, copy=False).transpose(0, *range(2, nd + 2), 1)[..., None]
    gcols = xp.broadcast_to(scaled, scaled.shape[:-1] + (math.prod(kernel),))
    out = g._out_cls._make(col2im(xp, gcols, x_shape, kernel, stride, pads, (1,) * nd))
    if _grad_enabled() and g._requires_grad:
        _AVG_ROWS[nd][1].record((g,), out, geom, divisor)
    return out


def avg_pool(x, kernel, stride, padding, ceil_mode=False, count_include_pad=True, divisor_override=None):
    """The mean over each window (or the sum over `divisor_override`)."""
    size = x._data.shape[2:]
    outs, pads = _geometry(size, kernel, stride, padding, (1,) * len(size), ceil_mode)
    divisor = divisor_override or _divisors(size, kernel, stride, padding, outs, count_include_pad)
    return _avg_pool(x, (tuple(kernel), tuple(stride), pads, outs), divisor)
