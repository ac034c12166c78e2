"""paddle.device.cuda: how many CUDA devices this build sees (CuPy's, none without it)."""
from __future__ import annotations

from ...facade.cuda_memory import device_count

__all__ = ["device_count"]
