"""Fixtures for the paddle facade: each behaviour is written once as paddle code and runs against
`flowgrad.paddle` and, where installed, real paddle 3.3.1 (the oracle)."""
from __future__ import annotations

import importlib

import pytest

from paddle_isolation import HAVE_PADDLE

_PADDLES = ["flowgrad"] + (["real"] if HAVE_PADDLE else [])


def _reset(mod) -> None:
    mod.set_grad_enabled(True)
    mod.set_flags({"FLAGS_call_stack_level": 1})
    mod.set_printoptions(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)


@pytest.fixture(params=_PADDLES)
def paddle(request):
    """`flowgrad.paddle`, then real paddle when installed: the same test body runs on both."""
    mod = importlib.import_module("paddle" if request.param == "real" else "flowgrad.paddle")
    _reset(mod)
    yield mod
    _reset(mod)


@pytest.fixture
def fpaddle():
    """flowgrad's paddle facade alone (for what real paddle cannot do without crashing)."""
    mod = importlib.import_module("flowgrad.paddle")
    _reset(mod)
    yield mod
    _reset(mod)


@pytest.fixture
def real_paddle():
    """Real paddle alone; skips where it is absent."""
    mod = pytest.importorskip("paddle")
    _reset(mod)
    yield mod
    _reset(mod)
