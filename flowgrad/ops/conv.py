"""2-D convolution and pooling primitives (NCHW), and constant padding.

conv2d runs as im2col (the windows of the padded input copied into one contiguous array) and
one matrix product with the weight. Its derivatives are two primitives of their own: the input gradient
(the transposed convolution: one matrix product, then the windows added back into place) and the
weight gradient (one matrix product of the output gradient with the windows). The three are bilinear
and each one's derivative is expressed through the others, so gradients of every order stay
inside this table. Padding is given per side, `(top, bottom, left, right)`, so 'same' padding
and ceil-mode pooling need no extra copies.
"""
from __future__ import annotations

import numpy as np

from .. import backend
from ._args import check_same
from ._declare import _grad_enabled, derivative
from . import indexing as I
from . import reduction as R
from . import shape as S

__all__ = ["conv2d", "conv2d_input_grad", "conv2d_weight_grad", "max_pool2d_with_indices", "avg_pool2d",
           "constant_pad", "pool_output_size"]


# ------------------------------------------------------------------------------------ geometry

def _out_size(n, k, s, p0, p1, d):
    return (n + p0 + p1 - d * (k - 1) - 1) // s + 1


def pool_output_size(n, k, s, p, d, ceil_mode):
    """PyTorch's pooling output size (and the extra right padding ceil mode needs)."""
    span = n + 2 * p - d * (k - 1) - 1
    out = (span + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    extra = max(0, (out - 1) * s + d * (k - 1) + 1 - (n + 2 * p))
    return out, extra


def _im2col(xp, d, kernel, stride, pads, dilation, fill=0):
    """The windows of the padded input as one contiguous (N, Ho, Wo, C, kh*kw) array: kh*kw strided
    slices copied into place (plain indexing, so it runs on any array namespace)."""
    pt, pb, pl, pr = pads
    n, c, h, w = d.shape
    kh, kw = kernel
    (sh, sw), (dh, dw) = stride, dilation
    ho, wo = _out_size(h, kh, sh, pt, pb, dh), _out_size(w, kw, sw, pl, pr, dw)
    if pt or pb or pl or pr:
        d = xp.pad(d, ((0, 0), (0, 0), (pt, pb), (pl, pr)), constant_values=fill)
    cols = xp.empty((n, ho, wo, c, kh * kw), dtype=d.dtype)
    for i in range(kh):
        r0 = i * dh
        for j in range(kw):
            c0 = j * dw
            cols[..., i * kw + j] = d[:, :, r0:r0 + sh * (ho - 1) + 1:sh, c0:c0 + sw * (wo - 1) + 1:sw].transpose(
                0, 2, 3, 1)
    return cols


def _col2im(xp, gcols, x_shape, kernel, stride, pads, dilation):
    """The adjoint of _im2col: add each window's (N, Ho, Wo, C, kh*kw) entries back where they came from."""
    n, c, h, w = x_shape
    kh, kw = kernel
    (sh, sw), (dh, dw) = stride, dilation
    pt, pb, pl, pr = pads
    ho, wo = gcols.shape[1], gcols.shape[2]
    gx = xp.zeros((n, c, h + pt + pb, w + pl + pr), dtype=gcols.dtype)
    for i in range(kh):
        r0 = i * dh
        for j in range(kw):
            c0 = j * dw
            gx[:, :, r0:r0 + sh * (ho - 1) + 1:sh, c0:c0 + sw * (wo - 1) + 1:sw] += gcols[..., i * kw + j].transpose(
                0, 3, 1, 2)
    return gx[:, :, pt:pt + h, pl:pl + w]


def _grouped_matmul(xp, a, b, groups):
    """(M, G*K) @ per-group (G, K, P) -> (M, G*P); one GEMM when groups == 1. Operands are made
    contiguous first: BLAS is several times slower on transposed views."""
    c = xp.ascontiguousarray
    if groups == 1:
        return c(a) @ c(b[0])
    m = a.shape[0]
    out = xp.matmul(c(a.reshape(m, groups, -1).transpose(1, 0, 2)), c(b))   # (G, M, P)
    return out.transpose(1, 0, 2).reshape(m, -1)


def _conv_arrays(xp, d, wd, stride, pads, dilation, groups):
    o, cg, kh, kw = wd.shape
    cols = _im2col(xp, d, (kh, kw), stride, pads, dilation)
    n, ho, wo = cols.shape[:3]
    w2 = wd.reshape(groups, o // groups, cg * kh * kw).transpose(0, 2, 1)       # (G, cg*K, og)
    out = _grouped_matmul(xp, cols.reshape(n * ho * wo, -1), w2, groups)      # (M, O)
    return out.reshape(n, ho, wo, o).transpose(0, 3, 1, 2)


def _input_grad_arrays(xp, gd, wd, x_shape, stride, pads, dilation, groups):
    o, cg, kh, kw = wd.shape
    n, _, ho, wo = gd.shape
    g2 = gd.transpose(0, 2, 3, 1).reshape(n * ho * wo, o)
    w2 = wd.reshape(groups, o // groups, cg * kh * kw)                          # (G, og, cg*K)
    gcols = _grouped_matmul(xp, g2, w2, groups).reshape(n, ho, wo, x_shape[1], kh * kw)
    return _col2im(xp, gcols, x_shape, (kh, kw), stride, pads, dilation)


def _weight_grad_arrays(xp, d, gd, w_shape, stride, pads, dilation, groups):
    o, cg, kh, kw = w_shape
    n, _, ho, wo = gd.shape
    cols = _im2col(xp, d, (kh, kw), stride, pads, dilation)[:, :ho, :wo].reshape(n * ho * wo, -1)
    g2 = gd.transpose(0, 2, 3, 1).reshape(n * ho * wo, o)
    c = xp.ascontiguousarray
    if groups == 1:
        return (c(g2.T) @ c(cols)).reshape(w_shape)
    og = o // groups
    gw = xp.matmul(c(g2.reshape(-1, groups, og).transpose(1, 2, 0)),
                   c(cols.reshape(-1, groups, cg * kh * kw).transpose(1, 0, 2)))   # (G, og, cg*K)
    return gw.reshape(w_shape)


# -------------------------------------------------------------------------------- convolution

_conv = dict(keep="geom x_shape w_shape",
             input=lambda grad, weight, geom, x_shape: conv2d_input_grad(grad, weight, x_shape, *geom),
             weight=lambda grad, input, geom, w_shape: conv2d_weight_grad(input, grad, w_shape, *geom))
ConvolutionBackward0 = derivative("ConvolutionBackward0", **_conv, bias=lambda grad: R.sum(grad, (0, 2, 3)))
ConvolutionNoBias = derivative("ConvolutionBackward0", **_conv)


def conv2d(x, weight, bias=None, stride=(1, 1), pads=(0, 0, 0, 0), dilation=(1, 1), groups=1):
    """Cross-correlation of a 4-D input with a (O, C/groups, kh, kw) weight; `pads` per side."""
    d, wd = x._data, weight._data
    if type(weight)._out_cls is not x._out_cls or type(wd) is not type(d):
        check_same(x._out_cls, x, weight)
    xp = backend.namespace(d)
    out = _conv_arrays(xp, d, wd, stride, pads, dilation, groups)
    if bias is not None:
        out = out + bias._data.reshape(-1, 1, 1)
    res = x._out_cls._make(out)
    if _grad_enabled() and (x._requires_grad or weight._requires_grad or
                                (bias is not None and bias._requires_grad)):
        geom = (stride, pads, dilation, groups)
        if bias is None:
            ConvolutionNoBias.record((x, weight), res, geom, d.shape, wd.shape)
        else:
            ConvolutionBackward0.record((x, weight, bias), res, geom, d.shape, wd.shape)
    return res


# Z = input_grad(G, W) is linear in each: dG = conv2d(gZ, W), dW = weight_grad(gZ, G)
ConvolutionBackwardInput = derivative(
    "ConvolutionBackwardBackward0", keep="geom w_shape",
    grad_output=lambda grad, weight, geom: conv2d(grad, weight, None, *geom),
    weight=lambda grad, grad_output, geom, w_shape: conv2d_weight_grad(grad, grad_output, w_shape, *geom))


def conv2d_input_grad(g, weight, x_shape, stride, pads, dilation, groups):
    """The gradient of conv2d with respect to its input (a transposed convolution of `g`)."""
    gd = g._data
    out = g._out_cls._make(_input_grad_arrays(backend.namespace(gd), gd, weight._data.astype(gd.dtype, copy=False),
                                              x_shape, stride, pads, dilation, groups))
    if _grad_enabled() and (g._requires_grad or weight._requires_grad):
        ConvolutionBackwardInput.record((g, weight), out, (stride, pads, dilation, groups), weight._data.shape)
    return out


# V = weight_grad(X, G) is linear in each: dX = input_grad(G, gV), dG = conv2d(X, gV)
ConvolutionBackwardWeight = derivative(
    "ConvolutionBackwardBackward0", keep="geom x_shape",
    input=lambda grad, grad_output, geom, x_shape: conv2d_input_grad(grad_output, grad, x_shape, *geom),
    grad_output=lambda grad, input, geom: conv2d(input, grad, None, *geom))


def conv2d_weight_grad(x, g, w_shape, stride, pads, dilation, groups):
    """The gradient of conv2d with respect to its weight."""
    d, gd = x._data, g._data
    out = g._out_cls._make(_weight_grad_arrays(backend.namespace(d), d, gd, w_shape, stride, pads, dilation,
                                               groups))
    if _grad_enabled() and (x._requires_grad or g._requires_grad):
        ConvolutionBackwardWeight.record((x, g), out, (stride, pads, dilation, groups), d.shape)
    return out


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
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{max(ho, 0)}x"
                           f"{max(wo, 0)}). Output size is too small")
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
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{max(ho, 0)}x"
                           f"{max(wo, 0)}). Output size is too small")
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
        raise RuntimeError(f"Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {nd}")
    widths = [(0, 0)] * nd
    crop = [slice(None)] * nd
    for i in range(len(pad) // 2):
        dim = nd - 1 - i
        lo, hi = int(pad[2 * i]), int(pad[2 * i + 1])
        crop[dim] = slice(-lo if lo < 0 else 0, d.shape[dim] + hi if hi < 0 else d.shape[dim])
        widths[dim] = (max(lo, 0), max(hi, 0))
        if d.shape[dim] + lo + hi < 0:
            raise RuntimeError(f"The input size {d.shape[dim]}, plus negative padding {lo} and {hi} resulted in a "
                               f"negative output size, which is invalid. Check dimension {dim} of your input.")
    r = d[tuple(crop)]
    if any(a or b for a, b in widths):
        r = xp.pad(r, widths, constant_values=value)
    else:
        r = r.copy()
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        ConstantPadNdBackward0.record((x,), out, tuple(int(p) for p in pad))
    return out
