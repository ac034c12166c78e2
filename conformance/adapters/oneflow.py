"""The adapter for OneFlow's API: real `oneflow` and `flowgrad.oneflow`.

OneFlow mirrors PyTorch's names (https://oneflow.readthedocs.io/en/master/autograd.html) with fewer
options: `oneflow.autograd.backward(tensors, grad_tensors, retain_graph=False, create_graph=False)`
takes `grad_tensors` positionally and has no `inputs=`; `register_hook` returns no handle; custom
functions take tensors only and have no needs_input_grad / mark_dirty / set_materialize_grads;
tensors carry no version counter. Names not listed here are PyTorch's.
"""
from __future__ import annotations

from typing import Any, Callable

from .base import DEFAULT, Unsupported, only_given
from .torch_like import TorchAdapter

ONEFLOW_FEATURES = frozenset({
    "backward_create_graph", "grad_batched", "graph_introspection", "leaf_grad_fn", "inference_mode",
    "saved_tensors_hooks", "functional_api",
})


class OneFlowAdapter(TorchAdapter):
    """OneFlow spellings: PyTorch's, minus the options OneFlow does not have."""

    family = "oneflow"
    features = ONEFLOW_FEATURES

    def backward(self, tensors, grad_tensors=None, *, retain_graph=DEFAULT, create_graph=DEFAULT,
                 inputs=DEFAULT) -> None:
        if inputs is not DEFAULT:
            raise Unsupported("backward_inputs")
        # grad_tensors is a required positional argument in OneFlow; None means "implicit".
        self.module.autograd.backward(tensors, grad_tensors, **only_given(
            retain_graph=retain_graph, create_graph=create_graph))

    def tensor_backward(self, t, gradient=DEFAULT, *, retain_graph=DEFAULT, create_graph=DEFAULT,
                        inputs=DEFAULT) -> None:
        if inputs is not DEFAULT:
            raise Unsupported("backward_inputs")
        kw = only_given(retain_graph=retain_graph, create_graph=create_graph)
        if gradient is not DEFAULT:
            kw["gradient"] = gradient
        t.backward(**kw)

    def grad_raw(self, outputs, inputs, grad_outputs=DEFAULT, *, retain_graph=DEFAULT, create_graph=DEFAULT,
                 allow_unused=DEFAULT, is_grads_batched=DEFAULT, materialize_grads=DEFAULT,
                 only_inputs=DEFAULT, no_grad_vars=DEFAULT) -> Any:
        if materialize_grads is not DEFAULT:
            raise Unsupported("grad_materialize")
        if only_inputs is not DEFAULT:
            raise Unsupported("grad_only_inputs")
        if no_grad_vars is not DEFAULT:
            raise Unsupported("no_grad_vars")
        return self.module.autograd.grad(outputs, inputs, **only_given(
            grad_outputs=grad_outputs, retain_graph=retain_graph, create_graph=create_graph,
            allow_unused=allow_unused, is_grads_batched=is_grads_batched))

    def zero_grad(self, t) -> None:
        """OneFlow's zero_grad defaults to set_to_none=False: the gradient is zero-filled."""
        if t.grad is not None:
            t.grad.zero_()

    def retains_grad(self, t) -> bool:
        raise Unsupported("retains_grad_flag")

    def remove_hook(self, handle) -> Any:
        raise Unsupported("hook_handle")

    def register_post_accumulate_hook(self, t, fn: Callable) -> Any:
        raise Unsupported("post_accumulate_hook")

    def register_node_hook(self, t, fn: Callable) -> Any:
        raise Unsupported("node_hooks")

    def register_node_prehook(self, t, fn: Callable) -> Any:
        raise Unsupported("node_hooks")

    def version_of(self, t) -> int:
        raise Unsupported("version_counter")

    def next_nodes(self, node) -> list:
        """OneFlow's `next_functions` is a list of (node, 0) pairs."""
        return [n for n, _ in node.next_functions if n is not None]
