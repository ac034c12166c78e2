"""The functional poolings (PyTorch's F.max_pool1d/2d/3d, F.avg_pool1d/2d/3d and the adaptive ones).

1-d pooling runs as 2-d pooling of height 1, as PyTorch runs it; 2-d and 3-d pooling on the
primitives of flowgrad.ops.pooling. Adaptive average pooling multiplies
each spatial dim by a matrix of window weights (flowgrad.ops.resample); adaptive max pooling gathers
every window (padded to the largest by repeating a cell of its own) and takes the max
(flowgrad.ops.pooling).
"""
from __future__ import annotations

import math

import numpy as np

from .. import backend, ops
from ..ops import pooling as _pooling
from ..ops import resample as _resample
from ..ops._args import typename

__all__ = ["max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
           "adaptive_max_pool2d", "adaptive_max_pool3d", "lp_pool1d", "lp_pool2d", "lp_pool3d", "max_unpool1d",
           "max_unpool2d", "max_unpool3d"]

_COUNT = {2: "two", 3: "three"}


def _sizes(v) -> tuple:
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


def _dims(shape) -> str:
    return f"[{', '.join(map(str, shape))}]"


def _param(policy, fn: str, name: str, v, nd: int) -> tuple:
    """An int or a sequence of 1 or `nd` ints, as ATen's pooling functions accept them."""
    values = tuple(ops.int_argument(e, policy) for e in _sizes(v))
    if len(values) == 1:
        return values * nd
    if len(values) != nd:
        avg3d, count = fn == "avg_pool3d", _COUNT[nd]
        if name == "kernel_size":
            raise policy.error("avg_pool3d_kernel_size_len" if avg3d else "pool_kernel_size_len", fn=fn, count=count)
        if name == "stride":
            raise policy.error("avg_pool3d_stride_len" if avg3d else "pool_stride_len", fn=fn, count=count)
        if name == "padding":
            raise policy.error("avg_pool3d_padding_len" if avg3d else "pool_padding_len", fn=fn, count=count)
        raise policy.errors.pool_dilation_len(fn=fn, count=count)
    return values


def _pool_args(input, fn: str, nd: int, kernel_size, stride, padding, dilation):
    policy = input.policy
    d = input._data
    kernel = _param(policy, fn, "kernel_size", kernel_size, nd)
    no_stride = stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0)
    stride = kernel if no_stride else _param(policy, fn, "stride", stride, nd)
    padding = _param(policy, fn, "padding", padding, nd)
    dilation = (1,) * nd if dilation is None else _param(policy, fn, "dilation", dilation, nd)
    if d.ndim not in (nd + 1, nd + 2):
        raise policy.errors.nn_pool_input_dim(unbatched=nd + 1, batched=nd + 2)
    empty = [i for i, s in enumerate(d.shape[d.ndim - nd - 1:]) if s == 0]   # (a non-batch dim)
    if empty and nd == 3:
        raise policy.errors.nn_pool3d_empty_dims(fn="avg_pool3d" if fn == "avg_pool3d" else
                                                 "max_pool3d_with_indices_out_cpu_template", size=_dims(d.shape))
    if any(s == 0 for s in stride):
        raise policy.errors.pool_stride_zero()
    axes = ("T", "H", "W")[-nd:]
    if any(k <= 0 for k in kernel):
        raise policy.errors.pool_kernel_positive(values=" ".join(f"k{a}: {k}" for a, k in zip(axes, kernel)))
    if any(dl <= 0 for dl in dilation):
        raise policy.errors.pool_dilation_positive(
                           values=" ".join(f"dilation{a}: {dl}" for a, dl in zip(axes, dilation)))
    if empty:
        raise policy.errors.nn_pool_empty_dims(size=_dims(d.shape))
    for p, k, dl in zip(padding, kernel, dilation):
        if p > k // 2:
            raise policy.errors.nn_pool_pad(pad=p, kernel=k, dilation=dl)
    return kernel, stride, padding, dilation


def _batch(input, nd: int):
    unbatched = input._data.ndim == nd + 1
    return (ops.unsqueeze(input, 0) if unbatched else input), unbatched


def _check_output(input, nd, kernel, stride, padding, dilation, ceil_mode):
    size = input._data.shape[-nd:]
    outs = [_pooling.pool_output_size(size[i], kernel[i], stride[i], padding[i], dilation[i], ceil_mode)[0]
            for i in range(nd)]
    if any(o < 1 for o in outs):
        c = input._data.shape[-nd - 1]
        raise input.policy.errors.pool_output_small(input="x".join(map(str, (c, *size))),
                                 output="x".join(map(str, (c, *(max(o, 0) for o in outs)))))


# ----------------------------------------------------------------------------------- max pooling

def _pool1d_args(input, fn: str, kernel_size, stride, padding, dilation, ceil_mode):
    """max_pool1d's own checks (ATen's max_pool1d runs them before anything else)."""
    policy = input.policy
    d = input._data
    if d.ndim not in (2, 3) or d.shape[-1] == 0 or d.shape[-2] == 0:
        raise policy.errors.pool1d_input_dim(fn=fn, size=_dims(d.shape))
    values = {}
    for name, v in (("kernel_size", kernel_size), ("stride", stride), ("padding", padding), ("dilation", dilation)):
        if name == "stride" and (v is None or (isinstance(v, (list, tuple)) and len(v) == 0)):
            values[name] = values["kernel_size"]
            continue
        v = _sizes(v)
        if len(v) != 1:
            raise policy.error("pool1d_stride_len" if name == "stride" else "pool1d_param_len", fn=fn, name=name,
                               size=len(v))
        values[name] = ops.int_argument(v[0], policy)
    k, s, p, dl = (values[n] for n in ("kernel_size", "stride", "padding", "dilation"))
    for name, v in (("kernel_size", k), ("stride", s), ("dilation", dl)):
        if v <= 0:
            raise policy.errors.pool1d_positive(fn=fn, name=name, value=v)
    if p < 0:
        raise policy.errors.pool1d_padding_negative(fn=fn, value=p)
    if p > k // 2:
        raise policy.errors.pool1d_padding_half(fn=fn, pad=p, kernel=k)
    out = _pooling.pool_output_size(d.shape[-1], k, s, p, dl, ceil_mode)[0]
    if out <= 0:
        raise policy.errors.pool1d_output_size(fn=fn, size=out)
    return k, s, p, dl


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    ops.flag_argument(ceil_mode, input.policy, "max_pool1d_with_indices" if return_indices else "max_pool1d",
                      "ceil_mode", 6)
    k, s, p, dl = _pool1d_args(input, "max_pool1d", kernel_size, stride, padding, dilation, ceil_mode)
    if not return_indices:      # (PyTorch's own 1-d kernel; with indices it runs the 2-d one)
        ops.refuse_dtype(input, "max_pool1d_impl")
    out, idx = max_pool2d(ops.unsqueeze(input, -2), (1, k), (1, s), (0, p), (1, dl), ceil_mode, True)
    out, idx = ops.squeeze(out, -2), ops.squeeze(idx, -2)
    return (out, idx) if return_indices else out


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    ops.flag_argument(ceil_mode, input.policy, "max_pool2d_with_indices" if return_indices else "max_pool2d",
                      "ceil_mode", 6)
    kernel, stride, padding, dilation = _pool_args(input, "max_pool2d", 2, kernel_size, stride, padding,
                                                   dilation)
    _check_output(input, 2, kernel, stride, padding, dilation, ceil_mode)
    if input._data.dtype.kind in "bc":
        raise input.policy.errors.not_implemented_for(op="max_pool2d", dtype_scalar=input._data.dtype)
    x, unbatched = _batch(input, 2)
    out, idx = _pooling.max_pool_with_indices(x, kernel, stride, padding, dilation, ceil_mode)
    if unbatched:
        out, idx = ops.squeeze(out, 0), ops.squeeze(idx, 0)
    return (out, idx) if return_indices else out


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    ops.flag_argument(ceil_mode, input.policy, "max_pool3d_with_indices" if return_indices else "max_pool3d",
                      "ceil_mode", 6)
    kernel, stride, padding, dilation = _pool_args(input, "max_pool3d", 3, kernel_size, stride, padding,
                                                   dilation)
    _check_output(input, 3, kernel, stride, padding, dilation, ceil_mode)
    if input._data.dtype.kind in "bc":
        raise input.policy.errors.not_implemented_for(op="max_pool3d", dtype_scalar=input._data.dtype)
    x, unbatched = _batch(input, 3)
    out, idx = _pooling.max_pool_with_indices(x, kernel, stride, padding, dilation, ceil_mode)
    if unbatched:
        out, idx = ops.squeeze(out, 0), ops.squeeze(idx, 0)
    return (out, idx) if return_indices else out


# ----------------------------------------------------------------------------------- avg pooling

def _avg_flags(input, fn: str, ceil_mode, count_include_pad) -> None:
    for name, v in (("ceil_mode", ceil_mode), ("count_include_pad", count_include_pad)):
        ops.flag_argument(v, input.policy, fn, name, by_call=True)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode: bool = False, count_include_pad: bool = True):
    policy = input.policy
    _avg_flags(input, "avg_pool1d", ceil_mode, count_include_pad)
    d = input._data
    if d.ndim not in (2, 3):
        raise policy.errors.pool_dims_range(low=2, high=3, ndim=d.ndim, fn="avg_pool1d")
    args = {}
    for name, v in (("kernel_size", kernel_size), ("stride", stride), ("padding", padding)):
        if name == "stride" and (v is None or (isinstance(v, (list, tuple)) and len(v) == 0)):
            args[name] = args["kernel_size"]
            continue
        v = _sizes(v)
        if len(v) != 1:
            raise policy.errors.pool_one_int(fn="avg_pool1d", name=name, got=len(v))
        args[name] = ops.int_argument(v[0], policy)
    out = avg_pool2d(ops.unsqueeze(input, -2), (1, args["kernel_size"]), (1, args["stride"]), (0, args["padding"]),
                     ceil_mode, count_include_pad)
    return ops.squeeze(out, -2)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override=None):
    _avg_flags(input, "avg_pool2d", ceil_mode, count_include_pad)
    kernel, stride, padding, _ = _pool_args(input, "avg_pool2d", 2, kernel_size, stride, padding, None)
    if divisor_override is not None and divisor_override == 0:
        raise input.policy.errors.pool_divisor_zero()
    ops.refuse_dtype(input, "avg_pool2d", also=("int64",))
    _check_output(input, 2, kernel, stride, padding, (1, 1), ceil_mode)
    x, unbatched = _batch(input, 2)
    out = _pooling.avg_pool(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)
    return ops.squeeze(out, 0) if unbatched else out


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override=None):
    _avg_flags(input, "avg_pool3d", ceil_mode, count_include_pad)
    kernel, stride, padding, _ = _pool_args(input, "avg_pool3d", 3, kernel_size, stride, padding, None)
    if divisor_override is not None and divisor_override == 0:
        raise input.policy.errors.pool_divisor_zero()
    ops.refuse_dtype(input, "avg_pool3d_out_frame", halves=False, also=("int64",))
    size = input._data.shape[-3:]
    if any(s + 2 * p < k for s, p, k in zip(size, padding, kernel)):
        raise input.policy.errors.avg_pool3d_small(t=size[0], h=size[1], w=size[2], kt=kernel[0], kh=kernel[1],
                                 kw=kernel[2])
    _check_output(input, 3, kernel, stride, padding, (1, 1, 1), ceil_mode)
    x, unbatched = _batch(input, 3)
    out = _pooling.avg_pool(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)
    return ops.squeeze(out, 0) if unbatched else out


# ------------------------------------------------------------------------------ adaptive pooling

def _windows(n_in: int, n_out: int):
    """The [start, end) of the input cells PyTorch's adaptive pooling assigns to each output cell."""
    return [((i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)) for i in range(n_out)]


def _adaptive_size_list(input, fn: str, nd: int, output_size) -> tuple:
    """2-d and 3-d output sizes as PyTorch's Python layer reads them: an int for every dim, else a
    sequence (a tensor's elements too), shorter than the input's dims, of exactly `nd` ints or Nones."""
    policy = input.policy
    if isinstance(output_size, bool):
        raise policy.errors.argument_type_at(fn=fn, argument="output_size", position=2, expected="tuple of ints",
                                             type="bool")
    if isinstance(output_size, int):
        return (output_size,) * nd
    if isinstance(output_size, ops.Tensor):
        if output_size._data.ndim == 0:
            raise policy.errors.len_0d()
        output_size = tuple(output_size)
    if not isinstance(output_size, (tuple, list, str)):
        raise policy.errors.object_no_len(type=typename(output_size))
    if input._data.ndim <= len(output_size):
        raise policy.errors.pool_input_dim_at_least(count=len(output_size) + 1)
    if isinstance(output_size, str):
        raise policy.errors.argument_type_at(fn=fn, argument="output_size", position=2, expected="tuple of ints",
                                             type="str")
    if len(output_size) != nd:
        raise policy.error("adaptive_max_output_size_len" if "max" in fn else "adaptive_output_size_len", fn=fn,
                           count=nd)
    return tuple(output_size)


def _adaptive_sizes(input, fn: str, nd: int, output_size, read: bool = False) -> tuple:
    """The output size per spatial dim (None keeps the input's), after ATen's checks of the input
    (`read`: `output_size` already read by `_adaptive_size_list`)."""
    policy = input.policy
    d = input._data
    if read:
        sizes = output_size
    elif nd == 1:
        sizes = _sizes(output_size)
        if len(sizes) != 1:
            raise policy.errors.pool_one_int(fn=fn, name="output_size", got=len(sizes))
        sizes = (ops.int_argument(sizes[0], policy),)
    else:
        sizes = _adaptive_size_list(input, fn, nd, output_size)
    if nd == 1:
        if d.ndim not in (2, 3):
            raise policy.errors.pool_dims_range(low=2, high=3, ndim=d.ndim, fn=fn)
    elif d.ndim not in (nd + 1, nd + 2):
        raise policy.error("adaptive_max_input_dim" if "max" in fn else "nn_adaptive_pool_input_dim", fn=fn,
                           unbatched=nd + 1, batched=nd + 2, size=list(d.shape))
    for dim in range(1, d.ndim):
        if d.shape[dim] == 0 and nd > 1:
            raise policy.errors.nn_adaptive_pool_empty(fn=fn, size=list(d.shape), dim=dim)
    spatial = d.shape[-nd:]
    outs = tuple(spatial[i] if s is None else ops.int_argument(s, policy) for i, s in enumerate(sizes))
    if any(o < 0 for o in outs):
        if "max" in fn:
            lead = d.shape[:-nd] + ((1,) if nd == 1 else ())     # (1-d pools as 2-d of height 1)
            raise policy.errors.size_negative(dim=next(o for o in outs if o < 0), shape=[*lead, *outs])
        wide = (1, *outs) if nd == 1 else outs
        # (PyTorch's own spacing)
        received = ", ".join(map(str, wide)) if len(wide) == 2 else f"{wide[0]}, {wide[1]},{wide[2]}"
        raise policy.errors.nn_adaptive_avg_negative(fn="adaptive_avg_pool3d" if nd == 3 else "adaptive_avg_pool2d",
                                                     received=received)
    return outs


def _adaptive_matrix(n_in: int, n_out: int, dtype) -> np.ndarray:
    """Rows average the input cells PyTorch's adaptive pooling assigns to each output cell."""
    m = np.zeros((n_out, n_in), dtype=dtype)
    for i, (start, end) in enumerate(_windows(n_in, n_out)):
        m[i, start:end] = 1.0 / (end - start)
    return m


def _adaptive_avg(input, fn: str, nd: int, output_size):
    if nd > 1:
        output_size = _adaptive_size_list(input, fn, nd, output_size)
        if all(type(s) is int and s == 1 for s in output_size):
            # PyTorch's shortcut, taken before the input is checked
            return ops.mean(input, tuple(range(-nd, 0)), keepdim=True)
    outs = _adaptive_sizes(input, fn, nd, output_size, read=nd > 1)
    if nd == 1:     # as 2-d pooling of height 1, as PyTorch runs it
        return ops.squeeze(_adaptive_avg(ops.unsqueeze(input, -2), "adaptive_avg_pool2d", 2, (1, outs[0])), -2)
    ops.refuse_dtype(input, "adaptive_avg_pool2d" if nd == 2 else "adaptive_avg_pool3d_cpu")
    if all(o == 1 for o in outs):
        return ops.mean(input, tuple(range(-nd, 0)), keepdim=True)
    d = input._data
    plan = tuple(("matrix", _adaptive_matrix(d.shape[d.ndim - nd + i], outs[i], d.dtype), d.shape[d.ndim - nd + i])
                 for i in range(nd))
    return _resample.resample(input, plan, f"AdaptiveAvgPool{nd}D")


def adaptive_avg_pool1d(input, output_size):
    return _adaptive_avg(input, "adaptive_avg_pool1d", 1, output_size)


def adaptive_avg_pool2d(input, output_size):
    return _adaptive_avg(input, "adaptive_avg_pool2d", 2, output_size)


def adaptive_avg_pool3d(input, output_size):
    return _adaptive_avg(input, "adaptive_avg_pool3d", 3, output_size)


def _adaptive_max(input, fn: str, nd: int, output_size, return_indices: bool):
    outs = _adaptive_sizes(input, fn, nd, output_size)
    if nd == 1:     # as 2-d pooling of height 1, as PyTorch runs it
        res = _adaptive_max(ops.unsqueeze(input, -2), "adaptive_max_pool2d", 2, (1, outs[0]), return_indices)
        if return_indices:
            return ops.squeeze(res[0], -2), ops.squeeze(res[1], -2)
        return ops.squeeze(res, -2)
    ops.refuse_dtype(input, "adaptive_max_pool2d" if nd == 2 else "adaptive_max_pool3d_cpu")
    size = input._data.shape[-nd:]
    # per dim: (out, widest window) cell indices, a short window padded with its own last cell
    per_dim = []
    for n_in, n_out in zip(size, outs):
        wins = _windows(n_in, n_out)
        width = max((e - s for s, e in wins), default=1)
        per_dim.append(np.array([list(range(s, e)) + [e - 1] * (width - (e - s)) for s, e in wins],
                                dtype=np.int64).reshape(n_out, width))
    # flat spatial index of every (output cell, window cell): output cells, then window cells, row-major
    flat = np.zeros((1,) * (2 * nd), dtype=np.int64)
    for i, idx in enumerate(per_dim):
        shape = [1] * (2 * nd)
        shape[i], shape[nd + i] = idx.shape
        flat = flat + idx.reshape(shape) * math.prod(size[i + 1:])
    unbatched = input._data.ndim == nd + 1
    x = ops.unsqueeze(input, 0) if unbatched else input
    values, indices = _pooling.adaptive_max_pool(x, flat.reshape(*outs, math.prod(i.shape[1] for i in per_dim)))
    if unbatched:
        values, indices = ops.squeeze(values, 0), ops.squeeze(indices, 0)
    return (values, indices) if return_indices else values


def adaptive_max_pool1d(input, output_size, return_indices: bool = False):
    return _adaptive_max(input, "adaptive_max_pool1d", 1, output_size, return_indices)


def adaptive_max_pool2d(input, output_size, return_indices: bool = False):
    return _adaptive_max(input, "adaptive_max_pool2d", 2, output_size, return_indices)


def adaptive_max_pool3d(input, output_size, return_indices: bool = False):
    return _adaptive_max(input, "adaptive_max_pool3d", 3, output_size, return_indices)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


# ------------------------------------------------------------------------------------ LP pooling

def _lp_window(policy, nd: int, kernel_size):
    """The window's cell count as PyTorch's lp pooling takes it: a 1-d kernel size multiplies the
    result (a number), a 2-d / 3-d one is unpacked into nd sizes (a sequence or tensor must hold nd)."""
    if nd == 1:
        if isinstance(kernel_size, (tuple, list)):
            raise policy.errors.argument_type_at(fn="mul", argument="other", position=1, expected="Tensor",
                                                 type=typename(kernel_size))
        return kernel_size
    if isinstance(kernel_size, ops.Tensor) and kernel_size._data.ndim == 0:
        raise policy.errors.iter_0d()
    sizes = tuple(kernel_size) if isinstance(kernel_size, (tuple, list, ops.Tensor)) else (kernel_size,) * nd
    if len(sizes) < nd:
        raise policy.errors.unpack_too_few(expected=nd, got=len(sizes))
    if len(sizes) > nd:
        raise policy.errors.unpack_too_many(expected=nd)
    return math.prod(sizes)


def _lp_pool(input, nd: int, norm_type, kernel_size, stride, ceil_mode):
    """(sum over each window of x ** p) ** (1 / p), through avg pooling as PyTorch composes it."""
    max_pool = (max_pool1d, max_pool2d, max_pool3d)[nd - 1]
    avg_pool = (avg_pool1d, avg_pool2d, avg_pool3d)[nd - 1]
    window = None if nd == 1 else _lp_window(input.policy, nd, kernel_size)   # (1-d: after pooling)
    # (PyTorch's avg pooling parses the flag: passed on positionally only with a stride)
    ops.flag_argument(ceil_mode, input.policy, f"avg_pool{nd}d", "ceil_mode", None if stride is None else 5)
    if isinstance(norm_type, (int, float)) and math.isinf(norm_type):
        if norm_type > 0:
            return max_pool(ops.abs(input), kernel_size, stride, 0, 1, ceil_mode)
        return -max_pool(-ops.abs(input), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool(input ** norm_type, kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool(input ** norm_type, kernel_size, padding=0, ceil_mode=ceil_mode)
    if nd == 1:
        window = _lp_window(input.policy, nd, kernel_size)
    return ((ops.sign(out) * ops.relu(ops.abs(out))) * window) ** (1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode: bool = False):
    return _lp_pool(input, 1, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode: bool = False):
    return _lp_pool(input, 2, norm_type, kernel_size, stride, ceil_mode)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode: bool = False):
    return _lp_pool(input, 3, norm_type, kernel_size, stride, ceil_mode)


# ------------------------------------------------------------------------------------- unpooling

def _unpool_size(input, nd: int, kernel, stride, padding, output_size) -> tuple:
    policy = input.policy
    shape = input._data.shape
    default = [(shape[-nd + i] - 1) * stride[i] + kernel[i] - 2 * padding[i] for i in range(nd)]
    if output_size is None:
        return tuple(default)
    size = output_size
    if len(size) == nd + 2:
        size = size[2:]
    if len(size) != nd:
        raise policy.errors.unpool_output_size_len(dims=nd, full=nd + 2, got=len(size))
    for i in range(nd):
        low, high = default[i] - stride[i], default[i] + stride[i]
        if not low < size[i] < high:
            raise policy.errors.unpool_output_size_range(size=size, dim=i, low=low, high=high)
    return tuple(int(s) for s in size)


def _max_unpool(input, indices, nd: int, kernel_size, stride, padding, output_size):
    """Each value written at its flat (spatial) index into zeros of the output size, as max pooling's
    indices name them."""
    policy = input.policy
    kernel = tuple(ops.int_argument(k, policy) for k in _sizes(kernel_size)) * (
        nd if len(_sizes(kernel_size)) == 1 else 1)
    stride = kernel if stride is None else tuple(ops.int_argument(s, policy) for s in _sizes(stride)) * (
        nd if len(_sizes(stride)) == 1 else 1)
    padding = tuple(ops.int_argument(p, policy) for p in _sizes(padding)) * (nd if len(_sizes(padding)) == 1 else 1)
    size = _unpool_size(input, nd, kernel, stride, padding, output_size)
    ops.refuse_dtype(input, "max_unpool3d" if nd == 3 else "max_unpool2d")
    policy = input.policy
    shape = input._data.shape
    if indices._data.shape != shape:
        raise policy.errors.unpool_indices_shape(input=_dims(shape), indices=_dims(indices._data.shape))
    if indices._data.dtype != np.int64:
        raise policy.errors.unpool_indices_dtype(got_scalar=indices._data.dtype)
    flat_idx = indices._data.reshape(-1)
    cells = math.prod(size)
    bad = (flat_idx < 0) | (flat_idx >= cells)
    if bad.any():
        first = int(flat_idx[int(backend.namespace(bad).argmax(bad))])
        sizes = size + (1,) if nd == 1 else size       # ATen unpools 1-d as 2-d of width 1
        raise policy.errors.unpool_index_range(index=first, cells="x".join(map(str, sizes)))
    if nd == 1:     # as 2-d unpooling of height 1, as PyTorch runs it
        out = _pooling.max_unpool(ops.unsqueeze(input, -2), ops.unsqueeze(indices, -2), (1,) + size)
        return ops.squeeze(out, -2)
    unbatched = len(shape) == nd + 1
    x, idx = (ops.unsqueeze(input, 0), ops.unsqueeze(indices, 0)) if unbatched else (input, indices)
    out = _pooling.max_unpool(x, idx, size)
    return ops.squeeze(out, 0) if unbatched else out


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, 1, kernel_size, stride, padding, output_size)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, 2, kernel_size, stride, padding, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, 3, kernel_size, stride, padding, output_size)
