"""The example scripts run under flowgrad and print what they print under real PyTorch."""
from __future__ import annotations

import functools
import importlib.util
import pathlib
import subprocess
import sys

import pytest

HAVE_TORCH = importlib.util.find_spec("torch") is not None


EXAMPLES = sorted(p for p in (pathlib.Path(__file__).parent.parent / "examples").glob("*.py")
                  if not p.name.startswith(("paddle_", "oneflow_")))
ONEFLOW_EXAMPLES = sorted((pathlib.Path(__file__).parent.parent / "examples").glob("oneflow_*.py"))


@functools.cache     # each script runs once under flowgrad: its output serves every test
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


@pytest.mark.parametrize("path", ONEFLOW_EXAMPLES, ids=lambda p: p.stem)
def test_oneflow_example_runs_under_flowgrad(path):
    assert _run(path).strip()


@pytest.mark.skipif(not HAVE_TORCH, reason="real torch is not installed")
@pytest.mark.parametrize("path", ONEFLOW_EXAMPLES, ids=lambda p: p.stem)
def test_oneflow_example_prints_what_the_same_program_prints_under_real_torch(path, tmp_path):
    """OneFlow does not install here; where its API is PyTorch's, the program run as `import torch
    as flow` on real torch is the oracle."""
    lines = path.read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith('if "--real" not in sys.argv'))
    del lines[start:start + 3]
    as_torch = tmp_path / path.name
    as_torch.write_text("".join(lines).replace("import oneflow as flow\n", "import torch as flow\n"))
    assert "oneflow" not in as_torch.read_text().split('"""')[-1]
    assert _run(path) == _run(as_torch)
