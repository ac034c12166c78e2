"""oneflow.cuda: whether CUDA is there and how many devices (CuPy's answers; never imported until asked)."""
from __future__ import annotations

from ..facade.cuda_memory import available as is_available  # noqa: F401
from ..facade.cuda_memory import current_device, device_count, manual_seed, synchronize  # noqa: F401

manual_seed_all = manual_seed
