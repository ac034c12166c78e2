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
from ...nn.module import _addindent
from ...nn import Parameter as _NeutralParameter
from .. import _print
from .._creation import get_default_dtype
from .._tensor import Tensor
from ..regularizer import WeightDecayRegularizer
from . import initializer as I


class Parameter(_NeutralParameter, Tensor):
    """A trainable leaf (paddle's EagerParamBase): stop_gradient=False, `trainable`, and what its
    ParamAttr said: `optimize_attr` (the learning-rate factor the optimizer applies), `regularizer`,
    `need_clip`, `do_model_average`."""

    _out_cls = Tensor
    regularizer = None
    need_clip = True
    do_model_average = True

    @property
    def optimize_attr(self) -> dict:
        return self.__dict__.setdefault("optimize_attr", {"learning_rate": 1.0})

    @optimize_attr.setter
    def optimize_attr(self, value: dict) -> None:
        self.__dict__["optimize_attr"] = value

    @property
    def trainable(self) -> bool:
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise ValueError(f"The type of trainable MUST be bool, but the type is {type(value)}")
        self.stop_gradient = not value

    def __str__(self) -> str:
        return "Parameter containing:\n" + _print.tensor_to_string(self)

    __repr__ = __str__


class ParamAttr:
    """paddle.ParamAttr: the name, initializer, learning-rate factor, regularizer and trainability
    of a parameter to create."""

    def __init__(self, name=None, initializer=None, learning_rate: float = 1.0, regularizer=None,
                 trainable: bool = True, do_model_average: bool = True, need_clip: bool = True) -> None:
        if name == "":
            raise ValueError("name of ParamAttr can not be empty str")
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    @staticmethod
    def _to_attr(arg):
        """paddle's reading of a `weight_attr` / `bias_attr` argument: None or True for the defaults,
        False for no parameter, a name, an initializer or a regularizer."""
        if arg is None or arg is True:
            return ParamAttr()
        if isinstance(arg, (list, tuple)):
            return [ParamAttr._to_attr(a) for a in arg]
        if isinstance(arg, ParamAttr) or arg is False:
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, I.Initializer):
            return ParamAttr(initializer=arg)
        if isinstance(arg, WeightDecayRegularizer):
            return ParamAttr(regularizer=arg)
        raise TypeError(f"{type(arg)} cast to ParamAttr")


def make_parameter(shape, dtype, attr, is_bias: bool, default_initializer, default_name, cls=Parameter):
    """A parameter as paddle's create_parameter makes it (None where `attr` is False)."""
    attr = ParamAttr._to_attr(attr)
    if attr is False:
        return None
    np_dtype = backend.to_np_dtype(dtype)
    init = attr.initializer or default_initializer
    if init is None:
        if np_dtype.kind != "f" and np_dtype != np.int8:
            raise TypeError("Can not create parameter with default initializer when dtype is not ['float16', "
                            "'float32', 'float64', 'bfloat16', 'float'] type. Set default_initializer to fit the "
                            "parameter dtype!")
        init = I.Constant(0.0) if is_bias else I.XavierUniform()
    p = cls(Tensor._make(np.zeros(tuple(int(s) for s in shape), dtype=np_dtype)))
    return configure_parameter(p, attr, init, default_name)


def configure_parameter(p, attr: ParamAttr, init, default_name):
    """Initialise `p` by `init` (None: keep its values) and give it what `attr` says."""
    if init is not None:
        init(p)
    p.name = attr.name or default_name()
    p.trainable = attr.trainable
    p.optimize_attr = {"learning_rate": attr.learning_rate}
    p.regularizer, p.need_clip, p.do_model_average = attr.regularizer, attr.need_clip, attr.do_model_average
    return p


_layer_counts: collections.Counter = collections.Counter()


def _unique(key: str) -> str:
    """paddle's unique_name.generate: `key_0`, `key_1`, ... counted per key."""
    n = _layer_counts[key]
    _layer_counts[key] += 1
    return f"{key}_{n}"


def create_parameter(shape, dtype, name=None, attr=None, is_bias: bool = False, default_initializer=None):
    """paddle.create_parameter: a parameter outside any layer, named `create_parameter_N.w_0`
    (`NAME.w_0` with `name=`)."""
    helper = name or _unique("create_parameter")
    return make_parameter(shape, dtype, attr, is_bias, default_initializer,
                          lambda: _unique(f"{helper}.{'b' if is_bias else 'w'}"))


def _snake(name: str) -> str:
    """A layer class's name scope: `Linear` -> `linear`, `Conv2DTranspose` -> `conv2d_transpose`."""
    return re.sub(r"(\d)_d(?=_|$)", r"\1d", re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower())


class Layer(Module):
    """Base class of paddle layers and models."""

    _param_cls = Parameter
    _tensor_cls = Tensor

    def __init__(self, name_scope: str | None = None, dtype="float32") -> None:
        super().__init__()
        if name_scope is not None:
            self.__dict__["_full_name"] = _unique(name_scope)
        self.__dict__["_dtype"] = dtype

    def full_name(self) -> str:
        name = self.__dict__.get("_full_name")
        if name is None:
            name = self.__dict__["_full_name"] = _unique(_snake(type(self).__name__))
        return name

    # --------------------------------------------------------------------- parameters
    def create_parameter(self, shape, attr=None, dtype=None, is_bias: bool = False, default_initializer=None):
        """A new parameter: ParamAttr's initializer, else `default_initializer`, else XavierUniform
        (weights) or zeros (biases); of paddle's default dtype unless `dtype` says (the layer's own
        `dtype` does not count, as in paddle)."""
        dtype = dtype if dtype is not None else get_default_dtype()
        return make_parameter(shape, dtype, attr, is_bias, default_initializer,
                              lambda: _unique(f"{self.full_name()}.{'b' if is_bias else 'w'}"),
                              self._param_cls)

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

    def __repr__(self) -> str:
        """paddle's layout: a one-line extra_repr stays on the first line even above sublayers."""
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + _addindent(repr(m), 2) for key, m in self._modules.items()]
        text = type(self).__name__ + "("
        if len(extra_lines) > 1:
            text += "\n  " + "\n  ".join(extra_lines) + "\n"
        elif extra_lines:
            text += extra_lines[0]
        if child_lines:
            text += "\n  " + "\n  ".join(child_lines) + "\n"
        return text + ")"
