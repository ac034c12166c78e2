"""Adadelta, NAdam, RAdam and LBFGS against real torch: parameters after several closure steps
(float64), state-dict round trips (save, load into a fresh optimizer, continue), hyperparameter
errors, and the implementation switches flowgrad does not build."""
from __future__ import annotations

import copy
import re

import numpy as np
import pytest

rng = np.random.default_rng(7)
W0, C = rng.standard_normal(6), rng.standard_normal(6)
X, Y, M0 = rng.standard_normal((5, 3)), rng.standard_normal((5, 4)), rng.standard_normal((3, 4))


def _elementwise_loss(w, c):
    # elementwise arithmetic and one short sum: flowgrad's and torch's gradients agree to the bit,
    # so LBFGS's branch decisions (line search, tolerances) agree too
    return ((w - c) ** 2 * (c * c + 1)).sum() + (w ** 4).sum() * 0.1


def _run(T, make, steps=4, split_at=None, dtype=np.float64):
    """Parameters after each closure step; with `split_at`, the optimizer's state dict is saved
    after that many steps and loaded into a fresh optimizer (over fresh parameters) that goes on."""
    w = T.tensor(W0.astype(dtype), requires_grad=True)
    c = T.tensor(C.astype(dtype))
    opt = make(T, [w])
    rows, losses = [], []
    for i in range(steps):
        if i == split_at:
            saved = copy.deepcopy(opt.state_dict())
            w = T.tensor(w.detach().numpy().copy(), requires_grad=True)
            opt = make(T, [w])
            opt.load_state_dict(saved)

        def closure():
            opt.zero_grad()
            loss = _elementwise_loss(w, c)
            loss.backward()
            return loss

        losses.append(opt.step(closure).item())
        rows.append(w.detach().numpy().copy())
    return np.array(rows), losses, opt


LBFGS = {
    "fixed_step": lambda T, p: T.optim.LBFGS(p, lr=0.5, max_iter=5, history_size=3),
    "defaults": lambda T, p: T.optim.LBFGS(p),
    "strong_wolfe": lambda T, p: T.optim.LBFGS(p, max_iter=7, history_size=3, line_search_fn="strong_wolfe"),
    "strong_wolfe_short": lambda T, p: T.optim.LBFGS(p, lr=0.8, max_iter=3, max_eval=5, history_size=2,
                                                     line_search_fn="strong_wolfe", tolerance_change=1e-5),
}


@pytest.mark.parametrize("name", sorted(LBFGS))
def test_lbfgs_steps_match_torch(name, real_torch):
    import flowgrad.torch as ft
    a, la, oa = _run(ft, LBFGS[name])
    b, lb, ob = _run(real_torch, LBFGS[name])
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(la, lb, rtol=1e-12)
    sa, sb = oa.state_dict()["state"][0], ob.state_dict()["state"][0]
    assert list(sa) == list(sb)
    assert (sa["func_evals"], sa["n_iter"]) == (sb["func_evals"], sb["n_iter"])
    assert len(sa["old_dirs"]) == len(sb["old_dirs"]) and len(sa["ro"]) == len(sb["ro"])
    np.testing.assert_allclose(sa["d"].numpy(), sb["d"].numpy(), rtol=1e-10, atol=1e-14)
    assert type(sa["t"]).__name__ == type(sb["t"]).__name__


def test_lbfgs_on_a_matmul_model_matches_torch(real_torch):
    import flowgrad.torch as ft

    def run(T):
        w = T.tensor(M0.copy(), requires_grad=True)
        x, y = T.tensor(X), T.tensor(Y)
        opt = T.optim.LBFGS([w], lr=0.5, max_iter=4, history_size=2, line_search_fn="strong_wolfe")
        out = []
        for _ in range(3):
            def closure():
                opt.zero_grad()
                loss = (((x @ w).tanh() - y) ** 2).sum()
                loss.backward()
                return loss
            opt.step(closure)
            out.append(w.detach().numpy().copy())
        return np.array(out)

    np.testing.assert_allclose(run(ft), run(real_torch), rtol=1e-8, atol=1e-10)


ROUND_TRIP = dict(LBFGS, **{
    "adadelta": lambda T, p: T.optim.Adadelta(p, lr=0.5, weight_decay=0.1),
    "nadam": lambda T, p: T.optim.NAdam(p, lr=0.05, weight_decay=0.1, momentum_decay=0.01),
    "nadam_decoupled": lambda T, p: T.optim.NAdam(p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
    "radam": lambda T, p: T.optim.RAdam(p, lr=0.05, weight_decay=0.1),
    "radam_decoupled": lambda T, p: T.optim.RAdam(p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
    "asgd": lambda T, p: T.optim.ASGD(p, lr=0.05, t0=2, lambd=0.01),
    "rprop": lambda T, p: T.optim.Rprop(p, lr=0.05),
    "adafactor": lambda T, p: T.optim.Adafactor(p, lr=0.05, weight_decay=0.1),
})


@pytest.mark.parametrize("name", sorted(ROUND_TRIP))
def test_state_dict_round_trip_continues_as_torch(name, real_torch):
    import flowgrad.torch as ft
    a, _, oa = _run(ft, ROUND_TRIP[name], steps=8, split_at=3)
    b, _, ob = _run(real_torch, ROUND_TRIP[name], steps=8, split_at=3)
    unsplit, _, _ = _run(ft, ROUND_TRIP[name], steps=8)
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    if not name.startswith(("nadam", "asgd")):
        # (NAdam's mu_product and ASGD's eta and mu, kept in the default float dtype, are cast to the
        # parameter's on loading, as in PyTorch, so a float64 run that loads goes on slightly differently)
        np.testing.assert_allclose(a, unsplit, rtol=0, atol=0)
    sa, sb = oa.state_dict(), ob.state_dict()
    assert list(sa["state"][0]) == list(sb["state"][0])
    assert sa["param_groups"] == sb["param_groups"]


@pytest.mark.parametrize("name", ["nadam", "radam", "adadelta", "asgd", "rprop", "adafactor"])
def test_float32_state_dtypes_match_torch(name, real_torch):
    import flowgrad.torch as ft
    _, _, oa = _run(ft, ROUND_TRIP[name], steps=2, dtype=np.float32)
    _, _, ob = _run(real_torch, ROUND_TRIP[name], steps=2, dtype=np.float32)
    sa, sb = oa.state_dict()["state"][0], ob.state_dict()["state"][0]
    assert [(k, str(v.dtype), tuple(v.shape)) for k, v in sa.items()] == \
        [(k, str(v.dtype), tuple(v.shape)) for k, v in sb.items()]
    for k in sb:
        np.testing.assert_allclose(sa[k].numpy(), sb[k].numpy(), rtol=1e-5, atol=1e-6)


ERRORS = [
    (lambda T, p: T.optim.Adadelta(p, lr=-1), ValueError, "Invalid learning rate: -1"),
    (lambda T, p: T.optim.Adadelta(p, rho=1.5), ValueError, "Invalid rho value: 1.5"),
    (lambda T, p: T.optim.Adadelta(p, eps=-1e-3), ValueError, "Invalid epsilon value: -0.001"),
    (lambda T, p: T.optim.Adadelta(p, weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
    (lambda T, p: T.optim.NAdam(p, lr=-1), ValueError, "Invalid learning rate: -1"),
    (lambda T, p: T.optim.NAdam(p, betas=(1.0, 0.9)), ValueError, "Invalid beta parameter at index 0: 1.0"),
    (lambda T, p: T.optim.NAdam(p, momentum_decay=-1), ValueError, "Invalid momentum_decay value: -1"),
    (lambda T, p: T.optim.RAdam(p, eps=-1), ValueError, "Invalid epsilon value: -1"),
    (lambda T, p: T.optim.RAdam(p, betas=(0.9, -0.1)), ValueError, "Invalid beta parameter at index 1: -0.1"),
    (lambda T, p: T.optim.LBFGS(p, lr=-1), ValueError, "Invalid learning rate: -1"),
    (lambda T, p: T.optim.ASGD(p, lr=-1), ValueError, "Invalid learning rate: -1"),
    (lambda T, p: T.optim.ASGD(p, weight_decay=-0.5), ValueError, "Invalid weight_decay value: -0.5"),
    (lambda T, p: T.optim.Rprop(p, etas=(1.1, 1.2)), ValueError, "Invalid eta values: 1.1, 1.2"),
    (lambda T, p: T.optim.Rprop(p, etas=(0.5, 0.9)), ValueError, "Invalid eta values: 0.5, 0.9"),
    (lambda T, p: T.optim.Adafactor(p, lr=-1), ValueError, "Learning rate should be >= 0 but is: -1"),
    (lambda T, p: T.optim.Adafactor(p, beta2_decay=0.5), ValueError, "beta2_decay should be <= 0 but is: 0.5"),
    (lambda T, p: T.optim.Adafactor(p, eps=(-1, 0.1)), ValueError, "epsilon1 should be >= 0 but is: -1"),
    (lambda T, p: T.optim.Adafactor(p, eps=(None, -0.1)), ValueError, "epsilon2 should be >= 0 but is: -0.1"),
    (lambda T, p: T.optim.Adafactor(p, d=0.5), ValueError, "Clipping threshold d should be >= 1 but is: 0.5"),
    (lambda T, p: T.optim.Adafactor(p, weight_decay=-1), ValueError, "weight_decay should be >= 0 but is: -1"),
    (lambda T, p: T.optim.LBFGS([{"params": p}, {"params": [T.zeros(1, requires_grad=True)]}]), ValueError,
     "LBFGS doesn't support per-parameter options (parameter groups)"),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_hyperparameter_errors(case, torch):
    make, exc, message = ERRORS[case]
    with pytest.raises(exc, match="^" + re.escape(message) + "$"):
        make(torch, [torch.zeros(1, requires_grad=True)])


def test_lbfgs_errors(torch):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = torch.optim.LBFGS([w], line_search_fn="wolfe")

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    with pytest.raises(RuntimeError, match="^only 'strong_wolfe' is supported$"):
        opt.step(closure)
    with pytest.raises(TypeError, match=re.escape("step() missing 1 required positional argument: 'closure'")):
        opt.step()


def test_lbfgs_stops_at_once_where_the_gradient_is_below_tolerance(torch):
    w = torch.tensor([0.0, 0.0], requires_grad=True)
    opt = torch.optim.LBFGS([w])
    calls = []

    def closure():
        calls.append(1)
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    assert opt.step(closure).item() == 0.0
    assert len(calls) == 1 and opt.state[w] == {"func_evals": 1, "n_iter": 0}


def test_lbfgs_runs_step_hooks(torch):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = torch.optim.LBFGS([w], max_iter=2)
    calls = []
    opt.register_step_pre_hook(lambda o, a, k: calls.append("pre"))
    opt.register_step_post_hook(lambda o, a, k: calls.append("post"))

    def closure():
        calls.append("closure")
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    opt.step(closure)
    assert calls == ["pre", "closure", "closure", "post"]


UNBUILT = [
    ("SGD", {"fused": True}), ("SGD", {"differentiable": True}),
    ("Adam", {"capturable": True}), ("AdamW", {"fused": True}), ("Adamax", {"differentiable": True}),
    ("RMSprop", {"differentiable": True}), ("Adagrad", {"fused": True}), ("Adadelta", {"capturable": True}),
    ("NAdam", {"capturable": True}), ("RAdam", {"differentiable": True}), ("ASGD", {"capturable": True}),
    ("Rprop", {"capturable": True}),
]


@pytest.mark.parametrize("name, option", UNBUILT, ids=[f"{n}-{next(iter(o))}" for n, o in UNBUILT])
def test_unbuilt_implementation_switches_are_refused(name, option):
    import flowgrad.torch as ft
    w = ft.zeros(2, requires_grad=True)
    (argument, value), = option.items()
    default = None if argument in ("foreach", "fused") else False
    with pytest.raises(NotImplementedError, match="^" + re.escape(
            f"{name}(): flowgrad does not support {argument}={value!r} (only the default, "
            f"{argument}={default!r})") + "$"):
        getattr(ft.optim, name)([w], **option)


@pytest.mark.parametrize("name, kw", [("SGD", dict(momentum=0.9, nesterov=True)), ("Adam", dict(amsgrad=True)),
                                      ("RMSprop", dict(momentum=0.9, weight_decay=1e-2)), ("Adafactor", {}),
                                      ("NAdam", {}), ("Rprop", {})])
def test_foreach_gives_torchs_multi_tensor_numbers(name, kw, real_torch):
    """foreach=True (PyTorch's multi-tensor path) is the same update: flowgrad's loop matches it."""
    import flowgrad.torch as ft
    rng = np.random.default_rng(5)
    start, grads = [rng.standard_normal((3, 2)), rng.standard_normal(4)], [rng.standard_normal(s) for s in ((3, 2), (4,))]
    results = []
    for T in (ft, real_torch):
        params = [T.tensor(a, requires_grad=True) for a in start]
        opt = getattr(T.optim, name)(params, lr=0.1, foreach=True, **kw)
        for step in range(3):
            for p, g in zip(params, grads):
                p.grad = T.tensor(g * (step + 1))
            opt.step()
        results.append([p.detach().numpy() for p in params])
    for mine, theirs in zip(*results):
        np.testing.assert_allclose(mine, theirs, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", ["SGD", "Adam", "Adadelta", "NAdam", "RAdam"])
def test_single_tensor_switch_values_are_accepted(name, real_torch):
    import flowgrad.torch as ft
    groups = []
    for T in (ft, real_torch):
        w = T.zeros(2, requires_grad=True)
        groups.append({k: v for k, v in getattr(T.optim, name)([w], foreach=False).param_groups[0].items()
                       if k != "params"})
    assert groups[0] == groups[1]


def test_lbfgs_over_several_parameters_one_without_grad(real_torch):
    import flowgrad.torch as ft

    def run(T):
        w = T.tensor(M0.copy(), requires_grad=True)
        b = T.tensor(np.ones(4), requires_grad=True)
        unused = T.tensor(np.ones(2), requires_grad=True)
        x, y = T.tensor(X), T.tensor(Y)
        opt = T.optim.LBFGS([w, unused, b], lr=0.3, max_iter=6, history_size=4, line_search_fn="strong_wolfe")
        rows = []
        for _ in range(3):
            def closure():
                opt.zero_grad()
                loss = (((x @ w + b) - y) ** 2).sum() + (w ** 4).sum() * 0.01
                loss.backward()
                return loss
            rows.append(opt.step(closure).item())
        return rows, w.detach().numpy(), b.detach().numpy(), unused.detach().numpy(), opt.state_dict()["state"][0]

    a, b = run(ft), run(real_torch)
    np.testing.assert_allclose(a[0], b[0], rtol=1e-9)
    for x, y in zip(a[1:4], b[1:4]):
        np.testing.assert_allclose(x, y, rtol=1e-8, atol=1e-10)
    assert (a[4]["func_evals"], a[4]["n_iter"]) == (b[4]["func_evals"], b[4]["n_iter"])
