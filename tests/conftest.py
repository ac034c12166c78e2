"""Shared fixtures: every behavioural test runs against flowgrad's facade and, where installed,
the real framework, so the real framework is the oracle for the test itself."""
from __future__ import annotations

import importlib
import importlib.util

import pytest

HAVE_TORCH = importlib.util.find_spec("torch") is not None
HAVE_PADDLE = importlib.util.find_spec("paddle") is not None

_TORCHES = ["flowgrad"] + (["real"] if HAVE_TORCH else [])


@pytest.fixture(params=_TORCHES)
def torch(request):
    """`flowgrad.torch`, then real torch when installed: the same test body runs on both."""
    if request.param == "real":
        mod = importlib.import_module("torch")
        mod.set_grad_enabled(True)
        return mod
    return importlib.import_module("flowgrad.torch")


@pytest.fixture
def real_torch():
    """Real torch, for tests that compare numbers; skips where torch is absent."""
    return pytest.importorskip("torch")


@pytest.fixture
def ftorch():
    """flowgrad's torch facade alone."""
    return importlib.import_module("flowgrad.torch")
