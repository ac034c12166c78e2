"""torch.nn for the torch facade: the framework-neutral flowgrad.nn classes under PyTorch's names,
building torch tensors and torch.nn.Parameter objects (presented by the facade kit)."""

from ... import nn as _nn
from ...facade import nn as _kit
from .._tensor import Tensor as _Tensor
from . import functional, init, modules, utils
from .parameter import Parameter

globals().update(_kit.build(__name__, _Tensor, Parameter))

__all__ = ["Module", "Parameter", "functional", "init", "modules", "utils"] + sorted(_nn.MODULE_CLASSES)
