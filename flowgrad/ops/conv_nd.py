"""Convolution over any number of spatial dims (N, C, *spatial), plain and transposed.

A convolution multiplies windows of its padded input by the weight. With stride 1 along the first
spatial dim and one group, the windows are taken over the other dims only and each kernel offset
along the first dim is a shift of that window matrix: one matrix product per offset, a k-th of the
copying of full windows; few channels over large images run per image in the (N, C, *spatial)
layout itself (`_image_windows`), others on channels-last rows (`_row_windows`). Otherwise the full
windows are copied out of a channels-last strided view at once (`windows_last`) and multiplied in
one product. The result is a contiguous (N, O, *spatial) array, as PyTorch's; the weight gradient
takes the forward's windows.
Its derivatives are two primitives of their own: the input gradient (at stride 1 a full
convolution of the gradient with the flipped kernel; otherwise one matrix product, then the
windows added back into place: a transposed convolution) and the weight gradient (the windows'
product with the output gradient). The three are bilinear and each one's
derivative is expressed through the others, so gradients of every order stay inside this table.
A transposed convolution is the input-gradient primitive recorded as a forward. Padding is given
per side, `(lo0, hi0, lo1, hi1, ...)` in dim order, so 'same' padding and ceil-mode pooling need
no extra copies. (`im2col` / `col2im`, channels before the kernel offset, serve pooling, unfold
and fold.)
"""
from __future__ import annotations

import itertools
import math

from .. import backend
from ._args import check_same
from ..autograd.mode import saved_hooks
from ._declare import _grad_enabled, derivative
from . import reduction as R

__all__ = ["convolution", "conv_transpose", "conv_input_grad", "conv_weight_grad", "im2col", "col2im",
           "conv_output_size", "unfold", "fold"]


# ------------------------------------------------------------------------------------ geometry

def conv_output_size(n: int, k: int, s: int, lo: int, hi: int, d: int) -> int:
    """Windows of size k (dilation d, stride s) along a dim of n cells padded by lo and hi."""
    return (n + lo + hi - d * (k - 1) - 1) // s + 1


def _windows(kernel, dilation, stride, outs):
    """For each kernel offset (in row-major order), the index of the cells it meets in every window."""
    whole = (slice(None), slice(None))
    per_dim = [[slice(o * dl, o * dl + s * (m - 1) + 1, s) for o in range(k)]
               for k, dl, s, m in zip(kernel, dilation, stride, outs)]
    return [whole + sl for sl in itertools.product(*per_dim)]


def im2col(xp, d, kernel, stride, pads, dilation, fill=0, outs=None):
    """The windows of the padded input as one contiguous (N, *out, C, prod(kernel)) array: one strided
    slice per kernel offset copied into place (plain indexing, so it runs on any array namespace).
    `outs` limits the windows taken per dim (default: all that fit)."""
    n, c, *size = d.shape
    nd = len(size)
    if outs is None:
        outs = tuple(conv_output_size(size[i], kernel[i], stride[i], pads[2 * i], pads[2 * i + 1], dilation[i])
                     for i in range(nd))
    if any(pads):
        d = xp.pad(d, ((0, 0), (0, 0)) + tuple((pads[2 * i], pads[2 * i + 1]) for i in range(nd)),
                   constant_values=fill)
    cols = xp.empty((n, *outs, c, math.prod(kernel)), dtype=d.dtype)
    to_last = (0, *range(2, nd + 2), 1)
    for j, window in enumerate(_windows(kernel, dilation, stride, outs)):
        cols[..., j] = d[window].transpose(to_last)
    return cols


def col2im(xp, gcols, x_shape, kernel, stride, pads, dilation):
    """The adjoint of im2col: add each window's (N, *out, C, prod(kernel)) entries back where they came from."""
    n, c, *size = x_shape
    nd = len(size)
    outs = gcols.shape[1:nd + 1]
    gx = xp.zeros((n, c) + tuple(size[i] + pads[2 * i] + pads[2 * i + 1] for i in range(nd)), dtype=gcols.dtype)
    to_channels = (0, nd + 1, *range(1, nd + 1))
    for j, window in enumerate(_windows(kernel, dilation, stride, outs)):
        gx[window] += gcols[..., j].transpose(to_channels)
    return gx[(slice(None), slice(None)) + tuple(slice(pads[2 * i], pads[2 * i] + size[i]) for i in range(nd))]


def _grouped_matmul(xp, a, b, groups):
    """(M, G*K) @ per-group (G, K, P) -> (M, G*P); one GEMM when groups == 1."""
    if groups == 1:
        return a @ b[0]
    m = a.shape[0]
    out = xp.matmul(xp.ascontiguousarray(a.reshape(m, groups, -1).transpose(1, 0, 2)), b)   # (G, M, P)
    return out.transpose(1, 0, 2).reshape(m, -1)


def _channels_last(gd):
    """(N, O, *out) -> (N * prod(out), O) (a copy unless the array's memory is channels-last)."""
    return gd.transpose(0, *range(2, gd.ndim), 1).reshape(-1, gd.shape[1])


def _channels_first(xp, out2d, lead):
    """(N * prod(out), O) -> a contiguous (N, O, *out) array, as PyTorch's convolutions return."""
    out = out2d.reshape(*lead, out2d.shape[-1])
    return xp.ascontiguousarray(out.transpose(0, len(lead), *range(1, len(lead))))


def _extent(size, kernel, stride, pads, dilation, outs):
    """The padded extent per dim that the windows reach (at least the padded input: zeros beyond,
    never memory outside)."""
    return [max(size[i] + pads[2 * i] + pads[2 * i + 1], (outs[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1)
            for i in range(len(size))]


def _padded_last(xp, d, kernel, stride, pads, dilation, outs):
    """The (N, C, *spatial) input laid out channels-last and zero-padded to `_extent`: one copy."""
    n, c, *size = d.shape
    nd = len(size)
    ext = _extent(size, kernel, stride, pads, dilation, outs)
    last = d.transpose(0, *range(2, nd + 2), 1)
    if any(pads) or ext != size:
        padded = xp.zeros((n, *ext, c), dtype=d.dtype)
        padded[(slice(None),) + tuple(slice(pads[2 * i], pads[2 * i] + size[i]) for i in range(nd))] = last
        return padded
    return xp.ascontiguousarray(last)


def _outs(d, kernel, stride, pads, dilation, outs):
    if outs is not None:
        return tuple(outs)
    size = d.shape[2:]
    return tuple(conv_output_size(size[i], kernel[i], stride[i], pads[2 * i], pads[2 * i + 1], dilation[i])
                 for i in range(len(size)))


def windows_last(xp, d, kernel, stride, pads, dilation, outs=None):
    """The windows of the zero-padded (N, C, *spatial) input as a contiguous (N * prod(out), K * C)
    array, channels innermost: the input is laid out channels-last and padded (one copy), then the
    windows are a strided view of it copied out at once. `outs` limits the windows per dim."""
    outs = _outs(d, kernel, stride, pads, dilation, outs)
    nd = len(outs)
    last = _padded_last(xp, d, kernel, stride, pads, dilation, outs)
    st = last.strides
    view = xp.lib.stride_tricks.as_strided(
        last, shape=(d.shape[0], *outs, *kernel, d.shape[1]),
        strides=(st[0], *(st[1 + i] * stride[i] for i in range(nd)), *(st[1 + i] * dilation[i] for i in range(nd)),
                 st[-1]))
    return xp.ascontiguousarray(view).reshape(-1, math.prod(kernel) * d.shape[1]), (d.shape[0], *outs)


# Row-shifted windows (stride 1 along the first spatial dim, one group): the windows are taken over
# every spatial dim but the first, keeping all of the first dim's padded extent, so kernel offset i
# along the first dim is a shift by i * dilation * prod(outs[1:]) rows of the flattened window
# matrix. The product sums one matrix product per offset over contiguous row ranges (for a 3x3
# kernel a third of the copying of full windows); rows whose first-dim position lies beyond the
# output are computed and dropped.

def _shifts_apply(d, stride, groups) -> bool:
    """Whether the row shifts serve: one group, stride 1 along the first spatial dim, a real
    floating dtype (bfloat16 and complex take the full windows)."""
    return groups == 1 and stride[0] == 1 and d.dtype.kind == "f"


def _row_windows(xp, d, kernel, stride, pads, dilation, outs):
    """(windows, ext): the windows over dims 1.. of the channels-last padded input, a contiguous
    (N * ext * prod(outs[1:]), prod(kernel[1:]) * C) array, and the padded extent ext of dim 0."""
    last = _padded_last(xp, d, kernel, stride, pads, dilation, outs)
    nd = len(outs)
    st = last.strides
    view = xp.lib.stride_tricks.as_strided(
        last, shape=(last.shape[0], last.shape[1], *outs[1:], *kernel[1:], last.shape[-1]),
        strides=(st[0], st[1], *(st[1 + i] * stride[i] for i in range(1, nd)),
                 *(st[1 + i] * dilation[i] for i in range(1, nd)), st[-1]))
    return xp.ascontiguousarray(view).reshape(-1, math.prod(kernel[1:]) * d.shape[1]), last.shape[1]


def _shifted_conv(xp, d, wd, stride, pads, dilation, outs, bias):
    """The convolution by row-shifted windows (see above): a contiguous (N, O, *outs) array, and the
    windows (`_row_windows`)."""
    o, c, *kernel = wd.shape
    cols, ext = windows = _row_windows(xp, d, kernel, stride, pads, dilation, outs)
    step = dilation[0] * math.prod(outs[1:])
    rows = cols.shape[0] - (kernel[0] - 1) * step
    w = wd.reshape(o, c, kernel[0], -1).transpose(2, 3, 1, 0).reshape(kernel[0], -1, o)   # (k0, K1 * C, O)
    full = xp.empty((cols.shape[0], o), dtype=d.dtype)
    out = full[:rows]
    xp.matmul(cols[:rows], w[0], out=out)
    for i in range(1, kernel[0]):
        out += cols[i * step:i * step + rows] @ w[i]
    if bias is not None:
        out += bias
    out = full.reshape(d.shape[0], ext, *outs[1:], o)[:, :outs[0]]
    return xp.ascontiguousarray(out.transpose(0, d.ndim - 1, *range(1, d.ndim - 1))), windows


def _shifted_weight_grad(xp, d, gd, w_shape, stride, pads, dilation, windows=None):
    """The weight gradient by row-shifted windows of the input (`windows`: the forward's): one
    product per first-dim offset."""
    o, c, *kernel = w_shape
    outs = gd.shape[2:]
    cols, ext = windows or _row_windows(xp, d, kernel, stride, pads, dilation, outs)
    step = dilation[0] * math.prod(outs[1:])
    rows = cols.shape[0] - (kernel[0] - 1) * step
    g = xp.zeros((gd.shape[0], ext, *outs[1:], o), dtype=gd.dtype)
    g[:, :outs[0]] = gd.transpose(0, *range(2, gd.ndim), 1)
    g = g.reshape(-1, o)[:rows]
    gw = xp.empty((kernel[0], cols.shape[1], o), dtype=gd.dtype)
    for i in range(kernel[0]):
        gw[i] = cols[i * step:i * step + rows].T @ g                            # (K1 * C, O)
    gw = gw.reshape(kernel[0], -1, c, o)                                         # (k0, K1, C, O)
    return xp.ascontiguousarray(gw.transpose(3, 2, 0, 1)).reshape(w_shape)


# The same shifts in the (N, C, *spatial) layout itself, for images of many output positions: the
# windows of each image are a (C * prod(kernel[1:]), ext * prod(outs[1:])) matrix (copied from the
# input without a transposition), kernel offset i along the first dim a shift of its columns, and
# each offset one batched product whose result is already (N, O, *outs).

def _per_image(channels, outs):
    """Whether the shifts run per image (`_image_conv`) rather than on channels-last rows: measured
    faster for few channels (the layout changes cost most per element there) and images of at
    least 64 output positions (fewer make many small products)."""
    return channels <= 16 and math.prod(outs) >= 64


def _image_windows(xp, d, kernel, stride, pads, dilation, outs):
    """(windows, ext): each image's windows over dims 1.., a contiguous
    (N, C * prod(kernel[1:]), ext * prod(outs[1:])) array, and the padded extent ext of dim 0. Copied
    straight from the input, one slice per kernel offset over dims 1.. (zeros where it meets padding)."""
    n, c, *size = d.shape
    ext = _extent(size, kernel, stride, pads, dilation, outs)[0]
    cols = xp.zeros((n, c, *kernel[1:], ext, *outs[1:]), dtype=d.dtype)
    rows = slice(pads[0], pads[0] + size[0])
    for offsets in itertools.product(*(range(k) for k in kernel[1:])):
        into, take = [], []
        for i, j in enumerate(offsets, start=1):
            s, first = stride[i], j * dilation[i] - pads[2 * i]      # the input index output 0 reads
            a, b = max(0, (s - 1 - first) // s), min(outs[i], (size[i] - 1 - first) // s + 1)
            if b <= a:
                break
            into.append(slice(a, b))
            take.append(slice(a * s + first, (b - 1) * s + first + 1, s))
        else:
            cols[(slice(None), slice(None), *offsets, rows, *into)] = d[(slice(None), slice(None), slice(None), *take)]
    return cols.reshape(n, c * math.prod(kernel[1:]), -1), ext


def _image_conv(xp, d, wd, stride, pads, dilation, outs, bias):
    """The convolution by shifted windows per image: a contiguous (N, O, *outs) array, and the windows."""
    o, c, *kernel = wd.shape
    cols, ext = windows = _image_windows(xp, d, kernel, stride, pads, dilation, outs)
    step = dilation[0] * math.prod(outs[1:])
    span = outs[0] * math.prod(outs[1:])
    w = xp.moveaxis(wd, 2, 0).reshape(kernel[0], o, -1)                         # (k0, O, C * K1)
    out = xp.matmul(w[0], cols[:, :, :span])
    for i in range(1, kernel[0]):
        out += xp.matmul(w[i], cols[:, :, i * step:i * step + span])
    if bias is not None:
        out += bias[:, None]
    return out.reshape(d.shape[0], o, *outs), windows


def _image_weight_grad(xp, d, gd, w_shape, stride, pads, dilation, windows=None):
    """The weight gradient by shifted windows per image: one batched product per first-dim offset."""
    o, c, *kernel = w_shape
    outs = gd.shape[2:]
    cols, ext = windows or _image_windows(xp, d, kernel, stride, pads, dilation, outs)
    step = dilation[0] * math.prod(outs[1:])
    span = outs[0] * math.prod(outs[1:])
    g = gd.reshape(gd.shape[0], o, span)
    gw = xp.empty((kernel[0], o, cols.shape[1]), dtype=gd.dtype)
    for i in range(kernel[0]):
        gw[i] = xp.matmul(g, cols[:, :, i * step:i * step + span].transpose(0, 2, 1)).sum(0)   # (O, C * K1)
    gw = gw.reshape(kernel[0], o, c, *kernel[1:])
    return xp.ascontiguousarray(xp.moveaxis(gw, 0, 2))


def _weight_rows(wd, groups):
    """An (O, C/groups, *kernel) weight as per-group (G, K * C/groups, O/groups) matrices, rows in
    windows_last's (kernel offset, channel) order."""
    o, cg = wd.shape[:2]
    w = wd.reshape(groups, o // groups, cg, -1).transpose(0, 3, 2, 1)           # (G, K, cg, og)
    return w.reshape(groups, -1, o // groups)


def _grouped_cols(cols, groups, k):
    """windows_last's (M, K * C) columns as (M, G * K * cg): each group's channels together."""
    if groups == 1:
        return cols
    m = cols.shape[0]
    return cols.reshape(m, k, groups, -1).transpose(0, 2, 1, 3).reshape(m, -1)


def _conv_arrays(xp, d, wd, stride, pads, dilation, groups, outs=None, bias=None):
    """The convolution's (N, O, *out) array and the windows it multiplied, which the weight
    gradient can take instead of copying them again."""
    kernel = wd.shape[2:]
    if _shifts_apply(d, stride, groups):
        outs = _outs(d, kernel, stride, pads, dilation, outs)
        shifted = _image_conv if _per_image(d.shape[1], outs) else _shifted_conv
        return shifted(xp, d, wd, stride, pads, dilation, outs, bias)
    cols, lead = windows_last(xp, d, kernel, stride, pads, dilation, outs)
    out = _grouped_matmul(xp, _grouped_cols(cols, groups, math.prod(kernel)), _weight_rows(wd, groups), groups)
    if bias is not None:
        out += bias      # (the product is a fresh (M, O) array: the bias broadcasts along its rows)
    out = _channels_first(xp, out, lead)
    return (out.astype(d.dtype) if d.dtype.kind == "V" else out), cols   # (bfloat16's product is float32)


def _flipped(wd, groups):
    """The weight of the input gradient as a convolution: (C, O/groups, *kernel), kernel reversed."""
    o, cg, *kernel = wd.shape
    og = o // groups
    w = wd.reshape(groups, og, cg, *kernel).swapaxes(1, 2).reshape(groups * cg, og, *kernel)
    return w[(slice(None), slice(None)) + (slice(None, None, -1),) * len(kernel)]


def _input_grad_arrays(xp, gd, wd, x_shape, stride, pads, dilation, groups):
    o, cg, *kernel = wd.shape
    nd = len(kernel)
    reach = [dilation[i] * (kernel[i] - 1) for i in range(nd)]
    if all(s == 1 for s in stride) and all(p <= reach[i // 2] for i, p in enumerate(pads)):
        # stride 1: a full convolution of the gradient with the flipped kernel (one more im2col)
        full = tuple(reach[i // 2] - p for i, p in enumerate(pads))
        return _conv_arrays(xp, gd, _flipped(wd, groups), stride, full, dilation, groups, tuple(x_shape[2:]))[0]
    w2 = wd.reshape(groups, o // groups, -1)                                     # (G, og, cg*K)
    gcols = _grouped_matmul(xp, _channels_last(gd), w2, groups)
    gcols = gcols.reshape(gd.shape[:1] + gd.shape[2:] + (x_shape[1], math.prod(kernel)))
    out = col2im(xp, gcols, x_shape, kernel, stride, pads, dilation)
    return out.astype(gd.dtype) if gd.dtype.kind == "V" else out


def _weight_grad_arrays(xp, d, gd, w_shape, stride, pads, dilation, groups, windows=None):
    """`windows`: the forward's windows of `d` (the second result of `_conv_arrays`), if kept."""
    o, cg, *kernel = w_shape
    if _shifts_apply(d, stride, groups):
        shifted = _image_weight_grad if _per_image(d.shape[1], gd.shape[2:]) else _shifted_weight_grad
        return shifted(xp, d, gd, w_shape, stride, pads, dilation, windows)
    k = math.prod(kernel)
    cols = windows if windows is not None else windows_last(xp, d, kernel, stride, pads, dilation, gd.shape[2:])[0]
    g2 = _channels_last(gd)
    og = o // groups
    if groups == 1:
        gw = (g2.T @ cols)[None]                                                # (1, O, K*C)
    else:
        gw = xp.matmul(g2.reshape(-1, groups, og).transpose(1, 2, 0),
                       cols.reshape(cols.shape[0], k, groups, cg).transpose(2, 0, 1, 3).reshape(groups, -1, k * cg))
    gw = gw.reshape(groups, og, *kernel, cg)                                     # (G, og, *kernel, cg)
    gw = xp.ascontiguousarray(xp.moveaxis(gw, -1, 2)).reshape(w_shape)
    return gw.astype(d.dtype) if d.dtype.kind == "V" else gw


def _bias_grad(grad):
    return R.sum(grad, (0,) + tuple(range(2, grad.ndim)))


def _with_bias(out, bias):
    if bias is None:
        return out
    return out + bias._data.reshape((-1,) + (1,) * (out.ndim - 2))


def _requires(*ts):
    return _grad_enabled() and any(t is not None and t._requires_grad for t in ts)


def _check_same(x, weight):
    if type(weight)._out_cls is not x._out_cls or type(weight._data) is not type(x._data):
        check_same(x._out_cls, x, weight)


# -------------------------------------------------------------------------------- convolution

# `windows`, the forward's, saved only where the weight needs a gradient (and not under saved-tensor
# hooks, which decide where saved memory lives), spare the weight gradient copying them again
_conv = dict(keep="geom x_shape w_shape", save="windows",
             input=lambda grad, weight, geom, x_shape: conv_input_grad(grad, weight, x_shape, *geom),
             weight=lambda grad, input, windows, geom, w_shape: conv_weight_grad(input, grad, w_shape, *geom,
                                                                                 windows))
ConvolutionBackward0 = derivative("ConvolutionBackward0", **_conv, bias=_bias_grad)
ConvolutionNoBias = derivative("ConvolutionBackward0", **_conv)


def convolution(x, weight, bias=None, stride=(1, 1), pads=(0, 0, 0, 0), dilation=(1, 1), groups=1, outs=None):
    """Cross-correlation of an (N, C, *spatial) input with an (O, C/groups, *kernel) weight; `pads`
    per side; `outs` limits the output's spatial size (default: every window that fits)."""
    _check_same(x, weight)
    d, wd = x._data, weight._data
    out, windows = _conv_arrays(backend.namespace(d), d, wd, stride, pads, dilation, groups, outs,
                                None if bias is None else bias._data)
    res = x._out_cls._make(out)
    if _requires(x, weight, bias):
        geom = (stride, pads, dilation, groups)
        if saved_hooks():
            windows = None
        if bias is None:
            ConvolutionNoBias.record((x, weight), res, windows, geom, d.shape, wd.shape)
        else:
            ConvolutionBackward0.record((x, weight, bias), res, windows, geom, d.shape, wd.shape)
    return res


# Y = conv_transpose(X, W) is the input-gradient primitive run forward: dX = conv(gY, W) (cut to X's
# size), dW = weight_grad(gY, X).
_transposed = dict(
    keep="geom w_shape x_spatial",
    input=lambda grad, weight, geom, x_spatial: convolution(grad, weight, None, *geom, x_spatial),
    weight=lambda grad, input, geom, w_shape: conv_weight_grad(grad, input, w_shape, *geom))
ConvTransposeBackward = derivative("ConvolutionBackward0", **_transposed, bias=_bias_grad)
ConvTransposeNoBias = derivative("ConvolutionBackward0", **_transposed)


def conv_transpose(x, weight, bias, stride, pads, dilation, groups, out_spatial):
    """The transposed convolution of an (N, Cin, *spatial) input with a (Cin, Cout/groups, *kernel)
    weight onto an output of spatial size `out_spatial` (`pads` crop it per side)."""
    _check_same(x, weight)
    d, wd = x._data, weight._data
    out_shape = (d.shape[0], wd.shape[1] * groups) + tuple(out_spatial)
    out = _input_grad_arrays(backend.namespace(d), d, wd, out_shape, stride, pads, dilation, groups)
    res = x._out_cls._make(_with_bias(out, bias))
    if _requires(x, weight, bias):
        geom = (stride, pads, dilation, groups)
        if bias is None:
            ConvTransposeNoBias.record((x, weight), res, geom, wd.shape, d.shape[2:])
        else:
            ConvTransposeBackward.record((x, weight, bias), res, geom, wd.shape, d.shape[2:])
    return res


# Z = input_grad(G, W) is linear in each: dG = conv(gZ, W) (cut to G's size), dW = weight_grad(gZ, G)
ConvolutionBackwardInput = derivative(
    "ConvolutionBackwardBackward0", keep="geom w_shape g_spatial",
    grad_output=lambda grad, weight, geom, g_spatial: convolution(grad, weight, None, *geom, g_spatial),
    weight=lambda grad, grad_output, geom, w_shape: conv_weight_grad(grad, grad_output, w_shape, *geom))


def conv_input_grad(g, weight, x_shape, stride, pads, dilation, groups):
    """The gradient of a convolution with respect to its input (a transposed convolution of `g`)."""
    gd = g._data
    out = g._out_cls._make(_input_grad_arrays(backend.namespace(gd), gd, weight._data.astype(gd.dtype, copy=False),
                                              x_shape, stride, pads, dilation, groups))
    if _requires(g, weight):
        ConvolutionBackwardInput.record((g, weight), out, (stride, pads, dilation, groups), weight._data.shape,
                                        gd.shape[2:])
    return out


# V = weight_grad(X, G) is linear in each: dX = input_grad(G, gV), dG = conv(X, gV) (cut to G's size)
ConvolutionBackwardWeight = derivative(
    "ConvolutionBackwardBackward0", keep="geom x_shape g_spatial",
    input=lambda grad, grad_output, geom, x_shape: conv_input_grad(grad_output, grad, x_shape, *geom),
    grad_output=lambda grad, input, geom, g_spatial: convolution(input, grad, None, *geom, g_spatial))


def conv_weight_grad(x, g, w_shape, stride, pads, dilation, groups, windows=None):
    """The gradient of a convolution with respect to its weight (`windows`: the forward's of x)."""
    d, gd = x._data, g._data
    out = g._out_cls._make(_weight_grad_arrays(backend.namespace(d), d, gd, w_shape, stride, pads, dilation,
                                               groups, windows))
    if _requires(x, g):
        ConvolutionBackwardWeight.record((x, g), out, (stride, pads, dilation, groups), d.shape, gd.shape[2:])
    return out


# ------------------------------------------------------------------------------- unfold / fold

# unfold (im2col) and fold (col2im) are linear and each other's adjoint: each one's gradient is the other
Im2ColBackward0 = derivative("Im2ColBackward0", keep="spatial geom",
                             self=lambda grad, spatial, geom: fold(grad, spatial, *geom))
Col2ImBackward0 = derivative("Col2ImBackward0", keep="geom", self=lambda grad, geom: unfold(grad, *geom))


def unfold(x, kernel, dilation, padding, stride):
    """(N, C, *spatial) -> (N, C * prod(kernel), blocks): every sliding block as a column."""
    d = x._data
    n, c = d.shape[:2]
    nd = d.ndim - 2
    pads = tuple(p for p in padding for _ in range(2))
    cols = im2col(backend.namespace(d), d, kernel, stride, pads, dilation)       # (N, *out, C, K)
    cols = cols.transpose(0, nd + 1, nd + 2, *range(1, nd + 1)).reshape(n, c * math.prod(kernel),
                                                                        math.prod(cols.shape[1:nd + 1]))
    out = x._out_cls._make(cols)
    if _requires(x):
        Im2ColBackward0.record((x,), out, d.shape[2:], (kernel, dilation, padding, stride))
    return out


def fold(x, spatial, kernel, dilation, padding, stride):
    """The adjoint of unfold: (N, C * prod(kernel), blocks) columns summed back into (N, C, *spatial)."""
    d = x._data
    n = d.shape[0]
    nd = len(spatial)
    k = math.prod(kernel)
    c = d.shape[1] // k
    pads = tuple(p for p in padding for _ in range(2))
    outs = tuple(conv_output_size(spatial[i], kernel[i], stride[i], padding[i], padding[i], dilation[i])
                 for i in range(nd))
    gcols = d.reshape((n, c, k) + outs).transpose(0, *range(3, nd + 3), 1, 2)
    out = x._out_cls._make(col2im(backend.namespace(d), gcols, (n, c) + tuple(spatial), kernel, stride, pads,
                                  dilation))
    if _requires(x):
        Col2ImBackward0.record((x,), out, (kernel, dilation, padding, stride))
    return out
