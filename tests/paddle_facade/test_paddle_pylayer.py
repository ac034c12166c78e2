"""paddle.autograd.PyLayer (reference §3.5)."""
from __future__ import annotations

import re

import pytest

from paddle_isolation import HAVE_PADDLE, run_isolated


def _layers(paddle):
    PyLayer = paddle.autograd.PyLayer

    class Sq(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.fwd_grad = paddle.is_grad_enabled()
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensor()
            return 2 * x * g

    return Sq


def test_function_is_pylayer(paddle):
    assert paddle.autograd.Function is paddle.autograd.PyLayer


def test_forward_and_backward(paddle):
    Sq = _layers(paddle)
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = Sq.apply(x)
    assert y.stop_gradient is False
    assert y.grad_fn.name() == "GradNodePyLayer_Sq"
    y.sum().backward()
    assert x.grad.tolist() == [2., 4.]


def test_forward_runs_without_grad_and_backward_too(paddle):
    seen = {}

    class Probe(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            seen["fwd"] = paddle.is_grad_enabled()
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen["bwd"] = paddle.is_grad_enabled()
            return g * 2

    x = paddle.to_tensor([1.], stop_gradient=False)
    Probe.apply(x).sum().backward()
    assert seen == {"fwd": False, "bwd": False}


def test_saved_tensor_is_none_when_nothing_saved_and_stores_anything(paddle):
    got = {}

    class Keep(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            got["empty"] = ctx.saved_tensor()
            ctx.save_for_backward(x)
            ctx.save_for_backward(x, 3, None)
            ctx.k = 3
            return x * 2

        @staticmethod
        def backward(ctx, g):
            got["saved"] = ctx.saved_tensor()[1:]
            got["k"] = ctx.k
            return g * 2

    x = paddle.to_tensor([1.], stop_gradient=False)
    Keep.apply(x).sum().backward()
    assert got == {"empty": None, "saved": (3, None), "k": 3}


def test_second_order_through_pylayer(paddle):
    Sq = _layers(paddle)
    x = paddle.to_tensor(3., stop_gradient=False)
    (g,) = paddle.grad(Sq.apply(x), x, create_graph=True)
    assert g.item() == 6. and g.stop_gradient is False
    (gg,) = paddle.grad(g, x)
    assert gg.item() == 2.


def test_apply_under_no_grad_records_nothing(paddle):
    Sq = _layers(paddle)
    x = paddle.to_tensor([1.], stop_gradient=False)
    with paddle.no_grad():
        y = Sq.apply(x)
    assert y.stop_gradient is True and y.grad_fn is None


def test_a_list_argument_is_one_slot_taking_a_list_of_gradients(paddle):
    class Mix(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, xs, scale, z, func1=None):
            return func1(xs[0] * xs[1] * scale * z)

        @staticmethod
        def backward(ctx, g):
            return [g * 2, g * 3], g * 4

    a, b, z = (paddle.to_tensor([1.], stop_gradient=False) for _ in range(3))
    Mix.apply([a, b], 5, z, func1=paddle.nn.functional.relu).sum().backward()
    assert (a.grad.tolist(), b.grad.tolist(), z.grad.tolist()) == ([2.], [3.], [4.])


def test_a_list_slot_given_a_tensor_raises(paddle):
    class Mix(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, xs):
            return xs[0] * xs[1]

        @staticmethod
        def backward(ctx, g):
            return (g,)

    a, b = (paddle.to_tensor([1.], stop_gradient=False) for _ in range(2))
    with pytest.raises(ValueError, match=re.escape("(InvalidArgument) argument must be list or tuple, but got Tensor")):
        Mix.apply([a, b]).sum().backward()


def test_keyword_tensor_arguments_get_slots(paddle):
    class K(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y=None):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g, g * 2

    a, b = (paddle.to_tensor([1.], stop_gradient=False) for _ in range(2))
    K.apply(a, y=b).sum().backward()
    assert a.grad.tolist() == [1.] and b.grad.tolist() == [2.]


def test_outputs_may_mix_tensors_and_other_values(paddle):
    class Many(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2, 5, None, "s"

        @staticmethod
        def backward(ctx, g):
            return g

    out = Many.apply(paddle.to_tensor([1.], stop_gradient=False))
    assert out[1:] == (5, None, "s") and out[0].stop_gradient is False


def test_mark_non_differentiable_gives_zeros_to_backward(paddle):
    seen = {}

    class Two(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            a, b = x * 1, x * 2
            ctx.mark_non_differentiable(a)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            seen["ga"], seen["gb"] = ga.tolist(), gb.tolist()
            return gb

    x = paddle.to_tensor([1.], stop_gradient=False)
    a, b = Two.apply(x)
    assert a.stop_gradient is True and b.stop_gradient is False
    b.backward()
    assert seen == {"ga": [0.], "gb": [1.]} and x.grad.tolist() == [1.]


def test_set_materialize_grads_false_gives_none(paddle):
    seen = {}

    class Two(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 1, x * 2

        @staticmethod
        def backward(ctx, ga, gb):
            seen["ga"] = ga
            return gb

    x = paddle.to_tensor([1.], stop_gradient=False)
    _, b = Two.apply(x)
    b.backward()
    assert seen["ga"] is None


def test_non_leaf_input_returned_as_is_is_in_place(paddle):
    class Ident(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 10

    x = paddle.to_tensor([1.], stop_gradient=False)
    h = x * 2
    out = Ident.apply(h)
    assert out is h and h.inplace_version == 1
    assert h.grad_fn.name() == "GradNodePyLayer_Ident"
    h.sum().backward()
    assert x.grad.tolist() == [20.]


@pytest.mark.parametrize("case, exc, msg", [
    ("no_forward", NotImplementedError, "^You must implement the forward function for PyLayer.$"),
    ("no_tensor_out", ValueError, "^" + re.escape("(InvalidArgument) NoTensorOut : At least one output of "
                                                  "`PyLayer.forward` is a `Tensor`.")),
    ("leaf_returned", ValueError, r"^\(InvalidArgument\) LeafReturned : Leaf Var \(generated_tensor_\d+\) that "
                                  r"doesn't stop gradient can't use inplace strategy\."),
])
def test_forward_errors(paddle, case, exc, msg):
    PyLayer = paddle.autograd.PyLayer

    class NoForward(PyLayer):
        @staticmethod
        def backward(ctx, g):
            return g

    class NoTensorOut(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return 3

    class LeafReturned(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x

    cls = {"no_forward": NoForward, "no_tensor_out": NoTensorOut, "leaf_returned": LeafReturned}[case]
    x = paddle.to_tensor([1.], stop_gradient=False)
    with pytest.raises(exc, match=msg):
        cls.apply(x)


def _backward_cases(paddle):
    PyLayer = paddle.autograd.PyLayer

    class NoBk(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

    class WrongCount(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g

    class RetExtra(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g, g, g

    class RetF(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return 1.0, g

    class Raise(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            raise ValueError("boom")

    return {c.__name__: c for c in (NoBk, WrongCount, RetExtra, RetF, Raise)}


@pytest.mark.parametrize("name, exc, msg", [
    ("NoBk", OSError, r"^\(External\) \n\{\n    =+ Error message in backward of GradNodePyLayer_NoBk\(0x[0-9a-f]+\)=+\n"
                      r"    NotImplementedError: You must implement the backward function for PyLayer\."),
    ("WrongCount", ValueError, "^" + re.escape("(InvalidArgument) GradNodePyLayer_WrongCount's backward function "
                                               "should not return empty at 1 position.")),
    ("RetExtra", ValueError, "^" + re.escape("(InvalidArgument) GradNodePyLayer_RetExtra : The number of outputs of "
                                             "`PyLayer.backward` should be 2, but received 3.")),
    ("RetF", ValueError, "^" + re.escape("(InvalidArgument) GradNodePyLayer_RetF : We can only support Tensor or None "
                                         "for backward output, , but got float, please check your PyLayer code and "
                                         "make it fits")),
    ("Raise", OSError, r"Error message in backward of GradNodePyLayer_Raise\(0x[0-9a-f]+\)=+\n    ValueError: boom\n"),
])
def test_backward_errors(paddle, name, exc, msg):
    cls = _backward_cases(paddle)[name]
    x = paddle.to_tensor([1.], stop_gradient=False)
    y = paddle.to_tensor([2.], stop_gradient=False)
    with pytest.raises(exc, match=msg):
        cls.apply(x, y).sum().backward()


def test_backward_returning_none_leaves_grad_none(paddle):
    class Half(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g, None

    x = paddle.to_tensor([1.], stop_gradient=False)
    y = paddle.to_tensor([2.], stop_gradient=False)
    Half.apply(x, y).sum().backward()
    assert x.grad.tolist() == [1.] and y.grad is None


def test_pylayer_node_twice_with_retain_graph_works_in_facade(fpaddle):
    Sq = _layers(fpaddle)
    x = fpaddle.to_tensor([1., 2.], stop_gradient=False)
    y = Sq.apply(x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [4., 8.]


def test_pylayer_node_twice_without_retain_raises_in_facade(fpaddle):
    Sq = _layers(fpaddle)
    x = fpaddle.to_tensor([1., 2.], stop_gradient=False)
    y = Sq.apply(x)
    y.backward()
    with pytest.raises(SystemError, match="TensorWrappers of GradNodePyLayer_Sq do not exist"):
        y.backward()


def test_mark_not_inplace_gives_a_connected_new_output_in_facade(fpaddle):
    class Ident(fpaddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 10

    x = fpaddle.to_tensor([1.], stop_gradient=False)
    h = x * 2
    out = Ident.apply(h)
    assert out is not h and h.grad_fn.name() != "GradNodePyLayer_Ident"
    out.sum().backward()
    assert x.grad.tolist() == [20.]


@pytest.mark.skipif(not HAVE_PADDLE, reason="real paddle is not installed")
def test_real_paddle_crashes_running_a_pylayer_node_twice():
    res = run_isolated("""
        class Sq(paddle.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x):
                return x * x
            @staticmethod
            def backward(ctx, g):
                return g
        x = paddle.to_tensor([1., 2.], stop_gradient=False)
        y = Sq.apply(x).sum()
        y.backward(retain_graph=True)
        y.backward()
    """)
    assert res.returncode != 0


def test_facade_rejects_backward_gradient_of_wrong_shape(fpaddle):
    class WrongShape(fpaddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return fpaddle.ones([5])

    x = fpaddle.to_tensor([1., 2.], stop_gradient=False)
    with pytest.raises(ValueError, match=re.escape("(InvalidArgument) GradNodePyLayer_WrongShape : backward returned a "
                                                   "gradient of shape [5] for input 0 of shape [2].")):
        WrongShape.apply(x).sum().backward()


def test_facade_sums_down_a_broadcast_backward_gradient(fpaddle):
    """(real paddle stores the [3, 2] gradient as x.grad)"""
    paddle = fpaddle

    class Broad(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return paddle.ones([3, 2])

    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    Broad.apply(x).sum().backward()
    assert x.grad.shape == [2]


def test_backward_sees_gradients_that_require_grad_and_ctx_has_paddles_surface(paddle):
    seen = {}

    class Probe(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            seen["needs_input_grad"] = hasattr(ctx, "needs_input_grad")
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen["stop_gradient"] = g.stop_gradient
            seen["ctx"] = type(ctx).__name__
            return g * 2

    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = Probe.apply(x)
    y.backward(paddle.to_tensor([1., 3.]))
    assert seen == {"needs_input_grad": False, "stop_gradient": False, "ctx": "Probe_backward"}
    assert x.grad.tolist() == [2., 6.]


def test_pylayer_is_the_neutral_custom_function(fpaddle):
    from flowgrad.autograd.function import CustomFunction, CustomFunctionNode
    PyLayer = fpaddle.autograd.PyLayer
    assert issubclass(PyLayer, CustomFunction) and "apply" not in PyLayer.__dict__
    assert issubclass(_layers(fpaddle)._backward_cls, CustomFunctionNode)


def test_save_for_backward_packs_through_saved_tensor_hooks(paddle):
    log = []

    class Saver(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y * 1)
            log.append(("forward sees", len(ctx.saved_tensor())))
            return x * 2.

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensor()
            return g * b

    def pack(t):
        log.append(("pack", list(t.shape)))
        return t

    def unpack(t):
        log.append(("unpack", list(t.shape)))
        return t

    a = paddle.to_tensor([1., 2.], stop_gradient=False)
    with paddle.autograd.saved_tensors_hooks(pack, unpack):
        y = Saver.apply(a, paddle.to_tensor([3.]))
    y.sum().backward()
    assert log == [("pack", [2]), ("pack", [1]), ("unpack", [2]), ("unpack", [1]), ("forward sees", 2),
                   ("unpack", [2]), ("unpack", [1])]
    assert a.grad.tolist() == [3., 3.]


def test_save_for_backward_under_hooks_takes_only_tensors(paddle):
    class Saver(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 2.

        @staticmethod
        def backward(ctx, g):
            return g

    with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
        with pytest.raises(ValueError, match=re.escape("(InvalidArgument) save_for_backward only support Tensor, list "
                                                       "of Tensor, tuple of Tensor.")):
            Saver.apply(paddle.to_tensor([1.], stop_gradient=False))
