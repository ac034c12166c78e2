"""oneflow.autograd.Function: custom Functions (flowgrad/autograd/function.py) with OneFlow's call
forms, `Fn.apply(x)`, `Fn().apply(x)` and `Fn()(x)`; the policy gives OneFlow's rules (tensor or
None arguments, tuple results, a gradient for every input that requires grad)."""
from __future__ import annotations

from ...autograd import function as _function

__all__ = ["Function"]


class Function(_function.Function):
    """Base class of custom autograd operations: subclass it with static `forward(ctx, *inputs)` and
    `backward(ctx, *out_grads)`, call `apply` (on the class or an instance) or the instance."""

    def __init__(self) -> None:
        """OneFlow instantiates Functions freely (no deprecation warning)."""

    def __call__(self, *inputs):
        return self.apply(*inputs)
