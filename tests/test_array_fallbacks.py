"""The backend's stand-ins for what NumPy has and CuPy lacks (running maximum / minimum, sparse
index grids, the writeable flag), checked against NumPy's own on the CPU."""
from __future__ import annotations

import types

import numpy as np
import pytest

from flowgrad import backend


class _NoAccumulate:
    """A ufunc whose `accumulate` is missing, as CuPy's maximum / minimum."""

    def __init__(self, ufunc):
        self.ufunc = ufunc

    def __call__(self, *args, **kwargs):
        return self.ufunc(*args, **kwargs)

    def accumulate(self, *args, **kwargs):
        raise NotImplementedError("not supported yet")


class _NoAt(_NoAccumulate):
    """A ufunc without `at`, as CuPy's multiply."""

    def at(self, *args, **kwargs):
        raise NotImplementedError("not supported yet")


_CUPY_LIKE = types.SimpleNamespace(maximum=_NoAccumulate(np.maximum), minimum=_NoAccumulate(np.minimum),
                                   multiply=_NoAt(np.multiply), moveaxis=np.moveaxis,
                                   ascontiguousarray=np.ascontiguousarray, broadcast_arrays=np.broadcast_arrays,
                                   asarray=np.asarray, ravel_multi_index=np.ravel_multi_index, unique=np.unique,
                                   ones=np.ones)


@pytest.mark.parametrize("ufunc", ["maximum", "minimum"])
@pytest.mark.parametrize("shape,axis", [((1,), 0), ((7,), 0), ((16,), 0), ((3, 9), 1), ((5, 4, 3), 0), ((2, 33, 2), 1)])
def test_running_extremum_without_accumulate_matches_numpy(ufunc, shape, axis):
    rng = np.random.default_rng(sum(shape))
    a = rng.integers(-5, 5, shape).astype(np.float64)
    a.flat[::5] = np.nan
    got = backend.running(_CUPY_LIKE, ufunc, a, axis)
    want = getattr(np, ufunc).accumulate(a, axis=axis)
    np.testing.assert_array_equal(got, want)
    assert got.flags.c_contiguous and got.dtype == a.dtype


@pytest.mark.parametrize("order", ["C", "F"])
def test_ufunc_at_without_at_combines_repeated_positions(order):
    rng = np.random.default_rng(3)
    target = np.asarray(rng.uniform(0.5, 2.0, (4, 5)), order=order)
    index = (np.array([[0, 0, 3], [0, 2, 0]]), np.array([[1, 1, 4], [1, 0, 1]]))   # (0, 1) four times
    values = rng.uniform(0.5, 2.0, (2, 3))
    want = target.copy()
    np.multiply.at(want, index, values)
    backend.ufunc_at(_CUPY_LIKE, "multiply", target, index, values)
    np.testing.assert_allclose(target, want, rtol=1e-15)
    backend.ufunc_at(_CUPY_LIKE, "multiply", target, index, 2.0)     # a number as the values
    np.multiply.at(want, index, 2.0)
    np.testing.assert_allclose(target, want, rtol=1e-15)


def test_open_grid_is_numpys_sparse_indices():
    for shape in [(3,), (2, 4), (2, 1, 3)]:
        for got, want in zip(backend.open_grid(np, shape), np.indices(shape, sparse=True)):
            np.testing.assert_array_equal(got, want)
            assert got.shape == want.shape


def test_writeable_without_a_flag_refuses_broadcast_views():
    def flagless(a):
        return types.SimpleNamespace(flags=types.SimpleNamespace(c_contiguous=True), strides=a.strides, shape=a.shape)
    assert backend.writeable(flagless(np.zeros((3, 2))))
    assert not backend.writeable(flagless(np.broadcast_to(np.zeros(2), (3, 2))))
    assert backend.writeable(flagless(np.broadcast_to(np.zeros(2), (1, 2))))
    assert not backend.writeable(np.broadcast_to(np.zeros(2), (3, 2)))
