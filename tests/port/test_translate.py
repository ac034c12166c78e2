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
    ("torch", "paddle", "same = torch.equal(a, b)", "same = paddle.equal_all(a, b)"),   # one bool, not elementwise
    ("paddle", "torch", "same = paddle.equal_all(a, b)", "same = torch.equal(a, b)"),
    ("paddle", "torch", "mask = paddle.equal(a, b)", "mask = torch.eq(a, b)"),
    ("torch", "paddle", "l = torch.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True, norm_first=True)",
     "l = paddle.nn.TransformerEncoderLayer(8, 2, 16, normalize_before=True)"),
    ("torch", "paddle", "e = torch.nn.TransformerEncoder(l, 2, enable_nested_tensor=False)",
     "e = paddle.nn.TransformerEncoder(l, 2)"),     # paddle's stack runs padded tensors only
    ("paddle", "torch", "e = paddle.nn.TransformerEncoder(l, 2)",
     "e = torch.nn.TransformerEncoder(l, 2, enable_nested_tensor=False)"),
    ("paddle", "torch", "y = paddle.sum(x, axis=0)", "y = torch.sum(x, dim=0)"),
    ("paddle", "torch", "x = paddle.to_tensor([1.0], stop_gradient=False)", "x = torch.tensor([1.0], requires_grad=True)"),
    ("torch", "oneflow", "y = torch.sum(x, dim=1)", "y = oneflow.sum(x, dim=1)"),
    # paddle's max / min along an axis return the values alone, argmax / argmin the indices
    ("torch", "paddle", "v = x.max(dim=1).values", "v = x.max(axis=1)"),
    ("torch", "paddle", "i = x.min(1, keepdim=True).indices", "i = x.argmin(axis=1, keepdim=True)"),
    ("torch", "paddle", "v = torch.max(x, 1).values.tolist()", "v = x.max(axis=1).tolist()"),
    ("torch", "paddle", "i = torch.max(input=x, dim=0).indices", "i = x.argmax(axis=0)"),
    ("torch", "paddle", "n = sum(p.numel() for p in m.parameters())", "n = sum(p.size for p in m.parameters())"),
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


def test_scheduler_becomes_the_optimizers_learning_rate():
    """paddle's optimizer reads its rate from the schedule: the port builds the schedule from the
    optimizer's rate and hands it over; get_last_lr / load_state_dict take paddle's spelling."""
    code, out = _port("import torch\nopt = torch.optim.SGD(ps, lr=0.1)\n"
                      "sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, 'min', factor=0.5, eps=1e-6)\n"
                      "step = torch.optim.lr_scheduler.StepLR(optimizer=opt, step_size=3)\n"
                      "sched.step(1.0)\nprint(step.get_last_lr()[0])\nstep.load_state_dict(step.state_dict())\n")
    assert ("sched = paddle.optimizer.lr.ReduceOnPlateau(opt.get_lr(), 'min', factor=0.5, epsilon=1e-6)\n"
            "opt.set_lr_scheduler(sched)\n"
            "step = paddle.optimizer.lr.StepDecay(opt.get_lr(), step_size=3)\nopt.set_lr_scheduler(step)\n") in code
    assert "sched.step(1.0)\nprint([step.last_lr][0])\nstep.set_state_dict(step.state_dict())\n" in code
    assert not out.left and out.translated["torch.<scheduler>.get_last_lr"] == 1


@pytest.mark.parametrize("torch_name, paddle_name", [
    ("StepLR", "StepDecay"), ("MultiStepLR", "MultiStepDecay"), ("ExponentialLR", "ExponentialDecay"),
    ("CosineAnnealingLR", "CosineAnnealingDecay"), ("LambdaLR", "LambdaDecay"), ("ReduceLROnPlateau", "ReduceOnPlateau")])
def test_each_scheduler_maps_and_runs_alike(torch_name, paddle_name):
    """The ported schedule gives the optimizer the rates the original gives it, epoch by epoch."""
    import flowgrad.paddle as paddle
    import flowgrad.torch as torch
    args = {"StepLR": "2, gamma=0.5", "MultiStepLR": "[1, 3], gamma=0.5", "ExponentialLR": "0.9",
            "CosineAnnealingLR": "T_max=4, eta_min=0.01", "LambdaLR": "lambda e: 1 / (e + 1)",
            "ReduceLROnPlateau": "patience=0, factor=0.5"}[torch_name]
    source = (f"import torch\nw = torch.zeros(1, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
              f"s = torch.optim.lr_scheduler.{torch_name}(opt, {args})\n")
    code, out = _port(source)
    assert f"s = paddle.optimizer.lr.{paddle_name}(opt.get_lr(), " in code and not out.left
    step = "opt.step()\n" + ("s.step(1.0)" if torch_name == "ReduceLROnPlateau" else "s.step()")
    rates = []
    for module, script in ((torch, source), (paddle, code)):
        scope = {module.__name__.rpartition(".")[2]: module}
        exec(script.replace("import torch\n", "").replace("import paddle\n", ""), scope)
        seen = []
        for _ in range(5):
            exec(step, scope)
            seen.append(scope["opt"].param_groups[0]["lr"] if module is torch else scope["opt"].get_lr())
        rates.append(seen)
    assert rates[0] == pytest.approx(rates[1])


def test_scheduler_outside_an_assignment_or_from_paddle_is_left():
    code, out = _port("import torch\nfoo(torch.optim.lr_scheduler.StepLR(opt, 2))\n")
    assert "foo(torch.optim.lr_scheduler.StepLR(opt, 2))" in code
    assert [api for api, _ in out.left] == ["torch.optim.lr_scheduler.StepLR"]
    code, out = _port("import paddle\ns = paddle.optimizer.lr.StepDecay(0.1, 2)\n", "paddle", "torch")
    assert f"{COMMENT}paddle.optimizer.lr.StepDecay is the optimizer's learning_rate in paddle" in code
    code, out = _port("import torch\ns = torch.optim.lr_scheduler.StepLR(opt, 2)\n", "torch", "oneflow")
    assert "s = oneflow.optim.lr_scheduler.StepLR(opt, 2)\n" in code and not out.left



def test_methods_of_receivers_of_unknown_type_by_their_class_role():
    """`fresh()` returns a model, an optimizer and a scheduler the port cannot type: a method only a
    scheduler has is a scheduler's; one every role renames alike is renamed."""
    code, out = _port("import torch\nmodel, opt, sched = fresh()\nprint(sched.get_last_lr()[0])\n"
                      "model.load_state_dict(a)\nopt.load_state_dict(b)\nsched.load_state_dict(c)\nx.zero_grad()\n")
    assert "print([sched.last_lr][0])\nmodel.set_state_dict(a)\nopt.set_state_dict(b)\nsched.set_state_dict(c)\n" \
        "x.zero_grad()\n" in code      # zero_grad: an optimizer's clear_grad, a Layer's clear_gradients
    assert out.translated["torch.<object>.load_state_dict"] == 3
    assert out.translated["torch.<scheduler>.get_last_lr"] == 1
    code, out = _port("import torch\nclass F(torch.autograd.Function):\n    pass\ny = F.apply(x)\nnet.train()\n")
    assert code.endswith("y = F.apply(x)\nnet.train()\n") and "torch.<module>.apply" not in out.translated


def test_a_layer_paddle_builds_in_one_layout_only():
    """paddle's attention layers are batch-first only: torch's batch_first=True is dropped, its
    sequence-first default flagged, and batch_first=True written going back."""
    code, out = _port("import torch\nl = torch.nn.TransformerEncoderLayer(8, nhead=2, dim_feedforward=16,\n"
                      "    batch_first=True)\nm = torch.nn.TransformerEncoderLayer(8, 2, 16)\n"
                      "a = torch.nn.MultiheadAttention(8, 2, batch_first=True)\n")
    assert "l = paddle.nn.TransformerEncoderLayer(8, nhead=2, dim_feedforward=16)\n" in code
    assert f"{COMMENT}paddle.nn.TransformerEncoderLayer takes one layout only, batch_first=True, where torch's " \
           "defaults to batch_first=False" in code
    assert "m = paddle.nn.TransformerEncoderLayer(8, 2, 16)\na = paddle.nn.MultiHeadAttention(8, 2)\n" in code
    assert [api for api, _ in out.left] == ["torch.nn.TransformerEncoderLayer(batch_first=)"]
    back, out = _port("import paddle\nm = paddle.nn.TransformerEncoderLayer(8, 2, 16)\n", "paddle", "torch")
    assert "m = torch.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)\n" in back and not out.left


def test_an_integer_exponent_is_cast_to_the_bases_dtype_for_paddle():
    """paddle refuses float64 ** int64 between tensors, torch promotes to float64: the port casts an
    exponent known to be an integer tensor to the base's dtype, and does not flag that line."""
    code, out = _port("import torch\nx = torch.linspace(0, 1, 4)\np = torch.tensor([1, 2, 3])\n"
                      "q = torch.arange(3)\nr = torch.tensor([1.0, 2.0])\na = x.unsqueeze(-1).pow(p)\n"
                      "b = torch.pow(x.view(4, 1), q)\nc = x.pow(r)\n")
    assert "a = x.unsqueeze(-1).pow(p.astype(x.dtype))\nb = paddle.pow(x.view(4, 1), q.astype(x.dtype))\n" in code
    assert [(line, kind) for line, kind, _ in out.flags if kind == "mixed_kind_promotion"] == [(8, "mixed_kind_promotion")]
    assert "c = x.pow(r)" in code       # float ** float of unknown dtypes: still flagged, not cast
    import flowgrad.paddle as paddle
    import flowgrad.torch as torch
    x = paddle.linspace(0, 1, 4, dtype="float64")
    cast = x.unsqueeze(-1).pow(paddle.to_tensor([1, 2, 3]).astype(x.dtype))
    want = torch.linspace(0, 1, 4, dtype=torch.float64).unsqueeze(-1).pow(torch.tensor([1, 2, 3]))
    assert cast.dtype == paddle.float64 and want.dtype == torch.float64
    assert (cast.numpy() == want.numpy()).all()
    code, _ = _port("import torch\np = torch.tensor([1, 2])\np = torch.tensor([0.5])\ny = x.pow(p)\n")
    assert "y = x.pow(p)" in code            # p is not always an integer tensor
    code, _ = _port("import torch\np = torch.tensor([1, 2])\ny = x.pow(p)\n", "torch", "oneflow")
    assert "y = x.pow(p)" in code            # OneFlow promotes as torch does


LINEAR_WEIGHTS = """import torch
model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Flatten(0, 1))
lin = torch.nn.Linear(2, 2)
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(2, 3)
    def forward(self, x):
        return self.fc(x)
net = Net()
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.2, -0.1, 0.05], [1.0, 2.0, 3.0]]))
    model[0].bias.fill_(0.1)
    lin.weight.mul_(2.0)
    lin.weight.add_(torch.ones(2, 2))
    lin.weight[0] = 1.0
    lin.weight[1] += 1.0
first = model[0]
print([first.weight[:, i].tolist() for i in range(3)])
print(net.fc.weight.tolist(), first.weight, first.weight[1])
y = torch.nn.functional.mse_loss(model(torch.ones(4, 3)), torch.zeros(8))
y.backward()
"""


def test_linear_weights_named_statically_are_read_and_written_transposed():
    """paddle keeps a Linear weight as [in, out]: where the port can tell an expression is a Linear
    weight, it reads its values through `.T` and copies in the transpose; writes it cannot
    transpose are flagged; the port is equivalent under --verify."""
    code, out = _port(LINEAR_WEIGHTS)
    assert "model[0].weight.copy_(paddle.to_tensor([[0.2, -0.1, 0.05], [1.0, 2.0, 3.0]]).T)\n" in code
    assert "model[0].bias.fill_(0.1)\n    lin.weight.mul_(2.0)\n" in code
    assert "print([first.weight.T[:, i].tolist() for i in range(3)])\n" in code
    assert "print(net.fc.weight.T.tolist(), first.weight.T, first.weight.T[1])\n" in code
    flagged = [line for line in code.splitlines() if "writes a Linear weight by place" in line]
    assert [f.split(": ")[1].split(" writes")[0] for f in flagged] == ["add_", "[...] =", "[...] ="]
    assert "    lin.weight[0] = 1.0\n" in code and "    lin.weight[1] += 1.0\n" in code
    back, _ = _port(code.replace("    lin.weight.add_(paddle.ones([2, 2]))\n", "").replace(
        "    lin.weight[0] = 1.0\n", "").replace("    lin.weight[1] += 1.0\n", ""), "paddle", "torch")
    assert "model[0].weight.copy_(torch.tensor([[0.2, -0.1, 0.05], [1.0, 2.0, 3.0]]).T.T)" in back
    code, _ = _port(LINEAR_WEIGHTS, "torch", "oneflow")
    assert ".T" not in code                  # the same layout in both


def test_linear_weight_port_verifies(tmp_path):
    from flowgrad.port.verify import verify
    script = LINEAR_WEIGHTS.replace("    lin.weight.add_(torch.ones(2, 2))\n", "").replace(
        "    lin.weight[0] = 1.0\n", "").replace("    lin.weight[1] += 1.0\n", "")
    path = tmp_path / "weights.py"
    path.write_text(script)
    ported, _ = _port(script)
    verdict = verify(str(path), script, ported, "torch", "paddle")
    assert verdict.equivalent and verdict.compared == 4, verdict.message


def test_packed_sequences_become_paddles_sequence_length():
    """pack_padded_sequence -> RNN -> pad_packed_sequence is paddle's RNN with sequence_length=; the
    packing functions' import goes when nothing else uses it; without total_length the output's
    length may differ, and the port says so."""
    code, out = _port("import torch\nfrom torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence\n"
                      "rnn = torch.nn.GRU(3, 4, batch_first=True)\n"
                      "# run the batch by its lengths\n"
                      "p = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)\n"
                      "out, h = rnn(p, h0)\nout, n = pad_packed_sequence(out, batch_first=True)\n")
    assert code == ("import torch\nrnn = paddle.nn.GRU(3, 4, time_major=False)\n# run the batch by its lengths\n"
                    f"{COMMENT}paddle's RNN output keeps the input's length, where pad_packed_sequence without "
                    "total_length pads to the longest sequence only\n"
                    "out, h = rnn(x, h0, sequence_length=lengths)\nn = lengths\n").replace("import torch", "import paddle", 1)
    assert not out.left and out.translated["torch.nn.utils.rnn.pack_padded_sequence (as sequence_length=)"] == 1
    same = "import torch\np = torch.nn.utils.rnn.pack_padded_sequence(x, n)\ny = f(p)\nz = g(y)\n"
    assert "pack_padded_sequence(x, n)" in _port(same)[0]              # not the pattern: left
    back, _ = _port(code.replace("out, h = rnn(x, h0, sequence_length=lengths)", "out, h = rnn(x, h0)"), "torch",
                    "oneflow")
    assert "sequence_length" not in back
