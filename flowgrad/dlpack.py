"""DLPack exchange: zero-copy with NumPy, CuPy, the real PyTorch and anything else that speaks it."""
from __future__ import annotations

import numpy as np

from . import backend
from .autograd.policy import TORCH, Policy

_KDL_CPU, _KDL_CUDA = 1, 2


class _Capsule:
    """Lets a bare DLPack capsule be consumed by a namespace's `from_dlpack`."""

    def __init__(self, capsule, device):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, stream=None, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


def array_from_dlpack(obj, policy: Policy = TORCH):
    """The array (on its own device, sharing memory) behind a DLPack producer or capsule; `policy`
    words the errors (the facade's)."""
    if type(obj).__name__ == "PyCapsule":
        obj = _Capsule(obj, (_KDL_CPU, 0))
    if hasattr(obj, "_data") and hasattr(obj, "grad_fn"):   # a flowgrad tensor
        return obj._data
    if not hasattr(obj, "__dlpack_device__"):
        raise policy.errors.dlpack_not_producer(type=type(obj).__name__)
    kind, index = obj.__dlpack_device__()
    if int(kind) == _KDL_CUDA:
        xp = backend.xp_for(backend.Device("cuda", int(index)))
        return xp.from_dlpack(obj)
    if int(kind) != _KDL_CPU:
        raise policy.errors.dlpack_device_unsupported(device_type=int(kind))
    return np.from_dlpack(obj)


def to_dlpack(tensor):
    """A DLPack capsule for the tensor's array (shares memory)."""
    return tensor._data.__dlpack__()
