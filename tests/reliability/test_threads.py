"""Threads: backward from several threads at once.

* independent graphs built and differentiated by 8 threads at once give the right answers;
* several threads accumulating into one shared leaf lose no contribution (PyTorch serialises
  AccumulateGrad per leaf);
* grad mode, anomaly mode and inference mode set in one thread, and the grad mode the engine sets
  while it runs a backward, do not leak into another thread.

Every test runs against flowgrad.torch and real torch (the `torch` fixture of tests/conftest.py),
except the anomaly-mode ones: real torch's anomaly flag is process-wide, flowgrad's thread-local.
Threads start together at a barrier, and the interpreter's switch interval is shortened so that
they interleave finely.
"""
from __future__ import annotations

import sys
import threading
import warnings

import numpy as np
import pytest

N_THREADS = 8


@pytest.fixture(autouse=True)
def fine_interleaving():
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def run_threads(n: int, target) -> None:
    """Run `target(i, barrier)` in n threads; re-raise the first exception any of them raised."""
    barrier = threading.Barrier(n)
    errors: list = []

    def wrap(i):
        try:
            target(i, barrier)
        except BaseException as e:  # noqa: BLE001 - reported in the main thread
            errors.append(e)
            barrier.abort()

    threads = [threading.Thread(target=wrap, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        raise errors[0]


def test_backward_on_independent_graphs_from_8_threads(torch):
    """f(x) = sum(sin(x) * x**2 + exp(-x) * w), w broadcast over rows; 30 rounds per thread."""
    rounds = 30

    def work(i, barrier):
        rng = np.random.default_rng(i)
        barrier.wait()
        for r in range(rounds):
            xv = rng.uniform(-2, 2, size=(4, 3))
            wv = rng.uniform(-2, 2, size=(3,))
            x = torch.tensor(xv, requires_grad=True)
            w = torch.tensor(wv, requires_grad=True)
            h = torch.sin(x) * x ** 2
            h.retain_grad()
            scale = float(i + 1)
            h.register_hook(lambda g, s=scale: g * s)
            y = (h + torch.exp(-x) * w).sum()
            y.backward(retain_graph=bool(r % 2))
            ex = scale * (np.cos(xv) * xv ** 2 + 2 * xv * np.sin(xv)) - np.exp(-xv) * wv
            np.testing.assert_allclose(x.grad.numpy(), ex, rtol=1e-10, atol=1e-12)
            np.testing.assert_allclose(w.grad.numpy(), np.exp(-xv).sum(0), rtol=1e-10)
            np.testing.assert_allclose(h.grad.numpy(), np.full((4, 3), scale))
            if r % 2:
                (gx,) = torch.autograd.grad(y, x)
                np.testing.assert_allclose(gx.numpy(), ex, rtol=1e-10, atol=1e-12)

    run_threads(N_THREADS, work)


@pytest.mark.parametrize("size", [1, 200_000], ids=["scalar", "200k-elements"])
def test_threads_accumulating_into_one_shared_leaf_lose_no_contribution(torch, size):
    """8 threads x 25 backward passes into the same leaf, starting from `.grad is None` in each of
    several trials: the total must be the exact sum of all contributions (small integers, so the
    float64 sum is exact whatever the order)."""
    trials, passes = 6, 25
    w = torch.zeros(size, dtype=torch.float64, requires_grad=True)
    expected = float(passes * sum(range(1, N_THREADS + 1)))
    for trial in range(trials):
        w.grad = None

        def work(i, barrier):
            c = float(i + 1)
            barrier.wait()
            for _ in range(passes):
                (w * c).sum().backward()

        run_threads(N_THREADS, work)
        g = w.grad.numpy()
        lost = expected - g
        assert np.all(lost == 0), (f"trial {trial}: {np.count_nonzero(lost)} of {size} elements lost "
                                   f"contributions (expected {expected}, got min {g.min()} max {g.max()})")


def test_shared_leaf_used_by_graphs_of_several_threads_with_hooks(torch):
    """A shared leaf with a leaf hook (x2) and a post-accumulate hook counting calls, 8 threads."""
    passes = 20
    w = torch.ones(3, dtype=torch.float64, requires_grad=True)
    calls = []
    lock = threading.Lock()
    w.register_hook(lambda g: g * 2)

    def count(t):
        with lock:
            calls.append(1)

    w.register_post_accumulate_grad_hook(count)

    def work(i, barrier):
        barrier.wait()
        for _ in range(passes):
            (w * w).sum().backward()      # d/dw = 2w = 2, hooked: 4

    run_threads(N_THREADS, work)
    assert len(calls) == N_THREADS * passes
    np.testing.assert_array_equal(w.grad.numpy(), np.full(3, 4.0 * N_THREADS * passes))


def test_grad_mode_set_in_one_thread_does_not_leak_into_another(torch):
    inside = threading.Event()
    checked = threading.Event()
    seen = {}

    def no_grad_thread():
        with torch.no_grad():
            seen["thread_enabled"] = torch.is_grad_enabled()
            inside.set()
            checked.wait(30)
        torch.set_grad_enabled(False)       # a bare call in a thread: that thread only

    t = threading.Thread(target=no_grad_thread)
    t.start()
    assert inside.wait(30)
    try:
        assert torch.is_grad_enabled()
        x = torch.ones(2, requires_grad=True)
        assert (x * 2).grad_fn is not None
    finally:
        checked.set()
        t.join(30)
    assert seen["thread_enabled"] is False
    assert torch.is_grad_enabled()


def test_thread_started_inside_no_grad_sees_the_default_modes(torch):
    seen = {}

    def child():
        seen["grad"] = torch.is_grad_enabled()
        seen["inference"] = torch.is_inference_mode_enabled()
        x = torch.ones(2, requires_grad=True)
        seen["records"] = (x * 2).grad_fn is not None

    with torch.no_grad():
        t = threading.Thread(target=child)
        t.start()
        t.join(30)
    with torch.inference_mode():
        t2 = threading.Thread(target=lambda: seen.__setitem__("inference2", torch.is_inference_mode_enabled()))
        t2.start()
        t2.join(30)
    assert seen == {"grad": True, "inference": False, "records": True, "inference2": False}


# Anomaly mode: flowgrad keeps it thread-local like grad mode (DESIGN.md, autograd/mode.py). Real
# torch differs here - its AnomalyMode flag is one process-wide static - so these two tests run on
# flowgrad only.

def test_thread_started_inside_detect_anomaly_sees_it_off(ftorch):
    torch = ftorch
    seen = {}

    def child():
        seen["anomaly"] = torch.is_anomaly_enabled()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly():
            t = threading.Thread(target=child)
            t.start()
            t.join(30)
    assert seen == {"anomaly": False}


def test_anomaly_mode_set_in_one_thread_does_not_leak_into_another(ftorch):
    torch = ftorch
    inside = threading.Event()
    checked = threading.Event()
    seen = {}

    def anomaly_thread():
        torch.autograd.set_detect_anomaly(True)
        try:
            seen["thread"] = torch.is_anomaly_enabled()
            inside.set()
            checked.wait(30)
        finally:
            torch.autograd.set_detect_anomaly(False)

    t = threading.Thread(target=anomaly_thread)
    t.start()
    assert inside.wait(30)
    try:
        assert not torch.is_anomaly_enabled()
        # NaN in backward is silent outside anomaly mode: this thread must not raise.
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        with np.errstate(all="ignore"):
            (x.sqrt() * 0).sum().backward()
        assert np.isnan(x.grad.numpy()[0])
    finally:
        checked.set()
        t.join(30)
    assert seen["thread"] is True


def test_grad_mode_of_a_running_backward_does_not_leak_into_another_thread(torch):
    """While thread A is inside a (create_graph=False) backward - where the engine disables grad
    mode - thread B records graphs as usual; and while A runs a create_graph backward started
    under no_grad, B's no_grad still holds."""
    for create_graph in (False, True):
        in_hook = threading.Event()
        release = threading.Event()
        seen = {}

        def hook(g):
            seen["a_in_backward"] = torch.is_grad_enabled()
            in_hook.set()
            release.wait(30)
            return g

        def thread_a():
            x = torch.ones(3, requires_grad=True)
            y = x * 3
            y.register_hook(hook)
            s = y.sum()
            with torch.no_grad():
                torch.autograd.backward(s, create_graph=create_graph)

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = threading.Thread(target=thread_a)
            t.start()
            try:
                assert in_hook.wait(30)
                seen["b_enabled"] = torch.is_grad_enabled()
                z = torch.ones(2, requires_grad=True)
                seen["b_records"] = (z * 2).grad_fn is not None
                with torch.no_grad():
                    seen["b_no_grad"] = (z * 2).grad_fn is None
            finally:
                release.set()
                t.join(30)
        assert seen == {"a_in_backward": create_graph, "b_enabled": True, "b_records": True, "b_no_grad": True}
