"""Containers: Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict."""
from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from itertools import chain, islice

from ..tensor import Tensor
from .module import Module, _addindent
from .parameter import Parameter


def _index(module: Module, idx, size: int) -> int:
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise module._tensor_cls.policy.errors.nn_index_range(index=idx)
    return idx % size if size else idx


class Sequential(Module):
    """Modules applied in order: `Sequential(a, b, c)(x) == c(b(a(x)))`."""

    def __init__(self, *args) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def _get_item_by_idx(self, iterator, idx):
        return next(islice(iterator, _index(self, idx, len(self)), None))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(OrderedDict(list(self._modules.items())[idx]))
        return self._get_item_by_idx(iter(self._modules.values()), idx)

    def __setitem__(self, idx, module) -> None:
        key = self._get_item_by_idx(iter(self._modules.keys()), idx)
        setattr(self, key, module)

    def __delitem__(self, idx) -> None:
        if isinstance(idx, slice):
            for key in list(self._modules.keys())[idx]:
                delattr(self, key)
        else:
            key = self._get_item_by_idx(iter(self._modules.keys()), idx)
            delattr(self, key)
        self._renumber()

    def _renumber(self) -> None:
        self.__dict__["_modules"] = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise self._tensor_cls.policy.errors.nn_sequential_add(type=type(other))
        ret = self.__class__()
        for i, m in enumerate(chain(self, other)):
            ret.add_module(str(i), m)
        return ret

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise self._tensor_cls.policy.errors.nn_sequential_add(type=type(other))
        offset = len(self)
        for i, m in enumerate(other):
            self.add_module(str(i + offset), m)
        return self

    def __mul__(self, other: int):
        if not isinstance(other, int):
            raise self._tensor_cls.policy.errors.nn_sequential_mul_type(cls=type(self), type=type(other))
        if other <= 0:
            raise self._tensor_cls.policy.errors.nn_sequential_mul_factor(factor=other, cls=type(self))
        ret = self.__class__()
        n = 0
        for _ in range(other):
            for m in self:
                ret.add_module(str(n), m)
                n += 1
        return ret

    __rmul__ = __mul__

    def append(self, module: Module) -> "Sequential":
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> "Sequential":
        if not isinstance(module, Module):
            raise self._tensor_cls.policy.errors.nn_sequential_insert_type(module_cls=Module)
        n = len(self._modules)
        if not -n <= index <= n:
            raise self._tensor_cls.policy.errors.nn_sequential_insert_index(index=index)
        if index < 0:
            index += n
        mods = list(self._modules.values())
        mods.insert(index, module)
        self.__dict__["_modules"] = OrderedDict((str(i), m) for i, m in enumerate(mods))
        return self

    def extend(self, sequential) -> "Sequential":
        for layer in sequential:
            self.append(layer)
        return self

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input


class ModuleList(Module):
    """A list of sub-modules, registered under their indices."""

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self += modules

    def _get_abs_string_index(self, idx) -> str:
        return str(_index(self, idx, len(self)))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        return self._modules[self._get_abs_string_index(idx)]

    def __setitem__(self, idx, module) -> None:
        setattr(self, self._get_abs_string_index(idx), module)

    def __delitem__(self, idx) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, self._get_abs_string_index(idx))
        self.__dict__["_modules"] = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        combined = ModuleList()
        for i, m in enumerate(chain(self, other)):
            combined.add_module(str(i), m)
        return combined

    def insert(self, index: int, module: Module) -> None:
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def append(self, module: Module) -> "ModuleList":
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def extend(self, modules) -> "ModuleList":
        if isinstance(modules, (Tensor, str)) or not hasattr(modules, "__iter__"):
            raise self._tensor_cls.policy.errors.nn_modulelist_extend(type=type(modules).__name__)
        offset = len(self)
        for i, m in enumerate(modules):
            self.add_module(str(offset + i), m)
        return self

    def __repr__(self) -> str:
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        spans = [[0, 0]]
        blocks = [reprs[0]]
        for i, r in enumerate(reprs[1:], 1):
            if r == blocks[-1]:
                spans[-1][1] += 1
                continue
            spans.append([i, i])
            blocks.append(r)
        lines = []
        for (start, end), b in zip(spans, blocks):
            local = f"({start}): {b}" if start == end else f"({start}-{end}): {end - start + 1} x {b}"
            lines.append(_addindent(local, 2))
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]


class ModuleDict(Module):
    """An ordered dict of sub-modules."""

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key) -> bool:
        return key in self._modules

    def clear(self) -> None:
        self._modules.clear()

    def pop(self, key: str) -> Module:
        v = self[key]
        del self[key]
        return v

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules) -> None:
        if not isinstance(modules, Iterable):
            raise self._tensor_cls.policy.errors.nn_moduledict_update(type=type(modules).__name__)
        if isinstance(modules, (Mapping, ModuleDict)):
            for key, module in modules.items():
                self[key] = module
        else:
            for j, m in enumerate(modules):
                if not isinstance(m, Iterable):
                    raise self._tensor_cls.policy.errors.nn_moduledict_element(index=j, type=type(m).__name__)
                if len(m) != 2:
                    raise self._tensor_cls.policy.errors.nn_moduledict_element_length(index=j, length=len(m))
                self[m[0]] = m[1]


def _param_line(k, p) -> str:
    if isinstance(p, Tensor):
        size = "x".join(str(s) for s in p._data.shape)
        dev = "" if p.device.type == "cpu" else f" ({p.device})"
        return "  ({}): {} containing: [{} of size {}{}]".format(
            k, "Parameter" if isinstance(p, Parameter) else "Tensor", p.dtype, size, dev)
    return "  (" + str(k) + "): Object of type: " + type(p).__name__


class ParameterList(Module):
    """A list of parameters (plain tensors are wrapped as parameters)."""

    def __init__(self, values=None) -> None:
        super().__init__()
        self.__dict__["_size"] = 0
        if values is not None:
            self += values

    def _get_abs_string_index(self, idx) -> str:
        return str(_index(self, idx, len(self)))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            out = self.__class__()
            for i in range(len(self))[idx]:
                out.append(self[i])
            return out
        return getattr(self, self._get_abs_string_index(idx))

    def __setitem__(self, idx, param) -> None:
        idx = self._get_abs_string_index(idx)
        if isinstance(param, Tensor) and not isinstance(param, Parameter):
            param = self._param_cls(param)
        setattr(self, idx, param)

    def __len__(self) -> int:
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def append(self, value) -> "ParameterList":
        n = len(self)
        self.__dict__["_size"] = n + 1
        self[n] = value
        return self

    def extend(self, values) -> "ParameterList":
        if isinstance(values, Tensor) or not hasattr(values, "__iter__"):
            raise self._tensor_cls.policy.errors.nn_parameterlist_extend(type=type(values).__name__)
        for v in values:
            self.append(v)
        return self

    def extra_repr(self) -> str:
        return "\n".join(_param_line(k, p) for k, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise self._tensor_cls.policy.errors.nn_parameterlist_call()


class ParameterDict(Module):
    """An ordered dict of parameters (plain tensors are wrapped as parameters)."""

    def __init__(self, parameters=None) -> None:
        super().__init__()
        self.__dict__["_keys"] = {}
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str):
        return getattr(self, key)

    def __setitem__(self, key: str, value) -> None:
        self._keys[key] = None
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = self._param_cls(value)
        setattr(self, key, value)

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key) -> bool:
        return key in self._keys

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def pop(self, key: str):
        v = self[key]
        del self[key]
        return v

    def clear(self) -> None:
        for k in list(self._keys):
            del self[k]

    def update(self, parameters) -> None:
        items = parameters.items() if hasattr(parameters, "items") else parameters
        for k, v in items:
            self[k] = v

    def extra_repr(self) -> str:
        return "\n".join(_param_line(k, p).replace(str(p.dtype), p.policy.type_name(p._data.dtype))
                         if isinstance(p, Tensor) else _param_line(k, p) for k, p in self.items())

    def __call__(self, input):
        raise self._tensor_cls.policy.errors.nn_parameterdict_call()
