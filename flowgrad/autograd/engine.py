"""run_backward(): the one place gradients flow.

1. Dependencies: an iterative walk from the roots counts the edges into every reachable node.
   With targets (`inputs=` or `autograd.grad`), only nodes on a path to a target are run.
2. Execution: a node runs once all its incoming gradients have arrived, newest node first among
   the ready ones. Per node: tensor hooks, retained grads, capture, pre-hooks, the formula,
   post-hooks, then (without retain_graph) its saved tensors are released.
3. Each gradient is summed to the shape and cast to the dtype of the input it flows into (the one
   place broadcasting is undone) and added, out of place, into the next node's buffer.
No recursion over graph depth anywhere.
"""
from __future__ import annotations

import heapq
import itertools
import warnings
from typing import Sequence

import numpy as np

from . import mode
from .graph import FREED, AccumulateGrad, Node
from .policy import Policy

Edge = tuple  # (node, output_nr)


def _quiet_fp():
    """Backward formulas produce inf/NaN silently, as PyTorch does: NumPy's floating-point warnings
    are off for the pass (CuPy and other namespaces raise none)."""
    return np.errstate(all="ignore")


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
    add, cast, sum_to, zeros_for = _ops()
    pending = _count_dependencies(roots)   # node -> [edges still to arrive, gradient of output 0, ...]
    needed = _nodes_reaching(roots, pending, targets) if targets is not None else None
    captured = [None] * len(targets) if capture else None
    capture_at: dict = {}
    if capture:
        for i, (node, nr) in enumerate(targets):
            capture_at.setdefault(node, []).append((nr, i))

    ready: list = []
    for (node, nr), g in zip(roots, seeds):
        p = pending.get(node)
        if p is None:
            p = pending[node] = [0] + [None] * len(node.out_meta)
            heapq.heappush(ready, (-node.seq, id(node), node))
        if g is not None:
            p[nr + 1] = g if p[nr + 1] is None else add(p[nr + 1], g)

    anomaly = mode.anomaly_enabled()
    free_every = policy.free_every_node
    release = not retain_graph
    heappop, heappush = heapq.heappop, heapq.heappush
    filtered = needed is not None or cuts is not None or observer is not None
    follow = None  # the one node the last node made ready while the queue was empty: it runs next, no heap
    grad_mode = _grad.set(create_graph)
    task = _GraphTask(roots, pending, needed)
    quiet = _quiet_fp()
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
            if len(p) == 2 and node._plain and node._hooks is None and not (anomaly or capture or filtered):
                # the common case, inlined: one output, Node.apply and Node.release, nothing to observe
                if node._saved is FREED:
                    raise policy.error("second_backward", node=policy.node_name(node))
                g = p[1]
                p[1] = None
                outs = node.backward(g) if g is not None else None
                if release and (node._saved is not None or free_every):
                    node._saved = FREED
            else:
                grads = p[1:]
                del p[1:]
                if node._hooks is not None or (type(node) is AccumulateGrad and node.variable._extra is not None):
                    grads = _tensor_hooks(policy, node, grads, capture)
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
                    raise policy.error("second_backward", node=policy.node_name(node))
                if len(grads) == 1 and node._hooks is None and not anomaly:
                    # (no local name for the gradient: AccumulateGrad steals it when unshared)
                    outs = node.apply(grads) if grads[0] is not None or node.runs_without_grads else None
                elif all(g is None for g in grads) and not node.runs_without_grads:
                    outs = None
                else:
                    outs = _run_node(policy, node, grads, anomaly, zeros_for)
                if release:
                    node.release(free_every)
            if outs is None:
                outs = (None,) * len(node.next_edges)
            for edge, g in zip(node.next_edges, outs):
                if edge is None:
                    continue
                nxt, nr = edge
                if filtered:
                    if needed is not None and nxt not in needed:
                        continue
                    if cuts is not None and edge in cuts:
                        g = None
                p = pending[nxt]
                if g is not None:
                    shape, dtype = nxt.out_meta[nr]
                    gd = g._data
                    if gd.shape != shape:
                        g = sum_to(g, shape)
                    if gd.dtype is not dtype and gd.dtype != dtype:
                        g = cast(g, dtype)
                    if filtered and observer is not None:
                        observer.passed(node, nxt, g)
                    nr += 1
                    p[nr] = g if p[nr] is None else add(p[nr], g)
                left = p[0] - 1
                p[0] = left
                if left == 0:
                    if follow is None and not ready:
                        follow = nxt
                    else:
                        heappush(ready, (-nxt.seq, id(nxt), nxt))
            if follow is not None and ready:   # several became ready: the queue orders them
                heappush(ready, (-follow.seq, id(follow), follow))
                follow = None
            outs = g = gd = grads = p = None  # hold no gradient past its node: AccumulateGrad steals unshared arrays
    finally:
        quiet.__exit__(None, None, None)
        _graph_tasks.reset(task.token)
        _grad.reset(grad_mode)
    return captured


def _ops():
    """The ops the engine itself applies (imported on first use: the op table imports the engine)."""
    global _OPS
    if _OPS is None:
        from ..ops import add, cast, sum_to, zeros_for
        _OPS = add, cast, sum_to, zeros_for
    return _OPS


_OPS = None


def _count_dependencies(roots: Sequence[Edge]) -> dict:
    """For each node reachable from the roots, `[edges leading into it, None per output]`: the
    count the engine decrements and the slots it sums gradients into. An iterative walk: a node is
    expanded when it is first reached; a root only from the stack it starts on."""
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
                    pending[nxt] = [1, None] if len(nxt.out_meta) == 1 else [1] + [None] * len(nxt.out_meta)
                    if nxt not in starts:
                        push(nxt)
                else:
                    p[0] += 1
    return pending


def _nodes_reaching(roots: Sequence[Edge], pending: dict, targets: Sequence[Edge]) -> set:
    """Nodes from which some target node is reachable (targets included)."""
    order = []  # topological order, roots first (Kahn over a copy of the counts)
    left = {node: p[0] for node, p in pending.items()}
    stack = [n for n, _ in roots if left.get(n, 0) == 0]
    seen = set(stack)
    stack = list(dict.fromkeys(stack))
    while stack:
        node = stack.pop()
        order.append(node)
        for e in node.next_edges:
            if e is None:
                continue
            nxt = e[0]
            left[nxt] -= 1
            if left[nxt] == 0 and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    needed = {n for n, _ in targets}
    for node in reversed(order):
        if node not in needed:
            for e in node.next_edges:
                if e is not None and e[0] in needed:
                    needed.add(node)
                    break
    return needed


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
                from ..ops import add
                t._grad = add(t._grad, g)
    return grads


def _apply_tensor_hooks(policy: Policy, hooks: dict, grad):
    for hook in tuple(hooks.values()):
        try:
            out = hook(grad)
        except Exception as exc:
            if "hook_raised" not in policy.messages:
                raise
            raise policy.error("hook_raised", type=type(exc).__name__, message=exc) from exc
        if out is None:
            continue
        if not hasattr(out, "grad_fn"):
            raise policy.error("hook_type", type=type(out).__name__)
        if out._data.shape != grad._data.shape and policy.messages.get("hook_size"):
            raise policy.error("hook_size", name=_hook_name(hook))
        if out._data.dtype != grad._data.dtype and policy.messages.get("hook_dtype"):
            raise policy.error("hook_dtype", name=_hook_name(hook), was=policy.type_name(grad._data.dtype),
                               got=policy.type_name(out._data.dtype))
        grad = out
    return grad


def _hook_name(hook) -> str:
    return getattr(hook, "__name__", type(hook).__name__)


def _run_node(policy: Policy, node: Node, grads: list, anomaly: bool, zeros_for) -> tuple:
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
        outs = node.apply(grads)
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
            if g is not None and g._data.dtype.kind == "f" and bool(g._data.size) and \
                    bool((g._data != g._data).any()):
                _warn_anomaly(node)
                raise policy.error("nan_in_backward", node=node.name(), index=i)
    return outs


def _check_hook_result(policy: Policy, hook, out, before) -> list:
    if not isinstance(out, tuple):
        raise policy.error("node_hook_tuple", type=type(out).__name__)
    if len(out) != len(before):
        raise policy.error("node_hook_count", name=_hook_name(hook), got=len(out), expected=len(before))
    for new, old in zip(out, before):
        if old is None and new is not None:
            raise policy.error("node_hook_none")
    return list(out)


def _warn_anomaly(node: Node) -> None:
    kind = "anomaly_trace" if node._trace else "anomaly_no_trace"
    category, template = node.policy.messages[kind]
    warnings.warn(template.format(node=node.name(), trace="".join(node._trace or ())), category, stacklevel=3)


class _GraphTask:
    """The backward pass running on this thread, as `register_multi_grad_hook` needs to see it: an
    id and which nodes it will execute. Current around the execution loop (a stack: reentrant
    backward passes nest)."""

    __slots__ = ("id", "roots", "reached", "needed", "token")
    _ids = itertools.count()

    def __init__(self, roots, reached: dict, needed):
        """Made current on this thread until `token` is reset."""
        self.id = next(_GraphTask._ids)
        self.roots, self.reached, self.needed = roots, reached, needed
        self.token = _graph_tasks.set(_graph_tasks.get() + (self,))

    def will_execute(self, node: Node) -> bool:
        reachable = node in self.reached or any(node is root for root, _ in self.roots)
        return reachable and (self.needed is None or node in self.needed)


def current_graph_task_id() -> int:
    """Id of the backward pass running on this thread, -1 outside one."""
    tasks = _graph_tasks.get()
    return tasks[-1].id if tasks else -1


def will_engine_execute_node(node: Node) -> bool:
    """Whether the backward pass running on this thread will execute `node`."""
    tasks = _graph_tasks.get()
    if not tasks:
        raise RuntimeError("_will_engine_execute_node should only be called during the backward pass")
    return tasks[-1].will_execute(node)
