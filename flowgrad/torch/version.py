"""torch.version: the PyTorch version the facade emulates (with flowgrad as its local part); no
CUDA, ROCm or XPU toolkit is built in, as in a CPU build of PyTorch."""
from __future__ import annotations

from ..facade.naming import Version

__version__ = Version("2.13.0+flowgrad")
debug = False
cuda = None
hip = None
rocm = None
xpu = None
