"""Adapters: one framework-neutral API (`base.Adapter`) over each implementation; the table of
implementations lives in `conformance.implementations` and is re-exported here."""
from __future__ import annotations

from ..implementations import (BASELINE_FAMILY, FACADES, IMPLEMENTATIONS, REAL, Implementation, Unavailable,
                               UnknownImplementation, adapter_class, get, is_installed, load)
from .base import DEFAULT, FEATURES, Adapter, Unsupported

__all__ = ["Adapter", "BASELINE_FAMILY", "DEFAULT", "FEATURES", "IMPLEMENTATIONS", "FACADES", "REAL",
           "Implementation", "Unavailable", "UnknownImplementation", "Unsupported", "adapter_class", "get",
           "is_installed", "load"]
