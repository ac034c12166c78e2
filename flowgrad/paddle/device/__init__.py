"""paddle.device: the current device (`get_device`, `set_device`) and what this build can run.
flowgrad's paddle creates tensors on the CPU: `set_device('cpu')` is the place it keeps, and the
GPU spellings raise paddle's error of a build without CUDA (or, where CuPy makes CUDA available,
say that a GPU default place is not built)."""
from __future__ import annotations

import re

from .. import _tensor
from ..base.core import is_compiled_with_cuda
from . import cuda

_FORMS = "'cpu', 'gpu', 'gpu:x', 'dcu', 'dcu:x', 'xpu', 'xpu:x', 'npu', 'npu:x'"
_BUILDS = {"gpu": "CUDA", "dcu": "CUDA", "xpu": "XPU"}


def _not_built(kind: str, shown) -> ValueError:
    return ValueError(f"The device should not be {shown}, since PaddlePaddle is not compiled with {_BUILDS[kind]}")


def _place(kind: str, shown) -> _tensor.Place:
    if kind == "cpu":
        return _tensor.CPUPlace()
    if kind in ("gpu", "dcu") and is_compiled_with_cuda():
        raise NotImplementedError("flowgrad's paddle facade creates tensors on the CPU: a GPU default place is not "
                                  "built (pass place= to paddle.to_tensor)")
    raise _not_built(kind, shown)


def set_device(device) -> _tensor.Place:
    """Make `device` ('cpu', a CPU place or index 0) the current place and return it."""
    if isinstance(device, _tensor.Place):
        return _place("cpu" if device.is_cpu_place() else "gpu", repr("gpu"))
    if isinstance(device, int):
        if device < 0:
            raise ValueError(f"Device index must be non-negative, got {device}")
        if device != 0 and not is_compiled_with_cuda():
            raise ValueError(f"CPU device only supports index 0, got {device}")
        return _place("cpu" if device == 0 else "gpu", device)
    name = str(device).lower()
    if name in ("cpu", "gpu", "xpu", "dcu", "cuda"):
        kind = "gpu" if name in ("cuda", "dcu") else name
        return _place(kind, repr(kind))
    match = re.match(r"(gpu|dcu|xpu):\d+$", name)
    if match is None:
        raise ValueError(f"The device must be a string which is like {_FORMS}")
    return _place(match.group(1), match)  # paddle shows the match object itself here


def get_device() -> str:
    """The current place as a string: flowgrad's paddle keeps 'cpu'."""
    return "cpu"


__all__ = ["set_device", "get_device", "is_compiled_with_cuda", "cuda"]
