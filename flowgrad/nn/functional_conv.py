"""The functional convolutions (PyTorch's F.conv1d/2d/3d, F.conv_transpose1d/2d/3d): arguments
checked in ATen's order and with its messages, then one call of the N-d primitives of
flowgrad.ops.conv_nd. An unbatched input runs as a batch of one."""
from __future__ import annotations

import numpy as np

from .. import ops
from ..ops import conv_nd as _nd

__all__ = ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "unfold", "fold"]

_C_TYPES = {"float16": "c10::Half", "float32": "float", "float64": "double"}


def _dims(shape) -> str:
    """A shape as C++ prints a size in PyTorch's messages: [2, 3]."""
    return f"[{', '.join(map(str, shape))}]"


def _ntuple(v, n: int) -> tuple:
    """An int argument as the n values the Python binding expands it to; a sequence as given."""
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


def _pair(v, policy) -> tuple:
    """PyTorch's Python `_pair`: an iterable as its items (a tensor's too: a 0-d one refuses), else twice."""
    if isinstance(v, ops.Tensor):
        if v._data.ndim == 0:
            raise policy.errors.iter_0d()
        return tuple(v)
    return _ntuple(v, 2)


def _expand(name: str, values: tuple, dims: int, policy) -> tuple:
    """ATen's expand_param_if_needed: one value serves every dim, otherwise one per dim."""
    if len(values) == 1:
        return values * dims
    if len(values) != dims:
        raise policy.errors.conv_param_length(name=name, dims=dims, value=list(values))
    return values


def _batched(input, spatial: int, fn: str):
    d = input._data
    if d.ndim not in (spatial + 1, spatial + 2):
        raise input.policy.errors.nn_conv2d_input_dim(unbatched=spatial + 1, batched=spatial + 2, fn=fn,
                                 size=_dims(d.shape))
    unbatched = d.ndim == spatial + 1
    return (ops.unsqueeze(input, 0) if unbatched else input), unbatched


def _check(x, weight, bias, stride, padding, dilation, groups, output_padding, transposed, same=False):
    """check_shape_forward and the checks before it; returns the expanded (stride, padding, dilation,
    output_padding). 'same' padding (`same`) leaves room for the kernel in all but an empty input."""
    policy = x.policy
    xs, ws = x._data.shape, weight._data.shape
    if len(ws) < 3:
        raise policy.errors.nn_conv2d_weight_dim()
    k = len(ws) - 2
    stride, padding, dilation, output_padding = (
        _expand(name, v, k, policy) for name, v in (("stride", stride), ("padding", padding),
                                                      ("dilation", dilation), ("output_padding", output_padding)))
    if groups <= 0:
        raise policy.errors.conv_nonpositive_groups()
    if any(p < 0 for p in padding):
        raise policy.errors.conv_negative_padding()
    if any(p < 0 for p in output_padding):
        raise policy.errors.conv_negative_output_padding()
    if any(s <= 0 for s in stride):
        raise policy.errors.conv_nonpositive_stride()
    if any(dl < 0 for dl in dilation):
        raise policy.errors.conv_negative_dilation()
    if len(xs) != len(ws):
        raise policy.errors.conv_weight_input_dims(dims=len(ws), weight=_dims(ws), got=len(xs), input=_dims(xs))
    if ws[0] < groups:
        raise policy.errors.conv_weight_below_groups(groups=groups, weight=_dims(ws))
    if ws[0] % groups:
        raise policy.errors.nn_conv2d_weight_groups(groups=groups, weight=_dims(ws))
    bias_shape = None if bias is None else bias._data.shape
    if not transposed:
        if xs[1] != ws[1] * groups:
            raise policy.errors.nn_conv2d_channels(groups=groups, weight=_dims(ws), input=_dims(xs),
                               expected=ws[1] * groups, got=xs[1])
        if bias is not None and bias_shape != (ws[0],):
            raise policy.errors.nn_conv2d_bias(weight=_dims(ws), expected=ws[0], bias=_dims(bias_shape))
        kernel = [dilation[i] * (ws[2 + i] - 1) + 1 for i in range(k)]
        padded = [xs[2 + i] + (kernel[i] - 1 if same else 2 * padding[i]) for i in range(k)]
        if any(p < kk for p, kk in zip(padded, kernel)):   # ('same': only an empty input)
            raise policy.errors.nn_conv2d_kernel_size(padded=" x ".join(map(str, padded)),
                               kernel=" x ".join(map(str, kernel)))
    else:
        if xs[1] != ws[0]:
            raise policy.errors.conv_transposed_channels(weight=_dims(ws), input=_dims(xs), expected=ws[0],
                               got=xs[1])
        if bias is not None and bias_shape != (ws[1] * groups,):
            raise policy.errors.conv_transposed_bias(weight=_dims(ws), expected=ws[1] * groups,
                               bias=_dims(bias_shape))
    if x._data.dtype != weight._data.dtype:
        raise policy.errors.nn_conv2d_dtype(want_scalar=x._data.dtype, got_scalar=weight._data.dtype)
    if bias is not None and bias._data.dtype != x._data.dtype:
        raise policy.errors.conv_bias_dtype(input_type=_C_TYPES.get(str(x._data.dtype), x._data.dtype),
                           bias_type=_C_TYPES.get(str(bias._data.dtype), bias._data.dtype))
    if any(dl == 0 for dl in dilation):
        raise policy.errors.conv_zero_dilation()
    return stride, padding, dilation, output_padding


def _same_padding(kernel, dilation) -> tuple:
    """'same' padding per side: the odd cell goes after, as PyTorch pads it."""
    pads = []
    for k, dl in zip(kernel, dilation):
        total = dl * (k - 1)
        pads += [total // 2, total - total // 2]
    return tuple(pads)


def _conv(fn: str, spatial: int, input, weight, bias, stride, padding, dilation, groups):
    x, unbatched = _batched(input, spatial, fn)
    policy = input.policy
    mode = None
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise policy.errors.nn_conv2d_padding_string(padding=padding)
        mode, padding = padding, 0
    stride, padding, dilation = (_int_tuple(fn, name, v, spatial, policy) for name, v in
                                 (("stride", stride), ("padding", padding), ("dilation", dilation)))
    stride, padding, dilation, _ = _check(x, weight, bias, stride, padding, dilation, groups, (0,), False,
                                          mode == "same")
    if mode == "same":
        if any(s != 1 for s in stride):
            raise policy.errors.nn_conv2d_same_strided()
        pads = _same_padding(weight._data.shape[2:], dilation)
    else:
        pads = tuple(p for p in padding for _ in range(2))
    out = _nd.convolution(x, weight, bias, stride, pads, dilation, groups)
    return ops.squeeze(out, 0) if unbatched else out


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups: int = 1):
    return _conv("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups: int = 1):
    return _conv("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups: int = 1):
    return _conv("conv3d", 3, input, weight, bias, stride, padding, dilation, groups)


def _int_tuple(fn: str, name: str, v, spatial: int, policy) -> tuple:
    """An int or a sequence of ints, as the Python binding accepts a `tuple of ints` argument."""
    values = _ntuple(v, spatial)
    if not all(isinstance(e, (int, np.integer)) and not isinstance(e, bool) for e in values):
        raise policy.errors.conv_param_ints(fn=fn, name=name, type_name=type(v).__name__)
    return tuple(int(e) for e in values)


def _per_axis(output_padding, stride, dilation) -> str:
    """The transposed geometry as ATen's shape check lists it ("stride_height: 1 stride_width: 2 ...");
    a 1-d convolution runs as a 2-d one of height 1."""
    if len(stride) == 1:
        output_padding, stride, dilation = (0,) + output_padding, (1,) + stride, (1,) + dilation
    axes = ("depth", "height", "width")[-len(stride):]
    return " ".join(f"{what}_{axis}: {v}" for what, values in
                    (("output_padding", output_padding), ("stride", stride), ("dilation", dilation))
                    for axis, v in zip(axes, values))


def transposed_size(in_spatial, kernel, stride, padding, dilation) -> list:
    """A transposed convolution's output size per spatial dim with no output padding."""
    return [(i - 1) * s - 2 * p + d * (k - 1) + 1 for i, k, s, p, d in zip(in_spatial, kernel, stride, padding,
                                                                              dilation)]


def _conv_transpose(fn: str, spatial: int, input, weight, bias, stride, padding, output_padding, groups, dilation):
    x, unbatched = _batched(input, spatial, fn)
    policy = input.policy
    stride, padding, output_padding, dilation = (
        _int_tuple(fn, name, v, spatial, policy) for name, v in (("stride", stride), ("padding", padding),
                                                                  ("output_padding", output_padding),
                                                                  ("dilation", dilation)))
    stride, padding, dilation, output_padding = _check(x, weight, bias, stride, padding, dilation, groups,
                                                       output_padding, True)
    k = len(stride)
    if any(op >= s and op >= dl for op, s, dl in zip(output_padding, stride, dilation)):
        raise policy.errors.conv_output_padding(values=_per_axis(output_padding, stride, dilation))
    in_spatial = x._data.shape[2:]
    ks = weight._data.shape[2:]
    out_spatial = tuple(size + op for size, op in zip(transposed_size(in_spatial, ks, stride, padding, dilation),
                                                       output_padding))
    if any(o < 1 for o in out_spatial):
        lead = (1,) if k == 1 else ()
        raise policy.errors.conv_transposed_output_size(input=" x ".join(map(str, lead + tuple(in_spatial))),
                           output=" x ".join(map(str, lead + out_spatial)))
    pads = tuple(p for p in padding for _ in range(2))
    out = _nd.conv_transpose(x, weight, bias, stride, pads, dilation, groups, out_spatial)
    return ops.squeeze(out, 0) if unbatched else out


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups: int = 1, dilation=1):
    return _conv_transpose("conv_transpose1d", 1, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups: int = 1, dilation=1):
    return _conv_transpose("conv_transpose2d", 2, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups: int = 1, dilation=1):
    return _conv_transpose("conv_transpose3d", 3, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


# ------------------------------------------------------------------------------- unfold / fold

def _fold_params(policy, kernel_size, dilation, padding, stride) -> tuple:
    """(kernel, dilation, padding, stride) as pairs, checked in ATen's order."""
    values = []
    for name, v in (("kernel_size", kernel_size), ("dilation", dilation), ("padding", padding), ("stride", stride)):
        v = _pair(v, policy)
        if len(v) != 2:
            raise policy.errors.fold_param_len(name=name, size=len(v))
        values.append(tuple(ops.int_argument(e, policy) for e in v))
    kernel, dilation, padding, stride = values
    if min(kernel) <= 0:
        raise policy.errors.fold_kernel_positive(h=kernel[0], w=kernel[1])
    if min(dilation) <= 0:
        raise policy.errors.fold_dilation_positive(h=dilation[0], w=dilation[1])
    if min(padding) < 0:
        raise policy.errors.fold_padding_negative(h=padding[0], w=padding[1])
    if min(stride) <= 0:
        raise policy.errors.fold_stride_positive(h=stride[0], w=stride[1])
    return kernel, dilation, padding, stride


def _blocks(spatial, kernel, dilation, padding, stride) -> tuple:
    return tuple((spatial[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1 for i in range(2))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """im2col: (N, C, H, W) -> (N, C * kh * kw, L), every sliding block as a column."""
    policy = input.policy
    if isinstance(kernel_size, (tuple, list)) and len(kernel_size) != 2:
        raise policy.errors.fold_param_len(name="kernel_size", size=len(kernel_size))
    kernel, dilation, padding, stride = _fold_params(policy, kernel_size, dilation, padding, stride)
    shape = input._data.shape
    if len(shape) not in (3, 4) or any(s == 0 for s in shape[-3:]):
        raise policy.errors.unfold_input_dims(size=_dims(shape))
    blocks = _blocks(shape[-2:], kernel, dilation, padding, stride)
    if min(blocks) < 1:
        raise policy.errors.unfold_blocks(h=shape[-2], w=shape[-1], kernel=kernel, dilation=dilation,
                           padding=padding, blocks=blocks)
    if input._data.dtype.kind in "iu":
        raise policy.errors.not_implemented_for(op="im2col_out_cpu", dtype_scalar=input._data.dtype)
    unbatched = len(shape) == 3
    x = ops.unsqueeze(input, 0) if unbatched else input
    out = _nd.unfold(x, kernel, dilation, padding, stride)
    return ops.squeeze(out, 0) if unbatched else out


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """col2im, the adjoint of unfold: (N, C * kh * kw, L) -> (N, C, H, W), overlapping values summed."""
    policy = input.policy
    size = _pair(output_size, policy)
    if len(size) != 2:
        raise policy.errors.fold_param_len(name="output_size", size=len(size))
    size = tuple(ops.int_argument(s, policy) for s in size)
    kernel, dilation, padding, stride = _fold_params(policy, kernel_size, dilation, padding, stride)
    shape = input._data.shape
    if len(shape) not in (2, 3) or any(s == 0 for s in shape[-2:]):
        raise policy.errors.fold_input_dims(size=_dims(shape))
    k = kernel[0] * kernel[1]
    if shape[-2] % k:
        raise policy.errors.fold_divisible(size=shape[-2], kernel=kernel)
    blocks = _blocks(size, kernel, dilation, padding, stride)
    if blocks[0] * blocks[1] != shape[-1]:
        raise policy.errors.fold_blocks(size=tuple(size), kernel=kernel, dilation=dilation, padding=padding,
                           stride=stride, bh=blocks[0], bw=blocks[1], blocks=blocks[0] * blocks[1], got=shape[-1])
    if input._data.dtype.kind in "iu":
        raise policy.errors.not_implemented_for(op="col2im_out_cpu", dtype_scalar=input._data.dtype)
    unbatched = len(shape) == 2
    x = ops.unsqueeze(input, 0) if unbatched else input
    out = _nd.fold(x, tuple(int(s) for s in size), kernel, dilation, padding, stride)
    return ops.squeeze(out, 0) if unbatched else out
