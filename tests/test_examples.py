"""The example scripts run under flowgrad and print what they print under real PyTorch."""
from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys

import pytest

HAVE_TORCH = importlib.util.find_spec("torch") is not None


EXAMPLES = sorted(p for p in (pathlib.Path(__file__).parent.parent / "examples").glob("*.py")
                  if not p.name.startswith("paddle_"))


def _run(path, *args):
    res = subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    return res.stdout


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs_under_flowgrad(path):
    assert _run(path).strip()


@pytest.mark.skipif(not HAVE_TORCH, reason="real torch is not installed")
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_prints_what_real_torch_prints(path):
    assert _run(path) == _run(path, "--real")
