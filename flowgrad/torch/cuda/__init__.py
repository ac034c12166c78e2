"""torch.cuda: answers truthfully from CuPy (never imported until asked), and the deprecated `cuda.amp`."""
from __future__ import annotations

from ...facade.cuda_memory import available as is_available  # noqa: F401
from ...facade.cuda_memory import current_device, device_count, manual_seed, synchronize  # noqa: F401

manual_seed_all = manual_seed


def is_initialized() -> bool:
    return is_available()


# memory queries: 0 / AssertionError as a CPU build of PyTorch without CUDA, CuPy's pool with it
from ...facade import adopt as _adopt  # noqa: E402
from ...facade.cuda_memory import build as _build_memory_queries  # noqa: E402
from .._tensor import Tensor as _Tensor  # noqa: E402

_memory = _build_memory_queries(_Tensor._device, _Tensor.policy)
_adopt(_memory, __name__)
empty_cache, memory_allocated, memory_reserved = (_memory[n] for n in ("empty_cache", "memory_allocated",
                                                                         "memory_reserved"))
max_memory_allocated, max_memory_reserved = _memory["max_memory_allocated"], _memory["max_memory_reserved"]
reset_peak_memory_stats, get_device_name = _memory["reset_peak_memory_stats"], _memory["get_device_name"]

from . import amp  # noqa: E402
