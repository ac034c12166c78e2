"""oneflow.save / oneflow.load in flowgrad's own format (see flowgrad.serialization): tensors, state
dicts and containers of them, loaded as oneflow tensors and parameters."""
from __future__ import annotations

from .. import serialization as _ser
from ._tensor import Tensor


def save(obj, path) -> None:
    """Write `obj` to `path` (a file name or a writable binary file)."""
    _ser.save(obj, path)


def load(path, map_location=None):
    """Read what `save` wrote; `map_location` moves the tensors as in PyTorch."""
    from .nn import Parameter
    return _ser.load(path, map_location, weights_only=None, tensor_cls=Tensor, param_cls=Parameter)
