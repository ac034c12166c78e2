"""The functions a port writes into the ported file (flowgrad/port/helpers.py): where they go, what the
summary says of them, and that each computes on real paddle what the source framework computes."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from .conftest import NEEDS_LIBCST

pytest.importorskip("libcst", reason=NEEDS_LIBCST)

from flowgrad.port import summary  # noqa: E402
from flowgrad.port.helpers import BY_NAME  # noqa: E402
from flowgrad.port.translate import COMMENT, port_source  # noqa: E402

PADDED = '''import torch
from torch.nn.utils.rnn import pad_sequence

x = pad_sequence([torch.ones(2), torch.ones(3)], batch_first=True)
y = torch.nn.utils.rnn.pad_sequence([torch.ones(1)])
'''


def test_pad_sequence_is_written_into_the_port_after_the_imports():
    code, out = port_source(PADDED, "torch", "paddle")
    head = (f"import paddle\n\n\n{COMMENT}added: "
            "torch.nn.utils.rnn.pad_sequence has no paddle counterpart; this function computes it in paddle's "
            "public API\ndef pad_sequence(")
    assert code.startswith(head)
    assert code.count("def pad_sequence(") == 1
    assert "\ny = pad_sequence([paddle.ones([1])])\n" in code
    assert out.added == {("torch.nn.utils.rnn.pad_sequence", "pad_sequence"): 2}
    assert not any(api.endswith("pad_sequence") for api, _ in out.left)
    report = summary.as_json(out, "torch", "paddle")
    assert report["added"] == [{"api": "torch.nn.utils.rnn.pad_sequence", "count": 2, "function": "pad_sequence"}]
    assert "  added (written in paddle's API):\n       2  torch.nn.utils.rnn.pad_sequence  (pad_sequence)" in \
        summary.text(out, "torch", "paddle")


def test_a_port_without_the_frameworks_root_imports_it_for_the_helper():
    code, _ = port_source("from torch.nn.utils.rnn import pad_sequence\nx = pad_sequence(xs)\n", "torch", "paddle")
    assert code.startswith(f"import paddle\n\n\n{COMMENT}added: ") and "paddle.stack(rows)" in code


OPTIMIZERS = '''import torch


def make(seed):
    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
    return model, optimizer


model, optimizer = make(0)
saved = optimizer.state_dict()
model2, optimizer2 = make(1)
optimizer2.load_state_dict(saved)
model2.load_state_dict(model.state_dict())
'''


def test_optimizer_state_is_saved_and_loaded_by_place():
    """paddle keys an accumulator by its parameter's name, torch by the parameter's place: the port
    writes both by place, typing `optimizer2` through the function that returns it."""
    code, out = port_source(OPTIMIZERS, "torch", "paddle")
    assert "\nsaved = optimizer_state_dict(optimizer)\n" in code
    assert "\nload_optimizer_state_dict(optimizer2, saved)\nmodel2.set_state_dict(model.state_dict())\n" in code
    assert [line for line in code.split("\n") if line.startswith("def ")] == [
        "def optimizer_parameters(optimizer):", "def load_optimizer_state_dict(optimizer, state_dict):",
        "def optimizer_state_dict(optimizer):", "def make(seed):"]
    assert set(out.added) == {("torch.<optimizer>.state_dict", "optimizer_state_dict"),
                              ("torch.<optimizer>.load_state_dict", "load_optimizer_state_dict")}


def _define(name: str, module) -> dict:
    scope = {"np": np}
    for need in (*BY_NAME[name].needs, name):
        exec(BY_NAME[need].code.replace("{root}", "paddle"), scope)
    scope["paddle"] = module
    return scope


def _paddles():
    real = importlib.util.find_spec("paddle") is not None
    return ["flowgrad.paddle"] + (["paddle"] if real else [])


@pytest.mark.parametrize("module", _paddles())
@pytest.mark.parametrize("batch_first, side", [(True, "right"), (False, "right"), (False, "left")])
def test_pad_sequence_helper_matches_torch(module, batch_first, side):
    torch = pytest.importorskip("torch")
    paddle = importlib.import_module(module)
    rng = np.random.default_rng(0)
    arrays = [rng.normal(size=(n, 2)) for n in (3, 1, 4)]
    pad = _define("pad_sequence", paddle)["pad_sequence"]
    xs = [paddle.to_tensor(a, stop_gradient=False) for a in arrays]
    out = pad(xs, batch_first=batch_first, padding_value=-1.5, padding_side=side)
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    expected = torch.nn.utils.rnn.pad_sequence(ts, batch_first=batch_first, padding_value=-1.5, padding_side=side)
    np.testing.assert_array_equal(out.numpy(), expected.detach().numpy())
    weights = rng.normal(size=tuple(expected.shape))
    (out * paddle.to_tensor(weights)).sum().backward()
    (expected * torch.tensor(weights)).sum().backward()
    for x, t in zip(xs, ts):
        np.testing.assert_array_equal(x.grad.numpy(), t.grad.numpy())
    with pytest.raises(RuntimeError, match="Expected padding_side to be one of left or right, but got middle."):
        pad(xs, padding_side="middle")
    with pytest.raises(RuntimeError, match="Expected padding_side to be one of left or right, but got middle."):
        torch.nn.utils.rnn.pad_sequence(ts, padding_side="middle")


@pytest.mark.parametrize("module", _paddles())
def test_optimizer_state_by_place_loads_into_other_parameters(module):
    """A second model's optimizer (other parameter names) loads the first one's state by place and
    then steps as the first one does; paddle's own state dict cannot be loaded there."""
    paddle = importlib.import_module(module)
    scope = _define("optimizer_state_dict", paddle)
    scope.update(_define("load_optimizer_state_dict", paddle))
    x = paddle.to_tensor(np.arange(6.0).reshape(3, 2).astype("float32"))

    def step(layer, opt):
        layer(x).pow(2).sum().backward()
        opt.step()
        opt.clear_grad()

    layers = [paddle.nn.Linear(2, 2) for _ in range(3)]
    for layer in layers[1:]:
        layer.set_state_dict(layers[0].state_dict())
    opts = [paddle.optimizer.Adam(parameters=layer.parameters(), learning_rate=0.1) for layer in layers]
    step(layers[0], opts[0])
    saved = scope["optimizer_state_dict"](opts[0])
    assert sorted(saved["state"]) == [0, 1] and sorted(saved["state"][0]) == [
        "beta1_pow_acc_0", "beta2_pow_acc_0", "moment1_0", "moment2_0"]
    opts[2].set_state_dict(opts[0].state_dict())
    with pytest.raises(AssertionError, match="should in state dict"):
        step(layers[2], opts[2])
    layers[1].set_state_dict(layers[0].state_dict())
    scope["load_optimizer_state_dict"](opts[1], saved)
    for layer, opt in zip(layers[1::-1], opts[1::-1]):     # (the saved tensors are opts[0]'s own)
        step(layer, opt)
    np.testing.assert_array_equal(layers[0].weight.numpy(), layers[1].weight.numpy())


@pytest.mark.parametrize("module", _paddles())
@pytest.mark.parametrize("torch_name, paddle_name, kwargs, buffers", [
    ("SGD", "Momentum", {"momentum": 0.9}, ["momentum_buffer"]),
    ("Adam", "Adam", {}, ["exp_avg", "exp_avg_sq"]),
])
def test_optimizer_state_reads_torchs_buffers_from_paddles_accumulators(module, torch_name, paddle_name, kwargs,
                                                                        buffers):
    torch = pytest.importorskip("torch")
    paddle = importlib.import_module(module)
    state = _define("optimizer_state", paddle)["optimizer_state"]
    rng = np.random.default_rng(1)
    w0, x = rng.normal(size=(3, 2)), rng.normal(size=(4, 3))
    pw, tw = paddle.to_tensor(w0, stop_gradient=False), torch.tensor(w0, requires_grad=True)
    popt = getattr(paddle.optimizer, paddle_name)(learning_rate=0.1, parameters=[pw], **kwargs)
    topt = getattr(torch.optim, torch_name)([tw], lr=0.1, **kwargs)
    assert state(popt) == {pw: {}}
    for _ in range(3):
        (paddle.to_tensor(x) @ pw).tanh().sum().backward()
        popt.step()
        popt.clear_grad()
        (torch.tensor(x) @ tw).tanh().sum().backward()
        topt.step()
        topt.zero_grad()
    got = state(popt)[pw]
    assert sorted(got) == buffers
    for name in buffers:
        np.testing.assert_allclose(got[name].numpy(), topt.state[tw][name].numpy(), rtol=1e-6)   # (real paddle keeps its rate as float32)


def test_an_optimizers_state_is_read_through_the_written_function():
    code, out = port_source("import torch\nopt = torch.optim.Adam(ps)\nm = opt.state[p]['exp_avg']\n", "torch", "paddle")
    assert "\nm = optimizer_state(opt)[p]['exp_avg']\n" in code and not out.left
