"""Thread counts: `set_num_threads` / `get_num_threads` / `set_num_interop_threads` /
`get_num_interop_threads`, with PyTorch's argument checks.

flowgrad computes with NumPy, so its intra-op parallelism is the thread pool of NumPy's BLAS
(matmul, linear algebra); everything else runs on the calling thread. `set_num_threads(n)` resizes
that pool through threadpoolctl when it is installed (`pip install threadpoolctl`). Without it
(or with no BLAS pool loaded) the count is recorded for `get_num_threads()` and one warning says the
pool keeps its size and how to pin it: `OMP_NUM_THREADS=n` in the environment before Python starts.
flowgrad runs no inter-op parallel work (ops run one after another), so the inter-op count bounds
nothing: it is checked, settable once as in PyTorch, and reported. On CUDA (CuPy) the counts do not
apply to GPU work, as in PyTorch.
"""
from __future__ import annotations

import os
import threading
import warnings

from .argcheck import is_long, typename

_LOCK = threading.Lock()
_state: dict = {"threads": None, "interop": None, "warned": False}
_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def _startup_count() -> int:
    """The pool size NumPy's BLAS starts with: the environment's pin, else the usable cores."""
    for var in _ENV:
        value = os.environ.get(var, "").split(",")[0].strip()
        if value.isdigit() and int(value) > 0:
            return int(value)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _blas_pools() -> tuple[object | None, str]:
    """(threadpoolctl's controller for NumPy's BLAS, None) or (None, why there is none)."""
    try:
        import threadpoolctl
    except ImportError:
        return None, "threadpoolctl is not installed: pip install threadpoolctl"
    import numpy  # noqa: F401  (threadpoolctl sees only libraries already loaded)
    controller = threadpoolctl.ThreadpoolController().select(user_api="blas")
    if not controller.lib_controllers:
        return None, "threadpoolctl finds no BLAS library loaded by NumPy"
    return controller, ""


def _check(fn: str, n, policy) -> int:
    if not is_long(n):
        raise policy.errors.threads_type(fn=fn, type=typename(n))
    if n <= 0:
        raise policy.errors.threads_positive(fn=fn)
    return int(n)


def build(policy) -> dict:
    """The four functions, raising with a facade's `policy`."""

    def set_num_threads(int: int) -> None:  # noqa: A002  (PyTorch's parameter name)
        """Set the intra-op thread count: the size of NumPy's BLAS pool (see the module's docstring)."""
        n = _check("set_num_threads", int, policy)
        controller, reason = _blas_pools()
        with _LOCK:
            _state["threads"] = n
            if controller is not None:
                controller.limit(limits=n)
                return
            if _state["warned"]:
                return
            _state["warned"] = True
        warnings.warn(policy.errors.threads_not_applied(n=n, reason=reason), stacklevel=2)

    def get_num_threads() -> int:
        """The intra-op thread count: NumPy's BLAS pool size where threadpoolctl can see it, else the
        count last set (or the pool's start-up size)."""
        controller, _ = _blas_pools()
        if controller is not None:
            return max(lib.num_threads for lib in controller.lib_controllers)
        return _state["threads"] or _startup_count()

    def set_num_interop_threads(int: int) -> None:  # noqa: A002
        """Record the inter-op thread count (allowed once); flowgrad runs no inter-op parallel work."""
        n = _check("set_num_interop_threads", int, policy)
        with _LOCK:
            if _state["interop"] is not None:
                raise policy.errors.threads_interop_once()
            _state["interop"] = n

    def get_num_interop_threads() -> int:
        """The inter-op thread count set, else the usable cores (PyTorch's default)."""
        return _state["interop"] or _startup_count()

    return {"set_num_threads": set_num_threads, "get_num_threads": get_num_threads,
            "set_num_interop_threads": set_num_interop_threads, "get_num_interop_threads": get_num_interop_threads}
