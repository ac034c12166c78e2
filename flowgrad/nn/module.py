"""Module: the base class of layers and models (PyTorch's nn.Module semantics).

Parameters, buffers and sub-modules register themselves through `__setattr__`; everything that
walks the tree (parameters, state_dict, train/eval, to, apply) goes through `named_modules`.
Facades subclass Module and set `_param_cls` / `_tensor_cls` so that layers build the facade's
Parameter and tensor classes; the layers here use only those two attributes.
"""
from __future__ import annotations

import itertools
import threading
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping
from typing import Any, Callable, Iterator

import numpy as np

from .. import backend, ops
from ..autograd import mode
from ..autograd.graph import RemovableHandle, add_hook
from ..tensor import zero_grads
from ..tensor import Tensor
from .module_hooks import GLOBAL, BackwardHook, attach_non_full_hooks, split_backward_hooks
from .parameter import Parameter

_EXTRA_STATE_KEY_SUFFIX = "_extra_state"


def _typename(obj) -> str:
    """PyTorch's torch.typename: 'torch.FloatTensor' for tensors, the qualified name otherwise."""
    if isinstance(obj, Tensor):
        return obj.policy.type_name(obj._data.dtype)
    module = type(obj).__module__
    name = type(obj).__qualname__
    return name if module in ("builtins", "__builtin__") else f"{module}.{name}"


def _addindent(s: str, num_spaces: int) -> str:
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    first = lines.pop(0)
    rest = [(num_spaces * " ") + line if line.strip() else "" for line in lines]
    return first + "\n" + "\n".join(rest)


def _quoted(keys) -> str:
    return ", ".join(f'"{k}"' for k in keys)


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class _Pending(threading.local):
    """Copies collected while a load_state_dict validates the whole tree (applied only if it passes)."""

    def __init__(self):
        self.stack: list = []


_pending = _Pending()


def _no_grad():
    return mode.no_grad()


class Module:
    """Base class of every layer and model."""

    _param_cls = Parameter      # the facade's Parameter class
    _tensor_cls = Tensor        # the facade's tensor class (buffers, created tensors)
    _facade_classes: dict = {}  # neutral layer class -> the facade's class for it (filled by the facade)
    _facade_functions: dict = {}  # neutral functional -> the facade's presentation of it (filled by the facade)
    _version: int = 1
    training: bool
    call_super_init: bool = False
    dump_patches: bool = False

    def __init__(self, *args, **kwargs) -> None:
        if kwargs:
            raise self._tensor_cls.policy.errors.nn_init_keyword(cls=type(self).__name__, name=next(iter(kwargs)))
        if args:
            raise self._tensor_cls.policy.errors.nn_init_positional(cls=type(self).__name__, given=len(args) + 1)
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = {}
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_hooks"] = OrderedDict()
        d["_backward_pre_hooks"] = OrderedDict()
        d["_backward_hooks"] = OrderedDict()
        d["_is_full_backward_hook"] = None     # which kind of backward hook `_backward_hooks` holds
        d["_state_dict_hooks"] = OrderedDict()
        d["_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_post_hooks"] = OrderedDict()

    # ------------------------------------------------------------------------- calling
    def forward(self, *args, **kwargs):
        raise self._tensor_cls.policy.errors.nn_forward_missing(cls=type(self).__name__)

    def __call__(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks or self._backward_pre_hooks
                or GLOBAL.active()):
            return self.forward(*args, **kwargs)
        return self._call_with_hooks(args, kwargs)

    def _call_with_hooks(self, args, kwargs):
        """PyTorch's hooked call: global then own forward pre-hooks, the backward hooks' identity
        nodes around forward, global then own forward hooks; on an error, the `always_call`
        forward hooks not yet run."""
        policy = self._tensor_cls.policy
        called = set()
        result = None
        try:
            backward_pre_hooks = [*GLOBAL.backward_pre.values(), *self._backward_pre_hooks.values()]
            backward_hooks, non_full_hooks = split_backward_hooks(self)
            for fn, with_kwargs, _ in [*GLOBAL.forward_pre.values(), *self._forward_pre_hooks.values()]:
                if with_kwargs:
                    res = fn(self, args, kwargs)
                    if res is not None:
                        if isinstance(res, tuple) and len(res) == 2:
                            args, kwargs = res
                        else:
                            raise policy.errors.nn_forward_pre_hook_result(result=res)
                else:
                    res = fn(self, args)
                    if res is not None:
                        args = res if isinstance(res, tuple) else (res,)
            bw_hook = None
            if backward_hooks or backward_pre_hooks:
                bw_hook = BackwardHook(self, backward_hooks, backward_pre_hooks)
                args = bw_hook.setup_input_hook(args)
            result = self.forward(*args, **kwargs)
            for hid, (fn, with_kwargs, _) in [*GLOBAL.forward.items(), *self._forward_hooks.items()]:
                called.add(hid)
                res = fn(self, args, kwargs, result) if with_kwargs else fn(self, args, result)
                if res is not None:
                    result = res
            if bw_hook is not None:
                if not isinstance(result, (Tensor, tuple)):
                    warnings.warn(policy.errors.nn_backward_hook_output_type(type=type(result)), stacklevel=2)
                result = bw_hook.setup_output_hook(result)
            if non_full_hooks:
                attach_non_full_hooks(self, non_full_hooks, args, result)
            return result
        except Exception:
            for which, hooks in (("global ", GLOBAL.forward), ("", self._forward_hooks)):
                for hid, (fn, with_kwargs, always) in list(hooks.items()):
                    if always and hid not in called:
                        try:
                            res = fn(self, args, kwargs, result) if with_kwargs else fn(self, args, result)
                            if res is not None:
                                result = res
                        except Exception as exc:  # PyTorch silences these with a warning
                            warning = policy.errors.nn_always_call_hook_silenced(which=which, exc=exc)
                            warnings.warn(warning, stacklevel=2)
            raise

    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        return add_hook(self._forward_pre_hooks, (hook, with_kwargs, False), prepend)

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> RemovableHandle:
        return add_hook(self._forward_hooks, (hook, with_kwargs, always_call), prepend)

    def register_full_backward_pre_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """`hook(module, grad_output) -> new grad_output | None`, before the module's gradients."""
        return add_hook(self._backward_pre_hooks, hook, prepend)

    def register_full_backward_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """`hook(module, grad_input, grad_output) -> new grad_input | None`, once the gradients of
        the module's inputs are computed."""
        if self._is_full_backward_hook is False:
            raise self._tensor_cls.policy.errors.nn_backward_hook_kinds()
        self._is_full_backward_hook = True
        return add_hook(self._backward_hooks, hook, prepend)

    def register_backward_hook(self, hook: Callable) -> RemovableHandle:
        """The deprecated non-full hook: `hook(module, grad_input, grad_output)` on the node of the
        call's first output tensor (grad_input: the gradients of that node's inputs)."""
        if self._is_full_backward_hook is True:
            raise self._tensor_cls.policy.errors.nn_backward_hook_kinds()
        self._is_full_backward_hook = False
        return add_hook(self._backward_hooks, hook)

    # ------------------------------------------------------------------- registration
    def register_buffer(self, name: str, tensor, persistent: bool = True) -> None:
        policy = self._tensor_cls.policy
        if "_buffers" not in self.__dict__:
            raise policy.errors.nn_buffer_before_init()
        if not isinstance(name, str):
            raise policy.errors.nn_buffer_name_type(type=_typename(name))
        if "." in name:
            raise policy.errors.nn_buffer_name_dot()
        if name == "":
            raise policy.errors.nn_buffer_name_empty()
        if hasattr(self, name) and name not in self._buffers:
            raise policy.errors.nn_attribute_exists(name=name)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise policy.errors.nn_buffer_type(type=_typename(tensor), name=name)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param) -> None:
        policy = self._tensor_cls.policy
        if "_parameters" not in self.__dict__:
            raise policy.errors.nn_parameter_before_init()
        if not isinstance(name, str):
            raise policy.errors.nn_parameter_name_type(type=_typename(name))
        if "." in name:
            raise policy.errors.nn_parameter_name_dot()
        if name == "":
            raise policy.errors.nn_parameter_name_empty()
        if hasattr(self, name) and name not in self._parameters:
            raise policy.errors.nn_attribute_exists(name=name)
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise policy.errors.nn_parameter_type(type=_typename(param), name=name)
        elif param._grad_fn is not None:
            raise policy.errors.nn_parameter_nonleaf(name=name)
        else:
            self._parameters[name] = param

    def add_module(self, name: str, module) -> None:
        policy = self._tensor_cls.policy
        if not isinstance(module, Module) and module is not None:
            raise policy.errors.nn_not_a_module_subclass(type=_typename(module))
        if not isinstance(name, str):
            raise policy.errors.nn_module_name_type(type=_typename(name))
        if hasattr(self, name) and name not in self._modules:
            raise policy.errors.nn_attribute_exists(name=name)
        if "." in name:
            raise policy.errors.nn_module_name_dot(name=name)
        if name == "":
            raise policy.errors.nn_module_name_empty()
        self._modules[name] = module

    register_module = add_module

    def __getattr__(self, name: str):
        d = self.__dict__
        if "_parameters" in d:
            p = d["_parameters"]
            if name in p:
                return p[name]
        if "_buffers" in d:
            b = d["_buffers"]
            if name in b:
                return b[name]
        if "_modules" in d:
            m = d["_modules"]
            if name in m:
                return m[name]
        raise self._tensor_cls.policy.errors.nn_no_attribute(cls=type(self).__name__, name=name)

    def __setattr__(self, name: str, value) -> None:
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise self._tensor_cls.policy.errors.nn_parameters_before_init()
            for store in (d, self._buffers, self._modules):
                store.pop(name, None)
            self._non_persistent_buffers_set.discard(name)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise self._tensor_cls.policy.errors.nn_assign_parameter(type=_typename(value), name=name)
            self.register_parameter(name, value)
        else:
            modules = d.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise self._tensor_cls.policy.errors.nn_module_before_init()
                for store in (d, self._parameters, self._buffers):
                    store.pop(name, None)
                self._non_persistent_buffers_set.discard(name)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise self._tensor_cls.policy.errors.nn_assign_child(type=_typename(value), name=name)
                modules[name] = value
            else:
                buffers = d.get("_buffers")
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, Tensor):
                        raise self._tensor_cls.policy.errors.nn_assign_buffer(type=_typename(value), name=name)
                    buffers[name] = value
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = list(object.__dir__(self)) + list(self._parameters) + list(self._modules) + list(self._buffers)
        return sorted(k for k in set(keys) if not k[0].isdigit())

    def get_submodule(self, target: str) -> "Module":
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise self._tensor_cls.policy.errors.nn_get_missing(owner=mod._get_name(), name=item)
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise self._tensor_cls.policy.errors.nn_get_not_module(name=item)
        return mod

    def get_parameter(self, target: str):
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise self._tensor_cls.policy.errors.nn_get_missing(owner=mod._get_name(), name=name)
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise self._tensor_cls.policy.errors.nn_get_not_parameter(name=name)
        return param

    def get_buffer(self, target: str):
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise self._tensor_cls.policy.errors.nn_get_missing(owner=mod._get_name(), name=name)
        if name not in mod._buffers:
            raise self._tensor_cls.policy.errors.nn_get_not_buffer(name=name)
        return getattr(mod, name)

    # ------------------------------------------------------------------------ walking
    def _named_members(self, get_members, prefix="", recurse=True, remove_duplicate=True):
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else \
            [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members(module):
                if v is None or v in memo:
                    continue
                if remove_duplicate:
                    memo.add(v)
                yield (module_prefix + ("." if module_prefix else "") + k, v)

    def parameters(self, recurse: bool = True) -> Iterator:
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        yield from self._named_members(lambda m: m._parameters.items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator:
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        yield from self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate)

    def children(self) -> Iterator["Module"]:
        for _, m in self.named_children():
            yield m

    def named_children(self):
        memo = set()
        for name, m in self._modules.items():
            if m is not None and m not in memo:
                memo.add(m)
                yield name, m

    def modules(self) -> Iterator["Module"]:
        for _, m in self.named_modules():
            yield m

    def named_modules(self, memo: set | None = None, prefix: str = "", remove_duplicate: bool = True):
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    # --------------------------------------------------------------------------- modes
    def train(self, mode: bool = True) -> "Module":
        if not isinstance(mode, bool):
            raise self._tensor_cls.policy.errors.nn_train_mode()
        for m in self.modules():
            m.__dict__["training"] = mode
        return self

    def eval(self) -> "Module":
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> "Module":
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        zero_grads(self.parameters(), set_to_none)

    def apply(self, fn: Callable[["Module"], None]) -> "Module":
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------------- conversions
    def _apply(self, fn: Callable) -> "Module":
        """Replace every parameter's and buffer's array by `fn(array)` (parameters keep their identity)."""
        for m in self.children():
            m._apply(fn)
        for p in self._parameters.values():
            if p is None:
                continue
            new = fn(p._data)
            if new is not p._data:
                p._data = new
            if p._grad is not None:
                g = fn(p._grad._data)
                if g is not p._grad._data:
                    p._grad._data = g
        for k, b in self._buffers.items():
            if b is not None:
                new = fn(b._data)
                if new is not b._data:
                    nb = b._new(new)
                    nb._requires_grad = b._requires_grad
                    self._buffers[k] = nb
        return self

    def to(self, *args, **kwargs) -> "Module":
        """`to(device)`, `to(dtype)`, `to(device, dtype)`, `to(tensor)`: floating parameters and
        buffers take the dtype; everything moves to the device."""
        device = kwargs.pop("device", None)
        dtype = kwargs.pop("dtype", None)
        kwargs.pop("non_blocking", None)
        memory_format = kwargs.pop("memory_format", None)
        for a in args:
            if isinstance(a, Tensor):
                device, dtype = a.device, a._data.dtype
            elif isinstance(a, backend.DType) or isinstance(a, np.dtype):
                dtype = a
            elif isinstance(a, (str, backend.Device)):
                device = a
            elif isinstance(a, bool):
                continue
            else:
                raise self._tensor_cls.policy.errors.nn_to_arguments(type=type(a).__name__)
        np_dt = backend.to_np_dtype(dtype) if dtype is not None else None
        if np_dt is not None and np_dt.kind not in "fV":
            raise self._tensor_cls.policy.errors.nn_to_dtype(dtype=repr(self._tensor_cls._dtypes[np_dt]))
        dev = backend.Device(device) if device is not None else None
        rank = None
        if memory_format is not None:
            if not isinstance(memory_format, ops.MemoryFormat):
                raise self._tensor_cls.policy.errors.memory_format_type(op="to", type=type(memory_format).__name__)
            rank = ops.channels_last_rank(memory_format)   # only parameters of that rank change layout

        def convert(a):
            if dev is not None:
                a = backend.to_device(a, dev)
            if np_dt is not None and a.dtype.kind in "fV" and a.dtype != np_dt:
                a = a.astype(np_dt)
            if rank is not None and a.ndim == rank and not ops.in_memory_format(a, memory_format.name):
                a = ops.laid_out(a, memory_format.name)
            return a
        return self._apply(convert)

    def _cast_floats(self, dtype) -> "Module":
        dt = np.dtype(dtype)
        return self._apply(lambda a: a.astype(dt) if a.dtype.kind in "fV" and a.dtype != dt else a)

    def float(self) -> "Module":
        return self._cast_floats(np.float32)

    def double(self) -> "Module":
        return self._cast_floats(np.float64)

    def half(self) -> "Module":
        return self._cast_floats(np.float16)

    def type(self, dst_type) -> "Module":
        dt = backend.to_np_dtype(dst_type)
        return self._apply(lambda a: a.astype(dt) if a.dtype != dt else a)

    def cpu(self) -> "Module":
        return self.to("cpu")

    def cuda(self, device=None) -> "Module":
        return self.to(backend.Device("cuda", device if isinstance(device, int) else 0)
                       if not isinstance(device, (str, backend.Device)) else device)

    def share_memory(self) -> "Module":
        return self

    # ------------------------------------------------------------------- state dicts
    def get_extra_state(self) -> Any:
        raise self._tensor_cls.policy.errors.nn_get_extra_state()

    def set_extra_state(self, state: Any) -> None:
        raise self._tensor_cls.policy.errors.nn_set_extra_state()

    def _has_extra_state(self) -> bool:
        return getattr(type(self), "get_extra_state", Module.get_extra_state) is not Module.get_extra_state

    def _save_to_state_dict(self, destination, prefix: str, keep_vars: bool) -> None:
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()
        if self._has_extra_state():
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        if args:  # the deprecated positional form state_dict(destination, prefix, keep_vars)
            destination = args[0]
            if len(args) > 1:
                prefix = args[1]
            if len(args) > 2:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        meta = getattr(destination, "_metadata", None)
        if meta is not None:
            meta[prefix[:-1]] = {"version": self._version}
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            res = hook(self, destination, prefix, meta.get(prefix[:-1], {}) if meta is not None else {})
            if res is not None:
                destination = res
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs) -> None:
        """Check this module's own entries of `state_dict` and queue their copies."""
        persistent = {k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(), persistent.items())
                       if v is not None}
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            inp = state_dict[key]
            if not isinstance(inp, Tensor):
                error_msgs.append(str(param.policy.errors.nn_load_state_not_tensor(key=key, type=type(inp))))
                continue
            if param._data.ndim == 0 and inp._data.ndim == 1 and inp._data.shape[0] == 1:
                inp = inp[0]
            if inp._data.shape != param._data.shape:
                error_msgs.append(str(param.policy.errors.nn_load_state_size(key=key, got_shape=inp._data.shape,
                                                         want_shape=param._data.shape)))
                continue
            _queue_copy(self, name, param, inp, assign)
        extra_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if self._has_extra_state():
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_key:
                    parts = key[len(prefix):].split(".", 1)
                    if len(parts) > 1:
                        if parts[0] not in self._modules:
                            unexpected_keys.append(key)
                    elif parts[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict: Mapping, strict: bool = True, assign: bool = False) -> _IncompatibleKeys:
        """Copy parameters and buffers from `state_dict`. Everything is checked first: on any error
        nothing has been copied."""
        policy = self._tensor_cls.policy
        if not isinstance(state_dict, Mapping):
            raise policy.errors.nn_state_dict_type(type=type(state_dict))
        missing, unexpected, errors = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        pending: list = []
        _pending.stack.append(pending)
        try:
            stack = [(self, "")]
            while stack:
                module, prefix = stack.pop()
                local_meta = dict(metadata.get(prefix[:-1], {})) if metadata is not None else {}
                if assign:
                    local_meta["assign_to_params_buffers"] = True
                for hook, with_module in module._load_state_dict_pre_hooks.values():
                    args = (state_dict, prefix, local_meta, True, missing, unexpected, errors)   # (torch's True)
                    hook(module, *args) if with_module else hook(*args)
                module._load_from_state_dict({k: v for k, v in state_dict.items() if k.startswith(prefix)}, prefix,
                                             local_meta, True, missing, unexpected, errors)
                children = [(c, prefix + n + ".") for n, c in module._modules.items() if c is not None]
                stack.extend(reversed(children))
        finally:
            _pending.stack.pop()
        if strict:
            if unexpected:
                errors.insert(0, str(policy.errors.nn_load_state_unexpected(keys=_quoted(unexpected))))
            if missing:
                errors.insert(0, str(policy.errors.nn_load_state_missing(keys=_quoted(missing))))
        if errors:
            raise policy.errors.nn_load_state(cls=type(self).__name__, errors="\n\t".join(errors))
        with _no_grad():
            for apply in pending:
                apply()
        keys = _IncompatibleKeys(missing, unexpected)
        for module in self.modules():
            for hook in module._load_state_dict_post_hooks.values():
                hook(module, keys)
        return keys

    def register_state_dict_post_hook(self, hook) -> RemovableHandle:
        return add_hook(self._state_dict_hooks, hook)

    def register_state_dict_pre_hook(self, hook) -> RemovableHandle:
        """`hook(module, prefix, keep_vars)` before the module's state_dict is made."""
        return add_hook(self._state_dict_pre_hooks, hook)

    def _register_load_state_dict_pre_hook(self, hook, with_module: bool = False) -> RemovableHandle:
        """`hook([module,] state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs)` before the module's entries are loaded; it may rewrite the state dict."""
        return add_hook(self._load_state_dict_pre_hooks, (hook, with_module))

    def register_load_state_dict_pre_hook(self, hook) -> RemovableHandle:
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def register_load_state_dict_post_hook(self, hook) -> RemovableHandle:
        return add_hook(self._load_state_dict_post_hooks, hook)

    # --------------------------------------------------------------------------- repr
    def extra_repr(self) -> str:
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = []
        for key, module in self._modules.items():
            child_lines.append("(" + key + "): " + _addindent(repr(module), 2))
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def __getstate__(self):
        return self.__dict__.copy()

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in ("_backward_pre_hooks", "_backward_hooks", "_state_dict_pre_hooks", "_load_state_dict_pre_hooks"):
            self.__dict__.setdefault(name, OrderedDict())
        self.__dict__.setdefault("_is_full_backward_hook", None)

    # ------------------------------------------------------------------ construction
    @staticmethod
    def _default_device():
        """Where layers put their parameters when no device is given (facades with a settable
        default device override this)."""
        return None

    @classmethod
    def _factory_xp(cls, device):
        d = device if device is not None else cls._default_device()
        return backend.xp_for(None if d is None else backend.Device(d))

    def _new_parameter(self, shape, dtype=None, device=None):
        """An uninitialised parameter of the facade's class (layers fill it in reset_parameters)."""
        dt = backend.to_np_dtype(dtype) if dtype is not None else backend.default_float()
        p = self._param_cls._make(self._factory_xp(device).empty(tuple(shape), dtype=dt))
        p._requires_grad = True
        return p

    def _new_tensor(self, arr):
        return self._tensor_cls._make(arr)

    def _layer(self, neutral_cls: type) -> type:
        """The class of this module's facade for a neutral layer class, so that a layer building
        sub-layers (MultiheadAttention's out_proj, a Transformer's blocks) builds them in its facade."""
        return self._facade_classes.get(neutral_cls, neutral_cls)

    def _function(self, neutral_fn: Callable) -> Callable:
        """This module's facade's presentation of a neutral functional (what its `nn.functional` names)."""
        return self._facade_functions.get(neutral_fn, neutral_fn)


def _queue_copy(module, name, param, inp, assign) -> None:
    """Copy `inp` into `param` now, or when the enclosing load_state_dict has validated everything."""
    def apply():
        if assign:
            if isinstance(param, Parameter):
                new = type(param)(inp.detach() if not isinstance(inp, Parameter) else inp,
                                  requires_grad=param._requires_grad)
                setattr(module, name, new)
            else:
                setattr(module, name, inp)
        else:
            param.copy_(inp)
    if _pending.stack:
        _pending.stack[-1].append(apply)
    else:
        with _no_grad():
            apply()
