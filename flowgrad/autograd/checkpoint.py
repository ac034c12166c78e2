"""Activation checkpointing (PyTorch's torch.utils.checkpoint): run a function without keeping
what its backward needs, and recompute it when backward needs it.

`use_reentrant=True` is a custom function whose forward runs under no_grad and whose backward
reruns the function under grad mode on detached inputs and back-propagates through that copy (a
backward inside backward). `use_reentrant=False` records the graph as usual but packs every tensor
saved inside the call as a placeholder (saved-tensor hooks); the first unpack in a backward pass
reruns the function, collecting the tensors it saves in the same order, and stops as soon as all
are there (`early_stop`). Both restore the random state of the forward first
(`preserve_rng_state`), so dropout draws the same mask."""
from __future__ import annotations

import contextlib
import warnings
from typing import Any, Callable

from .. import creation
from ..tensor import Tensor
from . import api, mode
from .engine import current_graph_task_id, current_graph_task_is_filtered
from .function import Function
from .hooks import saved_tensors_hooks
from .policy import policy_of

DETERMINISM_CHECKS = ("default", "none")


class CheckpointError(RuntimeError):
    """The recomputation did not save what the forward saved."""


def detach_variable(inputs: tuple) -> tuple:
    """Detached copies of the tensors among `inputs`, each requiring grad as its original does."""
    if not isinstance(inputs, tuple):
        raise policy_of(inputs).errors.checkpoint_detach_type(type=type(inputs).__name__)
    out = []
    for inp in inputs:
        if not isinstance(inp, Tensor):
            out.append(inp)
            continue
        x = inp.detach()
        x.requires_grad = inp.requires_grad
        out.append(x)
    return tuple(out)


def check_backward_validity(inputs) -> None:
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, Tensor)):
        warnings.warn(policy_of(*inputs).errors.checkpoint_no_input_requires_grad(), stacklevel=2)


@contextlib.contextmanager
def _rng_restored(state):
    """Run the block from the random state `state` (None: as it is), then put back the state the
    block started from."""
    if state is None:
        yield
        return
    outer = creation.default_generator.get_state()
    creation.default_generator.set_state(state)
    try:
        yield
    finally:
        creation.default_generator.set_state(outer)


class CheckpointFunction(Function):
    """The reentrant checkpoint: forward without a graph, backward by recomputing."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.fwd_rng_state = creation.default_generator.get_state() if preserve_rng_state else None
        ctx.inputs = []
        ctx.tensor_indices = []
        tensor_inputs = []
        for i, arg in enumerate(args):
            if isinstance(arg, Tensor):
                tensor_inputs.append(arg)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            else:
                ctx.inputs.append(arg)
        ctx.save_for_backward(*tensor_inputs)
        with mode.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *args):
        policy = policy_of(*args)
        if current_graph_task_is_filtered():
            raise policy.errors.checkpoint_reentrant_grad()
        inputs = list(ctx.inputs)
        for i, idx in enumerate(ctx.tensor_indices):
            inputs[idx] = ctx.saved_tensors[i]
        with _rng_restored(ctx.fwd_rng_state):
            detached_inputs = detach_variable(tuple(inputs))
            with mode.enable_grad():
                outputs = ctx.run_function(*detached_inputs)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        outputs_with_grad, args_with_grad = [], []
        for out, grad in zip(outputs, args):
            if isinstance(out, Tensor) and out.requires_grad:
                outputs_with_grad.append(out)
                args_with_grad.append(grad)
        if len(outputs_with_grad) == 0:
            raise policy.errors.checkpoint_no_output_requires_grad()
        api.backward(outputs_with_grad, args_with_grad, policy=policy)
        grads = tuple(inp.grad if isinstance(inp, Tensor) else None for inp in detached_inputs)
        return (None, None) + grads


class _StopRecomputation(Exception):
    pass


class _Frame:
    """One non-reentrant checkpointed call: the placeholders its forward saved and, per backward
    pass, what the recomputation saved in their place."""

    def __init__(self, recompute: Callable, early_stop: bool, check_metadata: bool) -> None:
        self.recompute = recompute
        self.early_stop = early_stop
        self.check_metadata = check_metadata
        self.saved_metadata: list = []
        self.recomputed: dict[int, list] = {}   # backward pass id -> tensors saved by the recomputation
        self.forward_completed = False

    @staticmethod
    def metadata(t: Tensor) -> dict:
        return {"shape": t.shape, "dtype": t.dtype, "device": t.device}

    def pack(self, x: Tensor) -> int:
        self.saved_metadata.append(self.metadata(x))
        return len(self.saved_metadata) - 1

    def unpack(self, index: int) -> Tensor:
        gid = current_graph_task_id()
        if gid not in self.recomputed:
            self.recomputed = {gid: []}   # (a new backward pass: what an earlier one recomputed is dropped)
            try:
                with saved_tensors_hooks(self._pack_recomputed(gid), _unpack_recomputed), mode.enable_grad():
                    self.recompute()
            except _StopRecomputation:
                pass
            self._check(gid)
        return self.recomputed[gid][index]

    def _pack_recomputed(self, gid: int) -> Callable:
        def pack(x: Tensor):
            recomputed = self.recomputed[gid]
            if len(recomputed) >= len(self.saved_metadata):
                raise CheckpointError(policy_of(x).errors.checkpoint_saved_more().args[0])
            recomputed.append(x.detach() if x.requires_grad else x)
            if self.early_stop and len(recomputed) == len(self.saved_metadata):
                raise _StopRecomputation
            return x
        return pack

    def _check(self, gid: int) -> None:
        recomputed = self.recomputed[gid]
        policy = policy_of(*recomputed)
        if len(recomputed) != len(self.saved_metadata):
            raise CheckpointError(policy.errors.checkpoint_saved_count(forward=len(self.saved_metadata),
                                                                       recomputed=len(recomputed)).args[0])
        if self.check_metadata:
            different = [policy.errors.checkpoint_metadata_entry(index=i, saved=before, recomputed=self.metadata(t)
                                                                  ).args[0]
                         for i, (before, t) in enumerate(zip(self.saved_metadata, recomputed))
                         if self.metadata(t) != before]
            if different:
                raise CheckpointError(policy.errors.checkpoint_metadata(mismatched="".join(different)).args[0])


def _unpack_recomputed(x):
    return x


def checkpoint(function: Callable, *args, use_reentrant: bool | None = None, context_fn: Any = None,
               determinism_check: str = "default", debug: bool = False, early_stop: bool = True, **kwargs):
    """`function(*args, **kwargs)`, keeping nothing for backward but its inputs: backward
    recomputes it (see the module docstring)."""
    policy = policy_of(*args)
    if use_reentrant is None:
        warnings.warn(policy.errors.checkpoint_use_reentrant(), stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise policy.errors.checkpoint_unexpected_kwargs(names=",".join(kwargs))
    if use_reentrant:
        if context_fn is not None or debug is not False:
            raise policy.errors.checkpoint_reentrant_options()
        return CheckpointFunction.apply(function, preserve, *args)
    if context_fn is not None:
        raise policy.errors.argument_unsupported(name="checkpoint", argument="context_fn", value=context_fn,
                                                 default=None)
    if debug is not False:
        raise policy.errors.argument_unsupported(name="checkpoint", argument="debug", value=debug, default=False)
    if determinism_check not in DETERMINISM_CHECKS:
        raise policy.errors.checkpoint_determinism(allowed=list(DETERMINISM_CHECKS), got=determinism_check)
    if not mode.is_grad_enabled():
        return function(*args, **kwargs)
    rng_state = creation.default_generator.get_state() if preserve else None

    def recompute():
        with _rng_restored(rng_state):
            function(*args, **kwargs)

    frame = _Frame(recompute, early_stop, determinism_check == "default")
    with saved_tensors_hooks(frame.pack, frame.unpack):
        out = function(*args, **kwargs)
    frame.forward_completed = True
    return out


def checkpoint_sequential(functions, segments: int, input, use_reentrant: bool | None = None, **kwargs):
    """Run `functions` (a list, or a module's children) in `segments` checkpointed segments, the
    last one not checkpointed."""
    policy = policy_of(input)
    if use_reentrant is None:
        warnings.warn(policy.errors.checkpoint_sequential_use_reentrant(), stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise policy.errors.checkpoint_unexpected_kwargs(names=",".join(kwargs))

    def run_function(start, end, functions):
        def forward(input):
            for j in range(start, end + 1):
                input = functions[j](input)
            return input
        return forward

    if hasattr(functions, "children"):   # a Sequential: its layers in order
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(input)
