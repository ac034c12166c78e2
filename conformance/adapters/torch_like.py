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
    def sigmoid(self, x: Any) -> Any: return self.module.sigmoid(x)
    def relu(self, x: Any) -> Any: return self.module.relu(x)
    def clamp(self, x: Any, lo: float | None = None, hi: float | None = None) -> Any:
        return self.module.clamp(x, lo, hi)

    def sum(self, x: Any, dim: int | None = None, keepdim: bool = False) -> Any:
        return x.sum() if dim is None else x.sum(dim=dim, keepdim=keepdim)

    def mean(self, x: Any, dim: int | None = None, keepdim: bool = False) -> Any:
        return x.mean() if dim is None else x.mean(dim=dim, keepdim=keepdim)

    def max(self, x: Any, dim: int | None = None) -> Any:
        return x.max() if dim is None else x.max(dim=dim)[0]

    def softmax(self, x: Any, dim: int) -> Any: return self.module.softmax(x, dim=dim)
    def log_softmax(self, x: Any, dim: int) -> Any: return self.module.log_softmax(x, dim=dim)
    def reshape(self, x: Any, shape: Sequence[int]) -> Any: return x.reshape(*shape)
    def transpose(self, x: Any, perm: Sequence[int]) -> Any: return x.permute(*perm)
    def expand(self, x: Any, shape: Sequence[int]) -> Any: return x.expand(*shape)
    def unsqueeze(self, x: Any, dim: int) -> Any: return x.unsqueeze(dim)
    def squeeze(self, x: Any, dim: int) -> Any: return x.squeeze(dim)
    def cat(self, xs: Sequence[Any], dim: int | None = 0) -> Any: return self.module.cat(list(xs), dim=dim)
    def stack(self, xs: Sequence[Any], dim: int | None = 0) -> Any: return self.module.stack(list(xs), dim=dim)

    # ---------------------------------------------------------------------------- in place
    def add_(self, t: Any, v: Any) -> Any: return t.add_(v)
    def mul_(self, t: Any, v: Any) -> Any: return t.mul_(v)

    def setitem(self, t: Any, index: Any, value: Any) -> None:
        t[index] = value

    def version_of(self, t: Any) -> int:
        return int(t._version)

    # ---------------------------------------------------------------------------- backward / grad
    def backward(self, tensors: Any, grad_tensors: Any = None, *, retain_graph: Any = DEFAULT,
                 create_graph: Any = DEFAULT, inputs: Any = DEFAULT) -> None:
        """`autograd.backward(tensors, grad_tensors, ...)`, passing only the options given."""
        self.module.autograd.backward(tensors, grad_tensors, **only_given(
            retain_graph=retain_graph, create_graph=create_graph, inputs=inputs))

    def tensor_backward(self, t: Any, gradient: Any = DEFAULT, *, retain_graph: Any = DEFAULT,
                        create_graph: Any = DEFAULT, inputs: Any = DEFAULT) -> None:
        """`t.backward(...)`: the method, with the framework's own keyword for the seed."""
        kw = only_given(retain_graph=retain_graph, create_graph=create_graph, inputs=inputs)
        if gradient is not DEFAULT:
            kw["gradient"] = gradient
        t.backward(**kw)

    def grad_raw(self, outputs: Any, inputs: Any, grad_outputs: Any = DEFAULT, *, retain_graph: Any = DEFAULT,
                 create_graph: Any = DEFAULT, allow_unused: Any = DEFAULT, is_grads_batched: Any = DEFAULT,
                 materialize_grads: Any = DEFAULT, only_inputs: Any = DEFAULT, no_grad_vars: Any = DEFAULT) -> Any:
        """`autograd.grad(...)` as the framework returns it (a tuple for torch)."""
        if no_grad_vars is not DEFAULT:
            self.need("no_grad_vars")
        return self.module.autograd.grad(outputs, inputs, **only_given(
            grad_outputs=grad_outputs, retain_graph=retain_graph, create_graph=create_graph,
            allow_unused=allow_unused, is_grads_batched=is_grads_batched,
            materialize_grads=materialize_grads, only_inputs=only_inputs))

    def grad(self, *args: Any, **kwargs: Any) -> list:
        """`autograd.grad(...)` as a list (frameworks differ in the container)."""
        return list(self.grad_raw(*args, **kwargs))

    def read_grad(self, t: Any) -> Any:
        return t.grad

    def set_grad(self, t: Any, value: Any) -> None:
        t.grad = value

    def zero_grad(self, t: Any) -> None:
        """Reset `.grad` the way the framework's zero_grad does by default (None for torch)."""
        t.grad = None

    def retain_grad(self, t: Any) -> None:
        t.retain_grad()

    def retains_grad(self, t: Any) -> bool:
        return bool(t.retains_grad)

    # ---------------------------------------------------------------------------- hooks
    def register_hook(self, t: Any, fn: Callable) -> Any:
        return t.register_hook(fn)

    def remove_hook(self, handle: Any) -> Any:
        return handle.remove()

    def register_post_accumulate_hook(self, t: Any, fn: Callable) -> Any:
        return t.register_post_accumulate_grad_hook(fn)

    def register_node_hook(self, t: Any, fn: Callable) -> Any:
        return t.grad_fn.register_hook(fn)

    def register_node_prehook(self, t: Any, fn: Callable) -> Any:
        return t.grad_fn.register_prehook(fn)

    def saved_tensors_hooks(self, pack: Callable, unpack: Callable) -> Any:
        return self.module.autograd.graph.saved_tensors_hooks(pack, unpack)

    # ---------------------------------------------------------------------------- graph
    def grad_fn(self, t: Any) -> Any:
        return t.grad_fn

    def node_name(self, node: Any) -> str:
        return node.name()

    def grad_fn_name(self, t: Any) -> str | None:
        node = t.grad_fn
        return None if node is None else self.node_name(node)

    def next_nodes(self, node: Any) -> list:
        """The nodes a node's gradient flows into (None slots dropped)."""
        return [n for n, _ in node.next_functions if n is not None]

    def graph(self, t: Any) -> dict:
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

    def _node_key(self, node: Any) -> Any:
        return id(node)

    # ---------------------------------------------------------------------------- custom functions
    def function(self, name: str, forward: Callable, backward: Callable) -> type:
        """A custom autograd function class named `name` (node names derive from it)."""
        return type(name, (self.module.autograd.Function,),
                    {"forward": staticmethod(forward), "backward": staticmethod(backward)})

    def apply(self, fn_cls: type, *args: Any) -> Any:
        return fn_cls.apply(*args)

    def save_for_backward(self, ctx: Any, *tensors) -> None:
        ctx.save_for_backward(*tensors)

    def saved_tensors(self, ctx: Any) -> tuple:
        return tuple(ctx.saved_tensors)

    def mark_non_differentiable(self, ctx: Any, *tensors) -> None:
        ctx.mark_non_differentiable(*tensors)

    def set_materialize_grads(self, ctx: Any, flag: bool) -> None:
        self.need("function_materialize_grads")
        ctx.set_materialize_grads(flag)

    def needs_input_grad(self, ctx: Any) -> tuple:
        self.need("function_needs_input_grad")
        return tuple(ctx.needs_input_grad)

    def mark_dirty(self, ctx: Any, *tensors) -> None:
        self.need("function_mark_dirty")
        ctx.mark_dirty(*tensors)

    # ---------------------------------------------------------------------------- grad modes
    def inference_mode(self) -> Any:
        self.need("inference_mode")
        return self.module.inference_mode()

    def detect_anomaly(self) -> Any:
        self.need("anomaly_mode")
        return self.module.autograd.detect_anomaly()

    # ---------------------------------------------------------------------------- functional
    def jacobian(self, fn: Callable, x: Any) -> Any:
        self.need("functional_api")
        return self.module.autograd.functional.jacobian(fn, x)

    def hessian(self, fn: Callable, x: Any) -> Any:
        self.need("functional_api")
        return self.module.autograd.functional.hessian(fn, x)

    def dump_backward_graph(self, tensors: Any, path: str | os.PathLike) -> None:
        raise Unsupported("dump_backward_graph_path")
