"""Deep and wide graphs: no recursion over graph depth anywhere, no quadratic fan-in.

* a 1,000,000-op chain builds, runs backward, answers repr / grad_fn / next_functions, exports to
  DOT (when flowgrad.autograd.dot exists) and is freed, without RecursionError or a crash. It runs
  in a subprocess so that a crash (a C stack overflow in a recursive deallocation, say) is reported
  as a failure of this test instead of killing the test session;
* a leaf (and an interior node) used by 100,000 ops accumulates exactly;
* nested create_graph to the 4th order matches the analytic derivatives of x**5 and sin(x).
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
MILLION = 1_000_000

_CHAIN_SCRIPT = textwrap.dedent("""
    import gc, json, sys, time, weakref
    import flowgrad.torch as torch

    n = int(sys.argv[1])
    report = {}
    t0 = time.perf_counter()
    x = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
    y = x
    mid = None
    for i in range(n):
        # mostly additions (cheap), a multiplication every 100 ops (saves a value to release)
        y = y * 1.0001 if i % 100 == 99 else y + 0.25
        if i == n // 2:
            mid = weakref.ref(y.grad_fn)
    report["build_s"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    report["repr"] = repr(y)
    report["grad_fn"] = y.grad_fn.name()
    node, depth = y.grad_fn, 0          # walk next_functions to the leaf, iteratively
    while node is not None and node.next_functions:
        node = node.next_functions[0][0]
        depth += 1
    report["walk_depth"] = depth
    report["leaf_reached"] = node is not None and getattr(node, "variable", None) is x
    report["introspect_s"] = time.perf_counter() - t0

    try:
        from flowgrad.autograd import dot
    except ImportError:
        report["dot"] = None
    else:
        t0 = time.perf_counter()
        text = dot.to_dot(y)
        report["dot"] = {"chars": len(text), "lines": text.count("\\n"), "head": text[:40]}
        report["dot_s"] = time.perf_counter() - t0
        del text

    t0 = time.perf_counter()
    y.backward()
    report["backward_s"] = time.perf_counter() - t0
    report["grad"] = float(x.grad.item())
    report["value"] = float(y.item())

    t0 = time.perf_counter()
    del y, node
    report["mid_node_alive_after_del"] = mid() is not None
    report["gc_collected"] = gc.collect()
    report["free_s"] = time.perf_counter() - t0
    print("REPORT " + json.dumps(report))
""")


def _run_chain(n: int) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", _CHAIN_SCRIPT, str(n)], capture_output=True, text=True,
                          cwd=str(REPO), env=env, timeout=600)
    assert proc.returncode == 0, (f"the {n}-op chain process failed with return code {proc.returncode} "
                                  f"(negative: killed by a signal, e.g. a stack overflow)\n{proc.stderr[-4000:]}")
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("REPORT "))
    return json.loads(line[len("REPORT "):])


def _chain_expectation(n: int):
    """Value and derivative of the chain for x = 0.5 (muls every 100th op)."""
    v, d = 0.5, 1.0
    for i in range(n):
        if i % 100 == 99:
            v, d = v * 1.0001, d * 1.0001
        else:
            v = v + 0.25
    return v, d


def test_million_op_chain_builds_backprops_introspects_exports_and_frees():
    t0 = time.perf_counter()
    r = _run_chain(MILLION)
    total = time.perf_counter() - t0
    print(f"\n1M-op chain: total {total:.1f}s, " + ", ".join(f"{k} {v:.1f}s" for k, v in r.items()
                                                          if k.endswith("_s")))
    v, d = _chain_expectation(MILLION)
    assert r["grad"] == pytest.approx(d, rel=1e-9)
    assert r["value"] == pytest.approx(v, rel=1e-9)
    assert r["grad_fn"] == "MulBackward0"          # op 999,999 is a multiplication
    assert r["repr"].startswith("tensor(") and "grad_fn=<MulBackward0>" in r["repr"]
    assert r["walk_depth"] == MILLION and r["leaf_reached"]
    assert not r["mid_node_alive_after_del"], "the graph outlived its last tensor"
    if r["dot"] is not None:
        assert r["dot"]["head"].lstrip().startswith(("digraph", "strict digraph"))
        assert r["dot"]["lines"] >= MILLION


def test_100k_chain_retain_graph_twice_then_autograd_grad(torch):
    n = 100_000
    x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
    y = x
    for i in range(n):
        y = y * 1.0001 if i % 100 == 99 else y - 0.125
    loss = (y * y).sum()
    loss.backward(retain_graph=True)
    g1 = x.grad.numpy().copy()
    loss.backward(retain_graph=True)
    np.testing.assert_allclose(x.grad.numpy(), 2 * g1, rtol=1e-12)
    (gx,) = torch.autograd.grad(loss, x)
    np.testing.assert_allclose(gx.numpy(), g1, rtol=1e-12)
    c = 1.0001 ** (n // 100)
    yv = x.detach().numpy()
    for i in range(n):
        yv = yv * 1.0001 if i % 100 == 99 else yv - 0.125
    np.testing.assert_allclose(g1, 2 * yv * c, rtol=1e-9)


def test_create_graph_through_a_20k_chain(torch):
    """Second order through a deep chain: d2/dx2 of (chain(x))**3 where chain adds constants."""
    n = 20_000
    x = torch.tensor([0.3, -0.7], dtype=torch.float64, requires_grad=True)
    y = x
    for _ in range(n):
        y = y + 0.0001
    loss = (y ** 3).sum()
    (g,) = torch.autograd.grad(loss, x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    yv = x.detach().numpy() + n * 0.0001
    np.testing.assert_allclose(g.detach().numpy(), 3 * yv ** 2, rtol=1e-9)
    np.testing.assert_allclose(gg.numpy(), 6 * yv, rtol=1e-9)


def test_leaf_used_by_100k_ops_accumulates_exactly(torch):
    n = 100_000
    x = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
    terms = [x * float(i % 7) for i in range(n)]
    torch.stack(terms).sum().backward()
    assert x.grad.item() == float(sum(i % 7 for i in range(n)))


def test_interior_node_used_by_100k_ops_sums_its_gradients_before_running(torch):
    """h = exp(x) feeds 100k ops; its node must run once, with the sum of 100k gradients."""
    n = 100_000
    x = torch.tensor([0.25, -0.5], dtype=torch.float64, requires_grad=True)
    h = torch.exp(x)
    calls = []
    h.register_hook(lambda g: calls.append(1))
    acc = [h * float(i % 5) for i in range(n)]
    torch.stack(acc).sum().backward()
    assert calls == [1]
    np.testing.assert_allclose(x.grad.numpy(), np.exp(x.detach().numpy()) * sum(i % 5 for i in range(n)),
                               rtol=1e-12)


def test_leaf_reused_through_a_deep_and_wide_graph(torch):
    """Every op of a 50k chain also uses the leaf directly: acc = acc * 0.5 + x."""
    n = 50_000
    x = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    acc = torch.zeros((), dtype=torch.float64)
    for _ in range(n):
        acc = acc * 0.5 + x
    acc.backward()
    assert x.grad.item() == pytest.approx(2.0 * (1 - 0.5 ** n), rel=1e-12)


def test_node_with_100k_outputs(torch):
    """A multi-output node (unbind) with 100k outputs, each used once."""
    n = 100_000
    x = torch.arange(n, dtype=torch.float64).requires_grad_(True)
    parts = x.unbind(0)
    torch.stack([p * 2.0 for p in parts[::2]]).sum().backward()
    expected = np.zeros(n)
    expected[::2] = 2.0
    np.testing.assert_array_equal(x.grad.numpy(), expected)


@pytest.mark.parametrize("f, derivatives", [
    (lambda T, x: x ** 5, [lambda x: 5 * x ** 4, lambda x: 20 * x ** 3, lambda x: 60 * x ** 2, lambda x: 120 * x]),
    (lambda T, x: T.sin(x), [np.cos, lambda x: -np.sin(x), lambda x: -np.cos(x), np.sin]),
], ids=["x**5", "sin"])
def test_nested_create_graph_to_the_fourth_order(torch, f, derivatives):
    xv = np.array([-1.3, -0.2, 0.7, 2.0])
    x = torch.tensor(xv, dtype=torch.float64, requires_grad=True)
    y = f(torch, x)
    for order, d in enumerate(derivatives, start=1):
        (y,) = torch.autograd.grad(y.sum(), x, create_graph=True)
        np.testing.assert_allclose(y.detach().numpy(), d(xv), rtol=1e-12, atol=1e-12,
                                   err_msg=f"order {order}")
        assert y.requires_grad


def test_nested_backward_create_graph_to_the_fourth_order(torch):
    """The same with backward(create_graph=True) and .grad, re-seeding from the previous order."""
    xv = np.array([0.5, -1.5])
    expected = [5 * xv ** 4, 20 * xv ** 3, 60 * xv ** 2, 120 * xv]
    x = torch.tensor(xv, dtype=torch.float64, requires_grad=True)
    y = (x ** 5).sum()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # the create_graph reference-cycle warning
        for order, ex in enumerate(expected, start=1):
            x.grad = None
            y.backward(create_graph=True)
            g = x.grad
            np.testing.assert_allclose(g.detach().numpy(), ex, rtol=1e-12, err_msg=f"order {order}")
            y = g.sum()
    x.grad = None


@pytest.mark.skipif(importlib.util.find_spec("flowgrad.autograd.dot") is None,
                    reason="flowgrad.autograd.dot is not written yet")
def test_dot_export_of_a_100k_chain(ftorch):
    from flowgrad.autograd import dot
    x = ftorch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y + 1.0
    text = dot.to_dot(y)
    assert text.lstrip().startswith(("digraph", "strict digraph"))
    assert text.count("\n") >= 100_000
