"""Ops under paddle's names and argument names: values, gradients and grad-node names checked
against real paddle (each case runs in both and the results are compared)."""
from __future__ import annotations

import numpy as np
import pytest

A = np.array([[1., -2., 3.], [4., 5., -6.]], dtype=np.float32)
B = np.array([[0.5, 1., -1.], [2., -0.5, 1.5]], dtype=np.float32)

CASES = {
    "add": lambda p, x, y: p.add(x, y),
    "add_scalar": lambda p, x, y: x + 1,
    "rsub_scalar": lambda p, x, y: 1 - x,
    "mul_scalar": lambda p, x, y: 2 * x,
    "subtract": lambda p, x, y: p.subtract(x, y),
    "multiply": lambda p, x, y: p.multiply(x, y),
    "divide": lambda p, x, y: p.divide(x, y),
    "div_scalar": lambda p, x, y: x / 2,
    "pow": lambda p, x, y: p.pow(x, 2.0),
    "scale": lambda p, x, y: p.scale(x, scale=2.0, bias=1.0),
    "scale_before": lambda p, x, y: p.scale(x, scale=2.0, bias=1.0, bias_after_scale=False),
    "neg": lambda p, x, y: -x,
    "matmul": lambda p, x, y: p.matmul(x, y, transpose_y=True),
    "matmul_tx": lambda p, x, y: p.matmul(x, y, transpose_x=True),
    "sum_axis": lambda p, x, y: p.sum(x, axis=1, keepdim=True),
    "sum_axes": lambda p, x, y: x.sum(axis=[0, 1]),
    "mean": lambda p, x, y: p.mean(x, axis=0),
    "max_axis": lambda p, x, y: p.max(x, axis=1),
    "min": lambda p, x, y: x.min(),
    "prod": lambda p, x, y: p.prod(x, axis=1),
    "logsumexp": lambda p, x, y: p.logsumexp(x, axis=1),
    "cumsum": lambda p, x, y: p.cumsum(x, axis=1),
    "std": lambda p, x, y: p.std(x, axis=1),
    "var": lambda p, x, y: x.var(),
    "exp": lambda p, x, y: p.exp(x * 0.1),
    "log": lambda p, x, y: p.log(p.abs(x)),
    "tanh": lambda p, x, y: p.tanh(x),
    "sqrt": lambda p, x, y: p.sqrt(p.abs(x)),
    "square": lambda p, x, y: p.square(x),
    "clip": lambda p, x, y: p.clip(x, min=-1.5, max=2.5),
    "where": lambda p, x, y: p.where(x > 0, x, y),
    "maximum": lambda p, x, y: p.maximum(x, y),
    "reshape": lambda p, x, y: p.reshape(x, [3, 2]),
    "reshape_zero": lambda p, x, y: x.reshape([0, 3, 1]),
    "transpose": lambda p, x, y: p.transpose(x, perm=[1, 0]),
    "t": lambda p, x, y: x.t(),
    "T": lambda p, x, y: x.unsqueeze(0).T,
    "unsqueeze": lambda p, x, y: p.unsqueeze(x, axis=[0, 2]),
    "squeeze": lambda p, x, y: p.squeeze(x.unsqueeze(0), axis=0),
    "flatten": lambda p, x, y: p.flatten(x.unsqueeze(0), start_axis=1),
    "concat": lambda p, x, y: p.concat([x, y], axis=1),
    "stack": lambda p, x, y: p.stack([x, y], axis=1),
    "split": lambda p, x, y: p.split(x, num_or_sections=3, axis=1)[1],
    "split_sections": lambda p, x, y: p.split(x, [1, -1], axis=1)[1],
    "chunk": lambda p, x, y: p.chunk(x, 2, axis=0)[1],
    "unbind": lambda p, x, y: p.unbind(x, axis=1)[2],
    "expand": lambda p, x, y: p.expand(x.unsqueeze(0), [2, 2, 3]),
    "tile": lambda p, x, y: p.tile(x, [2, 1]),
    "flip": lambda p, x, y: p.flip(x, axis=[0]),
    "gather": lambda p, x, y: p.gather(x, p.to_tensor([1, 0, 1]), axis=0),
    "index_select": lambda p, x, y: p.index_select(x, p.to_tensor([2, 0]), axis=1),
    "take_along_axis": lambda p, x, y: p.take_along_axis(x, p.to_tensor([[0], [2]]), axis=1),
    "getitem": lambda p, x, y: x[1, 1:],
    "sort": lambda p, x, y: p.sort(x, axis=1, descending=True),
    "topk": lambda p, x, y: p.topk(x, k=2, axis=1)[0],
    "softmax": lambda p, x, y: p.nn.functional.softmax(x, axis=0),
    "log_softmax": lambda p, x, y: p.nn.functional.log_softmax(x),
    "relu": lambda p, x, y: p.nn.functional.relu(x),
    "leaky_relu": lambda p, x, y: p.nn.functional.leaky_relu(x, negative_slope=0.2),
    "gelu": lambda p, x, y: p.nn.functional.gelu(x),
    "sigmoid": lambda p, x, y: p.nn.functional.sigmoid(x),
    "linear": lambda p, x, y: p.nn.functional.linear(x, p.transpose(y, [1, 0]), p.to_tensor([1., 2.])),
    "mse_loss": lambda p, x, y: p.nn.functional.mse_loss(x, y),
    "l1_loss": lambda p, x, y: p.nn.functional.l1_loss(x, y, reduction="sum"),
    "cross_entropy": lambda p, x, y: p.nn.functional.cross_entropy(x, p.to_tensor([2, 0])),
    "cross_entropy_n1": lambda p, x, y: p.nn.functional.cross_entropy(x, p.to_tensor([[2], [0]]), reduction="none"),
    "cross_entropy_soft": lambda p, x, y: p.nn.functional.cross_entropy(x, p.nn.functional.softmax(y),
                                                                        soft_label=True),
    "cross_entropy_ignore": lambda p, x, y: p.nn.functional.cross_entropy(x, p.to_tensor([2, 1]), ignore_index=1),
    "bce_logits": lambda p, x, y: p.nn.functional.binary_cross_entropy_with_logits(x, p.nn.functional.sigmoid(y)),
    "smooth_l1": lambda p, x, y: p.nn.functional.smooth_l1_loss(x, y, delta=0.5),
    "astype": lambda p, x, y: x.astype("float64") * 2,
    "einsum": lambda p, x, y: p.einsum("ij,kj->ik", x, y),
}


def _run(paddle, fn):
    x = paddle.to_tensor(A, stop_gradient=False)
    y = paddle.to_tensor(B, stop_gradient=False)
    out = fn(paddle, x, y)
    out.backward()
    name = out.grad_fn.name() if out.grad_fn is not None else None
    grads = [None if t.grad is None else t.grad.numpy() for t in (x, y)]
    return out.numpy(), out.dtype, grads, name


@pytest.mark.parametrize("case", sorted(CASES))
def test_op_matches_real_paddle(fpaddle, real_paddle, case):
    got = _run(fpaddle, CASES[case])
    want = _run(real_paddle, CASES[case])
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-6)
    assert str(got[1]) == str(want[1])
    for g, w in zip(got[2], want[2]):
        assert (g is None) == (w is None)
        if g is not None:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


# grad nodes whose paddle names flowgrad reproduces (used in messages and graph dumps)
NAMED = ["add", "add_scalar", "rsub_scalar", "mul_scalar", "subtract", "multiply", "divide", "pow", "scale", "neg",
         "matmul", "sum_axis", "mean", "exp", "log", "tanh", "sqrt", "clip", "where", "maximum", "reshape",
         "transpose", "concat", "stack", "expand", "flip", "relu", "sigmoid", "softmax", "log_softmax", "astype"]


@pytest.mark.parametrize("case", NAMED)
def test_grad_node_names_match_real_paddle(fpaddle, real_paddle, case):
    assert _run(fpaddle, CASES[case])[3] == _run(real_paddle, CASES[case])[3]


def test_integer_scalar_arithmetic_keeps_int_dtype(paddle):
    i = paddle.to_tensor([1, 2], stop_gradient=False)
    assert (i * 2).dtype == paddle.int64 and (i + 1).dtype == paddle.int64
    assert (i * 2.5).dtype == paddle.float32


def test_creation_functions(paddle):
    assert paddle.ones([2, 3], dtype="int32").dtype == paddle.int32
    assert paddle.zeros([2]).tolist() == [0., 0.]
    assert paddle.full([2], 7, dtype="int64").tolist() == [7, 7]
    assert paddle.arange(0, 5, 2).tolist() == [0, 2, 4]
    assert paddle.linspace(0, 1, 3).tolist() == [0., 0.5, 1.]
    assert paddle.eye(2).tolist() == [[1., 0.], [0., 1.]]
    assert paddle.ones_like(paddle.zeros([2], dtype="float64")).dtype == paddle.float64
    assert paddle.full_like(paddle.zeros([2]), 3.).tolist() == [3., 3.]
    assert paddle.rand([2, 3]).shape == [2, 3] and paddle.randn([4]).dtype == paddle.float32
    r = paddle.randint(0, 5, [10])
    assert r.dtype == paddle.int64 and 0 <= r.min().item() and r.max().item() < 5
    assert sorted(paddle.randperm(5).tolist()) == [0, 1, 2, 3, 4]
    u = paddle.uniform([100], min=-2., max=-1.)
    assert -2. <= u.min().item() and u.max().item() <= -1.


def test_seed_makes_random_numbers_repeatable(paddle):
    paddle.seed(7)
    a = paddle.randn([3]).tolist()
    paddle.seed(7)
    assert paddle.randn([3]).tolist() == a


def test_comparisons_and_reductions_to_bool(paddle):
    x = paddle.to_tensor([1., 2., 3.])
    assert paddle.equal(x, x).tolist() == [True, True, True]
    assert paddle.equal_all(x, x).item() is True
    assert paddle.allclose(x, x + 1e-9).item() is True
    assert paddle.less_than(x, paddle.to_tensor([2., 2., 2.])).tolist() == [True, False, False]
    assert paddle.argmax(x).item() == 2 and paddle.argmax(x).dtype == paddle.int64
    assert paddle.numel(x).item() == 3


def test_arithmetic_on_shapes_that_do_not_broadcast_raises_paddles_error(paddle):
    import re
    with pytest.raises(ValueError, match=re.escape(
            "(InvalidArgument) Broadcast dimension mismatch. Operands could not be broadcast together with the shape "
            "of X = [2, 3] and the shape of Y = [4, 1, 2]. Received [3] in X is not equal to [2] in Y at i:2.")):
        paddle.zeros([2, 3]) + paddle.ones([4, 1, 2])
