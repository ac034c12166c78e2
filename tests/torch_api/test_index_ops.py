"""index_add / index_copy / index_fill (+ their in-place methods) and scatter_reduce against real
torch: values, dtypes, shapes, gradients of every input, node names, and the errors of bad
arguments (type and text)."""
from __future__ import annotations

import numpy as np
import pytest

from tensor_op_parity import same, same_error

X = np.arange(12.0).reshape(3, 4) - 5.5
S2 = np.linspace(-1.0, 2.0, 8).reshape(2, 4)


def _long(T, values):
    return T.tensor(values, dtype=T.int64)


# ------------------------------------------------------------------------------------- index_add

@pytest.mark.parametrize("fn", [
    lambda T, x, s: x.index_add(0, _long(T, [2, 0]), s),
    lambda T, x, s: T.index_add(x, 0, _long(T, [2, 2]), s, alpha=-1.5),
    lambda T, x, s: x.index_add(-2, T.tensor([1, 0], dtype=T.int32), s, alpha=2),
    lambda T, x, s: x.clone().index_add_(0, _long(T, [1, 1]), s),
    lambda T, x, s: x.index_add(1, _long(T, [3, 0, 3, 1]), T.cat([s, s[:1] * 2])),
], ids=["dim0", "alpha", "int32_negdim", "inplace", "dim1"])
def test_index_add(fn):
    same(fn, X, S2)


def test_index_add_integers_and_scalars():
    same(lambda T, x, s: x.long().index_add(0, _long(T, [0, 1]), s.long(), alpha=2.5), X, S2)
    same(lambda T, x, s: x.bool().index_add(0, _long(T, [0]), s[:1].bool()), X, S2)
    same(lambda T, a, b: a.index_add(0, _long(T, [0]), b), np.array(1.5), np.array(2.0))
    same(lambda T, x, s: x.index_add(0, T.tensor(1), s[:1]), X, S2)


def test_index_add_node_name():
    same(lambda T, x, s: type(x.index_add(0, _long(T, [0, 2]), s).grad_fn).__name__, X, S2, grad=False)


@pytest.mark.parametrize("fn", [
    lambda T, x, s: x.index_add(0, _long(T, [0, 2]).float(), s),
    lambda T, x, s: x.index_add(0, _long(T, [[0, 1]]), s),
    lambda T, x, s: x.index_add(0, _long(T, [0, 3]), s),
    lambda T, x, s: x.index_add(0, _long(T, [0, -1]), s),
    lambda T, x, s: x.index_add(0, _long(T, [0, 1]), s.float()),
    lambda T, x, s: x.index_add(0, _long(T, [0, 1, 2]), s),
    lambda T, x, s: x.index_add(0, _long(T, [0, 1]), s[:, :3]),
    lambda T, x, s: x.index_add(0, _long(T, [0]), s[0, 0]),
    lambda T, x, s: x.index_add(2, _long(T, [0, 1]), s),
    lambda T, x, s: x.index_add_(0, _long(T, [5, 1]), s),
], ids=["float_index", "index_2d", "bounds", "negative", "dtype", "count", "shape", "scalar_source", "dim",
        "inplace_bounds"])
def test_index_add_errors(fn):
    same_error(fn, X, S2)


# ------------------------------------------------------------------------------------ index_copy

@pytest.mark.parametrize("fn", [
    lambda T, x, s: x.index_copy(0, _long(T, [2, 0]), s),
    lambda T, x, s: T.index_copy(x, 1, _long(T, [3, 1]), s.reshape(4, 2)[:3]),
    lambda T, x, s: x.clone().index_copy_(0, _long(T, [1]), s[1:]),
    lambda T, x, s: x.index_copy(0, T.tensor(1), s[:1]),
    lambda T, x, s: x[0, 0].index_copy(0, _long(T, [0]), s[0, 0]),
], ids=["dim0", "dim1", "inplace", "index_0d", "scalars"])
def test_index_copy(fn):
    same(fn, X, S2)


def test_index_copy_node_name():
    same(lambda T, x, s: type(x.index_copy(0, _long(T, [0, 2]), s).grad_fn).__name__, X, S2, grad=False)


@pytest.mark.parametrize("fn", [
    lambda T, x, s: x.index_copy(0, _long(T, [0, 2]).int(), s),
    lambda T, x, s: x.index_copy(0, _long(T, [[0, 1]]), s),
    lambda T, x, s: x.index_copy(0, _long(T, [0, 3]), s),
    lambda T, x, s: x.index_copy(0, _long(T, [0, -1]), s),
    lambda T, x, s: x.index_copy(0, _long(T, [0, 1]), s.float()),
    lambda T, x, s: x.index_copy(0, _long(T, [0, 1, 2]), s),
    lambda T, x, s: x.index_copy(0, _long(T, [0, 1]), s[:, :3]),
    lambda T, x, s: x.index_copy(0, _long(T, [0, 1]), s[0, 0]),
    lambda T, x, s: x.index_copy(0, _long(T, [0, 1]), s.reshape(8)),
    lambda T, x, s: x.index_copy(0, _long(T, [0]), s[0, 0]),
], ids=["int32_index", "index_2d", "bounds", "negative", "dtype", "count", "slices", "scalar_count", "ndim",
        "scalar_slices"])
def test_index_copy_errors(fn):
    same_error(fn, X, S2)


# ------------------------------------------------------------------------------------ index_fill

@pytest.mark.parametrize("fn", [
    lambda T, x, v: x.index_fill(0, _long(T, [2, 0]), -7.5),
    lambda T, x, v: T.index_fill(x, 1, _long(T, [3, 0, 0]), v[0]),
    lambda T, x, v: x.clone().index_fill_(1, _long(T, [1]), v[1]),
    lambda T, x, v: x.index_fill(0, T.tensor(1), 3),
    lambda T, x, v: x.long().index_fill(1, _long(T, [0]), 2.7),
    lambda T, x, v: x.index_fill(1, _long(T, [2]), v.float()[0]),
    lambda T, x, v: x.long().index_fill(1, _long(T, [0]), v[0].detach()),
    lambda T, x, v: x[0, 0].index_fill(0, _long(T, [0]), v[1]),
], ids=["number", "tensor_value", "inplace", "index_0d", "float_into_long", "double_value", "tensor_into_long",
        "scalar_self"])
def test_index_fill(fn):
    same(fn, X, np.array([1.25, -2.0]))


def test_index_fill_node_names():
    same(lambda T, x, v: (type(x.index_fill(0, _long(T, [0]), 1.0).grad_fn).__name__,
                          type(x.index_fill(0, _long(T, [0]), v[0]).grad_fn).__name__), X, np.array([1.0]), grad=False)


@pytest.mark.parametrize("fn", [
    lambda T, x, v: x.index_fill(0, _long(T, [0, 2]).int(), 1.0),
    lambda T, x, v: x.index_fill(0, _long(T, [[0, 1]]), 1.0),
    lambda T, x, v: x.index_fill(0, _long(T, [0, 3]), 1.0),
    lambda T, x, v: x.index_fill(1, _long(T, [-5]), 1.0),
    lambda T, x, v: x.index_fill(0, _long(T, [0]), v),
    lambda T, x, v: x.index_fill(0, _long(T, [[0]]).int(), v),
    lambda T, x, v: x.long().index_fill(0, _long(T, [0]), 2 ** 70),
    lambda T, x, v: x.long().index_fill(0, _long(T, [0]), v[0].requires_grad_()),
], ids=["int32_index", "index_2d", "bounds", "negative_bounds", "value_1d", "order", "overflow", "grad_into_long"])
def test_index_fill_errors(fn):
    same_error(fn, X, np.array([1.0, 2.0]))


def test_inplace_index_ops_on_a_leaf_refuse(torch):
    x = torch.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        x.index_fill_(0, torch.tensor([0]), 1.0)
    assert x.grad_fn is None and x._version == 0


# -------------------------------------------------------------------------------- scatter_reduce

INDEX = [[2, 0, 2, 1], [1, 1, 0, 0], [0, 0, 0, 3]]
SRC = np.array([[0.5, -1.0, 2.0, 1.5], [3.0, -2.5, 1.25, 0.75], [-0.5, 2.5, -1.5, 1.0]])


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce(reduce, include_self):
    same(lambda T, x, s: x.scatter_reduce(1, _long(T, INDEX), s, reduce, include_self=include_self),
         X, SRC)
    same(lambda T, x, s: T.scatter_reduce(x, 0, _long(T, INDEX)[:2, :3], s, reduce, include_self=include_self),
         X, SRC[:2, :3])


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_integers(reduce, include_self):
    same(lambda T, x, s: x.long().scatter_reduce(1, _long(T, INDEX), (s * 4).long(), reduce,
                                                 include_self=include_self), X, SRC)


def test_scatter_reduce_ties_share_the_gradient():
    x = np.array([[1.0, 5.0, 2.0]])
    s = np.array([[5.0, 5.0, 2.0, 1.0]])
    same(lambda T, x, s: x.scatter_reduce(1, _long(T, [[1, 1, 2, 0]]), s, "amax"), x, s)
    same(lambda T, x, s: x.scatter_reduce(1, _long(T, [[1, 1, 2, 0]]), s, "amin", include_self=False), x, s)


def test_scatter_reduce_prod_with_zeros():
    x = np.array([[1.5, 0.0, 2.0]])
    same(lambda T, x, s: x.scatter_reduce(1, _long(T, [[1, 1, 2, 0]]), s, "prod"), x, np.array([[0.0, 3.0, 0.0, 2.0]]))
    same(lambda T, x, s: x.scatter_reduce(1, _long(T, [[0, 0, 2, 2]]), s, "prod", include_self=False), x,
         np.array([[0.0, 3.0, 0.0, 2.0]]))


def test_scatter_reduce_prod_double_backward_with_several_zeros_refused(torch):
    x = torch.ones(3, dtype=torch.float64, requires_grad=True)
    s = torch.tensor([0.0, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = x.scatter_reduce(0, torch.tensor([0, 0, 1]), s, "prod")
    g, = torch.autograd.grad(y.sum(), s, create_graph=True)
    assert g.tolist() == [0.0, 0.0, 1.0]
    with pytest.raises(RuntimeError, match="^scatter_reduce\\(\\): Double backward is unsupported for src when >1 "
                                           "zeros in src are scattered to the same position in self$"):
        g.sum().backward()


def test_scatter_reduce_inplace_and_aliases():
    same(lambda T, x, s: x.clone().scatter_reduce_(1, _long(T, INDEX), s, "amax"), X, SRC)
    same(lambda T, x, s: x.scatter_reduce(1, _long(T, INDEX), s, "max"), X, SRC, grad=False)
    same(lambda T, x, s: x.scatter_reduce(1, _long(T, INDEX), s, "min", include_self=False), X, SRC, grad=False)
    same_error(lambda T, x, s: x.requires_grad_().scatter_reduce(1, _long(T, INDEX), s, "max").sum().backward(),
               X, SRC)
    same(lambda T, x, s: type(x.scatter_reduce(1, _long(T, INDEX), s, "sum").grad_fn).__name__, X, SRC, grad=False)


def test_scatter_reduce_nan_propagates():
    s = SRC.copy()
    s[0, 1] = np.nan
    same(lambda T, x, s: x.scatter_reduce(1, _long(T, INDEX), s, "amax", include_self=False), X, s, grad=False)


@pytest.mark.parametrize("fn", [
    lambda T, x, s: x.scatter_reduce(1, _long(T, INDEX), s, "add"),
    lambda T, x, s: x.scatter_reduce(1, _long(T, INDEX), s, "foo"),
    lambda T, x, s: x.scatter_reduce(1, _long(T, INDEX), s.float(), "sum"),
    lambda T, x, s: x.scatter_reduce(1, _long(T, INDEX).float(), s, "sum"),
    lambda T, x, s: x.scatter_reduce(1, _long(T, [[2, 0], [1, 5]]), s, "sum"),
    lambda T, x, s: x.scatter_reduce(1, _long(T, INDEX)[0], s, "sum"),
    lambda T, x, s: x.scatter_reduce(1, T.zeros(4, 4, dtype=T.int64), s, "sum"),
    lambda T, x, s: x.scatter_reduce(1, T.zeros(3, 5, dtype=T.int64), s, "sum"),
    lambda T, x, s: x.scatter_add(1, T.zeros(3, 5, dtype=T.int64), s),
], ids=["add", "unknown", "dtype", "float_index", "bounds", "index_ndim", "index_larger_than_self",
        "index_larger_than_src", "scatter_add_index_larger"])
def test_scatter_reduce_errors(fn):
    same_error(fn, X, SRC)
