"""Custom autograd functions (torch's Function, paddle's PyLayer, OneFlow's Function): forward and
backward contracts, validation of what backward returns, ctx services."""
from __future__ import annotations

from .. import docs as D
from ..compare import MISSING
from ..expect import OK, Expect, Raises
from ..scenario import scenario


def _square(fw):
    def forward(ctx, x):
        fw.save_for_backward(ctx, x)
        return x * x

    def backward(ctx, g):
        x, = fw.saved_tensors(ctx)
        return g * 2. * x
    return fw.function("Square", forward, backward)


@scenario("custom_function", "a custom square: values and gradients")
def square(fw):
    x = fw.leaf([1., 2., 3.])
    y = fw.apply(_square(fw), x)
    fw.backward(fw.sum(y))
    return {"y": y, "x.grad": fw.read_grad(x)}


@scenario("custom_function", "the node name derived from the class name", expect=[
    Expect("paddle", "paddle names PyLayer nodes GradNodePyLayer_<class>", D.PADDLE_PYLAYER,
           {"name": "GradNodePyLayer_Square"}),
])
def node_name(fw):
    x = fw.leaf([1., 2.])
    y = fw.apply(_square(fw), x)
    return {"name": fw.grad_fn_name(y)}


@scenario("custom_function", "forward runs with grad disabled; backward follows create_graph")
def grad_modes(fw):
    modes = {}

    def forward(ctx, x):
        modes["forward"] = fw.is_grad_enabled()
        return x * 2.

    def backward(ctx, g):
        modes.setdefault("backward", []).append(fw.is_grad_enabled())
        return g * 2.
    cls = fw.function("Double", forward, backward)
    x = fw.leaf([1., 2.])
    fw.grad(fw.sum(fw.apply(cls, x)), [x])
    fw.grad(fw.sum(fw.apply(cls, x)), [x], create_graph=True)
    return {"forward": modes["forward"], "backward": modes["backward"]}


@scenario("custom_function", "the output requires grad when an input does; not otherwise")
def output_flags(fw):
    x = fw.leaf([1., 2.])
    c = fw.tensor([1., 2.])
    cls = _square(fw)
    y = fw.apply(cls, x)
    z = fw.apply(cls, c)
    return {"y requires grad": fw.requires_grad(y), "z requires grad": fw.requires_grad(z),
            "z has node": fw.grad_fn(z) is not None}


def _two_inputs(fw, backward):
    def forward(ctx, a, b):
        return a * b
    return fw.function("TwoIn", forward, backward)


@scenario("custom_function", "backward returns fewer gradients than inputs", expect=[
    Expect("paddle", "PyLayer reports the missing position (ValueError)", D.PADDLE_PYLAYER,
           {"backward": Raises("ValueError", "should not return empty at 1 position")}),
    Expect("oneflow", "OneFlow names the bare class and keeps a RuntimeError prefix", D.ONEFLOW_FUNCTION,
           {"backward": Raises("Exception", r"function TwoIn returned an incorrect number of gradients \(expected 2, got 1\)")}),
])
def too_few_grads(fw):
    cls = _two_inputs(fw, lambda ctx, g: g)
    a = fw.leaf([1., 2.])
    b = fw.leaf([3., 4.])
    fw.attempt("backward", fw.backward, fw.sum(fw.apply(cls, a, b)))
    return {"a.grad": fw.read_grad(a)}


@scenario("custom_function", "backward returns more gradients than inputs", expect=[
    Expect("paddle", "PyLayer counts the outputs of backward (ValueError)", D.PADDLE_PYLAYER,
           {"backward": Raises("ValueError", "The number of outputs of `PyLayer.backward` should be 1, but received 2")}),
    Expect("oneflow", "OneFlow names the bare class and keeps a RuntimeError prefix", D.ONEFLOW_FUNCTION,
           {"backward": Raises("Exception", r"function OneIn returned an incorrect number of gradients \(expected 1, got 2\)")}),
])
def too_many_grads(fw):
    def forward(ctx, a):
        return a * 2.

    def backward(ctx, g):
        return g * 2., g
    cls = fw.function("OneIn", forward, backward)
    a = fw.leaf([1., 2.])
    fw.attempt("backward", fw.backward, fw.sum(fw.apply(cls, a)))
    return {"a.grad": fw.read_grad(a)}


@scenario("custom_function", "backward returns a Python float", expect=[
    Expect("paddle", "PyLayer accepts only Tensor or None from backward (ValueError)", D.PADDLE_PYLAYER,
           {"backward": Raises("ValueError", "We can only support Tensor or None for backward output")}),
])
def returns_float(fw):
    def forward(ctx, a):
        return a * 2.

    def backward(ctx, g):
        return 2.0
    cls = fw.function("RetFloat", forward, backward)
    a = fw.leaf([1., 2.])
    fw.attempt("backward", fw.backward, fw.sum(fw.apply(cls, a)))
    return {"a.grad": fw.read_grad(a)}


@scenario("custom_function", "backward returns a gradient of an incompatible shape", expect=[
    Expect("paddle", "PyLayer does not check the shape of returned gradients", D.PADDLE_PYLAYER,
           {"backward": OK, "a.grad": [1., 1., 1., 1., 1.]}),
])
def wrong_shape_grad(fw):
    def forward(ctx, a):
        return a * 2.

    def backward(ctx, g):
        return fw.ones([5])
    cls = fw.function("WS", forward, backward)
    a = fw.leaf([1., 2.])
    fw.attempt("backward", fw.backward, fw.sum(fw.apply(cls, a)))
    return {"a.grad": fw.read_grad(a)}


@scenario("custom_function", "backward returns None for an input that requires grad", expect=[
    Expect("oneflow", "OneFlow requires a gradient for every input that requires grad", D.ONEFLOW_FUNCTION,
           {"backward": Raises("RuntimeError", r"autograd.Function named NoneGrad's inputs\[0\] requires grad but got None grad")}),
])
def none_grad(fw):
    def forward(ctx, a):
        return a * 2.

    def backward(ctx, g):
        return None
    cls = fw.function("NoneGrad", forward, backward)
    a = fw.leaf([1., 2.])
    fw.attempt("backward", fw.backward, fw.sum(fw.apply(cls, a)))
    return {"a.grad": fw.read_grad(a)}


@scenario("custom_function", "two outputs: backward receives one gradient per output")
def two_outputs(fw):
    received = []

    def forward(ctx, a):
        return a * 2., a * 3.

    def backward(ctx, g1, g2):
        received.append([fw.clone(g1), fw.clone(g2)])
        return g1 * 2. + g2 * 3.
    cls = fw.function("TwoOut", forward, backward)
    a = fw.leaf([1., 2.])
    p, q = fw.apply(cls, a)
    fw.backward(fw.sum(p * 10. + q))
    return {"received": received, "a.grad": fw.read_grad(a)}


@scenario("custom_function", "an unused output's gradient arrives as zeros by default")
def unused_output_zeros(fw):
    received = []

    def forward(ctx, a):
        return a * 2., a * 3.

    def backward(ctx, g1, g2):
        received.append([fw.clone(g1), None if g2 is None else fw.clone(g2)])
        return g1 * 2.
    cls = fw.function("Unused", forward, backward)
    a = fw.leaf([1., 2.])
    p, _ = fw.apply(cls, a)
    fw.backward(fw.sum(p))
    return {"received": received, "a.grad": fw.read_grad(a)}


@scenario("custom_function", "set_materialize_grads(False): an unused output's gradient arrives as None",
          needs=["function_materialize_grads"])
def unused_output_not_materialized(fw):
    received = []

    def forward(ctx, a):
        fw.set_materialize_grads(ctx, False)
        return a * 2., a * 3.

    def backward(ctx, g1, g2):
        received.append([fw.clone(g1), None if g2 is None else fw.clone(g2)])
        return g1 * 2.
    cls = fw.function("NoMat", forward, backward)
    a = fw.leaf([1., 2.])
    p, _ = fw.apply(cls, a)
    fw.backward(fw.sum(p))
    return {"received": received, "a.grad": fw.read_grad(a)}


@scenario("custom_function", "mark_non_differentiable: flags of the marked output and its gradient in backward",
          expect=[
              Expect("oneflow", "OneFlow passes None for a non-differentiable output", D.ONEFLOW_FUNCTION,
                     {"received": [[[1., 1.], None]]}),
          ])
def non_differentiable_output(fw):
    received = []

    def forward(ctx, a):
        out, mask = a * 2., a * 0.
        fw.mark_non_differentiable(ctx, mask)
        return out, mask

    def backward(ctx, g, gmask):
        received.append([fw.clone(g), None if gmask is None else fw.clone(gmask)])
        return g * 2.
    cls = fw.function("Marked", forward, backward)
    a = fw.leaf([1., 2.])
    out, mask = fw.apply(cls, a)
    flags = [fw.requires_grad(out), fw.requires_grad(mask)]
    fw.backward(fw.sum(out))
    return {"requires grad": flags, "received": received, "a.grad": fw.read_grad(a)}


@scenario("custom_function", "ctx.needs_input_grad per input", needs=["function_needs_input_grad"])
def needs_input_grad(fw):
    seen = {}

    def forward(ctx, a, b):
        seen["forward"] = list(fw.needs_input_grad(ctx))
        return a * b

    def backward(ctx, g):
        seen["backward"] = list(fw.needs_input_grad(ctx))
        return g, None
    cls = fw.function("NIG", forward, backward)
    a = fw.leaf([1., 2.])
    b = fw.tensor([3., 4.])
    fw.backward(fw.sum(fw.apply(cls, a, b)))
    return seen


@scenario("custom_function", "a non-tensor argument to apply (backward returns None for it)", expect=[
    Expect("paddle", "PyLayer.backward returns gradients for tensor inputs only", D.PADDLE_PYLAYER,
           {"backward": Raises("ValueError", "The number of outputs of `PyLayer.backward` should be 1, but received 2"),
            "a.grad": None}),
    Expect("oneflow", "OneFlow's apply takes tensors (or None) only", D.ONEFLOW_FUNCTION,
           {"apply": Raises("RuntimeError", "expected Tensor or None as element 1"), "backward": MISSING,
            "a.grad": None}),
])
def non_tensor_argument(fw):
    def forward(ctx, a, k):
        ctx.k = k
        return a * k

    def backward(ctx, g):
        return g * ctx.k, None
    cls = fw.function("Scale", forward, backward)
    a = fw.leaf([1., 2.])
    y = fw.attempt("apply", fw.apply, cls, a, 3.0)
    if y is not None:
        fw.attempt("backward", fw.backward, fw.sum(y))
    return {"a.grad": fw.read_grad(a)}


@scenario("custom_function", "double backward through a backward written with differentiable ops")
def double_backward(fw):
    def forward(ctx, x):
        fw.save_for_backward(ctx, x)
        return x * x * x

    def backward(ctx, g):
        x, = fw.saved_tensors(ctx)
        return g * 3. * x * x
    cls = fw.function("Cube", forward, backward)
    x = fw.leaf([1., 2.])
    g1, = fw.grad(fw.sum(fw.apply(cls, x)), [x], create_graph=True)
    g2, = fw.grad(fw.sum(g1), [x])
    return {"g1": g1, "g2": g2}


@scenario("custom_function", "an exception raised in backward", expect=[
    Expect("paddle", "paddle wraps errors from PyLayer.backward in OSError (External)", D.PADDLE_PYLAYER,
           {"backward": Raises("OSError", "KeyError")}),
])
def backward_raises(fw):
    def forward(ctx, a):
        return a * 2.

    def backward(ctx, g):
        raise KeyError("boom")
    cls = fw.function("Boom", forward, backward)
    a = fw.leaf([1., 2.])
    fw.attempt("backward", fw.backward, fw.sum(fw.apply(cls, a)))
    return {"a.grad": fw.read_grad(a)}


@scenario("custom_function", "saving None among the tensors", expect=[
    Expect("oneflow", "OneFlow saves tensors only", D.ONEFLOW_FUNCTION,
           {"backward": Raises("TypeError", r"save_for_backward\(\) only support Tensor or Tensors"),
            "saved is None": [], "a.grad": None}),
])
def save_none(fw):
    seen = []

    def forward(ctx, a):
        fw.save_for_backward(ctx, None, a)
        return a * 2.

    def backward(ctx, g):
        saved = fw.saved_tensors(ctx)
        seen.append([s is None for s in saved])
        return g * 2.
    cls = fw.function("SaveNone", forward, backward)
    a = fw.leaf([1., 2.])
    with fw.step("backward"):
        fw.backward(fw.sum(fw.apply(cls, a)))
    return {"saved is None": seen, "a.grad": fw.read_grad(a)}


@scenario("custom_function", "forward returning no tensor", expect=[
    Expect("paddle", "PyLayer.forward must return at least one tensor", D.PADDLE_PYLAYER,
           {"apply": Raises("ValueError", "At least one output of `PyLayer.forward` is a `Tensor`"), "out": None}),
    Expect("oneflow", "OneFlow's forward must return a tensor or a tuple of tensors", D.ONEFLOW_FUNCTION,
           {"apply": Raises("RuntimeError", "autograd.Function's output only support tensor or list of tensors"),
            "out": None}),
])
def forward_returns_number(fw):
    def forward(ctx, a):
        return 3

    def backward(ctx, g):
        return g
    cls = fw.function("RetNum", forward, backward)
    a = fw.leaf([1., 2.])
    out = fw.attempt("apply", fw.apply, cls, a)
    return {"out": out}


@scenario("custom_function", "a custom function inside a larger graph: gradients flow through it")
def inside_graph(fw):
    x = fw.leaf([0.5, 1.5])
    h = fw.exp(x)
    y = fw.apply(_square(fw), h)
    fw.backward(fw.sum(fw.sin(y)))
    return {"x.grad": fw.read_grad(x)}


@scenario("custom_function", "ctx attributes set in forward are readable in backward")
def ctx_attributes(fw):
    def forward(ctx, a):
        ctx.scale = 4.
        return a * 4.

    def backward(ctx, g):
        return g * ctx.scale
    cls = fw.function("Attr", forward, backward)
    a = fw.leaf([1., 2.])
    fw.backward(fw.sum(fw.apply(cls, a)))
    return {"a.grad": fw.read_grad(a)}
