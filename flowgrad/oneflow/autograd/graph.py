"""oneflow.autograd.graph: saved-tensor hooks, OneFlow's only member here."""
from __future__ import annotations

from ...autograd.hooks import saved_tensors_hooks  # noqa: F401

__all__ = ["saved_tensors_hooks"]
