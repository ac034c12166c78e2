"""The paddle example scripts run under flowgrad's facade and print exactly what they print under
real paddle 3.3.1 (tests/test_examples.py leaves files named paddle_* to this module)."""
from __future__ import annotations

import functools
import pathlib
import subprocess
import sys

import pytest

from paddle_isolation import HAVE_PADDLE

EXAMPLES = sorted((pathlib.Path(__file__).parent.parent.parent / "examples").glob("paddle_*.py"))


@functools.cache     # each script runs once under flowgrad: its output serves every test
def _run(path, *args) -> str:
    res = subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_both_examples_exist():
    assert {p.name for p in EXAMPLES} >= {"paddle_regression.py", "paddle_backward_doc.py"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs_under_flowgrad(path):
    assert _run(path).strip()


@pytest.mark.skipif(not HAVE_PADDLE, reason="real paddle is not installed")
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_prints_what_real_paddle_prints(path):
    assert _run(path) == _run(path, "--real")


def _doc_outputs(text: str) -> list[str]:
    """The printed blocks of the docstring example, whitespace-normalised as doctest does."""
    blocks, current = [], None
    for line in text.splitlines():
        if line.startswith("Tensor("):
            current = [line]
        elif current is not None:
            current.append(line.strip())
            if line.rstrip().endswith("])"):
                blocks.append(" ".join(current))
                current = None
    return blocks


def test_backward_doc_example_prints_the_documented_outputs():
    """The three tensors paddle.autograd.backward's documentation prints for its example."""
    expected = [
        "Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=False, [[12., 18.], [17., 25.]])",
        "Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=False, [[12., 18.], [17., 25.]])",
        "Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=False, [[10., 14.], [10., 14.]])"]
    got = _doc_outputs(_run(pathlib.Path(__file__).parent.parent.parent / "examples" / "paddle_backward_doc.py"))
    assert got == expected
