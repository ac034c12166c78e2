"""Argument variants where flowgrad once differed from real torch 2.13 (found by calling each public
function on both with wrong dtypes, 0-d and empty tensors, negative dims, non-contiguous inputs, Python
numbers and mismatched operands): each case runs on flowgrad.torch and on real torch and compares
values, dtypes, shapes, gradients and node names, or the exception type and message."""
from __future__ import annotations

import math
import warnings

import pytest

import flowgrad.torch as ft

real = pytest.importorskip("torch")

NAN, INF = math.nan, math.inf


def _run(T, code: str, **names):
    env = {"torch": T, "F": T.nn.functional, "nan": NAN, "inf": INF}
    env.update({k: v(T) for k, v in names.items()})
    try:
        return "value", eval(code, env)
    except Exception as exc:  # noqa: BLE001 - the outcome compared
        return "raise", exc


def _plain(v):
    if isinstance(v, (ft.Tensor, real.Tensor)):
        return ("Tensor", str(v.dtype).rpartition(".")[2], tuple(v.shape), _plain(v.detach().tolist()))
    if isinstance(v, (tuple, list)):
        return [_plain(e) for e in v]
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    if isinstance(v, complex):
        return [_plain(v.real), _plain(v.imag)]
    if isinstance(v, (ft.dtype, real.dtype)):
        return str(v)
    return v


def _same(code: str, words: bool = True, **names) -> None:
    theirs, mine = _run(real, code, **names), _run(ft, code, **names)
    if theirs[0] == "raise":
        assert mine[0] == "raise", f"{code}: flowgrad returned {mine[1]!r}, torch raised {theirs[1]!r}"
        assert type(mine[1]).__name__ == type(theirs[1]).__name__, (mine, theirs)
        assert str(mine[1]) == str(theirs[1]) or not words, (mine, theirs)
        return
    assert mine[0] == "value", f"{code}: flowgrad raised {mine[1]!r}"
    assert _close(_plain(mine[1]), _plain(theirs[1])), (code, _plain(mine[1]), _plain(theirs[1]))


def _close(a, b) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_close(p, q) for p, q in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return a == pytest.approx(b, rel=1e-6, abs=1e-12) or (math.isinf(a) and a == b)
    return a == b and type(a) is type(b)


def _grads(code: str, dtype: str):
    """(result, input gradients, node name) of `code` over leaves a, b with NaN, inf and zeros."""
    def run(T):
        dt = getattr(T, dtype)
        a = T.tensor([[1.0, NAN, 0.0], [INF, 4.0, -3.0]], dtype=dt, requires_grad=True)
        b = T.tensor([[2.0, 1.0, 0.0], [1.0, -3.0, 4.0]], dtype=dt, requires_grad=True)
        out = eval(code, {"torch": T, "a": a, "b": b})
        out.sum().backward()
        return out, a.grad, b.grad, out.grad_fn.name()
    return run


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("code", ["torch.nansum(a)", "torch.nansum(a, 1, keepdim=True)", "a.nansum(-2)",
                                  "torch.hypot(a, b)", "a.hypot(b)"])
def test_nansum_and_hypot_primitives(code, dtype):
    """NansumBackward0 (a NaN's gradient is 0, an inf's 1) and HypotBackward0 (NaN where both are 0)."""
    mine, theirs = _grads(code, dtype)(ft), _grads(code, dtype)(real)
    assert mine[3] == theirs[3]
    assert _close(_plain(list(mine[:3])), _plain(list(theirs[:3]))), (mine, theirs)


@pytest.mark.parametrize("code", [
    "torch.nansum(torch.tensor([1, 2]))", "torch.nansum(torch.tensor([True, True]))",
    "torch.nansum(torch.tensor([1.5, nan]), dtype=torch.float64)", "torch.nansum(torch.ones(0, 3), 0)",
    "torch.nansum(torch.tensor([1j]))",
    "torch.hypot(torch.tensor([3]), torch.tensor([4]))", "torch.hypot(torch.tensor([3]), torch.tensor([4.0]))",
    "torch.hypot(torch.tensor([3.0]), torch.tensor(4.0, dtype=torch.float64))",
    "torch.hypot(torch.ones(2, 3), torch.ones(4))", "torch.hypot(torch.tensor([1j]), torch.tensor([1j]))",
    "torch.tensor([3.0]).hypot_(torch.tensor([4.0]))",
])
def test_nansum_and_hypot_arguments(code):
    _same(code)


# dtypes of results (silently wrong before): erf of float16, float_power of complex, fmod of an integer
# tensor by a float, xlogy of two float dtypes, normal drawn in its mean's dtype, slogdet / logdet of complex
@pytest.mark.parametrize("code", [
    "torch.erf(x.half())", "x.half().erf()",
    "torch.float_power(x.to(torch.complex64), x)", "torch.float_power(x, x.to(torch.complex64))",
    "torch.float_power(x.abs(), 1j)", "torch.float_power(x.int(), 2)",
    "torch.fmod(x.long(), x + 4)", "torch.fmod(x.int(), 2.5)", "torch.fmod(x, x.to(torch.complex64))",
    "torch.fmod(-x, 0.5)", "torch.fmod(x, 0.0)", "torch.fmod(x.long(), torch.zeros(3))", "torch.fmod(2, x)",
    "x.bool().fmod(x.bool())", "x.long().fmod_(torch.tensor(2))", "x.bool().fmod_(torch.tensor(2))",
    "torch.xlogy(x.half(), x.abs())", "torch.xlogy(x, x.abs().double())", "torch.xlogy(x.half(), 2.0)",
    "torch.xlogy(x, x.abs().double()[0, 0])",
    "torch.normal(x.half(), 1.0).dtype", "torch.normal(x.half(), x.abs().double()).dtype",
    "torch.normal(x.double(), 1.0).dtype", "torch.normal(0.0, x.abs().half()).dtype",
    "torch.linalg.slogdet(m.to(torch.complex64))", "torch.logdet(m.to(torch.complex128))", "torch.logdet(m)",
    "torch.logdet(m.t() @ m)",
    "torch.float_power(2, x)", "torch.float_power(2.5, x.long())", "torch.float_power(1j, x)",
    "x.index_add(1, torch.tensor([0]), torch.ones(4))", "x.index_add(1, torch.tensor([0]), torch.ones(2, 1))",
    "torch.tensor([nan, inf, -inf, 1.0]).bfloat16().nan_to_num()", "torch.tensor([nan, inf]).bfloat16().nan_to_num(-9)",
    "torch.pow(x.to(torch.complex64), torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))",
    "x.to(torch.complex128).pow_(torch.tensor([2.0, 0.0, -1.0]))", "torch.pow(2.0, x.to(torch.complex64))",
    "torch.pow(torch.zeros(3, dtype=torch.complex64), torch.tensor([0j, 1, -1]))",
    "torch.eq(x, 2)", "x.eq(2)", "torch.logical_and(x, x)", "x.addcmul(x, x, value=2)", "torch.index_select(x, 1, torch.tensor([2]))",
])
def test_result_dtypes_and_values(code):
    _same(code, x=lambda T: T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]]),
          m=lambda T: T.tensor([[1.0, 2.0], [3.0, 4.0]]))


# arguments torch refuses where flowgrad computed
@pytest.mark.parametrize("code", [
    "torch.normal(x, -1.0)", "torch.normal(0.0, x)", "torch.normal(x, x)", "torch.normal(0.0, -1.0, size=(2,))",
    "torch.normal(x, float('nan'))", "torch.zeros(2).normal_(0, -1)", "torch.zeros(2).normal_(0, nan)",
    # lerp and addmm promote nothing
    "torch.lerp(x, x, x.long())", "torch.lerp(x.long(), x, 0.5)", "torch.lerp(x, x.half(), 0.5)",
    "torch.lerp(x, x, x.double()[0, 0])", "torch.lerp(x, x.double()[0, 0], 0.5)", "torch.lerp(x.bool(), x.bool(), 0.5)",
    "torch.lerp(x, 2.0, 0.5)", "x.lerp(2.0, 0.5)", "x.clone().lerp_(x.double(), 0.5)", "x.clone().lerp_(x, x.long())",
    "torch.addmm(m, m.double(), m)", "torch.addmm(m, m, m.double())", "torch.addmm(m.double(), m.double(), m)",
    "torch.addmm(torch.tensor(1.0), m.double(), m.double())", "m.addmm(m.double(), m.double())",
    "torch.addmm(m.long(), m.long(), m.long())", "torch.addbmm(m, m[None], m[None].double())",
    "torch.addbmm(m.double(), m[None], m[None])",
    # a bool operand of a subtraction
    "x.bool() - x.bool()", "x - x.bool()", "x.bool() - 1", "x - True", "True - x", "torch.sub(x, x.bool()[0, 0])",
    "torch.sub(x.bool(), True)", "x.clone().sub_(x.bool())",
    # a Python number where PyTorch takes a tensor only (the op takes a number in either place)
    "torch.eq(2, x)", "torch.lt(2.0, x)", "torch.greater_equal(True, x)", "torch.logical_and(2, x)",
    "torch.logical_xor(x, 2)", "x.logical_or(2)", "torch.addcmul(2.0, x, x)", "torch.addcdiv(x, x, 2)",
    "x.addcmul(2.0, x)", "x.clone().addcdiv_(x, 2)", "torch.index_select(2, 0, torch.tensor([0]))",
    "torch.index_select(x, 0, 1)", "x.index_select(0, 1)",
    # a bool for a dim
    "x.transpose(True, 1)", "torch.softmax(x, True)", "x.cumsum(True)", "x.logsumexp(True)", "x.squeeze(True)",
    "x.argmax(True)", "x.select(True, 0)", "torch.cat([x, x], True)",
    # a 0-d integer tensor for a dim (taken), a bool or one-element tensor (refused)
    "x.select(torch.tensor(1), 0)", "x.cummax(torch.tensor(1))", "x.transpose(torch.tensor(0), 1)",
    "x.transpose(torch.tensor(True), 1)", "x.transpose(torch.tensor([0]), 1)", "x.index_fill(torch.tensor(1), torch.tensor([0]), 2.0)",
    # a bool or a float for an int (a 0-d integer tensor taken)
    "torch.topk(x, True)", "torch.topk(x, 1.0)", "torch.topk(x, torch.tensor(1))", "x.kthvalue(True)", "x.kthvalue(1.0)",
    "torch.chunk(x, True)", "x.chunk(2.0)", "x.select(0, True)", "x.select(0, torch.tensor(1))",
    "torch.matrix_power(m, True)", "torch.matrix_power(m, 2.0)", "torch.tril_indices(True, 2)", "torch.triu_indices(2, 2.0)",
    "torch.polygamma(True, x.abs())", "torch.multinomial(p, True)", "torch.unsafe_chunk(x, True)",
    "torch.unsafe_split(x, True)", "x.topk(k=True)", "torch.kthvalue(x, k=1.0)", "x.split(torch.tensor(1))",
    "torch.chunk(x, torch.tensor(2))",
    # a lone int where the function (not the method) takes a sequence only; a number for a tensor
    "torch.flip(x, 0)", "torch.flip(x, dims=0)", "torch.permute(x, 1)", "torch.reshape(x, -1)", "torch.reshape(x, shape=6)",
    "torch.tile(x, 2)", "torch.flip(x, torch.tensor(0))", "torch.broadcast_to(x, 3)", "torch.addmm(2.0, m, m)",
    "x.flip(0)", "x.reshape(6)", "x.permute(1, 0)", "x.tile(2)", "torch.reshape(x, torch.Size([6]))",
    # PyTorch's kernels refuse these dtypes
    "torch.topk(x.bool(), 1)", "torch.kthvalue(x.bool(), 1)", "x.to(torch.complex64).abs_()",
    "x.to(torch.complex64).absolute_()", "x.clone().abs_()", "torch.randperm(-1)", "x.to(torch.complex64).bernoulli_()",
    "torch.clamp(x.to(torch.complex64), min=x)", "torch.clamp(x, x, x.to(torch.complex64))",
    "torch.clamp_min(x.to(torch.complex64), x)", "torch.clamp_max(x, x.to(torch.complex64))",
    "x.broadcast_to(3)", "torch.tensor(1.0).copy_(x)", "torch.ones(3).copy_(torch.ones(2))",
    "torch.linalg.slogdet(m.half())", "torch.logdet(m.half())", "torch.logdet(torch.ones(3).half())",
    "torch.logdet(torch.ones(2, 3))", "torch.float_power(2, 3)",
    # multinomial's checks, in PyTorch's order
    "torch.multinomial(x.long(), 1)", "torch.multinomial(p, 0)", "torch.multinomial(p, -1)", "torch.multinomial(p, 3)",
    "torch.multinomial(p[0, 0], 1)", "torch.multinomial(p.to(torch.complex64), 1)", "torch.multinomial(-p, 1)",
    "torch.multinomial(p * 0, 1)", "torch.multinomial(p.bool(), 1)", "torch.multinomial(torch.ones(2, 2, 2), 1)",
    "torch.multinomial(torch.ones(2, 0), 1)", "torch.multinomial(torch.ones(0, 2), 1)",
    # 0-d, empty and complex inputs
    "torch.eye(-1)", "torch.eye(2, -1)", "torch.chunk(torch.tensor(1.0), 1)", "torch.split(torch.tensor(1.0), 1)",
    "x.to(torch.complex64).random_()", "torch.median(torch.ones(0))", "torch.polygamma(1, x.to(torch.complex64))",
    "torch.polygamma(torch.tensor(1), x.abs())", "torch.searchsorted(p.to(torch.complex64), p)",
    "torch.bucketize(p.to(torch.complex64), torch.tensor([0.5]))", "torch.cummax(x.to(torch.complex64), 0)",
    "torch.allclose(x, 2.0)", "x.view_as(2)", "torch.kron(x, 2)", "torch.logit(x.bool())", "torch.logit(x.long(), 0.1)",
])
def test_refused_arguments(code):
    _same(code, x=lambda T: T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]]), m=lambda T: T.ones(2, 2),
          p=lambda T: T.tensor([[0.2, 0.8], [0.5, 0.5]]))


def test_fmod_records_pytorchs_nodes_and_warns_nothing():
    for T in (ft, real):
        a = T.tensor([5.0, -3.0, 1.0], requires_grad=True)
        b = T.tensor([2.0, 1.5, 4.0], requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            r = T.fmod(a, b)
            r.sum().backward()
            assert T.fmod(a, 0.0).isnan().all()
        assert r.grad_fn.name() == "FmodBackward1" and T.fmod(a, 2.0).grad_fn.name() == "FmodBackward0"
        assert a.grad.tolist() == [1.0, 1.0, 1.0] and b.grad.tolist() == [-2.0, 2.0, -0.0]
        assert str(r[1].item()) == "-0.0"


# refused with PyTorch's exception type; its words are those of overloads the facade does not list
@pytest.mark.parametrize("code", ["torch.movedim(x, True, 0)", "x.sum(True)", "x.mean(True)", "x.sum(dim=(True,))",
                                  "x.split(True)", "torch.split(x, 1.0)"])
def test_refused_with_pytorchs_exception_type(code):
    _same(code, words=False, x=lambda T: T.ones(2, 3))


def test_adjoint_of_a_0d_tensor_warns_and_conjugates():
    for T in (ft, real):
        with pytest.warns(UserWarning, match=r"^adjoint\(\) is deprecated on 0-D tensors. Consider using x.conj\(\)"):
            assert T.tensor(2.0 + 1.0j).adjoint().tolist() == 2.0 - 1.0j
        with pytest.warns(UserWarning, match=r"^Tensor.mH is deprecated on 0-D tensors"):
            assert T.tensor(2.0).mH.tolist() == 2.0


# arguments torch takes where flowgrad refused: a 0-d index (PyTorch counts a 0-d tensor's dims as one),
# int32 indices of take_along_dim without dim, a one-element integer tensor for a SymInt, a bool sequence
# searched for non-bool values
@pytest.mark.parametrize("code", [
    "torch.gather(v, 0, torch.tensor(1))", "torch.gather(torch.tensor(5.0), 0, torch.tensor([0, 0]))",
    "torch.gather(x, 0, torch.tensor(1))", "torch.scatter(v, 0, torch.tensor(2), 5.0)",
    "v.clone().scatter_(0, torch.tensor(2), torch.tensor([4.0, 7.0]))", "torch.zeros(()).scatter_(0, torch.tensor(0), torch.tensor(4.0))",
    "torch.scatter_reduce(v, 0, torch.tensor(1), torch.tensor(5.0), 'mean', include_self=False)",
    "torch.scatter_add(v, 0, torch.tensor(1), torch.tensor(5.0))",
    "torch.take_along_dim(x, torch.tensor([1, 0, 1], dtype=torch.int32))", "x.take_along_dim(torch.tensor([[1, 0, 1]], dtype=torch.int32), 0)",
    "torch.take_along_dim(x, torch.tensor([1, 0], dtype=torch.int16))",
    "torch.randperm(torch.tensor(3)).sort().values", "torch.randperm(torch.tensor([[3]])).shape", "torch.randperm(torch.tensor(3.0))",
    "torch.randperm(torch.tensor([3, 4]))", "torch.randperm(torch.tensor(-1))", "torch.topk(v, torch.tensor([1]))",
    "torch.kthvalue(v, torch.tensor([[2]]))", "v.select(0, torch.tensor([1]))", "torch.matrix_power(x[:, :2], torch.tensor([1]))",
    "torch.chunk(v, torch.tensor([2]))", "torch.polygamma(torch.tensor([1]), v)",
    "torch.searchsorted(torch.tensor([False, True]), torch.tensor([0.5, 2.0]))", "torch.searchsorted(torch.tensor([False, True]), 1)",
    "torch.searchsorted(torch.tensor([False, True]), torch.tensor([True, False]))", "torch.searchsorted(torch.tensor([False, True]), True)",
    # complex log-add-exps (ordered by real part, NaN taking over, infinities), complex normal draws
    "torch.logaddexp(z, x)", "x.logaddexp(z * 1j)", "torch.logaddexp(s, s[:, None])", "torch.logaddexp2(z, x)",
    "z.logcumsumexp(1)", "torch.logcumsumexp(s * (1 - 2j), 0)", "torch.logcumsumexp(z[0, 0], 0)",
    "torch.normal(z, 1.0).dtype", "torch.normal(z.to(torch.complex128), x.double()).dtype", "torch.normal(x, z)",
    "torch.normal(1.0, z)", "torch.normal(z, -1.0)",
])
def test_taken_as_torch_takes_them(code):
    _same(code, x=lambda T: T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]]), v=lambda T: T.tensor([1.0, 2.0, 3.0]),
          z=lambda T: T.tensor([[0.5 + 1j, -1.0, 2.0 - 3j], [1.5, 0.25j, -3.0]]),
          s=lambda T: T.tensor([INF, -INF, complex(NAN, 0), complex(INF, 1), 1 + 2j, complex(-INF, 3)]))


def test_gather_and_scatter_of_a_0d_index_differentiate_as_torch():
    for code in ("torch.gather(a, 0, torch.tensor(1))", "torch.scatter(a, 0, torch.tensor(2), c)",
                 "torch.scatter_reduce(a, 0, torch.tensor(2), c, 'prod')", "torch.gather(c, 0, torch.tensor([0, 0]))"):
        got = []
        for T in (ft, real):
            a, c = T.tensor([1.0, 2.0, 3.0], requires_grad=True), T.tensor(4.0, requires_grad=True)
            out = eval(code, {"torch": T, "a": a, "c": c})
            out.sum().backward()
            got.append((out.tolist(), [None if t.grad is None else t.grad.tolist() for t in (a, c)], out.grad_fn.name()))
        assert got[0] == got[1], code


# PyTorch views what kron's product and take_along_dim's flattening give: where the inputs' layouts
# allow no view, its view error; where they do, the values
@pytest.mark.parametrize("code", [
    "torch.kron(x.t().contiguous().t(), x)", "torch.kron(x, x.t())", "x.t().kron(x.t())", "torch.kron(x[:, ::2], x)",
    "torch.kron(x, torch.ones(1, 3).t())", "torch.kron(x.t(), torch.ones(3))", "torch.kron(x.t(), torch.tensor(2.0))",
    "torch.kron(x.t(), torch.ones(0, 3))", "torch.kron(x[None].expand(2, 2, 3), x)",
    "torch.take_along_dim(x.t(), torch.tensor([1, 0, 1]))", "x[:, ::2].take_along_dim(torch.tensor([1, 0, 1]))",
    "torch.take_along_dim(x, torch.tensor([1, 0, 1]).expand(2, 3))", "torch.take_along_dim(x, torch.tensor([[1, 0, 1]]).t())",
    "torch.take_along_dim(x.flip(0), torch.tensor([1, 0, 1]))",
])
def test_views_of_results_as_torch(code):
    _same(code, x=lambda T: T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]]))


# an in-place op on a real tensor with a complex operand: PyTorch's cast check of the result type comes
# before the kernel's refusal of complex numbers (and after the shapes' check)
@pytest.mark.parametrize("code", [
    "x.clone().atan2_(z)", "x.clone().clamp_min_(z)", "x.clone().fmod_(z)", "x.clone().hypot_(z.to(torch.complex128))",
    "x.clone().remainder_(1j)", "x.double().remainder_(torch.tensor(1j))", "x.clone().fmod_(z[:, :2])",
    "x.long().fmod_(z)", "z.clone().fmod_(x)", "x.clone().ge_(z)", "x.clone().less_(z)",
])
def test_inplace_complex_operand_is_a_cast_error(code):
    _same(code, x=lambda T: T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]]),
          z=lambda T: T.tensor([[0.5 + 1j, -1.0, 2.0 - 3j], [1.5, 0.25j, -3.0]]))


# mv's checks are addmv's (into a new vector in vec's dtype); cdist's direct kernel has no half / bfloat16
@pytest.mark.parametrize("code", [
    "torch.mv(x[0, 0], v)", "x[0, 0].mv(v.long())", "torch.mv(v, v)", "torch.mv(x[None], v)", "torch.mv(x, x)",
    "torch.mv(x, torch.ones(4))", "torch.mv(x, v[0])", "torch.mv(x.long(), v)", "torch.mv(x.bool(), v.bool())",
    "torch.mv(x.long(), v.long())", "torch.addmv(torch.ones(2), x, torch.ones(4))", "torch.addmv(torch.ones(2, 2), x, v)",
    "torch.cdist(x.half(), x.double())", "torch.cdist(x, x.half())", "torch.cdist(x.half(), x.half(), p=1)",
    "torch.cdist(x.half(), x.half())", "torch.cdist(x.bfloat16(), x.bfloat16())", "torch.cdist(x, x.bfloat16())",
    "torch.cdist(x.half(), x.half(), compute_mode='use_mm_for_euclid_dist').dtype",
    "torch.cdist(x.half(), x.half(), p=-1)",
])
def test_mv_and_cdist_checks(code):
    _same(code, x=lambda T: T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]]), v=lambda T: T.tensor([1.0, 2.0, 3.0]))


# torch's top-level activations (no `inplace=`; the `_` forms in place), Tensor.hardshrink, float_power_
@pytest.mark.parametrize("code", [
    "torch.selu(x)", "torch.selu(input=x)", "torch.selu(x, inplace=True)", "torch.selu(x.long())", "torch.selu_(x.clone())",
    "torch.celu(x, alpha=2.0)", "torch.celu_(x.clone(), 2.0)", "torch.threshold(x, 0.5, 2.0)",
    "torch.threshold(input=x, threshold=1.5, value=2.0)", "torch.threshold_(x.clone(), 0.5, 2.0)",
    "torch.threshold(x.long(), 0, 2)", "torch.rrelu(x)", "torch.rrelu_(x.clone(), 0.1, 0.2)",
    "torch.rrelu(x, training=True, generator=torch.Generator()).shape", "torch.hardshrink(x, lambd=1.0)",
    "x.hardshrink(1.0)", "x.hardshrink(lambd=0.1)", "torch.selu_(x.clone().requires_grad_())",
    "x.clone().float_power_(2)", "x.double().float_power_(2)", "x.double().float_power_(1j)",
    "x.long().float_power_(x.double())", "x.double().float_power_(x)", "x.double().float_power_(x[0])",
    "x.double().float_power_(torch.ones(3, 1))", "x.double().float_power_(x.to(torch.complex64))",
])
def test_top_level_activations_and_float_power_(code):
    _same(code, x=lambda T: T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]]))


def test_inplace_activation_and_float_power_gradients():
    for code in ("torch.selu_(a * 1)", "torch.celu_(a * 1, 0.5)", "torch.threshold_(a * 1, 0.3, -2.0)",
                 "(a * 1).double().float_power_(a.double())"):
        got = []
        for T in (ft, real):
            a = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
            out = eval(code, {"torch": T, "a": a})
            out.sum().backward()
            got.append((out.tolist(), a.grad.tolist(), out.grad_fn.name()))
        assert _close(_plain(got[0]), _plain(got[1])), (code, got)


def test_hardsigmoid_has_no_second_derivative():
    got = []
    for T in (ft, real):
        x = T.tensor([0.5, -4.0, 2.0], requires_grad=True)
        g, = T.autograd.grad(T.nn.functional.hardsigmoid(x).sum(), x, create_graph=True)
        with pytest.raises(RuntimeError) as err:
            g.sum().backward()
        got.append((g.tolist(), g.requires_grad, str(err.value)))
    assert got[0] == got[1]


# baddbmm's dtype checks in PyTorch's order (self against batch1; batch2's dtype is the result's), a
# one-element index tensor for a dim list
@pytest.mark.parametrize("code", [
    "torch.baddbmm(b, b, b.double())", "b.baddbmm(b, b.double())", "b.clone().baddbmm_(b, b.double())",
    "torch.baddbmm(b, b.double(), b)", "torch.baddbmm(b.double(), b.double(), b)", "torch.baddbmm(b.half(), b, b.double())",
    "b.clone().baddbmm_(b.double(), b)", "torch.baddbmm(b[0], b, b.double())",
    "torch.ones(1, 3).squeeze(torch.tensor([0]))", "torch.ones(1, 3).sum((torch.tensor([[0]]), 1))",
])
def test_baddbmm_dtypes_and_dim_tensors(code):
    _same(code, b=lambda T: T.ones(1, 2, 2))


# an int list given as several positional ints, one of them not an int: PyTorch's unpacking error
@pytest.mark.parametrize("code", [
    "x.squeeze(0, 'a')", "x.squeeze(0, 1.5)", "x.squeeze('a', 0)", "x.permute(0, 'a')", "x.view(3, 'a')",
    "x.reshape(3, None)", "x.flip(0, 'a')", "x.repeat(1, [2])", "x.expand(1, 'a')", "x.tile(1, 'a')",
    "x.reshape(3, torch.tensor(1))",
])
def test_int_list_unpacking_errors(code):
    _same(code, x=lambda T: T.ones(1, 3))


# an empty tensor's reshape / transpose / squeeze is a view, as PyTorch's (detach_ refuses it)
@pytest.mark.parametrize("code", [
    "torch.ones(6)[:0].reshape((0, 3)).detach_()", "torch.ones(0, 3).reshape((3, 0)).detach_()",
    "torch.ones(0, 3).t().detach_()", "torch.ones(0, 3).unsqueeze(0).detach_()", "torch.ones(0, 3).clone().detach_()",
    "torch.ones(0, 3).sum(0).detach_()",
])
def test_empty_views_as_torch(code):
    _same(code)


# cross refuses a number for other and bool tensors as PyTorch does; histogram's edges are PyTorch's
# linspace in the input's dtype, its bins found by PyTorch's rule, its dtype checks in PyTorch's order
@pytest.mark.parametrize("code", [
    "torch.cross(x, 2.0, dim=0)", "x.cross(2, dim=0)", "torch.linalg.cross(x.bool(), x.bool())",
    "torch.cross(x.bool(), x, dim=0)", "torch.linalg.cross(x, x.bool())",
    "[torch.histogram(r.to(d), b, density=True) for d in (torch.float32, torch.float64) for b in (7, 97, 250)]",
    "[torch.histogram(r.half(), b, range=(-2.3, 3.1)) for b in (7, 59, 250)]",
    "torch.histogram(r.half(), 3)", "torch.histogram(r.half(), 3, weight=r.float())",
    "torch.histogram(r.long(), 3, range=(0., 1.))", "torch.histogram(r.bool(), 3, range=(0., 1.))",
    "torch.histogram(r.long(), torch.ones(2).long())", "torch.histogram(r.long()[:0], 3)",
    # isin views few test elements (fewer than 10 * numel ** 0.145), cast keeping their dims' order, as one dim
    "torch.isin(x, t.t())", "torch.isin(x.long(), t.t())", "torch.isin(x, t[:, :2])", "torch.isin(x, t.t()[:, :2])",
    "torch.isin(x.double(), t[:, :2])", "torch.isin(2, t.t())", "torch.isin(x, t.expand(2, 2, 3))",
    "torch.isin(r.long()[:100], torch.arange(18).view(3, 6).t())", "torch.isin(r[:100], torch.arange(20).view(4, 5).t())",
    # PyTorch's parser reads a bool after the first element of an int list as an int
    "t.permute(0, True)", "torch.permute(t, (0, True))", "t.permute([False, True])", "t.permute(dims=(1, False))",
    "t.view(3, True)", "t.flip((0, True))", "t.sum((0, True))", "t.mean([1, False])", "t.expand(2, 2, True)",
    # torch.split / Tensor.split read a one-element tensor as int(sizes), any other tensor as a list of sizes
    "torch.split(x, torch.tensor([1]))", "x.split(torch.tensor([[2.7]]))", "torch.split(x, torch.tensor(True))",
    "torch.split(x, torch.tensor([1, 2]))", "x.split(torch.tensor([]))", "torch.split(x, torch.tensor([nan]))",
    "x.requires_grad_().split(torch.tensor([2]))[0].grad_fn.name()",
    # scatter_add and scatter_add_ record ScatterAddBackward0 (of self, src or both)
    "[f(0, torch.tensor([1, 1]), s).grad_fn.name() for s, f in ((t[0, :2], x.clone().requires_grad_().scatter_add), "
    "(t[0, :2].requires_grad_(), x.scatter_add), (t[0, :2], (x.clone().requires_grad_() * 1).scatter_add_), "
    "(t[0, :2].requires_grad_(), x.clone().scatter_add_))]",
    "[n[0] is None for n in torch.scatter_add(x.detach(), 0, torch.tensor([1]), x[:1].requires_grad_())"
    ".grad_fn.next_functions]",
    # the complex casts
    "x.cdouble()", "t.long().cfloat()", "x.bool().cfloat()", "x.cdouble().cfloat()",
    "x.requires_grad_().cfloat().grad_fn.name()",
    # cdist's matrix-product form clamps at 0 (a zero distance is 0 and passes a zero gradient; exact values,
    # the products' rounding being BLAS's)
    "[(lambda e: (e, e == 0))(torch.cdist(m.to(d), m[:2].to(d), compute_mode='use_mm_for_euclid_dist')) for d in "
    "(torch.float32, torch.float64, torch.float16)]", "(lambda d: (d.grad_fn.name(), d.grad_fn.next_functions[0][0].name(), torch.autograd.grad("
    "d.sum(), m)))(torch.cdist(m, m[:2] * 1, compute_mode='use_mm_for_euclid_dist'))",
])
def test_sweep_mismatches(code):
    _same(code, x=lambda T: T.tensor([1.0, 2.0, 3.0]), t=lambda T: T.arange(6.0).view(2, 3),
          r=lambda T: T.tensor([(i * 0.7531) % 5.3 - 2.2 for i in range(300)], dtype=T.float64),
          m=lambda T: T.tensor([[1.0, 2.0, 0.0], [3.0, -1.0, 2.0], [0.0, 1.0, 1.0]], requires_grad=True))
