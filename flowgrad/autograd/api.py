"""backward() and grad(): argument normalisation and validation in front of the engine, with
PyTorch's rules (flowgrad's own). Every check runs before the engine starts, so a rejected call
changes no `.grad`. Facades pass their policy; paddle's facade has its own front end."""
from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import NamedTuple, Sequence

import numpy as _np

from .engine import run_backward
from .graph import Node
from .policy import TORCH, Policy


_np_ndarray = _np.ndarray


class GradientEdge(NamedTuple):
    """An edge of the graph, usable wherever a tensor is accepted as an output or input."""

    node: Node
    output_nr: int
    ownership_token: object = None

    def __repr__(self):
        return f"GradientEdge(node={self.node!r}, output_nr={self.output_nr}, ownership_token={self.ownership_token})"


def get_gradient_edge(tensor) -> GradientEdge:
    if not tensor._requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require gradients")
    if tensor.grad_fn is not None:
        return GradientEdge(tensor.grad_fn, tensor.output_nr)
    return GradientEdge(tensor._grad_accumulator(), 0)


def _is_tensor(x) -> bool:
    return hasattr(x, "_requires_grad") and hasattr(x, "grad_fn")


def _as_tuple(x) -> tuple:
    if _is_tensor(x) or isinstance(x, GradientEdge):
        return (x,)
    return tuple(x)


def _grads_tuple(grads, n: int) -> tuple:
    if grads is None:
        return (None,) * n
    if _is_tensor(grads):
        return (grads,)
    return tuple(grads)


def _inputs_tuple(inputs, api: str) -> tuple:
    if _is_tensor(inputs) or isinstance(inputs, GradientEdge):
        return (inputs,)
    if type(inputs) is dict:
        return tuple(inputs.values())
    if isinstance(inputs, Mapping):
        raise TypeError(f"`inputs` argument to `{api}()` must be a dict, not {type(inputs).__name__}. Other Mapping "
                        "types are not supported.")
    return tuple(inputs)


def _out_meta(out):
    if isinstance(out, GradientEdge):
        return out.node.out_meta[out.output_nr]
    return out._data.shape, out._data.dtype


def make_grads(policy: Policy, outputs: Sequence, grads: Sequence, is_grads_batched: bool = False) -> list:
    """The seed gradient for each output: validated tensors, implicit ones, or None."""
    from ..ops import cast
    result = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        shape, dtype = _out_meta(out)
        if _is_tensor(g):
            _check_seed_place(policy, out, g, i)
            gshape = g._data.shape[1:] if is_grads_batched else g._data.shape
            if gshape != shape:
                if is_grads_batched:
                    raise RuntimeError(
                        "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the batch "
                        "dimension. The sizes of the remaining dimensions are expected to match the shape of "
                        f"corresponding output, but a mismatch was detected: grad_output[{i}] has a shape of "
                        f"{policy.size_str(gshape)} and output[{i}] has a shape of {policy.size_str(shape)}. If you "
                        "only want some tensors in `grad_output` to be considered batched, consider using vmap.")
                raise policy.error("seed_shape", index=i, grad_shape=g._data.shape, out_shape=shape)
            result.append(cast(g, dtype) if g._data.dtype != dtype and dtype.kind == "f" else g)
        elif g is None:
            requires = True if isinstance(out, GradientEdge) else out._requires_grad
            if not requires:
                result.append(None)
                continue
            size = 1
            for s in shape:
                size *= s
            if size != 1 and not policy.implicit_seed_any_shape:
                raise policy.error("implicit_nonscalar")
            like = out if _is_tensor(out) else None
            result.append(_ones(like, out, shape, dtype))
        else:
            raise policy.error("seed_type", type=type(g).__name__)
    return result


def _check_seed_place(policy: Policy, out, g, i: int) -> None:
    """A seed must belong to the output's facade and live on its device."""
    out_cls = out.node.out_cls if isinstance(out, GradientEdge) else type(out)
    if type(g)._out_cls is not out_cls._out_cls:
        raise policy.error("facade_mismatch", a=out_cls.__module__, b=type(g).__module__)
    if not isinstance(out, GradientEdge) and (type(g._data) is not type(out._data) or
                                              (type(out._data) is not _np_ndarray and g.device != out.device)):
        raise RuntimeError(f"invalid gradient at index {i} - expected device {out.device} but got {g.device}")


def _ones(like, out, shape, dtype):
    from .. import backend
    if like is not None:
        return like._new(backend.namespace(like._data).ones(shape, dtype=dtype))
    return out.node.out_cls._out_cls._make(backend.xp_for(None).ones(shape, dtype=dtype))


def _root_edge(policy: Policy, t, i: int):
    if isinstance(t, GradientEdge):
        return (t.node, t.output_nr)
    if not t._requires_grad:
        raise policy.error("root_no_grad", index=i)
    if t.grad_fn is not None:
        return (t.grad_fn, t.output_nr)
    return (t._grad_accumulator(), 0)


def _target_edges(policy: Policy, inputs: tuple, no_grad_error: str) -> list:
    """The edges of `inputs=` (tensors or GradientEdges); a tensor that needs no grad is an error."""
    targets = []
    for x in inputs:
        if isinstance(x, GradientEdge):
            targets.append((x.node, x.output_nr))
        elif _is_tensor(x):
            if not x._requires_grad:
                raise policy.error(no_grad_error)
            targets.append(_root_edge(policy, x, 0))
        else:
            raise policy.error("inputs_type", type=type(x).__name__)
    return targets


_warned_create_graph = [False]


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None,
             *, policy: Policy = TORCH) -> None:
    """torch.autograd.backward."""
    if grad_variables is not None:
        warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.", FutureWarning, stacklevel=3)
        if grad_tensors is None:
            grad_tensors = grad_variables
        else:
            raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both passed to "
                               "`backward()`. Please only use `grad_tensors`.")
    if inputs is not None and not _is_tensor(inputs) and not isinstance(inputs, GradientEdge) and len(inputs) == 0:
        raise policy.error("inputs_empty", api="backward")
    tensors = _as_tuple(tensors)
    if not tensors:
        return
    targets = None
    if inputs is not None:
        inputs = _inputs_tuple(inputs, "backward")
        targets = _target_edges(policy, inputs, "retain_grad_no_grad")
    grads = _grads_tuple(grad_tensors, len(tensors))
    if len(grads) < len(tensors):
        raise policy.error("seed_count", n_tensors=len(tensors), n_grads=len(grads))
    seeds = make_grads(policy, tensors, grads)
    roots = [_root_edge(policy, t, i) for i, t in enumerate(tensors)]
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph and not _warned_create_graph[0]:
        _warned_create_graph[0] = True
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the parameter and its "
            "gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to "
            "avoid this. If you have to use this function, make sure to reset the .grad fields of your parameters to "
            "None after use to break the cycle and avoid the leak. (Triggered internally at "
            "flowgrad/autograd/api.py.)", UserWarning, stacklevel=3)
    if inputs is not None:
        for x in inputs:
            if _is_tensor(x) and x.grad_fn is not None:
                x.retain_grad()
    run_backward(policy, roots, seeds, retain_graph=bool(retain_graph), create_graph=bool(create_graph),
                 targets=targets)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False, *, policy: Policy = TORCH):
    """torch.autograd.grad: the gradients of `outputs` w.r.t. `inputs`, leaving every `.grad` alone."""
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, but got: "
                         "allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
                      "gradient for other parts of the graph, please use torch.autograd.backward.", FutureWarning,
                      stacklevel=3)
    keys = list(inputs.keys()) if type(inputs) is dict else None
    outputs = _as_tuple(outputs)
    inputs = _inputs_tuple(inputs, "grad")
    if not inputs:
        raise policy.error("inputs_empty", api="grad")
    targets = _target_edges(policy, inputs, "input_no_grad")
    if not outputs:
        raise policy.error("input_unused", index=0)
    grads = _grads_tuple(grad_outputs, len(outputs))
    if len(grads) < len(outputs):
        raise policy.error("seed_count", n_tensors=len(outputs), n_grads=len(grads))
    seeds = make_grads(policy, outputs, grads, is_grads_batched)
    roots = [_root_edge(policy, t, i) for i, t in enumerate(outputs)]
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        result = _batched(policy, roots, seeds, targets, create_graph)
    else:
        result = run_backward(policy, roots, seeds, retain_graph=bool(retain_graph),
                              create_graph=bool(create_graph), targets=targets, capture=True)
    out = []
    for i, (x, r) in enumerate(zip(inputs, result)):
        if r is None:
            if materialize_grads:
                if isinstance(x, GradientEdge):
                    raise RuntimeError("materialize_grads cannot be used when the given input is a GradientEdge")
                from ..ops import zeros_for
                r = zeros_for(x, x._data.shape, x._data.dtype)
                if create_graph:
                    r._requires_grad = True
            elif not allow_unused:
                raise policy.error("input_unused", index=i)
        elif not create_graph and r._requires_grad:
            r = r.detach()
        out.append(r)
    if keys is not None:
        return dict(zip(keys, out))
    return tuple(out)


def _batched(policy, roots, seeds, targets, create_graph):
    """is_grads_batched: one backward per row of the batched seeds, results stacked."""
    from ..ops import stack
    n = next(s._data.shape[0] for s in seeds if s is not None)
    rows = []
    for b in range(n):
        row_seeds = [s[b] if s is not None else None for s in seeds]
        rows.append(run_backward(policy, roots, row_seeds, retain_graph=True, create_graph=create_graph,
                                 targets=targets, capture=True))
    return [None if rows[0][i] is None else stack([r[i] for r in rows]) for i in range(len(targets))]
