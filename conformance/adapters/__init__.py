"""Adapters: one framework-neutral API over each implementation, and the table of implementations.

`IMPLEMENTATIONS` names the six implementations the suite knows; `load(name)` imports one and
returns its adapter, or raises `Unavailable` with a one-line reason (never imports at module load).
"""
from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass

from .base import DEFAULT, FEATURES, Adapter, Unsupported


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


def adapter_class(name: str) -> type[Adapter]:
    mod_name, cls_name = get(name).adapter.split(":")
    return getattr(importlib.import_module(f"{__name__}.{mod_name}"), cls_name)


def load(name: str) -> Adapter:
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


__all__ = ["Adapter", "DEFAULT", "FEATURES", "IMPLEMENTATIONS", "FACADES", "REAL", "Implementation",
           "Unavailable", "UnknownImplementation", "Unsupported", "get", "is_installed", "load"]
