"""Hooks that reach past one tensor: pack/unpack hooks for every tensor saved for backward (and
the switch that forbids them), and hooks on the gradients of several tensors at once.

`saved_tensors_hooks` pushes a (pack, unpack) pair on the thread's stack in `mode.state`;
`SavedTensor` (graph.py) calls the innermost pack hook when a tensor is saved and its unpack hook
when the value is needed. `register_multi_grad_hook` asks the engine which of the tensors'
nodes the running backward pass will execute (`engine.will_engine_execute_node`).
"""
from __future__ import annotations

import contextlib
import functools
import threading
from typing import Callable, Sequence

from . import mode
from .engine import current_graph_task_id, will_engine_execute_node
from .graph import RemovableHandle
from .policy import policy_of


class saved_tensors_hooks:
    """Within the block, every tensor saved for backward is stored as `pack_hook(tensor)` and
    given back as `unpack_hook(packed)` when needed (even after the block is left). Nested blocks:
    the innermost pair wins."""

    def __init__(self, pack_hook: Callable, unpack_hook: Callable) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        message = mode.state.saved_hooks_disabled
        if message is not None:
            raise RuntimeError(message)
        mode.state.saved_hooks = mode.state.saved_hooks + ((self.pack_hook, self.unpack_hook),)

    def __exit__(self, *exc) -> None:
        mode.state.saved_hooks = mode.state.saved_hooks[:-1]


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors are kept on the CPU and moved back to their device when backward needs them
    (no copy for tensors already on the CPU unless `pin_memory`, which here means "copy")."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor):
            from ..ops import to_device
            on_cpu = to_device(tensor.detach(), "cpu")
            if pin_memory:
                on_cpu = on_cpu._new(on_cpu._data.copy())
            return tensor.device, on_cpu

        def unpack_from_cpu(packed):
            from ..ops import to_device
            device, tensor = packed
            return to_device(tensor, device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str):
    """Within the block, entering `saved_tensors_hooks` raises RuntimeError(error_message); so
    does entering this block while saved-tensor hooks are active."""
    state = mode.state
    previous = state.saved_hooks_disabled
    try:
        if state.saved_hooks:
            raise RuntimeError(error_message)
        state.saved_hooks_disabled = error_message
        yield
    finally:
        state.saved_hooks_disabled = previous


class MultiHandle(RemovableHandle):
    """Removes every hook that one `register_multi_grad_hook` call registered."""

    def __init__(self, handles: tuple) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()

    def __getstate__(self):
        return self.handles

    def __setstate__(self, state) -> None:
        self.handles = state


def _grad_fn_or_accumulator(t):
    from .api import GradientEdge
    if isinstance(t, GradientEdge):
        return t.node
    if t._requires_grad and t._grad_fn is None:
        return t._grad_accumulator()
    if t._grad_fn is None:
        raise t.policy.errors.multi_hook_no_grad_fn()
    return t._grad_fn


def register_multi_grad_hook(tensors: Sequence, fn: Callable, *, mode: str = "all") -> MultiHandle:
    """mode="all": call `fn(grads)` once per backward pass, after the gradient of every tensor
    that pass computes has arrived (None for the others). mode="any": call `fn(grad)` with the
    first gradient to arrive."""
    supported = ("all", "any")
    if mode not in supported:
        raise policy_of(tensors).errors.multi_hook_mode(supported=supported, mode=mode)
    lock = threading.Lock()
    if mode == "all":
        nodes = [_grad_fn_or_accumulator(t) for t in tensors]
        count: dict[int, int] = {}
        expected: dict[int, int] = {}
        buffer: dict[int, list] = {}

        def inner_hook(idx: int):
            def hook(grad):
                task = current_graph_task_id()
                if task == -1:
                    raise AssertionError("expected this hook to be called inside a backward call")
                with lock:
                    seen = count.get(task, 0)
                    count[task] = seen + 1
                    if seen == 0:
                        expected[task] = sum(map(will_engine_execute_node, nodes))
                        buffer[task] = [None] * len(nodes)
                buffer[task][idx] = grad
                if seen == expected[task] - 1:
                    grads = buffer.pop(task)
                    del count[task], expected[task]
                    fn(grads)
            return hook

        handles = tuple(t.register_hook(inner_hook(i)) for i, t in enumerate(tensors))
    else:
        ran: dict[int, bool] = {}

        @functools.wraps(fn)
        def wrapped(grad):
            task = current_graph_task_id()
            if task == -1:
                raise AssertionError("expected this hook to be called inside a backward call")
            with lock:
                first = not ran.get(task, False)
                ran[task] = True
            if first:
                fn(grad)

        handles = tuple(t.register_hook(wrapped) for t in tensors if t.requires_grad)
    return MultiHandle(handles)
