"""Optimizers: PyTorch's update formulas step by step (float64, against real torch and the
reference numbers), state and state dicts, param groups, hooks, closures and the errors."""
from __future__ import annotations

import copy
import re
import warnings

import numpy as np
import pytest

rng = np.random.default_rng(2)
W0, B0 = rng.standard_normal((3, 4)), rng.standard_normal(4)
X, Y = rng.standard_normal((5, 3)), rng.standard_normal((5, 4))


def _trajectory(T, make_opt, steps=6, make_sched=None, skip_b_at=None):
    w = T.tensor(W0.copy(), requires_grad=True)
    b = T.tensor(B0.copy(), requires_grad=True)
    x, y = T.tensor(X), T.tensor(Y)
    opt = make_opt(T, [w, b])
    sched = make_sched(T, opt) if make_sched else None
    rows = []
    for i in range(steps):
        opt.zero_grad()
        (((x @ w + b).tanh() - y) ** 2).sum().backward()
        if skip_b_at == i:
            b.grad = None
        opt.step()
        if sched is not None:
            sched.step()
        rows.append(np.concatenate([w.detach().numpy().ravel(), b.detach().numpy().ravel(),
                                    [g["lr"] for g in opt.param_groups]]))
    state = {k: {kk: vv.numpy() if hasattr(vv, "numpy") else vv for kk, vv in v.items()}
             for k, v in opt.state_dict()["state"].items()}
    return np.array(rows), state


OPTIMIZERS = {
    "sgd": lambda T, p: T.optim.SGD(p, lr=0.05),
    "sgd_momentum": lambda T, p: T.optim.SGD(p, lr=0.05, momentum=0.9),
    "sgd_dampening_weight_decay": lambda T, p: T.optim.SGD(p, lr=0.05, momentum=0.9, dampening=0.3,
                                                           weight_decay=0.1),
    "sgd_nesterov_maximize": lambda T, p: T.optim.SGD(p, lr=0.01, momentum=0.9, nesterov=True, maximize=True),
    "adam": lambda T, p: T.optim.Adam(p, lr=0.05),
    "adam_weight_decay_amsgrad": lambda T, p: T.optim.Adam(p, lr=0.05, weight_decay=0.1, amsgrad=True),
    "adam_betas_eps_maximize": lambda T, p: T.optim.Adam(p, lr=0.05, betas=(0.3, 0.6), eps=1e-3, maximize=True),
    "adam_decoupled": lambda T, p: T.optim.Adam(p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
    "adamw": lambda T, p: T.optim.AdamW(p, lr=0.05),
    "adamw_amsgrad": lambda T, p: T.optim.AdamW(p, lr=0.05, weight_decay=0.3, amsgrad=True),
    "rmsprop": lambda T, p: T.optim.RMSprop(p, lr=0.01),
    "rmsprop_centered_momentum_decay": lambda T, p: T.optim.RMSprop(p, lr=0.01, momentum=0.5, centered=True,
                                                                    weight_decay=0.1, alpha=0.9),
    "rmsprop_maximize": lambda T, p: T.optim.RMSprop(p, lr=0.01, maximize=True, momentum=0.2),
    "adagrad": lambda T, p: T.optim.Adagrad(p, lr=0.1),
    "adagrad_all_options": lambda T, p: T.optim.Adagrad(p, lr=0.1, lr_decay=0.1, weight_decay=0.1,
                                                        initial_accumulator_value=0.5, maximize=True),
    "adamax": lambda T, p: T.optim.Adamax(p, lr=0.05),
    "adamax_options": lambda T, p: T.optim.Adamax(p, lr=0.05, betas=(0.5, 0.8), eps=1e-3, weight_decay=0.1,
                                                  maximize=True),
    "adadelta": lambda T, p: T.optim.Adadelta(p),
    "adadelta_options": lambda T, p: T.optim.Adadelta(p, lr=0.5, rho=0.8, eps=1e-4, weight_decay=0.1, maximize=True),
    "nadam": lambda T, p: T.optim.NAdam(p, lr=0.05),
    "nadam_options": lambda T, p: T.optim.NAdam(p, lr=0.05, betas=(0.5, 0.8), weight_decay=0.1, momentum_decay=0.02,
                                                maximize=True),
    "nadam_decoupled": lambda T, p: T.optim.NAdam(p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
    "radam": lambda T, p: T.optim.RAdam(p, lr=0.05),
    "radam_short_sma": lambda T, p: T.optim.RAdam(p, lr=0.05, betas=(0.9, 0.6), weight_decay=0.1, maximize=True),
    "radam_decoupled": lambda T, p: T.optim.RAdam(p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
    "param_groups": lambda T, p: T.optim.SGD([{"params": [p[0]]}, {"params": [p[1]], "lr": 0.2, "momentum": 0.5}],
                                             lr=0.05),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_steps_match_torch(name, real_torch):
    import flowgrad.torch as ft
    a, sa = _trajectory(ft, OPTIMIZERS[name])
    b, sb = _trajectory(real_torch, OPTIMIZERS[name])
    np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    assert {k: list(v) for k, v in sa.items()} == {k: list(v) for k, v in sb.items()}
    for k in sb:
        for kk in sb[k]:
            np.testing.assert_allclose(sa[k][kk], sb[k][kk], rtol=1e-10, atol=1e-12)
            assert np.asarray(sa[k][kk]).dtype == np.asarray(sb[k][kk]).dtype


@pytest.mark.parametrize("name", ["sgd_momentum", "adam", "rmsprop", "adagrad"])
def test_parameter_without_grad_is_skipped(name, real_torch):
    import flowgrad.torch as ft
    a, sa = _trajectory(ft, OPTIMIZERS[name], skip_b_at=2)
    b, sb = _trajectory(real_torch, OPTIMIZERS[name], skip_b_at=2)
    np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


SCHEDULERS = {
    "step": lambda T, o: T.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5),
    "multistep": lambda T, o: T.optim.lr_scheduler.MultiStepLR(o, milestones=[1, 3, 3], gamma=0.5),
    "exponential": lambda T, o: T.optim.lr_scheduler.ExponentialLR(o, gamma=0.7),
    "cosine": lambda T, o: T.optim.lr_scheduler.CosineAnnealingLR(o, T_max=3, eta_min=0.01),
    "lambda": lambda T, o: T.optim.lr_scheduler.LambdaLR(o, lambda e: 1 / (e + 1)),
    "linear": lambda T, o: T.optim.lr_scheduler.LinearLR(o, start_factor=0.5, total_iters=3),
    "constant": lambda T, o: T.optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2),
    "multiplicative": lambda T, o: T.optim.lr_scheduler.MultiplicativeLR(o, lambda e: 0.9),
}


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_schedulers_match_torch(name, real_torch):
    import flowgrad.torch as ft
    a, _ = _trajectory(ft, OPTIMIZERS["sgd_momentum"], steps=8, make_sched=SCHEDULERS[name])
    b, _ = _trajectory(real_torch, OPTIMIZERS["sgd_momentum"], steps=8, make_sched=SCHEDULERS[name])
    np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_cosine_annealing_lr_sequence(torch):
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
    lrs = []
    for _ in range(9):
        opt.step()
        sched.step()
        lrs.append(round(sched.get_last_lr()[0], 10))
    assert lrs == [0.8535533906, 0.5, 0.1464466094, 0.0, 0.1464466094, 0.5, 0.8535533906, 1.0, 0.8535533906]


def test_reduce_lr_on_plateau(torch):
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1, factor=0.5)
    lrs = []
    for metric in [3.0, 2.0, 2.0, 2.0, 2.0, 2.0, 1.0]:
        sched.step(metric)
        lrs.append(opt.param_groups[0]["lr"])
    assert lrs == [1.0, 1.0, 1.0, 0.5, 0.5, 0.25, 0.25]


def test_scheduler_before_optimizer_warns(torch):
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched = torch.optim.lr_scheduler.StepLR(opt, 1)
    with pytest.warns(UserWarning, match=re.escape("Detected call of `lr_scheduler.step()` before "
                                                   "`optimizer.step()`")):
        sched.step()


def test_scheduler_state_dict_round_trip(torch):
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched = torch.optim.lr_scheduler.StepLR(opt, 2, 0.1)
    for _ in range(3):
        opt.step()
        sched.step()
    sd = sched.state_dict()
    assert sd["last_epoch"] == 3 and sd["base_lrs"] == [1.0] and "optimizer" not in sd
    opt2 = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched2 = torch.optim.lr_scheduler.StepLR(opt2, 2, 0.1)
    sched2.load_state_dict(sd)
    assert sched2.last_epoch == 3 and sched2.get_last_lr() == sched.get_last_lr()


# -------------------------------------------------------------------- reference numbers

def _reference_steps(torch, make):
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    opt = make(torch, [w])
    out = []
    for _ in range(3):
        opt.zero_grad()
        (w ** 2).sum().backward()
        opt.step()
        out.append([round(v, 4) for v in w.tolist()])
    return out


def test_reference_sgd_momentum(torch):
    assert _reference_steps(torch, lambda T, p: T.optim.SGD(p, lr=0.1, momentum=0.9)) == \
        [[0.8, -1.6], [0.46, -0.92], [0.062, -0.124]]


def test_reference_sgd_weight_decay(torch):
    assert _reference_steps(torch, lambda T, p: T.optim.SGD(p, lr=0.1, weight_decay=0.5))[0] == [0.75, -1.5]


def test_reference_adam(torch):
    assert _reference_steps(torch, lambda T, p: T.optim.Adam(p, lr=0.1)) == \
        [[0.9, -1.9], [0.8004, -1.8002], [0.7016, -1.7006]]


# ---------------------------------------------------------------------------- API

def test_defaults_in_param_groups(torch):
    p = [torch.zeros(1, requires_grad=True)]
    assert {k: v for k, v in torch.optim.SGD(p).param_groups[0].items() if k != "params"} == {
        "lr": 0.001, "momentum": 0, "dampening": 0, "weight_decay": 0, "nesterov": False, "maximize": False,
        "foreach": None, "differentiable": False, "fused": None}
    adam = torch.optim.Adam(p).param_groups[0]
    assert adam["betas"] == (0.9, 0.999) and adam["eps"] == 1e-08 and adam["amsgrad"] is False
    assert torch.optim.AdamW(p).param_groups[0]["weight_decay"] == 0.01
    rms = torch.optim.RMSprop(p).param_groups[0]
    assert (rms["lr"], rms["alpha"], rms["eps"], rms["centered"]) == (0.01, 0.99, 1e-08, False)


def test_param_group_keys_and_repr_match_torch(real_torch):
    import flowgrad.torch as ft
    for name in ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "Adadelta", "NAdam", "RAdam", "LBFGS"):
        reprs, keys = [], []
        for T in (ft, real_torch):
            opt = getattr(T.optim, name)([T.zeros(1, requires_grad=True)], lr=0.5)
            reprs.append(repr(opt))
            keys.append(list(opt.param_groups[0]))
        assert reprs[0] == reprs[1] and keys[0] == keys[1]


def test_state_keys_match_torch(real_torch):
    import flowgrad.torch as ft
    for name, kw in (("Adam", {"amsgrad": True}), ("RMSprop", {"momentum": 0.1, "centered": True}), ("Adagrad", {}),
                     ("SGD", {"momentum": 0.9, "lr": 0.1})):
        out = []
        for T in (ft, real_torch):
            w = T.tensor([1.0, 2.0], requires_grad=True)
            opt = getattr(T.optim, name)([w], **kw)
            (w * w).sum().backward()
            opt.step()
            out.append((list(opt.state[w]), [(v.item(), str(v.dtype)) for v in opt.state[w].values() if v.dim() == 0]))
        assert out[0] == out[1]


def test_zero_grad_sets_none_and_zeroes(torch):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    (w * w).sum().backward()
    opt.zero_grad(set_to_none=False)
    assert w.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert w.grad is None


def test_step_with_closure_returns_loss(torch):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    with torch.no_grad():
        loss = opt.step(closure)
    assert loss.item() == 5.0 and np.allclose(w.detach().numpy(), [0.8, 1.6])


def test_step_updates_in_place_and_bumps_version(torch):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    alias = w.detach()
    v0 = w._version
    opt = torch.optim.SGD([w], lr=0.1)
    (w * w).sum().backward()
    opt.step()
    assert np.allclose(alias.numpy(), [0.8, 1.6]) and w._version > v0 and w.is_leaf


def test_step_after_backward_through_updated_param_raises_version_error(torch):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    loss = (w * w).sum()
    loss.backward(retain_graph=True)
    opt.step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


def test_add_param_group_and_errors(torch):
    a, b = torch.zeros(1, requires_grad=True), torch.zeros(2, requires_grad=True)
    opt = torch.optim.SGD([a], lr=0.1)
    opt.add_param_group({"params": b, "lr": 0.5})
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5] and opt.param_groups[1]["momentum"] == 0
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        opt.add_param_group({"params": [a]})
    with pytest.raises(ValueError, match=re.escape("can't optimize a non-leaf Tensor")):
        torch.optim.SGD([torch.zeros(1, requires_grad=True) * 2], lr=0.1)
    with pytest.raises(ValueError, match=re.escape("optimizer got an empty parameter list")):
        torch.optim.Adam([])
    with pytest.raises(TypeError, match=re.escape("params argument given to the optimizer should be an iterable of "
                                                  "Tensors or dicts, but got torch.FloatTensor")):
        torch.optim.SGD(torch.zeros(1, requires_grad=True), lr=0.1)
    with pytest.raises(TypeError, match=re.escape("optimizer can only optimize Tensors, but one of the params is "
                                                  "int")):
        torch.optim.SGD([1], lr=0.1)
    with pytest.raises(TypeError, match="optimizer parameters need to be organized in ordered collections"):
        opt.add_param_group({"params": {torch.zeros(1, requires_grad=True)}})


def test_hyperparameter_validation(torch):
    p = [torch.zeros(1, requires_grad=True)]
    with pytest.raises(ValueError, match=re.escape("Invalid learning rate: -1")):
        torch.optim.SGD(p, lr=-1)
    with pytest.raises(ValueError, match=re.escape("Nesterov momentum requires a momentum and zero dampening")):
        torch.optim.SGD(p, lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match=re.escape("Invalid beta parameter at index 1: 1.0")):
        torch.optim.Adam(p, betas=(0.9, 1.0))
    with pytest.raises(ValueError, match=re.escape("Invalid alpha value: -0.5")):
        torch.optim.RMSprop(p, alpha=-0.5)
    with pytest.raises(ValueError, match=re.escape("Invalid lr_decay value: -1")):
        torch.optim.Adagrad(p, lr_decay=-1)


def test_named_parameters_are_accepted(torch):
    lin = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(lin.named_parameters(), lr=0.1)
    assert opt.param_groups[0]["param_names"] == ["weight", "bias"]
    assert opt.state_dict()["param_groups"][0]["param_names"] == ["weight", "bias"]


def test_state_dict_and_load_state_dict(torch):
    def make():
        w = torch.tensor([1.0, -2.0], requires_grad=True)
        return w, torch.optim.Adam([w], lr=0.1)

    w1, o1 = make()
    for _ in range(2):
        o1.zero_grad()
        (w1 ** 2).sum().backward()
        o1.step()
    sd = o1.state_dict()
    assert list(sd) == ["state", "param_groups"] and list(sd["state"]) == [0]
    assert sd["param_groups"][0]["params"] == [0]
    w2, o2 = make()
    with torch.no_grad():
        w2.copy_(w1)
    o2.load_state_dict(copy.deepcopy(sd))
    for w, o in ((w1, o1), (w2, o2)):
        o.zero_grad()
        (w ** 2).sum().backward()
        o.step()
    assert torch.equal(w1, w2)
    with pytest.raises(ValueError, match="loaded state dict has a different number of parameter groups"):
        o2.load_state_dict({"state": {}, "param_groups": []})
    with pytest.raises(ValueError, match="loaded state dict contains a parameter group that doesn't match the size "
                                         "of optimizer's group"):
        o2.load_state_dict({"state": {}, "param_groups": [{"params": [0, 1], "lr": 0.1}]})


def test_step_hooks(torch):
    w = torch.tensor([1.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    calls = []
    h = opt.register_step_pre_hook(lambda o, a, k: calls.append("pre"))
    opt.register_step_post_hook(lambda o, a, k: calls.append("post"))
    opt.step()
    h.remove()
    opt.step()
    assert calls == ["pre", "post", "post"]


def test_lr_change_in_param_group_takes_effect(torch):
    w = torch.tensor([1.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    opt.param_groups[0]["lr"] = 0.5
    (w * w).sum().backward()
    opt.step()
    assert w.item() == pytest.approx(0.0)


def test_duplicate_parameters_warn(torch):
    w = torch.tensor([1.0], requires_grad=True)
    with pytest.warns(UserWarning, match="optimizer contains a parameter group with duplicate parameters"):
        torch.optim.SGD([w, w], lr=0.1)


def test_clip_grad_norm_and_value(torch, real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        a = T.tensor([3.0, 4.0], requires_grad=True)
        b = T.tensor([[1.0, -2.0]], requires_grad=True)
        ((a * a).sum() + (b ** 3).sum()).backward()
        total = T.nn.utils.clip_grad_norm_([a, b], max_norm=1.0)
        inf_total = T.nn.utils.clip_grad_norm_([a, b], max_norm=100.0, norm_type="inf")
        T.nn.utils.clip_grad_value_([a, b], 0.1)
        vec = T.nn.utils.parameters_to_vector([a, b])
        out.append((total.item(), float(inf_total), a.grad.tolist(), b.grad.tolist(), vec.tolist(),
                    total.dtype == T.float32))
    np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-6)
    np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-6)
    assert out[0][2:] == out[1][2:]


def test_clip_grad_norm_non_finite(torch):
    w = torch.tensor([1.0], requires_grad=True)
    w.grad = torch.tensor([float("inf")])
    with pytest.raises(RuntimeError, match="The total norm of order 2.0 for gradients from `parameters` is "
                                           "non-finite"):
        torch.nn.utils.clip_grad_norm_([w], 1.0, error_if_nonfinite=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.nn.utils.clip_grad_norm_([torch.zeros(1, requires_grad=True)], 1.0).item() == 0.0


def test_vector_to_parameters(torch):
    lin = torch.nn.Linear(2, 1)
    torch.nn.utils.vector_to_parameters(torch.tensor([1.0, 2.0, 3.0]), lin.parameters())
    assert lin.weight.tolist() == [[1.0, 2.0]] and lin.bias.tolist() == [3.0]
    assert torch.nn.utils.parameters_to_vector(lin.parameters()).tolist() == [1.0, 2.0, 3.0]
