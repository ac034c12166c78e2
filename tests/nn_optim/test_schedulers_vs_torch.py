"""Learning-rate schedulers against real torch: the lr (and cycled momentum / beta1) of every
param group step by step, get_last_lr, state-dict round trips (save, load into a fresh
scheduler over a fresh optimizer, continue) and the constructors' errors."""
from __future__ import annotations

import copy
import math
import re
import warnings

import numpy as np
import pytest


def _sgd(T, momentum=0.9):
    a, b = T.zeros(2, requires_grad=True), T.zeros(3, requires_grad=True)
    return T.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1, momentum=momentum)


def _adam(T):
    return T.optim.Adam([T.zeros(2, requires_grad=True)], lr=0.1)


S = "optim.lr_scheduler."
SCHEDULERS = {
    "one_cycle": (_sgd, lambda L, o: L.OneCycleLR(o, max_lr=1.0, total_steps=12)),
    "one_cycle_lists_linear": (_sgd, lambda L, o: L.OneCycleLR(
        o, max_lr=[1.0, 2.0], epochs=3, steps_per_epoch=4, pct_start=0.25, anneal_strategy="linear",
        base_momentum=[0.8, 0.7], max_momentum=0.95, div_factor=10.0, final_div_factor=100.0)),
    "one_cycle_three_phase_adam": (_adam, lambda L, o: L.OneCycleLR(o, max_lr=0.3, total_steps=14,
                                                                     three_phase=True)),
    "one_cycle_no_momentum": (lambda T: _sgd(T, 0.0), lambda L, o: L.OneCycleLR(o, max_lr=0.3, total_steps=13,
                                                                                cycle_momentum=False)),
    "warm_restarts": (_sgd, lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=3)),
    "warm_restarts_mult": (_sgd, lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2, eta_min=0.01)),
    "cyclic_triangular": (_sgd, lambda L, o: L.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3)),
    "cyclic_triangular2": (_sgd, lambda L, o: L.CyclicLR(o, base_lr=[0.01, 0.02], max_lr=[0.1, 0.3], step_size_up=2,
                                                         step_size_down=3, mode="triangular2")),
    "cyclic_exp_range_adam": (_adam, lambda L, o: L.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2,
                                                             mode="exp_range", gamma=0.9, base_momentum=0.7,
                                                             max_momentum=0.95)),
    "cyclic_scale_fn": (_sgd, lambda L, o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2, scale_fn=lambda x: 0.5 ** x,
                                                      scale_mode="iterations", cycle_momentum=False)),
    "chained": (_sgd, lambda L, o: L.ChainedScheduler([L.ConstantLR(o, factor=0.5, total_iters=3),
                                                       L.ExponentialLR(o, gamma=0.9)])),
    "chained_explicit_optimizer": (_sgd, lambda L, o: L.ChainedScheduler([L.StepLR(o, 2, 0.5),
                                                                          L.LinearLR(o, 0.5, total_iters=4)], o)),
    "polynomial": (_sgd, lambda L, o: L.PolynomialLR(o, total_iters=5, power=2.0)),
    "sequential": (_sgd, lambda L, o: L.SequentialLR(o, [L.LinearLR(o, 0.1, total_iters=3),
                                                         L.ExponentialLR(o, 0.8)], milestones=[3])),
    "sequential_of_chained": (_sgd, lambda L, o: L.SequentialLR(o, [
        L.ChainedScheduler([L.ConstantLR(o, 0.5, total_iters=2), L.ExponentialLR(o, 0.9)]),
        L.CosineAnnealingLR(o, T_max=4)], milestones=[4])),
    "linear": (_sgd, lambda L, o: L.LinearLR(o, start_factor=0.25, end_factor=0.75, total_iters=4)),
    "multiplicative": (_sgd, lambda L, o: L.MultiplicativeLR(o, lambda e: 0.95)),
}


def _groups(opt):
    keys = ("lr", "momentum", "betas", "initial_lr", "max_lr", "min_lr", "max_momentum", "base_momentum")
    return [{k: g[k] for k in keys if k in g} for g in opt.param_groups]


def _trajectory(T, name, steps=12, split_at=None):
    make_opt, make_sched = SCHEDULERS[name]
    L = T.optim.lr_scheduler
    opt = make_opt(T)
    sched = make_sched(L, opt)
    rows = [(_groups(opt), sched.get_last_lr())]
    for i in range(steps):
        if i == split_at:
            saved_opt, saved = copy.deepcopy(opt.state_dict()), copy.deepcopy(sched.state_dict())
            opt = make_opt(T)
            sched = make_sched(L, opt)
            opt.load_state_dict(saved_opt)
            sched.load_state_dict(saved)
        opt.step()
        sched.step()
        rows.append((_groups(opt), sched.get_last_lr()))
    return rows


def _assert_close(a, b):
    assert type(a) is type(b) or {type(a), type(b)} <= {int, float}, (a, b)
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _assert_close(x, y)
    elif isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            _assert_close(a[k], b[k])
    else:
        assert math.isclose(a, b, rel_tol=1e-13, abs_tol=1e-15), (a, b)


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_schedule_matches_torch(name, real_torch):
    import flowgrad.torch as ft
    _assert_close(_trajectory(ft, name), _trajectory(real_torch, name))


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_state_dict_round_trip_matches_torch(name, real_torch):
    import flowgrad.torch as ft
    mine = _trajectory(ft, name, split_at=5)
    _assert_close(mine, _trajectory(real_torch, name, split_at=5))
    _assert_close(mine, _trajectory(ft, name))


@pytest.mark.parametrize("name", ["one_cycle", "cyclic_triangular2", "warm_restarts_mult", "chained",
                                  "cyclic_scale_fn"])
def test_state_dict_keys_match_torch(name, real_torch):
    import flowgrad.torch as ft
    keys = []
    for T in (ft, real_torch):
        opt = SCHEDULERS[name][0](T)
        sd = SCHEDULERS[name][1](T.optim.lr_scheduler, opt).state_dict()
        keys.append(sorted(sd) if "_schedulers" not in sd else (sorted(sd), [sorted(s) for s in sd["_schedulers"]]))
    assert keys[0] == keys[1]


def test_one_cycle_refuses_a_step_past_total_steps(torch):
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=2)
    opt.step()
    sched.step()
    sched.step()
    lrs = sched.get_last_lr()
    with pytest.raises(ValueError, match="^Tried to step 3 times. The specified number of total steps is 2$"):
        sched.step()
    assert opt.param_groups[0]["lr"] == lrs[0]


def test_warm_restarts_with_epoch_argument(real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        opt = T.optim.SGD([T.zeros(1, requires_grad=True)], lr=1.0)
        sched = T.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2)
        rows = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for epoch in (0.5, 1.5, 2, 5.25, 7, 1):
                sched.step(epoch)
                rows.append((sched.get_last_lr()[0], sched.T_cur, sched.T_i, sched.last_epoch))
        with pytest.raises(ValueError, match="^Expected non-negative epoch, but got -1$"):
            sched.step(-1)
        out.append(rows)
    _assert_close(out[0], out[1])


def _one_param(T, **kw):
    return T.optim.SGD([T.zeros(1, requires_grad=True)], lr=0.1, **kw)


ERRORS = [
    (lambda T, L: L.OneCycleLR(_one_param(T, momentum=0.9), 1.0), "You must define either total_steps OR (epochs AND "
                                                                  "steps_per_epoch)"),
    (lambda T, L: L.OneCycleLR(_one_param(T, momentum=0.9), 1.0, total_steps=0),
     "Expected positive integer total_steps, but got 0"),
    (lambda T, L: L.OneCycleLR(_one_param(T, momentum=0.9), 1.0, epochs=2.0, steps_per_epoch=3),
     "Expected positive integer epochs, but got 2.0"),
    (lambda T, L: L.OneCycleLR(_one_param(T, momentum=0.9), 1.0, epochs=2, steps_per_epoch=-3),
     "Expected positive integer steps_per_epoch, but got -3"),
    (lambda T, L: L.OneCycleLR(_one_param(T, momentum=0.9), 1.0, total_steps=5, pct_start=1),
     "Expected float between 0 and 1 pct_start, but got 1"),
    (lambda T, L: L.OneCycleLR(_one_param(T, momentum=0.9), 1.0, total_steps=5, anneal_strategy="exp"),
     "anneal_strategy must be one of 'cos' or 'linear', instead got exp"),
    (lambda T, L: L.OneCycleLR(_one_param(T, momentum=0.9), [1.0, 2.0], total_steps=5),
     "max_lr must have the same length as optimizer.param_groups. max_lr has 2 values, param_groups has 1."),
    (lambda T, L: L.OneCycleLR(T.optim.Adagrad([T.zeros(1, requires_grad=True)]), 1.0, total_steps=5),
     "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"),
    (lambda T, L: L.CyclicLR(_one_param(T, momentum=0.9), 0.1, 1.0, mode="square"),
     "mode is invalid and scale_fn is None"),
    (lambda T, L: L.CyclicLR(_one_param(T, momentum=0.9), 0.1, 1.0, base_momentum=[0.1, 0.2]),
     "base_momentum must have the same length as optimizer.param_groups. base_momentum has 2 values, param_groups "
     "has 1."),
    (lambda T, L: L.CosineAnnealingWarmRestarts(_one_param(T), T_0=0), "Expected positive integer T_0, but got 0"),
    (lambda T, L: L.CosineAnnealingWarmRestarts(_one_param(T), T_0=2, T_mult=1.5),
     "Expected integer T_mult >= 1, but got 1.5"),
    (lambda T, L: L.CosineAnnealingWarmRestarts(_one_param(T), T_0=2, eta_min="0"),
     "Expected float or int eta_min, but got 0 of type <class 'str'>"),
    (lambda T, L: L.ChainedScheduler([]), "ChainedScheduler expects at least one scheduler to be chained, but got no "
                                          "scheduler."),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_constructor_errors(case, torch):
    make, message = ERRORS[case]
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        make(torch, torch.optim.lr_scheduler)


def test_chained_scheduler_checks_its_schedulers(torch):
    L = torch.optim.lr_scheduler
    o1, o2 = _one_param(torch), _one_param(torch)
    with pytest.raises(ValueError, match=re.escape("ChainedScheduler expects all schedulers to belong to the same "
                                                   "optimizer, but got scheduler StepLR at index 1")):
        L.ChainedScheduler([L.StepLR(o1, 2), L.StepLR(o2, 2)])
    with pytest.raises(ValueError, match=re.escape("ChainedScheduler does not support `ReduceLROnPlateau` scheduler")):
        L.ChainedScheduler([L.ReduceLROnPlateau(o1)])
    with pytest.raises(TypeError, match=re.escape("ChainedScheduler at index 0 should have `optimizer` as its "
                                                  "attribute.")):
        L.ChainedScheduler([object()], o1)


def test_cyclic_lr_state_dict_keeps_a_callable_objects_state(real_torch):
    import flowgrad.torch as ft

    class Halving:
        def __init__(self):
            self.calls = 0

        def __call__(self, x):
            self.calls += 1
            return 0.5 ** x

    out = []
    for T in (ft, real_torch):
        fn = Halving()
        sched = T.optim.lr_scheduler.CyclicLR(_one_param(T, momentum=0.9), 0.01, 0.1, scale_fn=fn)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sched.step()
        sd = sched.state_dict()
        fresh = Halving()
        again = T.optim.lr_scheduler.CyclicLR(_one_param(T, momentum=0.9), 0.01, 0.1, scale_fn=fresh)
        shown = (dict(sd["_scale_fn_custom"]), "_scale_fn_ref" in sd)
        again.load_state_dict(sd)
        out.append((shown, fresh.calls, sorted(sd)))
    assert out[0] == out[1]


def test_lr_values_are_floats_in_param_groups(torch):
    opt = _sgd(torch)
    torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=4)
    assert all(isinstance(g["lr"], float) for g in opt.param_groups)
    np.testing.assert_allclose([g["lr"] for g in opt.param_groups], [0.04, 0.04])


PLATEAU = {
    "min_rel": dict(patience=1, factor=0.5),
    "max_abs_cooldown": dict(mode="max", threshold_mode="abs", threshold=0.1, patience=0, cooldown=2, factor=0.3),
    "min_lrs_list": dict(patience=0, factor=0.1, min_lr=[0.02, 0.3], eps=1e-3),
}
METRICS = [3.0, 2.0, 2.0, 2.5, 2.0, 1.99, 1.0, 1.0, 1.2, 0.5, 0.5, 0.5, 0.4]


@pytest.mark.parametrize("name", sorted(PLATEAU))
def test_reduce_lr_on_plateau_matches_torch_with_round_trip(name, real_torch):
    import flowgrad.torch as ft

    def run(T, split_at=None):
        opt = _sgd(T)
        sched = T.optim.lr_scheduler.ReduceLROnPlateau(opt, **PLATEAU[name])
        rows = []
        for i, metric in enumerate(METRICS):
            if i == split_at:
                saved_opt, saved = copy.deepcopy(opt.state_dict()), copy.deepcopy(sched.state_dict())
                opt = _sgd(T)
                sched = T.optim.lr_scheduler.ReduceLROnPlateau(opt, **PLATEAU[name])
                opt.load_state_dict(saved_opt)
                sched.load_state_dict(saved)
            sched.step(metric)
            rows.append((sched.get_last_lr(), sched.num_bad_epochs, sched.cooldown_counter, sched.best,
                         sched.last_epoch))
        return rows, sorted(sched.state_dict())

    mine, theirs = run(ft), run(real_torch)
    _assert_close(mine[0], theirs[0])
    assert mine[1] == theirs[1]
    _assert_close(run(ft, split_at=6)[0], theirs[0])
