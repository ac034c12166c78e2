"""torch.cuda: answers truthfully from CuPy (never imported until asked)."""
from __future__ import annotations


def _cupy():
    try:
        import cupy
        return cupy
    except Exception:
        return None


def is_available() -> bool:
    cp = _cupy()
    if cp is None:
        return False
    try:
        return cp.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def device_count() -> int:
    return _cupy().cuda.runtime.getDeviceCount() if is_available() else 0


def current_device() -> int:
    return _cupy().cuda.Device().id if is_available() else 0


def synchronize(device=None) -> None:
    if is_available():
        _cupy().cuda.Stream.null.synchronize()


def manual_seed(seed: int) -> None:
    from .. import creation
    creation.default_generator.manual_seed(seed)


manual_seed_all = manual_seed


def is_initialized() -> bool:
    return is_available()



# memory queries: 0 / AssertionError as a CPU build of PyTorch without CUDA, CuPy's pool with it
from ..facade import adopt as _adopt  # noqa: E402
from ..facade.cuda_memory import build as _build_memory_queries  # noqa: E402
from ._tensor import Tensor as _Tensor  # noqa: E402

_memory = _build_memory_queries(_Tensor._device, _Tensor.policy)
_adopt(_memory, __name__)
empty_cache, memory_allocated, memory_reserved = (_memory[n] for n in ("empty_cache", "memory_allocated",
                                                                         "memory_reserved"))
max_memory_allocated, max_memory_reserved = _memory["max_memory_allocated"], _memory["max_memory_reserved"]
reset_peak_memory_stats, get_device_name = _memory["reset_peak_memory_stats"], _memory["get_device_name"]
