"""Resampling: F.pixel_shuffle / F.pixel_unshuffle / F.channel_shuffle and F.interpolate, checked
here and run by the primitives of flowgrad.ops.resample (nearest modes gather a source cell per
dim, linear and cubic modes contract each dim with a matrix of interpolation weights)."""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..ops import int_argument as _int_argument
from ..ops import resample as _resample
from .functional_pool import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d

__all__ = ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "interpolate", "upsample", "upsample_nearest",
           "upsample_bilinear"]

_LINEAR = {"linear": 1, "bilinear": 2, "trilinear": 3}
_STEMS = {"nearest": "UpsampleNearest{}D", "nearest-exact": "UpsampleNearestExact{}D", "linear": "UpsampleLinear{}D",
          "bilinear": "UpsampleBilinear{}D", "trilinear": "UpsampleTrilinear{}D", "bicubic": "UpsampleBicubic{}D"}
_CUBIC_A = -0.75  # the cubic convolution's parameter


def _shuffle_checks(input, fn: str, factor: int):
    policy = input.policy
    shape = input._data.shape
    if len(shape) < 3:
        raise policy.errors.pixel_shuffle_dims(fn=fn, ndim=len(shape))
    if factor <= 0:
        raise policy.errors.pixel_shuffle_factor(fn=fn,
                           name="upscale_factor" if fn == "pixel_shuffle" else "downscale_factor", value=factor)
    return shape


def pixel_shuffle(input, upscale_factor: int):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r)."""
    r = _int_argument(upscale_factor, input.policy)
    shape = _shuffle_checks(input, "pixel_shuffle", r)
    c, h, w = shape[-3:]
    if c % (r * r):
        raise input.policy.errors.pixel_shuffle_channels(channels=c, square=r * r)
    return _resample.pixel_shuffle(input, r)


def pixel_unshuffle(input, downscale_factor: int):
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W)."""
    r = _int_argument(downscale_factor, input.policy)
    shape = _shuffle_checks(input, "pixel_unshuffle", r)
    c, h, w = shape[-3:]
    if h % r:
        raise input.policy.errors.pixel_unshuffle_size(what="height", dim=-2, size=h, factor=r)
    if w % r:
        raise input.policy.errors.pixel_unshuffle_size(what="width", dim=-1, size=w, factor=r)
    return _resample.pixel_unshuffle(input, r)


def channel_shuffle(input, groups: int):
    """(N, g * k, *) -> (N, k * g, *): the channels of g groups interleaved."""
    policy = input.policy
    shape = input._data.shape
    if len(shape) <= 2:
        raise policy.errors.channel_shuffle_dims(size=f"[{', '.join(map(str, shape))}]")
    if groups <= 0:
        raise policy.errors.channel_shuffle_groups(groups=groups)
    if shape[1] % groups:
        raise policy.errors.channel_shuffle_channels(channels=shape[1], groups=groups)
    return _resample.channel_shuffle(input, groups)


# ----------------------------------------------------------------------------------- interpolate

def _nearest_index(n_in: int, n_out: int, scale, exact: bool) -> np.ndarray:
    """ATen's nearest source cell per output cell, computed in float32 as its CPU kernel does."""
    dst = np.arange(n_out, dtype=np.float32)
    if not exact and n_out == n_in:
        return np.arange(n_out)
    if not exact and n_out == 2 * n_in:
        return np.arange(n_out) >> 1
    step = np.float32(1.0 / scale) if scale is not None and scale > 0 else np.float32(n_in) / np.float32(n_out)
    src = np.floor((dst + np.float32(0.5)) * step if exact else dst * step).astype(np.int64)
    return np.minimum(src, n_in - 1)


def _source_index(n_in: int, n_out: int, scale, align_corners: bool, half_pixel: bool, dtype) -> np.ndarray:
    """ATen's source coordinate of each output cell, in the input's floating type (`half_pixel`:
    cell centres, else cell corners, paddle's align_mode=1)."""
    ft = np.dtype(dtype).type
    if align_corners:
        step = ft(n_in - 1) / ft(n_out - 1) if n_out > 1 else ft(0)
    else:
        step = ft(1.0 / scale) if scale is not None and scale > 0 else ft(n_in) / ft(n_out)
    dst = np.arange(n_out, dtype=dtype)
    return step * dst if align_corners or not half_pixel else step * (dst + ft(0.5)) - ft(0.5)


def _linear_matrix(n_in: int, n_out: int, scale, align_corners: bool, dtype, half_pixel: bool = True) -> np.ndarray:
    """The (out, in) weights of linear interpolation along one dim."""
    ft = np.dtype(dtype).type
    src = np.maximum(_source_index(n_in, n_out, scale, align_corners, half_pixel, dtype), ft(0))
    i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    lam1 = np.clip(src - i0.astype(dtype), 0, 1)
    i1 = i0 + (i0 < n_in - 1)
    m = np.zeros((n_out, n_in), dtype=dtype)
    rows = np.arange(n_out)
    np.add.at(m, (rows, i0), ft(1) - lam1)
    np.add.at(m, (rows, i1), lam1)
    return m


def _cubic_matrix(n_in: int, n_out: int, scale, align_corners: bool, dtype) -> np.ndarray:
    """The (out, in) weights of cubic convolution (Keys, A = -0.75) along one dim: four taps around
    each unclamped source coordinate, taps past an edge folded onto the edge cell."""
    ft = np.dtype(dtype).type
    a = ft(_CUBIC_A)
    src = _source_index(n_in, n_out, scale, align_corners, True, dtype)
    i0 = np.floor(src)
    t = (src - i0).astype(dtype)
    near = lambda x: ((a + 2) * x - (a + 3)) * x * x + 1  # noqa: E731  |x| <= 1
    far = lambda x: ((a * x - 5 * a) * x + 8 * a) * x - 4 * a  # noqa: E731  1 < |x| < 2
    weights = (far(t + 1), near(t), near(1 - t), far(2 - t))
    m = np.zeros((n_out, n_in), dtype=dtype)
    rows = np.arange(n_out)
    for k, w in enumerate(weights):
        np.add.at(m, (rows, np.clip(i0.astype(np.int64) - 1 + k, 0, n_in - 1)), w)
    return m


def interpolate(input, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                recompute_scale_factor=None, antialias: bool = False):
    return interpolate_from(input, size, scale_factor, mode, align_corners, recompute_scale_factor, antialias)


def interpolate_from(input, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                     recompute_scale_factor=None, antialias: bool = False, *, half_pixel: bool = True):
    """interpolate, whose linear modes without align_corners sample at cell centres (`half_pixel`,
    PyTorch's rule) or at cell corners (paddle's align_mode=1)."""
    policy = input.policy
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise policy.errors.interpolate_align_corners()
    elif align_corners is None:
        align_corners = False
    shape = input._data.shape
    dim = len(shape) - 2
    if size is not None and scale_factor is not None:
        raise policy.errors.interpolate_size_and_scale()
    scales = [None] * max(dim, 0)
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise policy.errors.interpolate_size_dims(spatial=list(shape[2:]), size=size)
            outs = [int(s) for s in size]
        else:
            outs = [int(size)] * dim
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise policy.errors.interpolate_scale_dims(spatial=list(shape[2:]), scale=scale_factor)
            scales = [float(f) for f in scale_factor]
        else:
            scales = [float(scale_factor)] * dim
        outs = None
    else:
        raise policy.errors.interpolate_no_size()
    if recompute_scale_factor and size is not None:
        raise policy.errors.interpolate_recompute_with_size()
    if mode == "area" and outs is None:
        recompute_scale_factor = True
    if outs is None:
        outs = [int(math.floor(shape[i + 2] * scales[i])) for i in range(dim)]
        if recompute_scale_factor:
            scales = [None] * dim
    if antialias:
        raise policy.errors.interpolate_antialias_not_built()
    known = ("nearest", "nearest-exact", "area", "linear", "bilinear", "trilinear", "bicubic", "lanczos")
    if dim not in (1, 2, 3) or mode not in known:
        raise policy.errors.interpolate_input_dims(ndim=len(shape), mode=mode)
    if mode in _LINEAR and _LINEAR[mode] != dim:
        raise policy.errors.interpolate_mode_dims(ndim=len(shape), mode=mode, needs=_LINEAR[mode] + 2)
    if mode == "bicubic" and dim != 2:
        raise policy.errors.interpolate_input_dims(ndim=len(shape), mode=mode)
    if mode == "lanczos":
        raise policy.errors.interpolate_mode_not_built(mode=mode)
    if mode == "area":
        return (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d)[dim - 1](input, outs)
    if input._data.dtype.kind not in "fV":
        raise policy.errors.not_implemented_for(dtype_scalar=input._data.dtype,
                           op="compute_indices_weights_nearest" if mode.startswith("nearest") else
                           "compute_indices_weights_cubic" if mode == "bicubic" else "compute_indices_weights_linear")
    if any(o <= 0 for o in outs):
        axes = ("D", "H", "W")[-dim:]
        sizes = [", ".join(f"{a}: {n}" for a, n in zip(axes, ns)) for ns in (shape[2:], outs)]
        raise policy.error("interpolate_output_size_1d" if dim == 1 else "interpolate_output_size", input=sizes[0],
                           output=sizes[1])
    d = input._data
    plan = []
    for i in range(dim):
        n_in = shape[2 + i]
        if mode in ("nearest", "nearest-exact"):
            plan.append(("index", _nearest_index(n_in, outs[i], scales[i], mode == "nearest-exact"), n_in))
        elif mode == "bicubic":
            plan.append(("matrix", _cubic_matrix(n_in, outs[i], scales[i], align_corners, d.dtype), n_in))
        else:
            plan.append(("matrix", _linear_matrix(n_in, outs[i], scales[i], align_corners, d.dtype, half_pixel),
                         n_in))
    return _resample.resample(input, tuple(plan), _STEMS[mode].format(dim))


def upsample(input, size=None, scale_factor=None, mode: str = "nearest", align_corners=None):
    """The deprecated name of interpolate."""
    warnings.warn(input.policy.errors.upsample_deprecated(name="upsample"), stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    warnings.warn(input.policy.errors.upsample_deprecated(name="upsample_nearest"), stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    warnings.warn(input.policy.errors.upsample_deprecated(name="upsample_bilinear"), stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
