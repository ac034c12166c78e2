"""Group, instance and local-response normalisation (PyTorch's F.group_norm, F.instance_norm,
F.local_response_norm). Group norm is a primitive (flowgrad.ops.normalization); the others are
composed from the op table: statistics by mean, biased variance for the normalisation, unbiased for
the running variance, as PyTorch keeps it."""
from __future__ import annotations

import math

from .. import ops
from ..ops import normalization as _normalization
from .functional_pad import pad
from .functional_pool import avg_pool2d, avg_pool3d

__all__ = ["group_norm", "instance_norm", "local_response_norm"]


def _dims(shape) -> str:
    return f"[{', '.join(map(str, shape))}]"


def _affine(out, weight, bias, ndim):
    shape = (1, -1) + (1,) * (ndim - 2)
    if weight is not None:
        out = out * ops.reshape(weight, shape)
    if bias is not None:
        out = out + ops.reshape(bias, shape)
    return out


def mixed_precision(input, *params) -> bool:
    """PyTorch's CPU check of a normalisation's parameters (those given, in its order): all of input's
    dtype, or (mixed precision) all float32 beside a float32, float16 or bfloat16 input. True when
    mixed: the result then has input's dtype."""
    d = input._data.dtype
    given = [p._data.dtype for p in params if p is not None]
    if not given or given[0] == d:
        for g in given:
            if g != d:
                raise input.policy.errors.expected_scalar_type(a_scalar=d, b_scalar=g)
        return False
    if d.kind != "V" and d.name not in ("float16", "float32"):
        raise input.policy.errors.nn_norm_mixed_input()
    if any(g.name != "float32" for g in given):
        raise input.policy.errors.nn_norm_mixed_parameter()
    return d.name != "float32"


def _normalize(x, dims, eps):
    """(x - mean) / sqrt(biased var + eps) over `dims`, and the mean and biased variance."""
    mean = ops.mean(x, dims, keepdim=True)
    centered = x - mean
    var = ops.mean(centered * centered, dims, keepdim=True)
    return centered * ops.rsqrt(var + eps), mean, var


def group_norm(input, num_groups: int, weight=None, bias=None, eps: float = 1e-5):
    policy = input.policy
    shape = input._data.shape
    if len(shape) < 2:
        raise policy.errors.norm_input_min_dims(ndim=len(shape))
    n, c = shape[:2]
    if input._data.dtype.kind not in "fV":
        raise policy.errors.not_implemented_for(op="GroupNormKernelImpl", dtype_scalar=input._data.dtype)
    if c % num_groups:
        raise policy.errors.group_norm_groups(size=_dims(shape), groups=num_groups)
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t._data.ndim != 1 or t._data.shape[0] != c):
            raise policy.errors.group_norm_affine(name=name, shape=_dims(t._data.shape), size=_dims(shape))
    mixed_precision(input, weight, bias)
    return _normalization.group_norm(input, num_groups, weight, bias, eps)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5):
    ops.flag_argument(use_input_stats, input.policy, "instance_norm", "use_input_stats", 6)
    ops.refuse_complex(input, "batch_norm")
    shape = input._data.shape
    dims = tuple(range(2, len(shape)))
    if use_input_stats:
        spatial = math.prod(shape[2:])
        if spatial == 1:
            raise input.policy.errors.instance_norm_spatial(input_shape=shape)
        if input._data.size == 0:   # (PyTorch returns a copy and leaves the running statistics)
            return ops.clone(input)
        out, mean, var = _normalize(input, dims, eps)
        m = float(momentum)
        if running_mean is not None:
            rm = running_mean._data
            rm *= (1 - m)
            rm += (m * mean._data.reshape(shape[:2]).mean(axis=0)).astype(rm.dtype, copy=False)
            running_mean._bump()
        if running_var is not None:
            rv = running_var._data
            unbiased = var._data.reshape(shape[:2]) * (spatial / (spatial - 1))
            rv *= (1 - m)
            rv += (m * unbiased.mean(axis=0)).astype(rv.dtype, copy=False)
            running_var._bump()
    else:
        bshape = (1, -1) + (1,) * len(dims)
        out = (input - ops.reshape(running_mean, bshape)) * ops.rsqrt(ops.reshape(running_var, bshape) + eps)
    return _affine(out, weight, bias, len(shape))


def local_response_norm(input, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0):
    """Each value over (k + alpha * the mean of the squares of `size` neighbouring channels) ** beta."""
    shape = input._data.shape
    if len(shape) < 3:
        raise input.policy.errors.local_response_norm_dims(ndim=len(shape))
    if input._data.size == 0:
        return input * 1
    div = ops.unsqueeze(input * input, 1)
    if len(shape) == 3:
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = ops.squeeze(avg_pool2d(div, (size, 1), stride=1), 1)
    else:
        div = ops.reshape(div, (shape[0], 1, shape[1], shape[2], -1))
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = ops.reshape(ops.squeeze(avg_pool3d(div, (size, 1, 1), stride=1), 1), shape)
    div = (div * alpha + k) ** beta
    return input / div
