"""The P0 tensor surface against real torch: printing (including summarisation and print options),
torch.Size, __format__, __len__ / __iter__, and the sorting / gathering / shaping methods."""
from __future__ import annotations

import os

import numpy as np
import pytest

TEST_DEVICE = os.environ.get("FLOWGRAD_TEST_DEVICE", "cpu")

# printed text names the device, so text comparisons run on the cpu only
cpu_only = pytest.mark.skipif(TEST_DEVICE != "cpu", reason="compares printed text, which names the device")

_rng = np.random.default_rng(0)
_DATA = {
    "r342": _rng.standard_normal((3, 4, 2)), "r34": _rng.standard_normal((3, 4)), "r2000": _rng.standard_normal(2000),
    "r4040": _rng.standard_normal((40, 40)), "r121212": _rng.standard_normal((12, 12, 12)),
    "r30": _rng.standard_normal(30), "r330": _rng.standard_normal((3, 30)), "r1001": _rng.standard_normal(1001),
    "i34": _rng.integers(0, 5, (3, 4)), "r2222": _rng.standard_normal((2, 2, 2, 2)),
}

REPRS = [
    lambda T: T.tensor([1.0, 2.0]), lambda T: T.tensor([1.5, 2.25]), lambda T: T.tensor(3.5), lambda T: T.tensor(3),
    lambda T: T.tensor(True), lambda T: T.tensor([True, False]), lambda T: T.tensor([]), lambda T: T.zeros(0, 3),
    lambda T: T.zeros(2, 0, 3), lambda T: T.tensor([], dtype=T.int64), lambda T: T.zeros(0, dtype=T.float64),
    lambda T: T.tensor([1e-5, 1.0]), lambda T: T.tensor([1e10, 1.0]), lambda T: T.tensor([123456789.0, 1.0]),
    lambda T: T.tensor([1e8, 1.5]), lambda T: T.tensor([0.1, 1000.5]), lambda T: T.tensor([0.1, 100.5]),
    lambda T: T.tensor([float("nan"), 1.0, float("inf")]), lambda T: T.tensor([float("nan"), 1.5, -float("inf")]),
    lambda T: T.tensor([float("inf")]), lambda T: T.tensor([-0.0, 0.0]), lambda T: T.tensor([1, -2, 300]),
    lambda T: T.tensor([1.0, -2.0, 300.0]), lambda T: T.tensor([[1.0, -2.0], [3.25, 4.0]]),
    lambda T: T.tensor(_DATA["r342"]), lambda T: T.tensor(_DATA["r34"], dtype=T.float32),
    lambda T: T.tensor(_DATA["r34"], dtype=T.float16), lambda T: T.tensor(_DATA["i34"], dtype=T.int32),
    lambda T: T.tensor(_DATA["i34"], dtype=T.uint8), lambda T: T.tensor(_DATA["r2000"]),
    lambda T: T.tensor(_DATA["r4040"]), lambda T: T.tensor(_DATA["r121212"]), lambda T: T.arange(2000),
    lambda T: T.arange(30.0), lambda T: T.arange(100) * 1000, lambda T: T.tensor(_DATA["r30"] * 1e-3),
    lambda T: T.tensor(_DATA["r30"] * 1e5), lambda T: T.tensor(_DATA["r30"] * 1e9),
    lambda T: T.tensor([1.0, 2.0], requires_grad=True), lambda T: T.tensor([1.0, 2.0], requires_grad=True) * 2,
    lambda T: T.tensor([[1.0, 2.0]], requires_grad=True).sum(), lambda T: T.tensor(_DATA["r330"]),
    lambda T: T.tensor(_DATA["r34"] * 100, requires_grad=True) + 1, lambda T: T.ones(3, 20, dtype=T.float64),
    lambda T: T.tensor(_DATA["r1001"]).reshape(7, 143), lambda T: T.tensor([12345.678, 0.001]),
    lambda T: T.tensor([1.0, 10.0, 100.0, 1000.0, 10000.0]), lambda T: T.tensor([1e-4, 1.0]),
    lambda T: T.tensor([1.1e-4, 1.0]), lambda T: T.tensor(-5.0), lambda T: T.tensor(1e20), lambda T: T.tensor(1e-4),
    lambda T: T.full((2, 2), 7), lambda T: T.eye(3, dtype=T.float64), lambda T: T.tensor(_DATA["r2222"]),
    lambda T: T.nn.Parameter(T.tensor([1.0, 2.0])),
]

OPTIONS = [dict(precision=2), dict(sci_mode=True), dict(sci_mode=False), dict(threshold=5),
           dict(edgeitems=1, threshold=5), dict(edgeitems=0, threshold=5), dict(linewidth=40), dict(profile="full"),
           dict(profile="short")]


@cpu_only
@pytest.mark.parametrize("i", range(len(REPRS)))
def test_repr_matches_torch(i, real_torch):
    import flowgrad.torch as ft
    assert repr(REPRS[i](ft)) == repr(REPRS[i](real_torch))
    assert str(REPRS[i](ft)) == str(REPRS[i](real_torch))


@cpu_only
@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_print_options_match_torch(opts, real_torch):
    import flowgrad.torch as ft
    try:
        for T in (ft, real_torch):
            T.set_printoptions(**opts)
        for make in REPRS:
            assert repr(make(ft)) == repr(make(real_torch))
    finally:
        for T in (ft, real_torch):
            T.set_printoptions(profile="default")


@cpu_only
def test_float64_default_dtype_printing(real_torch):
    import flowgrad.torch as ft
    try:
        for T in (ft, real_torch):
            T.set_default_dtype(T.float64)
        for make in (lambda T: T.tensor([1.5, 2.0]), lambda T: T.tensor([1.5], dtype=T.float32)):
            assert repr(make(ft)) == repr(make(real_torch))
    finally:
        for T in (ft, real_torch):
            T.set_default_dtype(T.float32)


def test_size_behaviours(torch):
    s = torch.Size([2, 3])
    assert repr(s) == str(s) == "torch.Size([2, 3])" and s == (2, 3) and hash(s) == hash((2, 3))
    assert type(s + (4,)) is torch.Size and type((1,) + s) is torch.Size and type(s[1:]) is torch.Size
    assert type(s * 2) is torch.Size and s * 2 == (2, 3, 2, 3)
    assert s.numel() == 6 and torch.Size([]).numel() == 1 and repr(torch.Size()) == "torch.Size([])"
    assert isinstance(s[0], int) and list(s) == [2, 3] and torch.ones(2, 3).shape == s
    with pytest.raises(TypeError, match="can only concatenate tuple"):
        s + [1]


@cpu_only
def test_format(torch):
    assert f"{torch.tensor(3.5):.2f}" == "3.50" and f"{torch.tensor(3):d}" == "3"
    assert f"{torch.tensor([1.5])}" == "tensor([1.5000])" and format(torch.tensor(2.5), "") == "2.5"
    with pytest.raises(TypeError, match="unsupported format string passed to Tensor.__format__"):
        f"{torch.tensor([1.5]):.2f}"


def test_len_iter_bool_scalar_conversions(torch):
    t = torch.arange(6).reshape(2, 3)
    assert len(t) == 2 and [r.tolist() for r in t] == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(torch.tensor(1))
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        iter(torch.tensor(1))
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"):
        bool(torch.ones(2))
    with pytest.raises(RuntimeError, match="a Tensor with 2 elements cannot be converted to Scalar"):
        torch.ones(2).item()
    with pytest.raises(ValueError, match="only one element tensors can be converted to Python scalars"):
        float(torch.ones(2))


def _pair(torch):
    return torch.tensor([[3.0, 1.0, 2.0], [0.5, 5.0, 4.0]])


SURFACE = {
    "sort": lambda T, x: [t.tolist() for t in x.sort(1, descending=True)],
    "torch_sort": lambda T, x: [t.tolist() for t in T.sort(x, 0)],
    "argsort": lambda T, x: x.argsort(dim=1).tolist(),
    "topk": lambda T, x: [t.tolist() for t in x.topk(2)],
    "topk_smallest": lambda T, x: [t.tolist() for t in T.topk(x, 1, dim=0, largest=False)],
    "gather": lambda T, x: x.gather(1, T.tensor([[0], [2]])).tolist(),
    "scatter": lambda T, x: T.zeros(2, 3).scatter(1, T.tensor([[0], [2]]), 1.0).tolist(),
    "scatter_add": lambda T, x: T.zeros(2, 3).scatter_add(1, T.tensor([[0, 0]] * 2), x[:, :2]).tolist(),
    "index_select": lambda T, x: x.index_select(1, T.tensor([2, 0])).tolist(),
    "masked_fill": lambda T, x: x.masked_fill(x > 2, 0).tolist(),
    "repeat": lambda T, x: x.repeat(2, 1).tolist(),
    "flip": lambda T, x: x.flip(1).tolist(),
    "tril_triu": lambda T, x: [x.tril().tolist(), x.triu(1).tolist()],
    "einsum": lambda T, x: T.einsum("ij,kj->ik", x, x).tolist(),
    "allclose_equal": lambda T, x: [x.allclose(x + 1e-9), x.equal(x.clone()), T.equal(x, x * 2)],
    "clamp_min_max": lambda T, x: [x.clamp_min(2).tolist(), x.clamp_max(2).tolist()],
    "addcmul_addcdiv_lerp": lambda T, x: [x.addcmul(x, x, value=0.5).tolist(), x.addcdiv(x, x + 1).tolist(),
                                          x.lerp(x * 0, 0.25).tolist(), T.lerp(x, x * 2, 0.5).tolist()],
    "roll": lambda T, x: [x.roll(1, 1).tolist(), T.roll(x, -1).tolist(), x.roll((1, 1), (0, 1)).tolist()],
    "unique": lambda T, x: [T.tensor([3, 1, 3, 2]).unique().tolist(),
                            [t.tolist() for t in T.unique(T.tensor([3, 1, 3]), return_counts=True)]],
    "nan_to_num": lambda T, x: T.tensor([float("nan"), float("inf"), -1.0]).nan_to_num(posinf=9.0).tolist(),
    "moveaxis_swapaxes": lambda T, x: [T.moveaxis(x, 0, 1).shape == (3, 2), x.swapaxes(0, 1).shape == (3, 2)],
    "diag": lambda T, x: [x.diag().tolist(), T.diag(T.tensor([1.0, 2.0])).tolist()],
    "absolute_square": lambda T, x: [x.neg().absolute().tolist(), x.square().tolist()],
    "misc_properties": lambda T, x: [x.is_contiguous(), x.stride(), x.nbytes, x.itemsize, x.is_complex(),
                                     x.mT.shape == (3, 2), x.ndim, x.numel(), x.element_size()],
    "meshgrid_tensordot_trace": lambda T, x: [[g.tolist() for g in T.meshgrid(T.arange(2), T.arange(3),
                                                                               indexing="ij")],
                                              T.tensordot(x, x.t(), dims=1).tolist(), x[:, :2].trace().item()],
    "diff": lambda T, x: [x.diff(dim=1).tolist(), T.diff(x, n=2, dim=1).tolist(), x.diff(dim=0).tolist()],
    "hyperbolic_inverse_trig": lambda T, x: [np.round(np.array(v), 9).tolist() for v in
                                             (x.double().sinh().tolist(), x.double().cosh().tolist(),
                                              (x.double() / 6).asin().tolist(), (x.double() / 6).acos().tolist(),
                                              x.double().atan().tolist())],
    "bitwise_and_logic": lambda T, x: [(T.tensor([6]) & T.tensor([3])).tolist(), T.tensor([5]).bitwise_or(
        T.tensor([2])).tolist(), (~T.tensor([True])).tolist()],
    "fmod_frac_sign": lambda T, x: [T.tensor([-3.5, 2.5]).fmod(2).tolist(), T.tensor([-3.5, 2.25]).frac().tolist(),
                                    T.tensor([-2.0, 0.0]).sgn().tolist(), T.tensor([-2.0, 1.0]).signbit().tolist()],
}


@pytest.mark.parametrize("name", sorted(SURFACE))
def test_surface_matches_torch(name, real_torch):
    import flowgrad.torch as ft
    assert SURFACE[name](ft, _pair(ft)) == SURFACE[name](real_torch, _pair(real_torch))


@pytest.mark.parametrize("expr", ["x.sort(1)[0]", "x.topk(2)[0]", "x.roll(1, 1)",
                                  "x.addcmul(x, x, value=0.5)", "x.addcdiv(x, x + 3)", "x.lerp(x * x, 0.3)",
                                  "x.sinh() + x.cosh()", "(x / 9).asin() + (x / 9).acos() + x.atan()",
                                  "x.clamp_min(2) + x.clamp_max(2)", "x.diag()", "x.diff(dim=1)"])
def test_surface_gradients_match_torch(expr, real_torch):
    import flowgrad.torch as ft
    grads = []
    for T in (ft, real_torch):
        x = T.tensor([[3.0, 1.0, 2.0], [0.5, 5.0, 4.0]], dtype=T.float64, requires_grad=True)
        out = eval(expr, {"x": x, "T": T})
        out.backward(T.ones_like(out) * T.arange(out.numel(), dtype=T.float64).reshape(out.shape))
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-10, atol=1e-12)


@cpu_only
def test_sort_and_topk_return_types(torch):
    r = torch.sort(torch.tensor([3.0, 1.0, 2.0]))
    assert type(r).__name__ == "sort" and r.values.tolist() == [1.0, 2.0, 3.0] and r[1].tolist() == [1, 2, 0]
    assert repr(torch.topk(torch.tensor([3.0, 1.0, 2.0]), 2)) == (
        "torch.return_types.topk(\nvalues=tensor([3., 2.]),\nindices=tensor([0, 2]))")


def test_descending_sort_is_stable(torch):
    x = torch.tensor([1, 3, 1, 3, 2])
    assert x.sort(descending=True, stable=True).indices.tolist() == [1, 3, 4, 0, 2]
    assert torch.tensor([True, False, True]).sort(descending=True, stable=True).indices.tolist() == [0, 2, 1]
