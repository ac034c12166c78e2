"""Op-by-op parity of ``flowgrad.torch`` with real PyTorch.

Every case in ``CASES`` is a function ``fn(T, *tensors)`` written once against the torch API; it
runs under flowgrad's facade and under real torch on the same float64 numbers (a seeded NumPy
generator), and the tests compare

* forward values, shapes, dtypes and ``requires_grad`` of every output   (``test_forward``)
* first-order gradients of ``sum(out * W)`` w.r.t. every input           (``test_grad``)
* second-order gradients of ``sum(grads * V)`` w.r.t. every input and w.r.t. the weights W
  (double backward, as torch.autograd.gradgradcheck does)                 (``test_grad2``)
* first-order gradients against central finite differences, flowgrad only (``test_finite_differences``)
* output and gradient dtypes when the inputs are float32                  (``test_float32_dtypes``)
* the autograd node's class name, ``type(out.grad_fn).__name__``          (``test_node_name``)

plus python-scalar / tensor dtype promotion checks (``test_promotion``).

``FLOWGRAD_OPS_SELFTEST=1`` substitutes real torch for flowgrad, so the whole module can be checked
against itself: with it every test must pass (that validates the harness and the case table).
"""
from __future__ import annotations

import os
import zlib
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np
import pytest

SELFTEST = os.environ.get("FLOWGRAD_OPS_SELFTEST", "").strip() not in ("", "0", "false", "False")

FLOAT_DTYPES = ("torch.float16", "torch.bfloat16", "torch.float32", "torch.float64")

# forward float64: tight; gradients: same rtol with a small atol for cancellations near zero.
FWD_TOL = {"torch.float64": dict(rtol=1e-10, atol=1e-12), "torch.float32": dict(rtol=1e-6, atol=1e-6)}
GRAD_TOL = {"torch.float64": dict(rtol=1e-10, atol=1e-10), "torch.float32": dict(rtol=1e-5, atol=1e-5)}
FD_EPS = 1e-6
FD_TOL = dict(rtol=1e-5, atol=1e-6)


# --------------------------------------------------------------------------------------------------
# fixtures
# --------------------------------------------------------------------------------------------------


@pytest.fixture
def fw(request):
    """The framework under test: flowgrad.torch, or real torch when FLOWGRAD_OPS_SELFTEST=1."""
    if SELFTEST:
        mod = pytest.importorskip("torch")
        mod.set_grad_enabled(True)
        return mod
    return request.getfixturevalue("ftorch")


# --------------------------------------------------------------------------------------------------
# input domains
# --------------------------------------------------------------------------------------------------

_KINKS = np.array([0.0, 0.5, -0.5, 1.0, -1.0])


def _normal(rng, shape):
    return rng.uniform(-2.0, 2.0, size=shape)


def _pos(rng, shape):
    return rng.uniform(0.5, 2.0, size=shape)


def _nonzero(rng, shape):
    return rng.uniform(0.5, 2.0, size=shape) * rng.choice([-1.0, 1.0], size=shape)


def _away(rng, shape):
    """Uniform in [-2, 2] but at least 0.05 away from the kinks 0, +-0.5, +-1 (relu/abs/clamp)."""
    x = np.asarray(rng.uniform(-2.0, 2.0, size=shape))
    near = (np.abs(x[..., None] - _KINKS) < 0.05).any(axis=-1)
    return np.where(near, x + 0.1, x)


def _fixed(values):
    """A domain that ignores the generator and returns the given numbers (shape must match)."""
    arr = np.asarray(values, dtype=np.float64)

    def make(rng, shape):
        assert arr.shape == tuple(shape), (arr.shape, shape)
        return arr.copy()

    return make


DOMAINS: dict[str, Callable] = {"normal": _normal, "pos": _pos, "nonzero": _nonzero, "away": _away}


# --------------------------------------------------------------------------------------------------
# the case table
# --------------------------------------------------------------------------------------------------


class Case(NamedTuple):
    id: str
    fn: Callable[..., Any]
    shapes: Sequence[tuple]
    domain: Any = "normal"  # a name / callable for all inputs, or a list with one per input
    fd: bool = True  # finite differences meaningful (False at ties / non-smooth points)

    def __repr__(self):
        return f"Case({self.id})"


CASES: list[Case] = []


def C(id, fn, shapes, domain="normal", fd=True):
    assert all(c.id != id for c in CASES), f"duplicate case id {id}"
    CASES.append(Case(id, fn, [tuple(s) for s in shapes], domain, fd))


# Constants used inside case functions (never random, identical for both frameworks).
MASK_34 = np.array([[True, False, True, False], [False, False, True, True], [True, True, False, False]])
MASK_31 = np.array([[True], [False], [True]])
MASK_ROWS = np.array([True, False, True])
MASK_COLS = np.array([False, True, True, False])
ONEHOT_34 = np.eye(4)[[1, 3, 0]]

# ---- elementwise binary ops, every broadcasting pattern -------------------------------------------
BCAST = [
    ("same", [(3, 4), (3, 4)]),
    ("rowcol", [(3, 1), (1, 4)]),
    ("trailing", [(2, 3, 4), (4,)]),
    ("leading", [(4,), (2, 3, 4)]),
    ("mid", [(2, 1, 4), (3, 1)]),
    ("0d_right", [(3, 4), ()]),
    ("0d_left", [(), (3, 4)]),
    ("0d_0d", [(), ()]),
    ("ones_both", [(1, 4), (3, 1)]),
]
BINARY = [
    ("add", lambda T, a, b: a + b, "normal"),
    ("sub", lambda T, a, b: a - b, "normal"),
    ("mul", lambda T, a, b: a * b, "normal"),
    ("div", lambda T, a, b: a / b, ["normal", "nonzero"]),
    ("pow", lambda T, a, b: a**b, ["pos", "normal"]),
    ("maximum", lambda T, a, b: T.maximum(a, b), "normal"),
    ("minimum", lambda T, a, b: T.minimum(a, b), "normal"),
]
for _name, _fn, _dom in BINARY:
    for _bname, _shapes in BCAST:
        C(f"{_name}_{_bname}", _fn, _shapes, _dom)

# function / method spellings
C("add_fn", lambda T, a, b: T.add(a, b), [(3, 4), (3, 4)])
C("add_method", lambda T, a, b: a.add(b), [(3, 1), (4,)])
C("sub_fn", lambda T, a, b: T.sub(a, b), [(3, 4), (4,)])
C("sub_method", lambda T, a, b: a.sub(b), [(3, 4), (3, 4)])
C("mul_fn", lambda T, a, b: T.mul(a, b), [(3, 4), (3, 1)])
C("mul_method", lambda T, a, b: a.mul(b), [(3, 4), (3, 4)])
C("div_fn", lambda T, a, b: T.div(a, b), [(3, 4), (4,)], ["normal", "nonzero"])
C("div_method", lambda T, a, b: a.div(b), [(3, 4), (3, 4)], ["normal", "nonzero"])
C("pow_fn", lambda T, a, b: T.pow(a, b), [(3, 4), (4,)], ["pos", "normal"])
C("pow_method", lambda T, a, b: a.pow(b), [(3, 4), (3, 4)], ["pos", "normal"])
C("maximum_method", lambda T, a, b: a.maximum(b), [(3, 4), (4,)])
C("minimum_method", lambda T, a, b: a.minimum(b), [(3, 4), (4,)])
C("max_binary", lambda T, a, b: T.max(a, b), [(3, 4), (3, 4)])
C("min_binary", lambda T, a, b: T.min(a, b), [(3, 4), (3, 4)])

# same tensor used twice (gradient accumulation)
C("add_self", lambda T, a: a + a, [(3, 4)])
C("mul_self", lambda T, a: a * a, [(3, 4)])
C("div_self", lambda T, a: a / a, [(3, 4)], "nonzero")
C("sub_self_bcast", lambda T, a: a - a[0], [(3, 4)])

# ---- python-scalar operands (forward and reverse operators) ---------------------------------------
C("add_pyfloat", lambda T, a: a + 2.5, [(3, 4)])
C("add_pyint", lambda T, a: a + 2, [(3, 4)])
C("radd_pyfloat", lambda T, a: 2.5 + a, [(3, 4)])
C("sub_pyfloat", lambda T, a: a - 2.5, [(3, 4)])
C("rsub_pyint", lambda T, a: 2 - a, [(3, 4)])
C("rsub_pyfloat", lambda T, a: 2.5 - a, [(3, 4)])
C("mul_pyfloat", lambda T, a: a * 2.5, [(3, 4)])
C("rmul_pyint", lambda T, a: 3 * a, [(3, 4)])
C("div_pyfloat", lambda T, a: a / 4.0, [(3, 4)])
C("div_pyint", lambda T, a: a / 3, [(3, 4)])
C("rdiv_pyint", lambda T, a: 3 / a, [(3, 4)], "nonzero")
C("rdiv_pyfloat", lambda T, a: 1.5 / a, [(3, 4)], "nonzero")
C("pow_int2", lambda T, a: a**2, [(3, 4)])
C("pow_int3", lambda T, a: a**3, [(3, 4)])
C("pow_float", lambda T, a: a**2.5, [(3, 4)], "pos")
C("pow_half", lambda T, a: a**0.5, [(3, 4)], "pos")
C("pow_negfloat", lambda T, a: a**-1.5, [(3, 4)], "pos")
C("pow_negint", lambda T, a: a**-2, [(3, 4)], "nonzero")
C("pow_zero", lambda T, a: a**0, [(3, 4)])
C("pow_one", lambda T, a: a**1, [(3, 4)])
C("pow_fn_scalar", lambda T, a: T.pow(a, 3), [(3, 4)])
C("rpow_int", lambda T, a: 2**a, [(3, 4)])
C("rpow_float", lambda T, a: 0.5**a, [(3, 4)])
C("rpow_fn", lambda T, a: T.pow(2.0, a), [(3, 4)])
C("neg", lambda T, a: -a, [(3, 4)])
C("neg_fn", lambda T, a: T.neg(a), [(3, 4)])
C("neg_method", lambda T, a: a.neg(), [(3, 4)])
C("mul_pyfloat_0d", lambda T, a: a * 2.5, [()])
C("rsub_pyint_0d", lambda T, a: 2 - a, [()])
C("rdiv_pyint_0d", lambda T, a: 3 / a, [()], "nonzero")
C("rpow_int_0d", lambda T, a: 2**a, [()])
C("pow_int2_0d", lambda T, a: a**2, [()])
C("neg_0d", lambda T, a: -a, [()])

# ---- unary elementwise ----------------------------------------------------------------------------
UNARY = [
    ("exp", "normal"),
    ("log", "pos"),
    ("sin", "normal"),
    ("cos", "normal"),
    ("tanh", "normal"),
    ("sigmoid", "normal"),
    ("relu", "away"),
    ("abs", "away"),
    ("sqrt", "pos"),
]
for _name, _dom in UNARY:
    C(f"{_name}", (lambda n: lambda T, a: getattr(a, n)())(_name), [(3, 4)], _dom)
    C(f"{_name}_fn", (lambda n: lambda T, a: getattr(T, n)(a))(_name), [(2, 3)], _dom)
    C(f"{_name}_0d", (lambda n: lambda T, a: getattr(a, n)())(_name), [()], _dom)
C("sigmoid_large", lambda T, a: (a * 30.0).sigmoid(), [(3, 4)])
C("tanh_large", lambda T, a: (a * 30.0).tanh(), [(3, 4)])

# ---- clamp / where --------------------------------------------------------------------------------
C("clamp_min", lambda T, a: a.clamp(min=-0.5), [(3, 4)], "away")
C("clamp_max", lambda T, a: a.clamp(max=0.5), [(3, 4)], "away")
C("clamp_both", lambda T, a: a.clamp(-0.5, 0.5), [(3, 4)], "away")
C("clamp_fn_both", lambda T, a: T.clamp(a, min=-1.0, max=1.0), [(3, 4)], "away")
C("clamp_fn_min", lambda T, a: T.clamp(a, min=0.0), [(3, 4)], "away")
C("clamp_fn_max", lambda T, a: T.clamp(a, max=0.5), [(3, 4)], "away")
C("clamp_0d", lambda T, a: a.clamp(-0.5, 0.5), [()], _fixed(0.3))
C("clamp_0d_clamped", lambda T, a: a.clamp(-0.5, 0.5), [()], _fixed(-1.7))
C("clamp_then_square", lambda T, a: a.clamp(-1.0, 1.0) ** 2, [(3, 4)], "away")

C("where_const_mask", lambda T, a, b: T.where(T.tensor(MASK_34), a, b), [(3, 4), (3, 4)])
C("where_bcast", lambda T, a, b: T.where(T.tensor(MASK_31), a, b), [(1, 4), (3, 4)])
C("where_bcast_all", lambda T, a, b: T.where(T.tensor(MASK_31), a, b), [(4,), ()])
C("where_data", lambda T, a, b: T.where(a > b, a, b), [(3, 4), (3, 4)])
C("where_data_bcast", lambda T, a, b: T.where(a > 0, a * b, b), [(3, 4), (4,)], ["away", "normal"])
C("where_scalar_other", lambda T, a: T.where(a > 0, a, 0.0), [(3, 4)], "away")
C("where_method", lambda T, a, b: a.where(T.tensor(MASK_34), b), [(3, 4), (3, 4)])
C("where_then_square", lambda T, a, b: T.where(T.tensor(MASK_34), a, b) ** 2, [(3, 4), (3, 4)])

# ---- reductions -----------------------------------------------------------------------------------
C("sum_full", lambda T, a: a.sum(), [(3, 4)])
C("sum_fn", lambda T, a: T.sum(a), [(2, 3, 4)])
C("sum_dim0", lambda T, a: a.sum(0), [(3, 4)])
C("sum_dim1", lambda T, a: a.sum(dim=1), [(3, 4)])
C("sum_dimneg", lambda T, a: a.sum(-1), [(2, 3, 4)])
C("sum_keepdim", lambda T, a: a.sum(1, keepdim=True), [(3, 4)])
C("sum_tuple", lambda T, a: a.sum((0, 2)), [(2, 3, 4)])
C("sum_tuple_keepdim", lambda T, a: a.sum(dim=(0, -1), keepdim=True), [(2, 3, 4)])
C("sum_fn_dim", lambda T, a: T.sum(a, dim=1), [(2, 3, 4)])
C("sum_1d_dim", lambda T, a: a.sum(0), [(5,)])
C("sum_0d", lambda T, a: a.sum(), [()])
C("sum_square", lambda T, a: (a * a).sum(1), [(3, 4)])

C("mean_full", lambda T, a: a.mean(), [(3, 4)])
C("mean_fn", lambda T, a: T.mean(a), [(2, 3, 4)])
C("mean_dim0", lambda T, a: a.mean(0), [(3, 4)])
C("mean_dimneg", lambda T, a: a.mean(dim=-1), [(2, 3, 4)])
C("mean_keepdim", lambda T, a: a.mean(1, keepdim=True), [(3, 4)])
C("mean_tuple", lambda T, a: a.mean((0, 2)), [(2, 3, 4)])
C("mean_tuple_keepdim", lambda T, a: a.mean((1, 2), keepdim=True), [(2, 3, 4)])
C("mean_fn_dim", lambda T, a: T.mean(a, dim=0, keepdim=True), [(3, 4)])
C("mean_0d", lambda T, a: a.mean(), [()])

C("prod_full", lambda T, a: a.prod(), [(3, 4)], "nonzero")
C("prod_fn", lambda T, a: T.prod(a), [(2, 3)], "nonzero")
C("prod_dim1", lambda T, a: a.prod(1), [(3, 4)], "nonzero")
C("prod_dim0_keepdim", lambda T, a: a.prod(0, keepdim=True), [(3, 4)], "nonzero")
C("prod_dimneg", lambda T, a: a.prod(dim=-1), [(2, 3, 4)], "nonzero")
C("prod_fn_dim", lambda T, a: T.prod(a, 1), [(3, 4)], "nonzero")
C("prod_0d", lambda T, a: a.prod(), [()], "nonzero")
C("prod_one_zero", lambda T, a: a.prod(), [(2, 3)], _fixed([[1.5, -0.7, 0.0], [2.0, 0.9, -1.2]]))
C("prod_two_zeros", lambda T, a: a.prod(), [(2, 3)], _fixed([[1.5, 0.0, 1.1], [2.0, 0.0, -1.2]]))
C("prod_dim_zero", lambda T, a: a.prod(1), [(3, 3)],
  _fixed([[1.5, 0.0, 1.1], [2.0, -0.5, -1.2], [0.0, 0.0, 0.3]]))

C("max_full", lambda T, a: a.max(), [(3, 4)])
C("max_fn_full", lambda T, a: T.max(a), [(2, 3, 4)])
C("max_dim", lambda T, a: a.max(1), [(3, 4)])
C("max_dim0_keepdim", lambda T, a: a.max(0, keepdim=True), [(3, 4)])
C("max_dimneg", lambda T, a: a.max(dim=-1), [(2, 3, 4)])
C("max_fn_dim", lambda T, a: T.max(a, 1), [(3, 4)])
C("max_fn_dim_keepdim", lambda T, a: T.max(a, dim=1, keepdim=True), [(2, 3, 4)])
C("max_dim_values", lambda T, a: a.max(1)[0] * 2.0, [(3, 4)])
C("max_dim_values_attr", lambda T, a: a.max(dim=1).values, [(3, 4)])
C("max_0d", lambda T, a: a.max(), [()])
C("max_full_ties", lambda T, a: a.max(), [(2, 3)], _fixed([[1.0, 2.0, 2.0], [-1.0, 2.0, 0.5]]), fd=False)
C("min_full", lambda T, a: a.min(), [(3, 4)])
C("min_fn_full", lambda T, a: T.min(a), [(2, 3, 4)])
C("min_dim", lambda T, a: a.min(1), [(3, 4)])
C("min_dim0_keepdim", lambda T, a: a.min(0, keepdim=True), [(3, 4)])
C("min_dimneg", lambda T, a: a.min(dim=-1), [(2, 3, 4)])
C("min_fn_dim", lambda T, a: T.min(a, 0), [(3, 4)])
C("min_dim_indices_attr", lambda T, a: a.min(dim=1).indices, [(3, 4)])
C("min_0d", lambda T, a: a.min(), [()])
C("min_full_ties", lambda T, a: a.min(), [(2, 3)], _fixed([[1.0, -2.0, 2.0], [-2.0, 2.0, -2.0]]), fd=False)

C("var_full", lambda T, a: a.var(), [(3, 4)])
C("var_full_biased", lambda T, a: a.var(unbiased=False), [(3, 4)])
C("var_fn", lambda T, a: T.var(a), [(2, 3, 4)])
C("var_dim", lambda T, a: a.var(1), [(3, 4)])
C("var_dim_biased", lambda T, a: a.var(0, unbiased=False), [(3, 4)])
C("var_dim_keepdim", lambda T, a: a.var(dim=1, keepdim=True), [(3, 4)])
C("var_dimneg", lambda T, a: a.var(-1), [(2, 3, 4)])
C("var_tuple", lambda T, a: a.var((0, 2)), [(2, 3, 4)])
C("var_fn_dim", lambda T, a: T.var(a, 1, unbiased=False, keepdim=True), [(3, 4)])
C("std_full", lambda T, a: a.std(), [(3, 4)])
C("std_full_biased", lambda T, a: a.std(unbiased=False), [(3, 4)])
C("std_fn", lambda T, a: T.std(a), [(2, 3, 4)])
C("std_dim", lambda T, a: a.std(1), [(3, 4)])
C("std_dim_biased", lambda T, a: a.std(0, unbiased=False), [(3, 4)])
C("std_dim_keepdim", lambda T, a: a.std(dim=1, keepdim=True), [(3, 4)])
C("std_dimneg", lambda T, a: a.std(-1), [(2, 3, 4)])
C("std_tuple", lambda T, a: a.std((0, 2)), [(2, 3, 4)])
C("std_fn_dim", lambda T, a: T.std(a, 0, unbiased=False), [(3, 4)])

C("norm_full", lambda T, a: a.norm(), [(3, 4)])
C("norm_fn", lambda T, a: T.norm(a), [(2, 3, 4)])
C("norm_p2", lambda T, a: a.norm(p=2), [(3, 4)])
C("norm_p1", lambda T, a: a.norm(p=1), [(3, 4)], "away")
C("norm_fn_p1", lambda T, a: T.norm(a, p=1), [(3, 4)], "away")
C("norm_dim", lambda T, a: a.norm(dim=1), [(3, 4)])
C("norm_p2_dim", lambda T, a: T.norm(a, p=2, dim=1), [(3, 4)])
C("norm_p2_dim_keepdim", lambda T, a: a.norm(2, dim=0, keepdim=True), [(3, 4)])
C("norm_p1_dim", lambda T, a: a.norm(p=1, dim=-1), [(2, 3, 4)], "away")
C("norm_1d", lambda T, a: a.norm(), [(5,)])
C("norm_0d", lambda T, a: a.norm(), [()], "away")

# ---- matmul ---------------------------------------------------------------------------------------
C("matmul_1d_1d", lambda T, a, b: T.matmul(a, b), [(4,), (4,)])
C("matmul_2d", lambda T, a, b: T.matmul(a, b), [(3, 4), (4, 5)])
C("matmul_1d_2d", lambda T, a, b: T.matmul(a, b), [(4,), (4, 5)])
C("matmul_2d_1d", lambda T, a, b: T.matmul(a, b), [(3, 4), (4,)])
C("matmul_batched", lambda T, a, b: T.matmul(a, b), [(2, 3, 4), (2, 4, 5)])
C("matmul_bcast_batch", lambda T, a, b: T.matmul(a, b), [(2, 1, 3, 4), (3, 4, 5)])
C("matmul_batched_2d", lambda T, a, b: T.matmul(a, b), [(2, 3, 4), (4, 5)])
C("matmul_2d_batched", lambda T, a, b: T.matmul(a, b), [(3, 4), (2, 4, 5)])
C("matmul_batched_1d", lambda T, a, b: T.matmul(a, b), [(2, 3, 4), (4,)])
C("matmul_1d_batched", lambda T, a, b: T.matmul(a, b), [(4,), (2, 4, 5)])
C("matmul_op_2d", lambda T, a, b: a @ b, [(3, 4), (4, 5)])
C("matmul_op_1d_1d", lambda T, a, b: a @ b, [(4,), (4,)])
C("matmul_op_batched", lambda T, a, b: a @ b, [(2, 3, 4), (2, 4, 5)])
C("matmul_method", lambda T, a, b: a.matmul(b), [(3, 4), (4, 2)])
C("matmul_self_t", lambda T, a: a @ a.t(), [(3, 4)])
C("mm", lambda T, a, b: T.mm(a, b), [(3, 4), (4, 5)])
C("mm_method", lambda T, a, b: a.mm(b), [(2, 3), (3, 4)])
C("bmm", lambda T, a, b: T.bmm(a, b), [(2, 3, 4), (2, 4, 5)])
C("bmm_method", lambda T, a, b: a.bmm(b), [(3, 2, 4), (3, 4, 2)])
C("addmm_scaled", lambda T, c, a, b: T.addmm(c, a, b, beta=0.5, alpha=2), [(5,), (3, 4), (4, 5)])
C("addbmm", lambda T, c, a, b: T.addbmm(c, a, b, alpha=-1), [(3, 5), (2, 3, 4), (2, 4, 5)])
C("baddbmm", lambda T, c, a, b: c.baddbmm(a, b, beta=2), [(2, 3, 1), (2, 3, 4), (2, 4, 5)])
C("addmv", lambda T, c, a, b: T.addmv(c, a, b, alpha=3), [(3,), (3, 4), (4,)])
C("addr", lambda T, c, a, b: c.addr(a, b, beta=-1), [(3, 4), (3,), (4,)])

# ---- rearranging and statistics -------------------------------------------------------------------
C("rot90", lambda T, a: T.rot90(a, 1, [1, 0]), [(3, 4)])
C("take_put", lambda T, a, s: T.put(a, T.tensor([5, 0, -1]), s).take(T.tensor([[0, 5], [11, 5]])), [(3, 4), (3,)])
C("block_diag", lambda T, a, b: T.block_diag(a, b), [(3, 4), (2,)])
C("cov_corrcoef", lambda T, a: (T.cov(a), T.corrcoef(a)), [(3, 4)])
C("quantile", lambda T, a: T.quantile(a, 0.4, dim=0), [(3, 4)], fd=False)
C("trapezoid", lambda T, y, x: (T.trapezoid(y, x), T.cumulative_trapezoid(y, dx=0.5)), [(3, 4), (4,)])

# ---- shape ops ------------------------------------------------------------------------------------
C("reshape", lambda T, a: a.reshape(6, 2), [(3, 4)])
C("reshape_tuple", lambda T, a: a.reshape((2, 2, 3)), [(3, 4)])
C("reshape_infer", lambda T, a: a.reshape(-1), [(3, 4)])
C("reshape_infer_mid", lambda T, a: a.reshape(2, -1, 2), [(3, 4)])
C("reshape_fn", lambda T, a: T.reshape(a, (4, 3)), [(3, 4)])
C("reshape_to_0d", lambda T, a: a.reshape(()), [(1,)])
C("reshape_from_0d", lambda T, a: a.reshape(1, 1), [()])
C("reshape_noncontig", lambda T, a: a.t().reshape(-1), [(3, 4)])
C("view", lambda T, a: a.view(4, 3), [(3, 4)])
C("view_infer", lambda T, a: a.view(-1), [(2, 3, 4)])
C("view_tuple", lambda T, a: a.view((2, -1, 2)), [(3, 4)])
C("flatten", lambda T, a: a.flatten(), [(2, 3, 4)])
C("flatten_start", lambda T, a: a.flatten(1), [(2, 3, 4)])
C("flatten_range", lambda T, a: a.flatten(0, 1), [(2, 3, 4)])
C("flatten_fn", lambda T, a: T.flatten(a, start_dim=1), [(2, 3, 4)])
C("flatten_0d", lambda T, a: a.flatten(), [()])
C("permute", lambda T, a: a.permute(2, 0, 1), [(2, 3, 4)])
C("permute_tuple", lambda T, a: a.permute((0, 2, 1)), [(2, 3, 4)])
C("permute_neg", lambda T, a: a.permute(-1, 0, 1), [(2, 3, 4)])
C("permute_fn", lambda T, a: T.permute(a, (1, 0, 2)), [(2, 3, 4)])
C("transpose", lambda T, a: a.transpose(0, 1), [(3, 4)])
C("transpose_neg", lambda T, a: a.transpose(-1, -2), [(2, 3, 4)])
C("transpose_fn", lambda T, a: T.transpose(a, 0, 2), [(2, 3, 4)])
C("t", lambda T, a: a.t(), [(3, 4)])
C("t_1d", lambda T, a: a.t(), [(4,)])
C("t_fn", lambda T, a: T.t(a), [(3, 4)])
C("T_attr", lambda T, a: a.T, [(3, 4)])
C("expand", lambda T, a: a.expand(3, 4), [(3, 1)])
C("expand_tuple", lambda T, a: a.expand((3, 4)), [(1, 4)])
C("expand_new_dims", lambda T, a: a.expand(2, 3, 4), [(4,)])
C("expand_infer", lambda T, a: a.expand(-1, 5), [(3, 1)])
C("expand_0d", lambda T, a: a.expand(3, 2), [()])
C("expand_then_mul", lambda T, a, b: a.expand(3, 4) * b, [(3, 1), (3, 4)])
C("squeeze", lambda T, a: a.squeeze(), [(3, 1, 4, 1)])
C("squeeze_dim", lambda T, a: a.squeeze(1), [(3, 1, 4)])
C("squeeze_dimneg", lambda T, a: a.squeeze(-1), [(3, 4, 1)])
C("squeeze_noop", lambda T, a: a.squeeze(0), [(3, 4)])
C("squeeze_fn", lambda T, a: T.squeeze(a, 0), [(1, 4)])
C("squeeze_to_0d", lambda T, a: a.squeeze(), [(1, 1)])
C("unsqueeze0", lambda T, a: a.unsqueeze(0), [(3, 4)])
C("unsqueeze1", lambda T, a: a.unsqueeze(1), [(3, 4)])
C("unsqueeze_neg", lambda T, a: a.unsqueeze(-1), [(3, 4)])
C("unsqueeze_fn", lambda T, a: T.unsqueeze(a, 2), [(3, 4)])
C("unsqueeze_0d", lambda T, a: a.unsqueeze(0), [()])
C("cat_dim0", lambda T, a, b: T.cat([a, b]), [(2, 3), (4, 3)])
C("cat_dim1", lambda T, a, b: T.cat([a, b], dim=1), [(2, 3), (2, 1)])
C("cat_dimneg", lambda T, a, b: T.cat((a, b), -1), [(2, 2, 3), (2, 2, 2)])
C("cat_three", lambda T, a, b, c: T.cat([a, b, c], 0), [(1, 4), (2, 4), (3, 4)])
C("cat_same_twice", lambda T, a: T.cat([a, a * 2.0], 1), [(2, 3)])
C("cat_1d", lambda T, a, b: T.cat([a, b]), [(3,), (2,)])
C("stack", lambda T, a, b: T.stack([a, b]), [(3, 4), (3, 4)])
C("stack_dim1", lambda T, a, b, c: T.stack((a, b, c), dim=1), [(3, 4), (3, 4), (3, 4)])
C("stack_dimneg", lambda T, a, b: T.stack([a, b], -1), [(3, 4), (3, 4)])
C("stack_0d", lambda T, a, b: T.stack([a, b]), [(), ()])
C("split_int", lambda T, a: a.split(2), [(5, 3)])
C("split_int_dim1", lambda T, a: T.split(a, 2, dim=1), [(2, 5)])
C("split_sizes", lambda T, a: a.split([1, 3], dim=1), [(2, 4)])
C("split_sizes_fn", lambda T, a: T.split(a, [2, 3]), [(5, 2)])
C("split_one_used", lambda T, a: a.split(2)[1], [(5, 3)])
C("chunk", lambda T, a: a.chunk(2), [(4, 3)])
C("chunk_uneven", lambda T, a: a.chunk(3, dim=1), [(2, 7)])
C("chunk_fn", lambda T, a: T.chunk(a, 2, dim=-1), [(3, 4)])
C("chunk_one_used", lambda T, a: a.chunk(3)[2] * 3.0, [(6, 2)])

# ---- getitem --------------------------------------------------------------------------------------
C("getitem_int", lambda T, a: a[1], [(3, 4)])
C("getitem_negint", lambda T, a: a[-1], [(3, 4)])
C("getitem_int_int", lambda T, a: a[1, 2], [(3, 4)])
C("getitem_int_1d", lambda T, a: a[2], [(5,)])
C("getitem_slice", lambda T, a: a[1:3], [(4, 3)])
C("getitem_slice_step", lambda T, a: a[::2], [(5, 3)])
C("getitem_slice_2d", lambda T, a: a[:, 1:3], [(3, 4)])
C("getitem_slice_negbounds", lambda T, a: a[-3:-1, :-1], [(4, 4)])
C("getitem_slice_step_2d", lambda T, a: a[1::2, ::3], [(5, 7)])
C("getitem_col", lambda T, a: a[:, 1], [(3, 4)])
C("getitem_none", lambda T, a: a[None], [(3, 4)])
C("getitem_none_mid", lambda T, a: a[:, None, 1:3], [(3, 4)])
C("getitem_ellipsis", lambda T, a: a[..., 1], [(2, 3, 4)])
C("getitem_ellipsis_none", lambda T, a: a[..., None], [(3, 4)])
C("getitem_ellipsis_front", lambda T, a: a[0, ...], [(2, 3, 4)])
C("getitem_ellipsis_0d", lambda T, a: a[...], [()])
C("getitem_none_0d", lambda T, a: a[None], [()])
C("getitem_boolmask_full", lambda T, a: a[T.tensor(MASK_34)], [(3, 4)])
C("getitem_boolmask_rows", lambda T, a: a[T.tensor(MASK_ROWS)], [(3, 4)])
C("getitem_boolmask_cols", lambda T, a: a[:, T.tensor(MASK_COLS)], [(3, 4)])
C("getitem_boolmask_data", lambda T, a: a[a > 0], [(3, 4)], "away")
C("getitem_intlist", lambda T, a: a[[0, 2]], [(3, 4)])
C("getitem_intlist_neg", lambda T, a: a[[0, -1]], [(3, 4)])
C("getitem_intlist_repeat", lambda T, a: a[[0, 0, 2, 0]], [(3, 4)])
C("getitem_long", lambda T, a: a[T.tensor([2, 0])], [(3, 4)])
C("getitem_long_repeat", lambda T, a: a[T.tensor([0, 2, 2])], [(3, 4)])
C("getitem_long_2d", lambda T, a: a[T.tensor([[0, 1], [2, 0]])], [(3, 4)])
C("getitem_long_0d", lambda T, a: a[T.tensor(1)], [(3, 4)])
C("getitem_long_pair", lambda T, a: a[T.tensor([0, 2, 1]), T.tensor([3, 3, 0])], [(3, 4)])
C("getitem_long_pair_bcast", lambda T, a: a[T.tensor([[0], [2]]), T.tensor([1, 3])], [(3, 4)])
C("getitem_mixed_slice_list", lambda T, a: a[1:, [0, 2]], [(3, 4)])
C("getitem_mixed_int_list", lambda T, a: a[1, [0, 2, 3]], [(3, 4)])
C("getitem_mixed_long_int", lambda T, a: a[T.tensor([0, 2]), 1], [(3, 4)])
C("getitem_mixed_separated", lambda T, a: a[[0, 1], :, [1, 2]], [(2, 3, 4)])
C("getitem_mixed_adjacent", lambda T, a: a[:, [0, 2], [1, 3]], [(2, 3, 4)])
C("getitem_mixed_none_ellipsis", lambda T, a: a[None, ..., 0], [(2, 3, 4)])
C("getitem_mixed_mask_slice", lambda T, a: a[T.tensor(MASK_ROWS), 1:], [(3, 4)])
C("getitem_then_square", lambda T, a: a[T.tensor([0, 2, 2])] ** 2, [(3, 4)])

# ---- setitem on a clone of a leaf -----------------------------------------------------------------


def _setitem(idx_fn, square=False):
    def fn(T, a, b):
        x = a.clone()
        x[idx_fn(T)] = b
        return x * x if square else x

    return fn


C("setitem_int", _setitem(lambda T: 1), [(3, 4), (4,)])
C("setitem_int_bcast", _setitem(lambda T: 1), [(3, 4), (1,)])
C("setitem_int_int_0d", _setitem(lambda T: (0, 2)), [(3, 4), ()])
C("setitem_slice", _setitem(lambda T: (slice(None), slice(1, 3))), [(3, 4), (3, 2)])
C("setitem_slice_bcast", _setitem(lambda T: slice(1, None)), [(3, 4), (4,)])
C("setitem_slice_step", _setitem(lambda T: slice(None, None, 2)), [(5, 2), (3, 2)])
C("setitem_ellipsis", _setitem(lambda T: (Ellipsis, 0)), [(2, 3, 4), (2, 3)])
C("setitem_boolmask", _setitem(lambda T: T.tensor(MASK_34)), [(3, 4), (6,)])
C("setitem_boolmask_scalar_bcast", _setitem(lambda T: T.tensor(MASK_34)), [(3, 4), ()])
C("setitem_boolmask_rows", _setitem(lambda T: T.tensor(MASK_ROWS)), [(3, 4), (2, 4)])
C("setitem_long", _setitem(lambda T: T.tensor([2, 0])), [(3, 4), (2, 4)])
C("setitem_intlist", _setitem(lambda T: [0, 2]), [(3, 4), (4,)])
C("setitem_long_pair", _setitem(lambda T: (T.tensor([0, 2]), T.tensor([1, 3]))), [(3, 4), (2,)])
C("setitem_mixed", _setitem(lambda T: (slice(1, None), [0, 3])), [(3, 4), (2, 2)])
C("setitem_square", _setitem(lambda T: 1, square=True), [(3, 4), (4,)])
C("setitem_slice_square", _setitem(lambda T: (slice(None), slice(0, 2)), square=True), [(3, 4), (3, 2)])
C("setitem_mask_square", _setitem(lambda T: T.tensor(MASK_34), square=True), [(3, 4), (6,)])
C("setitem_long_square", _setitem(lambda T: T.tensor([2, 0]), square=True), [(3, 4), (2, 4)])


def _setitem_pyscalar(T, a):
    x = a.clone()
    x[1] = 2.5
    return x * a


def _setitem_twice(T, a, b, c):
    x = a.clone()
    x[0] = b
    x[:, 1] = c
    return x * x


def _setitem_value_used_later(T, a, b):
    x = a.clone()
    x[1:] = b
    return x * b.sum()


C("setitem_pyscalar", _setitem_pyscalar, [(3, 4)])
C("setitem_twice", _setitem_twice, [(3, 4), (4,), (3,)])
C("setitem_value_used_later", _setitem_value_used_later, [(3, 4), (2, 4)])

# ---- softmax / log_softmax ------------------------------------------------------------------------
C("softmax_dim1", lambda T, a: T.softmax(a, dim=1), [(3, 4)])
C("softmax_dim0", lambda T, a: T.softmax(a, 0), [(3, 4)])
C("softmax_dimneg", lambda T, a: a.softmax(-1), [(2, 3, 4)])
C("softmax_3d_mid", lambda T, a: a.softmax(dim=1), [(2, 3, 4)])
C("softmax_1d", lambda T, a: a.softmax(0), [(5,)])
C("softmax_0d", lambda T, a: a.softmax(0), [()])
C("softmax_large", lambda T, a: (a * 50.0 + 1000.0).softmax(-1), [(3, 4)])
C("softmax_functional", lambda T, a: T.nn.functional.softmax(a, dim=-1), [(3, 4)])
C("log_softmax_dim1", lambda T, a: T.log_softmax(a, dim=1), [(3, 4)])
C("log_softmax_dim0", lambda T, a: T.log_softmax(a, 0), [(3, 4)])
C("log_softmax_dimneg", lambda T, a: a.log_softmax(-1), [(2, 3, 4)])
C("log_softmax_3d_mid", lambda T, a: a.log_softmax(dim=1), [(2, 3, 4)])
C("log_softmax_1d", lambda T, a: a.log_softmax(0), [(5,)])
C("log_softmax_large", lambda T, a: (a * 50.0 + 1000.0).log_softmax(-1), [(3, 4)])
C("log_softmax_functional", lambda T, a: T.nn.functional.log_softmax(a, dim=1), [(3, 4)])

# ---- clone / detach / contiguous / casts ----------------------------------------------------------
C("clone", lambda T, a: a.clone(), [(3, 4)])
C("clone_fn", lambda T, a: T.clone(a), [(3, 4)])
C("clone_mul", lambda T, a: a.clone() * a, [(3, 4)])
# detach deliberately cuts the true derivative, so finite differences do not apply
C("detach_mul", lambda T, a: a.detach() * a, [(3, 4)], fd=False)
C("detach_unused", lambda T, a, b: a.detach() * b, [(3, 4), (3, 4)], fd=False)
C("detach_only", lambda T, a: a.detach(), [(3, 4)], fd=False)
C("contiguous", lambda T, a: a.contiguous(), [(3, 4)])
C("contiguous_t", lambda T, a: a.t().contiguous(), [(3, 4)])
C("contiguous_permute_mul", lambda T, a: a.permute(2, 0, 1).contiguous() * 2.0, [(2, 3, 4)])
C("double_noop", lambda T, a: a.double(), [(3, 4)])
C("float", lambda T, a: a.float(), [(3, 4)])
C("float_double", lambda T, a: a.float().double(), [(3, 4)], fd=False)  # float32 rounding inside
C("to_float64", lambda T, a: a.to(T.float64), [(3, 4)])
C("to_float32", lambda T, a: a.to(T.float32), [(3, 4)])
C("to_dtype_kw", lambda T, a: a.to(dtype=T.float32) * 2.0, [(3, 4)])
C("to_float64_mul", lambda T, a: a.to(T.float64) * a, [(3, 4)])

# ---- composites (chains of the above, exercising accumulation and higher order) -------------------
C("mlp", lambda T, x, w, b: T.tanh(x @ w + b).sum(dim=1), [(3, 4), (4, 5), (5,)])
C("mse", lambda T, a, b: ((a - b) ** 2).mean(), [(3, 4), (3, 4)])
C("logsumexp_manual", lambda T, a: a.exp().sum(1).log(), [(3, 4)])
C("softmax_ce", lambda T, a: -(T.log_softmax(a, 1) * T.tensor(ONEHOT_34, dtype=a.dtype)).sum(1).mean(), [(3, 4)])
C("reuse", lambda T, a: a * a + a.sin() * a, [(3, 4)])
C("sigmoid_mul_exp", lambda T, a, b: a.sigmoid() * b.exp(), [(3, 1), (4,)])
C("normalize", lambda T, a: (a - a.mean(1, keepdim=True)) / a.std(1, keepdim=True), [(3, 4)])
C("layer_like", lambda T, a, w: ((a @ w).relu() ** 2).sum(0), [(3, 4), (4, 2)], "away")
C("attention_like", lambda T, q, k, v: T.softmax(q @ k.transpose(-1, -2) / 2.0, -1) @ v,
  [(2, 3, 4), (2, 3, 4), (2, 3, 2)])

CASE_IDS = [c.id for c in CASES]


# --------------------------------------------------------------------------------------------------
# the harness
# --------------------------------------------------------------------------------------------------


def _seed(case_id: str) -> int:
    return zlib.crc32(case_id.encode())


def make_inputs(case: Case) -> tuple[list[np.ndarray], np.random.Generator]:
    """float64 inputs for the case; returns the generator too, for the random weights."""
    rng = np.random.default_rng(_seed(case.id))
    doms = case.domain if isinstance(case.domain, (list, tuple)) else [case.domain] * len(case.shapes)
    assert len(doms) == len(case.shapes), case.id
    arrays = []
    for shape, dom in zip(case.shapes, doms):
        make = DOMAINS[dom] if isinstance(dom, str) else dom
        arrays.append(np.asarray(make(rng, shape), dtype=np.float64).reshape(shape))
    return arrays, rng


def to_np(t) -> np.ndarray:
    t = t.detach()
    if hasattr(t, "cpu"):
        t = t.cpu()
    try:
        return np.array(t.numpy())
    except Exception:
        pass
    try:  # real torch: a ZeroTensor (e.g. abs's second derivative) only converts with force=True
        return np.array(t.numpy(force=True))
    except Exception:
        return np.array(t.tolist())


def _dt(t) -> str:
    return str(t.dtype)


def _is_float(t) -> bool:
    return _dt(t) in FLOAT_DTYPES


def _as_list(out) -> list:
    return list(out) if isinstance(out, (tuple, list)) else [out]


class Run(NamedTuple):
    outs: list  # framework tensors
    out_np: list  # numpy values
    out_dtypes: list  # str(dtype)
    out_shapes: list
    out_rg: list  # requires_grad
    names: list  # type(grad_fn).__name__
    grads: list | None  # numpy, None -> zeros
    grad_dtypes: list | None  # str(dtype) or None for an unused input
    grads2: list | None  # w.r.t. the inputs, then w.r.t. the output weights W_k


def run_case(T, case: Case, dtype: str = "float64", order: int = 2) -> Run:
    """Run ``case`` under framework ``T``; ``order`` 0: forward only, 1: + grads, 2: + second order."""
    arrays, rng = make_inputs(case)
    tdtype = getattr(T, dtype)
    xs = [T.tensor(a.copy(), dtype=tdtype, requires_grad=True) for a in arrays]
    outs = _as_list(case.fn(T, *xs))
    out_np = [to_np(o) for o in outs]
    out_dtypes = [_dt(o) for o in outs]
    out_shapes = [tuple(o.shape) for o in outs]
    out_rg = [bool(o.requires_grad) for o in outs]
    names = [type(o.grad_fn).__name__ for o in outs]
    if order == 0:
        return Run(outs, out_np, out_dtypes, out_shapes, out_rg, names, None, None, None)

    # first order: L = sum_k sum(out_k * W_k) over floating outputs
    # At order 2 the weights W_k are leaves requiring grad (as in gradgradcheck), so the second
    # pass also differentiates each backward formula w.r.t. its incoming gradient: that is what
    # checks double backward of linear ops (sum, reshape, getitem, ...) whose Hessian is zero.
    loss, ws, w_shapes = None, [], []
    for o, shape in zip(outs, out_shapes):
        if _dt(o) not in FLOAT_DTYPES:
            continue
        w = np.asarray(rng.standard_normal(shape))
        wt = T.tensor(w, dtype=o.dtype, requires_grad=order >= 2)
        ws.append(wt)
        w_shapes.append(w.shape)
        term = (o * wt).sum()
        loss = term if loss is None else loss + term
    if loss is not None and loss.requires_grad:
        g = T.autograd.grad(loss, xs, create_graph=(order >= 2), allow_unused=True)
    else:
        g = [None] * len(xs)
    grads = [np.zeros(a.shape) if gi is None else to_np(gi) for gi, a in zip(g, arrays)]
    grad_dtypes = [None if gi is None else _dt(gi) for gi in g]
    if order == 1:
        return Run(outs, out_np, out_dtypes, out_shapes, out_rg, names, grads, grad_dtypes, None)

    # second order: L2 = sum_i sum(g_i * V_i) over the grads that are part of a graph
    loss2 = None
    for gi, a in zip(g, arrays):
        v = np.asarray(rng.standard_normal(a.shape))  # drawn unconditionally: same stream everywhere
        if gi is None or not gi.requires_grad:
            continue
        term = (gi * T.tensor(v, dtype=gi.dtype)).sum()
        loss2 = term if loss2 is None else loss2 + term
    if loss2 is not None:
        h = T.autograd.grad(loss2, xs + ws, allow_unused=True)
    else:
        h = [None] * (len(xs) + len(ws))
    shapes = [a.shape for a in arrays] + w_shapes
    grads2 = [np.zeros(sh) if hi is None else to_np(hi) for hi, sh in zip(h, shapes)]
    return Run(outs, out_np, out_dtypes, out_shapes, out_rg, names, grads, grad_dtypes, grads2)


def _close(actual, expected, dtype, tol, what):
    kw = tol.get(dtype, tol["torch.float64"])
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != torch {expected.shape}"
    if dtype in FLOAT_DTYPES:
        np.testing.assert_allclose(actual, expected, err_msg=what, **kw)
    else:
        np.testing.assert_array_equal(actual, expected, err_msg=what)


def _case_params():
    return [pytest.param(c, id=c.id) for c in CASES]


# --------------------------------------------------------------------------------------------------
# tests against real torch
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", _case_params())
def test_forward(case, fw, real_torch):
    ref = run_case(real_torch, case, order=0)
    got = run_case(fw, case, order=0)
    assert len(got.outs) == len(ref.outs), "number of outputs"
    assert got.out_shapes == ref.out_shapes, "output shapes"
    assert got.out_dtypes == ref.out_dtypes, "output dtypes"
    assert got.out_rg == ref.out_rg, "output requires_grad"
    for k, (a, e, dt) in enumerate(zip(got.out_np, ref.out_np, ref.out_dtypes)):
        _close(a, e, dt, FWD_TOL, f"{case.id}: output {k}")


@pytest.mark.parametrize("case", _case_params())
def test_grad(case, fw, real_torch):
    ref = run_case(real_torch, case, order=1)
    got = run_case(fw, case, order=1)
    for i, (a, e) in enumerate(zip(got.grads, ref.grads)):
        _close(a, e, "torch.float64", GRAD_TOL, f"{case.id}: d/d input {i}")


@pytest.mark.parametrize("case", _case_params())
def test_grad2(case, fw, real_torch):
    ref = run_case(real_torch, case, order=2)
    got = run_case(fw, case, order=2)
    assert len(got.grads2) == len(ref.grads2)
    n = len(case.shapes)
    for i, (a, e) in enumerate(zip(got.grads2, ref.grads2)):
        what = f"d/d input {i}" if i < n else f"d/d output weight {i - n} (double backward)"
        _close(a, e, "torch.float64", GRAD_TOL, f"{case.id}: second order {what}")


@pytest.mark.parametrize("case", _case_params())
def test_node_name(case, fw, real_torch):
    ref = run_case(real_torch, case, order=0)
    got = run_case(fw, case, order=0)
    assert got.names == ref.names, f"{case.id}: grad_fn {got.names} != torch {ref.names}"


def _saved_by_hooks(T, case: Case) -> list[np.ndarray]:
    """What the forward of ``case`` saves for backward, in the order saved-tensor hooks see it."""
    arrays, _ = make_inputs(case)
    xs = [T.tensor(a.copy(), dtype=T.float64, requires_grad=True) for a in arrays]
    seen = []

    def pack(t):
        seen.append(to_np(t))
        return t

    with T.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        case.fn(T, *xs)
    return seen


# Cases where flowgrad saves other tensors than PyTorch, so the order cannot be compared: PyTorch's
# advanced indexing saves the index tensors (flowgrad keeps them as arrays on the node, not as saved
# tensors), and its batched and mixed-rank matmul saves the operands reshaped for the mm / mv it
# decomposes into (flowgrad saves them as given).
SAVES_OTHER_TENSORS = ("getitem_", "setitem_", "matmul_1d_2d", "matmul_bcast_batch", "matmul_batched_2d",
                       "matmul_2d_batched", "matmul_batched_1d", "matmul_1d_batched", "take_put", "cov_corrcoef",
                       "quantile")


@pytest.mark.parametrize("case", _case_params())
def test_saved_tensor_hooks_see_pytorchs_order(case, fw, real_torch):
    """Saved-tensor hooks pack what an op saves in PyTorch's order (mul packs `other` before
    `self`); a hook that relies on the order (offloading by position, say) sees the same tensors."""
    ref = _saved_by_hooks(real_torch, case)
    got = _saved_by_hooks(fw, case)
    if case.id.startswith(SAVES_OTHER_TENSORS) and [a.shape for a in got] != [a.shape for a in ref]:
        pytest.skip("flowgrad saves other tensors than PyTorch here (index arrays, un-reshaped matmul operands, "
                    "the intermediates of cov's and quantile's compositions)")
    assert [a.shape for a in got] == [a.shape for a in ref], f"{case.id}: saved shapes"
    for k, (a, e) in enumerate(zip(got, ref)):
        _close(a, e, "torch.float64" if e.dtype.kind == "f" else "exact", FWD_TOL,
               f"{case.id}: saved tensor {k}")


@pytest.mark.parametrize("case", _case_params())
def test_float32_dtypes(case, fw, real_torch):
    """float32 inputs: output dtypes and gradient dtypes agree with torch (grads are float32)."""
    ref = run_case(real_torch, case, dtype="float32", order=1)
    got = run_case(fw, case, dtype="float32", order=1)
    assert got.out_dtypes == ref.out_dtypes, "output dtypes"
    assert got.grad_dtypes == ref.grad_dtypes, "gradient dtypes"
    for d in got.grad_dtypes:
        assert d in (None, "torch.float32"), f"gradient dtype {d} for a float32 input"
    for a, e in zip(got.out_np, ref.out_np):
        assert a.dtype == e.dtype, f"numpy() dtype {a.dtype} != torch {e.dtype}"


# --------------------------------------------------------------------------------------------------
# finite differences (flowgrad alone)
# --------------------------------------------------------------------------------------------------


def _weighted_loss_np(T, case, arrays, weights_rng_state):
    """L(arrays) = sum_k sum(out_k * W_k), evaluated in numpy from a forward pass under T."""
    xs = [T.tensor(a, dtype=T.float64) for a in arrays]
    outs = _as_list(case.fn(T, *xs))
    rng = np.random.default_rng()
    rng.bit_generator.state = weights_rng_state
    total = 0.0
    for o in outs:
        if _dt(o) not in FLOAT_DTYPES:
            continue
        w = np.asarray(rng.standard_normal(tuple(o.shape)))
        total += float((to_np(o).astype(np.float64) * w).sum())
    return total


@pytest.mark.parametrize("case", _case_params())
def test_finite_differences(case, fw):
    if not case.fd:
        pytest.skip("not differentiable at these inputs (ties)")
    arrays, rng = make_inputs(case)
    state = rng.bit_generator.state  # weights are the next draws, as in run_case
    run = run_case(fw, case, order=1)
    if any(d in FLOAT_DTYPES and d != "torch.float64" for d in run.out_dtypes):
        pytest.skip("output is not float64: finite differences would measure rounding")
    for i, a in enumerate(arrays):
        num = np.zeros(a.shape)
        for j in range(a.size):
            plus = [x.copy() for x in arrays]
            minus = [x.copy() for x in arrays]
            plus[i].reshape(-1)[j] += FD_EPS
            minus[i].reshape(-1)[j] -= FD_EPS
            lp = _weighted_loss_np(fw, case, plus, state)
            lm = _weighted_loss_np(fw, case, minus, state)
            num.reshape(-1)[j] = (lp - lm) / (2 * FD_EPS)
        np.testing.assert_allclose(run.grads[i], num, err_msg=f"{case.id}: d/d input {i} vs finite differences",
                                   **FD_TOL)


# --------------------------------------------------------------------------------------------------
# dtype promotion with python scalars and mixed tensors
# --------------------------------------------------------------------------------------------------


def _f32(T, v=(1.0, 2.0, 3.0)):
    return T.tensor(list(v), dtype=T.float32)


def _f64(T, v=(1.0, 2.0, 3.0)):
    return T.tensor(list(v), dtype=T.float64)


def _i64(T, v=(1, 2, 3)):
    return T.tensor(list(v))


PROMOTION = [
    ("default_float", lambda T: T.tensor([1.0, 2.0])),
    ("default_int", lambda T: T.tensor([1, 2])),
    ("default_bool", lambda T: T.tensor([True, False])),
    ("from_numpy_float64", lambda T: T.tensor(np.array([1.0, 2.0]))),
    ("from_numpy_float32", lambda T: T.tensor(np.array([1.0, 2.0], dtype=np.float32))),
    ("f32_mul_pyfloat", lambda T: _f32(T) * 2.5),
    ("pyfloat_mul_f32", lambda T: 2.5 * _f32(T)),
    ("f32_add_pyint", lambda T: _f32(T) + 2),
    ("f32_div_pyint", lambda T: _f32(T) / 3),
    ("pyint_div_f32", lambda T: 3 / _f32(T)),
    ("f32_pow_pyint", lambda T: _f32(T) ** 2),
    ("f32_pow_pyfloat", lambda T: _f32(T) ** 2.5),
    ("pyfloat_pow_f32", lambda T: 2.0**_f32(T)),
    ("pyint_rsub_f32", lambda T: 2 - _f32(T)),
    ("i64_mul_pyfloat", lambda T: _i64(T) * 2.5),
    ("pyfloat_mul_i64", lambda T: 2.5 * _i64(T)),
    ("i64_add_pyint", lambda T: _i64(T) + 2),
    ("pyint_rsub_i64", lambda T: 3 - _i64(T)),
    ("i64_truediv_i64", lambda T: _i64(T, (3, 4, 7)) / _i64(T, (2, 2, 2))),
    ("i64_truediv_pyint", lambda T: _i64(T) / 2),
    ("pyint_truediv_i64", lambda T: 3 / _i64(T)),
    ("i64_pow_pyint", lambda T: _i64(T) ** 2),
    ("pyint_pow_i64", lambda T: 2 ** _i64(T)),
    ("i64_pow_pyfloat", lambda T: _i64(T) ** 0.5),
    ("i64_neg", lambda T: -_i64(T)),
    ("i64_sum", lambda T: _i64(T).sum()),
    ("i64_exp", lambda T: _i64(T).exp()),
    ("i64_sqrt", lambda T: _i64(T).sqrt()),
    ("i64_float", lambda T: _i64(T).float()),
    ("f32_add_i64", lambda T: _f32(T) + _i64(T)),
    ("i64_add_f32", lambda T: _i64(T) + _f32(T)),
    ("f32_mul_i64", lambda T: _f32(T) * _i64(T)),
    ("f64_add_f32", lambda T: _f64(T) + _f32(T)),
    ("f32_add_f64", lambda T: _f32(T) + _f64(T)),
    ("f32_add_f64_0d", lambda T: _f32(T) + T.tensor(1.5, dtype=T.float64)),
    ("f64_0d_add_f32", lambda T: T.tensor(1.5, dtype=T.float64) + _f32(T)),
    ("i64_add_f64_0d", lambda T: _i64(T) + T.tensor(1.5, dtype=T.float64)),
    ("f32_0d_add_f64_0d", lambda T: T.tensor(1.5, dtype=T.float32) + T.tensor(2.5, dtype=T.float64)),
    ("f32_0d_add_i64", lambda T: T.tensor(1.5, dtype=T.float32) + _i64(T)),
    ("bool_add_pyint", lambda T: T.tensor([True, False]) + 1),
    ("bool_mul_pyfloat", lambda T: T.tensor([True, False]) * 1.5),
    ("f32_gt_pyint", lambda T: _f32(T) > 1),
    ("f32_sum", lambda T: _f32(T).sum()),
    ("f32_mean", lambda T: _f32(T).mean()),
    ("f32_matmul", lambda T: _f32(T) @ _f32(T)),
    ("f32_maximum_f64", lambda T: T.maximum(_f32(T), _f64(T, (0.0, 5.0, 1.0)))),
    ("where_f32_f64", lambda T: T.where(_f32(T) > 1.5, _f32(T), _f64(T))),
    ("where_f32_pyfloat", lambda T: T.where(_f32(T) > 1.5, _f32(T), 0.0)),
    ("f32_double", lambda T: _f32(T).double()),
    ("f64_float", lambda T: _f64(T).float()),
    ("f32_to_f64", lambda T: _f32(T).to(T.float64)),
]


@pytest.mark.parametrize("make", [pytest.param(f, id=n) for n, f in PROMOTION])
def test_promotion(make, fw, real_torch):
    ref = make(real_torch)
    got = make(fw)
    assert str(got.dtype) == str(ref.dtype)
    assert tuple(got.shape) == tuple(ref.shape)
    np.testing.assert_allclose(to_np(got), to_np(ref), rtol=1e-6)


def test_case_table_is_wellformed():
    """Every case has inputs of the declared shapes and a unique id (runs without any framework)."""
    assert len(set(CASE_IDS)) == len(CASE_IDS)
    for case in CASES:
        arrays, _ = make_inputs(case)
        assert [a.shape for a in arrays] == [tuple(s) for s in case.shapes], case.id
