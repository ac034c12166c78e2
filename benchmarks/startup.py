"""Start-up: how long `import` takes in a fresh interpreter, for each library (and each of flowgrad's
facades). Measured in child processes (median of several), not timed in this one."""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile

from .harness import Workload

_MODULES = {"numpy": "numpy", "flowgrad": "flowgrad.torch", "torch": "torch", "mygrad": "mygrad",
            "autograd": "autograd.numpy"}
FACADES = ("flowgrad.torch", "flowgrad.oneflow", "flowgrad.paddle")
_CHILD = ("import sys, time\nclock = time.process_time if sys.argv[1] == 'cpu' else time.perf_counter\n"
          "t = clock()\nimport {module}\nprint(clock() - t)")


_PYCACHE = os.path.join(tempfile.gettempdir(), "flowgrad-bench-pycache")


def import_seconds(module: str, clock: str, runs: int) -> float:
    """Median seconds `import module` takes in `runs` fresh interpreters (process CPU time with
    clock='cpu', else wall-clock), after one unmeasured import: byte code cached as an installed
    package has it (in a cache folder of its own, even where PYTHONDONTWRITEBYTECODE is set)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p),
               PYTHONPYCACHEPREFIX=_PYCACHE)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    times = []
    for _ in range(runs + 1):
        res = subprocess.run([sys.executable, "-c", _CHILD.format(module=module), clock], capture_output=True,
                             text=True, env=env, timeout=300)
        if res.returncode != 0:
            raise RuntimeError(f"import {module} failed: {res.stderr.strip()[-500:]}")
        times.append(float(res.stdout.strip().splitlines()[-1]))
    return statistics.median(times[1:])


class ImportTime(Workload):
    """The check imports each library once in a fresh interpreter; the measure is the median of
    `runs` fresh imports. flowgrad's cell is `flowgrad.torch`; its other facades are in the notes."""

    name = "import"
    title = "import in a fresh interpreter (flowgrad: flowgrad.torch)"
    unit = "s"
    unit_scale = 1.0
    kind = "startup"
    sizes = {"full": dict(runs=7), "quick": dict(runs=3), "tiny": dict(runs=1)}

    def data(self, runs):
        return {"runs": runs}

    def build(self, contender, d):
        module = _MODULES[contender]

        def step():
            import_seconds(module, "wall", 1)
            return []                        # no gradients: the check is that the import works
        return step

    def measure(self, contender, d, threads=None, clock="wall") -> tuple[float, str]:
        if contender != "flowgrad":
            return import_seconds(_MODULES[contender], clock, d["runs"]), "fresh interpreter"
        self._facades = {m: import_seconds(m, clock, d["runs"]) for m in FACADES}
        return self._facades["flowgrad.torch"], "fresh interpreter"

    def details(self, contender):
        return {"facades": self._facades} if contender == "flowgrad" else {}


WORKLOADS = [ImportTime()]
