"""paddle.autograd.jacobian / hessian (reference §3.6)."""
from __future__ import annotations

import re

import numpy as np
import pytest


def test_jacobian_is_lazy_with_list_shape(paddle):
    x = paddle.to_tensor([1., 2., 3.], stop_gradient=False)
    J = paddle.autograd.jacobian(x * x, x)
    assert type(J).__name__ == "Jacobian" and J.shape == [3, 3]
    np.testing.assert_allclose(J[:].numpy(), np.diag([2., 4., 6.]))
    assert J[1].tolist() == [0., 4., 0.]
    assert J[:, 1].tolist() == [0., 4., 0.]
    assert J[1, 1].item() == 4.
    assert x.grad is None


def test_jacobian_arithmetic_materialises(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    J = paddle.autograd.jacobian(x * 3, x)
    assert (J + 1).tolist() == [[4., 1.], [1., 4.]]
    assert (J == 3).tolist() == [[True, False], [False, True]]


def test_jacobian_result_is_differentiable(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    J = paddle.autograd.jacobian(x * x, x)
    assert J[:].stop_gradient is False


def test_jacobian_unused_input_gives_zeros(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    u = paddle.to_tensor([5.], stop_gradient=False)
    J = paddle.autograd.jacobian(x * 2, u)
    assert J[:].tolist() == [[0.], [0.]]


def test_jacobian_nesting(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = paddle.to_tensor([3.], stop_gradient=False)
    one = paddle.autograd.jacobian(x * y, (x, y))
    assert isinstance(one, tuple) and [j.shape for j in one] == [[2, 2], [2, 1]]
    both = paddle.autograd.jacobian((x * y, x.sum()), (x, y))
    assert [[j.shape for j in row] for row in both] == [[[2, 2], [2, 1]], [[2], [1]]]


def test_batched_jacobian(paddle):
    x = paddle.to_tensor([[1., 2.], [3., 4.], [5., 6.]], stop_gradient=False)
    J = paddle.autograd.jacobian(x * x, x, batch_axis=0)
    assert J.shape == [3, 2, 2]
    np.testing.assert_allclose(J[:].numpy()[1], np.diag([6., 8.]))


@pytest.mark.parametrize("call, exc, msg", [
    (lambda p, x: p.autograd.jacobian(x.reshape([2, 2]) * 2, x.reshape([2, 2])), ValueError,
     "xs.ndim should be 0 or 1 when is_batched=False but got 2"),
    (lambda p, x: p.autograd.jacobian(x * 2, x, batch_axis=1), ValueError, "batch_axis should be None or 0, but got 1."),
    (lambda p, x: p.autograd.jacobian(x * 2, x)[..., 0], IndexError, "Ellipsis index currently is not supported."),
    (lambda p, x: p.autograd.jacobian(x.sum(), x.sum())[0], IndexError, "0-D tensor can not be indexed."),
    (lambda p, x: p.autograd.hessian(x * 2, x), ValueError, "Only support ys.numel()(4)==1 when batch_axis is None."),
    (lambda p, x: p.autograd.jacobian(x * 2, x)[5], IndexError, "(OutOfRange) The starting index 5 of slice is out of "
     "bounds in tensor 0-th axis, it should be in the range of [-4, 4). (at /paddle/paddle/fluid/pybind/"
     "slice_utils.h:405)\n"),
], ids=["ndim", "batch_axis", "ellipsis", "0d", "hessian_numel", "out_of_range"])
def test_jacobian_errors(paddle, call, exc, msg):
    x = paddle.to_tensor([1., 2., 3., 4.], stop_gradient=False)
    with pytest.raises(exc, match="^" + re.escape(msg) + "$"):
        call(paddle, x)


def test_hessian_of_cubic_sum(paddle):
    x = paddle.to_tensor([1., 2., 3.], stop_gradient=False)
    H = paddle.autograd.hessian((x ** 3).sum(), x)
    assert type(H).__name__ == "Hessian" and H.shape == [3, 3]
    np.testing.assert_allclose(H[:].numpy(), np.diag([6., 12., 18.]))


def test_hessian_blocks_for_tuple_inputs(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = paddle.to_tensor([3.], stop_gradient=False)
    H = paddle.autograd.hessian((x * x).sum() * y.sum(), (x, y))
    assert [[h.shape for h in row] for row in H] == [[[2, 2], [2, 1]], [[1, 2], [1, 1]]]
    np.testing.assert_allclose(H[0][1][:].numpy(), [[2.], [4.]])
