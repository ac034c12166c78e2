"""Integration by the trapezoid rule along a dim, as PyTorch composes it: trapezoid (the integral)
and cumulative_trapezoid (its running values), over sample points `x` or a constant spacing `dx`."""
from __future__ import annotations

from ..tensor import Tensor
from ._args import normalize_dim
from .. import backend
from ..autograd.mode import no_grad
from ._declare import recording, variant
from . import elementwise as E
from . import reduction as R
from . import shape as S

__all__ = ["trapezoid", "cumulative_trapezoid"]

# PyTorch's C++ kernels scale by a Scalar, not a wrapped number: its nodes then are MulBackward1 / DivBackward1
MulBackward1 = variant(E.MulBackward0, "MulBackward1", paddle="MultiplyGradNode", oneflow="scalar_mulBackward")
DivBackward1 = variant(E.DivBackward0, "DivBackward1", paddle="DivideGradNode", oneflow="scalar_divBackward")


def _by_scalar(x, s: float, divide: bool = False):
    """`x * s` (or `x / s`) recorded as PyTorch's Scalar kernels record it."""
    with no_grad():
        out = E.div(x, s) if divide else E.mul(x, s)
    if recording(x):
        (DivBackward1 if divide else MulBackward1).record((x, None), out, x, s)
    return out


def _both_given(y, x, dx, op: str) -> None:
    """PyTorch's overloads take sample points or a spacing, not both."""
    if x is not None and dx is not None:
        err = y.policy.errors.trapezoid_x_and_dx(op=op)
        err.parser_refuses = "dx"   # (the facade words it as PyTorch's argument parser does)
        raise err


def _spacing(y, x, dx, dim: int, op: str):
    """The sample spacing: differences of `x` (viewed to line up with `y`'s dims), or `dx`."""
    policy = y.policy
    if x is None:
        if isinstance(dx, (bool, complex)):
            raise policy.errors.trapezoid_dx(op=op)
        return float(dx)
    if y._data.dtype.kind == "b" or x._data.dtype.kind == "b":
        raise policy.errors.trapezoid_bool(op=op, inputs="x` or `y")
    xd, nd = x._data, y._data.ndim
    if xd.ndim == 1:
        if xd.shape[0] != y._data.shape[dim]:
            raise policy.errors.trapezoid_samples(op=op)
        shape = [1] * nd
        shape[dim] = xd.shape[0]
        x = S.reshape(x, tuple(shape))
    elif xd.ndim < nd:
        x = S.reshape(x, (1,) * (nd - xd.ndim) + tuple(xd.shape))
    return _later(x, dim) - _earlier(x, dim)


def _earlier(t, dim):
    return S.getitem(t, (slice(None),) * dim + (slice(None, -1),))


def _later(t, dim):
    return S.getitem(t, (slice(None),) * dim + (slice(1, None),))


def _pairs(y, dim):
    return _earlier(y, dim) + _later(y, dim)


def trapezoid(y, x=None, dx=None, dim=-1):
    """The integral of `y` along `dim` by the trapezoid rule (0 where there are no samples)."""
    _both_given(y, x, dx, "trapezoid")
    dim = normalize_dim(dim, y._data.ndim, y.policy)
    if y._data.shape[dim] == 0:
        shape = tuple(s for i, s in enumerate(y._data.shape) if i != dim)
        return y._new(backend.namespace(y._data).zeros(shape, dtype=y._data.dtype))
    if x is None and y._data.dtype.kind == "b":
        raise y.policy.errors.trapezoid_bool(op="trapezoid", inputs="y")
    step = _spacing(y, x, 1 if dx is None else dx, dim, "trapezoid")
    if isinstance(step, Tensor):
        return _by_scalar(R.sum(_pairs(y, dim) * step, dim), 2.0, divide=True)
    return _by_scalar(R.sum(y, dim) - _by_scalar(S.select(y, dim, 0) + S.select(y, dim, -1), 0.5), step)


def cumulative_trapezoid(y, x=None, dx=None, dim=-1):
    """The running integral of `y` along `dim` by the trapezoid rule (one value fewer than `y`)."""
    _both_given(y, x, dx, "cumulative_trapezoid")
    dim = normalize_dim(dim, y._data.ndim, y.policy)
    if x is None and y._data.dtype.kind == "b":
        raise y.policy.errors.trapezoid_bool(op="cumulative_trapezoid", inputs="y")
    step = _spacing(y, x, 1 if dx is None else dx, dim, "cumulative_trapezoid")
    if isinstance(step, Tensor):
        return _by_scalar(R.cumsum(_pairs(y, dim) * step, dim), 2.0, divide=True)
    return R.cumsum(_by_scalar(_pairs(y, dim), step / 2.0), dim)
