"""torch.optim.LBFGS without line search: the iterations, the curvature history and the stopping
rules of real torch's, state carried across steps, its argument checks and its hooks."""
from __future__ import annotations

import numpy as np
import pytest

rng = np.random.default_rng(4)
A, B = rng.standard_normal((6, 4)), rng.standard_normal(6)
W0 = rng.standard_normal(4)


def _problem(T, dtype="float64"):
    """A least-squares term, a Rosenbrock valley and a quartic: curvature that changes along the way."""
    dt = getattr(T, dtype)
    w = T.nn.Parameter(T.tensor(W0, dtype=dt))
    c = T.nn.Parameter(T.tensor([0.5, -0.3], dtype=dt))
    a, b = T.tensor(A, dtype=dt), T.tensor(B, dtype=dt)

    def loss():
        return ((a @ w - b) ** 2).sum() + (1 - c[0]) ** 2 + 100 * (c[1] - c[0] ** 2) ** 2 + 0.01 * (w ** 4).sum()
    return [w, c], loss


def _run(T, steps=3, dtype="float64", **kwargs):
    params, loss_fn = _problem(T, dtype)
    opt = T.optim.LBFGS(params, **kwargs)

    def closure():
        opt.zero_grad()
        loss = loss_fn()
        loss.backward()
        return loss
    losses = [opt.step(closure).item() for _ in range(steps)]
    state = opt.state[params[0]]
    summary = {k: state[k] for k in ("n_iter", "func_evals")}
    if "d" in state:
        summary.update(t=float(state["t"]), prev_loss=state["prev_loss"], history=len(state["old_dirs"]),
                       d=state["d"].numpy().copy(), prev_flat_grad=state["prev_flat_grad"].numpy().copy())
    return np.array(losses), [p.detach().numpy().copy() for p in params], summary, sorted(state)


@pytest.mark.parametrize("kwargs", [dict(), dict(lr=0.8, max_iter=5, history_size=3),
                                    dict(lr=0.5, max_iter=7, history_size=2, max_eval=6),
                                    dict(max_iter=50, tolerance_change=1e-4), dict(lr=0.1, max_iter=1)],
                         ids=str)
def test_iterations_match_torch(real_torch, ftorch, kwargs):
    want, got = _run(real_torch, **kwargs), _run(ftorch, **kwargs)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-10)
    for g, w in zip(got[1], want[1]):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12)
    assert got[3] == want[3]
    for key, value in want[2].items():
        np.testing.assert_allclose(got[2][key], value, rtol=1e-9, atol=1e-12, err_msg=key)


def test_float32_iterations_match_torch(real_torch, ftorch):
    want, got = _run(real_torch, dtype="float32", lr=0.8, max_iter=3), _run(ftorch, dtype="float32", lr=0.8, max_iter=3)
    for g, w in zip(got[1], want[1]):
        assert g.dtype == w.dtype == np.float32
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_a_gradient_below_tolerance_returns_at_once(torch):
    p = torch.nn.Parameter(torch.tensor([1e-9, -1e-9], dtype=torch.float64))
    opt = torch.optim.LBFGS([p])
    calls = []

    def closure():
        calls.append(1)
        opt.zero_grad()
        loss = (p ** 2).sum()
        loss.backward()
        return loss
    assert opt.step(closure).item() == pytest.approx(2e-18)
    assert calls == [1] and p.tolist() == [1e-9, -1e-9]
    assert opt.state[p] == {"func_evals": 1, "n_iter": 0}


def test_defaults_and_param_group_keys(torch):
    opt = torch.optim.LBFGS([torch.nn.Parameter(torch.ones(2))], max_iter=8)
    group = {k: v for k, v in opt.param_groups[0].items() if k != "params"}
    assert group == {"lr": 1, "max_iter": 8, "max_eval": 10, "tolerance_grad": 1e-07, "tolerance_change": 1e-09,
                     "history_size": 100, "line_search_fn": None}


def test_step_hooks_run_once_per_step(torch):
    p = torch.nn.Parameter(torch.tensor([1.0, 2.0], dtype=torch.float64))
    opt = torch.optim.LBFGS([p], max_iter=4)
    seen = []
    opt.register_step_pre_hook(lambda o, args, kwargs: seen.append("pre"))
    opt.register_step_post_hook(lambda o, args, kwargs: seen.append("post"))

    def closure():
        opt.zero_grad()
        loss = ((p - 3) ** 2).sum()
        loss.backward()
        return loss
    opt.step(closure)
    assert seen == ["pre", "post"]


def _error(fn):
    with pytest.raises(Exception) as err:
        fn()
    return type(err.value).__name__, str(err.value)


@pytest.mark.parametrize("case", [
    lambda T, p: T.optim.LBFGS([p], lr=-1),
    lambda T, p: T.optim.LBFGS([{"params": [p]}, {"params": [T.nn.Parameter(T.ones(1))]}]),
    lambda T, p: T.optim.LBFGS([p]).step(),
], ids=["lr", "groups", "no closure"])
def test_argument_errors_match_torch(real_torch, ftorch, case):
    want = _error(lambda: case(real_torch, real_torch.nn.Parameter(real_torch.ones(2))))
    assert _error(lambda: case(ftorch, ftorch.nn.Parameter(ftorch.ones(2)))) == want


def test_an_unknown_line_search_fails_at_the_first_iteration_as_in_torch(torch):
    p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    opt = torch.optim.LBFGS([p], line_search_fn="backtracking")

    def closure():
        opt.zero_grad()
        loss = (p ** 2).sum()
        loss.backward()
        return loss
    with pytest.raises(RuntimeError, match="^only 'strong_wolfe' is supported$"):
        opt.step(closure)
    assert p.tolist() == [1.0, 2.0]


def test_state_dict_resumes_the_iterations(real_torch, ftorch):
    """An optimizer loaded from another's state dict goes on with its history, as real torch's does."""
    def resumed(T):
        params, loss_fn = _problem(T)
        first = T.optim.LBFGS(params, max_iter=3, history_size=4)

        def closure(opt):
            def run():
                opt.zero_grad()
                loss = loss_fn()
                loss.backward()
                return loss
            return run
        first.step(closure(first))
        second = T.optim.LBFGS(params, max_iter=3, history_size=4)
        second.load_state_dict(first.state_dict())
        second.step(closure(second))
        return [p.detach().numpy().copy() for p in params], second.state[params[0]]["n_iter"]
    (want, want_iter), (got, got_iter) = resumed(real_torch), resumed(ftorch)
    assert got_iter == want_iter > 2
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12)
