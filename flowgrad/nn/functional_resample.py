"""Resampling: F.pixel_shuffle / F.pixel_unshuffle (reshapes and one permute) and F.interpolate
(nearest: an index_select per dim; linear modes: a matrix of interpolation weights per dim)."""
from __future__ import annotations

from .. import ops

__all__ = ["pixel_shuffle", "pixel_unshuffle"]


def _shuffle_checks(input, fn: str, factor: int):
    policy = input.policy
    shape = input._data.shape
    if len(shape) < 3:
        raise policy.error("pixel_shuffle_dims", fn=fn, ndim=len(shape))
    if factor <= 0:
        raise policy.error("pixel_shuffle_factor", fn=fn,
                           name="upscale_factor" if fn == "pixel_shuffle" else "downscale_factor", value=factor)
    return shape


def pixel_shuffle(input, upscale_factor: int):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r)."""
    r = int(upscale_factor)
    shape = _shuffle_checks(input, "pixel_shuffle", r)
    *lead, c, h, w = shape
    if c % (r * r):
        raise input.policy.error("pixel_shuffle_channels", channels=c, square=r * r)
    n = len(lead)
    x = ops.reshape(input, (*lead, c // (r * r), r, r, h, w))
    x = ops.permute(x, *range(n), n, n + 3, n + 1, n + 4, n + 2)
    return ops.reshape(x, (*lead, c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor: int):
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W)."""
    r = int(downscale_factor)
    shape = _shuffle_checks(input, "pixel_unshuffle", r)
    *lead, c, h, w = shape
    if h % r:
        raise input.policy.error("pixel_unshuffle_size", what="height", dim=-2, size=h, factor=r)
    if w % r:
        raise input.policy.error("pixel_unshuffle_size", what="width", dim=-1, size=w, factor=r)
    n = len(lead)
    x = ops.reshape(input, (*lead, c, h // r, r, w // r, r))
    x = ops.permute(x, *range(n), n, n + 2, n + 4, n + 1, n + 3)
    return ops.reshape(x, (*lead, c * r * r, h // r, w // r))
