"""Group normalisation as one primitive with PyTorch's node (NativeGroupNormBackward0). The forward
runs on arrays; the gradient formulas are tensor code (the statistics recomputed from the input),
so every order of derivative works."""
from __future__ import annotations

import math

from .. import backend
from ._declare import _grad_enabled, derivative
from . import elementwise as E
from . import reduction as R
from . import shape as S

__all__ = ["group_norm"]


def _grouped(shape, groups: int) -> tuple:
    """(N, C, *spatial) -> (N, G, C / G * prod(spatial)), for an empty batch too."""
    return shape[0], groups, shape[1] // groups * math.prod(shape[2:])


def _normalized(x, groups: int, eps: float):
    """x normalised per (sample, group), as (N, G, -1), and its inverse standard deviation."""
    g = S.reshape(x, _grouped(x._data.shape, groups))
    centered = g - R.mean(g, (2,), keepdim=True)
    rstd = E.rsqrt(R.mean(centered * centered, (2,), keepdim=True) + eps)
    return centered * rstd, rstd


def _channel_shape(ndim: int) -> tuple:
    return (1, -1) + (1,) * (ndim - 2)


def _input_grad(grad, input, weight, groups, eps):
    shape = input._data.shape
    xhat, rstd = _normalized(input, groups, eps)
    dy = grad if weight is None else grad * S.reshape(weight, _channel_shape(len(shape)))
    dy = S.reshape(dy, _grouped(shape, groups))
    dx = rstd * (dy - R.mean(dy, (2,), keepdim=True) - xhat * R.mean(dy * xhat, (2,), keepdim=True))
    return S.reshape(dx, shape)


def _weight_grad(grad, input, groups, eps):
    shape = input._data.shape
    xhat = S.reshape(_normalized(input, groups, eps)[0], shape)
    return R.sum(grad * xhat, (0,) + tuple(range(2, len(shape))))


def _bias_grad(grad):
    return R.sum(grad, (0,) + tuple(range(2, grad._data.ndim)))


NativeGroupNormBackward0 = derivative("NativeGroupNormBackward0", keep="groups eps", input=_input_grad,
                                      weight=_weight_grad, bias=_bias_grad)
NativeGroupNormNoWeight = derivative("NativeGroupNormBackward0", keep="groups eps",
                                     input=lambda grad, input, groups, eps: _input_grad(grad, input, None, groups, eps),
                                     bias=_bias_grad)


def group_norm(x, groups: int, weight, bias, eps: float):
    d = x._data
    xp = backend.namespace(d)
    c = d.shape[1]
    g = d.reshape(_grouped(d.shape, groups))
    mean = g.mean(axis=2, keepdims=True)
    centered = g - mean
    rstd = 1 / xp.sqrt((centered * centered).mean(axis=2, keepdims=True) + eps)
    out = (centered * rstd).reshape(d.shape)
    cshape = (c,) + (1,) * (d.ndim - 2)
    if weight is not None:
        out = out * weight._data.reshape(cshape)
    if bias is not None:
        out = out + bias._data.reshape(cshape)
    res = x._out_cls._make(out.astype(d.dtype, copy=False))
    if _grad_enabled() and any(t is not None and t._requires_grad for t in (x, weight, bias)):
        if weight is None:
            NativeGroupNormNoWeight.record((x, bias), res, groups, float(eps))
        else:
            NativeGroupNormBackward0.record((x, weight, bias), res, groups, float(eps))
    return res
