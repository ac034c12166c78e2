"""Integer arithmetic PyTorch offers elementwise on integer tensors: gcd and lcm (results in the
promoted integer dtype, never negative, 0 where both are 0; no gradient)."""
from __future__ import annotations

from .. import backend
from ._args import binary_arrays, broadcast_error
from . import elementwise as E

__all__ = ["gcd", "lcm"]


def _integer_op(name: str, a, b):
    E.tensors_only(name, a, b)
    cls, x, y, _, _ = binary_arrays(a, b)
    err = broadcast_error(x.shape, y.shape, cls.policy)
    if err is not None:
        raise err
    dt = x.dtype
    if dt.kind not in "iu":
        raise cls.policy.errors.not_implemented_for(op=f"{name}_cpu", dtype_scalar=dt)
    return cls._make(getattr(backend.namespace(x), name)(x, y).astype(dt, copy=False))


def gcd(input, other):
    """The greatest common divisor of each pair of elements."""
    return _integer_op("gcd", input, other)


def lcm(input, other):
    """The least common multiple of each pair of elements."""
    return _integer_op("lcm", input, other)


METHODS = {"gcd": gcd, "lcm": lcm}
