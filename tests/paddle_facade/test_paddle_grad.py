"""paddle.grad (reference §3.3, §1.5)."""
from __future__ import annotations

import re

import pytest

from paddle_isolation import HAVE_PADDLE, run_isolated


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def test_grad_returns_a_list_even_for_one_input(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    res = paddle.grad((x * x).sum(), x)
    assert type(res) is list
    assert res[0].tolist() == [2., 4.]


def test_grad_leaves_grad_fields_alone(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    paddle.grad((x * x).sum(), [x])
    assert x.grad is None


def test_grad_result_flags_without_create_graph(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    (g,) = paddle.grad((x * x).sum(), [x])
    assert g.stop_gradient is True
    assert g.is_leaf is True


def test_grad_implicit_ones_for_non_scalar_output(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    (g,) = paddle.grad(x * x, [x])
    assert g.tolist() == [2., 4.]


@pytest.mark.parametrize("seeds, expected", [(None, 7.), ([None, 4.], 16.), ([4., None], 19.), ([3., 4.], 24.)])
def test_grad_docstring_grad_outputs(paddle, seeds, expected):
    x = paddle.to_tensor(2.0, stop_gradient=False)
    y1, y2 = x * x, x * 3
    grad_outputs = None if seeds is None else [None if s is None else paddle.to_tensor(s) for s in seeds]
    (dx,) = paddle.grad([y1, y2], [x], grad_outputs)
    assert dx.item() == expected


def test_grad_does_not_free_the_graph(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    w = paddle.to_tensor([3., 4.], stop_gradient=False)
    y = (x * w).sum()
    for _ in range(3):
        gx, gw = paddle.grad(y, [x, w])
        assert gx.tolist() == [3., 4.] and gw.tolist() == [1., 2.]
    y.backward()
    assert x.grad.tolist() == [3., 4.]


def test_grad_after_consuming_backward_raises(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(SystemError, match="TensorWrappers of SumGradNode do not exist"):
        paddle.grad(y, [x])


def test_grad_create_graph_second_and_third_order(paddle):
    x = paddle.to_tensor(3., stop_gradient=False)
    y = x ** 3
    (d1,) = paddle.grad(y, x, create_graph=True)
    assert d1.item() == 27. and d1.stop_gradient is False and d1.is_leaf is False
    (d2,) = paddle.grad(d1, x, create_graph=True)
    assert d2.item() == 18.
    (d3,) = paddle.grad(d2, x)
    assert d3.item() == 6.
    d1.backward()
    assert x.grad.item() == 18.


def test_double_grad_matmul_upstream_expectations(paddle):
    x = paddle.to_tensor([[1., 2.]], stop_gradient=False)
    w = paddle.to_tensor([[1.], [1.]], stop_gradient=False)
    y = paddle.matmul(x, w)
    gout = paddle.to_tensor([[2.]], stop_gradient=False)
    (dx,) = paddle.grad(y, x, gout, create_graph=True)
    (dx * 3).sum().backward()
    assert gout.grad.item() == 6.
    assert w.grad.tolist() == [[6.], [6.]]
    # (real paddle also gives x, which the grad graph does not depend on, a zeros .grad; flowgrad leaves None)


@pytest.mark.parametrize("which", ["unreachable", "stop_gradient"])
def test_unused_input_raises(paddle, which):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    other = paddle.to_tensor([1.], stop_gradient=which == "stop_gradient")
    msg = ("(InvalidArgument) The 1-th input does not appear in the backward graph. Please check the input tensor or "
           "set allow_unused=True to get None result.")
    with pytest.raises(ValueError, match="^" + re.escape(msg)):
        paddle.grad((x * 2).sum(), [x, other])


def test_allow_unused_gives_none(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    other = paddle.to_tensor([1.], stop_gradient=False)
    gx, go = paddle.grad((x * 2).sum(), [x, other], allow_unused=True)
    assert gx.tolist() == [2., 2.] and go is None


def test_stop_gradient_output_counts_as_unused_input(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    c = paddle.to_tensor([1., 2.]) * 2
    with pytest.raises(ValueError, match="The 0-th input does not appear in the backward graph"):
        paddle.grad([c], [x])
    assert paddle.grad([c], [x], allow_unused=True) == [None]


def test_outputs_may_include_the_inputs(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    assert paddle.grad([x], [x])[0].tolist() == [1., 1.]
    assert paddle.grad([x + 1, x], [x])[0].tolist() == [2., 2.]
    y = x * 2
    assert paddle.grad([x], [y], allow_unused=True) == [None]
    assert paddle.grad([x, y], [y])[0].tolist() == [1., 1.]


def test_non_leaf_input_stops_propagation(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    h = x * 3
    (g,) = paddle.grad((h * h).sum(), [h])
    assert g.tolist() == [6., 12.]
    assert x.grad is None


@pytest.mark.parametrize("container", [lambda h: h, lambda h: [h], lambda h: (h,), lambda h: {h}])
def test_no_grad_vars_are_cut_points(paddle, container):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    h = x * 3
    y = (h * x).sum()
    assert paddle.grad(y, [x])[0].tolist() == [6., 12.]
    assert paddle.grad(y, [x], no_grad_vars=container(h))[0].tolist() == [3., 6.]


def test_intermediate_hook_applies_in_grad_leaf_hook_does_not(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    x.register_hook(lambda g: g * 100)
    assert paddle.grad((x * 3).sum(), [x])[0].tolist() == [3., 3.]
    h = x * 3
    h.register_hook(lambda g: g * 100)
    assert paddle.grad(h.sum(), [x])[0].tolist() == [300., 300.]


def test_retained_intermediate_grad_is_set_by_grad(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = x * 2
    y.retain_grads()
    paddle.grad((y * y).sum(), [x])
    assert y.grad.tolist() == [4., 8.]


def test_duplicate_inputs_raise(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    msg = (f"(AlreadyExists) inputs contain duplicate tensor {x.name}, please check inputs carefully.\n  [Hint: "
           "Expected visited_ins.count(auto_grad_meta) == 0, but received visited_ins.count(auto_grad_meta):1 != 0:0.] "
           "(at /paddle/paddle/fluid/eager/backward.cc:220)\n")
    with pytest.raises(RuntimeError, match=exact(msg)):
        paddle.grad((x * 2).sum(), [x, x])


def test_duplicate_outputs_raise_with_empty_name(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    w = x * 2
    with pytest.raises(RuntimeError, match=re.escape("(AlreadyExists) outputs contain duplicate tensor , please "
                                                     "check outputs carefully.")):
        paddle.grad([w, w], [x])


@pytest.mark.parametrize("kwargs, msg", [
    (dict(outputs=None), "outputs should not be None"),
    (dict(outputs=[]), "outputs cannot be empty"),
    (dict(inputs=[1.0]), "Elements of inputs must be Tensor"),
    (dict(outputs=1.0), "outputs must be Tensor or list of Tensor"),
    (dict(grad_outputs=[1.0]), "grad_outputs must be None, a Variable or a list containing None or Variables"),
    (dict(grad_outputs=[None, None]), "The length of grad_outputs must be equal to outputs"),
    (dict(no_grad_vars=[1.0]), "no_grad_vars can only contains Tensor"),
    (dict(no_grad_vars=1.0), "no_grad_vars must be None, Tensor or list/tuple/set of Tensors"),
    (dict(create_graph=1), "create_graph must be True or False"),
    (dict(retain_graph=1), "retain_graph must be None, True or False"),
    (dict(allow_unused=1), "allow_unused must be True or False"),
    (dict(only_inputs=False), "only_inputs=False is not supported yet"),
], ids=lambda v: str(v)[:30])
def test_grad_argument_assertions(paddle, kwargs, msg):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    args = dict(outputs=[(x * 2).sum()], inputs=[x])
    args.update(kwargs)
    with pytest.raises(AssertionError, match=exact(msg)):
        paddle.grad(**args)


def test_facade_rejects_input_listed_in_no_grad_vars(fpaddle):
    x = fpaddle.to_tensor([1., 2.], stop_gradient=False)
    with pytest.raises(ValueError, match=re.escape("(InvalidArgument) The 0-th input is also in no_grad_vars")):
        fpaddle.grad((x * 2).sum(), [x], no_grad_vars=[x])


def test_facade_rejects_grad_output_of_other_shape(fpaddle):
    x = fpaddle.to_tensor([1., 2.], stop_gradient=False)
    with pytest.raises(ValueError, match=re.escape("The shape of the 0-th initial gradient paddle.Size([3])")):
        fpaddle.grad([x * 2], [x], [fpaddle.ones([3])])


@pytest.mark.skipif(not HAVE_PADDLE, reason="real paddle is not installed")
def test_real_paddle_crashes_on_input_in_no_grad_vars():
    res = run_isolated("""
        x = paddle.to_tensor([1., 2.], stop_gradient=False)
        y = (x * 2).sum()
        paddle.grad(y, [x], no_grad_vars=[x])
    """)
    assert res.returncode != 0
