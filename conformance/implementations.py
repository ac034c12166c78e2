"""The six implementations the suite knows (three facades, three real frameworks) and how to load
one. Importing this module imports no framework and no NumPy (the pytest plugin reads it at start)."""
from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass


@dataclass(frozen=True)
class Implementation:
    """One column of the matrix: a facade of flowgrad or a real framework."""

    name: str
    module: str
    family: str
    adapter: str    # "module:Class" under conformance.adapters

    @property
    def is_facade(self) -> bool:
        return self.name.startswith("flowgrad.")

    @property
    def partner(self) -> str:
        """The implementation this one must match exactly (facade <-> its real framework)."""
        return self.family if self.is_facade else f"flowgrad.{self.family}"


IMPLEMENTATIONS: dict[str, Implementation] = {i.name: i for i in (
    Implementation("flowgrad.torch", "flowgrad.torch", "torch", "torch_like:TorchAdapter"),
    Implementation("flowgrad.oneflow", "flowgrad.oneflow", "oneflow", "oneflow:OneFlowAdapter"),
    Implementation("flowgrad.paddle", "flowgrad.paddle", "paddle", "paddle:PaddleAdapter"),
    Implementation("torch", "torch", "torch", "torch_like:TorchAdapter"),
    Implementation("oneflow", "oneflow", "oneflow", "oneflow:OneFlowAdapter"),
    Implementation("paddle", "paddle", "paddle", "paddle:PaddleAdapter"),
)}
FACADES = [n for n, i in IMPLEMENTATIONS.items() if i.is_facade]
REAL = [n for n, i in IMPLEMENTATIONS.items() if not i.is_facade]
BASELINE_FAMILY = "torch"


class Unavailable(Exception):
    """The implementation cannot be imported here (not installed, or its import fails)."""


class UnknownImplementation(ValueError):
    """A name that is not one of IMPLEMENTATIONS."""


def get(name: str) -> Implementation:
    try:
        return IMPLEMENTATIONS[name]
    except KeyError:
        raise UnknownImplementation(
            f"unknown implementation {name!r}; choose from {', '.join(IMPLEMENTATIONS)}") from None


def is_installed(name: str) -> bool:
    """Whether the implementation's module can be found, without importing it (nor torch/paddle)."""
    module = get(name).module
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def adapter_class(name: str) -> type:
    mod_name, cls_name = get(name).adapter.split(":")
    return getattr(importlib.import_module(f"conformance.adapters.{mod_name}"), cls_name)


def load(name: str):
    """Import the implementation and wrap it in its adapter."""
    impl = get(name)
    if not is_installed(name):
        raise Unavailable("not installed")
    try:
        module = importlib.import_module(impl.module)
    except Exception as exc:  # noqa: BLE001 - any import failure means "unavailable here"
        first = (str(exc).strip().splitlines() or [""])[0]
        raise Unavailable(f"import failed: {type(exc).__name__}: {first}") from None
    return adapter_class(name)(name, module)


