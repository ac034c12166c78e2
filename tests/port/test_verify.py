"""The example scripts ported between the frameworks run, and --verify finds each port equivalent
to its original step by step; where a port cannot be, the test pins why."""
from __future__ import annotations

import pathlib

import pytest

from .conftest import NEEDS_LIBCST

pytest.importorskip("libcst", reason=NEEDS_LIBCST)

from flowgrad.port.translate import port_source
from flowgrad.port.verify import compare, verify

EXAMPLES = pathlib.Path(__file__).parent.parent.parent / "examples"
TORCH_EXAMPLES = sorted(p.stem for p in EXAMPLES.glob("*.py") if not p.name.startswith(("paddle_", "oneflow_")))

#: Ports that --verify finds equivalent.
EQUIVALENT = [
    *(("torch", "oneflow", name) for name in TORCH_EXAMPLES),
    ("torch", "paddle", "fit_polynomial"),
    ("torch", "paddle", "polynomial_custom_function"),
    ("torch", "paddle", "dynamic_net"),
    ("paddle", "torch", "paddle_regression"),
    ("oneflow", "torch", "oneflow_regression"),
]
#: Ports that leave uses in place (what has no counterpart in the target facade), each use listed.
LEFT = {
    ("torch", "paddle", "conv_net"): {"torch.optim.lr_scheduler.StepLR"},
    ("torch", "paddle", "checkpoint_resume"): {"torch.optim.lr_scheduler.CosineAnnealingLR"},
    ("torch", "paddle", "sequential_rmsprop"): {"torch.optim.lr_scheduler.ExponentialLR"},
}


def _run(source, target, name, **kw):
    path = EXAMPLES / f"{name}.py"
    code = path.read_text()
    ported, outcome = port_source(code, source, target)
    return ported, outcome, verify(str(path), code, ported, source, target, **kw)


@pytest.mark.parametrize("source, target, name", EQUIVALENT, ids=lambda v: v)
def test_example_port_is_equivalent(source, target, name):
    ported, outcome, verdict = _run(source, target, name)
    assert verdict.failure is None, verdict.message
    assert verdict.equivalent, verdict.message
    assert verdict.steps > 0 and verdict.compared > 0
    assert f"import {target}" in ported and not outcome.left


@pytest.mark.parametrize("key", sorted(LEFT), ids=lambda k: "-".join(k))
def test_example_port_leaves_what_has_no_counterpart(key):
    source, target, name = key
    ported, outcome = port_source((EXAMPLES / f"{name}.py").read_text(), source, target)
    left = {api for api, _ in outcome.left if not api.endswith("=)")}
    assert left == LEFT[key]
    assert ported.count("# flowgrad port: ") >= len(LEFT[key])


def test_paddle_backward_doc_port_is_flagged_and_fails_where_torch_differs():
    """paddle's doc example seeds ones for non-scalar outputs and zero-fills `.grad` with the
    Tensor's clear_grad: neither has a torch counterpart, and the port says so."""
    ported, outcome, verdict = _run("paddle", "torch", "paddle_backward_doc")
    assert ("paddle.Tensor.clear_grad" in {api for api, _ in outcome.assumed})
    assert [line for line, kind, _ in outcome.flags if kind == "nonscalar_backward"] == [32]
    assert verdict.failure["side"] == "ported"
    assert "'Tensor' object has no attribute 'clear_grad'" in verdict.failure["traceback"]


PLANTED = '''import paddle

x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
y = x * 2
y.backward()
print(x.grad)
'''


def test_planted_nonscalar_backward_fails_on_the_ported_side(tmp_path):
    path = tmp_path / "planted.py"
    path.write_text(PLANTED)
    ported, outcome = port_source(PLANTED, "paddle", "torch")
    assert [kind for _, kind, _ in outcome.flags] == ["nonscalar_backward"]
    verdict = verify(str(path), PLANTED, ported, "paddle", "torch")
    assert not verdict.equivalent and verdict.failure["side"] == "ported"
    assert "grad can be implicitly created only for scalar outputs" in verdict.failure["traceback"]
    assert verdict.message.startswith("the ported script failed under --verify (torch facade):\nTraceback")


def test_original_failing_is_reported_as_the_original(tmp_path):
    path = tmp_path / "broken.py"
    code = "import torch\nx = torch.ones(2)\nraise ValueError('boom')\n"
    path.write_text(code)
    ported, _ = port_source(code, "torch", "paddle")
    verdict = verify(str(path), code, ported, "torch", "paddle")
    assert verdict.failure["side"] == "original" and "ValueError: boom" in verdict.failure["traceback"]


def test_difference_names_the_step_and_the_tensor(tmp_path):
    import numpy as np
    a = [(1, "leaf #0 (2,)", np.array([1.0, 2.0])), (2, "leaf #0 (2,)", np.array([1.0, 2.0]))]
    b = [(1, "leaf #0 (2,)", np.array([1.0, 2.0])), (2, "leaf #0 (2,)", np.array([1.0, 2.5]))]
    verdict = compare(a, b, None, 1e-5, 1e-7)
    assert not verdict.equivalent and verdict.difference == {"step": 2, "tensor": "leaf #0 (2,)", "max_abs": 0.5}
    assert verdict.message == "differ at step 2: leaf #0 (2,) (max abs difference 0.5, tolerance rtol=1e-05 atol=1e-07)"
    assert compare(a, a, None, 1e-5, 1e-7).message.startswith("equivalent for 2 steps (2 tensors compared")
    transposed = [(1, "leaf #0 (2, 3)", np.arange(6.0).reshape(2, 3))]
    assert compare(transposed, [(1, "w", np.arange(6.0).reshape(2, 3).T)], None, 1e-5, 1e-7).equivalent
