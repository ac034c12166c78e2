"""torch.nn for the torch facade: the framework-neutral flowgrad.nn classes under PyTorch's names,
building torch tensors and torch.nn.Parameter objects."""
from __future__ import annotations

import types

from ... import nn as _nn
from .._tensor import Tensor as _Tensor
from . import functional, init, utils
from .parameter import Parameter


class Module(_nn.Module):
    __doc__ = _nn.Module.__doc__
    _param_cls = Parameter
    _tensor_cls = _Tensor
    _facade_classes: dict = {}

    @staticmethod
    def _default_device():
        return _Tensor._factories._default_device[0]


def _facade(neutral: type) -> type:
    """torch.nn.<Name>: the neutral layer class with the torch Module mixed in, through the facade
    class of a public neutral base (so that an nn.LSTM is an nn.RNNBase, as in PyTorch)."""
    bases = [globals()[b.__name__] for b in neutral.__bases__ if _nn.MODULE_CLASSES.get(b.__name__) is b]
    return type(neutral.__name__, (neutral, *(bases or [Module])),
                {"__module__": __name__, "__qualname__": neutral.__name__, "__doc__": neutral.__doc__})


for _name, _cls in sorted(_nn.MODULE_CLASSES.items(), key=lambda item: len(item[1].__mro__)):
    globals()[_name] = Module._facade_classes[_cls] = _facade(_cls)
# Built by layers but not named in torch.nn: reachable as `_inner.<Name>`, so that pickle finds them.
_inner = types.SimpleNamespace()
for _name, _cls in _nn.INNER_MODULE_CLASSES.items():
    Module._facade_classes[_cls] = _facade(_cls)
    Module._facade_classes[_cls].__qualname__ = f"_inner.{_name}"
    setattr(_inner, _name, Module._facade_classes[_cls])
del _name, _cls

__all__ = ["Module", "Parameter", "functional", "init", "utils"] + sorted(_nn.MODULE_CLASSES)
