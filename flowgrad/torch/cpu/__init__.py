"""torch.cpu: the CPU device module (one device, always available) and the deprecated `cpu.amp`."""
from __future__ import annotations


def is_available() -> bool:
    """The CPU is always available."""
    return True


def device_count() -> int:
    """One CPU device."""
    return 1


def current_device() -> str:
    return "cpu"


def synchronize(device=None) -> None:
    """CPU work is synchronous: nothing to wait for."""


from . import amp  # noqa: E402
