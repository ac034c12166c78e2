"""paddle.nn.Layer and its parameters over flowgrad's framework-neutral Module: paddle's method
names (`parameters()` as a list, `sublayers`, `add_sublayer`, `create_parameter`,
`clear_gradients`, `set_state_dict`, `register_forward_post_hook`), parameter names such as
`linear_0.w_0`, and parameters that print as `Parameter containing:`."""
from __future__ import annotations

import collections
import re

import numpy as np

from ... import backend
from ...nn import Module
from ...nn import Parameter as _NeutralParameter
from .. import _print
from .._tensor import Tensor
from . import initializer as I


class Parameter(_NeutralParameter, Tensor):
    """A trainable leaf (paddle's EagerParamBase): stop_gradient=False, `trainable`."""

    __slots__ = ()
    _out_cls = Tensor

    @property
    def trainable(self) -> bool:
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self.stop_gradient = not value

    def __str__(self) -> str:
        return "Parameter containing:\n" + _print.tensor_to_string(self)

    __repr__ = __str__


class ParamAttr:
    """paddle.ParamAttr: the name, initializer and trainability of a parameter to create."""

    def __init__(self, name=None, initializer=None, learning_rate: float = 1.0, regularizer=None,
                 trainable: bool = True, do_model_average: bool = True, need_clip: bool = True) -> None:
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip


_layer_counts: collections.Counter = collections.Counter()


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class Layer(Module):
    """Base class of paddle layers and models."""

    _param_cls = Parameter
    _tensor_cls = Tensor

    def __init__(self, name_scope: str | None = None, dtype="float32") -> None:
        super().__init__()
        if name_scope is not None:
            self.__dict__["_full_name"] = self._unique(name_scope)
        self.__dict__["_dtype"] = dtype

    @staticmethod
    def _unique(scope: str) -> str:
        n = _layer_counts[scope]
        _layer_counts[scope] += 1
        return f"{scope}_{n}"

    def full_name(self) -> str:
        name = self.__dict__.get("_full_name")
        if name is None:
            name = self.__dict__["_full_name"] = self._unique(_snake(type(self).__name__))
        return name

    def _param_name(self, is_bias: bool) -> str:
        key = "_b_count" if is_bias else "_w_count"
        n = self.__dict__.get(key, 0)
        self.__dict__[key] = n + 1
        return f"{self.full_name()}.{'b' if is_bias else 'w'}_{n}"

    # --------------------------------------------------------------------- parameters
    def create_parameter(self, shape, attr=None, dtype=None, is_bias: bool = False, default_initializer=None):
        """A new parameter: ParamAttr's initializer, else `default_initializer`, else XavierUniform
        (weights) or zeros (biases)."""
        if attr is False:
            return None
        attr = attr if isinstance(attr, ParamAttr) else ParamAttr(name=attr) if isinstance(attr, str) else \
            ParamAttr()
        dt = backend.to_np_dtype(dtype if dtype is not None else self.__dict__.get("_dtype", "float32"))
        p = self._param_cls(Tensor._make(np.zeros(tuple(int(s) for s in shape), dtype=dt)))
        init = attr.initializer or default_initializer or (I.Constant(0.0) if is_bias else I.XavierUniform())
        init(p)
        p.name = attr.name or self._param_name(is_bias)
        p.trainable = attr.trainable
        return p

    def add_parameter(self, name: str, parameter):
        self.register_parameter(name, parameter)
        return parameter

    def add_sublayer(self, name: str, sublayer):
        self.add_module(name, sublayer)
        return sublayer

    def parameters(self, include_sublayers: bool = True) -> list:
        return list(super().parameters(include_sublayers))

    def named_parameters(self, prefix: str = "", include_sublayers: bool = True, remove_duplicate: bool = True, *,
                         recurse: bool | None = None):
        # the neutral Module calls this with torch's `recurse=`
        return super().named_parameters(prefix, include_sublayers if recurse is None else recurse, remove_duplicate)

    def sublayers(self, include_self: bool = False) -> list:
        return [m for _, m in self.named_sublayers(include_self=include_self)]

    def named_sublayers(self, prefix: str = "", include_self: bool = False, layers_set=None):
        for name, m in self.named_modules(prefix=prefix):
            if m is self and not include_self:
                continue
            yield name, m

    def clear_gradients(self, set_to_zero: bool = True) -> None:
        for p in self.parameters():
            if p.trainable:
                p.clear_gradient(set_to_zero)

    def register_forward_post_hook(self, hook):
        """`hook(layer, input, output)`; a non-None result replaces the output."""
        return self.register_forward_hook(hook)

    def set_state_dict(self, state_dict, use_structured_name: bool = True):
        """Copy values into the parameters and buffers by structured name; returns (missing, unexpected)."""
        own = self.state_dict(keep_vars=True)
        missing, unexpected = [k for k in own if k not in state_dict], [k for k in state_dict if k not in own]
        for k, v in state_dict.items():
            if k in own:
                own[k].set_value(v)
        return missing, unexpected

    set_dict = load_dict = set_state_dict

    def extra_repr(self) -> str:
        return ""
