"""Parametrizations (PyTorch's torch.nn.utils.parametrize): `module.<name>` computed on access
from `module.parametrizations.<name>.original` by a chain of modules.

Registering moves the tensor into a ParametrizationList (through the chain's `right_inverse`,
where it has one), swaps the module's class for a subclass `Parametrized<Class>` holding a
property for the name, and adds the `parametrizations` ModuleDict. Assigning to the name goes
back through `right_inverse`. Within `cached()`, each parametrized tensor is computed once."""
from __future__ import annotations

import collections.abc
import contextlib
import copyreg
from copy import deepcopy

from ..autograd import mode
from ..tensor import Tensor
from .containers import ModuleDict, ModuleList
from .module import Module
from .parameter import Parameter

__all__ = ["cached", "ParametrizationList", "register_parametrization", "is_parametrized",
           "remove_parametrizations", "type_before_parametrizations", "transfer_parametrizations_and_params"]

_cache_enabled = 0
_cache: dict = {}


@contextlib.contextmanager
def cached():
    """Within the block, each parametrized tensor is computed on first access and then reused."""
    global _cache, _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module: Module, name: str, X) -> None:
    if isinstance(X, Parameter):
        module.register_parameter(name, X)
    else:
        module.register_buffer(name, X)


def _set(dest: Tensor, src: Tensor) -> None:
    """PyTorch's `dest.set_(src)`: dest takes src's data (no copy), as an in-place change."""
    dest._data = src._data
    dest._bump()


class ParametrizationList(ModuleList):
    """The chain of parametrizations of one tensor, and its unparametrized `original`
    (`original0`, `original1`, ... where the first right_inverse returns several tensors)."""

    def __init__(self, modules, original: Tensor, unsafe: bool = False) -> None:
        policy = self._tensor_cls.policy
        if len(modules) == 0:
            raise policy.errors.param_list_empty()
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape, original_dtype = original.shape, original.dtype
        with mode.no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
        if not isinstance(new, (Tensor, collections.abc.Sequence)):
            raise policy.errors.param_right_inverse_type(type=type(new).__name__)
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if original.dtype != new.dtype:
                raise policy.errors.param_right_inverse_dtype(original=original.dtype, new=new.dtype)
            if original.device != new.device:
                raise policy.errors.param_right_inverse_device(original=original.device, new=new.device)
            with mode.no_grad():
                _set(original, new)
            _register_parameter_or_buffer(self, "original", original)
        else:
            for i, originali in enumerate(new):
                if not isinstance(originali, Tensor):
                    raise policy.errors.param_right_inverse_element(index=i, type=type(originali).__name__)
                if isinstance(original, Parameter):
                    originali = self._param_cls(originali, original.requires_grad)
                originali.requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, f"original{i}", originali)
        if not self.unsafe:
            Z = self()
            if not isinstance(Z, Tensor):
                raise policy.errors.param_not_tensor(type=type(Z).__name__)
            if Z.dtype != original_dtype:
                raise policy.errors.param_changes_dtype(before=original_dtype, after=Z.dtype)
            if Z.shape != original_shape:
                raise policy.errors.param_changes_shape(before=original_shape, after=Z.shape)

    def right_inverse(self, value: Tensor) -> None:
        """Set the originals so that the chain gives `value` (assigning to the parametrized name)."""
        policy = self._tensor_cls.policy
        with mode.no_grad():
            for module in reversed(self):
                if not hasattr(module, "right_inverse"):
                    raise policy.errors.param_no_right_inverse(cls=type(module).__name__)
                value = module.right_inverse(value)
            if self.is_tensor:
                if not isinstance(value, Tensor):
                    raise policy.errors.param_right_inverse_not_tensor(type=type(value).__name__)
                if value.dtype != self.original.dtype:
                    raise policy.errors.param_right_inverse_set_dtype(dtype=value.dtype, original=self.original.dtype)
                _set(self.original, value)
            else:
                if not isinstance(value, collections.abc.Sequence):
                    raise policy.errors.param_right_inverse_not_sequence(type=type(value).__name__)
                if len(value) != self.ntensors:
                    raise policy.errors.param_right_inverse_length(expected=self.ntensors, got=len(value))
                for i, tensor in enumerate(value):
                    original_i = getattr(self, f"original{i}")
                    if not isinstance(tensor, Tensor):
                        raise policy.errors.param_right_inverse_set_element(index=i, type=type(tensor).__name__)
                    if original_i.dtype != tensor.dtype:
                        raise policy.errors.param_right_inverse_element_dtype(index=i, dtype=tensor.dtype,
                                                                             original=original_i.dtype)
                    _set(original_i, tensor)

    def forward(self) -> Tensor:
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        curr_idx = 1
        while hasattr(self, str(curr_idx)):
            x = self[curr_idx](x)
            curr_idx += 1
        return x


def _inject_new_class(module: Module) -> None:
    """Swap the module's class for `Parametrized<Class>`, where the properties will live."""
    cls = module.__class__

    def default_deepcopy(self, memo):
        obj = memo.get(id(self), None)
        if obj is not None:
            return obj
        replica = self.__new__(self.__class__)
        memo[id(self)] = replica
        replica.__dict__ = deepcopy(self.__dict__, memo)
        for slot in copyreg._slotnames(self.__class__):
            if hasattr(self, slot):
                setattr(replica, slot, deepcopy(getattr(self, slot), memo))
        return replica

    def getstate(self):
        raise self._tensor_cls.policy.errors.param_pickle()

    dct = {"__getstate__": getstate}
    if not hasattr(cls, "__deepcopy__"):
        dct["__deepcopy__"] = default_deepcopy
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), dct)


def _inject_property(module: Module, tensor_name: str) -> None:
    if hasattr(module, tensor_name):
        raise module._tensor_cls.policy.errors.param_attribute_exists(name=tensor_name)

    def get_parametrized(self) -> Tensor:
        parametrization = self.parametrizations[tensor_name]
        if not _cache_enabled:
            return parametrization()
        key = (id(module), tensor_name)
        tensor = _cache.get(key)
        if tensor is None:
            tensor = _cache[key] = parametrization()
        return tensor

    def set_original(self, value: Tensor) -> None:
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def register_parametrization(module: Module, tensor_name: str, parametrization: Module, *,
                             unsafe: bool = False) -> Module:
    """Parametrize `module.<tensor_name>` by `parametrization` (appended to the chain if the name
    is parametrized already)."""
    parametrization.train(module.training)
    policy = module._tensor_cls.policy
    if is_parametrized(module, tensor_name):
        if not unsafe:
            Y = getattr(module, tensor_name)
            X = parametrization(Y)
            if not isinstance(X, Tensor):
                raise policy.errors.param_not_tensor(type=type(X).__name__)
            if X.dtype != Y.dtype:
                raise policy.errors.param_appended_dtype(name=tensor_name, before=Y.dtype, after=X.dtype)
            if X.shape != Y.shape:
                raise policy.errors.param_appended_shape(name=tensor_name, before=Y.shape, after=X.shape)
            if hasattr(parametrization, "right_inverse"):
                try:
                    Z = parametrization.right_inverse(X)
                except NotImplementedError:
                    pass
                else:
                    if not isinstance(Z, Tensor):
                        raise policy.errors.param_appended_inverse_type(type=type(Z).__name__)
                    if Z.dtype != Y.dtype:
                        raise policy.errors.param_appended_inverse_dtype(name=tensor_name, before=Y.dtype,
                                                                         after=Z.dtype)
                    if Z.shape != Y.shape:
                        raise policy.errors.param_appended_inverse_shape(name=tensor_name, before=Y.shape,
                                                                         after=Z.shape)
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        parametrizations = module._layer(ParametrizationList)([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = module._layer(ModuleDict)()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise policy.errors.param_no_tensor(module=module, name=tensor_name)
    return module


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    parametrizations = getattr(module, "parametrizations", None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(module: Module, tensor_name: str, leave_parametrized: bool = True) -> Module:
    """Undo the parametrization of `tensor_name`: it becomes a plain parameter (or buffer) again,
    holding the parametrized value (`leave_parametrized`) or the original."""
    policy = module._tensor_cls.policy
    if not is_parametrized(module, tensor_name):
        raise policy.errors.param_not_parametrized(module=module, name=tensor_name)
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with mode.no_grad():
                t = getattr(module, tensor_name)
                _set(original, t)
    elif leave_parametrized:
        t = getattr(module, tensor_name)
        original = module._param_cls(t) if t.requires_grad else t
    else:
        raise policy.errors.param_leave_sequence()
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type:
    """The module's class before any parametrization was registered."""
    return module.__class__.__bases__[0] if is_parametrized(module) else type(module)


def transfer_parametrizations_and_params(from_module: Module, to_module: Module,
                                         tensor_name: str | None = None) -> Module:
    """Give `to_module` the parametrizations (and originals) of `from_module`."""
    if is_parametrized(from_module):
        names = from_module.parametrizations if tensor_name is None else [tensor_name]
        for parameter_name in names:
            if not hasattr(to_module, parameter_name):
                setattr(to_module, parameter_name, to_module._param_cls(getattr(from_module, parameter_name)))
            for param_func in from_module.parametrizations[parameter_name]:
                register_parametrization(to_module, parameter_name, param_func)
            source = from_module.parametrizations[parameter_name]
            if hasattr(source, "original"):
                to_module.parametrizations[parameter_name].original = source.original
            else:
                num = 0
                while hasattr(source, f"original{num}"):
                    setattr(to_module.parametrizations[parameter_name], f"original{num}",
                            getattr(source, f"original{num}"))
                    num += 1
    return to_module
