"""flowgrad.autograd.dot: the backward graph as DOT text, rendered with Graphviz when it is installed."""
from __future__ import annotations

import re
import shutil

import pytest

from flowgrad.autograd import dot

HAVE_DOT = shutil.which("dot") is not None


def mlp_loss(torch):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
    loss = model(torch.randn(5, 3)).pow(2).mean()
    return model, loss


def labels(text: str) -> list[str]:
    return re.findall(r'\[label="([^"]*)"', text)


def test_dot_text_names_nodes_parameters_and_saved_shapes(ftorch):
    model, loss = mlp_loss(ftorch)
    text = dot.to_dot(loss, dict(model.named_parameters()))
    assert text.startswith("digraph backward {\n") and text.endswith("}\n")
    found = labels(text)
    assert "output\\n()" in found
    assert "MeanBackward0" in found
    assert "PowBackward0\\nself: (5, 2)" in found
    assert "TanhBackward0\\nresult: (5, 4)" in found
    for name, p in model.named_parameters():
        assert f"{name}\\n{tuple(p.shape)}" in found
    assert sum(1 for lab in found if lab.startswith("AddmmBackward0")) == 2


def test_edges_point_from_inputs_to_their_consumer(ftorch):
    x = ftorch.ones(2, requires_grad=True)
    y = (x * 2).sum()
    text = dot.to_dot(y, {"x": x})
    ids = {lab.split("\\n")[0]: nid for nid, lab in re.findall(r'^  (\w+) \[label="([^"]*)"', text, re.M)}
    assert f"  {ids['x']} -> {ids['MulBackward0']};" in text
    assert f"  {ids['MulBackward0']} -> {ids['SumBackward0']};" in text
    assert f"  {ids['SumBackward0']} -> {ids['output']};" in text


def test_unnamed_leaves_and_several_outputs(ftorch):
    a = ftorch.ones(2, 3, requires_grad=True)
    b = a.exp()
    text = dot.to_dot([b.sum(), b.mean()])
    found = labels(text)
    assert found.count("output\\n()") == 2
    assert "leaf\\n(2, 3)" in found
    assert sum(1 for lab in found if lab.startswith("ExpBackward0")) == 1    # shared node drawn once


def test_custom_function_saved_tensors_are_shown(ftorch):
    class Cube(ftorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x ** 2

    y = Cube.apply(ftorch.ones(4, requires_grad=True)).sum()
    assert "CubeBackward\\nsaved[0]: (4,)" in labels(dot.to_dot(y))


def test_tensor_without_graph_gives_just_the_output(ftorch):
    text = dot.to_dot(ftorch.ones(3))
    assert labels(text) == ["output\\n(3,)"]


def test_hundred_thousand_node_chain_without_recursion(ftorch):
    x = ftorch.ones(1, requires_grad=True)
    h = x
    for _ in range(100_000):
        h = h * 1.0
    text = dot.to_dot(h)
    assert text.count("MulBackward0") == 100_000
    assert text.count(" -> ") == 100_001


@pytest.mark.skipif(not HAVE_DOT, reason="Graphviz `dot` is not installed")
def test_render_mlp_graph_to_svg(ftorch, tmp_path):
    model, loss = mlp_loss(ftorch)
    svg = dot.render(loss, dict(model.named_parameters()), format="svg")
    assert svg.lstrip().startswith(b"<?xml") and b"<svg" in svg
    assert b"0.weight" in svg and b"TanhBackward0" in svg
    path = tmp_path / "mlp.svg"
    assert dot.render(loss, dict(model.named_parameters()), filename=str(path)) == str(path)
    assert path.read_bytes() == svg


@pytest.mark.skipif(not HAVE_DOT, reason="Graphviz `dot` is not installed")
def test_render_png(ftorch):
    _, loss = mlp_loss(ftorch)
    assert dot.render(loss, format="png").startswith(b"\x89PNG\r\n\x1a\n")


def test_render_without_graphviz_raises_a_clear_error(ftorch, monkeypatch):
    monkeypatch.setattr(dot.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match=r"^Graphviz's `dot` program was not found on PATH.*apt-get install "
                                           r"graphviz.*to_dot\(\)"):
        dot.render(ftorch.ones(2, requires_grad=True) * 2)


def test_render_refuses_other_formats(ftorch):
    with pytest.raises(ValueError, match=r"^format must be 'svg' or 'png', not 'pdf'$"):
        dot.render(ftorch.ones(2), format="pdf")
