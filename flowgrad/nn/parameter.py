"""Parameter: a leaf tensor that a Module registers as trainable.

The neutral class is a core Tensor subclass. Each facade makes its own by mixing this class with
its tensor class, e.g. `class Parameter(nn.Parameter, torch.Tensor)` with
`_out_cls = torch.Tensor`, so ops on parameters give the facade's plain tensors, and sets it as its
Module's `_param_cls` so layers build parameters of the right class.
"""
from __future__ import annotations

import numpy as np

from .. import backend
from ..tensor import Tensor


class Parameter(Tensor):
    """A tensor that, assigned as a Module attribute, joins the module's parameters."""

    __slots__ = ()
    _out_cls = Tensor

    def __new__(cls, data=None, requires_grad: bool = True):
        if data is None:
            t = cls._make(np.empty((0,), dtype=backend.default_float()))
        elif isinstance(data, Tensor):
            t = cls._make(data._data)
            t._vc = data._box()  # the same storage, like detach()
        else:
            raise cls.policy.errors.nn_parameter_data(type=type(data).__name__)
        if requires_grad:
            t._set_requires_grad(True, "int_requires_grad")
        return t

    def __init__(self, data=None, requires_grad: bool = True):
        pass  # everything happens in __new__ (the facade tensor's __init__ must not run)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        out = type(self)._make(self._data.copy())
        out._requires_grad = self._requires_grad
        if self._grad is not None:
            out._grad = self._grad.__deepcopy__(memo) if hasattr(self._grad, "__deepcopy__") else \
                self._grad._new(self._grad._data.copy())
        memo[id(self)] = out
        return out

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (type(self), self._host(), self._requires_grad))


def _rebuild_parameter(cls, arr, requires_grad):
    p = cls._make(arr)
    p._requires_grad = requires_grad
    return p


def is_parameter(obj) -> bool:
    return isinstance(obj, Parameter)
