"""Ops composed from the op table, checked against real torch: one-argument where, take_along_dim,
unique / unique_consecutive, diff, tensordot, tril_indices / triu_indices and meshgrid (values,
dtypes, shapes, gradients, node names, and the errors of bad arguments)."""
from __future__ import annotations

import numpy as np
import pytest

from tensor_op_parity import same, same_error

X = np.array([[0.5, -1.5, 2.0], [0.0, 0.75, -0.5]])
A = np.arange(24.0).reshape(2, 3, 4) / 7
U = np.array([3, 1, 2, 3, 1, 1, 5])
M = np.array([[1, 2], [3, 4], [1, 2], [0, 9], [0, 9]])


@pytest.mark.parametrize("fn", [
    lambda T, x: T.where(x > 0),
    lambda T, x: T.where(x[0, 0] > 0),
    lambda T, x: T.where(x[0, 1] > 0),
    lambda T, x: T.where((x * 2).long()),
    lambda T, x: T.where(x > 0, x, 0.0),
    lambda T, x: T.where(x > 0, 1.0, 0.0),
    lambda T, x: T.nonzero(x[1, 0]),
    lambda T, x: T.nonzero(x[0, 0], as_tuple=True),
], ids=["bool", "0d_true", "0d_false", "long", "three_args", "scalars", "nonzero_0d", "nonzero_0d_tuple"])
def test_where(fn):
    same(fn, X)


def test_where_gradient_is_zero_off_its_branch(torch):
    """The branch where did not take gets an exact 0, even where the incoming gradient is nan or inf
    (a product with 0 would give nan there)."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
    c = torch.tensor([True, False, True])
    out = torch.where(c, x, y) * torch.tensor([float("nan"), float("inf"), 1.0])
    gx, gy = torch.autograd.grad(out.sum(), (x, y))
    assert gx[1].item() == 0.0 and gy[0].item() == 0.0 and gy[2].item() == 0.0
    assert gy[1].item() == float("inf") and gx[2].item() == 1.0


@pytest.mark.parametrize("fn", [
    lambda T, x: T.take_along_dim(x, T.tensor([0, 5])),
    lambda T, x: T.take_along_dim(x, T.tensor([[0], [2]]), dim=1),
    lambda T, x: x.take_along_dim(T.tensor([[2, 0]]), -1),
    lambda T, x: T.take_along_dim(x, x.argsort(dim=0), dim=0),
], ids=["flat", "dim", "broadcast", "argsort"])
def test_take_along_dim(fn):
    same(fn, X)


@pytest.mark.parametrize("fn", [
    lambda T, x: T.take_along_dim(x, T.tensor([[0], [2]]).float(), dim=1),
    lambda T, x: T.take_along_dim(x, T.tensor([[0], [2]]).int(), dim=1),
    lambda T, x: T.take_along_dim(x, T.tensor([0, 2]), dim=1),
    lambda T, x: T.take_along_dim(x, T.tensor([[0], [2]]), dim=2),
], ids=["float", "int32", "ndim", "dim"])
def test_take_along_dim_errors(fn):
    same_error(fn, X)


@pytest.mark.parametrize("fn", [
    lambda T, u, m: T.unique(u),
    lambda T, u, m: T.unique(u, return_inverse=True, return_counts=True),
    lambda T, u, m: u.unique(sorted=False, return_counts=True),
    lambda T, u, m: T.unique(m, return_inverse=True),
    lambda T, u, m: T.unique(m, dim=0, return_inverse=True, return_counts=True),
    lambda T, u, m: T.unique(m, dim=-1, return_counts=True),
    lambda T, u, m: T.unique(m[:0], dim=0, return_inverse=True, return_counts=True),
    lambda T, u, m: T.unique(u[0], return_inverse=True),
    lambda T, u, m: T.unique(u > 2, return_counts=True),
    lambda T, u, m: T.unique_consecutive(u),
    lambda T, u, m: T.unique_consecutive(u, return_inverse=True, return_counts=True),
    lambda T, u, m: m.unique_consecutive(return_counts=True, dim=0),
    lambda T, u, m: T.unique_consecutive(m, return_inverse=True, dim=1),
    lambda T, u, m: T.unique_consecutive(u[0], return_inverse=True, return_counts=True),
    lambda T, u, m: T.unique_consecutive(u[:0], return_inverse=True, return_counts=True),
], ids=["flat", "inverse_counts", "method", "2d_inverse", "dim0", "dim_last", "empty_dim", "0d", "bool",
        "consecutive", "consecutive_all", "consecutive_dim", "consecutive_dim1", "consecutive_0d",
        "consecutive_empty"])
def test_unique(fn):
    same(fn, U, M)


def test_unique_nan_values_stay_distinct():
    v = np.array([2.0, np.nan, 1.0, np.nan, 2.0])
    same(lambda T, v: T.unique(v, return_inverse=True, return_counts=True), v, grad=False)
    same(lambda T, v: T.unique_consecutive(v, return_counts=True), v, grad=False)


@pytest.mark.parametrize("call, op, node", [
    (lambda T, x: T.unique(x), "_unique2", "Unique2Backward0"),
    (lambda T, x: T.unique(x, dim=0), "unique_dim", "UniqueDimBackward0"),
    (lambda T, x: T.unique_consecutive(x), "unique_consecutive", "UniqueConsecutiveBackward0"),
])
def test_unique_values_refuse_differentiation(torch, call, op, node):
    x = torch.tensor([[1.0, 2.0], [1.0, 2.0]], requires_grad=True)
    out = call(torch, x)
    assert out.requires_grad and type(out.grad_fn).__name__ == node
    with pytest.raises(NotImplementedError, match=f"^the derivative for '{op}' is not implemented.$"):
        out.sum().backward()
    assert x.grad is None


@pytest.mark.parametrize("fn", [
    lambda T, u, m: T.unique(u[0], dim=0),
    lambda T, u, m: T.unique(m, dim=2),
    lambda T, u, m: T.unique_consecutive(m, dim=-3),
], ids=["0d_dim", "dim", "consecutive_dim"])
def test_unique_errors(fn):
    same_error(fn, U, M)


@pytest.mark.parametrize("fn", [
    lambda T, x: T.diff(x),
    lambda T, x: x.diff(dim=0),
    lambda T, x: T.diff(x, n=2, dim=1, prepend=x[:, :1] * 3, append=x * 2),
    lambda T, x: T.diff(x, n=0),
    lambda T, x: T.diff(x, n=5),
    lambda T, x: T.diff(x > 0),
    lambda T, x: T.diff(x > 0, n=2, dim=0, append=x[:1] < 0),
    lambda T, x: T.diff((x * 4).long(), append=(x * 2).long()),
], ids=["default", "dim0", "prepend_append", "n0", "n_beyond", "bool", "bool_twice", "long"])
def test_diff(fn):
    same(fn, X)


@pytest.mark.parametrize("fn", [
    lambda T, x: T.diff(x[0, 0]),
    lambda T, x: T.diff(x, n=-1),
    lambda T, x: T.diff(x, prepend=x[0, 0]),
    lambda T, x: T.diff(x, append=T.ones(3, 3, dtype=x.dtype)),
    lambda T, x: T.diff(x, dim=0, prepend=T.ones(1, 2, dtype=x.dtype)),
    lambda T, x: T.diff(x, dim=2),
], ids=["0d", "negative_n", "prepend_ndim", "append_shape", "prepend_shape", "dim"])
def test_diff_errors(fn):
    same_error(fn, X)


B = np.arange(24.0).reshape(4, 3, 2) / 5


@pytest.mark.parametrize("fn", [
    lambda T, a, b: T.tensordot(a, b.reshape(3, 4, 2)[:, :, 0].t().reshape(4, 3).t(), dims=2),
    lambda T, a, b: T.tensordot(a, b, dims=([1, 2], [1, 0])),
    lambda T, a, b: T.tensordot(a, b, dims=[[-1], [0]]),
    lambda T, a, b: T.tensordot(a, b, dims=T.tensor([[1, 2], [1, 0]])),
    lambda T, a, b: T.tensordot(a[0, 0], b[0, 0], dims=0),
    lambda T, a, b: T.tensordot(a, b, 0).sum((0, 1)),
], ids=["int", "pairs", "negative_dims", "tensor_dims", "outer", "zero"])
def test_tensordot(fn):
    same(fn, A, B)


@pytest.mark.parametrize("fn", [
    lambda T, a, b: T.tensordot(a, b, dims=-1),
    lambda T, a, b: T.tensordot(a, b, dims=4),
    lambda T, a, b: T.tensordot(a, b, dims=([1, 2], [1])),
    lambda T, a, b: T.tensordot(a, b, dims=([0], [1])),
    lambda T, a, b: T.tensordot(a, b, dims=2),
    lambda T, a, b: T.tensordot(a, b, dims=([5], [0])),
], ids=["negative", "too_many", "list_lengths", "sizes", "int_sizes", "dim_range"])
def test_tensordot_errors(fn):
    same_error(fn, A, B)


@pytest.mark.parametrize("fn", [
    lambda T: T.tril_indices(4, 3),
    lambda T: T.tril_indices(4, 3, offset=-1, dtype=T.int32),
    lambda T: T.triu_indices(3, 5, 2),
    lambda T: T.triu_indices(3, 5, 10),
    lambda T: T.tril_indices(3, 5, -10),
    lambda T: T.triu_indices(0, 3),
    lambda T: T.tril_indices(row=2, col=2, offset=1),
], ids=["tril", "offset_int32", "triu", "triu_beyond", "tril_beyond", "empty", "keywords"])
def test_triangle_indices(fn):
    same(fn)


@pytest.mark.parametrize("fn", [
    lambda T: T.tril_indices(-1, 3),
    lambda T: T.triu_indices(3, -2),
    lambda T: T.tril_indices(3, 3, dtype=T.float32),
    lambda T: T.triu_indices(3, 3, dtype=T.int16),
], ids=["row", "col", "float", "int16"])
def test_triangle_indices_errors(fn):
    same_error(fn)


@pytest.mark.parametrize("fn", [
    lambda T, a, b: T.meshgrid(a, b, indexing="ij"),
    lambda T, a, b: T.meshgrid(a, b, a, indexing="xy"),
    lambda T, a, b: T.meshgrid([a, b], indexing="xy"),
    lambda T, a, b: T.meshgrid(a[0], b, indexing="ij"),
    lambda T, a, b: T.meshgrid((b,), indexing="xy"),
], ids=["ij", "xy_three", "list", "0d", "one"])
def test_meshgrid(fn):
    same(fn, np.array([1.0, 2.0]), np.array([3.0, 4.0, 5.0]))


@pytest.mark.parametrize("fn", [
    lambda T, a, b: T.meshgrid(a, indexing="ab"),
    lambda T, a, b: T.meshgrid(indexing="ij"),
    lambda T, a, b: T.meshgrid(a, b.float(), indexing="ij"),
], ids=["indexing", "empty", "dtypes"])
def test_meshgrid_errors(fn):
    same_error(fn, np.array([1.0, 2.0]), np.array([3.0, 4.0, 5.0]))


def test_meshgrid_refuses_matrices(torch):
    with pytest.raises(RuntimeError, match="^torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: "):
        torch.meshgrid(torch.ones(2, 2), torch.ones(2), indexing="ij")


E3 = np.arange(24.0).reshape(2, 3, 4) / 9 - 1
E2 = np.arange(12.0).reshape(4, 3) / 5 - 1
SQ = np.arange(27.0).reshape(3, 3, 3) / 11


@pytest.mark.parametrize("fn", [
    lambda T, a, b, q: T.einsum("...ij,jk->...ik", a, b),
    lambda T, a, b, q: T.einsum("i...j->j...i", a),
    lambda T, a, b, q: T.einsum("...ij->ij", a),
    lambda T, a, b, q: T.einsum("...ij,...jk", a, a.transpose(1, 2)),
    lambda T, a, b, q: T.einsum("...i,...i->...", a, a[0]),
    lambda T, a, b, q: T.einsum("...ij->...ji", b),
    lambda T, a, b, q: T.einsum("ij->...ij", b),
    lambda T, a, b, q: T.einsum("ii->", q[0]),
    lambda T, a, b, q: T.einsum("ii->i", q[1]),
    lambda T, a, b, q: T.einsum("iii->i", q),
    lambda T, a, b, q: T.einsum("iij->ji", q),
    lambda T, a, b, q: T.einsum("jii", q),
    lambda T, a, b, q: T.einsum("ij,jk", b.t(), b),
    lambda T, a, b, q: T.einsum("ba", b),
    lambda T, a, b, q: T.einsum("iJ->Ji", b),
    lambda T, a, b, q: T.einsum("i j , j k -> i k", b.t(), b),
    lambda T, a, b, q: T.einsum("ij,jk->ik", [b.t(), b]),
    lambda T, a, b, q: T.einsum("ij,ij->ij", b, b[:1]),
    lambda T, a, b, q: T.einsum("i,->i", b[0], b[1, 1]),
    lambda T, a, b, q: T.einsum("", b[0, 0]),
    lambda T, a, b, q: T.einsum("ij->", b),
    lambda T, a, b, q: T.einsum("bij,bjk,kl->bil", a.transpose(1, 2), a, b[:, :2]),
    lambda T, a, b, q: T.einsum("ij,jk->ik", b.long(), b.long().t()),
    lambda T, a, b, q: T.einsum("ij,jk->ik", b[:, :0], b[:0]),
    lambda T, a, b, q: T.einsum(b.t(), [0, 1], b, [1, 2], [0, 2]),
    lambda T, a, b, q: T.einsum(b.t(), [0, 1], b, [1, 30]),
    lambda T, a, b, q: T.einsum(a, [..., 1, 2], b, [2, 3], [..., 3]),
], ids=["batch_ellipsis", "ellipsis_middle", "ellipsis_summed", "implicit_ellipsis", "ellipsis_broadcast",
        "ellipsis_empty", "output_ellipsis_only", "trace", "diagonal", "diagonal3", "diagonal_kept", "implicit_trace",
        "implicit", "implicit_sorted", "upper_case", "spaces", "list", "broadcast_one", "scalar_operand",
        "empty_equation", "sum_all", "three_operands", "long", "empty_dims", "sublists", "sublists_implicit",
        "sublists_ellipsis"])
def test_einsum(fn):
    same(fn, E3, E2, SQ)


@pytest.mark.parametrize("fn", [
    lambda T, a, b, q: T.einsum("...ijkl", b),
    lambda T, a, b, q: T.einsum("ijk", b),
    lambda T, a, b, q: T.einsum("i", b),
    lambda T, a, b, q: T.einsum("i1", b),
    lambda T, a, b, q: T.einsum("i.j", b),
    lambda T, a, b, q: T.einsum("...i...", b),
    lambda T, a, b, q: T.einsum("ij->ii", b),
    lambda T, a, b, q: T.einsum("ij->ik", b),
    lambda T, a, b, q: T.einsum("ij,ij->i", b, a[0]),
    lambda T, a, b, q: T.einsum("ii->i", b),
    lambda T, a, b, q: T.einsum("...i,...i->...", a, T.ones(3, 1, 4, dtype=a.dtype)),
    lambda T, a, b, q: T.einsum("...i,...i->...", a, T.ones(5, 4, dtype=a.dtype)),
    lambda T, a, b, q: T.einsum("ij", b, b),
    lambda T, a, b, q: T.einsum("ij,jk", b),
    lambda T, a, b, q: T.einsum("ij,jk", b, b.float().t()),
    lambda T, a, b, q: T.einsum("ij"),
    lambda T, a, b, q: T.einsum("iij->iij", q),
    lambda T, a, b, q: T.einsum(b, [0, 60]),
    lambda T, a, b, q: T.einsum(b, [-1, 1]),
], ids=["more_subscripts", "subscripts", "fewer_subscripts", "invalid", "dot", "two_ellipses", "output_repeated",
        "output_unknown", "sizes", "diagonal_sizes", "ellipsis_sizes", "ellipsis_lengths", "more_operands",
        "fewer_operands", "dtypes", "no_operands", "output_diagonal", "sublist_range", "sublist_negative"])
def test_einsum_errors(fn):
    same_error(fn, E3, E2, SQ)


P1 = np.random.default_rng(0).normal(size=(2, 4, 3))
P2 = np.random.default_rng(1).normal(size=(5, 3))


@pytest.mark.parametrize("p", [0.0, 0.5, 1.0, 2.0, 3.0, float("inf")])
def test_cdist(p):
    same(lambda T, a, b: T.cdist(a, b, p=p), P1, P2)
    same(lambda T, a, b: T.cdist(a[0], b, p=p, compute_mode="donot_use_mm_for_euclid_dist"), P1, P2)
    same(lambda T, a, b: type(T.cdist(a, b, p=p).grad_fn).__name__, P1, P2, grad=False)


def test_cdist_zero_distances_and_ties():
    a = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.5]])
    b = np.array([[0.0, 0.0], [1.0, 2.0]])
    for p in (0.5, 1.0, 2.0, 3.0, float("inf"), 0.0):
        same(lambda T, a, b: T.cdist(a, b, p=p), a, b)


def test_cdist_by_matrix_products():
    many = np.random.default_rng(2).normal(size=(30, 3))
    same(lambda T, a, b: T.cdist(a, b), many, P2)
    same(lambda T, a, b: T.cdist(a, b, compute_mode="use_mm_for_euclid_dist"), P1, P2)
    same(lambda T, a, b: T.cdist(a.reshape(2, 1, 4, 3), b.expand(2, 5, 3)), P1, P2)
    same(lambda T, a, b: T.cdist(a[:, :0], b), P1, P2)


@pytest.mark.parametrize("fn", [
    lambda T, a, b: T.cdist(a, b, compute_mode="foo"),
    lambda T, a, b: T.cdist(a[0, 0], b),
    lambda T, a, b: T.cdist(a, b[0]),
    lambda T, a, b: T.cdist(a, b[:, :2]),
    lambda T, a, b: T.cdist(a.long(), b[:, :2]),
    lambda T, a, b: T.cdist(a.long(), b),
    lambda T, a, b: T.cdist(a, b.long()),
    lambda T, a, b: T.cdist(a, b, p=-1),
    lambda T, a, b: T.cdist(a, b.float()),
    lambda T, a, b: T.cdist(a, b.expand(3, 5, 3)),
], ids=["mode", "x1_dims", "x2_dims", "columns", "columns_before_dtype", "x1_dtype", "x2_dtype", "p", "dtypes",
        "batch"])
def test_cdist_errors(fn):
    same_error(fn, P1, P2)
