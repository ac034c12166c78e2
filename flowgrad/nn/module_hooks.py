"""Module hooks beyond the module's own forward hooks: the global (every module's) forward and
backward hooks, and `BackwardHook`, which runs a module's full backward hooks (PyTorch's
torch.utils.hooks.BackwardHook). The inputs and the outputs of a hooked call pass through an
identity custom function; a hook on the outputs' node sees the gradients of the outputs (backward
pre-hooks may replace them), and a hook on the inputs' node then sees the gradients of the inputs
and hands the full backward hooks both (their result replaces the inputs' gradients).

The deprecated non-full backward hooks (`register_backward_hook`) are post-hooks on the node of the
call's first output tensor: they see that one node's gradients (its inputs' and outputs'), with
PyTorch's FutureWarnings where that node is not the whole module."""
from __future__ import annotations

import functools
import warnings
import weakref
from collections import OrderedDict

from .. import backend
from ..autograd import mode
from ..autograd.function import Function
from ..autograd.graph import RemovableHandle, add_hook
from ..autograd.policy import TORCH
from ..tensor import Tensor


class GlobalHooks:
    """Hooks that run for every module call, before the module's own (PyTorch's
    `register_module_*_hook` functions). Forward entries are `(fn, with_kwargs, always_call)`."""

    def __init__(self) -> None:
        self.forward_pre: OrderedDict = OrderedDict()
        self.forward: OrderedDict = OrderedDict()
        self.backward: OrderedDict = OrderedDict()
        self.backward_pre: OrderedDict = OrderedDict()
        self.backward_is_full: bool | None = None     # which kind of backward hook `backward` holds

    def active(self) -> bool:
        return bool(self.forward_pre or self.forward or self.backward or self.backward_pre)


GLOBAL = GlobalHooks()


def register_module_forward_pre_hook(hook) -> RemovableHandle:
    """`hook(module, args)` before every module's forward."""
    return add_hook(GLOBAL.forward_pre, (hook, False, False))


def register_module_forward_hook(hook, *, with_kwargs: bool = False, always_call: bool = False) -> RemovableHandle:
    """`hook(module, args[, kwargs], output)` after every module's forward."""
    return add_hook(GLOBAL.forward, (hook, with_kwargs, always_call))


def register_module_full_backward_pre_hook(hook) -> RemovableHandle:
    """`hook(module, grad_output)` for every module, before its own backward pre-hooks."""
    return add_hook(GLOBAL.backward_pre, hook)


def register_module_full_backward_hook(hook) -> RemovableHandle:
    """`hook(module, grad_input, grad_output)` for every module, before its own backward hooks."""
    if GLOBAL.backward_is_full is False:
        raise TORCH.errors.nn_backward_hook_kinds_global()
    GLOBAL.backward_is_full = True
    return add_hook(GLOBAL.backward, hook)


def register_module_backward_hook(hook) -> RemovableHandle:
    """The deprecated non-full `hook(module, grad_input, grad_output)` for every module."""
    if GLOBAL.backward_is_full is True:
        raise TORCH.errors.nn_backward_hook_kinds_global()
    GLOBAL.backward_is_full = False
    return add_hook(GLOBAL.backward, hook)


def split_backward_hooks(module) -> tuple[list, list]:
    """The (full, non-full) backward hooks of a call of `module`: the global ones, then its own."""
    full, non_full = [], []
    for is_full, hooks in ((GLOBAL.backward_is_full, GLOBAL.backward), (module._is_full_backward_hook,
                                                                         module._backward_hooks)):
        if is_full is not None:
            (full if is_full else non_full).extend(hooks.values())
    return full, non_full


class _ModuleNodeHook:
    """A node post-hook calling `hook(module, grad_input, grad_output)` while the module lives."""

    def __init__(self, hook, module) -> None:
        functools.update_wrapper(self, hook)
        self.hook, self.module, self.policy = hook, weakref.ref(module), module._tensor_cls.policy

    def __call__(self, grad_inputs, grad_outputs):
        module = self.module()
        if module is None:
            raise self.policy.errors.nn_backward_hook_dead_module()
        return self.hook(module, grad_inputs, grad_outputs)


def attach_non_full_hooks(module, hooks: list, args: tuple, result) -> None:
    """Register `hooks` on the node of the first tensor of `result` (PyTorch's non-full backward
    hooks), warning as PyTorch does where that node's gradients are not the module's."""
    var = result
    while not isinstance(var, Tensor):
        var = next(v for v in var.values() if isinstance(v, Tensor)) if isinstance(var, dict) else var[0]
    node = var._grad_fn
    if node is None:
        return
    for hook in hooks:
        node.register_hook(_ModuleNodeHook(hook, module))
    warning = _non_full_hook_warning(module._tensor_cls.policy, args, result, node)
    if warning is not None:
        warnings.warn(warning, stacklevel=3)


def _non_full_hook_warning(policy, inputs, result, node):
    """PyTorch's FutureWarning for a non-full backward hook that will miss gradients, or None."""
    if isinstance(result, Tensor):
        result = (result,)
    elif not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
        return policy.errors.nn_non_full_hook_output_type()
    if isinstance(inputs, Tensor):
        inputs = (inputs,)
    elif not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
        return policy.errors.nn_non_full_hook_input_type()
    out_nodes = {r._grad_fn for r in result if r._grad_fn is not None}
    if not out_nodes or (len(out_nodes) == 1 and node not in out_nodes):
        return policy.errors.nn_non_full_hook_nested()
    if len(out_nodes) > 1:
        return policy.errors.nn_non_full_hook_many_nodes()
    in_nodes = {i._grad_fn for i in inputs if i._grad_fn is not None}
    if in_nodes != {e[0] if e is not None else None for e in node.next_edges}:
        return policy.errors.nn_non_full_hook_inner_nodes()
    return None


class BackwardHookFunction(Function):
    """Identity on the tensors of a module call's inputs or outputs: its node is where the
    module's backward hooks see their gradients."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *args):
        return args


class BackwardHook:
    """Runs one call's full backward hooks and backward pre-hooks (PyTorch's semantics: non-tensor
    arguments show as None, the gradients of the outputs arrive first, the hooks run once the
    gradients of the inputs are known)."""

    def __init__(self, module, user_hooks: list, user_pre_hooks: list) -> None:
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module
        self.grad_outputs = None
        self.n_outputs = -1
        self.output_tensors_index = None
        self.n_inputs = -1
        self.input_tensors_index = None
        self.input_tensors: list = []

    @property
    def _policy(self):
        return self.module._tensor_cls.policy

    @staticmethod
    def _pack_with_none(indices, values, size: int) -> tuple:
        res = [None] * size
        for idx, val in zip(indices, values):
            res[idx] = val
        return tuple(res)

    def _input_hook(self, grad_input, _):
        if self.grad_outputs is None:
            # the gradient reached the inputs without passing through the outputs (double backward)
            return None
        # (PyTorch's identity node returns the zeros it was handed for an input that does not
        # require grad, and its hook shows them; they go nowhere)
        flowing = [g is not None for g in grad_input]
        grad_input = [g if g is not None else t._new(backend.namespace(t._data).zeros_like(t._data))
                      for g, t in zip(grad_input, self.input_tensors)]
        res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
        for hook in self.user_hooks:
            out = hook(self.module, res, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(res):
                raise self._policy.errors.nn_backward_hook_count(got=len(out), expected=len(res))
            res = out
        self.grad_outputs = None
        return tuple(res[i] if flows else None for i, flows in zip(self.input_tensors_index, flowing))

    def _output_hook(self, _, grad_output):
        self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
        if self.user_pre_hooks:
            expected = len(self.grad_outputs)
            for pre_hook in self.user_pre_hooks:
                replaced = pre_hook(self.module, self.grad_outputs)
                if replaced is None:
                    continue
                if len(replaced) != expected:
                    raise self._policy.errors.nn_backward_pre_hook_count(got=len(replaced), expected=expected)
                self.grad_outputs = replaced
        local_grad_outputs = self.grad_outputs
        if self.input_tensors_index is None:
            # no input requires grad: the hooks fire here, with no gradient of the inputs
            warnings.warn(self._policy.errors.nn_backward_hook_outputs_only(), stacklevel=5)
            grad_inputs = self._pack_with_none([], [], self.n_inputs)
            for hook in self.user_hooks:
                res = hook(self.module, grad_inputs, self.grad_outputs)
                if res is not None and not (isinstance(res, tuple) and all(el is None for el in res)):
                    raise self._policy.errors.nn_backward_hook_no_input_result()
            self.grad_outputs = None
        if local_grad_outputs is not None:
            return tuple(local_grad_outputs[i] for i in self.output_tensors_index)
        return None

    @staticmethod
    def _apply_on_tensors(hook, args):
        """Pass the tensors among `args` through one identity node carrying `hook`; returns the new
        args and the tensors' positions (None when none requires grad or grad mode is off)."""
        tensors_idx = [i for i, arg in enumerate(args) if isinstance(arg, Tensor)]
        tensors = [args[i] for i in tensors_idx]
        if not (any(t.requires_grad for t in tensors) and mode.is_grad_enabled()):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        next(t._grad_fn for t in new_tensors if isinstance(t._grad_fn, BackwardHookFunction._backward_cls)
             ).register_hook(hook)
        arg_list = list(args)
        for idx, val in zip(tensors_idx, new_tensors):
            arg_list[idx] = val
        return (tuple(arg_list) if type(args) is tuple else type(args)(*arg_list)), tensors_idx

    def setup_input_hook(self, args):
        self.input_tensors = [arg for arg in args if isinstance(arg, Tensor)]
        res, self.input_tensors_index = self._apply_on_tensors(self._input_hook, args)
        self.n_inputs = len(args)
        return res

    def setup_output_hook(self, result):
        is_tuple = isinstance(result, tuple)
        args = result if is_tuple else (result,)
        res, self.output_tensors_index = self._apply_on_tensors(self._output_hook, args)
        self.n_outputs = len(args)
        return res if is_tuple else res[0]
