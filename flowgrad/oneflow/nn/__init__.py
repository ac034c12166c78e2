"""oneflow.nn: the framework-neutral flowgrad.nn classes under OneFlow's names (presented by the
facade kit), building oneflow tensors and parameters; `zero_grad` zero-fills by default."""
from __future__ import annotations

from ... import nn as _nn
from ...facade import nn as _kit
from ...nn import parameter as _p
from ...tensor import zero_grads as _zero_grads
from .._tensor import Tensor as _Tensor
from . import functional, init, utils  # noqa: F401


class Parameter(_p.Parameter, _Tensor):
    """A oneflow.Tensor that a Module registers as a parameter (it prints as a plain tensor)."""

    __slots__ = ()
    _out_cls = _Tensor


def _zero_grad(self, set_to_none: bool = False) -> None:
    """Zero the parameters' `.grad` in place (OneFlow's default), or drop them with set_to_none=True."""
    _zero_grads(self.parameters(), set_to_none)


globals().update(_kit.build(__name__, _Tensor, Parameter, zero_grad=_zero_grad))

__all__ = ["Module", "Parameter", "functional", "init", "utils"] + sorted(_nn.MODULE_CLASSES)
