"""2-D pooling primitives (NCHW) and constant padding (convolution is in conv_nd).

Pooling reads the windows through conv_nd's im2col; padding is given per side,
`(top, bottom, left, right)`, so ceil-mode pooling needs no extra copies.
"""
from __future__ import annotations

import numpy as np

from .. import backend
from ._declare import _grad_enabled, derivative
from . import indexing as I
from . import shape as S
from .conv_nd import col2im as _col2im, im2col as _im2col
from .pooling import pool_output_size

__all__ = ["max_pool2d_with_indices", "avg_pool2d", "constant_pad", "pool_output_size"]


# -------------------------------------------------------------------------------------- pooling

def _max_pool_grad(grad, x_shape, indices):
    """The gradient goes to the position each window's maximum came from (summed where windows
    overlap): a scatter-add, whose own derivative is a gather."""
    n, c, h, w = x_shape
    gx = I.scatter_into_zeros((n, c, h * w), 2, indices, S.reshape(grad, (n, c, -1)))
    return S.reshape(gx, x_shape)


MaxPool2DWithIndicesBackward0 = derivative("MaxPool2DWithIndicesBackward0", oneflow="max_pool_2dBackward",
                                           keep="x_shape indices", self=_max_pool_grad)


def max_pool2d_with_indices(x, kernel, stride, padding, dilation, ceil_mode):
    """Max over each window; also returns the flat (H*W) index of each maximum, as PyTorch does."""
    d = x._data
    xp = backend.namespace(d)
    n, c, h, w = d.shape
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    ho, eh = pool_output_size(h, kh, sh, ph, dh, ceil_mode)
    wo, ew = pool_output_size(w, kw, sw, pw, dw, ceil_mode)
    if ho < 1 or wo < 1:
        raise x.policy.errors.pool_output_small(input=f"{c}x{h}x{w}", output=f"{c}x{max(ho, 0)}x{max(wo, 0)}")
    fill = -np.inf if d.dtype.kind == "f" else np.iinfo(d.dtype).min
    cols = _im2col(xp, d, kernel, stride, (ph, ph + eh, pw, pw + ew), dilation, fill)[:, :ho, :wo]
    am = xp.argmax(cols, axis=-1)                                               # (N, Ho, Wo, C)
    vals = xp.take_along_axis(cols, am[..., None], axis=-1)[..., 0].transpose(0, 3, 1, 2)
    am = am.transpose(0, 3, 1, 2)
    ki, kj = am // kw, am % kw
    rows = (xp.arange(ho) * sh - ph)[:, None] + ki * dh
    cols_ = (xp.arange(wo) * sw - pw)[None, :] + kj * dw
    idx = (rows * w + cols_).astype(np.int64)
    out = x._out_cls._make(vals)
    indices = x._out_cls._make(idx)
    if _grad_enabled() and x._requires_grad:
        MaxPool2DWithIndicesBackward0.record((x,), out, d.shape, x._out_cls._make(idx.reshape(n, c, -1)))
    return out, indices


def _avg_divisor(n_in, k, s, p, out, count_include_pad):
    """Each window's divisor along one dimension (PyTorch's rule: padding counts, the ceil-mode
    overhang does not)."""
    start = np.arange(out) * s - p
    end = np.minimum(start + k, n_in + p)
    size = end - start
    if not count_include_pad:
        size = np.minimum(end, n_in) - np.maximum(start, 0)
    return size


# The gradient divided by each window's divisor and spread back over the window (a transposed
# convolution with a kernel of ones); its own derivative is the pooling again.
AvgPool2DBackward0 = derivative("AvgPool2DBackward0", oneflow="avg_pool_2dBackward", keep="x_shape geom divisor",
                                self=lambda grad, x_shape, geom, divisor: _avg_pool_backward(grad, x_shape, geom,
                                                                                             divisor))
AvgPool2DBackwardBackward = derivative("AvgPool2DBackwardBackward0", oneflow="avg_pool_2d_gradBackward",
                                       keep="geom divisor",
                                       grad_output=lambda grad, geom, divisor: _avg_pool(grad, geom, divisor))


def _divide(xp, a, divisor):
    if isinstance(divisor, int):
        return a / divisor
    return a / xp.asarray(divisor).astype(a.dtype)


def _avg_pool(x, geom, divisor):
    kernel, stride, pads = geom
    d = x._data
    xp = backend.namespace(d)
    sums = _im2col(xp, d, kernel, stride, pads, (1, 1)).sum(axis=-1).transpose(0, 3, 1, 2)
    out = x._out_cls._make(_divide(xp, sums, divisor).astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        AvgPool2DBackward0.record((x,), out, d.shape, geom, divisor)
    return out


def _avg_pool_backward(g, x_shape, geom, divisor):
    kernel, stride, pads = geom
    gd = g._data
    xp = backend.namespace(gd)
    k = kernel[0] * kernel[1]
    scaled = _divide(xp, gd, divisor).astype(gd.dtype, copy=False).transpose(0, 2, 3, 1)[..., None]
    gcols = xp.broadcast_to(scaled, scaled.shape[:4] + (k,))
    out = g._out_cls._make(_col2im(xp, gcols, x_shape, kernel, stride, pads, (1, 1)))
    if _grad_enabled() and g._requires_grad:
        AvgPool2DBackwardBackward.record((g,), out, geom, divisor)
    return out


def avg_pool2d(x, kernel, stride, padding, ceil_mode=False, count_include_pad=True, divisor_override=None):
    d = x._data
    n, c, h, w = d.shape
    (kh, kw), (sh, sw), (ph, pw) = kernel, stride, padding
    ho, eh = pool_output_size(h, kh, sh, ph, 1, ceil_mode)
    wo, ew = pool_output_size(w, kw, sw, pw, 1, ceil_mode)
    if ho < 1 or wo < 1:
        raise x.policy.errors.pool_output_small(input=f"{c}x{h}x{w}", output=f"{c}x{max(ho, 0)}x{max(wo, 0)}")
    if divisor_override:
        divisor = divisor_override
    else:
        dh = _avg_divisor(h, kh, sh, ph, ho, count_include_pad)
        dw = _avg_divisor(w, kw, sw, pw, wo, count_include_pad)
        if (dh == dh[0]).all() and (dw == dw[0]).all():
            divisor = int(dh[0] * dw[0])
        else:
            divisor = (dh[:, None] * dw[None, :]).astype(np.float64)  # host array; moved at use
    return _avg_pool(x, ((kh, kw), (sh, sw), (ph, ph + eh, pw, pw + ew)), divisor)


# -------------------------------------------------------------------------------------- padding

# padding's adjoint is the opposite crop (and a crop's is zero padding): pad by the negation
ConstantPadNdBackward0 = derivative("ConstantPadNdBackward0", keep="pad",
                                    self=lambda grad, pad: constant_pad(grad, tuple(-p for p in pad), 0))


def constant_pad(x, pad, value=0):
    """PyTorch's F.pad(mode='constant'): `pad` lists (before, after) pairs from the last dim back;
    negative amounts crop."""
    d = x._data
    xp = backend.namespace(d)
    nd = d.ndim
    if len(pad) % 2 or len(pad) // 2 > nd:
        raise x.policy.errors.pad_length_dims(length=len(pad), ndim=nd)
    widths = [(0, 0)] * nd
    crop = [slice(None)] * nd
    for i in range(len(pad) // 2):
        dim = nd - 1 - i
        lo, hi = int(pad[2 * i]), int(pad[2 * i + 1])
        crop[dim] = slice(-lo if lo < 0 else 0, d.shape[dim] + hi if hi < 0 else d.shape[dim])
        widths[dim] = (max(lo, 0), max(hi, 0))
        if d.shape[dim] + lo + hi < 0:
            raise x.policy.errors.narrow_length()   # (PyTorch 2.13 crops with narrow)
    r = d[tuple(crop)]
    if any(a or b for a, b in widths):
        r = xp.pad(r, widths, constant_values=value)
    else:
        r = r.copy()
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        ConstantPadNdBackward0.record((x,), out, tuple(int(p) for p in pad))
    return out
