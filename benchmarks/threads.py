"""Thread pinning. BLAS and OpenMP read their thread counts once, when the library loads, so
`--threads N` must be in the environment before NumPy or torch is imported: when it is not, set it
and re-execute the interpreter. This module imports nothing but the standard library."""
from __future__ import annotations

import os
import sys

THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS",
               "NUMEXPR_NUM_THREADS")
_REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def requested_threads(argv: list[str]) -> int | None:
    """The N of `--threads N` / `--threads=N`, parsed without argparse (it runs before anything else)."""
    for i, a in enumerate(argv):
        if a == "--threads" and i + 1 < len(argv):
            return int(argv[i + 1])
        if a.startswith("--threads="):
            return int(a.split("=", 1)[1])
    return None


def pinned(n: int) -> bool:
    return all(os.environ.get(v) == str(n) for v in THREAD_VARS)


def pin_threads_or_reexec(argv: list[str], module: str = "benchmarks") -> None:
    """Make the thread variables say N; re-exec `python -m module argv` if they did not, or if
    NumPy/torch is already loaded."""
    n = requested_threads(argv)
    if n is None:
        return
    if n < 1:
        raise SystemExit("--threads must be >= 1")
    loaded = any(m in sys.modules for m in ("numpy", "torch"))
    if pinned(n) and not loaded:
        return
    if os.environ.get("FLOWGRAD_BENCH_REEXEC") == str(n):
        raise SystemExit("benchmarks: thread variables still not pinned after re-exec")
    env = dict(os.environ)
    env.update({v: str(n) for v in THREAD_VARS})
    env["FLOWGRAD_BENCH_REEXEC"] = str(n)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_REPO_ROOT, env.get("PYTHONPATH")) if p)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, "-m", module, *argv], env)


def describe(n: int | None) -> str:
    if n is None:
        shown = ", ".join(f"{v}={os.environ[v]}" for v in THREAD_VARS[:3] if v in os.environ)
        return "machine default" + (f" ({shown})" if shown else " (thread variables unset)")
    return f"{n} (OMP/OPENBLAS/MKL_NUM_THREADS={n}, torch.set_num_threads({n}))"
