"""Separable resampling (F.interpolate's nearest, linear and cubic modes, adaptive average pooling) as one
primitive per PyTorch node, and the pixel and channel shuffles.

A plan gives, per trailing (spatial) dim, either the source cell of every output cell (nearest modes: a
gather, whose adjoint adds back into place) or an (out, in) matrix of interpolation weights (linear
modes: a contraction, whose adjoint is the transposed contraction). The resampling is linear, so its
gradient is the adjoint and the adjoint's gradient is the resampling again.
"""
from __future__ import annotations

from .. import backend
from ._declare import _grad_enabled, derivative, variant

__all__ = ["resample", "resample_adjoint", "pixel_shuffle", "pixel_unshuffle", "channel_shuffle"]


def _forward(xp, d, plan):
    for i, (kind, data, _) in enumerate(plan):
        axis = d.ndim - len(plan) + i
        if kind == "index":
            d = xp.take(d, xp.asarray(data), axis=axis)
        else:
            m = xp.asarray(data).astype(d.dtype, copy=False)
            d = xp.moveaxis(xp.tensordot(d, m, axes=([axis], [1])), -1, axis)
    return xp.ascontiguousarray(d)


def _adjoint(xp, g, plan):
    for i, (kind, data, n_in) in enumerate(plan):
        axis = g.ndim - len(plan) + i
        if kind == "index":
            moved = xp.moveaxis(g, axis, 0)
            out = xp.zeros((n_in,) + moved.shape[1:], dtype=g.dtype)
            xp.add.at(out, xp.asarray(data), moved)
            g = xp.moveaxis(out, 0, axis)
        else:
            m = xp.asarray(data).astype(g.dtype, copy=False)
            g = xp.moveaxis(xp.tensordot(g, m, axes=([axis], [0])), -1, axis)
    return xp.ascontiguousarray(g)


UpsampleNearest1DBackward0 = derivative(
    "UpsampleNearest1DBackward0", keep="plan stem", self=lambda grad, plan, stem: resample_adjoint(grad, plan, stem))
UpsampleNearest1DBackwardBackward0 = derivative(
    "UpsampleNearest1DBackwardBackward0", keep="plan stem",
    grad_output=lambda grad, plan, stem: resample(grad, plan, stem))
_ROWS = {"UpsampleNearest1D": (UpsampleNearest1DBackward0, UpsampleNearest1DBackwardBackward0)}
for _stem in ("UpsampleNearest2D", "UpsampleNearest3D", "UpsampleNearestExact1D", "UpsampleNearestExact2D",
              "UpsampleNearestExact3D", "UpsampleLinear1D", "UpsampleBilinear2D", "UpsampleTrilinear3D", "UpsampleBicubic2D",
              "AdaptiveAvgPool2D", "AdaptiveAvgPool3D"):
    _ROWS[_stem] = (variant(UpsampleNearest1DBackward0, f"{_stem}Backward0"),
                    variant(UpsampleNearest1DBackwardBackward0, f"{_stem}BackwardBackward0"))
del _stem


def resample(x, plan, stem: str):
    """Resample the trailing dims of `x` by `plan`, recording PyTorch's `stem` node."""
    d = x._data
    out = x._out_cls._make(_forward(backend.namespace(d), d, plan))
    if _grad_enabled() and x._requires_grad:
        _ROWS[stem][0].record((x,), out, plan, stem)
    return out


def resample_adjoint(g, plan, stem: str):
    """The adjoint of `resample` (its gradient): each output cell's value added back to its sources."""
    gd = g._data
    out = g._out_cls._make(_adjoint(backend.namespace(gd), gd, plan))
    if _grad_enabled() and g._requires_grad:
        _ROWS[stem][1].record((g,), out, plan, stem)
    return out


# ------------------------------------------------------------------------- pixel and channel shuffles

def _shuffled(xp, d, shape, order, out_shape):
    return xp.ascontiguousarray(d.reshape(shape).transpose(order)).reshape(out_shape)


# the shuffles are permutations: each one's gradient is the inverse permutation
PixelShuffleBackward0 = derivative("PixelShuffleBackward0", keep="factor",
                                   self=lambda grad, factor: pixel_unshuffle(grad, factor))
PixelUnshuffleBackward0 = derivative("PixelUnshuffleBackward0", keep="factor",
                                     self=lambda grad, factor: pixel_shuffle(grad, factor))
ChannelShuffleBackward0 = derivative("ChannelShuffleBackward0", keep="groups",
                                     self=lambda grad, groups: channel_shuffle(grad, grad._data.shape[1] // groups))


def pixel_shuffle(x, r: int):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r)."""
    d = x._data
    *lead, c, h, w = d.shape
    n = len(lead)
    out = x._out_cls._make(_shuffled(backend.namespace(d), d, (*lead, c // (r * r), r, r, h, w),
                                     (*range(n), n, n + 3, n + 1, n + 4, n + 2), (*lead, c // (r * r), h * r, w * r)))
    if _grad_enabled() and x._requires_grad:
        PixelShuffleBackward0.record((x,), out, r)
    return out


def pixel_unshuffle(x, r: int):
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W)."""
    d = x._data
    *lead, c, h, w = d.shape
    n = len(lead)
    out = x._out_cls._make(_shuffled(backend.namespace(d), d, (*lead, c, h // r, r, w // r, r),
                                     (*range(n), n, n + 2, n + 4, n + 1, n + 3), (*lead, c * r * r, h // r, w // r)))
    if _grad_enabled() and x._requires_grad:
        PixelUnshuffleBackward0.record((x,), out, r)
    return out


def channel_shuffle(x, groups: int):
    """(N, g * k, *) -> (N, k * g, *): the channels of g groups interleaved."""
    d = x._data
    n, c, *rest = d.shape
    out = x._out_cls._make(_shuffled(backend.namespace(d), d, (n, groups, c // groups, *rest),
                                     (0, 2, 1, *range(3, d.ndim + 1)), d.shape))
    if _grad_enabled() and x._requires_grad:
        ChannelShuffleBackward0.record((x,), out, groups)
    return out
