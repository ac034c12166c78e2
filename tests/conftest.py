"""Shared fixtures: every behavioural test runs against flowgrad's facade and, where installed,
the real framework, so the real framework is the oracle for the test itself."""
from __future__ import annotations

import importlib
import importlib.util
import os

import pytest

from oracles import oracle_summary

HAVE_TORCH = importlib.util.find_spec("torch") is not None
HAVE_PADDLE = importlib.util.find_spec("paddle") is not None

_TORCHES = ["flowgrad"] + (["real"] if HAVE_TORCH else [])

# FLOWGRAD_TEST_DEVICE=fake (NumPy behind an array type NumPy refuses) or cuda runs every flowgrad
# tensor of the suites on that device; the real frameworks stay on the CPU.
TEST_DEVICE = os.environ.get("FLOWGRAD_TEST_DEVICE", "cpu")
if TEST_DEVICE == "fake":
    from flowgrad.testing import fake_device
    fake_device.register()


def _flowgrad_torch():
    mod = importlib.import_module("flowgrad.torch")
    mod.set_default_device(None if TEST_DEVICE == "cpu" else TEST_DEVICE)
    return mod


@pytest.fixture(params=_TORCHES)
def torch(request):
    """`flowgrad.torch`, then real torch when installed: the same test body runs on both."""
    if request.param == "real":
        mod = importlib.import_module("torch")
        mod.set_grad_enabled(True)
        return mod
    return _flowgrad_torch()


@pytest.fixture
def real_torch():
    """Real torch, for tests that compare numbers; skips where torch is absent."""
    return pytest.importorskip("torch")


@pytest.fixture
def ftorch():
    """flowgrad's torch facade alone."""
    return _flowgrad_torch()


# ------------------------------------------------------------------ what a run without the oracles left out

def pytest_collection_modifyitems(config, items):
    made = {"torch": 0, "paddle": 0}
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        for name in made:
            if params.get(name) == "flowgrad":
                made[name] += 1
    config._flowgrad_twins_not_made = made


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    reasons = []
    for rep in terminalreporter.stats.get("skipped", []):
        longrepr = rep.longrepr
        reasons.append(longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr))
    have = {"torch": HAVE_TORCH, "paddle": HAVE_PADDLE}
    for line in oracle_summary(reasons, getattr(config, "_flowgrad_twins_not_made", {}), have):
        terminalreporter.write_line(line, yellow=True)
