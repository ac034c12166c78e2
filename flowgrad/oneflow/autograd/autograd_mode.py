"""oneflow.autograd.autograd_mode: OneFlow's grad-mode switches. Each must be instantiated to
decorate (`@flow.no_grad()`; the bare `@flow.no_grad` is a TypeError), `inference_mode(mode)` is
no_grad (mode True) or enable_grad, and `set_grad_enabled(is_train=True)` acts in its constructor."""
from __future__ import annotations

from ...autograd import mode as _mode
from ...autograd.mode import is_grad_enabled  # noqa: F401

__all__ = ["no_grad", "enable_grad", "inference_mode", "set_grad_enabled", "is_grad_enabled"]


class no_grad(_mode.no_grad):
    """Disable recording of the graph inside the block (or the decorated function)."""

    def __new__(cls):
        return object.__new__(cls)


class enable_grad(_mode.enable_grad):
    """Enable recording inside the block (undoes an enclosing no_grad)."""

    def __new__(cls):
        return object.__new__(cls)


class inference_mode(no_grad):
    """OneFlow's inference mode is grad mode off (`mode=True`) or on (`mode=False`), nothing more."""

    def __new__(cls, mode: bool = True):
        return object.__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        super().__init__()
        self.mode = mode

    def __enter__(self) -> None:
        (super().__enter__ if self.mode else enable_grad.__enter__.__get__(self))()

    def clone(self):
        return type(self)(self.mode)


class set_grad_enabled(_mode.set_grad_enabled):
    """Set grad mode now; as a context manager or decorator, the mode from before comes back after."""

    def __init__(self, is_train: bool = True) -> None:
        super().__init__(is_train)
