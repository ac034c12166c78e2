"""selu, celu, the in-place elu_ / hardtanh_, glu, hardshrink, softshrink, threshold and rrelu (and
their modules) run on flowgrad and real torch: values, gradients (at the kinks too), node names,
dtype rules and argument errors."""
import numpy as np
import pytest
import torch as rt

import flowgrad.torch as ft

# the kinks sit on the grid: 0, +-0.5 (lambda, threshold)
VALUES = [-2.0, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 2.0, float("nan")]

CASES = {
    "selu": lambda T, x: T.nn.functional.selu(x),
    "selu_": lambda T, x: T.nn.functional.selu_(x * 1),
    "selu_inplace": lambda T, x: T.nn.functional.selu(x * 1, inplace=True),
    "celu": lambda T, x: T.nn.functional.celu(x, 0.7),
    "celu_": lambda T, x: T.nn.functional.celu_(x * 1, 0.5),
    "elu_": lambda T, x: T.nn.functional.elu_(x * 1, 1.5),
    "hardtanh_": lambda T, x: T.nn.functional.hardtanh_(x * 1, -0.5, 1.0),
    "glu": lambda T, x: T.nn.functional.glu(x.reshape(2, 5), 0),
    "hardshrink": lambda T, x: T.nn.functional.hardshrink(x),
    "softshrink": lambda T, x: T.nn.functional.softshrink(x, 0.5),
    "threshold": lambda T, x: T.nn.functional.threshold(x, 0.5, -3.0),
    "threshold_": lambda T, x: T.nn.functional.threshold_(x * 1, 0.25, 7.0),
    "threshold_inplace": lambda T, x: T.nn.functional.threshold(x * 1, -0.5, 0.0, True),
    "rrelu": lambda T, x: T.nn.functional.rrelu(x, 0.1, 0.3),
    "rrelu_": lambda T, x: T.nn.functional.rrelu_(x * 1),
    "SELU": lambda T, x: T.nn.SELU()(x),
    "CELU": lambda T, x: T.nn.CELU(0.5, inplace=True)(x * 1),
    "GLU": lambda T, x: T.nn.GLU()(x.reshape(5, 2)),
    "Hardshrink": lambda T, x: T.nn.Hardshrink(0.25)(x),
    "Softshrink": lambda T, x: T.nn.Softshrink(1.0)(x),
    "Threshold": lambda T, x: T.nn.Threshold(0.0, 2.0)(x),
    "RReLU": lambda T, x: T.nn.RReLU().eval()(x),
}


def _run(T, name, dtype):
    x = T.tensor(VALUES, dtype=getattr(T, dtype), requires_grad=True)
    y = CASES[name](T, x)
    g = T.linspace(-1.0, 2.0, y.numel(), dtype=y.dtype).reshape(y.shape)
    gx, = T.autograd.grad(y, x, g)
    return y, gx


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_values_grads_nodes(name, dtype):
    fy, fg = _run(ft, name, dtype)
    ry, rg = _run(rt, name, dtype)
    assert fy.grad_fn.name() == ry.grad_fn.name()
    assert str(fy.dtype) == str(ry.dtype) and str(fg.dtype) == str(rg.dtype)
    tol = dict(rtol=1e-6 if dtype == "float32" else 1e-13, atol=1e-7 if dtype == "float32" else 1e-15,
               equal_nan=True)
    np.testing.assert_allclose(fy.detach().numpy(), ry.detach().numpy(), **tol)
    np.testing.assert_allclose(fg.numpy(), rg.numpy(), **tol)
    fa, ra = fy.detach().numpy(), ry.detach().numpy()
    seen = ~np.isnan(ra)    # the zeros' signs (a NaN's sign is the platform's; softshrink's zeros' by dtype)
    if "shrink" in name.lower():
        seen &= ra != 0
    assert np.array_equal(np.signbit(fa[seen]), np.signbit(ra[seen]))


def test_second_order_matches():
    def run(T):
        x = T.tensor([-1.0, -0.25, 0.5, 1.0, 1.5, -2.0], dtype=T.float64, requires_grad=True)
        F = T.nn.functional
        y = F.selu(x) + F.celu(x, 0.7) ** 2 + F.glu(x.reshape(3, 2)).sum() + F.softshrink(x, 0.3) ** 2
        gx, = T.autograd.grad(y.sum(), x, create_graph=True)
        return T.autograd.grad((gx * gx).sum(), x)[0].numpy()
    np.testing.assert_allclose(run(ft), run(rt), rtol=1e-12)


def test_saved_values():
    for T in (ft, rt):
        x = T.tensor([-1.0, 1.0], requires_grad=True)
        e = T.nn.functional.selu(x).grad_fn
        assert (e._saved_alpha, e._saved_scale, e._saved_input_scale) == pytest.approx(
            (1.6732632423543772, 1.0507009873554805, 1.0))
        assert T.nn.functional.celu(x, 2.0).grad_fn._saved_alpha == 2.0
        assert T.nn.functional.glu(x, 0).grad_fn._saved_dim == 0
        assert T.nn.functional.threshold(x, 0.5, 1.0).grad_fn._saved_threshold == 0.5
        assert T.nn.functional.softshrink(x, 0.25).grad_fn._saved_lambd == 0.25
        r = T.nn.functional.rrelu(x, 0.1, 0.2).grad_fn
        assert (r._saved_lower, r._saved_upper, r._saved_training) == (0.1, 0.2, False)


@pytest.mark.parametrize("name", ["selu", "celu", "glu", "hardshrink", "softshrink", "threshold", "rrelu"])
@pytest.mark.parametrize("dtype", ["int64", "bool", "complex64"])
def test_dtype_rules(name, dtype):
    def run(T):
        x = T.tensor([1, 0, 3, 2], dtype=getattr(T, dtype))
        fn = getattr(T.nn.functional, name)
        try:
            y = fn(x, 1.5, 0.5) if name == "threshold" else fn(x)
        except Exception as e:  # noqa: BLE001 - the outcome compared is the exception
            return type(e).__name__, str(e)
        return str(y.dtype), y.tolist()
    assert run(ft) == run(rt)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("call", ["F.selu(x)", "F.celu(x, 0.7)", "F.hardshrink(x, 0.3)", "F.softshrink(x, 0.3)",
                                  "F.threshold(x, 0.3, -1.0)", "F.rrelu(x)", "F.glu(x)", "F.elu_(x * 1)"])
def test_half_precision_scalars(call, dtype):
    """Half and bfloat16 compute in float32 and compare with the scalar there, except hardshrink's
    kernel and the shrink gradients, which round lambda to the tensor's dtype (0.3 rounds to the value
    next to it on the grid)."""
    def run(T):
        x = T.tensor([-2.0, -1.3, -0.5, -0.1, 0.0, 0.3, 0.5, 1.7], dtype=getattr(T, dtype), requires_grad=True)
        y = eval(call, {"F": T.nn.functional, "x": x})
        y.sum().backward()
        return str(y.dtype), y.float().tolist(), x.grad.float().numpy()
    f, r = run(ft), run(rt)
    assert f[:2] == r[:2]
    np.testing.assert_allclose(f[2], r[2], rtol=2e-3 if dtype == "float16" else 1e-2)   # (formulas round per step)


def test_threshold_integer_casts_threshold():
    for args in [(-1.5, 7), (2, 0), (1.5, 0.5)]:
        fy = ft.nn.functional.threshold(ft.tensor([-2, -1, 0, 1, 2, 3]), *args)
        ry = rt.nn.functional.threshold(rt.tensor([-2, -1, 0, 1, 2, 3]), *args)
        assert fy.tolist() == ry.tolist() and str(fy.dtype) == str(ry.dtype)


ERRORS = [
    lambda T: T.nn.functional.softshrink(T.ones(2), -1.0),
    lambda T: T.nn.functional.softshrink(T.ones(2, dtype=T.float64), -0.5),
    lambda T: T.nn.functional.softshrink(T.ones(2, dtype=T.float16), 1e6),
    lambda T: T.nn.functional.celu(T.ones(2), 0.0),
    lambda T: T.nn.functional.hardshrink(T.ones(2, dtype=T.float16), 1e6),
    lambda T: T.nn.functional.hardshrink(T.ones(2, dtype=T.bfloat16), -1e39),
    lambda T: T.nn.functional.glu(T.ones(3)),
    lambda T: T.nn.functional.glu(T.ones(2, 3), 1),
    lambda T: T.nn.functional.glu(T.tensor(3.0)),
    lambda T: T.nn.functional.glu(T.ones(4), dim=2),
    lambda T: T.nn.functional.rrelu(T.ones(2), 0.5, 0.1),
    lambda T: T.nn.functional.rrelu_(T.ones(2), 0.5, 0.1, True),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors(i):
    outcome = []
    for T in (ft, rt):
        with pytest.raises(Exception) as info:
            ERRORS[i](T)
        outcome.append((type(info.value).__name__, str(info.value)))
    assert outcome[0] == outcome[1]


@pytest.mark.parametrize("call", ["F.elu_(x * 1, -1.0)", "F.celu_(x * 1, -0.5)", "F.elu(x * 1, -1.0, True)"])
def test_inplace_negative_alpha_backward(call):
    outcome = []
    for T in (ft, rt):
        x = T.tensor([-1.0, 1.0], requires_grad=True)
        y = eval(call, {"F": T.nn.functional, "x": x})
        with pytest.raises(RuntimeError) as info:
            y.sum().backward()
        outcome.append(str(info.value))
    assert outcome[0] == outcome[1]


def test_inplace_leaf_and_state():
    for T in (ft, rt):
        x = T.tensor([-1.0, 1.0], requires_grad=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            T.nn.functional.selu_(x)
        assert x.tolist() == [-1.0, 1.0] and x._version == 0
    x = ft.tensor([-1.0, 2.0])
    with pytest.raises(RuntimeError):
        ft.nn.functional.rrelu_(x, 0.5, 0.1)
    assert x.tolist() == [-1.0, 2.0] and x._version == 0


@pytest.mark.parametrize("inplace", [False, True])
def test_rrelu_training_draws_slopes(inplace):
    """Each x <= 0 takes its own slope in [lower, upper) and its gradient is that slope; the draws
    come from flowgrad's generator, so only the structure and the equal-bounds case match torch."""
    def run(T, lower, upper, n=400):
        T.manual_seed(3)
        x = T.tensor(np.linspace(-2.0, 1.0, n).tolist(), dtype=T.float64, requires_grad=True)
        y = T.nn.functional.rrelu(x * 1, lower, upper, training=True, inplace=inplace)
        y.sum().backward()
        node = y.grad_fn
        return x.detach().numpy(), y.detach().numpy(), x.grad.numpy(), node.name(), node._saved_training

    for T in (ft, rt):
        x, y, g, name, training = run(T, 0.1, 0.3)
        neg = x < 0
        slopes = y[neg] / x[neg]
        assert (0.1 <= slopes).all() and (slopes < 0.3).all() and slopes.std() > 0.04
        np.testing.assert_allclose(g[neg], slopes, rtol=1e-12)
        assert (y[~neg] == x[~neg]).all() and (g[x > 0] == 1).all()
        assert training is True and name == ("RreluWithNoiseBackward1" if inplace else "RreluWithNoiseBackward0")
    f, r = run(ft, 0.2, 0.2), run(rt, 0.2, 0.2)
    for a, b in zip(f[:3], r[:3]):
        np.testing.assert_allclose(a, b, rtol=1e-15)
    assert f[3:] == r[3:]


def test_rrelu_module_trains_by_default():
    ft.manual_seed(0)
    m = ft.nn.RReLU(0.1, 0.3)
    x = ft.full((1000,), -1.0)
    assert m(x).std().item() > 0.04
    assert (m.eval()(x) == -0.2).all().item()


def test_module_reprs():
    def reprs(T):
        nn = T.nn
        mods = [nn.SELU(), nn.SELU(True), nn.CELU(), nn.CELU(2.0, True), nn.GLU(), nn.GLU(0), nn.Hardshrink(),
                nn.Softshrink(0.25), nn.Threshold(0.1, 20), nn.Threshold(0.1, 2.0, True), nn.RReLU(),
                nn.RReLU(0.1, 0.2, inplace=True)]
        return [repr(m) for m in mods]
    assert reprs(ft) == reprs(rt)
