"""cumprod and cumsum (+ in place and out=), logcumsumexp, cummax, cummin and logaddexp / logaddexp2
against real torch: values, dtypes, the return types' fields, gradients (zeros in cumprod's input,
ties and NaN in cummax / cummin, infinities in logcumsumexp and logaddexp), node names, errors."""
from __future__ import annotations

import numpy as np
import pytest

from tensor_op_parity import same, same_error

X = np.array([[0.5, -1.5, 2.0, 1.25], [3.0, 0.75, -0.5, 2.5], [-2.0, 1.5, 0.25, -1.0]])


@pytest.mark.parametrize("fn", [
    lambda T, x: x.cumprod(1),
    lambda T, x: T.cumprod(x, 0),
    lambda T, x: x.cumprod(-1, dtype=T.float32),
    lambda T, x: x.clone().cumprod_(0),
    lambda T, x: x[0, 0].cumprod(0),
    lambda T, x: x[:, :0].cumprod(1),
], ids=["dim1", "dim0", "dtype", "inplace", "0d", "empty"])
def test_cumprod(fn):
    same(fn, X)


@pytest.mark.parametrize("zeros", [[[0, 1]], [[0, 1], [0, 3]], [[1, 0], [1, 2], [2, 3]]], ids=["one", "two", "rows"])
def test_cumprod_gradient_through_zeros(zeros):
    x = X.copy()
    for i, j in zeros:
        x[i, j] = 0.0
    same(lambda T, x: x.cumprod(1), x)
    same(lambda T, x: T.autograd.grad(x.cumprod(1).sum(), x, create_graph=True)[0], x)


def test_cumprod_integers_and_bools():
    same(lambda T, x: (x * 2).long().cumprod(1), X)
    same(lambda T, x: (x > 0).cumprod(0), X)
    same(lambda T, x: (x > 0).cumprod(0, dtype=T.float64), X)


def test_cumprod_node_name():
    same(lambda T, x: type(x.cumprod(0).grad_fn).__name__, X, grad=False)


@pytest.mark.parametrize("name", ["cummax", "cummin"])
@pytest.mark.parametrize("fn", [
    lambda T, x, n: getattr(x, n)(1),
    lambda T, x, n: getattr(T, n)(x, 0),
    lambda T, x, n: getattr(x, n)(dim=-1),
    lambda T, x, n: getattr(x[1, 2], n)(0),
    lambda T, x, n: getattr(x.long(), n)(1),
    lambda T, x, n: getattr(x > 0, n)(1),
], ids=["dim1", "function", "keyword", "0d", "long", "bool"])
def test_cummax_cummin(name, fn):
    same(lambda T, x: fn(T, x, name), X)


@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_cummax_cummin_ties_and_nan(name):
    x = np.array([[1.0, 1.0, 0.0, 0.0, 2.0, 2.0], [1.0, np.nan, 3.0, np.nan, 0.0, -1.0]])
    same(lambda T, x: getattr(x, name)(1), x)
    same(lambda T, x: getattr(x, name)(0), x)


@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_cummax_cummin_return_type(name, torch):
    out = getattr(torch.tensor([3.0, 1.0, 2.0], requires_grad=True), name)(0)
    assert type(out).__name__ == name and type(out).__module__ == "torch.return_types"
    assert getattr(torch.return_types, name) is type(out)
    values, indices = out
    assert values is out.values and indices is out.indices and out[0] is values
    assert repr(out).startswith(f"torch.return_types.{name}(\nvalues=tensor(")
    assert type(values.grad_fn).__name__ == ("CummaxBackward0" if name == "cummax" else "CumminBackward0")
    assert indices.dtype == torch.int64 and not indices.requires_grad


@pytest.mark.parametrize("fn", [
    lambda T, x: x.cumprod(2),
    lambda T, x: x.cummax(-3),
    lambda T, x: T.cummin(x, 5),
], ids=["cumprod", "cummax", "cummin"])
def test_dim_errors(fn):
    same_error(fn, X)


@pytest.mark.parametrize("fn", [
    lambda T, x: T.logcumsumexp(x, 1),
    lambda T, x: x.logcumsumexp(0),
    lambda T, x: x.logcumsumexp(dim=-1),
    lambda T, x: x.float().logcumsumexp(1),
    lambda T, x: x[1, 2].logcumsumexp(0),
    lambda T, x: x[:, :0].logcumsumexp(1),
    lambda T, x: (x * 400).logcumsumexp(1),
    lambda T, x: T.autograd.grad((x.logcumsumexp(1) * x).sum(), x, create_graph=True)[0],
    lambda T, x: type(x.logcumsumexp(0).grad_fn).__name__,
], ids=["function", "method", "keyword", "float32", "0d", "empty", "large", "double_backward", "node"])
def test_logcumsumexp(fn):
    same(fn, X)


def _grad_of(T, x, fn):
    x.requires_grad_()
    y = fn(x)
    return y, T.autograd.grad(y, x, T.ones_like(y))[0]


def test_logcumsumexp_infinities():
    x = np.array([[-np.inf, -np.inf, 1.0], [np.inf, 1.0, -np.inf]])
    same(lambda T, x: _grad_of(T, x, lambda x: x.logcumsumexp(1)), x, grad=False)


@pytest.mark.parametrize("fn", [
    lambda T, x: x.clone().cumsum_(1),
    lambda T, x: x.clone().cumsum_(0, dtype=T.float64),
    lambda T, x: (x * 3).long().cumsum_(0),
    lambda T, x: (x * 3).int().cumsum_(1),
    lambda T, x: (x * 3).int().cumprod_(1),
    lambda T, x: x.clone().cumprod_(0, dtype=T.float64),
    lambda T, x: type(x.clone().cumsum_(0).grad_fn).__name__,
    lambda T, x: T.cumsum(x.detach(), 0, out=T.empty(3, 4, dtype=T.float32)),
    lambda T, x: T.cumprod(x.detach(), 1, out=T.empty(3, 4)),
    lambda T, x: T.cumprod((x * 3).long(), 1, out=T.empty(3, 4, dtype=T.int32)),
], ids=["cumsum_", "cumsum_dtype", "cumsum_long", "cumsum_int", "cumprod_int", "cumprod_dtype", "cumsum_node",
        "cumsum_out", "cumprod_out", "cumprod_out_int"])
def test_in_place_and_out(fn):
    same(fn, X)


@pytest.mark.parametrize("fn", [
    lambda T, x: T.logaddexp(x, x[0]),
    lambda T, x: T.logaddexp2(x, x[:, :1]),
    lambda T, x: x.logaddexp(x.float()),
    lambda T, x: x.float().logaddexp2(x[0, 0]),
    lambda T, x: T.logaddexp(x * 300, x.flip(0) * 300),
    lambda T, x: T.logaddexp(x.detach(), x.detach(), out=T.empty(3, 4, dtype=T.float64)),
    lambda T, x: T.autograd.grad(T.logaddexp2(x, x * x).sum(), x, create_graph=True)[0],
    lambda T, x: (type(T.logaddexp(x, x).grad_fn).__name__, type(T.logaddexp2(x, x).grad_fn).__name__),
], ids=["broadcast", "base2", "promote", "0d_other", "large", "out", "double_backward", "nodes"])
def test_logaddexp(fn):
    same(fn, X)


def test_logaddexp_infinities():
    x = np.array([-np.inf, np.inf, 1.0, -np.inf])
    same(lambda T, x: _grad_of(T, x, lambda x: T.logaddexp(x, x.flip(0))), x, grad=False)
    same(lambda T, x: _grad_of(T, x, lambda x: T.logaddexp2(x, x)), x, grad=False)


@pytest.mark.parametrize("fn", [
    lambda T, x: (x * 3).long().logcumsumexp(0),
    lambda T, x: (x > 0).logcumsumexp(0),
    lambda T, x: x.logcumsumexp(2),
    lambda T, x: x.logcumsumexp(None),
    lambda T, x: T.logaddexp(x.long(), x.long()),
    lambda T, x: T.logaddexp2(x > 0, x > 0),
    lambda T, x: T.logaddexp2(x.to(T.complex64), x.to(T.complex64)),
    lambda T, x: T.logaddexp(x, 2.0),
    lambda T, x: x.logaddexp(2),
    lambda T, x: T.logaddexp(x, x[:2]),
    lambda T, x: x.cumsum_(0, dtype=T.int64),
    lambda T, x: x.long().cumsum_(0, dtype=T.int32),
    lambda T, x: (x > 0).cumsum_(0),
    lambda T, x: (x > 0).cumprod_(0),
    lambda T, x: x.cumprod_(1, dtype=T.float32),
], ids=["logcumsumexp_long", "logcumsumexp_bool", "logcumsumexp_dim", "logcumsumexp_none", "logaddexp_long",
        "logaddexp2_bool", "logaddexp2_complex", "logaddexp_number", "logaddexp_method_number", "logaddexp_shapes",
        "cumsum_dtype", "cumsum_long_dtype", "cumsum_bool", "cumprod_bool", "cumprod_dtype"])
def test_errors(fn):
    same_error(fn, X)
