"""quantile / nanquantile, histogram, block_diag, cartesian_prod, combinations, vander, isin,
trapezoid / cumulative_trapezoid and the window functions against real torch: values, gradients,
dtypes, node names, and the errors of bad arguments (type and text)."""
from __future__ import annotations

import numpy as np
import pytest

from tensor_op_parity import ftorch, same, same_error, same_nodes, torch

R = np.random.default_rng(7)
M34, V5 = R.normal(size=(3, 4)), R.normal(size=5)
NAN34 = M34.copy()
NAN34[1, 2] = NAN34[2, 0] = np.nan


CASES = {
    "quantile": (lambda T, a: T.quantile(a, 0.3), M34),
    "quantile_dim_vector_q": (lambda T, a: T.quantile(a, T.tensor([0.0, 0.25, 1.0], dtype=T.float64), dim=0,
                                                      keepdim=True), M34),
    "quantile_nan": (lambda T, a: a.quantile(0.7, dim=1, interpolation="nearest"), NAN34),
    "nanquantile": (lambda T, a: T.nanquantile(a, T.tensor([0.5, 0.9], dtype=T.float64), interpolation="midpoint"),
                    NAN34),
    "nanquantile_dim": (lambda T, a: a.nanquantile(0.4, dim=-1, keepdim=True, interpolation="lower"), NAN34),
    "quantile_higher_0d": (lambda T, a: T.quantile(a[0, 0], 0.5, interpolation="higher"), M34),
    "block_diag": (lambda T, a, v: T.block_diag(a, v, v[0], a[:0, :2]), M34, V5),
    "cartesian_prod": (lambda T, a, v: T.cartesian_prod(v[:2], a[0], v), M34, V5),
    "cartesian_prod_one": (lambda T, a, v: T.cartesian_prod(v), M34, V5),
    "combinations": (lambda T, a, v: T.combinations(v, 3), M34, V5),
    "combinations_replacement": (lambda T, a, v: T.combinations(a[0], with_replacement=True), M34, V5),
    "combinations_r1": (lambda T, a, v: T.combinations(v, 1), M34, V5),
    "trapezoid": (lambda T, a, v: T.trapezoid(a), M34, V5),
    "trapezoid_x": (lambda T, a, v: T.trapezoid(a, v[:4].cumsum(0)), M34, V5),
    "trapezoid_x_2d_dim0": (lambda T, a, v: T.trapz(a, a * 2, dim=0), M34, V5),
    "trapezoid_dx": (lambda T, a, v: T.trapezoid(a, dx=0.5, dim=0), M34, V5),
    "cumulative_trapezoid": (lambda T, a, v: T.cumulative_trapezoid(a, dx=2), M34, V5),
    "cumulative_trapezoid_x": (lambda T, a, v: T.cumulative_trapezoid(a, v[:3], dim=0), M34, V5),
}


@pytest.mark.parametrize("name", list(CASES))
def test_values_gradients_and_nodes(name):
    fn, *arrays = CASES[name]
    same(fn, *arrays)
    same_nodes(fn, *arrays)


def test_vander():
    # PyTorch's vander writes into a tensor its own cumprod saved: its backward refuses, and so does flowgrad's
    same(lambda T, v: (T.vander(v), T.vander(v, N=3, increasing=True)), V5, grad=False)
    same_nodes(lambda T, v: (T.vander(v), T.vander(v, N=3, increasing=True)), V5)
    for T in (ftorch, torch):
        v = T.tensor(V5, requires_grad=True)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            T.vander(v).sum().backward()


def test_dtypes_and_empty_inputs():
    same(lambda T, a: (T.block_diag(a.long(), a[0].float()), T.block_diag(), T.block_diag(a.long()),
                       T.combinations(a[0], 0), T.combinations(a[0], 5), T.vander(a[0].long(), 3),
                       T.vander(a[0] > 0), T.vander(a[0], 0), T.trapezoid(a.long()), T.trapezoid(a[:, :0]),
                       T.trapezoid(a[:, :0].long()), T.cumulative_trapezoid(a[:, :0]),
                       T.trapezoid(a.long(), T.arange(4)), T.cumulative_trapezoid(a.int(), dx=3)),
         M34 * 3, grad=False)


@pytest.mark.parametrize("fn", [
    lambda T, a: T.isin(a.long(), T.tensor([1, -2, 3])),
    lambda T, a: T.isin(a, T.tensor([1.0, 2.0]), invert=True),
    lambda T, a: T.isin(a.int(), T.tensor([2.5, 1.0]), assume_unique=True),
    lambda T, a: (T.isin(a.long(), 2), T.isin(2, a.long()), T.isin(a, T.tensor([np.nan]))),
])
def test_isin(fn):
    same(fn, np.round(M34 * 2), grad=False)


@pytest.mark.parametrize("fn", [
    lambda T, a: tuple(T.histogram(a, 3)),
    lambda T, a: tuple(T.histogram(a, 2, range=(0.0, 1.0), density=True)),
    lambda T, a: tuple(a.histogram(T.tensor([-1.0, 0.0, 0.5, 2.0], dtype=T.float64), weight=a.abs())),
    lambda T, a: tuple(T.histogram(a[0, :1], 2)) + tuple(T.histogram(a[:0], 2)),
    lambda T, a: tuple(T.histogram(a.float(), 4, weight=a.float(), density=True)),
])
def test_histogram(fn):
    same(fn, M34, grad=False)


def test_histogram_result_and_node():
    for T in (ftorch, torch):
        out = T.histogram(T.tensor([1.0, 2.0], requires_grad=True), 2)
        assert type(out).__name__ == "histogram" and out.hist.shape == (2,) and out.bin_edges.shape == (3,)
        with pytest.raises(RuntimeError, match="derivative for aten::histogram is not implemented"):
            out.hist.sum().backward()


@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "blackman_window", "bartlett_window",
                                  "kaiser_window"])
def test_windows(name):
    same(lambda T, a: (getattr(T, name)(7), getattr(T, name)(6, periodic=False), getattr(T, name)(0),
                       getattr(T, name)(1), getattr(T, name)(5, dtype=T.float64)), M34, grad=False)
    same(lambda T, a: getattr(T, name)(4, requires_grad=True), M34, grad=False)
    same(lambda T, a: (T.hamming_window(6, False, 0.6, 0.3), T.kaiser_window(6, True, 5.0)), M34, grad=False)
    same_error(lambda T, a: getattr(T, name)(-1), M34)
    same_error(lambda T, a: getattr(T, name)(3, dtype=T.long), M34)


@pytest.mark.parametrize("fn", [
    lambda T, a: T.quantile(a, 1.5),
    lambda T, a: T.quantile(a, T.tensor([1.5], dtype=T.float64)),
    lambda T, a: T.quantile(a, 0.5, interpolation="foo"),
    lambda T, a: T.quantile(a[:0], 0.5),
    lambda T, a: T.quantile(a, T.tensor([[0.5]], dtype=T.float64)),
    lambda T, a: T.quantile(a.long(), 0.5),
    lambda T, a: T.nanquantile(a, T.tensor([0.5])),
    lambda T, a: T.quantile(a, 0.5, dim=2),
    lambda T, a: T.block_diag(a[None]),
    lambda T, a: T.cartesian_prod(a, a[0]),
    lambda T, a: T.cartesian_prod(a[0].long(), a[0]),
    lambda T, a: T.combinations(a),
    lambda T, a: T.combinations(a[0], -1),
    lambda T, a: T.vander(a),
    lambda T, a: T.vander(a[0], -1),
    lambda T, a: T.isin(a > 0, a > 0),
    lambda T, a: T.isin(a.to(T.complex64), a),
    lambda T, a: T.histogram(a.long(), 2),
    lambda T, a: T.histogram(a, 0),
    lambda T, a: T.histogram(a, 2, range=(3.0, 0.0)),
    lambda T, a: T.histogram(a * np.nan, 2),
    lambda T, a: T.histogram(a, T.tensor([1.0], dtype=T.float64)),
    lambda T, a: T.histogram(a, T.ones(2, 2, dtype=T.float64)),
    lambda T, a: T.histogram(a, T.tensor([0.0, 1.0])),
    lambda T, a: T.histogram(a, 2, weight=a[0]),
    lambda T, a: T.histogram(a, 2, weight=a.float()),
    lambda T, a: T.trapezoid(a > 0),
    lambda T, a: T.trapezoid(a, a[0, :3]),
    lambda T, a: T.trapezoid(a, dx=1j),
    lambda T, a: T.trapezoid(a, a[:2]),
    lambda T, a: T.cumulative_trapezoid(a > 0),
    lambda T, a: T.cumulative_trapezoid(a, a[0, :2]),
], ids=lambda f: "")
def test_errors(fn):
    same_error(fn, M34)
