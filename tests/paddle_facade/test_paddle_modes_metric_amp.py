"""paddle.in_dynamic_mode / enable_static / disable_static, paddle.metric.accuracy and paddle.amp
on the CPU (where paddle turns mixed precision off), against real paddle."""
from __future__ import annotations

import re

import numpy as np
import pytest

SCORES = [[0.9, 0.1, 0.0], [0.2, 0.3, 0.5], [0.1, 0.8, 0.1], [0.3, 0.25, 0.45]]
LABELS = [[0], [1], [1], [0]]


def test_dynamic_mode(paddle):
    assert paddle.in_dynamic_mode()
    paddle.disable_static()
    assert paddle.in_dynamic_mode()


def test_enable_static_is_not_provided(fpaddle):
    with pytest.raises(NotImplementedError, match="static graph mode is not provided"):
        fpaddle.enable_static()
    assert fpaddle.in_dynamic_mode()


@pytest.mark.parametrize("k", [1, 2, 3])
def test_accuracy(paddle, k):
    x, label = paddle.to_tensor(SCORES), paddle.to_tensor(LABELS)
    correct, total = paddle.zeros([1], dtype="int32"), paddle.zeros([1], dtype="int32")
    acc = paddle.metric.accuracy(x, label, k=k, correct=correct, total=total)
    assert acc.shape == [] and acc.dtype == paddle.float32
    np.testing.assert_allclose(float(acc), {1: 0.5, 2: 1.0, 3: 1.0}[k], rtol=1e-6)
    assert (correct.tolist(), total.tolist()) == ({1: 2, 2: 4, 3: 4}[k], 4)


def test_accuracy_errors(paddle):
    x = paddle.to_tensor(SCORES)
    with pytest.raises(ValueError, match=re.escape("label's dimensions of AccuracyOp must be 2. But received "
                                                   "label's dimensions = 1, label's shape = [4]")):
        paddle.metric.accuracy(x, paddle.to_tensor([0, 1, 1, 0]))
    with pytest.raises(ValueError, match=re.escape("The rank (5) of the input 'k' for topk op must be less than or "
                                                   "equal to 3.")):
        paddle.metric.accuracy(x, paddle.to_tensor(LABELS), k=5)


def _train_amp(paddle):
    layer = paddle.nn.Linear(3, 2)
    layer.weight.set_value(np.ones([3, 2], np.float32))
    layer.bias.set_value(np.zeros([2], np.float32))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=layer.parameters())
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024)
    x = paddle.to_tensor(SCORES)
    dtypes = []
    for level in ("O1", "O2"):
        with paddle.amp.auto_cast(level=level, dtype="bfloat16"):
            loss = layer(x).sum()
        dtypes.append(str(loss.dtype))
        scaled = scaler.scale(loss)
        scaled.backward()
        scaler.step(opt)
        scaler.update()
        opt.clear_grad()
    loss = layer(x).sum()
    loss.backward()
    scaler.minimize(opt, scaler.scale(loss))
    return (layer.weight.numpy(), layer.bias.numpy(), dtypes, scaler.is_enable(),
            scaler.is_use_dynamic_loss_scaling(), scaler.get_init_loss_scaling(), scaler.state_dict())


def test_amp_on_the_cpu(fpaddle, real_paddle):
    got, want = _train_amp(fpaddle), _train_amp(real_paddle)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-6)
    assert got[2:] == want[2:]


def test_auto_cast_errors(paddle):
    with pytest.raises(ValueError, match=re.escape("level should be O0, OD, O1 or O2.")):
        with paddle.amp.auto_cast(level="O3"):
            pass
    with pytest.raises(ValueError, match=re.escape("If enable amp, dtype should be 'float16' or 'bfloat16'.")):
        with paddle.amp.auto_cast(dtype="int8"):
            pass
