"""Overhead-bound workloads on 16-element float64 vectors: a chain of tiny elementwise ops
(per-op time; the 60,000-op build + backward; graph memory held before backward) and a wide
fan-in (one leaf used by 10,000 ops).

The chain repeats y = tanh(y * 1.0001 + 0.001): three ops per round (mul, add, tanh), then
sum() and backward."""
from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc

import numpy as np

from .harness import NotAvailable, Unsupported, Workload, frozen

ROUND = 3  # ops per round of the chain


def _x(width: int = 16):
    return np.linspace(-1.0, 1.0, width) if width > 1 else np.array([0.5])


# ----------------------------------------------------------------------- one chain, five libraries
# Each returns (held, finish): `held` keeps the recorded graph alive (what the memory workload
# measures); finish() runs the backward and returns [gradient of sum(chain(x)) w.r.t. x].

def numpy_graph(x, rounds):
    ts = []
    y = x
    for _ in range(rounds):
        y = np.tanh(y * 1.0001 + 0.001)
        ts.append(y)                       # the tape: tanh's outputs are all the backward needs
    loss = y.sum()  # noqa: F841

    def finish():
        g = np.ones_like(x)
        for t in reversed(ts):
            g = g * (1.0 - t * t) * 1.0001
        return [g]
    return ts, finish


def torchlike_graph(torch, x, rounds):
    x.grad = None
    y = x
    for _ in range(rounds):
        y = (y * 1.0001 + 0.001).tanh()
    loss = y.sum()

    def finish():
        loss.backward()
        return [x.grad]
    return loss, finish


def mygrad_graph(x, rounds):
    import mygrad as mg
    y = x
    for _ in range(rounds):
        y = mg.tanh(y * 1.0001 + 0.001)
    loss = y.sum()

    def finish():
        loss.backward()
        return [x.grad]
    return loss, finish


def autograd_graph(x, rounds):
    import autograd
    import autograd.numpy as anp

    def f(v):
        for _ in range(rounds):
            v = anp.tanh(v * 1.0001 + 0.001)
        return anp.sum(v)
    vjp, loss = autograd.make_vjp(f)(x)    # forward recorded, backward not yet run

    def finish():
        return [vjp(1.0)]
    return vjp, finish


class _Chain(Workload):
    """Shared by the chain workloads: `rounds` rounds of 3 ops."""

    rtol, atol = 1e-9, 1e-12
    width = 16                # elements per tensor

    def data(self, ops):
        if ops % ROUND:
            raise ValueError(f"chain length must be a multiple of {ROUND}")
        return frozen({"x": _x(self.width), "rounds": ops // ROUND, "ops": ops})

    def graph(self, contender, d):
        """(held, finish) for one chain of this contender, built from a leaf made at build time."""
        return self._graph_factory(contender, d)()

    def _graph_factory(self, contender, d):
        rounds = d["rounds"]
        if contender == "numpy":
            x = d["x"]
            return lambda: numpy_graph(x, rounds)
        if contender in ("flowgrad", "torch"):
            import importlib
            torch = importlib.import_module("flowgrad.torch" if contender == "flowgrad" else "torch")
            x = torch.from_numpy(d["x"].copy()).requires_grad_()
            return lambda: torchlike_graph(torch, x, rounds)
        if contender == "mygrad":
            import mygrad as mg
            x = mg.tensor(d["x"].copy())
            return lambda: mygrad_graph(x, rounds)
        if contender == "autograd":
            x = d["x"].copy()
            return lambda: autograd_graph(x, rounds)
        raise Unsupported(contender)

    def build(self, contender, d):
        make = self._graph_factory(contender, d)

        def step():
            held, finish = make()
            return finish()
        return step


class TinyChain(_Chain):
    name = "chain"
    title = "chain of 2,001 tiny elementwise ops (16 x float64) + backward, per op"
    unit = "us/op"
    unit_scale = 1e6
    sizes = {"full": dict(ops=2001), "quick": dict(ops=2001), "tiny": dict(ops=30)}


class OneElementChain(TinyChain):
    name = "chain-1"
    title = "the same chain on 1-element tensors (float64) + backward, per op"
    width = 1


class LongChain(_Chain):
    name = "chain-60k"
    title = "60,000-op chain (16 x float64), build + backward"
    unit = "s"
    unit_scale = 1.0
    sizes = {"full": dict(ops=60000), "quick": dict(ops=60000), "tiny": dict(ops=300)}

    def ops_for(self, d):
        return 1   # whole seconds, not per op


class ChainMemory(_Chain):
    """Bytes the recorded graph holds before backward, per op, for the same chain: tracemalloc
    (which sees NumPy's buffers) for the Python libraries; for torch, whose graph lives in C++, the
    growth of the resident set in a fresh subprocess (marked 'RSS')."""

    name = "memory"
    title = "graph memory held before backward, 16 x float64 chain, per op"
    unit = "B/op"
    kind = "memory"
    sizes = {"full": dict(ops=60000), "quick": dict(ops=30000), "tiny": dict(ops=300)}

    def measure(self, contender, d, threads=None, clock="wall") -> tuple[float, str]:
        """(bytes per op, method); memory is weighed, so the clock plays no part."""
        if contender == "torch":
            return torch_rss_per_op(d["ops"], threads), "RSS"
        make = self._graph_factory(contender, d)
        make()[1]()                         # warm caches (first-call allocations are not the graph's)
        import gc
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            held, finish = make()
            after = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        finish()
        del held, finish
        return (after - before) / d["ops"], "tracemalloc"


def torch_rss_per_op(ops: int, threads: int | None) -> float:
    """Resident-set growth per op while torch holds the chain's graph, in a fresh interpreter."""
    if not os.path.exists("/proc/self/statm"):
        raise NotAvailable("needs /proc/self/statm (Linux) to read torch's resident set")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    res = subprocess.run([sys.executable, "-m", "benchmarks.chain", "torch-rss", str(ops), str(threads or 0)],
                         capture_output=True, text=True, env=env, timeout=600)
    if res.returncode != 0:
        raise RuntimeError(f"torch RSS subprocess failed: {res.stderr.strip()[-500:]}")
    return float(res.stdout.strip().splitlines()[-1])


def _torch_rss_main(ops: int, threads: int) -> None:
    import gc

    import torch
    if threads:
        torch.set_num_threads(threads)
    page = os.sysconf("SC_PAGE_SIZE")

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * page
    x = torch.from_numpy(_x()).requires_grad_()
    for _ in range(2):                      # warm the allocator and the autograd engine
        torchlike_graph(torch, x, 2000)[1]()
    gc.collect()
    r0 = rss()
    held, finish = torchlike_graph(torch, x, ops // ROUND)
    r1 = rss()
    finish()
    print((r1 - r0) / ops)


# ------------------------------------------------------------------------------------ fan-in

class FanIn(Workload):
    """One 16-element leaf used by n ops (x * w_i) whose results are summed (a running sum; a
    stack would be quadratic in HIPS autograd), then sum() and backward: n gradients flow into the
    same leaf."""

    name = "fan-in"
    title = "wide fan-in: one leaf used by 10,000 ops (x * w_i), summed, backward"
    unit = "ms"
    rtol, atol = 1e-10, 1e-12
    sizes = {"full": dict(n=10000), "quick": dict(n=10000), "tiny": dict(n=50)}

    def data(self, n):
        return frozen({"x": _x(), "ws": [1.0 + i / n for i in range(n)]})

    def impl_numpy(self, d):
        x, ws = d["x"], d["ws"]

        def step():
            s = x * ws[0]
            for w in ws[1:]:
                s = s + x * w
            loss = s.sum()  # noqa: F841
            g = np.ones_like(s)             # the adds pass it through unchanged
            gx = g * ws[0]
            for w in ws[1:]:                # the same n backward ops the libraries run
                gx = gx + g * w
            return [gx]
        return step

    @staticmethod
    def _fan(x, ws):
        s = x * ws[0]
        for w in ws[1:]:
            s = s + x * w
        return s.sum()

    def torchlike(self, torch, d):
        x, ws = torch.from_numpy(d["x"].copy()).requires_grad_(), d["ws"]

        def step():
            x.grad = None
            self._fan(x, ws).backward()
            return [x.grad]
        return step

    def impl_mygrad(self, d):
        import mygrad as mg
        x, ws = mg.tensor(d["x"].copy()), d["ws"]

        def step():
            self._fan(x, ws).backward()
            return [x.grad]
        return step

    def impl_autograd(self, d):
        import autograd
        x, ws = d["x"].copy(), d["ws"]
        grad = autograd.grad(lambda v: self._fan(v, ws))

        def step():
            return [grad(x)]
        return step


WORKLOADS = [TinyChain(), OneElementChain(), LongChain(), ChainMemory(), FanIn()]

if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "torch-rss":
    _torch_rss_main(int(sys.argv[2]), int(sys.argv[3]))
