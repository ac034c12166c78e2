"""flow.autograd.Function: `apply` on the class or an instance, the instance called, forward under
no_grad, ctx.save_for_backward / saved_tensors / mark_non_differentiable / attributes, and OneFlow's
rules and messages for what backward returns."""
from __future__ import annotations

import pytest

from same_program import alike, make_function


def _exp_forward(ctx, x):
    y = x.exp()
    ctx.save_for_backward(y)
    ctx.scale = 2.0
    ctx.grad_mode = x.requires_grad and (x * 1).requires_grad
    return y


def _exp_backward(ctx, g):
    assert type(ctx.saved_tensors) is tuple
    (y,) = ctx.saved_tensors
    return g * y * ctx.scale


def test_the_three_call_forms(flow):
    MyExp = make_function(flow, "MyExp", _exp_forward, _exp_backward)
    for call in (MyExp.apply, MyExp().apply, MyExp()):
        x = flow.tensor([0., 1.], requires_grad=True)
        y = call(x)
        assert y.grad_fn.name() == "MyExpBackward" and y.grad_fn.grad_mode is False   # forward ran under no_grad
        y.sum().backward()
        assert [round(v, 5) for v in x.grad.tolist()] == [2.0, 5.43656]


def test_a_node_is_recorded_only_when_needed(flow):
    MyExp = make_function(flow, "MyExp", _exp_forward, _exp_backward)
    y = MyExp.apply(flow.ones(2))
    assert y.grad_fn is None and not y.requires_grad and y.is_leaf
    with flow.no_grad():
        assert MyExp.apply(flow.ones(2, requires_grad=True)).grad_fn is None


def test_a_node_that_saved_tensors_is_released_one_that_did_not_runs_again(flow):
    x = flow.tensor([0.], requires_grad=True)
    y = make_function(flow, "MyExp", _exp_forward, _exp_backward).apply(x)
    y.backward(flow.ones(1))
    with pytest.raises(RuntimeError, match="^This FunctionNode with name `MyExpBackward` has been released"):
        y.backward(flow.ones(1))
    y = make_function(flow, "Twice", lambda ctx, t: t * 2, lambda ctx, g: g * 2).apply(x)
    y.backward(flow.ones(1))
    y.backward(flow.ones(1))
    assert x.grad.tolist() == [6.]


def test_wrong_number_of_gradients_names_the_bare_class(flow):
    two_in = make_function(flow, "TwoIn", lambda ctx, a, b: a * b, lambda ctx, g: g)
    a, b = flow.ones(2, requires_grad=True), flow.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        two_in.apply(a, b).sum().backward()
    assert str(e.value) == "RuntimeError: function TwoIn returned an incorrect number of gradients (expected 2, got 1)"


def test_none_for_an_input_that_requires_grad_is_an_error(flow):
    none_grad = make_function(flow, "NoneGrad", lambda ctx, a, b: a + b, lambda ctx, g: (None, g))
    a, b, c = flow.ones(2, requires_grad=True), flow.ones(2, requires_grad=True), flow.ones(2)
    with pytest.raises(RuntimeError) as e:
        none_grad.apply(a, b).sum().backward()
    assert str(e.value) == ("autograd.Function named NoneGrad's inputs[0] requires grad but got None grad. Please use "
                            "Tensor.detach() for this input.")
    none_grad.apply(c, b).sum().backward()                 # ignored where the input needs no grad
    assert b.grad.tolist() == [1., 1.] and c.grad is None


def test_apply_takes_tensors_or_none(flow):
    scale = make_function(flow, "Scale", lambda ctx, a, k: a * 2, lambda ctx, g: (g * 2, None))
    a = flow.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        scale.apply(a, 2.0)
    assert str(e.value) == "expected Tensor or None as element 1, but got <class 'float'>"
    scale.apply(a, None).sum().backward()
    assert a.grad.tolist() == [2., 2.]


def test_lists_are_refused(flow):
    a = flow.ones(2, requires_grad=True)
    msg = "^autograd.Function's output only support tensor or list of tensors$"
    with pytest.raises(RuntimeError, match=msg):
        make_function(flow, "ListOut", lambda ctx, t: [t * 1], lambda ctx, g: g).apply(a)
    with pytest.raises(RuntimeError, match=msg):
        make_function(flow, "ListGrad", lambda ctx, t: t * 1, lambda ctx, g: [g]).apply(a).sum().backward()
    assert a.grad is None


def test_save_for_backward_takes_tensors_only(flow):
    save_num = make_function(flow, "SaveNum", lambda ctx, t: ctx.save_for_backward(t, 3) or t * 1, lambda ctx, g: g)
    with pytest.raises(TypeError) as e:
        save_num.apply(flow.ones(2, requires_grad=True))
    assert str(e.value) == "save_for_backward() only support Tensor or Tensors"


def test_non_differentiable_outputs_get_none_others_zeros(flow):
    received = []

    def forward(ctx, a):
        idx = (a > 0).float()
        ctx.mark_non_differentiable(idx)
        return a * 2, idx, a * 3

    def backward(ctx, g, g_idx, g3):
        received.append((g.tolist(), g_idx, g3.tolist()))
        return g * 2 + g3 * 3
    a = flow.tensor([1., -1.], requires_grad=True)
    out, idx, _ = make_function(flow, "Two", forward, backward).apply(a)
    assert not idx.requires_grad and idx.grad_fn is None
    out.sum().backward()
    assert received == [([1., 1.], None, [0., 0.])]         # PyTorch passes zeros for idx
    assert a.grad.tolist() == [2., 2.]


def test_same_values_and_grads_as_pytorch():
    def program(fw, x):
        def forward(ctx, t):
            ctx.save_for_backward(t)
            return t ** 3
        cube = make_function(fw, "Cube", forward, lambda ctx, g: 3 * ctx.saved_tensors[0] ** 2 * g)
        return cube.apply(x) + x
    alike(program, [1., -2., 0.5])


def test_none_inputs_and_what_backward_returns_for_them(flow):
    fn = make_function(flow, "WithNone", lambda ctx, a, b: a * 3, lambda ctx, g: (g * 3, flow.ones(2)))
    a = flow.ones(2, requires_grad=True)
    fn.apply(a, None).sum().backward()                       # the gradient for the None input is ignored
    assert a.grad.tolist() == [3., 3.]
