"""torch.utils.checkpoint against real torch: gradients equal to the plain run (reentrant and
not, dropout under preserve_rng_state), how often the function runs, checkpoint_sequential, the
warnings and errors (messages compared with torch's)."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

W1, B1 = np.arange(12.0).reshape(4, 3) / 10, np.ones(4) / 3
W2, B2 = np.arange(8.0).reshape(2, 4) / 7, np.ones(2)
X = np.linspace(-1, 1, 6).reshape(2, 3)


def _model(T):
    lin1, lin2 = T.nn.Linear(3, 4), T.nn.Linear(4, 2)
    with T.no_grad():
        for p, v in zip([*lin1.parameters(), *lin2.parameters()], (W1, B1, W2, B2)):
            p.copy_(T.tensor(v, dtype=T.float32))
    return lin1, lin2


def _grads(T, use_reentrant, checkpointed=True, preserve=True, dropout=0.5):
    lin1, lin2 = _model(T)
    calls = []

    def f(x, scale):
        calls.append(1)
        h = T.nn.functional.dropout(lin1(x).tanh(), dropout) * scale
        return lin2(h).sigmoid()

    T.manual_seed(3)
    x = T.tensor(X, dtype=T.float32, requires_grad=True)
    if checkpointed:
        out = T.utils.checkpoint.checkpoint(f, x, 2.0, use_reentrant=use_reentrant, preserve_rng_state=preserve)
    else:
        out = f(x, 2.0)
    T.manual_seed(11)   # backward's recomputation must not draw from the state left here
    out.sum().backward()
    return [x.grad.numpy(), lin1.weight.grad.numpy(), lin2.bias.grad.numpy(), out.detach().numpy()], len(calls)


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_gradients_equal_the_plain_run(use_reentrant, real_torch):
    import flowgrad.torch as ft
    for T in (ft, real_torch):
        plain, plain_calls = _grads(T, use_reentrant, checkpointed=False)
        ckpt, calls = _grads(T, use_reentrant)
        for a, b in zip(plain, ckpt):
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
        assert (plain_calls, calls) == (1, 2)


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_without_preserved_rng_state_the_recomputation_draws_anew(use_reentrant, real_torch):
    import flowgrad.torch as ft
    for T in (ft, real_torch):
        plain, _ = _grads(T, use_reentrant, checkpointed=False)
        ckpt, _ = _grads(T, use_reentrant, preserve=False)
        assert not np.allclose(plain[1], ckpt[1])
        np.testing.assert_allclose(plain[3], ckpt[3], rtol=1e-6)   # the forward itself is the plain one


def test_non_reentrant_works_with_grad_and_twice_with_retain_graph(real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        calls = []

        def f(x):
            calls.append(1)
            return (x.sin() * x).sum()

        x = T.tensor([0.5, 1.0, 2.0], requires_grad=True)
        y = T.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
        (g1,) = T.autograd.grad(y, x, retain_graph=True)
        (g2,) = T.autograd.grad(y, x)
        out.append((g1.tolist(), g2.tolist(), len(calls)))
    np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-6)
    assert out[0][1:] == out[1][1:] or (np.allclose(out[0][1], out[1][1]) and out[0][2] == out[1][2])


def test_reentrant_refuses_grad(torch):
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    y = torch.utils.checkpoint.checkpoint(lambda t: (t * t).sum(), x, use_reentrant=True)
    with pytest.raises(RuntimeError, match=re.escape("When use_reentrant=True, torch.utils.checkpoint is "
                                                     "incompatible with .grad() or passing an `inputs` parameter "
                                                     "to .backward().")):
        torch.autograd.grad(y, x)


def test_missing_use_reentrant_warns_and_defaults_to_reentrant(real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        x = T.tensor([1.0], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = T.utils.checkpoint.checkpoint(lambda t: t * 2, x)
            z = T.utils.checkpoint.checkpoint_sequential([lambda t: t * 2, lambda t: t + 1], 2, x)
        out.append(([str(w.message) for w in caught], type(y.grad_fn).__name__, z.tolist()))
    assert out[0] == out[1]


def test_argument_errors_match_torch(real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        x = T.tensor([1.0], requires_grad=True)
        ck = T.utils.checkpoint
        rows = []
        for call in (lambda: ck.checkpoint(lambda t, k=1: t * k, x, use_reentrant=True, k=2),
                     lambda: ck.checkpoint(lambda t: t, x, use_reentrant=True, debug=True),
                     lambda: ck.checkpoint(lambda t: t * 2, x, use_reentrant=False, determinism_check="strict"),
                     lambda: ck.checkpoint_sequential([lambda t: t], 1, x, use_reentrant=False, k=2),
                     lambda: ck.checkpoint(lambda t: t.detach(), x, use_reentrant=True).sum().backward()):
            with pytest.raises(Exception) as info:
                call()
            rows.append((type(info.value).__name__, str(info.value)))
        out.append(rows)
    assert out[0] == out[1]


def test_non_reentrant_passes_keyword_arguments(real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        x = T.tensor([1.0, 2.0], requires_grad=True)
        T.utils.checkpoint.checkpoint(lambda t, k=1: (t * t * k).sum(), x, use_reentrant=False, k=3).backward()
        out.append(x.grad.tolist())
    assert out[0] == out[1]


def test_no_input_requiring_grad_warns(real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        w = T.tensor([2.0], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = T.utils.checkpoint.checkpoint(lambda t: t * w, T.ones(1), use_reentrant=True)
        out.append(([str(c.message) for c in caught], y.requires_grad))
    assert out[0] == out[1]


def test_recomputation_that_saves_differently_raises(real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        rows = []
        for change in ("shape", "count"):
            state = {"first": True}

            def f(x):
                first, state["first"] = state["first"], False
                if change == "shape":
                    return (x * x).sum() if first else (x[:1] * x[:1]).sum()
                return (x * x).sum() if first else (x * 2).sum()

            y = T.utils.checkpoint.checkpoint(f, T.tensor([1.0, 2.0], requires_grad=True), use_reentrant=False)
            with pytest.raises(RuntimeError) as info:
                y.backward()
            rows.append((type(info.value).__name__, str(info.value)))
        out.append(rows)
    assert out[0] == out[1]


def test_under_no_grad_the_function_just_runs(real_torch):
    import flowgrad.torch as ft
    for T in (ft, real_torch):
        with T.no_grad():
            for reentrant in (True, False):
                y = T.utils.checkpoint.checkpoint(lambda t: t * 2, T.ones(2, requires_grad=True),
                                                  use_reentrant=reentrant)
                assert not y.requires_grad and y.grad_fn is None


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_checkpoint_sequential_matches_the_plain_run(use_reentrant, real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        T.manual_seed(0)
        lin1, lin2 = _model(T)
        net = T.nn.Sequential(lin1, T.nn.Tanh(), lin2, T.nn.Sigmoid(), T.nn.Linear(2, 2))
        with T.no_grad():
            net[4].weight.copy_(T.tensor([[1.0, -1.0], [0.5, 2.0]]))
            net[4].bias.zero_()
        rows = []
        for segments in (1, 2, 3):
            x = T.tensor(X, dtype=T.float32, requires_grad=True)
            y = T.utils.checkpoint.checkpoint_sequential(net, segments, x, use_reentrant=use_reentrant)
            (y ** 2).sum().backward()
            rows.append((y.detach().numpy(), x.grad.numpy(), net[0].weight.grad.numpy().copy()))
            net.zero_grad()
        for r in rows[1:]:
            for a, b in zip(rows[0], r):
                np.testing.assert_allclose(a, b, rtol=1e-6)
        out.append(rows[0])
    for a, b in zip(*out):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)


def test_unbuilt_options_are_refused():
    import flowgrad.torch as ft
    x = ft.ones(1, requires_grad=True)
    with pytest.raises(NotImplementedError, match=re.escape("checkpoint(): flowgrad does not support debug=True")):
        ft.utils.checkpoint.checkpoint(lambda t: t, x, use_reentrant=False, debug=True)
    with pytest.raises(NotImplementedError, match=re.escape("checkpoint(): flowgrad does not support context_fn=")):
        ft.utils.checkpoint.checkpoint(lambda t: t, x, use_reentrant=False, context_fn=lambda: (None, None))
