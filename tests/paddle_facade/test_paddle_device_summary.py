"""paddle.device (the CPU place, paddle's errors of a build without CUDA) and paddle.summary (its
returned counts and printed table), on flowgrad.paddle and real paddle."""
from __future__ import annotations

import re

import numpy as np
import pytest


def test_device_queries(paddle):
    assert paddle.device.get_device() == "cpu"
    assert paddle.get_device() == "cpu"
    assert repr(paddle.device.set_device("cpu")) == "Place(cpu)"
    assert repr(paddle.set_device("CPU")) == "Place(cpu)"
    assert repr(paddle.device.set_device(paddle.CPUPlace())) == "Place(cpu)"
    assert repr(paddle.device.set_device(0)) == "Place(cpu)"
    assert paddle.device.get_device() == "cpu"
    assert paddle.device.is_compiled_with_cuda() is False
    assert paddle.device.cuda.device_count() == 0


@pytest.mark.parametrize("device, message", [
    ("gpu", "The device should not be 'gpu', since PaddlePaddle is not compiled with CUDA"),
    ("cuda", "The device should not be 'gpu', since PaddlePaddle is not compiled with CUDA"),
    ("xpu", "The device should not be 'xpu', since PaddlePaddle is not compiled with XPU"),
    ("gpu:1", "The device should not be <re.Match object; span=(0, 5), match='gpu:1'>, since PaddlePaddle is not "
              "compiled with CUDA"),
    ("npu", "The device must be a string which is like 'cpu', 'gpu', 'gpu:x', 'dcu', 'dcu:x', 'xpu', 'xpu:x', 'npu', "
            "'npu:x'"),
    ("cpu:0", "The device must be a string which is like 'cpu', 'gpu', 'gpu:x', 'dcu', 'dcu:x', 'xpu', 'xpu:x', "
              "'npu', 'npu:x'"),
    (3, "CPU device only supports index 0, got 3"),
    (-1, "Device index must be non-negative, got -1"),
])
def test_set_device_without_gpu_build(paddle, device, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        paddle.device.set_device(device)
    assert paddle.device.get_device() == "cpu"


def _conv_net(paddle):
    nn = paddle.nn
    return nn.Sequential(nn.Conv2D(1, 4, 3), nn.ReLU(), nn.BatchNorm2D(4), nn.Flatten(), nn.Linear(4 * 6 * 6, 10))


def _numbers(text: str) -> list[str]:
    """The table without the layers' name counters (which count every layer the process made)."""
    return [re.sub(r"^\s*\w+-\d+", "", line).split() for line in text.splitlines()]


def test_summary_counts_and_table(paddle, capsys):
    paddle.seed(0)
    net = _conv_net(paddle)
    net.train()
    result = paddle.summary(net, (1, 1, 8, 8))
    assert result == {"total_params": 1506, "trainable_params": 1498}
    assert isinstance(result["total_params"], np.integer)
    assert net.training
    text = capsys.readouterr().out
    assert "Total params: 1,506\nTrainable params: 1,498\nNon-trainable params: 8\n" in text
    assert "Forward/backward pass size (MB): 0.00\n" in text
    rows = [line for line in text.splitlines() if re.match(r"^\s*\w+-\d+ ", line)]
    assert [r.split()[0].split("-")[0] for r in rows] == ["Conv2D", "ReLU", "BatchNorm2D", "Flatten", "Linear"]
    assert [r.split()[-1] for r in rows] == ["40", "0", "16", "0", "1,450"]
    assert "[[1, 4, 6, 6]]" in rows[3] and "[1, 144]" in rows[3]
    assert text.splitlines()[0] == "-" * 75


def test_summary_of_layer_without_sublayers_and_input(paddle, capsys):
    lin = paddle.nn.Linear(3, 4)
    assert paddle.summary(lin, input=paddle.ones([2, 3])) == {"total_params": 16, "trainable_params": 16}
    assert paddle.summary(lin, [(2, 3)], dtypes="float32") == {"total_params": 16, "trainable_params": 16}
    assert paddle.summary(lin, (-1, 3)) == {"total_params": 16, "trainable_params": 16}
    tables = capsys.readouterr().out.split("\n\n")
    assert _numbers(tables[0]) == _numbers(tables[1])
    assert "[[1, 3]]" in tables[2]


def test_summary_nested_outputs(paddle, capsys):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(3, 4)
            self.rnn = paddle.nn.LSTM(4, 5)

        def forward(self, x):
            return self.rnn(self.fc(x).unsqueeze(1))

    assert paddle.summary(Net(), (2, 3)) == {"total_params": 236, "trainable_params": 236}
    text = capsys.readouterr().out
    assert "[[2, 1, 5], [[1, 2, 5], [1, 2, 5]]]" in text
    assert text.splitlines()[0] == "-" * 90


@pytest.mark.parametrize("kwargs, error, message", [
    ({}, ValueError, "input_size and input cannot be None at the same time"),
    ({"input_size": (-1, None, 3)}, ValueError, "Option input_size only the dim of batch_size can be None or -1."),
    ({"input_size": (0, 3)}, ValueError, "Expected element in input size greater than zero, but got 0"),
    ({"input_size": [[2, 3]]}, AssertionError, "expect item in input_size is a tuple or InputSpec"),
])
def test_summary_errors(paddle, kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        paddle.summary(paddle.nn.Linear(3, 4), **kwargs)


def test_summary_table_matches_real_paddle(fpaddle, real_paddle, capsys):
    tables = []
    for mod in (fpaddle, real_paddle):
        mod.summary(_conv_net(mod), (2, 1, 8, 8))
        tables.append(_numbers(capsys.readouterr().out))
    assert tables[0] == tables[1]
