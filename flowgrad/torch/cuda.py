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
