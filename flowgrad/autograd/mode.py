"""Grad mode, inference mode and anomaly mode: thread-local switches, usable as context managers
and as decorators (with or without parentheses, on functions and generators)."""
from __future__ import annotations

import contextvars
import functools
import inspect
import threading
import warnings

from .policy import TORCH  # grad modes belong to no facade (paddle has its own): PyTorch's words

# The three switches every op reads live in context variables: a read costs a quarter of a
# threading.local attribute, and a new thread starts from the defaults, so they are per thread.
_grad = contextvars.ContextVar("flowgrad.grad_enabled", default=True)
_inference = contextvars.ContextVar("flowgrad.inference", default=False)
_anomaly = contextvars.ContextVar("flowgrad.anomaly", default=False)
_saved_hooks = contextvars.ContextVar("flowgrad.saved_hooks", default=())
_graph_tasks = contextvars.ContextVar("flowgrad.graph_tasks", default=())
# inside vmap(randomness="error"): the policy whose error a random draw raises, else None
_random_refused = contextvars.ContextVar("flowgrad.random_refused", default=None)
FORWARD_TRACES = [False]  # process-wide, not per thread: see set_forward_traces
TRACING = [False]  # set for good once anomaly mode or forward traces are first switched on: until then
#                    ops skip the per-thread check (sticky, so contexts copied between tasks can't fool it)
grad_enabled = _grad.get          # hot-path readers: call these instead of state.<switch>
inference_enabled = _inference.get
anomaly_enabled = _anomaly.get
saved_hooks = _saved_hooks.get    # the stack of (pack, unpack) pairs of saved_tensors_hooks


def _switch(var):
    return property(lambda self: var.get(), lambda self, value: var.set(value))


def _set_anomaly(self, value) -> None:
    if value:
        TRACING[0] = True
    _anomaly.set(value)


class _State(threading.local):
    """Per-thread switches; class attributes are the defaults every new thread starts with."""

    grad_enabled = _switch(_grad)
    inference = _switch(_inference)
    anomaly = property(lambda self: _anomaly.get(), _set_anomaly)
    anomaly_check_nan = True
    forward_traces = property(lambda self: FORWARD_TRACES[0])             # record each node's forward stack (see set_forward_traces)
    saved_hooks = _switch(_saved_hooks)  # stack of (pack, unpack) pairs
    saved_hooks_disabled: str | None = None
    graph_tasks = _switch(_graph_tasks)  # the backward passes running on this thread (engine._GraphTask)


state = _State()


def is_grad_enabled() -> bool:
    return _grad.get()


def is_inference_mode_enabled() -> bool:
    return _inference.get()


class _DecoratorContextManager:
    """Base for mode switches: `with m():`, `@m()`, and (for subclasses that allow it) `@m`."""

    def __call__(self, func):
        if inspect.isclass(func):
            warnings.warn(TORCH.errors.decorate_class(), stacklevel=2)
            func.__init__ = self(func.__init__)
            return func
        if inspect.isgeneratorfunction(func):
            return self._wrap_generator(func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)
        return wrapper

    def _wrap_generator(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            gen = func(*args, **kwargs)
            try:
                with self.clone():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with self.clone():
                            gen.close()
                        raise
                    except BaseException as exc:
                        with self.clone():
                            response = gen.throw(exc)
                    else:
                        with self.clone():
                            response = gen.send(request)
            except StopIteration as e:
                return e.value
        return wrapper

    def clone(self):
        return self.__class__()


class _NoParamDecoratorContextManager(_DecoratorContextManager):
    """Allows the bare decorator form `@no_grad` as well as `@no_grad()`."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamDecoratorContextManager):
    """Disable recording of the graph inside the block."""

    def __init__(self) -> None:
        self.prev = False

    def __enter__(self) -> None:
        self.prev = state.grad_enabled
        state.grad_enabled = False

    def __exit__(self, *exc) -> None:
        state.grad_enabled = self.prev


class enable_grad(_NoParamDecoratorContextManager):
    """Enable recording inside the block (undoes an enclosing no_grad)."""

    def __enter__(self) -> None:
        self.prev = state.grad_enabled
        state.grad_enabled = True

    def __exit__(self, *exc) -> None:
        state.grad_enabled = self.prev


class set_grad_enabled(_DecoratorContextManager):
    """Set grad mode now (in the constructor); as a context manager, restore the old mode on exit."""

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise TORCH.errors.grad_enabled_type(type=type(mode).__name__)
        self.prev = state.grad_enabled
        self.mode = mode
        state.grad_enabled = mode

    def __call__(self, func):
        state.grad_enabled = self.prev          # as a decorator it must not change the mode now
        return super().__call__(func)

    def __enter__(self) -> None:
        state.grad_enabled = self.mode

    def __exit__(self, *exc) -> None:
        state.grad_enabled = self.prev

    def clone(self):
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    """Like no_grad, and tensors created inside are inference tensors."""

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def __enter__(self) -> None:
        self.prev = (state.grad_enabled, state.inference)
        state.grad_enabled, state.inference = not self.mode, self.mode

    def __exit__(self, *exc) -> None:
        state.grad_enabled, state.inference = self.prev

    def clone(self):
        return self.__class__(self.mode)


class _GradModeGuard:
    """Internal: set grad mode for the duration of a block (used by the engine)."""

    __slots__ = ("mode", "prev")

    def __init__(self, mode: bool):
        self.mode = mode

    def __enter__(self):
        self.prev = _grad.set(self.mode)

    def __exit__(self, *exc):
        _grad.reset(self.prev)


# ------------------------------------------------------------------------------------ anomaly


def set_forward_traces(enabled: bool) -> None:
    """Record the Python stack of the forward call on every node created from now on, in every
    thread (paddle's FLAGS_call_stack_level=3); anomaly mode records it too, per thread."""
    if enabled:
        TRACING[0] = True
    FORWARD_TRACES[0] = bool(enabled)


def is_anomaly_enabled() -> bool:
    return state.anomaly


def is_anomaly_check_nan_enabled() -> bool:
    return state.anomaly_check_nan


class detect_anomaly:
    """Record forward tracebacks on nodes and check backward outputs for NaN (a context manager
    only: PyTorch's is not a decorator)."""

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan
        warnings.warn(TORCH.errors.anomaly_enabled(), stacklevel=2)

    def __enter__(self) -> None:
        self.prev = (state.anomaly, state.anomaly_check_nan)
        state.anomaly, state.anomaly_check_nan = True, self.check_nan

    def __exit__(self, *exc) -> None:
        state.anomaly, state.anomaly_check_nan = self.prev


class set_detect_anomaly:
    """Set anomaly mode now; restore the previous setting when used as a context manager."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = (state.anomaly, state.anomaly_check_nan)
        state.anomaly, state.anomaly_check_nan = mode, check_nan

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        state.anomaly, state.anomaly_check_nan = self.prev
