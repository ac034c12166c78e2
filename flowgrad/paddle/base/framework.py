"""paddle.base.framework: `Variable` (every tensor is one in the dynamic graph), the mode queries."""
from __future__ import annotations

from . import core  # noqa: F401
from .._tensor import Tensor


class _VariableMeta(type):
    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    """paddle's static-graph variable type; in the dynamic graph, `isinstance(tensor, Variable)` holds."""


def in_dygraph_mode() -> bool:
    return True


in_dynamic_mode = in_dygraph_mode
