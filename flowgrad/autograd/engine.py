"""run_backward(): the whole backward algorithm, the one place gradients flow.

1. Dependencies: an iterative walk from the roots counts the edges into every reachable node.
   With targets (`inputs=` or `autograd.grad`), only nodes on a path to a target are run.
2. Execution: a node runs once all its incoming gradients have arrived, newest node first among
   the ready ones. Per node: tensor hooks, retained grads, capture, pre-hooks, the formulas,
   post-hooks, then (without retain_graph) its saved tensors are released.
3. Routing: each gradient is summed to the shape and cast to the dtype of the input it flows into
   (the one place broadcasting is undone) and added into the next node's buffer.
4. Accumulation: at a leaf's AccumulateGrad the gradient is added into `.grad` (`accumulate`).

Ownership: each gradient in a buffer carries an `owned` flag, true when the engine holds the only
reference to it, so its memory may be reused: a later gradient for the same buffer is added into
it in place, and a leaf's first `.grad` is the gradient itself rather than a copy. A gradient is
owned when a declared op's formula made it (not the incoming gradient passed on, which may go to
several inputs) during a pass that records nothing and hands nothing back (no create_graph, no
autograd.grad), or the engine made it (a sum), and no hook saw it; a view is used but never
written into. Seeds, custom Function results and anything a hook saw are never owned.
No recursion over graph depth anywhere.
"""
from __future__ import annotations

import gc
import heapq
import itertools
import threading
import warnings
from typing import Sequence

import numpy as np

from .. import backend
from ..ops import add, cast, copy_grad, edge, real, sum_to, zeros_for
from . import mode
from .graph import FREED, AccumulateGrad, Node, SavedTensor, _next_seq, one_output_meta, shown_grad
from .policy import Policy

Edge = tuple  # (node, output_nr)

_graph_tasks = mode._graph_tasks
_grad = mode._grad


def run_backward(policy: Policy, roots: Sequence[Edge], seeds: Sequence, *, retain_graph: bool,
                 create_graph: bool, targets: Sequence[Edge] | None = None, capture: bool = False,
                 cuts: set | None = None, observer=None) -> list | None:
    """Backpropagate `seeds` from `roots`. Without `targets`, accumulate into every reachable leaf.
    With targets and `capture=False`, accumulate only into those (backward's `inputs=`); with
    `capture=True`, return the gradient arriving at each target instead (autograd.grad).
    No gradient flows into an edge in `cuts` (paddle's `no_grad_vars`). `observer`, when given, is
    told `popped(node)` as each node leaves the ready queue and `passed(node, next_node, grad)` for
    each gradient sent along an edge (paddle's backward-graph dump)."""
    # The walk allocates a container per node and frees the graph as it goes, but makes no
    # reference cycles: the cyclic collector, which would traverse the whole graph again and again
    # while it is alive, is paused for the walk (and resumed as it was).
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        return _run_backward(policy, roots, seeds, retain_graph=retain_graph, create_graph=create_graph,
                             targets=targets, capture=capture, cuts=cuts, observer=observer)
    finally:
        if collecting:
            gc.enable()


def _run_backward(policy: Policy, roots: Sequence[Edge], seeds: Sequence, *, retain_graph: bool,
                  create_graph: bool, targets: Sequence[Edge] | None, capture: bool, cuts: set | None,
                  observer) -> list | None:
    # 1. dependencies: pending[node] = [edges still to arrive, grad of output 0, owned 0, grad 1, owned 1, ...]
    if targets is None:
        pending, needed = _count_dependencies(roots), None
    else:
        pending, needed = _count_dependencies_to(roots, targets)
    captured = [None] * len(targets) if capture else None
    capture_at: dict = {}
    if capture:
        for i, (node, nr) in enumerate(targets):
            capture_at.setdefault(node, []).append((nr, i))
    own = not (create_graph or capture)   # a pass that records nothing and hands nothing back

    ready: list = []
    for (node, nr), g in zip(roots, seeds):
        p = pending.get(node)
        if p is None:
            p = pending[node] = [0] + [None, False] * len(node.out_meta)
            heapq.heappush(ready, (-node.seq, id(node), node))
        if g is not None:
            k = 2 * nr + 1
            if p[k] is None:
                p[k] = g
            else:
                _add_into(p, k, g, own)

    # 2. execution
    anomaly = mode.anomaly_enabled()
    free_every = policy.free_every_node
    picky = policy.release_needs_saved_tensor
    release = not retain_graph
    heappop, heappush = heapq.heappop, heapq.heappush
    filtered = needed is not None or cuts is not None or observer is not None
    tie = create_graph and policy.double_grad_name is not None
    inline = not anomaly
    sink = inline   # a leaf's accumulator made ready with no hook on it accumulates at once
    follow = None  # the one node the last node made ready while the queue was empty: it runs next, no heap
    task = _GraphTask(roots, pending, needed, _grad.get())
    grad_mode = _grad.set(create_graph)
    quiet = backend.quiet(np)   # formulas make inf/NaN silently, as PyTorch's do
    quiet.__enter__()
    try:
        while True:
            if follow is not None:
                node, follow = follow, None
            elif ready:
                node = heappop(ready)[2]
            else:
                break
            p = pending[node]   # (the entry stays, emptied: the pass's record of what it reached)
            if observer is not None:
                observer.popped(node)
            if tie:
                saved = node._saved is not None   # (before a release frees it)
            if inline and len(p) == 3 and node._plain and node._hooks is None and \
                    (needed is None or (node in needed and node not in capture_at)):
                # the common case, inlined: a declared op's one-output node on the way, not a target
                if node._saved is FREED:
                    raise policy.errors.second_backward(node=policy.node_name(node))
                g = p[1]
                p[1] = None
                outs = node.backward(g) if g is not None else None
                if release and (free_every or (_saves_tensor(policy, node) if picky else node._saved is not None)):
                    node._saved = FREED
                fresh = own
            else:
                grads, owned = p[1::2], p[2::2]
                del p[1:]
                if node._hooks is not None or (type(node) is AccumulateGrad and node.variable._extra is not None):
                    grads = _tensor_hooks(policy, node, grads, capture)
                    owned = [False] * len(grads)   # a hook may have kept them
                if capture:
                    slots = capture_at.get(node)
                    if slots is not None:   # a target runs only when another target lies below it
                        for nr, i in slots:
                            captured[i] = grads[nr]
                        if type(node) is AccumulateGrad or not any(e is not None and e[0] in needed
                                                                   for e in node.next_edges):
                            continue
                    elif node not in needed:
                        continue
                elif needed is not None and node not in needed:
                    continue
                if node._saved is FREED:
                    raise policy.errors.second_backward(node=policy.node_name(node))
                g = grads[0] if len(grads) == 1 else None
                if len(grads) == 1 and node._hooks is None and not anomaly:
                    outs = _apply(node, grads, owned[0], create_graph) \
                        if g is not None or node.runs_without_grads else None
                elif all(x is None for x in grads) and not node.runs_without_grads:
                    outs = None
                else:
                    outs = _run_node(policy, node, grads, anomaly, create_graph)
                if release and (not picky or _saves_tensor(policy, node)):
                    node.release(free_every or picky)
                fresh = own and node.fresh_grads and node._hooks is None and len(grads) == 1

            if tie and outs:
                outs = _tie(policy, node, outs, saved)
            # 3. routing: each gradient to the buffer of the node its edge leads to
            if outs is None:
                outs = (None,) * len(node.next_edges)
            for edge, out in zip(node.next_edges, outs):
                if edge is None:
                    continue
                nxt, nr = edge
                if filtered:
                    if needed is not None and nxt not in needed:
                        continue
                    if cuts is not None and edge in cuts:
                        out = None
                p = pending[nxt]
                if out is not None:
                    owned = fresh and out is not g   # a formula made it (the incoming one may go to several inputs)
                    shape, dtype = nxt.out_meta[nr]
                    od = out._data
                    if od.shape != shape:
                        out = sum_to(out, shape)
                        owned = own
                    if od.dtype is not dtype and od.dtype != dtype and getattr(nxt, "grad_in_dtype_consistent", True):
                        # into a real input, a complex gradient's real part (PyTorch's handle_r_to_c)
                        out = cast(real(out) if od.dtype.kind == "c" and dtype.kind != "c" else out, dtype)
                        owned = own
                    if filtered and observer is not None:
                        observer.passed(node, nxt, out)
                    k = 2 * nr + 1
                    if p[k] is None:
                        p[k] = out
                        p[k + 1] = owned
                    else:
                        _add_into(p, k, out, own)
                left = p[0] - 1
                p[0] = left
                if left == 0:
                    if sink and type(nxt) is AccumulateGrad and nxt._hooks is None and \
                            nxt.variable._extra is None and not filtered:
                        # a leaf's only gradient, with no hook to see it: accumulated here (PyTorch
                        # would run the accumulator first among the ready nodes: the same order)
                        leaf_grad, leaf_owned = p[1], p[2]
                        del p[1:]
                        if leaf_grad is not None:
                            accumulate(nxt.variable, leaf_grad, leaf_owned, create_graph)
                        continue
                    if follow is None and not ready:
                        follow = nxt
                    else:
                        heappush(ready, (-nxt.seq, id(nxt), nxt))
            if follow is not None and ready:   # several became ready: the queue orders them
                heappush(ready, (-follow.seq, id(follow), follow))
                follow = None
    finally:
        quiet.__exit__(None, None, None)
        _graph_tasks.reset(task.token)
        _grad.reset(grad_mode)
    return captured


class DoubleGradTie(Node):
    """Under create_graph where the policy names double-grad nodes (paddle's `<Op>DoubleGradNode`):
    a first-order gradient made by a node passes through one of these, whose edges also reach that
    node's forward inputs, so differentiating the gradient again reaches them (with zeros where it
    does not depend on them), as paddle's double-grad nodes do. Subclassed per name."""

    __slots__ = ()
    _classes: dict = {}

    def apply(self, grads: list) -> tuple:
        g = grads[0]
        return (g,) + tuple(None if e is None else zeros_for(g, *e[0].out_meta[e[1]]) for e in self.next_edges[1:])


def _tie(policy: Policy, node: Node, outs, saved: bool) -> tuple:
    """`outs` of `node`, each through a DoubleGradTie named by the policy (none for the nodes it does
    not name), whose edges reach the node's inputs where the policy says so and the node saved
    something (its formulas use the forward values, as paddle's double-grad kernels take them)."""
    named = policy.double_grad_name(node)
    if named is None:
        return outs
    name, ties_inputs = named
    cls = DoubleGradTie._classes.get(name)
    if cls is None:
        cls = DoubleGradTie._classes[name] = type(name, (DoubleGradTie,), {
            "__slots__": (), "names": dict.fromkeys(("torch", "paddle", "oneflow"), name)})
    inputs = tuple(e for e in node.next_edges if e is not None) if saved and ties_inputs else ()
    tied = []
    for out in outs:
        if out is None:
            tied.append(None)
            continue
        t = cls.__new__(cls)
        t.next_edges = (edge(out),) + inputs
        t.out_meta = one_output_meta(out._data)
        t.out_cls = type(out)
        t.seq = _next_seq()
        t._saved = t._hooks = t._metadata = t._trace = None
        res = out._new(out._data)
        res._vc = out._box()
        res._grad_fn, res.output_nr, res._requires_grad = t, 0, True
        tied.append(res)
    return tuple(tied)


def _saves_tensor(policy: Policy, node: Node) -> bool:
    """Whether a node holds a saved tensor (a Python number does not count), by flowgrad's formulas
    or, for the nodes in `policy.saving_nodes`, by the framework's kernels."""
    saved = node._saved
    if type(saved) is tuple and any(type(v) is SavedTensor for v in saved):
        return True
    return bool(getattr(node, "_fn_saved", None)) or node.names["torch"] in policy.saving_nodes


def _add_into(p: list, k: int, g, own: bool) -> None:
    """Add gradient `g` into the gradient in slot `k` of a pending entry: in place when the engine
    owns it (`p[k + 1]`) and it is not a view, else out of place (the sum is then the engine's)."""
    old = p[k]
    if p[k + 1] and old._view is None and old._vc is None and getattr(old._data, "base", None) is None:
        old._data += g._data   # same shape and dtype: both were summed and cast to the input's
    else:
        p[k] = add(old, g)
        p[k + 1] = own


def _apply(node: Node, grads: list, owned: bool, create_graph: bool) -> tuple:
    """Run a node on its gradients: a leaf's accumulator accumulates, any other node applies its formulas."""
    if type(node) is AccumulateGrad:
        accumulate(node.variable, grads[0], owned, create_graph)
        return ()
    return node.apply(grads)


# ------------------------------------------------------------------------------- accumulation

_accumulate_lock = threading.Lock()


def accumulate(var, grad, owned: bool, create_graph: bool) -> None:
    """4. Add `grad` into `var.grad`: the first time a new tensor (`grad` itself when the engine
    owns it), in place afterwards, out of place (recorded) under create_graph. A lock makes
    concurrent backward passes into one leaf lose nothing (NumPy releases the GIL inside large
    in-place adds). Then the leaf's post-accumulate hooks run."""
    with _accumulate_lock:
        old = var._grad
        marked = var.policy.grads_require_grad  # then a plain .grad requires grad too: only history forbids in place
        if old is None:
            var._grad = _first_grad(grad, owned and not create_graph, create_graph, marked)
        elif create_graph or grad.requires_grad or (old._grad_fn is not None if marked else old.requires_grad):
            var._grad = add(old, grad)
        else:
            _add_inplace(old, grad)
    hooks = var._extra.post_acc_hooks if var._extra is not None else None
    if hooks:
        for h in tuple(hooks.values()):
            out = h(var)
            if out is not None:   # a tensor: "should return None"; anything else fails the type check first
                raise var.policy.error("post_acc_return" if hasattr(out, "_version") or
                                       "hook_type" not in var.policy.messages else "hook_type",
                                       type=type(out).__name__)


AccumulateGrad.accumulate = staticmethod(accumulate)


def _first_grad(grad, owned: bool, create_graph: bool, marked: bool):
    """A leaf's first `.grad`: an owned gradient that is not a view itself, else a copy."""
    data = grad._data
    if owned and grad._view is None and grad._vc is None and getattr(data, "base", None) is None:
        if grad._grad_fn is None and grad._extra is None and type(grad) is grad._out_cls:
            out = grad          # a bare temporary: it becomes .grad itself
        else:
            out = grad._new(data)
    elif create_graph and grad.requires_grad:
        return copy_grad(grad)
    else:
        out = grad._new(data.copy())
    out._requires_grad = marked
    return out


def _add_inplace(old, grad) -> None:
    d = old._data
    g = grad._data
    if g.dtype != d.dtype:
        g = g.astype(d.dtype)
    if g.shape == d.shape:
        d += g
    else:
        old._data = d + g
    old._bump()


# ------------------------------------------------------------------------------- the walks

def _count_dependencies(roots: Sequence[Edge]) -> dict:
    """For each node reachable from the roots, `[edges leading into it, None, False per output]`:
    the count the engine decrements and the slots it sums gradients into. An iterative walk: a
    node is expanded when it is first reached; a root only from the stack it starts on."""
    pending: dict[Node, list] = {}
    stack = [roots[0][0]] if len(roots) == 1 else list(dict.fromkeys(node for node, _ in roots))
    starts = set(stack)
    pop, push, get = stack.pop, stack.append, pending.get
    while stack:
        for e in pop().next_edges:
            if e is not None:
                nxt = e[0]
                p = get(nxt)
                if p is None:
                    pending[nxt] = [1, None, False] if len(nxt.out_meta) == 1 else \
                        [1] + [None, False] * len(nxt.out_meta)
                    if nxt not in starts:
                        push(nxt)
                else:
                    p[0] += 1
    return pending


def _count_dependencies_to(roots: Sequence[Edge], targets: Sequence[Edge]) -> tuple[dict, set]:
    """`_count_dependencies` and, in the same walk, the nodes from which some target node is
    reachable (targets included): an iterative depth-first walk, where a node is finished after
    every node below it, so whether it reaches a target is known when it is finished."""
    pending: dict[Node, list] = {}
    needed = {n for n, _ in targets}
    started = set()
    get = pending.get
    for start in dict.fromkeys(node for node, _ in roots):
        if start in pending:   # reached (and walked) from an earlier root
            continue
        started.add(start)
        stack = [(start, iter(start.next_edges))]
        while stack:
            node, edges = stack[-1]
            for e in edges:
                if e is not None:
                    nxt = e[0]
                    p = get(nxt)
                    if p is None:
                        pending[nxt] = [1] + [None, False] * len(nxt.out_meta)
                        if nxt not in started:
                            stack.append((nxt, iter(nxt.next_edges)))
                            break
                    else:
                        p[0] += 1
            else:
                stack.pop()
                if node not in needed:
                    for e in node.next_edges:
                        if e is not None and e[0] in needed:
                            needed.add(node)
                            break
    return pending, needed


# ------------------------------------------------------------------------------- hooks

def _tensor_hooks(policy: Policy, node: Node, grads: list, capture: bool) -> list:
    """Run the hooks of the tensors this node produced, then store retained grads."""
    if type(node) is AccumulateGrad:
        if capture and not policy.leaf_hooks_in_grad:
            return grads
        x = node.variable._extra
        hooks = x.hooks if x is not None else None
        if hooks and grads[0] is not None:
            grads = [_apply_tensor_hooks(policy, hooks, grads[0])]
        return grads
    nh = node._hooks
    if nh.tensor_pre:
        grads = list(grads)
        for nr, hooks in nh.tensor_pre.items():
            if hooks and grads[nr] is not None:
                grads[nr] = _apply_tensor_hooks(policy, hooks, grads[nr])
    if nh.retains:
        for nr, ref in nh.retains.items():
            t = ref()
            g = grads[nr]
            if t is None or g is None:
                continue
            if t._grad is None or not policy.retained_grad_accumulates:
                t._grad = g if g.requires_grad else g._new(g._data.copy())
            else:
                t._grad = add(t._grad, g)
    return grads


def _apply_tensor_hooks(policy: Policy, hooks: dict, grad):
    for hook in tuple(hooks.values()):
        try:
            if policy.hooks_keep_caller_grad_mode:
                token = _grad.set(_graph_tasks.get()[-1].caller_grad_mode)
                try:
                    out = hook(shown_grad(policy, grad))
                finally:
                    _grad.reset(token)
            else:
                out = hook(shown_grad(policy, grad))
        except Exception as exc:
            if "hook_raised" not in policy.messages:
                raise
            raise policy.errors.hook_raised(type=type(exc).__name__, message=exc) from exc
        if out is None:
            continue
        if not hasattr(out, "grad_fn"):
            raise policy.errors.hook_type(type=type(out).__name__)
        if out._data.shape != grad._data.shape and policy.messages.get("hook_size"):
            raise policy.errors.hook_size(name=_hook_name(hook))
        if out._data.dtype != grad._data.dtype and policy.messages.get("hook_dtype"):
            raise policy.errors.hook_dtype(name=_hook_name(hook), was=policy.type_name(grad._data.dtype),
                               got=policy.type_name(out._data.dtype))
        grad = out
    return grad


def _hook_name(hook) -> str:
    return getattr(hook, "__name__", type(hook).__name__)


def _run_node(policy: Policy, node: Node, grads: list, anomaly: bool, create_graph: bool) -> tuple:
    """A node with pre/post hooks, several outputs or under anomaly mode: hooks, missing
    gradients materialised as zeros, the node, the NaN check."""
    hooks = node._hooks
    if hooks is not None and hooks.pre:
        for hook in tuple(hooks.pre.values()):
            out = hook(tuple(grads))
            if out is not None:
                grads = _check_hook_result(policy, hook, out, grads)
    if len(grads) > 1 and any(g is None for g in grads) and any(g is not None for g in grads) and \
            getattr(node, "materialize_grads", True):
        like = next(g for g in grads if g is not None)
        grads = [g if g is not None else zeros_for(like, shape, dtype)
                 for g, (shape, dtype) in zip(grads, node.out_meta)]
    try:
        outs = _apply(node, grads, False, create_graph)
    except Exception:
        if anomaly:
            _warn_anomaly(node)
        raise
    if hooks is not None and hooks.post:
        outs = tuple(outs)
        for hook in tuple(hooks.post.values()):
            res = hook(outs, tuple(grads))
            if res is not None:
                outs = tuple(_check_hook_result(policy, hook, res, outs))
    if anomaly and mode.state.anomaly_check_nan:
        for i, g in enumerate(outs):
            if g is not None and g._data.dtype.kind in "fV" and bool(g._data.size) and \
                    bool((g._data != g._data).any()):
                _warn_anomaly(node)
                raise policy.errors.nan_in_backward(node=node.name(), index=i)
    return outs


def _check_hook_result(policy: Policy, hook, out, before) -> list:
    if not isinstance(out, tuple):
        raise policy.errors.node_hook_tuple(type=type(out).__name__)
    if len(out) != len(before):
        raise policy.errors.node_hook_count(name=_hook_name(hook), got=len(out), expected=len(before))
    for new, old in zip(out, before):
        if old is None and new is not None:
            raise policy.errors.node_hook_none()
    return list(out)


def _warn_anomaly(node: Node) -> None:
    warnings.warn(node.policy.error("anomaly_trace" if node._trace else "anomaly_no_trace", node=node.name(),
                                    trace="".join(node._trace or ())), stacklevel=3)


# ------------------------------------------------------------------------------- the pass in progress

class _GraphTask:
    """The backward pass running on this thread, as `register_multi_grad_hook` needs to see it: an
    id and which nodes it will execute. Current around the execution loop (a stack: reentrant
    backward passes nest)."""

    __slots__ = ("id", "roots", "reached", "needed", "token", "caller_grad_mode")
    _ids = itertools.count()

    def __init__(self, roots, reached: dict, needed, caller_grad_mode: bool):
        """Made current on this thread until `token` is reset."""
        self.id = next(_GraphTask._ids)
        self.roots, self.reached, self.needed = roots, reached, needed
        self.caller_grad_mode = caller_grad_mode
        self.token = _graph_tasks.set(_graph_tasks.get() + (self,))

    def will_execute(self, node: Node) -> bool:
        reachable = node in self.reached or any(node is root for root, _ in self.roots)
        return reachable and (self.needed is None or node in self.needed)


def current_graph_task_id() -> int:
    """Id of the backward pass running on this thread, -1 outside one."""
    tasks = _graph_tasks.get()
    return tasks[-1].id if tasks else -1


def current_graph_task_is_filtered() -> bool:
    """Whether the running backward pass computes only some gradients (`grad()`, `backward(inputs=)`)."""
    tasks = _graph_tasks.get()
    return bool(tasks) and tasks[-1].needed is not None


def will_engine_execute_node(node: Node) -> bool:
    """Whether the backward pass running on this thread will execute `node`."""
    tasks = _graph_tasks.get()
    if not tasks:
        raise node.policy.errors.engine_not_running()
    return tasks[-1].will_execute(node)
