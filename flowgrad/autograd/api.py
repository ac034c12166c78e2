"""backward() and grad(): argument normalisation and validation in front of the engine, with
PyTorch's rules (flowgrad's own) and the policy's knobs where another framework differs (duplicate
roots, skipped constant roots, no_grad_vars, retention, result types, graph dumps). Every check
runs before the engine starts, so a rejected call changes no `.grad`. This is every facade's
front end; a facade adds only its signature and its own argument-type messages."""
from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import NamedTuple, Sequence

import numpy as _np

from .. import backend
from ..ops import cast, edge, stack, zeros_for
from ..tensor import Tensor
from .engine import run_backward
from .record import BackwardRecord
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
        raise tensor.policy.errors.gradient_edge_no_grad()
    if tensor._grad_fn is not None:
        return GradientEdge(tensor._grad_fn, tensor.output_nr)
    return GradientEdge(tensor._grad_accumulator(), 0)


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor) or (hasattr(x, "_requires_grad") and hasattr(x, "grad_fn"))


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


def _inputs_tuple(policy: Policy, inputs, api: str) -> tuple:
    if _is_tensor(inputs) or isinstance(inputs, GradientEdge):
        return (inputs,)
    if type(inputs) is dict:
        return tuple(inputs.values())
    if isinstance(inputs, Mapping):
        raise policy.errors.inputs_mapping_type(api=api, type=type(inputs).__name__)
    return tuple(inputs)


def _out_meta(out):
    if isinstance(out, GradientEdge):
        return out.node.out_meta[out.output_nr]
    return out._data.shape, out._data.dtype


def make_grads(policy: Policy, outputs: Sequence, grads: Sequence, is_grads_batched: bool = False) -> list:
    """The seed gradient for each output: validated tensors, implicit ones, or None."""
    result = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        shape, dtype = _out_meta(out)
        if _is_tensor(g):
            _check_seed_place(policy, out, g, i)
            gshape = g._data.shape[1:] if is_grads_batched else g._data.shape
            if gshape != shape:
                raise policy.error("seed_batched_shape" if is_grads_batched else "seed_shape", index=i,
                                   grad_shape=gshape, out_shape=shape)
            gdt = g._data.dtype
            if (gdt.kind == "c") != (dtype.kind == "c"):
                raise policy.errors.seed_complex_dtype(index=i, grad_dtype=g._dtypes[gdt], out_dtype=g._dtypes[dtype])
            result.append(cast(g, dtype) if gdt != dtype and dtype.kind in "fcV" else g)
        elif g is None:
            requires = True if isinstance(out, GradientEdge) else out._requires_grad
            if not requires:
                result.append(None)
                continue
            size = 1
            for s in shape:
                size *= s
            if size != 1 and not policy.implicit_seed_any_shape:
                raise policy.errors.implicit_nonscalar()
            if dtype.kind == "c":
                raise policy.errors.implicit_complex(dtype=out.dtype if _is_tensor(out) else dtype)
            like = out if _is_tensor(out) else None
            result.append(_ones(like, out, shape, dtype))
        else:
            raise policy.errors.seed_type(type=type(g).__name__)
    return result


def _check_seed_place(policy: Policy, out, g, i: int) -> None:
    """A seed must belong to the output's facade and live on its device."""
    out_cls = out.node.out_cls if isinstance(out, GradientEdge) else type(out)
    if type(g)._out_cls is not out_cls._out_cls:
        raise policy.errors.facade_mismatch(a=out_cls.__module__, b=type(g).__module__)
    if not isinstance(out, GradientEdge) and (type(g._data) is not type(out._data) or
                                              (type(out._data) is not _np_ndarray and g.device != out.device)):
        raise policy.errors.seed_device(index=i, expected=out.device, got=g.device)


def _ones(like, out, shape, dtype):
    xp = backend.namespace(like._data) if like is not None else backend.xp_for(None)
    seed = xp.empty(shape, dtype=dtype)
    seed.fill(1)    # (two calls in C: NumPy's `ones` is Python around them)
    return (like if like is not None else out.node.out_cls)._out_cls._make(seed)


def _root_edge(policy: Policy, t, i: int):
    if isinstance(t, GradientEdge):
        return (t.node, t.output_nr)
    if not t._requires_grad:
        raise policy.errors.root_no_grad(index=i)
    if t._grad_fn is not None:
        return (t._grad_fn, t.output_nr)
    return (t._grad_accumulator(), 0)


def _target_edges(policy: Policy, inputs: tuple, api: str) -> list:
    """The edges of `inputs=` (tensors or GradientEdges) of `api` ("backward" or "grad"); a tensor
    that needs no grad is an error."""
    targets = []
    for x in inputs:
        if isinstance(x, GradientEdge):
            targets.append((x.node, x.output_nr))
        elif _is_tensor(x):
            if not x._requires_grad:
                raise policy.error("input_no_grad" if api == "grad" else "retain_grad_no_grad")
            targets.append(_root_edge(policy, x, 0))
        else:
            raise policy.errors.inputs_type(type=type(x).__name__)
    return targets


_warned_create_graph = [False]


def _run(policy: Policy, roots: list, seeds: list, dump, **kw):
    """The engine; with `dump=(writer, path)` and a path, the writer gets what the pass ran (also
    when it failed part-way; nothing when no node ran)."""
    if dump is None or dump[1] is None:
        return run_backward(policy, roots, seeds, **kw)
    writer, path = dump
    record = BackwardRecord()
    try:
        return run_backward(policy, roots, seeds, observer=record, **kw)
    finally:
        if record.nodes:
            writer.write(path, list(dict.fromkeys(node for node, _ in roots)), record)


def _check_unique(policy: Policy, tensors: tuple, api: str, what: str) -> None:
    """Frameworks that refuse the same tensor twice (paddle) say so before anything runs: among the
    roots of backward, or the inputs or outputs (`what`) of grad."""
    seen = set()
    for t in tensors:
        if id(t) in seen:
            raise policy.error("duplicate_roots" if api == "backward" else "duplicate_tensors", what=what, tensor=t)
        seen.add(id(t))


def _live(policy: Policy, tensors: tuple, seeds: list, create_graph: bool) -> tuple[tuple, list]:
    """The roots that take part and their seeds: all of them, or (paddle) those that require grad,
    with seeds detached unless the pass records a graph."""
    if policy.skip_nonrequiring_roots:
        keep = [i for i, t in enumerate(tensors) if t._requires_grad]
        tensors, seeds = tuple(tensors[i] for i in keep), [seeds[i] for i in keep]
    if policy.detach_seeds and not create_graph:
        seeds = [_detached(g) for g in seeds]
    return tensors, seeds


def _retains(policy: Policy, retain_graph, create_graph) -> bool:
    """retain_graph defaults to create_graph; OneFlow's create_graph retains over an explicit False."""
    if retain_graph is None or (create_graph and policy.create_graph_retains):
        return bool(retain_graph or create_graph)
    return bool(retain_graph)


def _detached(g):
    return g.detach() if g is not None and g._requires_grad else g


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None,
             *, policy: Policy = TORCH, dump=None) -> None:
    """Accumulate the gradients of `tensors` into the leaves' `.grad` (torch.autograd.backward, and
    every facade's backward through its policy). `dump=(writer, path)` records the pass for a graph
    dump (paddle's `dump_backward_graph_path`)."""
    if grad_variables is not None:
        warnings.warn(policy.errors.grad_variables_deprecated(), stacklevel=3)
        if grad_tensors is None:
            grad_tensors = grad_variables
        else:
            raise policy.errors.grad_variables_and_tensors()
    if inputs is not None and not _is_tensor(inputs) and not isinstance(inputs, GradientEdge) and len(inputs) == 0:
        raise policy.errors.inputs_empty(api="backward")
    tensors = _as_tuple(tensors)
    if not tensors:
        return
    if not policy.allow_duplicate_roots:
        _check_unique(policy, tensors, "backward", "tensors")
    targets = None
    if inputs is not None:
        inputs = _inputs_tuple(policy, inputs, "backward")
        targets = _target_edges(policy, inputs, "backward")
    grads = _grads_tuple(grad_tensors, len(tensors))
    if len(grads) < len(tensors) or (policy.seed_count_exact and len(grads) > len(tensors)):
        raise policy.errors.seed_count(n_tensors=len(tensors), n_grads=len(grads))
    seeds = make_grads(policy, tensors, grads)
    tensors, seeds = _live(policy, tensors, seeds, create_graph)
    if not tensors:
        return
    roots = [_root_edge(policy, t, i) for i, t in enumerate(tensors)]
    retain_graph = _retains(policy, retain_graph, create_graph)
    if create_graph and not _warned_create_graph[0] and "backward_create_graph" in policy.messages:
        _warned_create_graph[0] = True
        warning = policy.errors.backward_create_graph()
        warnings.warn(str(warning), type(warning), stacklevel=3)
    if inputs is not None:
        for x in inputs:
            if _is_tensor(x) and x._grad_fn is not None:
                x.retain_grad()
    _run(policy, roots, seeds, dump, retain_graph=bool(retain_graph), create_graph=bool(create_graph),
         targets=targets)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False, *, policy: Policy = TORCH,
         no_grad_vars=(), dump=None):
    """The gradients of `outputs` w.r.t. `inputs`, leaving every `.grad` alone (torch.autograd.grad,
    and every facade's grad through its policy). No gradient flows through `no_grad_vars`
    (paddle); `dump` as for `backward`."""
    if materialize_grads and allow_unused is False:
        raise policy.errors.materialize_unused()
    if allow_unused is None:
        allow_unused = materialize_grads
    if not only_inputs:
        warnings.warn(policy.errors.only_inputs_deprecated(), stacklevel=3)
    keys = list(inputs.keys()) if type(inputs) is dict else None
    outputs = _as_tuple(outputs)
    inputs = _inputs_tuple(policy, inputs, "grad")
    if not inputs:
        raise policy.errors.inputs_empty(api="grad")
    if not policy.allow_duplicate_roots:
        _check_unique(policy, inputs, "grad", "inputs")
        _check_unique(policy, outputs, "grad", "outputs")
    if policy.grad_unreached_inputs_unused:
        targets = [edge(x) for x in inputs]
    else:
        targets = _target_edges(policy, inputs, "grad")
    cuts = {e for e in map(edge, no_grad_vars) if e is not None} if no_grad_vars else None
    if cuts:
        for i, e in enumerate(targets):
            if e is not None and e in cuts:
                raise policy.errors.input_in_cuts(index=i)
    if not outputs:
        raise policy.errors.input_unused(index=0)
    grads = _grads_tuple(grad_outputs, len(outputs))
    if len(grads) < len(outputs) or (policy.seed_count_exact and len(grads) > len(outputs)):
        raise policy.errors.seed_count(n_tensors=len(outputs), n_grads=len(grads))
    seeds = make_grads(policy, outputs, grads, is_grads_batched)
    outputs, seeds = _live(policy, outputs, seeds, create_graph)
    roots = [_root_edge(policy, t, i) for i, t in enumerate(outputs)]
    retain_graph = _retains(policy, retain_graph, create_graph)
    wanted = [i for i, e in enumerate(targets) if e is not None]
    result = [None] * len(inputs)
    if roots and wanted:
        if is_grads_batched:
            got = _batched(policy, roots, seeds, targets, create_graph)
        else:
            got = _run(policy, roots, seeds, dump, retain_graph=bool(retain_graph) or policy.grad_keeps_graph,
                       create_graph=bool(create_graph), targets=[targets[i] for i in wanted], capture=True,
                       cuts=cuts or None)
        for i, g in zip(wanted, got):
            result[i] = g
    out = []
    for i, (x, r) in enumerate(zip(inputs, result)):
        if r is None:
            if materialize_grads:
                if isinstance(x, GradientEdge):
                    raise policy.errors.materialize_edge()
                r = zeros_for(x, x._data.shape, x._data.dtype)
                if create_graph:
                    r._requires_grad = True
            elif not allow_unused:
                raise policy.errors.input_unused(index=i)
        elif policy.grad_results_follow_create_graph:
            if not create_graph or r._grad_fn is None:
                r = r.detach()
                r._requires_grad = bool(create_graph)
        elif not create_graph and r._requires_grad:
            r = r.detach()
        out.append(r)
    if keys is not None:
        return dict(zip(keys, out))
    return list(out) if policy.grad_returns_list else tuple(out)


def _batched(policy, roots, seeds, targets, create_graph):
    """is_grads_batched: one backward per row of the batched seeds, results stacked."""
    n = next(s._data.shape[0] for s in seeds if s is not None)
    rows = []
    for b in range(n):
        row_seeds = [s[b] if s is not None else None for s in seeds]
        rows.append(run_backward(policy, roots, row_seeds, retain_graph=True, create_graph=create_graph,
                                 targets=targets, capture=True))
    return [None if rows[0][i] is None else stack([r[i] for r in rows]) for i in range(len(targets))]
