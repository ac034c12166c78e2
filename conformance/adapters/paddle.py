"""The adapter for PaddlePaddle's dynamic graph: real `paddle` and `flowgrad.paddle`.

Paddle's spellings: `stop_gradient` (the inverse of requires_grad), `paddle.autograd.backward`
(no create_graph, no inputs=), `paddle.grad` (returns a list, has no_grad_vars), `PyLayer` with
`ctx.saved_tensor()`, `retain_grads()`, `clear_grad()` and `dump_backward_graph_path=`.
"""
from __future__ import annotations

import os
from typing import Any, Callable, Sequence

import numpy as np

from .base import DEFAULT, Adapter, Unsupported, only_given

PADDLE_FEATURES = frozenset({
    "grad_only_inputs", "no_grad_vars", "hook_handle", "version_counter", "graph_introspection",
    "leaf_grad_fn", "function_materialize_grads", "function_non_tensor_args", "saved_tensors_hooks",
    "dump_backward_graph_path", "functional_api",
})


class PaddleAdapter(Adapter):
    """Paddle spellings over the neutral API."""

    family = "paddle"
    features = PADDLE_FEATURES

    # ---------------------------------------------------------------------------- tensors
    def tensor(self, data: Any, dtype: str | None = None, grad: bool = False) -> Any:
        kw = {"dtype": dtype} if dtype else {}
        if not kw and _is_float_data(data):
            kw["dtype"] = "float32"
        return self.module.to_tensor(data, stop_gradient=not grad, **kw)

    def leaf(self, data: Any, dtype: str | None = "float32") -> Any:
        return self.tensor(data, dtype=dtype, grad=True)

    def ones(self, shape: Sequence[int], dtype: str = "float32", grad: bool = False) -> Any:
        t = self.module.ones(list(shape), dtype=dtype)
        t.stop_gradient = not grad
        return t

    def zeros(self, shape: Sequence[int], dtype: str = "float32", grad: bool = False) -> Any:
        t = self.module.zeros(list(shape), dtype=dtype)
        t.stop_gradient = not grad
        return t

    def is_tensor(self, value: Any) -> bool:
        return isinstance(value, self.module.Tensor)

    def to_numpy(self, t: Any) -> np.ndarray:
        return np.array(t.detach().numpy())

    def requires_grad(self, t: Any) -> bool:
        return not t.stop_gradient

    def set_requires_grad(self, t: Any, flag: bool) -> None:
        t.stop_gradient = not flag

    def is_leaf(self, t: Any) -> bool:
        return bool(t.is_leaf)

    def detach(self, t: Any) -> Any:
        return t.detach()

    def clone(self, t: Any) -> Any:
        return t.clone()

    def astype(self, t: Any, dtype: str) -> Any:
        return t.astype(dtype)

    def shape(self, t: Any) -> list[int]:
        return list(t.shape)

    def item(self, t: Any) -> Any:
        return t.item()

    # ---------------------------------------------------------------------------- ops
    @property
    def _F(self):
        return self.module.nn.functional

    def sigmoid(self, x: Any) -> Any: return self._F.sigmoid(x)
    def relu(self, x: Any) -> Any: return self._F.relu(x)
    def clamp(self, x: Any, lo: float | None = None, hi: float | None = None) -> Any:
        return self.module.clip(x, lo, hi)

    def sum(self, x: Any, dim: int | None = None, keepdim: bool = False) -> Any:
        return self.module.sum(x, axis=dim, keepdim=keepdim)

    def mean(self, x: Any, dim: int | None = None, keepdim: bool = False) -> Any:
        return self.module.mean(x, axis=dim, keepdim=keepdim)

    def max(self, x: Any, dim: int | None = None) -> Any:
        return self.module.max(x, axis=dim)

    def softmax(self, x: Any, dim: int) -> Any: return self._F.softmax(x, axis=dim)
    def log_softmax(self, x: Any, dim: int) -> Any: return self._F.log_softmax(x, axis=dim)
    def reshape(self, x: Any, shape: Sequence[int]) -> Any: return self.module.reshape(x, list(shape))
    def transpose(self, x: Any, perm: Sequence[int]) -> Any: return self.module.transpose(x, list(perm))
    def expand(self, x: Any, shape: Sequence[int]) -> Any: return self.module.expand(x, list(shape))
    def unsqueeze(self, x: Any, dim: int) -> Any: return self.module.unsqueeze(x, dim)
    def squeeze(self, x: Any, dim: int) -> Any: return self.module.squeeze(x, dim)
    def cat(self, xs: Sequence[Any], dim: int | None = 0) -> Any: return self.module.concat(list(xs), axis=dim)
    def stack(self, xs: Sequence[Any], dim: int | None = 0) -> Any: return self.module.stack(list(xs), axis=dim)

    # ---------------------------------------------------------------------------- in place
    def _operand(self, t: Any, v: Any) -> Any:
        return v if self.is_tensor(v) else self.module.full_like(t, v)

    def add_(self, t: Any, v: Any) -> Any: return t.add_(self._operand(t, v))
    def mul_(self, t: Any, v: Any) -> Any: return t.multiply_(self._operand(t, v))

    def setitem(self, t: Any, index: Any, value: Any) -> None:
        t[index] = value

    def version_of(self, t: Any) -> int:
        return int(t.inplace_version)

    # ---------------------------------------------------------------------------- backward / grad
    def backward(self, tensors: Any, grad_tensors: Any = None, *, retain_graph: Any = DEFAULT,
                 create_graph: Any = DEFAULT, inputs: Any = DEFAULT) -> None:
        if create_graph is not DEFAULT:
            raise Unsupported("backward_create_graph")
        if inputs is not DEFAULT:
            raise Unsupported("backward_inputs")
        self.module.autograd.backward(tensors, grad_tensors, **only_given(retain_graph=retain_graph))

    def tensor_backward(self, t: Any, gradient: Any = DEFAULT, *, retain_graph: Any = DEFAULT,
                        create_graph: Any = DEFAULT, inputs: Any = DEFAULT) -> None:
        if create_graph is not DEFAULT:
            raise Unsupported("backward_create_graph")
        if inputs is not DEFAULT:
            raise Unsupported("backward_inputs")
        kw = only_given(retain_graph=retain_graph)
        if gradient is not DEFAULT:
            kw["grad_tensor"] = gradient
        t.backward(**kw)

    def grad_raw(self, outputs: Any, inputs: Any, grad_outputs: Any = DEFAULT, *, retain_graph: Any = DEFAULT,
                 create_graph: Any = DEFAULT, allow_unused: Any = DEFAULT, is_grads_batched: Any = DEFAULT,
                 materialize_grads: Any = DEFAULT, only_inputs: Any = DEFAULT, no_grad_vars: Any = DEFAULT) -> Any:
        if is_grads_batched is not DEFAULT:
            raise Unsupported("grad_batched")
        if materialize_grads is not DEFAULT:
            raise Unsupported("grad_materialize")
        return self.module.grad(outputs, inputs, **only_given(
            grad_outputs=grad_outputs, retain_graph=retain_graph, create_graph=create_graph,
            allow_unused=allow_unused, only_inputs=only_inputs, no_grad_vars=no_grad_vars))

    def grad(self, *args: Any, **kwargs: Any) -> list:
        return list(self.grad_raw(*args, **kwargs))

    def read_grad(self, t: Any) -> Any:
        return t.grad

    def set_grad(self, t: Any, value: Any) -> None:
        t.grad = value

    def zero_grad(self, t: Any) -> None:
        """Paddle's `clear_grad()`: zero-fills an existing gradient."""
        t.clear_grad()

    def retain_grad(self, t: Any) -> None:
        t.retain_grads()

    def retains_grad(self, t: Any) -> bool:
        raise Unsupported("retains_grad_flag")

    # ---------------------------------------------------------------------------- hooks
    def register_hook(self, t: Any, fn: Callable) -> Any:
        return t.register_hook(fn)

    def remove_hook(self, handle: Any) -> Any:
        return handle.remove()

    def register_post_accumulate_hook(self, t: Any, fn: Callable) -> Any:
        raise Unsupported("post_accumulate_hook")

    def register_node_hook(self, t: Any, fn: Callable) -> Any:
        raise Unsupported("node_hooks")

    def register_node_prehook(self, t: Any, fn: Callable) -> Any:
        raise Unsupported("node_hooks")

    def saved_tensors_hooks(self, pack: Callable, unpack: Callable) -> Any:
        return self.module.autograd.saved_tensors_hooks(pack, unpack)

    # ---------------------------------------------------------------------------- graph
    def grad_fn(self, t: Any) -> Any:
        return t.grad_fn

    def node_name(self, node: Any) -> str:
        return node.name()

    def grad_fn_name(self, t: Any) -> str | None:
        node = t.grad_fn
        return None if node is None else self.node_name(node)

    def next_nodes(self, node: Any) -> list:
        """Paddle's `next_functions` is a list of nodes."""
        return [n for n in node.next_functions if n is not None]

    def graph(self, t: Any) -> dict:
        from .torch_like import TorchAdapter
        return TorchAdapter.graph(self, t)  # same walk, paddle's node accessors

    def _node_key(self, node: Any) -> Any:
        ptr = getattr(node, "node_ptr", None)   # real paddle makes a new wrapper per access
        return ptr() if callable(ptr) else id(node)

    # ---------------------------------------------------------------------------- custom functions
    def function(self, name: str, forward: Callable, backward: Callable) -> type:
        return type(name, (self.module.autograd.PyLayer,),
                    {"forward": staticmethod(forward), "backward": staticmethod(backward)})

    def apply(self, fn_cls: type, *args: Any) -> Any:
        return fn_cls.apply(*args)

    def save_for_backward(self, ctx: Any, *tensors) -> None:
        ctx.save_for_backward(*tensors)

    def saved_tensors(self, ctx: Any) -> tuple:
        saved = ctx.saved_tensor()
        return () if saved is None else tuple(saved)

    def mark_non_differentiable(self, ctx: Any, *tensors) -> None:
        ctx.mark_non_differentiable(*tensors)

    def set_materialize_grads(self, ctx: Any, flag: bool) -> None:
        ctx.set_materialize_grads(flag)

    def needs_input_grad(self, ctx: Any) -> tuple:
        raise Unsupported("function_needs_input_grad")

    def mark_dirty(self, ctx: Any, *tensors) -> None:
        raise Unsupported("function_mark_dirty")

    # ---------------------------------------------------------------------------- grad modes
    def inference_mode(self) -> Any:
        raise Unsupported("inference_mode")

    def detect_anomaly(self) -> Any:
        raise Unsupported("anomaly_mode")

    # ---------------------------------------------------------------------------- functional
    def jacobian(self, fn: Callable, x: Any) -> Any:
        return self.module.autograd.jacobian(fn(x), x)[:]

    def hessian(self, fn: Callable, x: Any) -> Any:
        return self.module.autograd.hessian(fn(x), x)[:]

    def dump_backward_graph(self, tensors: Any, path: str | os.PathLike) -> None:
        self.module.autograd.backward(tensors, dump_backward_graph_path=str(path))


def _is_float_data(data: Any) -> bool:
    arr = np.asarray(data)
    return arr.dtype.kind == "f"
