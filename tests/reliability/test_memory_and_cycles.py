"""Memory: what a backward frees, what a training loop keeps.

* after a non-retained backward no saved array is still referenced (weak references to the arrays
  of the intermediate tensors, on a hand-written graph and on random graphs), while the root
  tensor and its grad_fn are still alive; with retain_graph they live until the graph is dropped;
* 1,000 training steps of a small MLP written with tensor ops keep traced memory flat
  (tracemalloc, steps 100-200 against steps 900-1000);
* an ordinary training loop creates no reference cycles (gc disabled; the collector then finds
  no flowgrad object);
* `backward(create_graph=True)` warns about the reference cycle it creates, as PyTorch does.

Arrays are flowgrad internals (`Tensor._data`, see docs/INTERNALS.md), so most of these run on
flowgrad only; the warning test runs on both.
"""
from __future__ import annotations

import gc
import importlib
import json
import os
import subprocess
import sys
import textwrap
import tracemalloc
import warnings
import weakref
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, note, reject, settings

from fuzz_graphs import build, programs
from reliability_config import RELIABILITY, fuzz_examples

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fg(ftorch):
    return ftorch


def _owners(arr) -> set:
    """ids of `arr` and of every array it is a view of (those stay alive through it)."""
    out = set()
    while arr is not None:
        out.add(id(arr))
        arr = getattr(arr, "base", None)
    return out


def _refs_to_intermediates(pool, keep) -> list:
    """Weak references to the arrays of the non-leaf tensors in `pool`, except those that the
    tensors in `keep` (leaves, the root) hold themselves, through their view bases, or through
    NumPy views."""
    kept = set()
    for t in keep:
        while t is not None:          # a view keeps its base tensor (PyTorch's `._base`) and so its array
            kept |= _owners(t._data)
            t = t._base
    refs = []
    for i, t in enumerate(pool):
        if t.grad_fn is not None and id(t._data) not in kept:
            refs.append((i, type(t.grad_fn).__name__, weakref.ref(t._data)))
    return refs


def test_no_saved_array_survives_a_non_retained_backward(fg):
    T = fg
    x = T.tensor(np.linspace(-1, 1, 6).reshape(2, 3), requires_grad=True)
    w = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    pool = [x, w]
    pool.append(T.exp(x))                 # saves its output
    pool.append(pool[-1] * w)             # saves both inputs
    pool.append(T.sin(pool[-1]))          # saves its input
    pool.append(pool[-1].permute(1, 0))   # a view
    pool.append(T.softmax(pool[-1], 0))
    pool.append(T.tanh(pool[-1]).sum(0))
    pool.append((pool[-1] ** 2).mean())
    root = pool[-1]
    refs = _refs_to_intermediates(pool[:-1], [x, w, root])
    del pool
    alive_before = [name for _, name, r in refs if r() is not None]
    assert alive_before, "nothing was saved: the test would prove nothing"
    root.backward()
    alive = [name for _, name, r in refs if r() is not None]
    assert alive == [], f"arrays still referenced after backward, produced by: {alive}"
    assert root.grad_fn is not None          # the graph object itself is still there


def test_retained_graph_keeps_saved_arrays_until_dropped(fg):
    T = fg
    x = T.tensor([0.5, 1.5], dtype=T.float64, requires_grad=True)
    h = T.exp(x)
    y = T.sin(h).sum()
    ref = weakref.ref(h._data)
    del h
    y.backward(retain_graph=True)
    assert ref() is not None, "retain_graph=True must keep saved values"
    y.backward()
    assert ref() is None
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos(np.exp([0.5, 1.5])) * np.exp([0.5, 1.5]))


def test_dropping_the_last_tensor_frees_a_retained_graph_without_gc(fg):
    T = fg
    x = T.tensor([0.5, 1.5], requires_grad=True)
    h = T.exp(x)
    y = (T.sin(h) * h).sum()
    refs = [weakref.ref(h._data), weakref.ref(y.grad_fn)]
    y.backward(retain_graph=True)
    del h, y
    gc.disable()
    try:
        assert [r() for r in refs] == [None, None], "a retained graph is kept alive by a reference cycle"
    finally:
        gc.enable()


@settings(parent=RELIABILITY, max_examples=fuzz_examples(80))
@given(prog=programs(options=("plain",)))
def test_random_graphs_release_every_saved_array(fg, prog):
    note(repr(prog))
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        pool = build(fg, prog, prog.dtype)
        root = pool[prog.root]
        leaves = [t for t in pool if t.grad_fn is None]
        refs = _refs_to_intermediates(pool, leaves + [root])
        del pool
        gc.disable()
        try:
            try:
                root.backward(fg.ones_like(root))
            except Exception as e:  # noqa: BLE001 - a crash is the differential tests' finding, not this one's
                note(f"backward raised {e!r}")
                reject()
            alive = [f"%{i} ({name})" for i, name, r in refs if r() is not None]
        finally:
            gc.enable()
    assert alive == [], f"arrays still referenced after a non-retained backward: {alive}"


# ------------------------------------------------------------------------------------ training loop

def _mlp(T, seed=0):
    rng = np.random.default_rng(seed)
    data = (T.tensor(rng.normal(size=(64, 16))), T.tensor(rng.normal(size=(64, 1))))
    params = [T.tensor(rng.normal(size=(16, 32)) * 0.3, requires_grad=True),
              T.zeros(32, dtype=T.float64, requires_grad=True),
              T.tensor(rng.normal(size=(32, 1)) * 0.3, requires_grad=True),
              T.zeros(1, dtype=T.float64, requires_grad=True)]
    return data, params


def _train_step(T, data, params, lr=0.05):
    X, Y = data
    W1, b1, W2, b2 = params
    h = T.tanh(X @ W1 + b1)
    out = h @ W2 + b2
    loss = ((out - Y) ** 2).mean()
    loss.backward()
    with T.no_grad():
        for p in params:
            p -= lr * p.grad
            p.grad = None
    return loss


def test_1000_training_steps_keep_memory_flat(fg):
    """Traced memory (after a full collection, which also empties CPython's free lists) sampled
    every 20 steps in both windows: the mean over steps 900-1000 may exceed the mean over steps
    100-200 by at most 2 KiB (2 bytes a step)."""
    T = fg
    data, params = _mlp(T)
    samples = {}
    first = last = None
    tracemalloc.start()
    try:
        for step in range(1000):
            loss = _train_step(T, data, params)
            if step == 0:
                first = loss.item()
            if step % 20 == 19 and (100 <= step < 200 or 900 <= step < 1000):
                del loss
                gc.collect()
                samples[step] = tracemalloc.get_traced_memory()[0]
        last = _train_step(T, data, params).item()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    early = np.mean([v for k, v in samples.items() if k < 200])
    late = np.mean([v for k, v in samples.items() if k >= 900])
    print(f"\ntraced memory: steps 100-200 mean {early:.0f} B, steps 900-1000 mean {late:.0f} B, "
          f"growth {late - early:+.0f} B, peak {peak} B; loss {first:.3f} -> {last:.3g}")
    assert last < first / 10, "the loop did not train: the test would prove nothing"
    assert late - early <= 2048, f"memory grew by {late - early:.0f} B between steps 100-200 and 900-1000"


def test_training_loop_creates_no_reference_cycles(fg):
    T = fg
    data, params = _mlp(T, seed=1)
    _train_step(T, data, params)         # warm-up: imports, caches
    gc.collect()
    gc.disable()
    old_flags = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(50):
            _train_step(T, data, params)
        found = gc.collect()
        ours = [o for o in gc.garbage if type(o).__module__.startswith("flowgrad")]
        kinds = sorted({type(o).__qualname__ for o in ours})
    finally:
        gc.set_debug(old_flags)
        gc.garbage.clear()
        gc.enable()
    assert ours == [], f"{found} objects in reference cycles, {len(ours)} of them flowgrad's: {kinds}"


def test_training_loop_with_hooks_and_retained_grads_creates_no_reference_cycles(fg):
    """Hooks (closures over tensors), retain_grad and autograd.grad in the loop."""
    T = fg
    data, params = _mlp(T, seed=2)
    X, Y = data
    W1, b1, W2, b2 = params

    def step():
        h = T.tanh(X @ W1 + b1)
        h.retain_grad()
        h.register_hook(lambda g: g * 1.0)
        out = h @ W2 + b2
        loss = ((out - Y) ** 2).mean()
        gW2, = T.autograd.grad(loss, W2, retain_graph=True)
        loss.backward()
        with T.no_grad():
            for p in params:
                p -= 0.05 * p.grad
                p.grad = None
        return gW2, h.grad

    step()
    gc.collect()
    gc.disable()
    old_flags = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(30):
            step()
        found = gc.collect()
        kinds = sorted({type(o).__qualname__ for o in gc.garbage if type(o).__module__.startswith("flowgrad")})
    finally:
        gc.set_debug(old_flags)
        gc.garbage.clear()
        gc.enable()
    assert kinds == [], f"{found} objects in reference cycles; flowgrad types among them: {kinds}"


# ------------------------------------------------------------------------------------ create_graph warning

_WARN_SCRIPT = textwrap.dedent("""
    import importlib, json, sys, warnings
    T = importlib.import_module(sys.argv[1])
    warnings.simplefilter("always")
    out = {}
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        T.autograd.grad((x ** 3).sum(), x, create_graph=True)
    out["grad"] = [str(m.message) for m in w]
    with warnings.catch_warnings(record=True) as w:
        (x ** 3).sum().backward(create_graph=True)
    out["backward"] = [(m.category.__name__, str(m.message)) for m in w]
    x.grad = None
    print("REPORT " + json.dumps(out))
""")


@pytest.mark.parametrize("module", ["flowgrad.torch", "torch"])
def test_backward_create_graph_warns_about_the_reference_cycle(module):
    """A fresh process each (PyTorch warns once per process); autograd.grad does not warn."""
    if importlib.util.find_spec(module.split(".")[0]) is None:
        pytest.skip(f"{module} is not installed")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", _WARN_SCRIPT, module], capture_output=True, text=True,
                          cwd=str(REPO), env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(next(ln for ln in proc.stdout.splitlines() if ln.startswith("REPORT "))[7:])
    assert not any("reference cycle" in m for m in report["grad"])
    cycle = [(c, m) for c, m in report["backward"] if "reference cycle" in m]
    assert len(cycle) == 1, report["backward"]
    category, message = cycle[0]
    assert category == "UserWarning"
    assert message.startswith("Using backward() with create_graph=True will create a reference cycle between the "
                              "parameter and its gradient which can cause a memory leak.")
    assert "reset the .grad fields of your parameters to None" in message
