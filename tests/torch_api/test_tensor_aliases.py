"""Small Tensor methods and functions composed from the op table, against real torch: ravel, fliplr,
flipud, positive, adjoint / mH, arctan2 and fix (with their in-place forms, trunc_, atan2_ and
negative_ among them), is_same_size, is_signed, ndimension: values, gradients, nodes and errors."""
from __future__ import annotations

import numpy as np
import pytest

from tensor_op_parity import same, same_error

X = np.arange(6.0).reshape(2, 3) / 5 - 0.4


@pytest.mark.parametrize("fn", [
    lambda T, x: x.ravel(),
    lambda T, x: T.ravel(x.t()),
    lambda T, x: [type(n).__name__ for n in (x.t().ravel().grad_fn, x.t().ravel().grad_fn.next_functions[0][0])],
    lambda T, x: x.fliplr(),
    lambda T, x: T.flipud(x),
    lambda T, x: x.positive() is x,
    lambda T, x: T.positive(x),
    lambda T, x: x.adjoint(),
    lambda T, x: T.adjoint(x),
    lambda T, x: x.mH,
    lambda T, x: (type(x.mH.grad_fn).__name__, type(x.adjoint().grad_fn).__name__),
    lambda T, x: T.arctan2(x, x.flip(0)),
    lambda T, x: x.arctan2(x + 1),
    lambda T, x: (x * 3).fix(),
    lambda T, x: T.fix(x * 3),
    lambda T, x: (x * 1).arctan2_(x + 1),
    lambda T, x: (x * 1).atan2_(x + 1),
    lambda T, x: (x * 3).fix_(),
    lambda T, x: (x * 3).trunc_(),
    lambda T, x: (x * 1).negative_(),
    lambda T, x: (x.is_same_size(x[0]), x.is_same_size(x * 2), x.is_signed(), x.long().is_signed(),
                  x.to(T.uint8).is_signed(), (x > 0).is_signed(), x.ndimension(), x[0, 0].ndimension()),
], ids=["ravel", "ravel_copy", "ravel_nodes", "fliplr", "flipud", "positive_is_self", "positive", "adjoint",
        "adjoint_function", "mH", "nodes", "arctan2", "arctan2_method", "fix", "fix_function", "arctan2_", "atan2_",
        "fix_", "trunc_", "negative_", "sizes_and_signs"])
def test_aliases(fn):
    same(fn, X)


def test_adjoint_of_complex_matrices():
    same(lambda T, x: (x.to(T.complex128) * (1 + 2j)).adjoint().resolve_conj(), X, grad=False)
    same(lambda T, x: (x.to(T.complex64) * (1 - 1j)).mH.resolve_conj(), X, grad=False)


@pytest.mark.parametrize("fn", [
    lambda T, x: x[0].fliplr(),
    lambda T, x: x[0, 0].flipud(),
    lambda T, x: (x > 0).positive(),
    lambda T, x: T.positive(x > 0),
    lambda T, x: x[0].adjoint(),
    lambda T, x: x[0].mH,
    lambda T, x: x.is_same_size(3),
], ids=["fliplr_1d", "flipud_0d", "positive_bool", "positive_bool_function", "adjoint_1d", "mH_1d", "same_size_int"])
def test_alias_errors(fn):
    same_error(fn, X)
