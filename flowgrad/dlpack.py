"""DLPack exchange: zero-copy with NumPy, CuPy, the real PyTorch and anything else that speaks it."""
from __future__ import annotations

import numpy as np

from . import backend

_KDL_CPU, _KDL_CUDA = 1, 2


class _Capsule:
    """Lets a bare DLPack capsule be consumed by a namespace's `from_dlpack`."""

    def __init__(self, capsule, device):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, stream=None, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


def array_from_dlpack(obj):
    """The array (on its own device, sharing memory) behind a DLPack producer or capsule."""
    if type(obj).__name__ == "PyCapsule":
        obj = _Capsule(obj, (_KDL_CPU, 0))
    if hasattr(obj, "_data") and hasattr(obj, "grad_fn"):   # a flowgrad tensor
        return obj._data
    if not hasattr(obj, "__dlpack_device__"):
        raise TypeError(f"from_dlpack expects an object supporting the DLPack protocol (__dlpack__ and "
                        f"__dlpack_device__), got {type(obj).__name__}")
    kind, index = obj.__dlpack_device__()
    if int(kind) == _KDL_CUDA:
        xp = backend.xp_for(backend.Device("cuda", int(index)))
        return xp.from_dlpack(obj)
    if int(kind) != _KDL_CPU:
        raise RuntimeError(f"from_dlpack: unsupported DLPack device type {int(kind)}")
    return np.from_dlpack(obj)


def to_dlpack(tensor):
    """A DLPack capsule for the tensor's array (shares memory)."""
    return tensor._data.__dlpack__()
