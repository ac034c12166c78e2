"""The torch family's CUDA memory queries (`empty_cache`, `memory_allocated`, `max_memory_allocated`,
`memory_reserved`, `reset_peak_memory_stats`, `get_device_name`).

Without CUDA (no CuPy, or no GPU) they behave as a CPU build of PyTorch does: the byte counts are 0
and `empty_cache` does nothing, whatever device is named; `get_device_name` raises
AssertionError("Torch not compiled with CUDA enabled"); `reset_peak_memory_stats` checks its device
and then fails with PyTorch's AttributeError. With CUDA they answer from CuPy's default memory pool,
which flowgrad allocates from: the bytes its arrays use and the bytes it holds. That pool keeps no
peak, so the peak queries raise NotImplementedError there rather than report a made-up number.
"""
from __future__ import annotations


def cupy():
    """The CuPy module, or None where it cannot be imported (never imported until asked)."""
    try:
        import cupy
        return cupy
    except Exception:
        return None


def available() -> bool:
    """Whether CuPy sees a CUDA device."""
    cp = cupy()
    if cp is None:
        return False
    try:
        return cp.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def device_count() -> int:
    """How many CUDA devices CuPy sees (0 without CUDA)."""
    return cupy().cuda.runtime.getDeviceCount() if available() else 0


def current_device() -> int:
    return cupy().cuda.Device().id if available() else 0


def synchronize(device=None) -> None:
    """Wait for the work queued on the GPU (nothing to wait for without CUDA)."""
    if available():
        cupy().cuda.Stream.null.synchronize()


def manual_seed(seed: int) -> None:
    """Seed flowgrad's one generator (which every device draws from)."""
    from .. import creation
    creation.default_generator.manual_seed(seed)


def build(device_cls: type, policy) -> dict:
    """The memory queries for a facade (its device class parses device strings, its policy raises)."""

    def _index(device) -> int:
        """PyTorch's device index rules: an int as is; a string or device must be 'cuda'; none given
        (or no index) is the current device."""
        if isinstance(device, int):
            return device
        if isinstance(device, str):
            device = device_cls(device)
        if isinstance(device, device_cls) and device.type != "cuda":
            raise policy.errors.cuda_expected_device(device=device)
        index = device.index if isinstance(device, device_cls) else None
        return index if index is not None else cupy().cuda.Device().id

    def _pool_bytes(device, which: str) -> int:
        cp = cupy()
        with cp.cuda.Device(_index(device)):
            return int(getattr(cp.get_default_memory_pool(), which)())

    def empty_cache() -> None:
        """Give the memory CuPy's pool holds unused back to the driver (nothing without CUDA)."""
        if available():
            cupy().get_default_memory_pool().free_all_blocks()

    def memory_allocated(device=None) -> int:
        """Bytes of the device's memory held by arrays (0 without CUDA)."""
        return _pool_bytes(device, "used_bytes") if available() else 0

    def memory_reserved(device=None) -> int:
        """Bytes of the device's memory CuPy's pool holds, used or cached (0 without CUDA)."""
        return _pool_bytes(device, "total_bytes") if available() else 0

    def max_memory_allocated(device=None) -> int:
        """0 without CUDA; with CUDA, NotImplementedError: CuPy's pool keeps no peak."""
        if not available():
            return 0
        raise policy.errors.cuda_no_peak(fn="max_memory_allocated")

    def max_memory_reserved(device=None) -> int:
        """0 without CUDA; with CUDA, NotImplementedError: CuPy's pool keeps no peak."""
        if not available():
            return 0
        raise policy.errors.cuda_no_peak(fn="max_memory_reserved")

    def reset_peak_memory_stats(device=None) -> None:
        """Checks the device as PyTorch does; without CUDA then fails as a CPU build of PyTorch does
        (AttributeError), with CUDA raises NotImplementedError: CuPy's pool keeps no peak."""
        if isinstance(device, str):
            device = device_cls(device)
        if isinstance(device, device_cls) and device.type != "cuda":
            raise policy.errors.cuda_expected_device(device=device)
        if not available():
            raise policy.errors.cuda_no_reset_peak()
        raise policy.errors.cuda_no_peak(fn="reset_peak_memory_stats")

    def get_device_name(device=None) -> str:
        """The name of a CUDA device (AssertionError without CUDA, as in a CPU build of PyTorch)."""
        if not available():
            raise policy.errors.cuda_not_compiled()
        props = cupy().cuda.runtime.getDeviceProperties(_index(device))
        name = props["name"]
        return name.decode() if isinstance(name, bytes) else str(name)

    return {fn.__name__: fn for fn in (empty_cache, memory_allocated, memory_reserved, max_memory_allocated,
                                       max_memory_reserved, reset_peak_memory_stats, get_device_name)}
