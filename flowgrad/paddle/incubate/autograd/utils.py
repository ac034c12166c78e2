"""paddle.incubate.autograd.utils."""
from __future__ import annotations

from ..._tensor import Tensor


def as_tensors(xs) -> tuple:
    """A tensor, or a sequence of them, as a tuple."""
    if isinstance(xs, Tensor):
        return (xs,)
    return tuple(xs)
