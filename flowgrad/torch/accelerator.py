"""torch.accelerator: the CUDA device when CuPy sees one."""
from __future__ import annotations

from . import cuda


def is_available() -> bool:
    return cuda.is_available()


def current_accelerator():
    from ._tensor import device
    return device("cuda") if cuda.is_available() else None


def device_count() -> int:
    return cuda.device_count()
