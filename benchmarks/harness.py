"""The shared harness: contenders, the workload protocol, correctness checks against hand-written
NumPy, interleaved timing, medians and ratios.

A workload (one class per benchmark, grouped by family in the sibling modules) declares:
  - `name`, `title`, `unit`, `ops` (the per-call time is divided by it: per-op units), `unit_scale`;
  - `section`: empty for the main table, or the heading it is reported under, with no target;
  - `sizes`: keyword arguments for `data()` at the "full", "quick" and "tiny" (CI smoke) scales;
  - `data(**size)`: the inputs as NumPy arrays, deterministic;
  - `build(contender, data)`: a zero-argument `step` for that contender that runs the whole
    workload once (forward + backward) and returns the gradients in the contender's own types.
    The very callable that is timed is the one whose gradients are checked.
The "numpy" contender is the hand-written forward + backward every other contender is checked
against and measured as a ratio of.
"""
from __future__ import annotations

import gc
import importlib
import statistics
import time
from dataclasses import dataclass, field

import numpy as np

CONTENDERS = ("numpy", "flowgrad", "torch", "mygrad", "autograd")
LABELS = {"numpy": "NumPy (hand-written)", "flowgrad": "flowgrad", "torch": "torch",
          "mygrad": "MyGrad", "autograd": "HIPS autograd"}


class Unsupported(Exception):
    """The contender cannot express this workload at all (MyGrad has no double backward): 'n/a'."""


class NotAvailable(Exception):
    """What the workload needs is missing from the contender for now (flowgrad's Conv2d)."""


class CheckFailed(AssertionError):
    """A contender's gradients differ from hand-written NumPy's."""


# ---------------------------------------------------------------------------------- contenders

@dataclass
class Contender:
    name: str
    module: object = None
    version: str = ""
    missing: str = ""        # why it is not installed


def load_contenders(names=CONTENDERS, threads: int | None = None) -> dict[str, Contender]:
    """Import each contender that is installed; set torch's intra-op threads when pinned."""
    out = {}
    for name in names:
        c = Contender(name)
        try:
            if name == "numpy":
                c.module, c.version = np, np.__version__
            elif name == "flowgrad":
                c.module = importlib.import_module("flowgrad.torch")
                c.version = _dist_version("flowgrad") or "dev"
            elif name == "torch":
                c.module = importlib.import_module("torch")
                c.version = c.module.__version__
                if threads is not None:
                    c.module.set_num_threads(threads)
            elif name == "mygrad":
                c.module = importlib.import_module("mygrad")
                c.version = c.module.__version__
            elif name == "autograd":
                c.module = importlib.import_module("autograd")
                c.version = _dist_version("autograd") or "?"
            else:
                raise ValueError(f"unknown contender {name!r}")
        except ImportError as e:
            c.missing = f"not installed ({e.name or e})"
        out[name] = c
    return out


def _dist_version(dist: str) -> str | None:
    from importlib import metadata
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def to_numpy(x) -> np.ndarray:
    """A gradient of any contender as an ndarray (torch/flowgrad tensors, MyGrad's arrays, ...)."""
    if x is None:
        raise CheckFailed("gradient is None")
    if hasattr(x, "detach") and hasattr(x, "numpy"):
        x = x.detach()
        if getattr(getattr(x, "device", None), "type", "cpu") != "cpu":
            x = x.cpu()
        return np.asarray(x.numpy())
    if type(x).__module__.startswith("cupy"):
        return x.get()
    return np.asarray(x)


# ---------------------------------------------------------------------------------- workloads

class Workload:
    name = ""
    title = ""
    unit = "ms"
    unit_scale = 1e3          # seconds -> unit
    ops = 1                   # per-call time / ops (per-op units); set from the data when it varies
    kind = "time"             # "time" or "memory"
    rtol = 1e-7
    atol = 1e-9               # relative to the largest |reference gradient|
    stateful = False          # True when a step changes its own inputs (an SGD update): checked once
    section = ""              # a heading of its own in the report, outside the targets ("": the main table)
    sizes: dict = {"full": {}, "quick": {}, "tiny": {}}
    device = "cpu"            # "cuda": flowgrad's and torch's tensors and the hand-written arrays live on the GPU
    clock = ""                # a clock this workload must be timed with ("wall" for GPU work), whatever was asked
    target_x_torch = None     # a sectioned workload's target: flowgrad at most this many times torch's time

    def data(self, **size) -> dict:
        raise NotImplementedError

    def measure(self, contender: str, d: dict, threads: int | None = None, clock: str = "wall") -> tuple[float, str]:
        """(value, method) for a workload that is measured, not timed (kind other than "time")."""
        raise NotImplementedError

    def details(self, contender: str) -> dict:
        """Extra figures the last `measure` of this contender found, kept in its result."""
        return {}

    def unavailable(self) -> str:
        """Why this workload cannot run on this machine ('' when it can)."""
        return ""

    def describe_device(self) -> str:
        """The device the workload ran on, for the report ('' for the CPU, which the machine line names)."""
        return ""

    def tensor(self, torch, a: np.ndarray):
        """A copy of `a` as a tensor of the torch-like module, on the workload's device."""
        t = torch.from_numpy(a.copy())
        return t if self.device == "cpu" else t.to(self.device)

    def build(self, contender: str, d: dict):
        method = getattr(self, "impl_" + contender, None)
        if method is None:
            raise Unsupported(f"no {contender} implementation")
        return method(d)

    def ops_for(self, d: dict) -> int:
        return d.get("ops", self.ops)

    # flowgrad and torch share one implementation: the same PyTorch code under either module
    def impl_flowgrad(self, d):
        return self.torchlike(importlib.import_module("flowgrad.torch"), d)

    def impl_torch(self, d):
        return self.torchlike(importlib.import_module("torch"), d)

    def torchlike(self, torch, d):
        raise Unsupported("no torch-style implementation")


def check(w: Workload, contender: str, d: dict, reference: list | None = None) -> list:
    """Run the contender's step (twice unless stateful) and compare its gradients with hand-written
    NumPy's; raise CheckFailed with the worst mismatch. Returns the reference gradients."""
    if reference is None:
        reference = reference_grads(w, d)
    step = w.build(contender, d)
    for call in range(1 if w.stateful else 2):
        got = step()
        if len(got) != len(reference):
            raise CheckFailed(f"{contender}: {len(got)} gradients, NumPy has {len(reference)}")
        for i, (g, r) in enumerate(zip(got, reference)):
            g = to_numpy(g)
            if g.shape != r.shape:
                raise CheckFailed(f"{contender}: gradient {i} has shape {g.shape}, NumPy's is {r.shape}")
            scale = float(np.max(np.abs(r))) if r.size else 1.0
            if not np.allclose(g, r, rtol=w.rtol, atol=w.atol * max(scale, 1e-30)):
                err = np.abs(g.astype(np.float64) - r)
                k = np.unravel_index(int(np.argmax(err)), err.shape) if err.ndim else ()
                raise CheckFailed(f"{contender}: gradient {i} (call {call + 1}) differs from NumPy's: worst at "
                                  f"{k}: {g[k]!r} vs {r[k]!r} (|diff| {err[k]:.3g}, rtol {w.rtol}, "
                                  f"atol {w.atol * scale:.3g})")
    return reference


def reference_grads(w: Workload, d: dict) -> list:
    return [to_numpy(g).copy() for g in w.build("numpy", d)()]


def frozen(d: dict) -> dict:
    """Make the workload's input arrays read-only: a step that would mutate shared inputs (an SGD
    update) must copy them in `build`, so every contender starts from the same numbers."""
    for v in d.values():
        if isinstance(v, np.ndarray):
            v.flags.writeable = False
    return d


# ---------------------------------------------------------------------------------- timing

@dataclass
class Timing:
    samples: list = field(default_factory=list)   # seconds per call
    inner: int = 1                                # calls per sample

    @property
    def median(self) -> float:
        return statistics.median(self.samples)


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def interleaved(steps: dict, repeats: int, warmup: int = 2, min_sample_s: float = 2e-3,
                clock: str = "wall") -> dict[str, Timing]:
    """Time every step `repeats` times, the contenders interleaved within each repetition (the
    starting contender rotates so none always runs first). A step faster than `min_sample_s` is
    called several times per sample. `gc.collect()` runs before each sample (not inside it) so one
    contender's garbage is not charged to the next; the collector stays on while timing, with the
    objects that existed before timing frozen out of its walks (`gc.freeze`).
    `clock="cpu"` times with the process's CPU time instead of the wall clock: on a shared machine it
    leaves out the time other processes hold the core (meaningful with one thread: it sums threads)."""
    now = CLOCKS[clock]
    timings = {}
    for name, step in steps.items():
        t0 = time.perf_counter()
        for _ in range(warmup):
            step()
        per = (time.perf_counter() - t0) / max(warmup, 1)
        timings[name] = Timing(inner=max(1, int(min_sample_s / per) + 1) if per < min_sample_s else 1)
    names = list(steps)
    gc.collect()
    gc.freeze()   # the imported libraries' objects: no collection walks them again (cheap collects)
    try:
        for r in range(repeats):
            k = r % len(names)
            for name in names[k:] + names[:k]:
                step, t = steps[name], timings[name]
                gc.collect()
                t0 = now()
                for _ in range(t.inner):
                    step()
                t.samples.append((now() - t0) / t.inner)
    finally:
        gc.unfreeze()
    return timings


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return a / b
