"""torch.nn for the torch facade: the framework-neutral flowgrad.nn classes under PyTorch's names,
building torch tensors and torch.nn.Parameter objects (presented by the facade kit)."""

from ... import nn as _nn
from ...facade import nn as _kit
from ...facade import signatures as _kit_signatures
from .. import _argtypes, _signatures
from .._tensor import Tensor as _Tensor
from . import functional, init, modules, utils
from .parameter import Parameter

globals().update(_kit.build(__name__, _Tensor, Parameter))

# torch.nn.functional's signatures and argument-type guard; the layers call the same functions
_adapted = _kit_signatures.apply(vars(functional), _Tensor, _signatures.FUNCTIONAL, {}, frozenset())
_guarded = _argtypes.guard(vars(functional), dir(functional), overloads={})
Module._facade_functions.update({**_guarded, **{neutral: _guarded.get(fn, fn) for neutral, fn in _adapted.items()}})
del _adapted, _guarded

__all__ = ["Module", "Parameter", "functional", "init", "modules", "utils"] + sorted(_nn.MODULE_CLASSES)
