"""torch.autograd.graph: nodes, gradient edges, saved-tensor hooks, multi-gradient hooks."""
from __future__ import annotations

from ...autograd.api import GradientEdge, get_gradient_edge  # noqa: F401
from ...autograd.graph import Node  # noqa: F401
from ...autograd.hooks import MultiHandle as _MultiHandle  # noqa: F401
from ...autograd.hooks import (disable_saved_tensors_hooks, register_multi_grad_hook, save_on_cpu,  # noqa: F401
                               saved_tensors_hooks)

__all__ = ["saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks", "register_multi_grad_hook", "Node",
           "GradientEdge", "get_gradient_edge", "increment_version"]


def increment_version(tensor) -> None:
    """Bump the version counter of a tensor (or of each tensor in an iterable), as an in-place
    change made behind autograd's back would have; inference tensors have none and are skipped."""
    for t in (tensor,) if hasattr(tensor, "_vc") else tensor:
        if not t.is_inference():
            t._bump()
