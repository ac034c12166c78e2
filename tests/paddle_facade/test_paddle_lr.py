"""paddle.optimizer.lr: the schedulers' values epoch by epoch, `step(epoch)`, state dicts, argument
errors, and optimizers driven by a scheduler, against real paddle."""
from __future__ import annotations

import re

import numpy as np
import pytest

SCHEDULERS = {
    "step": lambda lr: lr.StepDecay(learning_rate=0.5, step_size=2, gamma=0.1),
    "multistep": lambda lr: lr.MultiStepDecay(learning_rate=0.5, milestones=[2, 5], gamma=0.5),
    "exponential": lambda lr: lr.ExponentialDecay(learning_rate=0.5, gamma=0.9),
    "piecewise": lambda lr: lr.PiecewiseDecay(boundaries=[3, 6], values=[0.1, 0.05, 0.01]),
    "lambda": lambda lr: lr.LambdaDecay(learning_rate=0.5, lr_lambda=lambda e: 0.95 ** e),
    "cosine": lambda lr: lr.CosineAnnealingDecay(learning_rate=0.5, T_max=3, eta_min=0.01),
    "warmup": lambda lr: lr.LinearWarmup(learning_rate=0.5, warmup_steps=3, start_lr=0.0, end_lr=0.5),
    "warmup_cosine": lambda lr: lr.LinearWarmup(lr.CosineAnnealingDecay(0.5, T_max=4), warmup_steps=2,
                                                start_lr=0.1, end_lr=0.5),
    "last_epoch": lambda lr: lr.StepDecay(learning_rate=0.5, step_size=2, last_epoch=3),
}


def _trace(paddle, make, epochs=12):
    sched = make(paddle.optimizer.lr)
    values = []
    for _ in range(epochs):
        values.append(sched())
        sched.step()
    return values, sched.last_epoch, sched.state_dict()


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_scheduler_values_match_real_paddle(fpaddle, real_paddle, name):
    got, want = _trace(fpaddle, SCHEDULERS[name]), _trace(real_paddle, SCHEDULERS[name])
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    assert got[1:] == want[1:]


@pytest.mark.parametrize("name", ["cosine", "step", "exponential", "warmup_cosine"])
def test_step_to_an_epoch(fpaddle, real_paddle, name):
    def run(paddle):
        sched = SCHEDULERS[name](paddle.optimizer.lr)
        out = []
        for epoch in (5, 2, 9, 0):
            sched.step(epoch)
            out.append(sched())
        return out
    np.testing.assert_allclose(run(fpaddle), run(real_paddle), rtol=1e-12)


def test_reduce_on_plateau(fpaddle, real_paddle):
    losses = [1.0, 0.9, 0.95, 0.96, 0.97, 0.99, 0.89, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]

    def run(paddle, mode, threshold_mode, tensor):
        sched = paddle.optimizer.lr.ReduceOnPlateau(learning_rate=1.0, mode=mode, factor=0.5, patience=1,
                                                    threshold_mode=threshold_mode, cooldown=1, min_lr=0.2)
        out = []
        for v in losses:
            sched.step(paddle.to_tensor(v if mode == "min" else -v) if tensor else (v if mode == "min" else -v))
            out.append((sched(), sched.last_epoch, sched.num_bad_epochs, sched.cooldown_counter))
        return out, sched.state_dict()
    for args in (("min", "rel", False), ("max", "abs", True), ("min", "abs", True)):
        got, want = run(fpaddle, *args), run(real_paddle, *args)
        assert got[0] == want[0]
        assert {k: (float(v) if k == "best" else v) for k, v in got[1].items()} == \
            {k: (float(v) if k == "best" else v) for k, v in want[1].items()}


def test_reduce_on_plateau_errors(paddle):
    lr = paddle.optimizer.lr
    with pytest.raises(ValueError, match=re.escape("mode: mean is unknown!")):
        lr.ReduceOnPlateau(1.0, mode="mean")
    with pytest.raises(ValueError, match=re.escape("new_lr = origin_lr * gamma and gamma should be < 1.0.")):
        lr.ReduceOnPlateau(1.0, factor=1.5)
    with pytest.raises(ValueError, match=re.escape("threshold mode: x is unknown!")):
        lr.ReduceOnPlateau(1.0, threshold_mode="x")
    sched = lr.ReduceOnPlateau(1.0)
    with pytest.raises(TypeError, match=re.escape("metrics must be 'int', 'float', 'np.float64', 'numpy.ndarray' "
                                                  "or 'paddle.Tensor', but receive <class 'str'>")):
        sched.step("a")
    with pytest.raises(AssertionError, match="the size of metrics must be 1, but the current metrics.size is 2"):
        sched.step(paddle.to_tensor([1.0, 2.0]))
    assert sched.last_epoch == 2 and sched.best is None


ERRORS = [
    (lambda lr: lr.StepDecay(0.5, step_size=2.0), TypeError,
     "The type of 'step_size' must be 'int', but received <class 'float'>."),
    (lambda lr: lr.StepDecay(0.5, step_size=2, gamma=1.0), ValueError, "gamma should be < 1.0."),
    (lambda lr: lr.StepDecay(0.5, step_size=0), AssertionError, " 'step_size' must be a positive integer."),
    (lambda lr: lr.StepDecay("a", step_size=2), TypeError,
     "The type of learning rate must be float, but received <class 'str'>"),
    (lambda lr: lr.StepDecay(-0.5, step_size=2), ValueError, "Invalid learning rate: -0.5"),
    (lambda lr: lr.MultiStepDecay(0.5, milestones=3), TypeError,
     "The type of 'milestones' in 'MultiStepDecay' must be 'tuple, list', but received <class 'int'>."),
    (lambda lr: lr.MultiStepDecay(0.5, milestones=[3, 2]), ValueError, "The elements of milestones must be incremented"),
    (lambda lr: lr.ExponentialDecay(0.5, gamma=1.5), AssertionError,
     " 'gamma' must be in interval (0.0, 1.0) so that the learning rate will decay."),
    (lambda lr: lr.PiecewiseDecay([], [0.1]), ValueError, "The boundaries cannot be empty."),
    (lambda lr: lr.PiecewiseDecay([1, 2], [0.1, 0.2]), ValueError,
     "The values have one more element than boundaries, but received len(values) [2] < len(boundaries) + 1 [3]."),
    (lambda lr: lr.LambdaDecay(0.5, lr_lambda=3), TypeError,
     "The type of 'lr_lambda' in 'LambdaDecay' must be 'function', but received <class 'int'>."),
    (lambda lr: lr.CosineAnnealingDecay(0.5, T_max=2.5), TypeError,
     "The type of 'T_max' in 'CosineAnnealingDecay' must be 'int', but received <class 'float'>."),
    (lambda lr: lr.CosineAnnealingDecay(0.5, T_max=0), AssertionError, " 'T_max' must be a positive integer."),
    (lambda lr: lr.LinearWarmup(0.5, warmup_steps=0, start_lr=0.0, end_lr=0.5), AssertionError,
     " 'warmup_steps' must be a positive integer."),
    (lambda lr: lr.LinearWarmup(0.5, warmup_steps=2, start_lr=0.5, end_lr=0.1), AssertionError,
     "end_lr 0.1 must be greater than start_lr 0.5"),
    (lambda lr: lr.LinearWarmup("x", warmup_steps=2, start_lr=0.0, end_lr=0.1), TypeError,
     "the type of learning_rate should be [int, float or LRScheduler], the current type is x"),
]


@pytest.mark.parametrize("make, exc, text", ERRORS)
def test_scheduler_argument_errors(paddle, make, exc, text):
    with pytest.raises(exc, match="^" + re.escape(text) + "$"):
        make(paddle.optimizer.lr)


def test_custom_scheduler_and_state_dict_round_trip(paddle):
    class Halving(paddle.optimizer.lr.LRScheduler):
        def get_lr(self):
            return self.base_lr * 0.5 ** self.last_epoch

    sched = Halving(learning_rate=0.8)
    sched.step()
    sched.step()
    state = sched.state_dict()
    assert state == {"last_epoch": 2, "last_lr": 0.2}
    fresh = Halving(learning_rate=0.8)
    fresh.set_state_dict(state)
    assert fresh() == 0.2 and fresh.last_epoch == 2
    with pytest.raises(RuntimeError, match=re.escape("Can't find [ last_lr ] in state_dict")):
        fresh.set_state_dict({"last_epoch": 1})
    with pytest.warns(UserWarning, match="There are some unused values in state_dict"):
        fresh.set_state_dict({"last_epoch": 1, "last_lr": 0.4, "other": 1})
    assert fresh() == 0.4


def _train_with(paddle, make_sched, make_opt, steps=6):
    paddle.seed(0)
    layer = paddle.nn.Linear(2, 2)
    layer.weight.set_value(np.array([[0.5, -1.], [1.5, 2.]], dtype=np.float32))
    layer.bias.set_value(np.array([0.1, -0.2], dtype=np.float32))
    sched = make_sched(paddle.optimizer.lr)
    opt = make_opt(paddle.optimizer, sched, layer.parameters())
    x = paddle.to_tensor(np.array([[1., 2.], [3., -1.], [0.5, 0.5]], dtype=np.float32))
    lrs = []
    for _ in range(steps):
        loss = (layer(x) ** 2).mean()
        loss.backward()
        lrs.append(opt.get_lr())
        opt.step()
        opt.clear_grad()
        sched.step()
    state = opt.state_dict()
    return layer.weight.numpy(), layer.bias.numpy(), lrs, state["LR_Scheduler"]


@pytest.mark.parametrize("opt", ["SGD", "Momentum", "Adam", "AdamW"])
@pytest.mark.parametrize("sched", ["step", "cosine", "warmup"])
def test_optimizer_driven_by_a_scheduler(fpaddle, real_paddle, opt, sched):
    def make_opt(optimizer, s, ps):
        return getattr(optimizer, opt)(learning_rate=s, parameters=ps)
    got = _train_with(fpaddle, SCHEDULERS[sched], make_opt)
    want = _train_with(real_paddle, SCHEDULERS[sched], make_opt)
    for g, w in zip(got[:2], want[:2]):  # paddle's Adam kernel rounds in float32 where flowgrad's formula does not
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=2e-5)
    np.testing.assert_allclose(got[2], want[2], rtol=1e-12)
    assert got[3] == want[3]


def test_optimizer_with_a_scheduler_refuses_set_lr_and_restores_it(paddle):
    sched = paddle.optimizer.lr.StepDecay(0.5, step_size=1)
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=paddle.nn.Linear(1, 1).parameters())
    with pytest.raises(RuntimeError, match=re.escape("optimizer's learning rate can't be LRScheduler when invoke "
                                                     "this API, because this will lead to conflict.")):
        opt.set_lr(0.1)
    with pytest.raises(TypeError, match=re.escape("The type of 'value' in optimizer.set_lr must be float, but "
                                                  "received <class 'str'>.")):
        opt.set_lr("a")
    sched.step()
    sched.step()
    state = opt.state_dict()
    sched2 = paddle.optimizer.lr.StepDecay(0.5, step_size=1)
    opt2 = paddle.optimizer.SGD(learning_rate=sched2, parameters=paddle.nn.Linear(1, 1).parameters())
    opt2.set_state_dict(state)
    assert sched2.last_epoch == 2 and abs(opt2.get_lr() - 0.005) < 1e-12
    with pytest.raises(AssertionError, match="LR_Scheduler state must be included in the state dict except "
                                             "LambdaDecay"):
        opt2.set_state_dict({})
    plain = paddle.optimizer.SGD(learning_rate=0.1, parameters=paddle.nn.Linear(1, 1).parameters())
    plain.set_lr_scheduler(sched)
    assert plain.get_lr() == sched()
    with pytest.raises(TypeError, match=re.escape("The type of 'scheduler' in optimizer.set_lr_scheduler must be "
                                                  "LRScheduler, but received <class 'float'>.")):
        plain.set_lr_scheduler(0.1)


def test_optimizer_learning_rate_type(paddle):
    with pytest.raises(TypeError, match=re.escape("learning rate should be float or LRScheduler, got <class 'int'> "
                                                  "here")):
        paddle.optimizer.SGD(learning_rate=1, parameters=paddle.nn.Linear(1, 1).parameters())
