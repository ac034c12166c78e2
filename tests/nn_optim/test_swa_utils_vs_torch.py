"""torch.optim.swa_utils against real torch: AveragedModel (running mean, EMA by list and by
parameter, buffers averaged or copied), SWALR's schedule and state dict, update_bn, errors."""
from __future__ import annotations

import copy
import re

import numpy as np
import pytest

rng = np.random.default_rng(3)
X = rng.standard_normal((6, 3))


def _net(T):
    T.manual_seed(0)
    net = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.BatchNorm1d(4), T.nn.Tanh(), T.nn.Linear(4, 1))
    with T.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(T.tensor(np.cos(np.arange(p.numel()) + i).reshape(p.shape), dtype=T.float32))
    return net


AVERAGING = {
    "swa": {},
    "ema_multi": lambda T: {"multi_avg_fn": T.optim.swa_utils.get_ema_multi_avg_fn(0.9)},
    "ema_per_param": lambda T: {"avg_fn": T.optim.swa_utils.get_ema_avg_fn(0.8)},
    "swa_per_param_buffers": lambda T: {"avg_fn": T.optim.swa_utils.get_swa_avg_fn(), "use_buffers": True},
    "ema_buffers": lambda T: {"multi_avg_fn": T.optim.swa_utils.get_ema_multi_avg_fn(0.5), "use_buffers": True},
}


@pytest.mark.parametrize("name", sorted(AVERAGING))
def test_averaged_model_matches_torch(name, real_torch):
    import flowgrad.torch as ft

    def run(T):
        net = _net(T)
        kwargs = AVERAGING[name](T) if callable(AVERAGING[name]) else {}
        avg = T.optim.swa_utils.AveragedModel(net, **kwargs)
        opt = T.optim.SGD(net.parameters(), lr=0.1)
        x = T.tensor(X, dtype=T.float32)
        for _ in range(4):
            opt.zero_grad()
            (net(x) ** 2).sum().backward()
            opt.step()
            avg.update_parameters(net)
        sd = avg.state_dict()
        return ({k: v.numpy().copy() for k, v in sd.items()}, avg(x).detach().numpy(), int(avg.n_averaged),
                str(avg.n_averaged.dtype), isinstance(avg, T.nn.Module))

    mine, theirs = run(ft), run(real_torch)
    assert list(mine[0]) == list(theirs[0])
    for k in mine[0]:
        np.testing.assert_allclose(mine[0][k], theirs[0][k], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mine[1], theirs[1], rtol=1e-5, atol=1e-6)
    assert mine[2:] == theirs[2:]


SWALR_CASES = {
    "cos": dict(swa_lr=0.05, anneal_epochs=3),
    "linear_per_group": dict(swa_lr=[0.01, 0.2], anneal_epochs=4, anneal_strategy="linear"),
    "no_annealing": dict(swa_lr=0.3, anneal_epochs=0),
}


@pytest.mark.parametrize("name", sorted(SWALR_CASES))
def test_swalr_matches_torch_with_round_trip(name, real_torch):
    import flowgrad.torch as ft

    def run(T, split_at=None):
        def make():
            a, b = T.zeros(2, requires_grad=True), T.zeros(1, requires_grad=True)
            opt = T.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1)
            return opt, T.optim.swa_utils.SWALR(opt, **SWALR_CASES[name])

        opt, sched = make()
        rows = [sched.get_last_lr()]
        for i in range(7):
            if i == split_at:
                saved_opt, saved = copy.deepcopy(opt.state_dict()), copy.deepcopy(sched.state_dict())
                opt, sched = make()
                opt.load_state_dict(saved_opt)
                sched.load_state_dict(saved)
            opt.step()
            sched.step()
            rows.append(sched.get_last_lr())
        return rows, sorted(sched.state_dict())

    mine, theirs = run(ft), run(real_torch)
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-13)
    assert mine[1] == theirs[1]
    np.testing.assert_allclose(run(ft, split_at=3)[0], theirs[0], rtol=1e-13)


def test_update_bn_matches_torch(real_torch):
    import flowgrad.torch as ft

    def run(T):
        net = _net(T)
        bn = net[1]
        bn.momentum = 0.3
        loader = [(T.tensor(X[i:i + 2], dtype=T.float32), 0) for i in range(0, 6, 2)]
        net.eval()
        T.optim.swa_utils.update_bn(loader, net)
        return (bn.running_mean.numpy().copy(), bn.running_var.numpy().copy(), int(bn.num_batches_tracked),
                bn.momentum, net.training)

    mine, theirs = run(ft), run(real_torch)
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(mine[1], theirs[1], rtol=1e-5, atol=1e-7)
    assert mine[2:] == theirs[2:]


def test_errors_match_torch(real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        swa = T.optim.swa_utils
        opt = T.optim.SGD([T.zeros(1, requires_grad=True)], lr=0.1)
        rows = []
        for call in (lambda: swa.get_ema_multi_avg_fn(1.5), lambda: swa.get_ema_avg_fn(-0.1),
                     lambda: swa.AveragedModel(T.nn.Linear(1, 1), avg_fn=swa.get_swa_avg_fn(),
                                               multi_avg_fn=swa.get_swa_multi_avg_fn()),
                     lambda: swa.SWALR(opt, 0.1, anneal_strategy="exp"),
                     lambda: swa.SWALR(opt, 0.1, anneal_epochs=-1),
                     lambda: swa.SWALR(opt, [0.1, 0.2])):
            with pytest.raises(Exception) as info:
                call()
            rows.append((type(info.value).__name__, str(info.value)))
        out.append(rows)
    assert out[0] == out[1]
    assert re.match("Invalid decay value 1.5", out[0][0][1])
