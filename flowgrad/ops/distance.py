"""Pairwise distances between the rows of two batches of matrices: cdist, with PyTorch's node
(CdistBackward0) for the direct p-norm, and its matrix-product form of the Euclidean distance
where `compute_mode` asks for it (or, by default, for more than 25 rows)."""
from __future__ import annotations

import math

from .. import backend
from ._args import broadcast_error
from ._declare import _grad_enabled, derivative
from . import elementwise as E
from . import linalg as L
from . import reduction as R
from . import shape as S

__all__ = ["cdist"]

_MODES = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": True,
          "donot_use_mm_for_euclid_dist": False}


def _pair_grad(grad, diff, dist, p):
    """d dist / d x1 (before the sum over x2's rows), as PyTorch's _cdist_backward: zero where
    the distance is zero."""
    if p == 0:
        return diff * 0
    if p == 1:
        g = E.sign(diff)
    elif math.isinf(p):
        g = E.sign(diff) * (E.abs(diff) == dist)
    else:
        safe = E.where(dist == 0, dist + 1, dist)
        ad = E.abs(diff)
        if p < 2:   # sign(diff) |diff|^(p-1), with |diff| = 0 kept finite where sign(diff) zeroes it
            g = E.sign(diff) * E.where(diff == 0, ad + 1, ad) ** (p - 1) / safe ** (p - 1)
        else:
            g = diff * ad ** (p - 2) / safe ** (p - 1)
        g = E.where(dist == 0, g * 0, g)
    return g * S.unsqueeze(grad, -1)


def _diffs(x1, x2):
    return S.unsqueeze(x1, -2) - S.unsqueeze(x2, -3)


CdistBackward0 = derivative(
    "CdistBackward0", keep="p",
    x1=lambda grad, x1, x2, result, p: R.sum(_pair_grad(grad, _diffs(x1, x2), S.unsqueeze(result, -1), p), -2),
    x2=lambda grad, x1, x2, result, p: -R.sum(_pair_grad(grad, _diffs(x1, x2), S.unsqueeze(result, -1), p), -3))


def _direct(x1, x2, p):
    a, b = x1._data, x2._data
    xp = backend.namespace(a)
    diff = a[..., :, None, :] - b[..., None, :, :]
    if diff.shape[-1] == 0:
        d = xp.zeros(diff.shape[:-1], dtype=a.dtype)
    elif p == 0:
        d = (diff != 0).sum(-1).astype(a.dtype)
    elif p == 1:
        d = xp.abs(diff).sum(-1)
    elif p == 2:
        d = xp.sqrt((diff * diff).sum(-1))
    elif math.isinf(p):
        d = xp.abs(diff).max(-1)
    else:
        d = (xp.abs(diff) ** p).sum(-1) ** (1.0 / p)
    out = x1._out_cls._make(xp.asarray(d, dtype=a.dtype))
    if _grad_enabled() and (x1._requires_grad or x2._requires_grad):
        CdistBackward0.record((x1, x2), out, p)
    return out


def _euclidean_grads(grad, x1, x2, result):
    """PyTorch's _euclidean_dist_backward: grad / distance, zero where the distance is zero, through
    the two matrix products."""
    zero = result == 0
    ratio = E.where(zero, grad * 0, grad / E.where(zero, result + 1, result))
    return ratio, R.sum(ratio, -1, keepdim=True), S.unsqueeze(R.sum(ratio, -2), -1)


EuclideanDistBackward0 = derivative(
    "EuclideanDistBackward0",
    x1=lambda grad, x1, x2, result: (lambda r, rows, _: x1 * rows - L.matmul(r, x2))(
        *_euclidean_grads(grad, x1, x2, result)),
    x2=lambda grad, x1, x2, result: (lambda r, _, cols: x2 * cols - L.matmul(S.transpose(r, -1, -2), x1))(
        *_euclidean_grads(grad, x1, x2, result)))


def _euclidean_by_products(x1, x2):
    """|x1|^2 + |x2|^2 - 2 x1.x2 in one matrix product, clamped at 0 before the root, as PyTorch's
    _euclidean_dist computes it (a half-precision dtype rounding each step, its sums and product in
    float32), then viewed as the result (its ViewBackward0 over EuclideanDistBackward0)."""
    a, b = x1._data, x2._data
    xp, dt = backend.namespace(a), a.dtype
    wide = xp.float32 if dt.kind == "V" or dt.itemsize == 2 else dt
    n1 = (a * a).astype(wide).sum(-1, keepdims=True).astype(dt)
    n2 = (b * b).astype(wide).sum(-1, keepdims=True).astype(dt)
    left = xp.concatenate([a * dt.type(-2), n1, xp.ones_like(n1)], -1).astype(wide)
    right = xp.concatenate([b, xp.ones_like(n2), n2], -1).astype(wide)
    square = xp.maximum(xp.matmul(left, xp.swapaxes(right, -1, -2)).astype(dt), dt.type(0))
    out = x1._out_cls._make(xp.sqrt(square.astype(wide)).astype(dt))
    if _grad_enabled() and (x1._requires_grad or x2._requires_grad):
        EuclideanDistBackward0.record((x1, x2), out)
    return S.view(out, out._data.shape)


def cdist(x1, x2, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of `x1` and each row of `x2` (batch dims broadcast)."""
    policy = x1.policy
    if compute_mode not in _MODES:
        raise policy.errors.cdist_mode(mode=compute_mode)
    a, b = x1._data, x2._data
    for name, d in (("X1", a), ("X2", b)):
        if d.ndim < 2:
            raise policy.errors.cdist_dims(name=name, ndim=d.ndim)
    if a.shape[-1] != b.shape[-1]:
        raise policy.errors.cdist_columns(x1=a.shape[-1], x2=b.shape[-1])
    for name, d in (("X1", a), ("X2", b)):
        if d.dtype.kind not in "fV":
            raise policy.errors.cdist_dtype(name=name, dtype_scalar=d.dtype)
    if p < 0:
        raise policy.errors.cdist_p()
    use_mm = _MODES[compute_mode]
    by_products = p == 2 and (use_mm or (use_mm is None and (a.shape[-2] > 25 or b.shape[-2] > 25)))
    if not by_products and (a.dtype.kind == "V" or a.dtype.itemsize == 2):   # (PyTorch's direct kernel: none
        raise policy.errors.not_implemented_for(op="cdist", dtype_scalar=a.dtype)     # for half, bfloat16)
    if a.dtype != b.dtype:
        if by_products:
            raise policy.errors.mm_dtype(a_ctype=a.dtype, b_ctype=b.dtype)
        raise policy.errors.expected_scalar_type(a_scalar=a.dtype, b_scalar=b.dtype)
    error = broadcast_error(a.shape[:-2], b.shape[:-2], policy)
    if error is not None:
        raise error
    return _euclidean_by_products(x1, x2) if by_products else _direct(x1, x2, p)


METHODS: dict = {}
