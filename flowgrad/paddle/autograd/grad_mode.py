"""paddle.no_grad, enable_grad, set_grad_enabled and is_grad_enabled over flowgrad's grad mode.

Paddle's decorator protocol differs from PyTorch's, and the facade keeps it: the classes take no
argument (`@paddle.no_grad` without parentheses raises `TypeError: no_grad_() takes no
arguments`), a decorated generator stays in the mode between its yields, and `set_grad_enabled`
switches the mode as soon as it is constructed, also when it is used as a decorator.
"""
from __future__ import annotations

import functools
import inspect

from ...autograd import mode


def is_grad_enabled() -> bool:
    return mode.state.grad_enabled


def _set_has_grad(enabled) -> None:
    if not isinstance(enabled, bool):
        raise TypeError("_set_has_grad(): incompatible function arguments. The following argument types are "
                        f"supported:\n    1. (arg0: bool) -> None\n\nInvoked with: {enabled!r}")
    mode.state.grad_enabled = enabled


class _DecoratorContextManager:
    """A context manager that is also a decorator (of functions and generators)."""

    def __call__(self, func):
        @functools.wraps(func)
        def _decorate_function(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        @functools.wraps(func)
        def _decorate_generator(*args, **kwargs):
            gen = func(*args, **kwargs)
            with self:
                yield from gen

        decorated = _decorate_generator if inspect.isgeneratorfunction(func) else _decorate_function
        decorated.__signature__ = inspect.signature(func)  # so inspect.getfullargspec sees func's arguments
        decorated.__decorated_by__ = self
        return decorated

    def __enter__(self):
        raise NotImplementedError

    def __exit__(self, *exc):
        raise NotImplementedError

    def clone(self):
        return self.__class__()


class no_grad_(_DecoratorContextManager):
    """Disable gradient recording: `with paddle.no_grad():` or `@paddle.no_grad()`."""

    def __enter__(self) -> None:
        self.prev = is_grad_enabled()
        _set_has_grad(False)

    def __exit__(self, *exc) -> None:
        _set_has_grad(self.prev)


class enable_grad(_DecoratorContextManager):
    """Re-enable gradient recording inside a no_grad block."""

    def __enter__(self) -> None:
        self.prev = is_grad_enabled()
        _set_has_grad(True)

    def __exit__(self, *exc) -> None:
        _set_has_grad(self.prev)


class set_grad_enabled(_DecoratorContextManager):
    """Switch gradient recording now; as a context manager, restore the previous mode on exit."""

    def __init__(self, mode: bool) -> None:
        self.prev = is_grad_enabled()
        _set_has_grad(mode)
        self.mode = mode

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        _set_has_grad(self.prev)

    def clone(self):
        return self.__class__(self.mode)


no_grad = no_grad_
