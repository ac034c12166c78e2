"""Complex tensors in the torch facade, each behaviour written once and run on flowgrad.torch and on
real torch 2.13 (the `torch` fixture): dtypes and promotion, creation, printing, arithmetic and the
complex functions with PyTorch's conjugate-convention gradients, and the refusals (type and text)
of what is not defined or not built for complex numbers."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

Z = [1 + 2j, -0.5 + 0.3j, 2 - 1j]
W = [0.3 - 1j, 2 + 0.5j, -1 + 1j]


def _np(t):
    return t.detach().resolve_conj().numpy()


# ------------------------------------------------------------------------------------------ dtypes

def test_dtype_objects(torch):
    assert torch.cfloat is torch.complex64 and torch.cdouble is torch.complex128
    c = torch.complex64
    assert (c.is_complex, c.is_floating_point, c.is_signed, c.itemsize) == (True, False, True, 8)
    assert repr(torch.complex128) == "torch.complex128"


@pytest.mark.parametrize("make, want", [
    (lambda T: T.ones(2) + T.tensor(1j), "complex64"),
    (lambda T: T.ones(2, dtype=T.float64) + T.tensor(1j), "complex128"),
    (lambda T: T.ones(2, dtype=T.float64) + 1j, "complex128"),
    (lambda T: T.ones(2, dtype=T.int64) + 1j, "complex64"),
    (lambda T: T.ones(2, dtype=T.int64) + T.tensor(1j, dtype=T.complex128), "complex128"),
    (lambda T: T.ones(2, dtype=T.complex64) + T.ones(2, dtype=T.float64), "complex128"),
    (lambda T: T.ones(2, dtype=T.complex64) + T.tensor(1.0, dtype=T.float64), "complex64"),
    (lambda T: T.ones(2, dtype=T.complex64) + T.tensor(1j, dtype=T.complex128), "complex64"),
    (lambda T: T.tensor(1.0) + T.tensor(1j, dtype=T.complex128), "complex128"),
    (lambda T: T.tensor(1.0, dtype=T.float64) + T.tensor(1j), "complex128"),
    (lambda T: T.tensor(1) + 1j, "complex64"),
    (lambda T: T.tensor([1, 2]) / 1j, "complex64"),
    (lambda T: T.ones(2, dtype=T.complex64) / T.ones(2, dtype=T.int64), "complex64"),
    (lambda T: T.ones(2, dtype=T.complex64) * 2.5, "complex64"),
    (lambda T: T.ones(2, dtype=T.complex128) - 3, "complex128"),
])
def test_promotion(torch, make, want):
    assert make(torch).dtype == getattr(torch, want)


def test_result_and_promote_types(torch):
    assert torch.promote_types(torch.float64, torch.complex64) == torch.complex128
    assert torch.promote_types(torch.int64, torch.complex64) == torch.complex64
    assert torch.result_type(torch.ones(2), 1j) == torch.complex64


# ---------------------------------------------------------------------------------------- creation

def test_creation(torch):
    assert torch.tensor(Z).dtype == torch.complex64
    assert torch.tensor(np.array(Z)).dtype == torch.complex128
    assert torch.tensor(2j).dtype == torch.complex64
    for fn in (torch.zeros, torch.ones, torch.randn, torch.rand, torch.empty):
        t = fn(2, 3, dtype=torch.cfloat)
        assert t.dtype == torch.complex64 and t.shape == (2, 3) and t.is_complex()
    np.testing.assert_array_equal(_np(torch.ones(2, dtype=torch.complex128)), [1, 1])
    assert not torch.ones(2).is_complex() and torch.is_complex(torch.zeros(1, dtype=torch.cdouble))


def test_default_dtype_decides_complex(torch):
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        assert torch.tensor(1j).dtype == torch.complex128
        assert (torch.tensor([1.0]) + 1j).dtype == torch.complex128
    finally:
        torch.set_default_dtype(old)


def test_repr_omits_the_default_complex_dtype(torch):
    """(A repr test: named so, the fake-device run, whose reprs name the device, leaves it out.)"""
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        assert repr(torch.tensor([1.0]) + 1j) == "tensor([1.+1.j])"
    finally:
        torch.set_default_dtype(old)


def test_randn_complex_variance(torch):
    torch.manual_seed(0)
    z = torch.randn(20000, dtype=torch.complex128)
    assert abs(float(z.real.var()) - 0.5) < 0.03 and abs(float(z.imag.var()) - 0.5) < 0.03


def test_random_fills_both_parts(torch):
    torch.manual_seed(0)
    u = torch.zeros(4000, dtype=torch.complex128).uniform_(-1, 1)
    assert float(u.real.min()) >= -1 and float(u.imag.max()) < 1 and float(u.imag.abs().mean()) > 0.4
    n = torch.zeros(20000, dtype=torch.complex128).normal_(0, 2)
    assert abs(float(n.real.var()) - 2) < 0.15 and abs(float(n.imag.var()) - 2) < 0.15
    w = torch.nn.Linear(8, 8, dtype=torch.cfloat).weight.detach()
    assert w.dtype == torch.complex64 and float(w.imag.abs().sum()) > 0


def test_requires_grad_allowed(torch):
    z = torch.tensor(Z, requires_grad=True)
    assert z.requires_grad
    assert torch.zeros(2, dtype=torch.complex64).requires_grad_().requires_grad


@pytest.mark.parametrize("make", [
    lambda T: T.tensor([1 + 2j, -3.5 - 1j]),
    lambda T: T.tensor([[1 + 2j], [1e-5j]]),
    lambda T: T.tensor(2j, dtype=T.complex128),
    lambda T: T.tensor([1e10 + 1j]),
    lambda T: T.tensor(Z, requires_grad=True),
    lambda T: T.zeros(0, dtype=T.complex64),
    lambda T: T.tensor([[1 + 1j, 2 - 2j], [0.25j, -3]], dtype=T.complex128),
])
def test_repr_printing(torch, make):
    import torch as real_torch
    import flowgrad.torch as ft
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = repr(make(ft)), repr(make(real_torch))
    assert ours == theirs


# -------------------------------------------------------------------------------- values and grads

def _loss(y):
    return (y.abs() ** 2).sum() if y.is_complex() else y.sum()


CASES = {
    "add": lambda T, a, b: a + b * (2 - 1j),
    "sub_alpha": lambda T, a, b: T.sub(a, b, alpha=0.5 + 1j),
    "mul": lambda T, a, b: a * b,
    "div": lambda T, a, b: a / b,
    "rdiv": lambda T, a, b: 2 / a + b,
    "pow": lambda T, a, b: a ** 3 + b ** 0.5,
    "neg": lambda T, a, b: -a * b,
    "exp_log": lambda T, a, b: T.exp(a) + T.log(b),
    "log2_log10_log1p": lambda T, a, b: T.log2(a) + T.log10(b) * T.log1p(a),
    "expm1_rsqrt": lambda T, a, b: T.expm1(a) - T.rsqrt(b),
    "sin_cos_tan": lambda T, a, b: T.sin(a) * T.cos(b) + T.tan(a),
    "sinh_cosh": lambda T, a, b: T.sinh(a) + T.cosh(b),
    "sqrt": lambda T, a, b: T.sqrt(a) * b,
    "reciprocal": lambda T, a, b: a.reciprocal() + b,
    "abs": lambda T, a, b: a.abs() + b.abs(),
    "angle": lambda T, a, b: T.angle(a) * T.angle(b),
    "real_imag": lambda T, a, b: a.real * b.imag + T.real(b) - T.imag(a),
    "conj": lambda T, a, b: a.conj() * b + T.conj_physical(a) * a,
    "sgn": lambda T, a, b: a.sgn() * b,
    "matmul": lambda T, a, b: a.reshape(3, 1) @ b.reshape(1, 3),
    "dot": lambda T, a, b: a @ b,
    "mv": lambda T, a, b: (a.reshape(3, 1) * b) @ b,
    "bmm": lambda T, a, b: T.bmm(a.reshape(1, 3, 1), b.reshape(1, 1, 3)),
    "sum_mean": lambda T, a, b: (a * b).sum() + (a * a).mean(),
    "linear": lambda T, a, b: T.nn.functional.linear(a.reshape(1, 3), b.reshape(1, 3) * a.reshape(3, 1), b),
    "var_std": lambda T, a, b: T.stack([a, b]).var(0) + T.stack([a, b]).std() + a.var(unbiased=False),
    "norm": lambda T, a, b: a.norm() + T.linalg.vector_norm(b, 1) + T.linalg.norm(a * b),
    "cumsum": lambda T, a, b: (a * b).cumsum(0),
    "H": lambda T, a, b: a.reshape(3, 1).H @ b.reshape(3, 1),
    "view_as_real": lambda T, a, b: T.view_as_real(a * b),
    "stack_index": lambda T, a, b: T.stack([a, b])[:, 1:] * a[:2],
    "where": lambda T, a, b: T.where(T.tensor([True, False, True]), a, b) * a,
    "tanh_sigmoid": lambda T, a, b: T.tanh(a) * b.sigmoid(),
    "asin_acos_atan": lambda T, a, b: T.asin(a) + T.arccos(b) * a.atan(),
    "sinh_cosh": lambda T, a, b: T.sinh(a) - b.cosh(),
    "asinh_acosh_atanh": lambda T, a, b: T.asinh(a) + T.acosh(b) * T.arctanh(a),
    "logsumexp": lambda T, a, b: T.logsumexp(T.stack([a, b]), 0) + T.logsumexp(a, 0, keepdim=True),
    "prod": lambda T, a, b: a.prod() * b + T.stack([a, b]).prod(0),
    "prod_zero": lambda T, a, b: (a * T.tensor([1, 0, 1])).prod() + (b * T.tensor([0, 1, 1])).prod(0),
    "cumprod": lambda T, a, b: (a * b).cumprod(0) + (a * T.tensor([1, 0, 1])).cumprod(0),
    "pow_tensor": lambda T, a, b: a ** b,
    "pow_real_base": lambda T, a, b: T.tensor([1.5, -2.0, 0.5]) ** b + 2.0 ** a + (-1.5) ** b,
    "pow_real_exponent": lambda T, a, b: a ** T.tensor([1.5, 2.0, -0.5]),
    "square": lambda T, a, b: T.square(a) * b,
    "sum_dims": lambda T, a, b: (a.reshape(3, 1) * b).sum(1) + (a.reshape(1, 3, 1) * b).sum((0, 2)),
    "views": lambda T, a, b: (a.reshape(3, 1) * b).t().transpose(0, 1).permute(1, 0).flatten()[:3] * b,
    "pad": lambda T, a, b: T.nn.functional.pad(a * b, (1, 2)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_values_dtypes_grads(name):
    import torch as real_torch
    import flowgrad.torch as ft
    results = []
    for T in (ft, real_torch):
        a = T.tensor(Z, dtype=T.complex64, requires_grad=True)
        b = T.tensor(W, dtype=T.complex64, requires_grad=True)
        y = CASES[name](T, a, b)
        _loss(y).backward()
        results.append((_np(y), y.dtype, a.grad, b.grad))
    (y1, d1, ga1, gb1), (y2, d2, ga2, gb2) = results
    assert str(d1) == str(d2)
    np.testing.assert_allclose(y1, y2, rtol=1e-5, atol=1e-5)
    for g1, g2 in ((ga1, ga2), (gb1, gb2)):
        assert (g1 is None) == (g2 is None)
        if g1 is not None:
            assert str(g1.dtype) == str(g2.dtype)
            np.testing.assert_allclose(_np(g1), _np(g2), rtol=1e-4, atol=1e-5)


REAL_INPUT_CASES = {
    "times_i": lambda T, r: r * 1j + r,
    "cast": lambda T, r: r.to(T.complex64) * (1 + 1j),
    "complex": lambda T, r: T.complex(r, r * r),
    "view_as_complex": lambda T, r: T.view_as_complex(T.stack([r, -r], -1)) ** 2,
    "abs_of_complex": lambda T, r: (r * (1 + 1j)).abs(),
    "real_of_complex": lambda T, r: (r * (2 - 1j)).real,
    "angle_real": lambda T, r: T.angle(r),
}


@pytest.mark.parametrize("name", list(REAL_INPUT_CASES))
def test_real_inputs_through_complex(name):
    """A real input's gradient is the real part of what flows back, in its own dtype."""
    import torch as real_torch
    import flowgrad.torch as ft
    results = []
    for T in (ft, real_torch):
        r = T.tensor([0.5, -1.5, 2.0], requires_grad=True)
        y = REAL_INPUT_CASES[name](T, r)
        _loss(y).backward()
        results.append((_np(y), str(y.dtype), r.grad))
    assert results[0][1] == results[1][1]
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-5, atol=1e-6)
    assert str(results[0][2].dtype) == str(results[1][2].dtype) == "torch.float32"
    np.testing.assert_allclose(_np(results[0][2]), _np(results[1][2]), rtol=1e-5, atol=1e-5)


def test_real_and_imag_are_views(torch):
    z = torch.tensor(Z)
    re, im = z.real, z.imag
    re[0] = 10.0
    im[1] = -7.0
    np.testing.assert_allclose(_np(z), [10 + 2j, -0.5 - 7j, 2 - 1j], rtol=1e-6)
    r = torch.ones(2)
    assert torch.real(r) is r


def test_view_as_real_and_complex_share_memory(torch):
    z = torch.tensor(Z)
    v = torch.view_as_real(z)
    assert v.shape == (3, 2) and v.dtype == torch.float32
    v[0, 1] = 5.0
    assert complex(z[0]) == 1 + 5j
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64)
    c = torch.view_as_complex(x)
    assert c.dtype == torch.complex128 and c.shape == (2,)
    np.testing.assert_array_equal(_np(c), [1 + 2j, 3 + 4j])


def test_grad_fn_names(torch):
    z = torch.tensor(Z, requires_grad=True)
    names = [f(z).grad_fn.name()
             for f in (lambda t: t.real, lambda t: t.imag, torch.angle, lambda t: t.conj_physical(), torch.sgn,
                       torch.view_as_real)]
    assert [n.rsplit("::", 1)[-1] for n in names] == ["SelectBackward0", "SelectBackward0", "AngleBackward0",
                                                    "ConjPhysicalBackward0", "SgnBackward0",
                                                    "ViewAsRealBackward0"]


def test_complex_cast_to_real_keeps_real_part(torch):
    z = torch.tensor(Z)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = z.to(torch.float32)
    np.testing.assert_allclose(_np(r), [1.0, -0.5, 2.0])


def test_save_load_type_finfo(torch):
    import io
    z = torch.tensor(Z, dtype=torch.complex128)
    buf = io.BytesIO()
    torch.save(z, buf)
    buf.seek(0)
    back = torch.load(buf)
    assert back.dtype == torch.complex128
    np.testing.assert_array_equal(_np(back), np.array(Z))
    assert z.type() == "torch.ComplexDoubleTensor"
    assert torch.finfo(torch.complex64).eps == torch.finfo(torch.float32).eps


def test_facades_without_complex_dtypes_refuse_complex_data():
    """paddle and OneFlow are not yet checked against their frameworks' complex numbers."""
    import flowgrad.oneflow as flow
    import flowgrad.paddle as paddle
    for make in (lambda: paddle.to_tensor([1j]), lambda: paddle.to_tensor(np.array([1j])),
                 lambda: flow.tensor([1 + 1j]), lambda: flow.tensor(np.array([1j], dtype=np.complex64))):
        with pytest.raises(TypeError, match="can't convert np.ndarray of type complex"):
            make()


def test_complex_to_real_conversions(torch):
    z = torch.tensor([1j, 0, 2 - 1j])
    np.testing.assert_array_equal(_np(z.bool()), [True, False, True])
    x = torch.zeros(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x.copy_(z)
    np.testing.assert_array_equal(_np(x), [0, 0, 2])
    assert torch.full((2,), 1j).dtype == torch.complex64


def test_inplace_results(torch):
    z = torch.tensor(Z)
    z.mul_(2).add_(torch.tensor(W))
    np.testing.assert_allclose(_np(z), np.array(Z) * 2 + np.array(W), rtol=1e-6)
    x = torch.ones(2)
    _raises(lambda: x.add_(1j), RuntimeError, "result type ComplexFloat can't be cast to the desired output type Float")
    np.testing.assert_array_equal(_np(x), [1, 1])


def test_sgd_on_complex_parameters():
    import torch as real_torch
    import flowgrad.torch as ft
    results = []
    for T in (ft, real_torch):
        w = T.tensor(Z, requires_grad=True)
        opt = T.optim.SGD([w], lr=0.1, momentum=0.9, weight_decay=0.01, nesterov=True)
        for _ in range(3):
            opt.zero_grad()
            (((w * T.tensor(W)) - 1).abs() ** 2).sum().backward()
            opt.step()
        results.append(_np(w))
    np.testing.assert_allclose(results[0], results[1], rtol=1e-5, atol=1e-6)


OPTIMIZERS = {
    "Adam": lambda O, ps: O.Adam(ps, lr=0.05, weight_decay=0.01),
    "Adam_amsgrad_maximize": lambda O, ps: O.Adam(ps, lr=0.05, amsgrad=True, maximize=True),
    "AdamW": lambda O, ps: O.AdamW(ps, lr=0.05),
    "RMSprop": lambda O, ps: O.RMSprop(ps, lr=0.01, weight_decay=0.01),
    "RMSprop_centered_momentum": lambda O, ps: O.RMSprop(ps, lr=0.01, momentum=0.9, centered=True),
    "Adagrad": lambda O, ps: O.Adagrad(ps, lr=0.1, lr_decay=0.01, initial_accumulator_value=0.5),
    "Adadelta": lambda O, ps: O.Adadelta(ps, lr=1.0, weight_decay=0.01),
    "Adamax": lambda O, ps: O.Adamax(ps, lr=0.05),
    "NAdam": lambda O, ps: O.NAdam(ps, lr=0.05, weight_decay=0.01),
    "NAdam_decoupled": lambda O, ps: O.NAdam(ps, lr=0.05, weight_decay=0.01, decoupled_weight_decay=True),
    "RAdam": lambda O, ps: O.RAdam(ps, lr=0.05),
    "ASGD": lambda O, ps: O.ASGD(ps, lr=0.05, t0=2),
    "Rprop": lambda O, ps: O.Rprop(ps, lr=0.05),
    "SGD": lambda O, ps: O.SGD(ps, lr=0.02, momentum=0.9, weight_decay=0.01, nesterov=True),
}


def _complex_loss(T, w, r):
    return (((w * T.tensor(W)) - 1).abs() ** 2).sum() + ((r * w[:2]).abs() ** 3).sum()


@pytest.mark.parametrize("name", list(OPTIMIZERS))
def test_optimizers_on_complex_parameters(name):
    """PyTorch's optimizers update a complex parameter as pairs of reals (view_as_real): parameters
    and state after each of several steps as real torch's, a real parameter beside it."""
    import torch as real_torch
    import flowgrad.torch as ft
    runs = []
    for T in (ft, real_torch):
        w = T.tensor(Z, requires_grad=True)
        r = T.tensor([0.5, -1.5], requires_grad=True)
        opt = OPTIMIZERS[name](T.optim, [w, r])
        steps = []
        for _ in range(6):
            opt.zero_grad()
            _complex_loss(T, w, r).backward()
            opt.step()
            state = {k: _np(v) for k, v in opt.state[w].items() if T.is_tensor(v)}
            steps.append((_np(w), _np(r), state))
        assert w.dtype == T.complex64 and all(v.dtype == T.complex64 for k, v in opt.state[w].items()
                                              if T.is_tensor(v) and v.dim())
        runs.append(steps)
    for (w1, r1, s1), (w2, r2, s2) in zip(*runs):
        np.testing.assert_allclose(w1, w2, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(r1, r2, rtol=1e-5, atol=1e-6)
        assert s1.keys() == s2.keys()
        for k in s1:
            np.testing.assert_allclose(s1[k], s2[k], rtol=1e-5, atol=1e-6, err_msg=k)


def test_lbfgs_on_complex_parameters():
    import torch as real_torch
    import flowgrad.torch as ft
    results = []
    for T in (ft, real_torch):
        w = T.tensor(Z, dtype=T.complex128, requires_grad=True)
        r = T.tensor([0.5, -1.5], dtype=T.float64, requires_grad=True)
        opt = T.optim.LBFGS([w, r], lr=0.5, max_iter=5, line_search_fn="strong_wolfe")

        def closure():
            opt.zero_grad()
            loss = (((w * T.tensor(W, dtype=T.complex128)) - 1).abs() ** 2).sum() + ((r - w[:2].real) ** 2).sum()
            loss.backward()
            return loss
        for _ in range(2):
            opt.step(closure)
        results.append((_np(w), _np(r)))
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


def test_adafactor_refuses_complex_parameters(torch):
    w = torch.tensor(Z, requires_grad=True)
    r = torch.tensor([0.5, -1.5], requires_grad=True)
    opt = torch.optim.Adafactor([r, w], lr=0.05)
    _complex_loss(torch, w, r).backward()
    _raises(opt.step, RuntimeError, "Adafactor does not support complex parameters")
    np.testing.assert_array_equal(_np(r), np.array([0.5, -1.5], dtype=np.float32))   # nothing updated


# ---------------------------------------------------------------------------------------- refusals

def _raises(fn, cls, msg):
    with pytest.raises(cls, match="^" + re.escape(msg) + "$"):
        fn()


REFUSALS = {
    "lt": (lambda T, z: z < z, NotImplementedError, "\"lt_cpu\" not implemented for 'ComplexFloat'"),
    "le": (lambda T, z: z <= 1, NotImplementedError, "\"le_cpu\" not implemented for 'ComplexFloat'"),
    "gt": (lambda T, z: T.gt(z, z), NotImplementedError, "\"gt_cpu\" not implemented for 'ComplexFloat'"),
    "ge": (lambda T, z: z >= z, NotImplementedError, "\"ge_cpu\" not implemented for 'ComplexFloat'"),
    "max": (lambda T, z: z.max(), NotImplementedError, "\"max_all\" not implemented for 'ComplexFloat'"),
    "min": (lambda T, z: T.min(z), NotImplementedError, "\"min_all\" not implemented for 'ComplexFloat'"),
    "max_dim": (lambda T, z: z.max(0), RuntimeError, "max(): does not support complex input"),
    "amax": (lambda T, z: z.amax(), NotImplementedError, "\"max_values_cpu\" not implemented for 'ComplexFloat'"),
    "argmax": (lambda T, z: z.argmax(), RuntimeError, "argmax(): does not support complex input"),
    "argmin": (lambda T, z: z.argmin(0), RuntimeError, "argmin(): does not support complex input"),
    "maximum": (lambda T, z: T.maximum(z, z), RuntimeError, "maximum not implemented for complex tensors."),
    "minimum": (lambda T, z: T.minimum(z, z), RuntimeError, "minimum not implemented for complex tensors."),
    "relu": (lambda T, z: T.relu(z), NotImplementedError, "clamp is not supported for complex types"),
    "F.relu": (lambda T, z: T.nn.functional.relu(z), NotImplementedError, "clamp is not supported for complex types"),
    "clamp": (lambda T, z: z.clamp(0, 1), NotImplementedError, "clamp is not supported for complex types"),
    "sort": (lambda T, z: z.sort(), RuntimeError, " Sort does not support complex dtypes on CPU"),
    "argsort": (lambda T, z: z.argsort(), RuntimeError, " Sort does not support complex dtypes on CPU"),
    "topk": (lambda T, z: z.topk(1), RuntimeError, " topk does not support complex dtypes on CPU"),
    "kthvalue": (lambda T, z: z.kthvalue(1), NotImplementedError,
                 "\"kthvalue_cpu\" not implemented for 'ComplexFloat'"),
    "median": (lambda T, z: z.median(), NotImplementedError, "\"median_cpu\" not implemented for 'ComplexFloat'"),
    "floor": (lambda T, z: z.floor(), NotImplementedError, "floor is not supported for complex inputs"),
    "ceil": (lambda T, z: T.ceil(z), NotImplementedError, "ceil is not supported for complex inputs"),
    "trunc": (lambda T, z: z.trunc(), NotImplementedError, "trunc is not supported for complex inputs"),
    "round": (lambda T, z: z.round(), NotImplementedError, "\"round_vml_cpu\" not implemented for 'ComplexFloat'"),
    "erf": (lambda T, z: T.erf(z), NotImplementedError, "\"erf_vml_cpu\" not implemented for 'ComplexFloat'"),
    "sign": (lambda T, z: z.sign(), NotImplementedError,
             "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead."),
    "remainder": (lambda T, z: z % 2, NotImplementedError, "\"remainder_cpu\" not implemented for 'ComplexFloat'"),
    "floor_divide": (lambda T, z: z // 2, NotImplementedError, "\"div_floor_cpu\" not implemented for 'ComplexFloat'"),
    "div_trunc": (lambda T, z: T.div(z, 2, rounding_mode="trunc"), NotImplementedError,
                  "\"div_trunc_cpu\" not implemented for 'ComplexFloat'"),
    "atan2": (lambda T, z: T.atan2(z, z), NotImplementedError, "\"atan2_cpu\" not implemented for 'ComplexFloat'"),
    "hardtanh": (lambda T, z: T.nn.functional.hardtanh(z), NotImplementedError,
                 "clamp is not supported for complex types"),
    "relu6": (lambda T, z: T.nn.functional.relu6(z), NotImplementedError, "clamp is not supported for complex types"),
    "leaky_relu": (lambda T, z: T.nn.functional.leaky_relu(z), NotImplementedError,
                   "\"leaky_relu_cpu\" not implemented for 'ComplexFloat'"),
    "elu": (lambda T, z: T.nn.functional.elu(z), NotImplementedError, "\"elu_cpu\" not implemented for 'ComplexFloat'"),
    "softplus": (lambda T, z: T.nn.functional.softplus(z), NotImplementedError,
                 "\"softplus_cpu\" not implemented for 'ComplexFloat'"),
    "layer_norm": (lambda T, z: T.nn.functional.layer_norm(z, (3,)), NotImplementedError,
                   "\"LayerNormKernelImpl\" not implemented for 'ComplexFloat'"),
    "instance_norm": (lambda T, z: T.nn.functional.instance_norm(z.reshape(1, 1, 3)), NotImplementedError,
                      "\"batch_norm\" not implemented for 'ComplexFloat'"),
    "smooth_l1": (lambda T, z: T.nn.functional.smooth_l1_loss(z, z), NotImplementedError,
                  "\"smooth_l1_cpu\" not implemented for 'ComplexFloat'"),
    "softmax": (lambda T, z: T.softmax(z, 0), NotImplementedError,
                "\"softmax_lastdim_kernel_impl\" not implemented for 'ComplexFloat'"),
    "fmod": (lambda T, z: T.fmod(z, 2), NotImplementedError, "\"fmod_cpu\" not implemented for 'ComplexFloat'"),
    "hypot": (lambda T, z: T.hypot(z, z), NotImplementedError, "\"hypot_cpu\" not implemented for 'ComplexFloat'"),
    "signbit": (lambda T, z: T.signbit(z), NotImplementedError, "signbit is not implemented for complex tensors."),
    "deg2rad": (lambda T, z: T.deg2rad(z), RuntimeError, "deg2rad is not supported for complex tensors."),
    "nansum": (lambda T, z: T.nansum(z), RuntimeError, "nansum on CPU does not support complex inputs"),
    "heaviside": (lambda T, z: T.heaviside(z, z), RuntimeError,
                  "heaviside is not yet implemented for complex tensors."),
    "unique": (lambda T, z: T.unique(z), NotImplementedError, "\"unique\" not implemented for 'ComplexFloat'"),
    "bitwise_and": (lambda T, z: T.bitwise_and(z, z), NotImplementedError,
                    "\"bitwise_and_cpu\" not implemented for 'ComplexFloat'"),
    "imag_of_real": (lambda T, z: T.imag(T.ones(2)), RuntimeError,
                     "imag is not implemented for tensors with non-complex dtypes."),
    "view_as_real_of_real": (lambda T, z: T.view_as_real(T.ones(2)), RuntimeError,
                             "view_as_real is only supported for complex tensors"),
    "view_as_complex_last": (lambda T, z: T.view_as_complex(T.ones(3)), RuntimeError,
                             "Tensor must have a last dimension of size 2"),
    "view_as_complex_stride": (lambda T, z: T.view_as_complex(T.ones(2, 2).t()), RuntimeError,
                               "Tensor must have a last dimension with stride 1"),
    "view_as_complex_int": (lambda T, z: T.view_as_complex(T.ones(2, dtype=T.int64)), RuntimeError,
                            "view_as_complex is only supported for half, float and double tensors, but got a tensor "
                            "of scalar type: Long"),
    "view_as_complex_0d": (lambda T, z: T.view_as_complex(T.ones(())), RuntimeError,
                           "Input tensor must have one or more dimensions"),
    "complex_mixed": (lambda T, z: T.complex(T.ones(2), T.ones(2, dtype=T.float64)), RuntimeError,
                      "Expected object of scalar type Float but got scalar type Double for second argument"),
    "complex_ints": (lambda T, z: T.complex(T.ones(2, dtype=T.int64), T.ones(2, dtype=T.int64)), RuntimeError,
                     "Expected both inputs to be Half, Float or Double tensors but got Long and Long"),
    "real_seed": (lambda T, z: (z.requires_grad_() * 2).backward(T.ones(3)), RuntimeError,
                  "For complex Tensors, both grad_output and output are required to have the same dtype. Mismatch "
                  "in dtype: grad_output[0] has a dtype of torch.float32 and output[0] has a dtype of "
                  "torch.complex64."),
    "complex_seed": (lambda T, z: (T.ones(3, requires_grad=True) * 2).backward(z), RuntimeError,
                     "For complex Tensors, both grad_output and output are required to have the same dtype. "
                     "Mismatch in dtype: grad_output[0] has a dtype of torch.complex64 and output[0] has a dtype of "
                     "torch.float32."),
    "silu_grad": (lambda T, z: T.nn.functional.silu(z.requires_grad_()), RuntimeError,
                  "silu does not support automatic differentiation for outputs with complex dtype."),
    "nan_to_num_grad": (lambda T, z: T.nan_to_num(z.requires_grad_()), RuntimeError,
                        "nan_to_num does not support automatic differentiation for outputs with complex dtype."),
    "gelu": (lambda T, z: T.nn.functional.gelu(z), NotImplementedError,
             "\"GeluKernelImpl\" not implemented for 'ComplexFloat'"),
    "mish": (lambda T, z: T.nn.functional.mish(z), NotImplementedError, "\"mish_cpu\" not implemented for 'ComplexFloat'"),
    "logsigmoid": (lambda T, z: T.nn.functional.logsigmoid(z), NotImplementedError,
                   "\"log_sigmoid_cpu\" not implemented for 'ComplexFloat'"),
    "log_softmax": (lambda T, z: T.log_softmax(z, 0), NotImplementedError,
                    "\"log_softmax_lastdim_kernel_impl\" not implemented for 'ComplexFloat'"),
    "xlogy": (lambda T, z: T.xlogy(z, z), NotImplementedError, "\"xlogy_cpu\" not implemented for 'ComplexFloat'"),
    "xlogy_real_by_complex": (lambda T, z: T.xlogy(T.ones(3), 1j), NotImplementedError,
                              "\"xlogy_cpu\" not implemented for 'ComplexFloat'"),
    "implicit_seed": (lambda T, z: (z.requires_grad_() * 2).sum().backward(), RuntimeError,
                      "grad can be implicitly created only for real scalar outputs but got torch.complex64"),
}


@pytest.mark.parametrize("name", list(REFUSALS))
def test_refusals_as_pytorch(torch, name):
    fn, cls, msg = REFUSALS[name]
    z = torch.tensor(Z)
    _raises(lambda: fn(torch, z), cls, msg)
    np.testing.assert_array_equal(_np(z), np.array(Z, dtype=np.complex64))   # nothing written


def test_not_built_gradients_name_themselves(ftorch):
    """What PyTorch differentiates for complex numbers but flowgrad does not build is refused when its
    gradient would be recorded, never computed wrongly; the forward runs."""
    m = ftorch.tensor([Z[:2], W[:2]], requires_grad=True)
    _raises(lambda: ftorch.linalg.inv(m), NotImplementedError,
            "LinalgInvExBackward0: the gradient of this op is not implemented for complex tensors in flowgrad")
    np.testing.assert_allclose(_np(ftorch.linalg.inv(m.detach())), np.linalg.inv(np.array([Z[:2], W[:2]])),
                               rtol=1e-5)


NONFINITE = [complex(float("nan"), float("inf")), complex(float("-inf"), 1), 1 - 2j]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("kwargs", [{}, {"nan": 2.0, "posinf": 3.0}, {"neginf": -1.0}])
def test_nan_to_num_replaces_each_part(torch, dtype, kwargs):
    z = torch.tensor(NONFINITE, dtype=getattr(torch, dtype))
    out = torch.nan_to_num(z, **kwargs)
    assert out.dtype == z.dtype
    want = np.nan_to_num(np.array(NONFINITE, dtype=dtype), **{"nan": 0.0, **kwargs})
    np.testing.assert_array_equal(_np(out), want)


def test_silu_forward_without_grad(torch):
    z = torch.tensor(Z)
    out = torch.nn.functional.silu(z)
    assert out.dtype == torch.complex64
    zn = np.array(Z, dtype=np.complex64)
    np.testing.assert_allclose(_np(out), zn / (1 + np.exp(-zn)), rtol=1e-6)


EDGE = [0j, 1 + 0j, -1 + 0j, 2 + 0j, -2 + 0j, 2j, -2j, 0.5 - 0j, 1e-3 + 1e3j, -30 + 0.5j, 30 - 0.5j, 400 + 1j,
        complex(float("inf"), 1), complex(1, float("nan"))]


@pytest.mark.parametrize("name", ["tanh", "sigmoid", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh",
                                  "atanh", "reciprocal", "square", "exp", "log", "sqrt"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_unary_values_at_branch_cuts_and_extremes(name, dtype):
    """Values where the branch cuts and overflow decide, compared with real torch (NaNs where it has
    NaNs, in either part)."""
    import torch as real_torch
    import flowgrad.torch as ft
    got = [_np(getattr(T, name)(T.tensor(EDGE, dtype=getattr(T, dtype)))) for T in (ft, real_torch)]
    for part in (np.real, np.imag):
        np.testing.assert_allclose(part(got[0]), part(got[1]), rtol=2e-6 if dtype == "complex64" else 1e-12,
                                   atol=1e-30)


def test_gradcheck_supports_complex(ftorch):
    T = ftorch
    z = T.tensor(Z, dtype=T.complex128, requires_grad=True)
    r = T.tensor([0.5, -1.5, 2.0], dtype=T.float64, requires_grad=True)
    assert T.autograd.gradcheck(lambda a, b: (a * b).exp() / a, (z, r))
    assert T.autograd.gradcheck(lambda a: a.abs() * a.angle(), (z,), fast_mode=True)
    assert T.autograd.gradgradcheck(lambda a, b: a * a * b, (z, r))
    wrong = T.autograd.gradcheck(lambda a: (a * a.detach()).real * 2 + a.real * 0, (z,), raise_exception=False)
    assert wrong is False
