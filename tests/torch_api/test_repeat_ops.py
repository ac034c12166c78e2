"""repeat_interleave (int and tensor repeats, dim, output_size, the one-argument form) and kron
against real torch: values, dtypes, shapes, gradients and the errors of bad arguments."""
from __future__ import annotations

import numpy as np
import pytest

from tensor_op_parity import ftorch, same, same_error, torch

X = np.array([[0.5, -1.5, 2.0], [3.0, 0.75, -0.5]])


def _long(T, values):
    return T.tensor(values, dtype=T.int64)


@pytest.mark.parametrize("fn", [
    lambda T, x: x.repeat_interleave(2),
    lambda T, x: T.repeat_interleave(x, 3, dim=1),
    lambda T, x: x.repeat_interleave(2, dim=-2, output_size=4),
    lambda T, x: x.repeat_interleave(0, dim=1),
    lambda T, x: x.repeat_interleave(_long(T, [1, 0, 2]), dim=1),
    lambda T, x: x.repeat_interleave(_long(T, [2, 1]), dim=0, output_size=3),
    lambda T, x: x.repeat_interleave(_long(T, [3])),
    lambda T, x: x.repeat_interleave(T.tensor(2), dim=1),
    lambda T, x: x.repeat_interleave(T.tensor([1, 0, 2, 1, 1, 1], dtype=T.int32)),
    lambda T, x: x[0, 0].repeat_interleave(3),
    lambda T, x: x.long().repeat_interleave(2, dim=0),
    lambda T, x: T.repeat_interleave(input=x, repeats=2, dim=1),
], ids=["int", "int_dim", "output_size", "zero", "tensor_dim", "tensor_output_size", "one_count", "0d_count",
        "int32_flat", "0d_input", "long", "keywords"])
def test_repeat_interleave(fn):
    same(fn, X)


@pytest.mark.parametrize("fn", [
    lambda T, x: T.repeat_interleave(_long(T, [1, 0, 3])),
    lambda T, x: T.repeat_interleave(T.tensor([2, 1], dtype=T.int32)),
    lambda T, x: T.repeat_interleave(_long(T, [2, 1]), output_size=3),
    lambda T, x: T.repeat_interleave(_long(T, [])),
], ids=["long", "int32", "output_size", "empty"])
def test_repeat_interleave_one_argument(fn):
    same(fn, X)


@pytest.mark.parametrize("fn", [
    lambda T, x: x.repeat_interleave(-1),
    lambda T, x: x.repeat_interleave(_long(T, [1, -1, 1]), dim=1),
    lambda T, x: x.repeat_interleave(_long(T, [1, 2]), dim=1),
    lambda T, x: x.repeat_interleave(_long(T, [1, 2])),
    lambda T, x: x.repeat_interleave(T.tensor([1.0, 2.0, 1.0]), dim=1),
    lambda T, x: x.repeat_interleave(_long(T, [[1, 2, 1]]), dim=1),
    lambda T, x: x.repeat_interleave(_long(T, [1, 2]), dim=0, output_size=4),
    lambda T, x: x.repeat_interleave(2, output_size=3),
    lambda T, x: x.repeat_interleave(2, dim=2),
    lambda T, x: T.repeat_interleave(_long(T, [[1, 2]])),
    lambda T, x: T.repeat_interleave(x),
    lambda T, x: x.repeat_interleave(T.tensor([1.0, 2.0]), dim=1),
    lambda T, x: x.repeat_interleave(T.ones(3, 1), dim=1),
    lambda T, x: x.repeat_interleave(T.tensor([True, False]), dim=0),
], ids=["negative", "negative_tensor", "size", "size_flat", "float_repeats", "2d_repeats", "allocated",
        "output_size", "dim", "one_arg_2d", "one_arg_float", "size_before_dtype", "2d_before_dtype", "bool_repeats"])
def test_repeat_interleave_errors(fn):
    same_error(fn, X)


@pytest.mark.parametrize("fn", [
    lambda T, x: x.long().repeat_interleave(),
    lambda T, x: x.repeat_interleave(None),
    lambda T, x: x.repeat_interleave("2"),
    lambda T, x: T.repeat_interleave(x, 2.0),
], ids=["method_without_repeats", "method_none", "str", "float"])
def test_repeat_interleave_argument_types(fn):
    """The method has no one-argument form; repeats is a Tensor or an int (PyTorch's TypeError)."""
    for T in (ftorch, torch):
        with pytest.raises(TypeError):
            fn(T, T.tensor(X))


@pytest.mark.parametrize("fn", [
    lambda T, a, b: T.kron(a, b),
    lambda T, a, b: a.kron(b[0]),
    lambda T, a, b: T.kron(a[0], b),
    lambda T, a, b: T.kron(a[0, 0], b),
    lambda T, a, b: T.kron(a.long(), b),
    lambda T, a, b: T.kron(a.reshape(1, 2, 3), b),
    lambda T, a, b: T.kron(input=a, other=b[:, :1]),
], ids=["2d", "method_1d", "1d_2d", "0d", "long_float", "3d", "keywords"])
def test_kron(fn):
    same(fn, X, np.array([[1.5, -2.0], [0.25, 3.0]]))
