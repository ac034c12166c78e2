"""gradcheck and gradgradcheck over every op of the op table (flowgrad/ops/*.py).

Each case is written once against the torch API and runs on flowgrad.torch and on real torch (the
`torch` fixture): real torch passing the same case proves the case itself is sound. Inputs are
float64, seeded, and kept away from kinks and ties (0, multiples of 0.5) so finite differences
are meaningful. `test_every_op_node_is_exercised` walks the graphs the cases build (first and
second order) and fails when a node class of the op table is reached by no case: a new op needs
a case here.
"""
from __future__ import annotations

import importlib
import zlib
from typing import Any, Callable, NamedTuple

import numpy as np
import pytest


# ------------------------------------------------------------------------------------ input domains

def _away(rng, shape):
    """Uniform in [-2, 2], at least 0.05 away from every multiple of 0.5 (kinks, ties, rounding edges)."""
    x = rng.uniform(-2.0, 2.0, size=shape)
    frac = np.mod(x, 0.5)
    x = np.where(frac < 0.05, x + 0.07, x)
    return np.where(frac > 0.45, x - 0.07, x)


def _pos(rng, shape):
    return _away(rng, shape) * 0 + rng.uniform(0.6, 1.9, size=shape)


def _unit(rng, shape):
    return rng.uniform(0.1, 0.9, size=shape)


def _complex(rng, shape):
    """complex128 with both parts as `_away`'s (away from the real and imaginary axes' kinks)."""
    return _away(rng, shape) + 1j * _away(rng, shape)


DOMAINS = {"away": _away, "pos": _pos, "unit": _unit, "complex": _complex}


class Case(NamedTuple):
    id: str
    fn: Callable[..., Any]
    shapes: list
    domain: Any = "away"
    gradgrad: bool = True
    kw: dict = {}


CASES: list[Case] = []


def C(id, fn, shapes, domain="away", gradgrad=True, **kw):
    assert all(c.id != id for c in CASES), id
    CASES.append(Case(id, fn, [tuple(s) for s in shapes], domain, gradgrad, kw))


def _flowgrad(T) -> bool:
    return T.__name__.startswith("flowgrad")


def F(T):
    return T.nn.functional


# ------------------------------------------------------------------------------------ elementwise

C("add", lambda T, a, b: a + b, [(2, 3), (3,)])
C("add_alpha", lambda T, a, b: T.add(a, b, alpha=2.5), [(2, 3), (2, 3)])
C("sub", lambda T, a, b: a - b, [(2, 3), (2, 1)])
C("sub_alpha", lambda T, a, b: T.sub(a, b, alpha=-1.5), [(3,), (3,)])
C("rsub_scalar", lambda T, a: 2.0 - a, [(2, 3)])
C("mul", lambda T, a, b: a * b, [(2, 3), (3,)])
C("mul_scalar", lambda T, a: a * 2.5, [(2, 3)])
C("mul_self", lambda T, a: a * a, [(2, 3)])
C("div", lambda T, a, b: a / b, [(2, 3), (3,)], ["away", "pos"])
C("rdiv_scalar", lambda T, a: 3.0 / a, [(2, 3)], "pos")
C("pow_scalar", lambda T, a: a ** 3, [(2, 3)])
C("pow_float", lambda T, a: a ** 2.5, [(2, 3)], "pos")
C("pow_tensor", lambda T, a, b: a ** b, [(2, 3), (2, 3)], ["pos", "away"])
C("rpow_scalar", lambda T, a: 2.0 ** a, [(2, 3)])
C("maximum", lambda T, a, b: T.maximum(a, b), [(2, 3), (2, 3)])
C("minimum", lambda T, a, b: T.minimum(a, b), [(2, 3), (3,)])
C("where", lambda T, a, b: T.where(a > 0, a, b), [(2, 3), (2, 3)])
C("where_scalar", lambda T, a: T.where(a > 0, a, 0.0), [(2, 3)])
C("neg", lambda T, a: -a, [(2, 3)])
for _name, _dom in [("exp", "away"), ("log", "pos"), ("sin", "away"), ("cos", "away"), ("tan", "unit"),
                    ("tanh", "away"), ("sigmoid", "away"), ("relu", "away"), ("abs", "away"), ("sqrt", "pos"),
                    ("rsqrt", "pos"), ("reciprocal", "pos"), ("log1p", "pos"), ("expm1", "away"), ("log2", "pos"),
                    ("log10", "pos"), ("erf", "away"), ("sign", "away"), ("round", "away"), ("floor", "away"),
                    ("ceil", "away"), ("trunc", "away"), ("lgamma", "pos"), ("digamma", "pos")]:
    C(_name, (lambda n: lambda T, a: getattr(T, n)(a))(_name), [(2, 3)], _dom)
for _name, _dom in [("asin", "unit"), ("acos", "unit"), ("atan", "away"), ("sinh", "away"), ("cosh", "away"),
                    ("asinh", "away"), ("atanh", "unit")]:
    C(_name, (lambda n: lambda T, a: getattr(T, n)(a))(_name), [(2, 3)], _dom)
C("acosh", lambda T, a: T.acosh(a + 1.0), [(2, 3)], "pos")
C("round_decimals", lambda T, a: T.round(a, decimals=2), [(2, 3)])
C("square", lambda T, a: T.square(a), [(2, 3)])
C("polygamma", lambda T, a: T.polygamma(2, a) + a.polygamma(0), [(2, 3)], "pos")
C("erfinv", lambda T, a: T.erfinv(a * 1.8 - 0.9), [(2, 3)], "unit")
C("xlogy", lambda T, a, b: T.xlogy(a, b), [(2, 3), (2, 3)], ["away", "pos"])
C("xlogy_scalars", lambda T, a: T.xlogy(a, 2.5) + T.xlogy(1.5, a), [(2, 3)], "pos")
# (igamma through Gamma.cdf: PyTorch differentiates it in x only)
C("igamma", lambda T, x: T.distributions.Gamma(T.tensor([0.7, 2.5, 6.0], dtype=T.float64), 1.5).cdf(x), [(2, 3)],
  "pos")
C("lgamma_reflected", lambda T, a: T.lgamma(a - 3.0) + T.digamma(a - 3.0), [(2, 3)], "unit")
C("clamp_both", lambda T, a: a.clamp(-1.0, 1.0), [(2, 3)])
C("clamp_min", lambda T, a: T.clamp(a, min=0.0), [(2, 3)])
C("clamp_max", lambda T, a: a.clamp(max=0.5), [(2, 3)])
C("clamp_tensor_bounds", lambda T, a, lo, hi: a.clamp(lo, hi), [(2, 3), (2, 3), (2, 3)])
C("cast_roundtrip", lambda T, a: a.float().double() * 1, [(2, 3)], gradgrad=False, eps=1e-2, atol=1e-4)
C("remainder", lambda T, a: T.remainder(a, 1.5), [(2, 3)], "unit")
C("fmod_number", lambda T, a: T.fmod(a, 1.5), [(2, 3)], "unit")
C("fmod_tensor", lambda T, a, b: T.fmod(a * 3, b.abs() + 0.7), [(2, 3), (2, 3)], "unit")
C("atan2", lambda T, a, b: T.atan2(a, b), [(2, 3), (2, 3)])
C("hypot", lambda T, a, b: T.hypot(a, b), [(2, 3), (2, 3)])
C("div_floor", lambda T, a, b: T.div(a, b, rounding_mode="floor"), [(2, 3), (2, 3)], "unit")
C("div_trunc_scalar", lambda T, a: T.div(a, 0.75, rounding_mode="trunc"), [(2, 3)], "unit")
# Outputs that are not differentiable: gradcheck verifies the numerical derivative is zero.
# (PyTorch's gradcheck cannot difference boolean outputs, so they are compared as float64.)
C("comparisons", lambda T, a, b: tuple(o.double() for o in (a == b, a != b, a < b, a <= b, a > b, a >= b)),
  [(2, 3), (2, 3)], gradgrad=False)
C("logical", lambda T, a, b: tuple(o.double() for o in (T.logical_and(a > 0, b > 0), T.logical_or(a > 0, b > 0),
                                                         T.logical_xor(a > 0, b > 0), T.logical_not(a > 0))),
  [(2, 3), (2, 3)], gradgrad=False)
C("isnan_isinf_isfinite", lambda T, a: tuple(o.double() for o in (T.isnan(a), T.isinf(a), T.isfinite(a))),
  [(2, 3)], gradgrad=False)
C("scale_op", lambda T, a: __import__("flowgrad.ops", fromlist=["scale"]).scale(a, 2.5, 1.0) if _flowgrad(T)
  else a * 2.5 + 1.0, [(2, 3)])

# ------------------------------------------------------------------------------------ reductions

C("sum", lambda T, a: a.sum(), [(2, 3)])
C("sum_dim", lambda T, a: a.sum(1), [(2, 3)])
C("sum_dims_keepdim", lambda T, a: a.sum((0, 2), keepdim=True), [(2, 3, 2)])
C("sum_to_size", lambda T, a: a.sum_to_size(1, 3), [(2, 3)])
C("nansum_dim", lambda T, a: T.nansum(T.where(a > 0.5, a, a.detach() * float("nan")), 1, keepdim=True), [(2, 3)])
C("mean", lambda T, a: a.mean(), [(2, 3)])
C("mean_dim", lambda T, a: a.mean(-1, keepdim=True), [(2, 3)])
C("prod", lambda T, a: a.prod(), [(2, 3)])
C("prod_dim", lambda T, a: a.prod(1), [(2, 3)])
C("prod_with_zero", lambda T, a: (a * T.tensor([[1., 0., 1.], [1., 1., 1.]], dtype=T.float64)).prod(), [(2, 3)])
C("max", lambda T, a: a.max(), [(2, 3)])
C("min", lambda T, a: a.min(), [(2, 3)])
C("max_dim", lambda T, a: a.max(1)[0], [(2, 3)])
C("min_dim", lambda T, a: a.min(0, keepdim=True)[0], [(2, 3)])
C("amax", lambda T, a: T.amax(a, 1), [(2, 3)])
C("amin", lambda T, a: T.amin(a, (0, 1)), [(2, 3)])
C("median", lambda T, a: a.median(), [(2, 3)])
C("median_dim", lambda T, a: a.median(1)[0], [(2, 3)])
C("var", lambda T, a: a.var(), [(2, 3)])
C("var_dim", lambda T, a: a.var(1, keepdim=True), [(2, 3)])
C("std", lambda T, a: a.std(), [(2, 3)])
C("std_dim", lambda T, a: a.std(0, unbiased=False), [(2, 3)])
C("var_mean", lambda T, a: T.var_mean(a, 1), [(2, 3)])
C("std_mean", lambda T, a: T.std_mean(a), [(2, 3)])
C("norm", lambda T, a: a.norm(), [(2, 3)])
C("norm_p1", lambda T, a: a.norm(p=1), [(2, 3)])
C("norm_p3_dim", lambda T, a: a.norm(p=3, dim=1), [(2, 3)])
C("norm_inf", lambda T, a: a.norm(p=float("inf")), [(2, 3)])
C("logsumexp", lambda T, a: T.logsumexp(a, 1), [(2, 3)])
C("cumsum", lambda T, a: a.cumsum(1), [(2, 3)])
C("arg_reductions", lambda T, a: tuple(o.double() for o in (a.argmax(), a.argmin(1), a.all(), a.any(1),
                                                               T.count_nonzero(a))), [(2, 3)], gradgrad=False)

# ------------------------------------------------------------------------------------ shape

C("reshape", lambda T, a: a.reshape(3, 2), [(2, 3)])
C("reshape_copy", lambda T, a: a.t().reshape(-1), [(2, 3)])
C("view", lambda T, a: a.view(-1), [(2, 3)])
C("flatten", lambda T, a: a.flatten(1), [(2, 3, 2)])
C("unflatten", lambda T, a: a.unflatten(1, (2, 2)), [(3, 4)])
C("permute", lambda T, a: a.permute(2, 0, 1), [(2, 3, 2)])
C("transpose", lambda T, a: a.transpose(0, 1), [(2, 3)])
C("swapaxes", lambda T, a: T.swapaxes(a, 0, 2), [(2, 3, 2)])
C("t", lambda T, a: a.t(), [(2, 3)])
C("mT", lambda T, a: a.mT * 1, [(2, 2, 3)])
C("expand", lambda T, a: a.expand(2, 3), [(1, 3)])
C("expand_as", lambda T, a, b: a.expand_as(b) * b, [(3,), (2, 3)])
C("broadcast_to", lambda T, a: T.broadcast_to(a, (2, 2, 3)), [(3,)])
C("squeeze", lambda T, a: a.squeeze(), [(2, 1, 3)])
C("squeeze_dim", lambda T, a: a.squeeze(1), [(2, 1, 3)])
C("unsqueeze", lambda T, a: a.unsqueeze(1), [(2, 3)])
C("cat", lambda T, a, b: T.cat([a, b], 1), [(2, 3), (2, 2)])
C("stack", lambda T, a, b: T.stack([a, b], 1), [(2, 3), (2, 3)])
C("hstack_vstack", lambda T, a, b: (T.hstack([a, b]), T.vstack([a, b])), [(2, 3), (2, 3)])
C("split", lambda T, a: a.split(2, 1), [(2, 5)])
C("split_sizes", lambda T, a: T.split(a, [1, 3], 1), [(2, 4)])
C("chunk", lambda T, a: a.chunk(2, 0), [(4, 2)])
C("unbind", lambda T, a: a.unbind(1), [(2, 3)])
C("flip", lambda T, a: a.flip((0, 1)), [(2, 3)])
C("repeat", lambda T, a: a.repeat(2, 1, 2), [(2, 3)])
C("tile", lambda T, a: a.tile((2,)), [(2, 3)])
C("tril", lambda T, a: a.tril(), [(3, 3)])
C("triu", lambda T, a: a.triu(1), [(3, 3)])
C("clone", lambda T, a: a.clone(), [(2, 3)])
C("contiguous", lambda T, a: a.t().contiguous(), [(2, 3)])
C("movedim", lambda T, a: a.movedim(0, 2), [(2, 3, 2)])
C("narrow", lambda T, a: a.narrow(1, 1, 2), [(2, 3)])
C("select", lambda T, a: a.select(1, 2), [(2, 3)])
C("view_as_reshape_as", lambda T, a, b: (a.view_as(b), a.reshape_as(b)), [(2, 3), (3, 2)])

# ------------------------------------------------------------------------------------ indexing

C("getitem_int", lambda T, a: a[1], [(2, 3)])
C("getitem_slice", lambda T, a: a[:, 1:3], [(2, 4)])
C("getitem_none_ellipsis", lambda T, a: a[None, ..., 0], [(2, 3)])
C("getitem_none", lambda T, a: a[None], [(2, 3)])
C("getitem_ellipsis", lambda T, a: a[...], [(2, 3)])
C("getitem_advanced", lambda T, a: a[T.tensor([0, 2, 2])], [(3, 2)])
C("getitem_mask", lambda T, a: a[a > 0], [(2, 3)])
C("getitem_pair", lambda T, a: a[T.tensor([0, 1]), T.tensor([2, 0])], [(2, 3)])


def _setitem(key_fn, square=False):
    def fn(T, a, b):
        x = a.clone()
        x[key_fn(T)] = b
        return x * x if square else x
    return fn


C("setitem_basic", _setitem(lambda T: 1, square=True), [(2, 3), (3,)])
C("setitem_slice", _setitem(lambda T: (slice(None), slice(0, 2))), [(2, 3), (2, 2)])
C("setitem_advanced", _setitem(lambda T: T.tensor([0, 2]), square=True), [(3, 2), (2, 2)])
C("setitem_mask", _setitem(lambda T: T.tensor([[True, False, True], [False, True, False]])), [(2, 3), (3,)])
C("index_put_", lambda T, a, b: a.clone().index_put_((T.tensor([1, 0]),), b), [(2, 3), (2, 3)])
C("cholesky_solve", lambda T, b, l: T.cholesky_solve(b, (l + 3 * T.eye(2)).tril()), [(2, 3), (2, 2)])
C("cholesky_solve_upper", lambda T, b, l: T.cholesky_solve(b, (l + 3 * T.eye(2)).triu(), upper=True),
  [(2, 2, 1), (2, 2)])
C("index_put_accumulate", lambda T, a, b: a.index_put((T.tensor([1, 1, 0]),), b, accumulate=True), [(2, 3), (3,)])
C("gather", lambda T, a: a.gather(1, T.tensor([[0, 2, 2], [1, 0, 1]])), [(2, 3)])
C("scatter_src", lambda T, a, s: a.scatter(1, T.tensor([[2, 0], [1, 2]]), s), [(2, 3), (2, 2)])
C("scatter_value", lambda T, a: a.scatter(0, T.tensor([[1, 0, 1]]), 2.5) * a, [(2, 3)])
C("scatter_add", lambda T, a, s: a.scatter_add(1, T.tensor([[2, 2], [0, 1]]), s), [(2, 3), (2, 2)])
C("scatter_add_", lambda T, a, s: a.clone().scatter_add_(0, T.tensor([[1, 1, 0]]), s), [(2, 3), (1, 3)])
C("index_select", lambda T, a: T.index_select(a, 1, T.tensor([2, 0, 2])), [(2, 3)])
C("index_add", lambda T, a, s: a.index_add(0, T.tensor([2, 0, 2]), s, alpha=1.5), [(3, 2), (3, 2)])
C("index_add_0d", lambda T, a, s: a.index_add(0, T.tensor([0]), s), [(), ()])
C("index_add_", lambda T, a, s: a.clone().index_add_(1, T.tensor([1]), s), [(2, 3), (2, 1)])
C("index_copy", lambda T, a, s: a.index_copy(1, T.tensor([2, 0]), s), [(2, 3), (2, 2)])
C("index_fill", lambda T, a: a.index_fill(1, T.tensor([2, -3]), -1.5) * a, [(2, 3)])
C("index_fill_tensor", lambda T, a, v: a.index_fill(1, T.tensor([2, 0, 2]), v.sum()) * a, [(2, 3), (2,)])
for _reduce in ("sum", "prod", "mean", "amax", "amin"):
    for _self in (True, False):
        C(f"scatter_reduce_{_reduce}{'' if _self else '_without_self'}",
          (lambda r, i: lambda T, a, s: a.scatter_reduce(1, T.tensor([[2, 0, 2], [1, 1, 0]]), s, r, include_self=i))(
              _reduce, _self), [(2, 3), (2, 3)])
C("scatter_reduce_prod_src_zero", lambda T, a, s: a.scatter_reduce(
    0, T.tensor([[1, 0], [1, 1]]), s * T.tensor([[1., 0.], [0., 1.]], dtype=T.float64), "prod"), [(2, 2), (2, 2)])
C("cumprod", lambda T, a: a.cumprod(1), [(2, 4)])
C("cumprod_zeros", lambda T, a: (a * T.tensor([[1., 0., 1., 1.], [0., 1., 0., 1.]], dtype=T.float64)).cumprod(1),
  [(2, 4)])
C("cummax", lambda T, a: a.cummax(1).values, [(2, 4)])
C("logcumsumexp", lambda T, a: a.logcumsumexp(1), [(2, 4)])
C("logaddexp", lambda T, a, b: T.logaddexp(a, b), [(2, 3), (3,)])
C("logaddexp2", lambda T, a, b: T.logaddexp2(a, b), [(2, 3), (2, 1)])
C("cummin", lambda T, a: T.cummin(a, 0).values, [(3, 2)])
C("repeat_interleave", lambda T, a: a.repeat_interleave(T.tensor([1, 0, 2]), dim=1), [(2, 3)])
C("repeat_interleave_int", lambda T, a: a.repeat_interleave(2), [(2, 3)])
C("kron", lambda T, a, b: T.kron(a, b), [(2, 3), (2,)])
C("masked_fill", lambda T, a: a.masked_fill(a > 0, 3.0) * a, [(2, 3)])
C("masked_select", lambda T, a: T.masked_select(a, a < 0.3), [(2, 3)])
C("fill_", lambda T, a, b: a.clone().fill_(2.0) * b, [(2, 3), (2, 3)])
C("zero_", lambda T, a, b: a.clone().zero_() + b, [(2, 3), (2, 3)])
C("copy_", lambda T, a, b: a.clone().copy_(b) * a, [(2, 3), (3,)])
C("inplace_on_view", lambda T, a, b: _inplace_on_view(a, b), [(2, 3), (3,)])
C("nonzero", lambda T, a: T.nonzero(a > 0).double(), [(2, 3)], gradgrad=False)


def _inplace_on_view(a, b):
    x = a * 1
    x[0].mul_(b)
    return x


# ------------------------------------------------------------------------------------ linalg

C("matmul_2d", lambda T, a, b: a @ b, [(2, 3), (3, 2)])
C("matmul_1d_1d", lambda T, a, b: T.matmul(a, b), [(3,), (3,)])
C("matmul_2d_1d", lambda T, a, b: T.matmul(a, b), [(2, 3), (3,)])
C("matmul_1d_2d", lambda T, a, b: T.matmul(a, b), [(3,), (3, 2)])
C("matmul_batched", lambda T, a, b: T.matmul(a, b), [(2, 2, 3), (2, 3, 2)])
C("matmul_broadcast", lambda T, a, b: T.matmul(a, b), [(2, 2, 3), (3, 2)])
C("matmul_1d_batched", lambda T, a, b: T.matmul(a, b), [(3,), (2, 3, 2)])
C("mm", lambda T, a, b: T.mm(a, b), [(2, 3), (3, 2)])
C("bmm", lambda T, a, b: T.bmm(a, b), [(2, 2, 3), (2, 3, 2)])
C("dot", lambda T, a, b: T.dot(a, b), [(3,), (3,)])
C("mv", lambda T, a, b: T.mv(a, b), [(2, 3), (3,)])
C("outer", lambda T, a, b: T.outer(a, b), [(2,), (3,)])
C("einsum", lambda T, a, b: T.einsum("ij,jk->ik", a, b), [(2, 3), (3, 2)])
C("einsum_ellipsis_diagonal", lambda T, a, b: T.einsum("...ii,...i->...i", a, b), [(2, 3, 3), (3,)])
# a contraction whose permuted operand reshapes as a strided view (ReshapeAliasBackward0)
C("einsum_diagonal_contracted", lambda T, a, b: T.einsum("ii,ij->j", a, b), [(3, 3), (3, 4)])
C("einsum_three_operands", lambda T, a, b, c: T.einsum("bn,anm,bm->ba", a, b, c), [(2, 3), (4, 3, 5), (2, 5)])
C("diagonal", lambda T, a: T.diagonal(a, 1, 2, 0), [(3, 2, 4)])
C("unsafe_chunk", lambda T, a: T.unsafe_chunk(a, 2, 1)[1] * T.unsafe_chunk(a, 2, 1)[0], [(3, 4)])
C("unsafe_split_with_sizes", lambda T, a: T.unsafe_split_with_sizes(a, [1, 2])[1] ** 2, [(3, 2)])
C("t_", lambda T, a: (a * 1).t_() * T.arange(1.0, 3.0, dtype=a.dtype), [(2, 3)])
C("transpose_", lambda T, a: (a * 1).transpose_(0, 2) ** 2, [(2, 3, 2)])
C("squeeze_", lambda T, a: (a * 1).squeeze_().exp() + (a * 2).squeeze_(1).sin() + (a * 3).squeeze_((1,)), [(3, 1)])
C("unsqueeze_", lambda T, a: (a * 1).unsqueeze_(1) * T.ones(3, 2, 2, dtype=a.dtype), [(3, 2)])
for _p in (0.5, 1.0, 2.0, 3.0, float("inf")):
    # PyTorch implements no double backward of cdist
    C(f"cdist_p{_p}", (lambda p: lambda T, a, b: T.cdist(a, b, p=p))(_p), [(2, 4, 3), (5, 3)], gradgrad=False)
C("cdist_by_products", lambda T, a, b: T.cdist(a, b, compute_mode="use_mm_for_euclid_dist"), [(4, 3), (5, 3)])
C("cdist_by_products_batched", lambda T, a, b: T.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
  [(2, 4, 3), (5, 3)])

# torch.linalg (square inputs shifted by a multiple of the identity: well conditioned)


def _wc(T, a):
    return a + 3 * T.eye(a.shape[-1], dtype=a.dtype)


C("linalg_inv", lambda T, a: T.linalg.inv(_wc(T, a)), [(2, 3, 3)])
C("linalg_det", lambda T, a: T.linalg.det(_wc(T, a)), [(2, 3, 3)])
C("linalg_slogdet", lambda T, a: T.linalg.slogdet(_wc(T, a))[1], [(3, 3)])
C("linalg_solve", lambda T, a, b: T.linalg.solve(_wc(T, a), b), [(2, 3, 3), (3, 2)])
C("linalg_solve_vector", lambda T, a, b: T.linalg.solve(_wc(T, a), b), [(3, 3), (3,)])
C("linalg_svdvals", lambda T, a: T.linalg.svdvals(a), [(2, 4, 3)])
C("linalg_matrix_norm_nuc", lambda T, a: T.linalg.matrix_norm(a, "nuc"), [(3, 4)])
C("linalg_matrix_norm_inf", lambda T, a: T.linalg.matrix_norm(a, float("inf"), keepdim=True), [(2, 3, 4)])
C("linalg_vector_norm", lambda T, a: T.linalg.vector_norm(a, 3, dim=(0, 2)), [(2, 3, 4)])


def _sym(a):
    return a + a.transpose(-1, -2)


def _spd(T, a):
    return a @ a.transpose(-1, -2) + 3 * T.eye(a.shape[-1], dtype=a.dtype)


def _sign_fixed(M, axis):
    """Singular / eigen vectors with their largest entry positive: a loss that ignores LAPACK's signs."""
    return M * M.detach().gather(axis, M.detach().abs().argmax(axis, keepdim=True)).sign()


C("linalg_svd", lambda T, a: (lambda u, s, vh: (_sign_fixed(u, -2), s, _sign_fixed(vh, -1)))(
    *T.linalg.svd(a, full_matrices=False)), [(4, 3)])
C("linalg_svd_wide", lambda T, a: (lambda u, s, vh: (_sign_fixed(u, -2), _sign_fixed(vh, -1)))(
    *T.linalg.svd(a, full_matrices=False)), [(2, 2, 3)])
C("linalg_eigh", lambda T, a: (lambda w, v: (w, _sign_fixed(v, -2)))(*T.linalg.eigh(_sym(a))), [(3, 3)])
C("linalg_eigvalsh", lambda T, a: T.linalg.eigvalsh(_sym(a), "U"), [(2, 3, 3)])
C("linalg_cholesky", lambda T, a: T.linalg.cholesky(_spd(T, a)), [(2, 3, 3)])
C("linalg_cholesky_upper", lambda T, a: T.linalg.cholesky(_spd(T, a), upper=True), [(3, 3)])
C("linalg_qr_tall", lambda T, a: tuple(T.linalg.qr(a)), [(4, 3)])
C("linalg_qr_wide", lambda T, a: tuple(T.linalg.qr(a)), [(2, 3, 4)])
C("linalg_pinv_tall", lambda T, a: T.linalg.pinv(a), [(4, 3)])
C("linalg_pinv_wide", lambda T, a: T.linalg.pinv(a), [(2, 2, 3)])
C("linalg_lstsq", lambda T, a, b: T.linalg.lstsq(a, b).solution, [(4, 3), (4, 2)])
C("linalg_lstsq_vector", lambda T, a, b: T.linalg.lstsq(a, b, driver="gelsd").solution, [(3, 4), (3,)])
C("linalg_matrix_exp", lambda T, a: T.linalg.matrix_exp(a), [(2, 3, 3)])
C("linalg_solve_triangular", lambda T, a, b: T.linalg.solve_triangular(_wc(T, a), b, upper=True), [(2, 3, 3), (3, 2)])
C("linalg_solve_triangular_unit_right", lambda T, a, b: T.linalg.solve_triangular(a, b, upper=False, left=False,
                                                                                  unitriangular=True), [(3, 3), (2, 3)])
C("linalg_cross", lambda T, a, b: T.linalg.cross(a, b), [(2, 3), (1, 3)])
C("linalg_lu", lambda T, a: tuple(T.linalg.lu(a))[1:], [(2, 3, 3)])
C("linalg_lu_tall", lambda T, a: tuple(T.linalg.lu(a))[1:], [(4, 3)])
C("linalg_lu_wide", lambda T, a: tuple(T.linalg.lu(a))[1:], [(3, 4)])
C("linalg_lu_factor", lambda T, a: T.linalg.lu_factor(a).LU, [(3, 3)])
C("linalg_lu_solve", lambda T, a, b: T.linalg.lu_solve(*T.linalg.lu_factor(a), b, adjoint=True), [(3, 3), (3, 2)])
C("addmm", lambda T, c, a, b: T.addmm(c, a, b), [(2, 2), (2, 3), (3, 2)])
C("addmm_scaled", lambda T, c, a, b: T.addmm(c, a, b, beta=0.5, alpha=-2), [(2,), (2, 3), (3, 2)])
C("addbmm", lambda T, c, a, b: T.addbmm(c, a, b, alpha=2), [(2, 2), (3, 2, 3), (3, 3, 2)])
C("baddbmm", lambda T, c, a, b: T.baddbmm(c, a, b, beta=3), [(2, 1), (2, 2, 3), (2, 3, 1)])
C("addmv", lambda T, c, a, b: T.addmv(c, a, b, beta=0.5), [(2,), (2, 3), (3,)])
C("addr", lambda T, c, a, b: T.addr(c, a, b, alpha=-1), [(2, 3), (2,), (3,)])
C("rot90", lambda T, a: T.rot90(a, 3, [2, 0]), [(2, 3, 2)])
C("take", lambda T, a: T.take(a, T.tensor([[0, 5], [-1, 0]])), [(2, 3)])
C("put", lambda T, a, s: T.put(a, T.tensor([4, -1, 0]), s), [(2, 3), (3,)])
C("put_accumulate", lambda T, a, s: T.put(a, T.tensor([1, 1, 0]), s, accumulate=True), [(2, 3), (3,)])
C("cov_weights", lambda T, a: T.cov(a, fweights=T.tensor([1, 2, 1, 3]), aweights=T.tensor([0.5, 1.0, 2.0, 1.5])),
  [(2, 4)])
C("corrcoef", lambda T, a: T.corrcoef(a), [(2, 4)])
C("quantile", lambda T, a: T.quantile(a, T.tensor([0.2, 0.7], dtype=T.float64), dim=1), [(2, 4)])
C("nanquantile", lambda T, a: T.nanquantile(a, 0.4, interpolation="midpoint"), [(2, 4)])
C("block_diag", lambda T, a, b, c: T.block_diag(a, b, c), [(2, 3), (2,), ()])
C("cartesian_prod", lambda T, a, b: T.cartesian_prod(a, b), [(2,), (3,)])
C("combinations", lambda T, a: T.combinations(a, 2, with_replacement=True), [(3,)])
C("trapezoid_x", lambda T, y, x: T.trapezoid(y, x, dim=0), [(3, 2), (3,)])
C("trapezoid_dx", lambda T, y: T.trapezoid(y, dx=0.5), [(2, 3)])
C("cumulative_trapezoid", lambda T, y, x: T.cumulative_trapezoid(y, x) + T.cumulative_trapezoid(y, dx=2),
  [(2, 3), (3,)])
C("linear", lambda T, x, w, b: F(T).linear(x, w, b), [(2, 3), (4, 3), (4,)])
C("linear_3d", lambda T, x, w: F(T).linear(x, w), [(2, 2, 3), (4, 3)])
C("linear_3d_bias", lambda T, x, w, b: F(T).linear(x, w, b), [(2, 2, 3), (4, 3), (4,)])
C("linear_2d_no_bias", lambda T, x, w: F(T).linear(x, w), [(2, 3), (4, 3)])
C("linear_1d", lambda T, x, w: F(T).linear(x, w), [(3,), (4, 3)])
C("linear_1d_bias", lambda T, x, w, b: F(T).linear(x, w, b), [(3,), (4, 3), (4,)])

# ------------------------------------------------------------------------------------ nn

C("softmax", lambda T, a: T.softmax(a, 1), [(2, 3)])
C("log_softmax", lambda T, a: a.log_softmax(0), [(2, 3)])
def _lstm_layer(T, x, w_ih, w_hh, b_ih, b_hh, h0, c0):
    """nn.LSTM's layer (flowgrad steps it with its fused cell) on the given weights and states."""
    params = dict(weight_ih_l0=w_ih, weight_hh_l0=w_hh, bias_ih_l0=b_ih, bias_hh_l0=b_hh)
    out, (h, c) = T.func.functional_call(T.nn.LSTM(3, 2).double(), params, (x, (h0, c0)))
    return out, c


C("lstm_layer", _lstm_layer, [(3, 2, 3), (8, 3), (8, 2), (8,), (8,), (1, 2, 2), (1, 2, 2)])

C("conv2d", lambda T, x, w, b: F(T).conv2d(x, w, b, stride=1, padding=1), [(1, 2, 3, 3), (2, 2, 2, 2), (2,)])
C("conv2d_strided_groups", lambda T, x, w: F(T).conv2d(x, w, stride=2, groups=2, dilation=1),
  [(1, 2, 4, 4), (2, 1, 2, 2)])
C("conv2d_groups_dilated", lambda T, x, w, b: F(T).conv2d(x, w, b, padding=(1, 2), dilation=(2, 1), groups=2),
  [(2, 4, 4, 3), (6, 2, 3, 2), (6,)])
C("conv2d_per_image", lambda T, x, w: F(T).conv2d(x, w, padding=(2, 1), dilation=(2, 1)), [(1, 1, 8, 8), (1, 1, 3, 3)])
C("conv2d_wide_padding", lambda T, x, w: F(T).conv2d(x, w, padding=2), [(1, 2, 3, 3), (3, 2, 2, 2)])
C("conv1d_same_dilated", lambda T, x, w, b: F(T).conv1d(x, w, b, padding="same", dilation=2),
  [(2, 2, 5), (3, 2, 2), (3,)])
C("conv3d_strided", lambda T, x, w: F(T).conv3d(x, w, stride=(2, 1, 1), padding=(1, 0, 1)),
  [(1, 2, 3, 3, 2), (2, 2, 2, 2, 2)])
C("conv_transpose1d", lambda T, x, w, b: F(T).conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1),
  [(2, 2, 3), (2, 3, 3), (3,)])
C("conv_transpose2d_groups", lambda T, x, w: F(T).conv_transpose2d(x, w, stride=(1, 2), groups=2, dilation=(2, 1),
                                                                  output_padding=(1, 0)), [(1, 4, 2, 3), (4, 1, 2, 2)])
C("unfold", lambda T, x: F(T).unfold(x, (2, 1), dilation=(1, 2), padding=1, stride=(2, 1)), [(1, 2, 3, 3)])
C("fold", lambda T, x: F(T).fold(x, (3, 4), 2, padding=(1, 0), stride=(2, 1)), [(1, 4, 6)])
C("max_pool2d", lambda T, x: F(T).max_pool2d(x, 2), [(1, 1, 4, 4)])
C("max_pool2d_with_indices", lambda T, x: F(T).max_pool2d(x, 2, stride=1, return_indices=True)[0], [(1, 1, 3, 3)])
C("avg_pool2d", lambda T, x: F(T).avg_pool2d(x, 2, stride=1, padding=1), [(1, 1, 3, 3)])
C("max_pool3d", lambda T, x: F(T).max_pool3d(x, 2, stride=(1, 2, 1), padding=(1, 0, 0), ceil_mode=True),
  [(1, 2, 3, 3, 3)])
C("avg_pool3d", lambda T, x: F(T).avg_pool3d(x, 2, stride=1, padding=(0, 1, 1), count_include_pad=False),
  [(1, 1, 3, 2, 3)])
C("pad", lambda T, x: F(T).pad(x, (1, 0, 0, 2), value=0.5), [(1, 2, 2)])
C("group_norm", lambda T, x, w, b: F(T).group_norm(x, 2, w, b, eps=0.1), [(2, 4, 3), (4,), (4,)])
C("group_norm_no_affine", lambda T, x: F(T).group_norm(x, 1, eps=0.1), [(2, 2, 2, 2)])
C("group_norm_weight_only", lambda T, x, w: F(T).group_norm(x, 2, w), [(2, 2, 3), (2,)])
C("max_unpool2d", lambda T, x: F(T).max_unpool2d(x, T.tensor([[[[0, 3], [9, 14]]]]), 2), [(1, 1, 2, 2)])
C("max_unpool3d", lambda T, x: F(T).max_unpool3d(x, T.tensor([[[[[0, 3]]], [[[1, 2]]]]]), (1, 1, 2)),
  [(1, 2, 1, 1, 2)])
C("prelu_channels", lambda T, x, w: F(T).prelu(x, w), [(2, 3, 2), (3,)])
C("prelu_shared", lambda T, x, w: F(T).prelu(x, w), [(4,), (1,)])
C("adaptive_max_pool2d", lambda T, x: F(T).adaptive_max_pool2d(x, (2, 3)), [(1, 2, 3, 4)])
C("adaptive_max_pool3d", lambda T, x: F(T).adaptive_max_pool3d(x, (2, 1, 2)), [(1, 1, 3, 2, 3)])
C("adaptive_avg_pool2d", lambda T, x: F(T).adaptive_avg_pool2d(x, (2, 3)), [(1, 1, 3, 4)])
C("adaptive_avg_pool3d", lambda T, x: F(T).adaptive_avg_pool3d(x, (2, 1, 2)), [(1, 1, 3, 2, 3)])
C("pixel_shuffle", lambda T, x: F(T).pixel_shuffle(x, 2), [(1, 4, 1, 2)])
C("pixel_unshuffle", lambda T, x: F(T).pixel_unshuffle(x, 2), [(2, 1, 2, 2)])
C("channel_shuffle", lambda T, x: F(T).channel_shuffle(x, 2), [(1, 4, 2)])
C("interpolate_nearest_1d", lambda T, x: F(T).interpolate(x, scale_factor=1.7), [(1, 2, 3)])
C("interpolate_nearest_2d", lambda T, x: F(T).interpolate(x, size=(3, 2)), [(1, 1, 2, 3)])
C("interpolate_nearest_3d", lambda T, x: F(T).interpolate(x, scale_factor=2), [(1, 1, 2, 1, 2)])
C("interpolate_nearest_exact_1d", lambda T, x: F(T).interpolate(x, size=5, mode="nearest-exact"), [(1, 2, 3)])
C("interpolate_nearest_exact_2d", lambda T, x: F(T).interpolate(x, size=(2, 3), mode="nearest-exact"), [(1, 1, 3, 2)])
C("interpolate_nearest_exact_3d", lambda T, x: F(T).interpolate(x, scale_factor=1.5, mode="nearest-exact"),
  [(1, 1, 2, 2, 1)])
C("interpolate_linear", lambda T, x: F(T).interpolate(x, size=5, mode="linear"), [(1, 2, 3)])
C("interpolate_bilinear", lambda T, x: F(T).interpolate(x, scale_factor=(1.5, 0.7), mode="bilinear",
                                                        align_corners=True), [(1, 1, 2, 3)])
C("interpolate_bicubic", lambda T, x: F(T).interpolate(x, size=(4, 2), mode="bicubic"), [(1, 1, 3, 3)])
C("interpolate_trilinear", lambda T, x: F(T).interpolate(x, size=(2, 3, 1), mode="trilinear"), [(1, 1, 2, 2, 2)])
C("pad_reflect_1d", lambda T, x: F(T).pad(x, (2, 1), mode="reflect"), [(2, 4)])
C("pad_reflect_2d", lambda T, x: F(T).pad(x, (1, 0, -1, 2), mode="reflect"), [(1, 3, 3)])
C("pad_reflect_3d", lambda T, x: F(T).pad(x, (1, 1, 0, 1, 1, 0), mode="reflect"), [(1, 2, 2, 2)])
C("pad_replicate_1d", lambda T, x: F(T).pad(x, (0, 2), mode="replicate"), [(1, 2, 3)])
C("pad_replicate_2d", lambda T, x: F(T).pad(x, (2, 1, 1, 1), mode="replicate"), [(2, 2, 2)])
C("pad_replicate_3d", lambda T, x: F(T).pad(x, (1, 0, 0, 1, 1, 1), mode="replicate"), [(1, 1, 2, 2, 2)])
C("embedding", lambda T, w: F(T).embedding(T.tensor([[0, 2], [2, 1]]), w), [(3, 2)])
C("mse_loss", lambda T, a, b: F(T).mse_loss(a, b), [(2, 3), (2, 3)])
C("mse_loss_sum", lambda T, a, b: F(T).mse_loss(a, b, reduction="sum"), [(2, 3), (2, 3)])
C("nll_loss", lambda T, a: F(T).nll_loss(a, T.tensor([2, 0])), [(2, 3)])
C("cross_entropy", lambda T, a: F(T).cross_entropy(a, T.tensor([1, 2])), [(2, 3)])
C("binary_cross_entropy", lambda T, p: F(T).binary_cross_entropy(p, T.tensor([[0., 1., .3], [1., .5, 0.]],
                                                                                dtype=T.float64)), [(2, 3)], "unit")
C("bce_with_logits", lambda T, a, t: F(T).binary_cross_entropy_with_logits(a, t), [(2, 3), (2, 3)],
  ["away", "unit"])
C("gelu", lambda T, a: F(T).gelu(a), [(2, 3)])
C("gelu_tanh", lambda T, a: F(T).gelu(a, approximate="tanh"), [(2, 3)])
C("silu", lambda T, a: F(T).silu(a), [(2, 3)])
C("leaky_relu", lambda T, a: F(T).leaky_relu(a, 0.1), [(2, 3)])
C("elu", lambda T, a: F(T).elu(a), [(2, 3)])
C("hardtanh", lambda T, a: F(T).hardtanh(a), [(2, 3)])
C("relu6", lambda T, a: F(T).relu6(a * 4), [(2, 3)])
C("hardswish", lambda T, a: F(T).hardswish(a * 2), [(2, 3)])
C("hardsigmoid", lambda T, a: F(T).hardsigmoid(a * 2), [(2, 3)], gradgrad=False)   # (torch has no second)
C("logit", lambda T, a: T.logit(a), [(2, 3)], "unit")
C("softplus", lambda T, a: F(T).softplus(a, beta=2.0), [(2, 3)])
C("selu", lambda T, a: F(T).selu(a), [(2, 3)])
C("selu_inplace", lambda T, a: F(T).selu_(a * 1), [(2, 3)])
C("celu", lambda T, a: F(T).celu(a, 0.7), [(2, 3)])
C("celu_inplace", lambda T, a: F(T).celu_(a * 1, 0.7), [(2, 3)])
C("elu_inplace", lambda T, a: F(T).elu_(a * 1), [(2, 3)])
C("glu", lambda T, a: F(T).glu(a, 0), [(2, 3)])
C("hardshrink", lambda T, a: F(T).hardshrink(a, 0.3), [(2, 3)])
C("softshrink", lambda T, a: F(T).softshrink(a, 0.3), [(2, 3)])
C("threshold", lambda T, a: F(T).threshold(a, 0.1, -2.0), [(2, 3)])
C("threshold_inplace", lambda T, a: F(T).threshold_(a * 1, 0.1, -2.0), [(2, 3)])
C("rrelu", lambda T, a: F(T).rrelu(a, 0.1, 0.3), [(2, 3)])
C("rrelu_inplace", lambda T, a: F(T).rrelu_(a * 1, 0.1, 0.3), [(2, 3)])
C("rrelu_training", lambda T, a: (T.manual_seed(0), F(T).rrelu(a, 0.1, 0.3, training=True))[1], [(2, 3)])
C("rrelu_training_inplace", lambda T, a: (T.manual_seed(0), F(T).rrelu(a * 1, 0.1, 0.3, training=True,
                                                                        inplace=True))[1], [(2, 3)])

# ------------------------------------------------------------------------------------ complex numbers
# complex inputs and outputs: gradcheck splits complex outputs into real and imaginary parts and
# differentiates along both parts of a complex input, as PyTorch's does

C("complex_mul", lambda T, a, b: a * b, [(2, 3), (3,)], "complex")
C("complex_div", lambda T, a, b: a / b, [(2, 3), (2, 3)], "complex")
C("complex_fused_products", lambda T, c, a, b: T.addmm(c, a, b, beta=1j, alpha=2 - 1j).addr(a[:, 0], b[0], alpha=1j)
  + T.addmv(c[:, 0], a, b[:, 0], beta=-1j)[:, None], [(2, 2), (2, 3), (3, 2)], "complex")
C("complex_times_real", lambda T, a, r: a * r - r / a, [(2, 3), (2, 3)], ["complex", "away"])
C("complex_add_alpha", lambda T, a, b: T.add(a, b, alpha=1.5 - 0.5j), [(3,), (3,)], "complex")
C("complex_pow_scalar", lambda T, a: a ** 3, [(2, 3)], "complex")
C("complex_neg_reciprocal", lambda T, a: -T.reciprocal(a), [(2, 3)], "complex")
C("complex_exp", lambda T, a: T.exp(a), [(2, 3)], "complex")
C("complex_logaddexp_logcumsumexp", lambda T, a, b: T.logaddexp(a, b).logcumsumexp(1), [(2, 3), (3,)], "complex")
C("complex_log", lambda T, a: T.log(a), [(2, 3)], "complex")
C("complex_sqrt", lambda T, a: T.sqrt(a), [(2, 3)], "complex")
C("complex_rsqrt_log2_log10", lambda T, a: T.rsqrt(a) + T.log2(a) - T.log10(a), [(2, 3)], "complex")
C("complex_log1p_expm1", lambda T, a: T.log1p(a) * T.expm1(a), [(2, 3)], "complex")
C("complex_sin_cos_tan", lambda T, a: T.sin(a) + T.cos(a) * T.tan(a), [(2, 3)], "complex")
C("complex_abs", lambda T, a: T.abs(a), [(2, 3)], "complex")
C("complex_angle", lambda T, a: T.angle(a), [(2, 3)], "complex")
C("complex_sgn", lambda T, a: T.sgn(a), [(2, 3)], "complex")
C("complex_conj", lambda T, a: T.conj(a) * a, [(2, 3)], "complex")
C("complex_conj_physical", lambda T, a: T.conj_physical(a), [(2, 3)], "complex")
C("complex_real_imag", lambda T, a: (a.real * a.imag, T.real(a), T.imag(a)), [(2, 3)], "complex")
C("complex_from_parts", lambda T, x, y: T.complex(x, y), [(2, 3), (2, 3)])
C("view_as_real", lambda T, a: T.view_as_real(a), [(2, 3)], "complex")
C("view_as_complex", lambda T, x: T.view_as_complex(x), [(3, 2)])
C("complex_matmul", lambda T, a, b: a @ b, [(2, 3), (3, 2)], "complex")
C("complex_linear", lambda T, x, w, b: F(T).linear(x, w, b), [(2, 3), (4, 3), (4,)], "complex")
C("complex_linear_no_bias", lambda T, x, w: F(T).linear(x, w), [(2, 2, 3), (4, 3)], "complex")
C("complex_var_std_norm", lambda T, a: (a.var(1), a.std(), a.norm(), T.linalg.vector_norm(a, 3, dim=0)), [(2, 3)],
  "complex")
C("complex_sum_mean", lambda T, a: (a.sum(0), a.mean()), [(2, 3)], "complex")
C("complex_cast", lambda T, x: x.to(T.complex128) * (1 + 2j), [(2, 3)])
C("complex_tanh_sigmoid", lambda T, a: (T.tanh(a), T.sigmoid(a)), [(2, 3)], "complex")
C("complex_inverse_trig", lambda T, a: (T.asin(a), T.acos(a), T.atan(a)), [(2, 3)], "complex")
C("complex_hyperbolic", lambda T, a: (T.sinh(a), T.cosh(a), T.asinh(a), T.acosh(a), T.atanh(a)), [(2, 3)],
  "complex")
C("complex_logsumexp", lambda T, a: (T.logsumexp(a, 1), T.logsumexp(a, (0, 1), keepdim=True)), [(2, 3)], "complex")
C("complex_prod", lambda T, a: (a.prod(), a.prod(1, keepdim=True)), [(2, 3)], "complex")
C("complex_prod_with_zero", lambda T, a: (a * T.tensor([[1, 0, 1], [1, 1, 1]], dtype=T.complex128)).prod(1),
  [(2, 3)], "complex")
C("complex_cumprod", lambda T, a: a.cumprod(1), [(2, 4)], "complex")
C("complex_cumprod_zeros", lambda T, a: (a * T.tensor([[1, 0, 1, 1]], dtype=T.complex128)).cumprod(1), [(2, 4)],
  "complex")
C("complex_pow_tensor", lambda T, a, b: a ** b, [(2, 3), (2, 3)], "complex")
C("complex_pow_real_base", lambda T, r, b: r ** b, [(2, 3), (2, 3)], ["pos", "complex"])
C("complex_pow_real_exponent", lambda T, a, r: a ** r, [(2, 3), (3,)], ["complex", "away"])
C("complex_rpow", lambda T, b: 2.0 ** b + (-1.5) ** b, [(2, 3)], "complex")
C("complex_square_reciprocal", lambda T, a: T.square(a) + T.reciprocal(a), [(2, 3)], "complex")
C("complex_sum_dims_views", lambda T, a: (a.sum((0, 2)), a.transpose(0, 1).reshape(6, 2), a.permute(2, 0, 1)[0]),
  [(2, 3, 2)], "complex")
C("complex_pad", lambda T, a: F(T).pad(a, (1, 2)), [(2, 3)], "complex")

CASE_IDS = [c.id for c in CASES]
CASE_BY_ID = {c.id: c for c in CASES}


# ------------------------------------------------------------------------------------ the tests

def make_inputs(T, case: Case) -> tuple:
    rng = np.random.default_rng(zlib.crc32(case.id.encode()))
    doms = case.domain if isinstance(case.domain, list) else [case.domain] * len(case.shapes)
    return tuple(T.tensor(DOMAINS[d](rng, s), dtype=T.complex128 if d == "complex" else T.float64, requires_grad=True)
                 for s, d in zip(case.shapes, doms))


def _bind(T, case):
    return lambda *args: case.fn(T, *args)


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_gradcheck(torch, case_id):
    case = CASE_BY_ID[case_id]
    assert torch.autograd.gradcheck(_bind(torch, case), make_inputs(torch, case), **case.kw)


@pytest.mark.parametrize("case_id", [c.id for c in CASES if c.gradgrad])
def test_gradgradcheck(torch, case_id):
    case = CASE_BY_ID[case_id]
    assert torch.autograd.gradgradcheck(_bind(torch, case), make_inputs(torch, case), **case.kw)


@pytest.mark.parametrize("case_id", ["mul", "matmul_2d", "conv2d", "softmax", "gather", "norm_p3_dim"])
def test_fast_mode_gradcheck(torch, case_id):
    case = CASE_BY_ID[case_id]
    inputs = make_inputs(torch, case)
    assert torch.autograd.gradcheck(_bind(torch, case), inputs, fast_mode=True)
    assert torch.autograd.gradgradcheck(_bind(torch, case), inputs, fast_mode=True)


# Declared node classes no case can reach through the torch facade (module.attribute), with the reason.
UNREACHED = {
    "elementwise.ToDeviceBackward": "needs a second device; covered by the device tests",
    "elementwise.CopyBackwards": "made by backward(create_graph=True) accumulating into .grad, not by an op call",
    "index_ops.ScatterReduceDoubleBackward": "PyTorch refuses the double backward of a prod scatter_reduce whose src "
                                             "holds several zeros for one position (tests/torch_api/test_index_ops.py)",
    "sets.Unique2Backward0": "PyTorch implements no derivative of unique: its backward raises "
                             "(tests/torch_api/test_composite_ops.py)",
    "sets.UniqueDimBackward0": "as Unique2Backward0, for unique(dim=)",
    "sets.UniqueConsecutiveBackward0": "as Unique2Backward0, for unique_consecutive",
    "statistics.HistogramBackward": "PyTorch implements no derivative of histogram: its backward raises "
                                    "(tests/torch_api/test_array_builders.py)",
    "elementwise.NoDerivative": "PyTorch implements no derivative of floor division or scatter(reduce=): its "
                                "backward raises (tests/torch_api/test_argument_checks.py)",
    "elementwise.UnaryNoDerivative": "the one-input form of NoDerivative: bernoulli(p, float) "
                                     "(tests/torch_api/test_overloads_and_leaks.py)",
    "elementwise.BernoulliBackward0": "a random draw: its zero gradient is compared with PyTorch's in "
                                      "tests/torch_api/test_overloads_and_leaks.py",
    "elementwise.PoissonBackward0": "a random draw: its zero gradient is compared with PyTorch's in "
                                     "tests/torch_api/test_swept_cases.py",
    "linalg.MatmulBackward0": "the row the product nodes are variants of: every product records one of them",
    "random_grads.StandardGammaBackward0": "a random draw: finite differences redraw it; its implicit gradient is "
                                           "compared with PyTorch's in tests/distributions",
    "random_grads.DirichletBackward": "as StandardGammaBackward0, for Dirichlet draws",
    "random_grads.StandardGammaGradBackward0": "PyTorch implements no derivative of its gamma-gradient "
                                               "approximation: its backward raises (tests/distributions)",
    "random_grads.DirichletGradBackward0": "as StandardGammaGradBackward0, for Dirichlet draws",
}


def _op_node_classes() -> set:
    """Every node class the op table declares (flowgrad/ops), less the UNREACHED ones."""
    from flowgrad.ops import _declare
    unreached = set()
    for path in UNREACHED:
        mod_name, attr = path.split(".")
        unreached.add(getattr(importlib.import_module(f"flowgrad.ops.{mod_name}"), attr))
    return {c for c in _declare.DECLARED if c.__module__.startswith("flowgrad.ops.")} - unreached


def _reached(roots, seen: set) -> None:
    stack = [r for r in roots if r is not None]
    visited = set()
    while stack:
        node = stack.pop()
        if node in visited:
            continue
        visited.add(node)
        seen.add(type(node))
        stack.extend(e[0] for e in node.next_edges if e is not None)


def test_every_op_node_is_exercised(ftorch):
    T = ftorch
    seen: set = set()
    for case in CASES:
        inputs = make_inputs(T, case)
        outs = case.fn(T, *inputs)
        outs = [o for o in (outs if isinstance(outs, tuple) else (outs,)) if o.requires_grad]
        _reached([o.grad_fn for o in outs], seen)
        if outs:
            seeds = [T.ones_like(o).requires_grad_() for o in outs]     # so backward-of-backward nodes appear
            grads = T.autograd.grad(outs, inputs, seeds, create_graph=True, allow_unused=True)
            _reached([g.grad_fn for g in grads if g is not None], seen)
            live = [g for g in grads if g is not None and g.requires_grad]
            if live and case.gradgrad:     # third order reaches the nodes that only backward formulas create
                third = T.autograd.grad([(g.real if g.is_complex() else g).sum() for g in live], inputs,
                                        create_graph=True, allow_unused=True)
                _reached([g.grad_fn for g in third if g is not None], seen)
    missing = sorted(f"{c.__module__}.{c.__name__}" for c in _op_node_classes() - seen)
    assert missing == [], f"node classes no gradcheck case reaches: {missing}"
