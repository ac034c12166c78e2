"""Tensor.register_hook and retain_grads (reference §3.4)."""
from __future__ import annotations

import re

import pytest

from paddle_isolation import HAVE_PADDLE, run_isolated


def test_hook_on_stop_gradient_tensor_raises(paddle):
    with pytest.raises(RuntimeError, match="^" + re.escape("Cannot register hook on a tensor that stop gradient.") +
                       "$"):
        paddle.ones([2]).register_hook(lambda g: g)


def test_remove_returns_true_then_false(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    helper = x.register_hook(lambda g: g * 2)
    assert type(helper).__name__ == "TensorHookRemoveHelper"
    assert helper.remove() is True
    with pytest.warns(RuntimeWarning, match="does not exist or has been removed"):
        assert helper.remove() is False
    (x * 1).sum().backward()
    assert x.grad.tolist() == [1., 1.]


def test_hooks_chain_in_registration_order(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = x * 3
    y.register_hook(lambda g: g + 1)
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert x.grad.tolist() == [60., 60.]  # ((1 + 1) * 10) * 3


def test_hook_returning_none_keeps_the_gradient(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    seen = []
    y = x * 2
    y.register_hook(lambda g: seen.append(g.tolist()))
    (y * 3).sum().backward()
    assert seen == [[3., 3.]] and x.grad.tolist() == [6., 6.]


def test_hook_runs_once_with_the_summed_gradient(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    calls = []
    y = x * 2
    y.register_hook(lambda g: calls.append(g.tolist()))
    (y * 1 + y * 2).sum().backward()
    assert calls == [[3., 3.]]


def test_leaf_hook_changes_what_accumulates(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    x.register_hook(lambda g: g * 2)
    (x * x).sum().backward()
    assert x.grad.tolist() == [4., 8.]


def test_facade_rejects_hook_changing_the_shape(fpaddle):
    x = fpaddle.to_tensor([1., 2.], stop_gradient=False)
    x.register_hook(lambda g: fpaddle.ones([5]))
    with pytest.raises(ValueError, match=re.escape("(InvalidArgument) The hook '<lambda>' changed the shape of the "
                                                   "gradient it was given.")):
        (x * 2).sum().backward()


def test_real_paddle_lets_a_hook_change_the_shape_silently(real_paddle):
    x = real_paddle.to_tensor([1., 2.], stop_gradient=False)
    x.register_hook(lambda g: real_paddle.ones([5]))
    (x * 2).sum().backward()
    assert x.grad.shape == [5]


def test_exception_in_hook_becomes_oserror_and_backward_still_works(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    q = x * 5

    def bad(g):
        raise ValueError("boom from hook")
    q.register_hook(bad)
    with pytest.raises(OSError, match="^" + re.escape("(External) ValueError: boom from hook\n\nAt:\n")) as info:
        q.sum().backward()
    assert "[Hint: res should not be null.]" in str(info.value)
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2., 2.]


def test_retain_grads_overwrites_on_each_backward(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = x * 2
    y.retain_grads()
    z = (y * y).sum()
    z.backward(retain_graph=True)
    z.backward()
    assert y.grad.tolist() == [4., 8.]
    assert y.grad.stop_gradient is False
    assert x.grad.tolist() == [16., 32.]


def test_retain_grads_on_leaf_and_constant_is_a_no_op(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    assert x.retain_grads() is None
    paddle.ones([2]).retain_grads()


def test_retain_then_hook_sees_the_pre_hook_value(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = x * 2
    y.retain_grads()
    y.register_hook(lambda g: g * 10)
    (y * y).sum().backward()
    assert y.grad.tolist() == [4., 8.]


def test_hook_then_retain_sees_the_post_hook_value(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = x * 2
    y.register_hook(lambda g: g * 10)
    y.retain_grads()
    (y * y).sum().backward()
    assert y.grad.tolist() == [40., 80.]


def test_facade_rejects_hook_returning_a_float(fpaddle):
    x = fpaddle.to_tensor([1., 2.], stop_gradient=False)
    x.register_hook(lambda g: 5.0)
    with pytest.raises(TypeError, match=re.escape("must return a paddle.Tensor or None, but it returned 'float'")):
        (x * 2).sum().backward()


@pytest.mark.skipif(not HAVE_PADDLE, reason="real paddle is not installed")
def test_real_paddle_crashes_on_hook_returning_a_float():
    res = run_isolated("""
        x = paddle.to_tensor([1., 2.], stop_gradient=False)
        x.register_hook(lambda g: 5.0)
        (x * 2).sum().backward()
    """)
    assert res.returncode != 0


def test_hooks_run_under_the_callers_grad_mode(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    h = x * 1.
    modes = []
    h.register_hook(lambda g: modes.append(paddle.is_grad_enabled()))
    paddle.grad((h * h).sum(), [x], retain_graph=True)
    paddle.grad((h * h).sum(), [x], create_graph=True)
    with paddle.no_grad():
        (h * 1.).sum()  # nothing recorded here; the next pass runs from an earlier graph
    z = (h * h).sum()
    with paddle.no_grad():
        paddle.grad(z, [x], retain_graph=True)
    assert modes == [True, True, False]
