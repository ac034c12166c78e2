"""torch.nn.Parameter: the neutral Parameter as a torch.Tensor (ops on it give plain tensors)."""
from __future__ import annotations

from ...nn import parameter as _p
from .._tensor import Tensor


class Parameter(_p.Parameter, Tensor):
    """A torch.Tensor that a Module registers as a parameter."""

    __slots__ = ()
    _out_cls = Tensor

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()


__all__ = ["Parameter"]
