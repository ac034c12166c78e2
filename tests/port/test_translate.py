"""flowgrad port's translation: names, arguments and keywords derived from the facades."""
from __future__ import annotations

import pathlib

import pytest

from .conftest import NEEDS_LIBCST

pytest.importorskip("libcst", reason=NEEDS_LIBCST)

from flowgrad.port.translate import COMMENT, port_source  # noqa: E402

EXAMPLES = pathlib.Path(__file__).parent.parent.parent / "examples"


def _port(code: str, source="torch", target="paddle"):
    return port_source(code, source, target)


def test_fit_polynomial_to_paddle_keeps_layout_and_renames():
    code, out = _port((EXAMPLES / "fit_polynomial.py").read_text())
    assert 'shim.install("paddle")\nimport paddle\n' in code
    assert "x = paddle.linspace(-math.pi, math.pi, 200, dtype=dtype)" in code
    assert "a = paddle.to_tensor(0.1, dtype=dtype, stop_gradient=False)" in code
    assert "# flowgrad unless --real" in code           # comments survive
    assert out.rate() == 100.0 and not out.left


@pytest.mark.parametrize("source, target, line, expected", [
    ("torch", "paddle", "y = torch.sum(x, dim=1, keepdim=True)", "y = paddle.sum(x, axis=1, keepdim=True)"),
    ("torch", "paddle", "y = torch.cat([a, b], 1)", "y = paddle.concat([a, b], 1)"),
    ("torch", "paddle", "y = torch.clamp(x, min=0.0)", "y = paddle.clip(x, min=0.0)"),
    ("torch", "paddle", "y = x.unsqueeze(dim=-1)", "y = x.unsqueeze(axis=-1)"),
    ("torch", "paddle", "y = torch.zeros(2, 3)", "y = paddle.zeros([2, 3])"),
    ("torch", "paddle", "opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)",
     "opt = paddle.optimizer.Momentum(parameters=m.parameters(), learning_rate=0.1, momentum=0.9)"),
    ("torch", "paddle", "opt = torch.optim.Adam(m.parameters(), betas=(0.5, 0.9))",
     "opt = paddle.optimizer.Adam(parameters=m.parameters(), beta1=0.5, beta2=0.9)"),
    ("torch", "paddle", "class Net(torch.nn.Module): pass", "class Net(paddle.nn.Layer): pass"),
    # paddle's functional applies the same op through its channels-last layout helper
    ("torch", "paddle", "y = torch.nn.functional.max_pool2d(x, 2, return_indices=True)",
     "y = paddle.nn.functional.max_pool2d(x, 2, return_mask=True)"),
    ("torch", "paddle", "y = torch.nn.functional.conv2d(input=x, weight=w, groups=2)",
     "y = paddle.nn.functional.conv2d(x=x, weight=w, groups=2)"),
    ("paddle", "torch", "y = paddle.sum(x, axis=0)", "y = torch.sum(x, dim=0)"),
    ("paddle", "torch", "x = paddle.to_tensor([1.0], stop_gradient=False)", "x = torch.tensor([1.0], requires_grad=True)"),
    ("torch", "oneflow", "y = torch.sum(x, dim=1)", "y = oneflow.sum(x, dim=1)"),
])
def test_one_line(source, target, line, expected):
    code, _ = _port(f"import {source}\n{line}\n", source, target)
    assert code == f"import {target}\n{expected}\n"


def test_from_imports_keep_local_names():
    code, _ = _port("from torch import nn, optim\nfrom torch.nn import Module\nclass M(Module): pass\n"
                    "o = optim.SGD(M().parameters(), lr=1.0)\n")
    assert "from paddle import nn, optimizer as optim\n" in code
    assert "from paddle.nn import Layer as Module\n" in code
    assert "o = optim.SGD(parameters=M().parameters(), learning_rate=1.0)" in code


def test_optimizer_zero_grad_becomes_clear_grad():
    code, out = _port("import torch\nopt = torch.optim.Adam([w])\nopt.zero_grad()\n")
    # PyTorch's zero_grad sets the gradients to None, paddle's clear_grad zero-fills them by default
    assert "opt.clear_grad(set_to_zero=False)" in code
    assert out.translated["torch.<optimizer>.zero_grad"] == 1
    code, _ = _port("import paddle\nopt = paddle.optimizer.Adam(parameters=ps)\nopt.clear_grad()\n", "paddle", "torch")
    assert "opt.zero_grad(set_to_none=False)" in code
    code, _ = _port("import torch\nopt = torch.optim.Adam([w])\nopt.zero_grad()\n", "torch", "oneflow")
    assert "opt.zero_grad(set_to_none=True)" in code


def test_no_counterpart_is_left_with_a_comment():
    code, out = _port("import torch\ny = torch.transpose(x, 0, 1)\n")
    assert "\ny = torch.transpose(x, 0, 1)\n" in code
    assert f"{COMMENT}paddle.transpose exists but means another operation" in code
    assert [api for api, _ in out.left] == ["torch.transpose"]


def test_untyped_receiver_is_an_assumed_tensor():
    code, out = _port("import torch\ny = x.transpose(0, 1)\n")
    assert [api for api, _ in out.assumed] == ["torch.Tensor.transpose"]
    assert f"{COMMENT}assumed tensor:" in code


def test_defaults_that_differ_are_written_out():
    code, _ = _port("import torch\nopt = torch.optim.RMSprop(ps, lr=0.01)\n")
    assert "rho=0.99" in code and "epsilon=1e-08" in code


def test_dtype_spellings():
    code, _ = _port("import paddle\nx = paddle.to_tensor([1], dtype='float32')\ny = x.astype('float64')\n",
                    "paddle", "torch")
    assert code == "import torch\nx = torch.tensor([1], dtype=torch.float32)\ny = x.to(torch.float64)\n"
    code, _ = _port("import torch\ny = x.double()\nz = x.long()\n")
    assert code == 'import paddle\ny = x.astype("float64")\nz = x.astype("int64")\n'


def test_numpy_receivers_are_not_tensors():
    code, out = _port("import numpy as np\nimport paddle\nrng = np.random.default_rng(0)\n"
                      "a = rng.normal(0, 1, (2, 3)).reshape(3, 2)\n", "paddle", "torch")
    assert "a = rng.normal(0, 1, (2, 3)).reshape(3, 2)\n" in code and not out.assumed and not out.left


def test_same_core_same_signature_takes_the_call_as_written():
    code, out = _port("import torch\nlstm = torch.nn.LSTM(4, 8, num_layers=2, batch_first=True)\n", "torch", "oneflow")
    assert code.endswith("lstm = oneflow.nn.LSTM(4, 8, num_layers=2, batch_first=True)\n") and not out.left
    code, _ = _port("import torch\nlstm = torch.nn.LSTM(4, 8, num_layers=2, batch_first=True)\n")
    assert code.endswith("lstm = paddle.nn.LSTM(4, 8, num_layers=2, time_major=False)\n")
