"""torch.autograd.function: custom autograd Functions (flowgrad/autograd/function.py)."""
from __future__ import annotations

from ...autograd.function import (BackwardCFunction, Function, FunctionCtx, FunctionMeta,  # noqa: F401
                                  InplaceFunction, once_differentiable)

_ContextMethodMixin = FunctionCtx  # PyTorch's former name, kept for old pickles and imports

__all__ = ["FunctionCtx", "BackwardCFunction", "FunctionMeta", "Function", "once_differentiable", "InplaceFunction"]
