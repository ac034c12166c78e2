"""The framework-neutral adapter every scenario is written against.

A scenario receives one `Adapter` (conventionally named `fw`) and uses only its methods, so the same
code runs on `flowgrad.torch`, `flowgrad.paddle`, `flowgrad.oneflow` and the real frameworks. Steps
that may legitimately raise are wrapped in `fw.step(label)` (or `fw.attempt`): the outcome, success or
the exception, becomes part of the observation. An exception escaping a scenario outside any step is
an *error* of that scenario, not an observed behaviour.
"""
from __future__ import annotations

import contextlib
import warnings
from typing import Any, Callable, Iterator

import numpy as np

DEFAULT: Any = type("Default", (), {"__repr__": lambda self: "DEFAULT"})()
"""Marks an argument left to the framework's own default (it is not passed at all)."""

# Features a family may lack; a scenario lists the ones it needs (`needs=`) and shows as unsupported
# on a family whose adapter does not offer them.
FEATURES = {
    "backward_inputs": "the inputs= argument of backward",
    "backward_create_graph": "create_graph= on backward (not only on grad)",
    "grad_batched": "is_grads_batched= on grad",
    "grad_materialize": "materialize_grads= on grad",
    "grad_only_inputs": "only_inputs= on grad",
    "no_grad_vars": "no_grad_vars= on grad",
    "hook_handle": "a removable handle returned by register_hook",
    "node_hooks": "hooks on grad_fn nodes (register_hook / register_prehook)",
    "post_accumulate_hook": "register_post_accumulate_grad_hook",
    "retains_grad_flag": "the Tensor.retains_grad attribute",
    "version_counter": "a version counter on tensors (in-place checks)",
    "graph_introspection": "grad_fn.next_functions",
    "leaf_grad_fn": "grad_fn of a leaf (its accumulation node)",
    "function_needs_input_grad": "ctx.needs_input_grad in custom functions",
    "function_mark_dirty": "ctx.mark_dirty in custom functions",
    "function_materialize_grads": "ctx.set_materialize_grads in custom functions",
    "function_non_tensor_args": "non-tensor arguments to a custom function's apply",
    "inference_mode": "inference_mode",
    "saved_tensors_hooks": "saved-tensor pack/unpack hooks",
    "dump_backward_graph_path": "dump_backward_graph_path= on backward",
    "anomaly_mode": "anomaly detection",
    "functional_api": "autograd.functional (jacobian, hessian, vjp)",
}


class Unsupported(Exception):
    """Raised by an adapter for a feature its framework does not offer."""

    def __init__(self, feature: str, detail: str = "") -> None:
        self.feature = feature
        super().__init__(detail or FEATURES.get(feature, feature))


class StepRecord:
    """The outcome of one `fw.step`: success or the exception raised (filled in on exit)."""

    __slots__ = ("label", "exception", "value")

    def __init__(self, label: str) -> None:
        self.label = label
        self.exception: BaseException | None = None
        self.value: Any = None

    @property
    def ok(self) -> bool:
        return self.exception is None


class Adapter:
    """One implementation (facade or real framework) seen through a neutral API.

    Subclasses fill in the framework's spellings; `name` is the implementation ("flowgrad.paddle",
    "paddle", ...), `family` the framework it speaks ("torch", "paddle", "oneflow").
    """

    family: str = ""
    features: frozenset = frozenset()

    def __init__(self, name: str, module: Any) -> None:
        self.name = name
        self.module = module
        self.is_facade = name.startswith("flowgrad.")
        self.version = str(getattr(module, "__version__", "unknown"))
        self._steps: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} {self.version}>"

    # ------------------------------------------------------------------ observation recording
    def begin(self) -> None:
        """Start a fresh observation (called by the runner before each scenario)."""
        self._steps = {}
        self.reset()

    def recorded(self) -> dict[str, Any]:
        return self._steps

    def _label(self, label: str) -> str:
        if label in self._steps:
            raise ValueError(f"step label {label!r} used twice in one scenario")
        return label

    @contextlib.contextmanager
    def step(self, label: str) -> Iterator[StepRecord]:
        """Run a block whose success or exception is part of the observation; never re-raises
        (except `Unsupported`, which makes the whole cell unsupported)."""
        record = StepRecord(self._label(label))
        self._steps[label] = record
        try:
            yield record
        except Unsupported:
            raise
        except Exception as exc:  # noqa: BLE001 - the exception *is* the observation
            record.exception = exc

    def attempt(self, label: str, fn: Callable, *args: Any, **kwargs: Any) -> Any:
        """Call `fn(*args, **kwargs)` as a step; returns its result, or None if it raised."""
        with self.step(label) as record:
            record.value = fn(*args, **kwargs)
        return record.value

    @contextlib.contextmanager
    def warns(self, label: str) -> Iterator[list]:
        """Record the warnings raised in the block (category and message) under `label`."""
        self._label(label)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield caught
        self._steps[label] = [WarningRecord(w.category.__name__, str(w.message)) for w in caught]

    # ------------------------------------------------------------------ framework-neutral API
    def reset(self) -> None:
        """Restore global state a scenario may have changed (grad mode)."""
        self.set_grad_enabled(True)

    def supports(self, feature: str) -> bool:
        return feature in self.features

    def need(self, feature: str) -> None:
        if feature not in self.features:
            raise Unsupported(feature, f"{self.family}: no {FEATURES.get(feature, feature)}")

    # ------------------------------------------------ spellings every framework shares
    def exp(self, x: Any) -> Any: return self.module.exp(x)
    def log(self, x: Any) -> Any: return self.module.log(x)
    def sin(self, x: Any) -> Any: return self.module.sin(x)
    def cos(self, x: Any) -> Any: return self.module.cos(x)
    def tanh(self, x: Any) -> Any: return self.module.tanh(x)
    def sqrt(self, x: Any) -> Any: return self.module.sqrt(x)
    def abs(self, x: Any) -> Any: return self.module.abs(x)
    def pow(self, x: Any, e: Any) -> Any: return self.module.pow(x, e)
    def maximum(self, a: Any, b: Any) -> Any: return self.module.maximum(a, b)
    def minimum(self, a: Any, b: Any) -> Any: return self.module.minimum(a, b)
    def matmul(self, a: Any, b: Any) -> Any: return self.module.matmul(a, b)
    def where(self, cond: Any, a: Any, b: Any) -> Any: return self.module.where(cond, a, b)

    def no_grad(self) -> Any:
        return self.module.no_grad()

    def no_grad_bare(self, fn: Callable) -> Any:
        """`no_grad` applied to a function without instantiating it (`@no_grad` with no parentheses)."""
        return self.module.no_grad(fn)

    def enable_grad(self) -> Any:
        return self.module.enable_grad()

    def set_grad_enabled(self, flag: bool) -> Any:
        return self.module.set_grad_enabled(flag)

    def is_grad_enabled(self) -> bool:
        return bool(self.module.is_grad_enabled())

    def is_tensor(self, value: Any) -> bool:
        raise NotImplementedError

    def to_numpy(self, t: Any) -> np.ndarray:
        raise NotImplementedError

    def dtype_name(self, t: Any) -> str:
        """The tensor's dtype as NumPy spells it ("float32", "int64", "bool")."""
        return str(self.to_numpy(t).dtype)


class WarningRecord:
    """A warning seen in `fw.warns`: its category name and message."""

    __slots__ = ("category", "message")

    def __init__(self, category: str, message: str) -> None:
        self.category = category
        self.message = message


def only_given(**kwargs: Any) -> dict[str, Any]:
    """The keyword arguments that are not DEFAULT (so the framework's defaults apply)."""
    return {k: v for k, v in kwargs.items() if v is not DEFAULT}
