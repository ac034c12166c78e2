"""flow.autograd.Function: `apply` on the class or an instance, the instance called, forward under
no_grad, ctx.save_for_backward / saved_tensors / mark_non_differentiable / attributes, and OneFlow's
rules and messages for what backward returns."""
from __future__ import annotations

import pytest

from same_program import alike


def _exp(flow):
    class MyExp(flow.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            ctx.scale = 2.0
            ctx.grad_mode = flow.is_grad_enabled()
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            assert type(ctx.saved_tensors) is tuple
            return g * y * ctx.scale
    return MyExp


def test_the_three_call_forms(flow):
    MyExp = _exp(flow)
    for call in (MyExp.apply, MyExp().apply, MyExp()):
        x = flow.tensor([0., 1.], requires_grad=True)
        y = call(x)
        assert y.grad_fn.name() == "MyExpBackward" and y.grad_fn.grad_mode is False
        y.sum().backward()
        assert [round(v, 5) for v in x.grad.tolist()] == [2.0, 5.43656]


def test_a_node_is_recorded_only_when_needed(flow):
    MyExp = _exp(flow)
    y = MyExp.apply(flow.ones(2))
    assert y.grad_fn is None and not y.requires_grad and y.is_leaf
    with flow.no_grad():
        y = MyExp.apply(flow.ones(2, requires_grad=True))
    assert y.grad_fn is None


def test_a_node_that_saved_tensors_is_released_one_that_did_not_runs_again(flow):
    MyExp = _exp(flow)
    x = flow.tensor([0.], requires_grad=True)
    y = MyExp.apply(x)
    y.backward(flow.ones(1))
    with pytest.raises(RuntimeError, match="^This FunctionNode with name `MyExpBackward` has been released"):
        y.backward(flow.ones(1))

    class Twice(flow.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2
    y = Twice.apply(x)
    y.backward(flow.ones(1))
    y.backward(flow.ones(1))
    assert x.grad.tolist() == [6.]


def test_wrong_number_of_gradients_names_the_bare_class(flow):
    class TwoIn(flow.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g
    a, b = flow.ones(2, requires_grad=True), flow.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        TwoIn.apply(a, b).sum().backward()
    assert str(e.value) == "RuntimeError: function TwoIn returned an incorrect number of gradients (expected 2, got 1)"


def test_none_for_an_input_that_requires_grad_is_an_error(flow):
    class NoneGrad(flow.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a + b

        @staticmethod
        def backward(ctx, g):
            return None, g
    a, b, c = flow.ones(2, requires_grad=True), flow.ones(2, requires_grad=True), flow.ones(2)
    with pytest.raises(RuntimeError) as e:
        NoneGrad.apply(a, b).sum().backward()
    assert str(e.value) == ("autograd.Function named NoneGrad's inputs[0] requires grad but got None grad. Please use "
                            "Tensor.detach() for this input.")
    NoneGrad.apply(c, b).sum().backward()                  # ignored where the input needs no grad
    assert b.grad.tolist() == [1., 1.] and c.grad is None


def test_apply_takes_tensors_or_none(flow):
    class Scale(flow.autograd.Function):
        @staticmethod
        def forward(ctx, a, k):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, None
    a = flow.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        Scale.apply(a, 2.0)
    assert str(e.value) == "expected Tensor or None as element 1, but got <class 'float'>"
    Scale.apply(a, None).sum().backward()
    assert a.grad.tolist() == [2., 2.]


def test_lists_are_refused(flow):
    class ListOut(flow.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return [a * 1]

        @staticmethod
        def backward(ctx, g):
            return g

    class ListGrad(flow.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1

        @staticmethod
        def backward(ctx, g):
            return [g]
    a = flow.ones(2, requires_grad=True)
    msg = "autograd.Function's output only support tensor or list of tensors"
    with pytest.raises(RuntimeError, match=f"^{msg}$"):
        ListOut.apply(a)
    with pytest.raises(RuntimeError, match=f"^{msg}$"):
        ListGrad.apply(a).sum().backward()


def test_save_for_backward_takes_tensors_only(flow):
    class SaveNum(flow.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a, 3)
            return a * 1

        @staticmethod
        def backward(ctx, g):
            return g
    with pytest.raises(TypeError) as e:
        SaveNum.apply(flow.ones(2, requires_grad=True))
    assert str(e.value) == "save_for_backward() only support Tensor or Tensors"


def test_non_differentiable_outputs_get_none_others_zeros(flow):
    received = []

    class Two(flow.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            idx = (a > 0).float()
            ctx.mark_non_differentiable(idx)
            return a * 2, idx, a * 3

        @staticmethod
        def backward(ctx, g, g_idx, g3):
            received.append((g.tolist(), g_idx, g3.tolist()))
            return g * 2 + g3 * 3
    a = flow.tensor([1., -1.], requires_grad=True)
    out, idx, _ = Two.apply(a)
    assert not idx.requires_grad and idx.grad_fn is None
    out.sum().backward()
    assert received == [([1., 1.], None, [0., 0.])]         # PyTorch passes zeros for idx
    assert a.grad.tolist() == [2., 2.]


def test_same_values_and_grads_as_pytorch():
    def program(fw, x):
        class Cube(fw.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                ctx.save_for_backward(t)
                return t ** 3

            @staticmethod
            def backward(ctx, g):
                (t,) = ctx.saved_tensors
                return 3 * t ** 2 * g
        return Cube.apply(x) + x
    alike(program, [1., -2., 0.5])
