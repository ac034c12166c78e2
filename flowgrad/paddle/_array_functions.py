"""paddle's names and arguments for the op table's array functions: gcd / lcm, rot90, tensor_split,
block_diag, cartesian_prod, combinations, take, isin, quantile / nanquantile, trapezoid /
cumulative_trapezoid, vander, addmm / baddbmm (and the in-place and Tensor forms paddle offers)."""
from __future__ import annotations

import numpy as np

from .. import backend
from .. import ops as _ops


def gcd(x, y, name=None):
    return _ops.gcd(x, y)


def lcm(x, y, name=None):
    return _ops.lcm(x, y)


def gcd_(x, y, name=None):
    return _ops.inplace(x, _ops.gcd, y)


def lcm_(x, y, name=None):
    return _ops.inplace(x, _ops.lcm, y)


def rot90(x, k=1, axes=(0, 1), name=None):
    axes = list(axes)
    if len(axes) == 2 and x._data.ndim >= 2 and abs(axes[0] - axes[1]) == x._data.ndim:
        raise x.policy.errors.rot90_same_dims(dim0=axes[0], dim1=axes[1])   # (paddle compares before wrapping)
    return _ops.rot90(x, k, axes)


def tensor_split(x, num_or_indices, axis=0, name=None):
    return list(_ops.tensor_split(x, num_or_indices, axis))


def block_diag(inputs, name=None):
    return _ops.block_diag(*inputs)


def cartesian_prod(x, name=None):
    return _ops.cartesian_prod(*x)


def combinations(x, r=2, with_replacement=False, name=None):
    return _ops.combinations(x, r, with_replacement)


def take(x, index, mode="raise", name=None):
    """The elements of the flattened `x` at `index`; out-of-range positions raise, wrap around
    (`mode="wrap"`) or are clipped to the ends (`"clip"`)."""
    if mode not in ("raise", "wrap", "clip"):
        raise x.policy.errors.take_mode(mode=mode)
    if mode != "raise":
        i, n = index._data, x._data.size
        xp = backend.namespace(i)
        index = index._new(xp.remainder(i, n) if mode == "wrap" else xp.clip(i, 0, n - 1))
    return _ops.take(x, index)


def isin(x, test_x, assume_unique=False, invert=False, name=None):
    return _ops.isin(x, test_x, assume_unique, invert)


def _quantile(fn, x, q, axis, keepdim, interpolation):
    if isinstance(axis, (list, tuple)):
        raise x.policy.errors.argument_unsupported(name=fn.__name__, argument="axis", value=axis, default=None)
    if isinstance(q, (list, tuple)):
        q = x._new(backend.namespace(x._data).asarray(np.asarray(q, dtype=x._data.dtype)))
    return fn(x, q, axis, keepdim, interpolation)


def quantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None):
    return _quantile(_ops.quantile, x, q, axis, keepdim, interpolation)


def nanquantile(x, q, axis=None, keepdim=False, interpolation="linear", name=None):
    return _quantile(_ops.nanquantile, x, q, axis, keepdim, interpolation)


def trapezoid(y, x=None, dx=None, axis=-1, name=None):
    return _ops.trapezoid(y, x, dx, axis)


def cumulative_trapezoid(y, x=None, dx=None, axis=-1, name=None):
    return _ops.cumulative_trapezoid(y, x, dx, axis)


def vander(x, n=None, increasing=False, name=None):
    return _ops.vander(x, n, increasing)


def addmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    return _ops.addmm(input, x, y, beta, alpha)


def baddbmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    return _ops.baddbmm(input, x, y, beta, alpha)


def addmm_(input, x, y, beta=1.0, alpha=1.0, name=None):
    return _ops.inplace(input, _ops.addmm, x, y, beta, alpha, _in_place=True)


def baddbmm_(input, x, y, beta=1.0, alpha=1.0, name=None):
    return _ops.inplace(input, _ops.baddbmm, x, y, beta, alpha, _in_place=True)


FUNCTIONS = {fn.__name__: fn for fn in (
    gcd, lcm, gcd_, lcm_, rot90, tensor_split, block_diag, cartesian_prod, combinations, take, isin, quantile,
    nanquantile, trapezoid, cumulative_trapezoid, vander, addmm, baddbmm, addmm_, baddbmm_)}
# paddle's Tensor methods among them (paddle has no Tensor.cartesian_prod)
METHODS = {name: fn for name, fn in FUNCTIONS.items() if name != "cartesian_prod"}
