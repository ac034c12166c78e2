"""searchsorted, bucketize and histc against real torch: positions and counts, their dtypes
(out_int32), side / right / sorter, N-d boundaries, NaN, empty inputs, and the errors of bad
arguments (type and text)."""
from __future__ import annotations

import numpy as np
import pytest

from tensor_op_parity import ftorch, same, same_error, torch

B = np.array([1.0, 3.0, 3.0, 5.0, 7.0])
V = np.array([[0.0, 3.0, 6.0], [1.0, 5.0, 8.0]])
ROWS = np.array([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]])


@pytest.mark.parametrize("fn", [
    lambda T, b, v: T.searchsorted(b, v),
    lambda T, b, v: T.searchsorted(b, v, right=True),
    lambda T, b, v: T.searchsorted(b, v, side="right"),
    lambda T, b, v: T.searchsorted(b, v, side="left", out_int32=True),
    lambda T, b, v: T.searchsorted(b, v, right=False, side="right"),
    lambda T, b, v: T.searchsorted(b, 3.0),
    lambda T, b, v: T.searchsorted(b.long(), 2.5),
    lambda T, b, v: T.searchsorted(b.long(), v),
    lambda T, b, v: T.searchsorted(b, v[0, 1]),
    lambda T, b, v: T.searchsorted(b[:0], v),
    lambda T, b, v: T.searchsorted(b, v[:, :0]),
    lambda T, b, v: T.searchsorted(sorted_sequence=b, input=v, right=True),
], ids=["left", "right", "side_right", "int32", "side_over_right", "scalar", "long_scalar", "long_bounds",
        "0d_values", "empty_bounds", "empty_values", "keywords"])
def test_searchsorted(fn):
    same(fn, B, V, grad=False)


def test_searchsorted_rows_sorter_and_nan():
    same(lambda T, b, v: T.searchsorted(b, v), ROWS, V, grad=False)
    same(lambda T, b, v: T.searchsorted(b, v, right=True), ROWS, V, grad=False)
    same(lambda T, b, v: T.searchsorted(b, v), np.stack([ROWS, ROWS + 1]), np.stack([V, V + 0.5]), grad=False)
    same(lambda T, b, v: T.searchsorted(b, v, sorter=T.tensor([3, 0, 1, 2, 4])),
         np.array([3.0, 5.0, 7.0, 1.0, 9.0]), V, grad=False)
    same(lambda T, b, v: T.searchsorted(b, v, sorter=T.tensor([[1, 0, 2], [2, 1, 0]]), side="right"),
         np.array([[3.0, 1.0, 5.0], [6.0, 4.0, 2.0]]), V, grad=False)
    same(lambda T, b, v: T.searchsorted(b, v), B, np.array([np.nan, -np.inf, np.inf]), grad=False)
    same(lambda T, b, v: T.searchsorted(b, v, right=True), np.array([1.0, 2.0, np.nan]),
         np.array([np.nan, 2.0, 0.5]), grad=False)


def test_search_results_need_no_grad(torch):
    b = torch.tensor([1.0, 2.0], requires_grad=True)
    v = torch.tensor([1.5], requires_grad=True)
    for out in (torch.searchsorted(b, v), torch.bucketize(v, b), torch.histc(v, bins=2)):
        assert not out.requires_grad and out.grad_fn is None


@pytest.mark.parametrize("fn", [
    lambda T, b, v: T.searchsorted(b, v, side="middle"),
    lambda T, b, v: T.searchsorted(b, v, right=True, side="left"),
    lambda T, b, v: T.searchsorted(b, v, sorter=T.tensor([0, 1, 2])),
    lambda T, b, v: T.searchsorted(b, v, sorter=T.tensor([0.0, 1, 2, 3, 4])),
    lambda T, b, v: T.searchsorted(b, v, sorter=T.tensor([0, 1, 2, 3, 5])),
    lambda T, b, v: T.searchsorted(b.reshape(1, 5), 2.0),
    lambda T, b, v: T.searchsorted(b[0], v),
    lambda T, b, v: T.searchsorted(b[0], b[1]),
    lambda T, b, v: T.searchsorted(b[:4].reshape(2, 2), v.t()),
    lambda T, b, v: T.searchsorted(b[:4].reshape(2, 2), v[0]),
    lambda T, b, v: T.searchsorted(b > 2, v > 2),
], ids=["side", "side_and_right", "sorter_size", "sorter_dtype", "sorter_range", "scalar_nd", "bounds_0d",
        "both_0d", "leading_dims", "ndim", "bool"])
def test_searchsorted_errors(fn):
    same_error(fn, B, V)


@pytest.mark.parametrize("fn", [
    lambda T, b, v: T.bucketize(v, b),
    lambda T, b, v: T.bucketize(v, b, right=True),
    lambda T, b, v: T.bucketize(v, b, out_int32=True),
    lambda T, b, v: T.bucketize(3.0, b),
    lambda T, b, v: T.bucketize(v.long(), b),
    lambda T, b, v: T.bucketize(input=v, boundaries=b, right=True),
    lambda T, b, v: T.bucketize(v, b > 1),
    lambda T, b, v: T.bucketize(v > 1, b, right=True),
], ids=["left", "right", "int32", "scalar", "long_values", "keywords", "bool_boundaries", "bool_values"])
def test_bucketize(fn):
    same(fn, B, V, grad=False)


@pytest.mark.parametrize("fn", [
    lambda T, b, v: T.bucketize(v, b.reshape(1, 5)),
    lambda T, b, v: T.bucketize(v, b[0]),
], ids=["2d_boundaries", "0d_boundaries"])
def test_bucketize_errors(fn):
    same_error(fn, B, V)


@pytest.mark.parametrize("boundaries", [[1.0, 2.0], "abc", None])
def test_bucketize_boundaries_must_be_a_tensor(boundaries):
    for T in (ftorch, torch):
        with pytest.raises(TypeError):
            T.bucketize(T.tensor(V), boundaries)


H = np.array([0.0, 3.0, 0.75, 1.5, 2.25, 3.0001, -0.0001, 1.2, 2.9, 0.1])


@pytest.mark.parametrize("fn", [
    lambda T, x: T.histc(x, bins=4, min=0, max=3),
    lambda T, x: T.histc(x),
    lambda T, x: x.histc(bins=7),
    lambda T, x: x.float().histc(5, -1, 2),
    lambda T, x: x.half().histc(3),
    lambda T, x: T.histc(x.reshape(2, 5), bins=3),
    lambda T, x: T.histc(x * 0 + 1, bins=4),
    lambda T, x: T.histc(x, bins=4, min=1, max=1),
    lambda T, x: T.histc(x[:0], bins=4),
    lambda T, x: T.histc(x, bins=3, min=10, max=20),
], ids=["range", "default", "method", "float32", "half", "2d", "constant", "min_equals_max", "empty", "outside"])
def test_histc(fn):
    same(fn, H, grad=False)


@pytest.mark.parametrize("fn", [
    lambda T, x: T.histc(x, bins=0),
    lambda T, x: T.histc(x, bins=-1, min=3, max=1),
    lambda T, x: T.histc(x.long()),
    lambda T, x: T.histc(x.long(), bins=-2),
    lambda T, x: T.histc(x, min=3, max=1),
    lambda T, x: T.histc(x, min=3, max=float("inf")),
    lambda T, x: T.histc(T.cat([x, x[1:2] / 0])),
    lambda T, x: T.histc(x, T.tensor([1, 2])),
    lambda T, x: x.histc(T.ones(2)),
], ids=["zero_bins", "bins_first", "long", "bins_before_dtype", "min_above_max", "inf_range", "inf_data",
        "tensor_bins", "method_tensor_bins"])
def test_histc_errors(fn):
    same_error(fn, H)
