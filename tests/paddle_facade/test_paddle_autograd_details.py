"""Autograd details where paddle 3.3.1 differs from PyTorch: what hooks and PyLayer.backward see,
.grad after higher-order paddle.grad calls, in-place ops refused on leaves, cast to the same dtype,
generated tensor names, `trainable`, PyLayer's grad_in_dtype_consistent, paddle.nn.Layer's
wording. Each case runs on flowgrad's facade and on real paddle."""
from __future__ import annotations

import re

import pytest


def test_hooks_see_gradients_with_stop_gradient_false(paddle):
    seen = []
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = x * 3
    y.register_hook(lambda g: seen.append(("non-leaf", g.stop_gradient)))
    x.register_hook(lambda g: seen.append(("leaf", g.stop_gradient)))
    y.sum().backward()
    z = x * 3
    z.register_hook(lambda g: seen.append(("grad", g.stop_gradient)))
    paddle.grad(z.sum(), x)
    assert seen == [("non-leaf", False), ("leaf", False), ("grad", False)]
    assert x.grad.tolist() == [3., 3.]


def _grad_of(t):
    return None if t.grad is None else t.grad.tolist()


def test_grad_after_higher_order_grad_calls(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    w = paddle.to_tensor([3., 4.], stop_gradient=False)
    g, = paddle.grad(((x * w) ** 2).sum(), x, create_graph=True)
    paddle.grad(g.sum(), x)
    paddle.grad(g.sum(), w)
    assert (_grad_of(x), _grad_of(w)) == (None, None)
    g.sum().backward()
    assert (_grad_of(x), _grad_of(w)) == ([18., 32.], [12., 32.])
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    g, = paddle.grad((x ** 2).sum(), x, create_graph=True)
    g2, = paddle.grad(g.sum(), x, create_graph=True)
    assert g2.tolist() == [2., 2.] and not g2.stop_gradient
    g2.sum().backward()
    assert _grad_of(x) == [0., 0.]


@pytest.mark.parametrize("op, after", [
    (lambda p, x: x.add_(p.to_tensor([1., 1.])), [2., 3.]),
    (lambda p, x: x.scale_(2.), [2., 4.]),
    (lambda p, x: x.zero_(), [0., 0.]),
])
def test_refused_in_place_op_on_a_leaf_has_written_it(paddle, op, after):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    with pytest.raises(ValueError, match=re.escape(f"(InvalidArgument) Leaf Var ({x.name}) that doesn't stop gradient")):
        op(paddle, x)
    assert x.tolist() == after and x.inplace_version == 0 and x.is_leaf and not x.stop_gradient


def test_refused_setitem_on_a_leaf_leaves_it(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    with pytest.raises(ValueError, match=re.escape("(InvalidArgument) Leaf Tensor (")):
        x[0] = 3.
    assert x.tolist() == [1., 2.]


def test_in_place_on_a_leaf_under_no_grad(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = x * x
    with paddle.no_grad():
        x.add_(paddle.to_tensor([1., 1.]))
        x[0] = 5.
    assert x.tolist() == [5., 3.] and x.inplace_version == 2 and x.is_leaf and not x.stop_gradient
    with pytest.raises(RuntimeError, match=re.escape("(PermissionDenied) Tensor '' used in gradient computation has "
                                                     "been modified by an inplace operation. Its version is 2 but the "
                                                     "expected version is 0.")):
        y.sum().backward()
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2., 2.]


def test_cast_to_the_same_dtype(paddle):
    t = paddle.to_tensor([1., 2.], stop_gradient=False)
    c, c2, a = t.cast("float32"), paddle.cast(t, "float32"), t.astype("float32")
    assert c is not t and c2 is not t and a is t
    assert c.grad_fn.name() == "CastGradNode" and not c.stop_gradient
    with paddle.no_grad():
        c[0] = 9.
    assert t.tolist() == [1., 2.]
    (c * 2 + c2).sum().backward()
    assert t.grad.tolist() == [3., 3.]


def test_generated_names(paddle):
    import numpy as np
    a = paddle.to_tensor([1.], stop_gradient=False)
    b = paddle.ones([1])
    d = a.detach()
    t = paddle.Tensor(np.ones(1, dtype="float32"))
    n_a, n_d, n_t = (int(re.fullmatch(r"(?:generated_tensor|eager_in_tmp)_(\d+)", v.name).group(1)) for v in (a, d, t))
    assert (n_d, n_t) == (n_a + 1, n_a + 2)  # one count for data-made and detached tensors
    assert re.fullmatch(r"eager_tmp_\d+", b.name) and re.fullmatch(r"eager_tmp_\d+", (a * 2).name)
    assert paddle.to_tensor(a).name == a.name
    (a * 2).sum().backward()
    assert re.fullmatch(r"eager_tmp_\d+", a.grad.name)
    o = paddle.ones([2])
    o.stop_gradient = False
    with pytest.raises(ValueError, match=re.escape("(InvalidArgument) Leaf Var () that doesn't stop gradient")):
        o.add_(paddle.ones([2]))  # an op's result has no name until it is asked for


def test_trainable_toggles_and_type_check(paddle):
    w = paddle.nn.Linear(2, 2).weight
    w.trainable = False
    assert w.stop_gradient
    w.stop_gradient = False
    assert w.trainable
    for bad in (1, None):
        with pytest.raises(ValueError, match=re.escape(f"The type of trainable MUST be bool, but the type is "
                                                       f"{type(bad)}")):
            w.trainable = bad
    assert w.trainable


def test_pylayer_grad_in_dtype_consistent(paddle):
    seen = {}

    def passthrough(consistent, tag):
        class Pass(paddle.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x):
                if not consistent:
                    ctx.set_grad_in_dtype_consistent(False)
                return x * 1

            @staticmethod
            def backward(ctx, dy):
                seen[tag] = str(dy.dtype)
                return dy
        return Pass

    class ToHalf(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            return paddle.cast(dy, "float16")

    for consistent, tag in ((True, "cast"), (False, "kept")):
        x = paddle.to_tensor([1., 2.], stop_gradient=False)
        ToHalf.apply(passthrough(consistent, tag).apply(x)).sum().backward()
    assert seen == {"cast": "paddle.float32", "kept": "paddle.float16"}


def test_layer_messages_are_paddles(paddle):
    class Early(paddle.nn.Layer):
        def __init__(self):
            self.w = paddle.create_parameter([1], "float32")

    class EarlyChild(paddle.nn.Layer):
        def __init__(self):
            self.sub = paddle.nn.Linear(1, 1)

    for cls in (Early, EarlyChild):
        with pytest.raises(ValueError, match=re.escape("super().__init__() should be called first")):
            cls()
    layer = paddle.nn.Linear(1, 1)
    cases = [
        (lambda: setattr(layer, "weight", 3),
         "assignment to parameter 'weight' should be of type Parameter or None, but got 'int'"),
        (lambda: layer.register_buffer("b", 3), "The registered buffer should be a Paddle.Tensor, but received int."),
        (lambda: layer.add_parameter("p", 3), "The parameter to be added should be a Parameter, but received int."),
    ]
    for call, msg in cases:
        with pytest.raises(TypeError, match="^" + re.escape(msg) + "$"):
            call()


def test_autograd_flags(paddle):
    names = ["FLAGS_check_nan_inf", "FLAGS_check_nan_inf_level", "FLAGS_call_stack_level", "FLAGS_sort_sum_gradient",
             "FLAGS_max_inplace_grad_add", "FLAGS_prim_backward", "FLAGS_use_stride_kernel"]
    assert paddle.get_flags(names) == {
        "FLAGS_check_nan_inf": False, "FLAGS_check_nan_inf_level": 0, "FLAGS_call_stack_level": 1,
        "FLAGS_sort_sum_gradient": False, "FLAGS_max_inplace_grad_add": 0, "FLAGS_prim_backward": False,
        "FLAGS_use_stride_kernel": True}
    try:
        paddle.set_flags({"FLAGS_sort_sum_gradient": 1, "FLAGS_max_inplace_grad_add": True})
        assert paddle.get_flags(["FLAGS_sort_sum_gradient", "FLAGS_max_inplace_grad_add"]) == {
            "FLAGS_sort_sum_gradient": True, "FLAGS_max_inplace_grad_add": 1}
        x = paddle.to_tensor([1., 2.], stop_gradient=False)
        (x * x + x * 3).sum().backward()
        assert x.grad.tolist() == [5., 7.]
    finally:
        paddle.set_flags({"FLAGS_sort_sum_gradient": False, "FLAGS_max_inplace_grad_add": 0})
    for flag, value in (("FLAGS_sort_sum_gradient", "true"), ("FLAGS_max_inplace_grad_add", 2.5),
                        ("FLAGS_max_inplace_grad_add", "3")):
        with pytest.raises(RuntimeError, match=re.escape(f"Unable to cast Python instance of type {type(value)} to "
                                                         "C++ type '?'")):
            paddle.set_flags({flag: value})
    paddle.set_flags({"FLAGS_sort_sum_gradient": 2.5})
    assert paddle.get_flags("FLAGS_sort_sum_gradient") == {"FLAGS_sort_sum_gradient": True}
    paddle.set_flags({"FLAGS_sort_sum_gradient": None})
    assert paddle.get_flags("FLAGS_sort_sum_gradient") == {"FLAGS_sort_sum_gradient": False}
    for name in ("FLAGS_retain_grad_for_all_tensor", "FLAGS_no_such_flag"):
        with pytest.raises(ValueError, match=re.escape(f"Flag {name} cannot get its value through this function.")):
            paddle.get_flags([name])
        with pytest.raises(ValueError, match=re.escape(f"Flag {name} cannot set its value through this function.")):
            paddle.set_flags({name: True})


@pytest.mark.parametrize("flag, value", [("FLAGS_check_nan_inf", True), ("FLAGS_use_stride_kernel", False),
                                         ("FLAGS_prim_backward", True)])
def test_flag_values_flowgrad_does_not_build_are_refused(fpaddle, flag, value):
    with pytest.raises(NotImplementedError, match=re.escape(f"does not support {flag}={value}")):
        fpaddle.set_flags({flag: value})
    assert fpaddle.get_flags(flag) == {flag: not value}


_SECOND_ORDER = {
    "add": lambda p, x, w: x + w, "sub": lambda p, x, w: x - w, "sum": lambda p, x, w: x.sum() * w,
    "mean": lambda p, x, w: x.mean() * w, "reshape": lambda p, x, w: x.reshape([1, 2]) * w.reshape([1, 2]),
    "div": lambda p, x, w: x / w, "relu": lambda p, x, w: p.nn.functional.relu(x) * w, "exp": lambda p, x, w: p.exp(x),
    "mul": lambda p, x, w: x * w, "matmul": lambda p, x, w: p.matmul(x.reshape([1, 2]), w.reshape([2, 1])),
    "concat": lambda p, x, w: p.concat([x, w]) * 2.0, "slice": lambda p, x, w: x[0:1] * w[0:1],
    "pow": lambda p, x, w: x ** 3, "maximum": lambda p, x, w: p.maximum(x, w),
    "where": lambda p, x, w: p.where(x > 1, x, w), "sigmoid": lambda p, x, w: p.nn.functional.sigmoid(x),
    "clip": lambda p, x, w: p.clip(x * w, 0, 5.0), "abs": lambda p, x, w: p.abs(x) * w,
    "scale": lambda p, x, w: x * 3, "cast": lambda p, x, w: x.cast("float64") * w.cast("float64"),
}


def _second_order(paddle, name, first):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    w = paddle.to_tensor([3., 4.], stop_gradient=False)
    g, = paddle.grad(_SECOND_ORDER[name](paddle, x, w).sum(), [x if first == "x" else w], create_graph=True,
                     allow_unused=True)
    if g is None:
        return None
    again = paddle.grad(g.sum(), [x, w], allow_unused=True)
    return (g.grad_fn.name() if g.grad_fn else None, g.stop_gradient,
            [None if t is None else t.numpy().round(4).tolist() for t in again], x.grad, w.grad)


@pytest.mark.parametrize("first", ["x", "w"])
@pytest.mark.parametrize("name", sorted(_SECOND_ORDER))
def test_second_order_grads_reach_inputs_as_paddles_double_grad_nodes(fpaddle, real_paddle, name, first):
    """A first-order gradient made with create_graph comes out of paddle's <Op>DoubleGradNode, which
    reaches the op's inputs: differentiating it again gives zeros (not None) where it does not
    depend on them, except where paddle's double-grad kernel gives no input gradient."""
    assert _second_order(fpaddle, name, first) == _second_order(real_paddle, name, first)


@pytest.mark.parametrize("name, op, line", [
    ("softmax", "softmax_grad", 76113), ("log_softmax", "log_softmax_grad", 36286), ("gelu", "gelu_grad", 25317),
    ("max", "max_grad", 39444), ("cumsum", "cumsum_grad", 12607), ("logsumexp", "logsumexp_grad", 36944),
    ("erf", "erf_grad", 16732), ("dot", "dot_grad", 15146), ("floor", "floor_grad", 21775),
])
def test_create_graph_through_an_op_without_double_grad_raises(paddle, name, op, line):
    F = paddle.nn.functional
    make = {"softmax": F.softmax, "log_softmax": F.log_softmax, "gelu": F.gelu, "max": lambda x: x.max(),
            "cumsum": lambda x: paddle.cumsum(x, 0), "logsumexp": paddle.logsumexp, "erf": paddle.erf,
            "dot": lambda x: paddle.dot(x, x), "floor": paddle.floor}[name]
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = make(x).sum()
    msg = (f"(Unavailable) The Op {op} doesn't have any grad op. If you don't intend calculating higher order "
           "derivatives, please set `create_graph`to False. (at /paddle/paddle/fluid/eager/api/generated/"
           f"eager_generated/backwards/nodes.cc:{line})\n")
    with pytest.raises(RuntimeError, match="^" + re.escape(msg) + "$"):
        paddle.grad(y, x, create_graph=True)
    g, = paddle.grad(y, x)  # without create_graph it runs
    assert g.shape == [2]


def test_detach_in_place_on_a_view(paddle):
    x = paddle.to_tensor([1., 2., 3.], stop_gradient=False)
    h = x * 1
    v = h[0:2]
    assert v.detach_() is v and v.stop_gradient and v.grad_fn is None
    v.add_(paddle.ones([2]))
    assert h.tolist() == [2., 3., 3.]  # still the base's memory
    h.sum().backward()
    assert x.grad.tolist() == [1., 1., 1.]
    w = paddle.to_tensor([1., 2.])
    u = w[0:1]
    assert u.detach_() is u and u.stop_gradient


def test_a_used_leafs_grad_fn_is_its_accumulation_node(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = (x * 2.).sum()
    assert x.grad_fn.name() == "GradNodeAccumulation" and x.is_leaf
    y.backward()
    assert x.grad.tolist() == [2., 2.] and x.grad_fn.name() == "GradNodeAccumulation"
