"""The adapter for PyTorch's API: real `torch` and `flowgrad.torch` (same spellings)."""
from __future__ import annotations

import os
from typing import Any, Callable, Sequence

import numpy as np

from .base import DEFAULT, Adapter, Unsupported, only_given

TORCH_FEATURES = frozenset({
    "backward_inputs", "backward_create_graph", "grad_batched", "grad_materialize", "grad_only_inputs",
    "hook_handle", "node_hooks", "post_accumulate_hook", "retains_grad_flag", "version_counter",
    "graph_introspection", "function_needs_input_grad", "function_mark_dirty",
    "function_materialize_grads", "function_non_tensor_args", "inference_mode", "saved_tensors_hooks",
    "anomaly_mode", "functional_api",
})


class TorchAdapter(Adapter):
    """PyTorch spellings: requires_grad, torch.autograd.backward/grad, autograd.Function."""

    family = "torch"
    features = TORCH_FEATURES

    def __init__(self, name: str, module: Any) -> None:
        super().__init__(name, module)
        self._dtypes = {n: getattr(module, n) for n in ("float32", "float64", "int64", "bool")}

    # ---------------------------------------------------------------------------- tensors
    def tensor(self, data: Any, dtype: str | None = None, grad: bool = False) -> Any:
        """A new leaf; `dtype` defaults to float32 for float data (as every framework does)."""
        kw = {"dtype": self._dtypes[dtype]} if dtype else {}
        return self.module.tensor(data, requires_grad=grad, **kw)

    def leaf(self, data: Any, dtype: str | None = "float32") -> Any:
        return self.tensor(data, dtype=dtype, grad=True)

    def ones(self, shape: Sequence[int], dtype: str = "float32", grad: bool = False) -> Any:
        return self.module.ones(*shape, dtype=self._dtypes[dtype], requires_grad=grad)

    def zeros(self, shape: Sequence[int], dtype: str = "float32", grad: bool = False) -> Any:
        return self.module.zeros(*shape, dtype=self._dtypes[dtype], requires_grad=grad)

    def is_tensor(self, value: Any) -> bool:
        return isinstance(value, self.module.Tensor)

    def to_numpy(self, t: Any) -> np.ndarray:
        return np.array(t.detach().cpu().numpy())

    def requires_grad(self, t: Any) -> bool:
        return bool(t.requires_grad)

    def set_requires_grad(self, t: Any, flag: bool) -> None:
        t.requires_grad = flag

    def is_leaf(self, t: Any) -> bool:
        return bool(t.is_leaf)

    def detach(self, t: Any) -> Any:
        return t.detach()

    def clone(self, t: Any) -> Any:
        return t.clone()

    def astype(self, t: Any, dtype: str) -> Any:
        return t.to(self._dtypes[dtype])

    def shape(self, t: Any) -> list[int]:
        return list(t.shape)

    def item(self, t: Any) -> Any:
        return t.item()

    # ---------------------------------------------------------------------------- ops
    def exp(self, x): return self.module.exp(x)
    def log(self, x): return self.module.log(x)
    def sin(self, x): return self.module.sin(x)
    def cos(self, x): return self.module.cos(x)
    def tanh(self, x): return self.module.tanh(x)
    def sigmoid(self, x): return self.module.sigmoid(x)
    def relu(self, x): return self.module.relu(x)
    def sqrt(self, x): return self.module.sqrt(x)
    def abs(self, x): return self.module.abs(x)
    def pow(self, x, e): return self.module.pow(x, e)
    def maximum(self, a, b): return self.module.maximum(a, b)
    def minimum(self, a, b): return self.module.minimum(a, b)
    def matmul(self, a, b): return self.module.matmul(a, b)
    def where(self, cond, a, b): return self.module.where(cond, a, b)
    def clamp(self, x, lo=None, hi=None): return self.module.clamp(x, lo, hi)

    def sum(self, x, dim=None, keepdim=False):
        return x.sum() if dim is None else x.sum(dim=dim, keepdim=keepdim)

    def mean(self, x, dim=None, keepdim=False):
        return x.mean() if dim is None else x.mean(dim=dim, keepdim=keepdim)

    def max(self, x, dim=None):
        return x.max() if dim is None else x.max(dim=dim)[0]

    def softmax(self, x, dim): return self.module.softmax(x, dim=dim)
    def log_softmax(self, x, dim): return self.module.log_softmax(x, dim=dim)
    def reshape(self, x, shape): return x.reshape(*shape)
    def transpose(self, x, perm): return x.permute(*perm)
    def expand(self, x, shape): return x.expand(*shape)
    def unsqueeze(self, x, dim): return x.unsqueeze(dim)
    def squeeze(self, x, dim): return x.squeeze(dim)
    def cat(self, xs, dim=0): return self.module.cat(list(xs), dim=dim)
    def stack(self, xs, dim=0): return self.module.stack(list(xs), dim=dim)

    # ---------------------------------------------------------------------------- in place
    def add_(self, t, v): return t.add_(v)
    def mul_(self, t, v): return t.mul_(v)

    def setitem(self, t, index, value) -> None:
        t[index] = value

    def version_of(self, t) -> int:
        return int(t._version)

    # ---------------------------------------------------------------------------- backward / grad
    def backward(self, tensors, grad_tensors=None, *, retain_graph=DEFAULT, create_graph=DEFAULT,
                 inputs=DEFAULT) -> None:
        """`autograd.backward(tensors, grad_tensors, ...)`, passing only the options given."""
        self.module.autograd.backward(tensors, grad_tensors, **only_given(
            retain_graph=retain_graph, create_graph=create_graph, inputs=inputs))

    def tensor_backward(self, t, gradient=DEFAULT, *, retain_graph=DEFAULT, create_graph=DEFAULT,
                        inputs=DEFAULT) -> None:
        """`t.backward(...)`: the method, with the framework's own keyword for the seed."""
        kw = only_given(retain_graph=retain_graph, create_graph=create_graph, inputs=inputs)
        if gradient is not DEFAULT:
            kw["gradient"] = gradient
        t.backward(**kw)

    def grad_raw(self, outputs, inputs, grad_outputs=DEFAULT, *, retain_graph=DEFAULT, create_graph=DEFAULT,
                 allow_unused=DEFAULT, is_grads_batched=DEFAULT, materialize_grads=DEFAULT,
                 only_inputs=DEFAULT, no_grad_vars=DEFAULT) -> Any:
        """`autograd.grad(...)` as the framework returns it (a tuple for torch)."""
        if no_grad_vars is not DEFAULT:
            self.need("no_grad_vars")
        return self.module.autograd.grad(outputs, inputs, **only_given(
            grad_outputs=grad_outputs, retain_graph=retain_graph, create_graph=create_graph,
            allow_unused=allow_unused, is_grads_batched=is_grads_batched,
            materialize_grads=materialize_grads, only_inputs=only_inputs))

    def grad(self, *args, **kwargs) -> list:
        """`autograd.grad(...)` as a list (frameworks differ in the container)."""
        return list(self.grad_raw(*args, **kwargs))

    def read_grad(self, t) -> Any:
        return t.grad

    def set_grad(self, t, value) -> None:
        t.grad = value

    def zero_grad(self, t) -> None:
        """Reset `.grad` the way the framework's zero_grad does by default (None for torch)."""
        t.grad = None

    def retain_grad(self, t) -> None:
        t.retain_grad()

    def retains_grad(self, t) -> bool:
        return bool(t.retains_grad)

    # ---------------------------------------------------------------------------- hooks
    def register_hook(self, t, fn: Callable) -> Any:
        return t.register_hook(fn)

    def remove_hook(self, handle) -> Any:
        return handle.remove()

    def register_post_accumulate_hook(self, t, fn: Callable) -> Any:
        return t.register_post_accumulate_grad_hook(fn)

    def register_node_hook(self, t, fn: Callable) -> Any:
        return t.grad_fn.register_hook(fn)

    def register_node_prehook(self, t, fn: Callable) -> Any:
        return t.grad_fn.register_prehook(fn)

    def saved_tensors_hooks(self, pack: Callable, unpack: Callable) -> Any:
        return self.module.autograd.graph.saved_tensors_hooks(pack, unpack)

    # ---------------------------------------------------------------------------- graph
    def grad_fn(self, t) -> Any:
        return t.grad_fn

    def node_name(self, node) -> str:
        return node.name()

    def grad_fn_name(self, t) -> str | None:
        node = t.grad_fn
        return None if node is None else self.node_name(node)

    def next_nodes(self, node) -> list:
        """The nodes a node's gradient flows into (None slots dropped)."""
        return [n for n, _ in node.next_functions if n is not None]

    def graph(self, t) -> dict:
        """The backward graph below `t` as {"nodes": [names in BFS order], "edges": [[i, j], ...]}."""
        root = self.grad_fn(t)
        if root is None:
            return {"nodes": [], "edges": []}
        index = {self._node_key(root): 0}
        nodes, edges, queue = [root], [], [root]
        keep = [root]   # hold the node wrappers so ids stay unique during the walk
        while queue:
            node = queue.pop(0)
            for child in self.next_nodes(node):
                keep.append(child)
                key = self._node_key(child)
                if key not in index:
                    index[key] = len(nodes)
                    nodes.append(child)
                    queue.append(child)
                edges.append([index[self._node_key(node)], index[key]])
        return {"nodes": [self.node_name(n) for n in nodes], "edges": edges}

    def _node_key(self, node) -> Any:
        return id(node)

    # ---------------------------------------------------------------------------- custom functions
    def function(self, name: str, forward: Callable, backward: Callable) -> type:
        """A custom autograd function class named `name` (node names derive from it)."""
        return type(name, (self.module.autograd.Function,),
                    {"forward": staticmethod(forward), "backward": staticmethod(backward)})

    def apply(self, fn_cls: type, *args: Any) -> Any:
        return fn_cls.apply(*args)

    def save_for_backward(self, ctx, *tensors) -> None:
        ctx.save_for_backward(*tensors)

    def saved_tensors(self, ctx) -> tuple:
        return tuple(ctx.saved_tensors)

    def mark_non_differentiable(self, ctx, *tensors) -> None:
        ctx.mark_non_differentiable(*tensors)

    def set_materialize_grads(self, ctx, flag: bool) -> None:
        self.need("function_materialize_grads")
        ctx.set_materialize_grads(flag)

    def needs_input_grad(self, ctx) -> tuple:
        self.need("function_needs_input_grad")
        return tuple(ctx.needs_input_grad)

    def mark_dirty(self, ctx, *tensors) -> None:
        self.need("function_mark_dirty")
        ctx.mark_dirty(*tensors)

    # ---------------------------------------------------------------------------- grad modes
    def no_grad(self) -> Any:
        return self.module.no_grad()

    def enable_grad(self) -> Any:
        return self.module.enable_grad()

    def set_grad_enabled(self, flag: bool) -> Any:
        return self.module.set_grad_enabled(flag)

    def is_grad_enabled(self) -> bool:
        return bool(self.module.is_grad_enabled())

    def inference_mode(self) -> Any:
        self.need("inference_mode")
        return self.module.inference_mode()

    def detect_anomaly(self) -> Any:
        self.need("anomaly_mode")
        return self.module.autograd.detect_anomaly()

    # ---------------------------------------------------------------------------- functional
    def jacobian(self, fn: Callable, x) -> Any:
        self.need("functional_api")
        return self.module.autograd.functional.jacobian(fn, x)

    def hessian(self, fn: Callable, x) -> Any:
        self.need("functional_api")
        return self.module.autograd.functional.hessian(fn, x)

    def dump_backward_graph(self, tensors, path: str | os.PathLike) -> None:
        raise Unsupported("dump_backward_graph_path")
