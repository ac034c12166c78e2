"""Fixtures for the OneFlow facade. OneFlow does not install here, so its documented behaviour is
the oracle (written into each test); where OneFlow and PyTorch agree, `alike` runs the same
program on flowgrad.oneflow, flowgrad.torch and real torch (when installed) and compares."""
from __future__ import annotations

import importlib

import pytest

from same_program import alike  # noqa: F401  (re-exported for the tests)


@pytest.fixture
def flow():
    """flowgrad's OneFlow facade, grad mode on before and after the test."""
    mod = importlib.import_module("flowgrad.oneflow")
    mod.set_grad_enabled(True)
    yield mod
    mod.set_grad_enabled(True)
