"""Grad modes (no_grad, enable_grad, set_grad_enabled, inference_mode) and requires-grad flags."""
from __future__ import annotations

from .. import docs as D
from ..expect import OK, Expect, Raises, Tensor
from ..scenario import scenario


@scenario("grad_mode", "results computed under no_grad need no gradient and are leaves")
def no_grad_results(fw):
    x = fw.leaf([1., 2.])
    with fw.no_grad():
        y = x * 2.
    return {"requires grad": fw.requires_grad(y), "is leaf": fw.is_leaf(y), "has node": fw.grad_fn(y) is not None}


@scenario("grad_mode", "enable_grad inside no_grad records again")
def enable_inside_no_grad(fw):
    x = fw.leaf([1., 2.])
    with fw.no_grad():
        with fw.enable_grad():
            y = x * 2.
        z = x * 2.
    return {"y requires grad": fw.requires_grad(y), "z requires grad": fw.requires_grad(z)}


@scenario("grad_mode", "set_grad_enabled(False) as a plain call persists")
def set_grad_enabled_call(fw):
    fw.set_grad_enabled(False)
    inside = fw.is_grad_enabled()
    x = fw.leaf([1., 2.])
    y = x * 2.
    fw.set_grad_enabled(True)
    return {"enabled": inside, "requires grad": fw.requires_grad(y), "after": fw.is_grad_enabled()}


@scenario("grad_mode", "set_grad_enabled as a context restores the previous mode")
def set_grad_enabled_context(fw):
    x = fw.leaf([1., 2.])
    with fw.set_grad_enabled(False):
        y = x * 2.
        inside = fw.is_grad_enabled()
    return {"inside": inside, "after": fw.is_grad_enabled(), "requires grad": fw.requires_grad(y)}


@scenario("grad_mode", "grad is enabled by default")
def default_enabled(fw):
    return {"enabled": fw.is_grad_enabled()}


@scenario("grad_mode", "no_grad restores the mode when the block raises")
def restored_on_exception(fw):
    with fw.step("block"):
        with fw.no_grad():
            raise ValueError("inside no_grad")
    return {"after": fw.is_grad_enabled()}


@scenario("grad_mode", "a factory with requires grad inside no_grad still makes a leaf that requires grad")
def factory_in_no_grad(fw):
    with fw.no_grad():
        x = fw.leaf([1., 2.])
    return {"requires grad": fw.requires_grad(x), "is leaf": fw.is_leaf(x)}


@scenario("grad_mode", "no_grad as a decorator (with parentheses)")
def no_grad_decorator(fw):
    x = fw.leaf([1., 2.])

    @fw.no_grad()
    def double(t):
        return t * 2.
    return {"requires grad": fw.requires_grad(double(x)), "after": fw.is_grad_enabled()}


@scenario("grad_mode", "no_grad as a bare decorator (without parentheses)", expect=[
    Expect("paddle", "paddle.no_grad must be instantiated to decorate", D.PADDLE_NO_GRAD,
           {"decorate": Raises("TypeError", r"takes no arguments"), "requires grad": None}),
    Expect("oneflow", "oneflow.no_grad must be instantiated to decorate", D.ONEFLOW_GRAD_MODE,
           {"decorate": Raises("TypeError"), "requires grad": None}),
])
def no_grad_bare_decorator(fw):
    x = fw.leaf([1., 2.])

    def double(t):
        return t * 2.
    decorated = fw.attempt("decorate", fw.no_grad_bare, double)
    return {"requires grad": None if decorated is None else fw.requires_grad(decorated(x))}


@scenario("grad_mode", "inference_mode: no recording inside", needs=["inference_mode"])
def inference_mode(fw):
    x = fw.leaf([1., 2.])
    with fw.inference_mode():
        y = x * 2.
        inside = fw.is_grad_enabled()
    return {"inside": inside, "requires grad": fw.requires_grad(y), "after": fw.is_grad_enabled()}


@scenario("grad_mode", "an integer tensor that requires grad", expect=[
    Expect("paddle", "paddle lets integer tensors require grad and computes integer gradients", D.PADDLE_TO_TENSOR,
           {"create": OK, "grad": Tensor([2, 2], dtype="int64")}),
    Expect("oneflow", "OneFlow words the dtype check differently", D.ONEFLOW_REQUIRES_GRAD,
           {"create": Raises("Exception", "only Tensors of floating point or complex can require gradients")}),
])
def integer_requires_grad(fw):
    i = fw.attempt("create", fw.tensor, [1, 2], dtype="int64", grad=True)
    grad = None
    if i is not None:
        fw.backward(fw.sum(i * 2))
        grad = fw.read_grad(i)
    return {"grad": grad}


@scenario("grad_mode", "changing the requires-grad flag of a non-leaf", expect=[
    Expect("paddle", "paddle allows setting stop_gradient on a non-leaf (it cuts later uses)", D.PADDLE_TENSOR,
           {"set": OK, "requires grad": False}),
    Expect("oneflow", "OneFlow words it for leaf tensors", D.ONEFLOW_REQUIRES_GRAD,
           {"set": Raises("RuntimeError", "You can only change requires_grad flags of leaf tensors")}),
])
def flag_of_nonleaf(fw):
    x = fw.leaf([1., 2.])
    h = x * 2.
    fw.attempt("set", fw.set_requires_grad, h, False)
    return {"requires grad": fw.requires_grad(h)}


@scenario("grad_mode", "detach gives a leaf that needs no gradient")
def detach_flags(fw):
    x = fw.leaf([1., 2.])
    d = fw.detach(x * 2.)
    return {"requires grad": fw.requires_grad(d), "is leaf": fw.is_leaf(d), "value": d}


@scenario("grad_mode", "a cast to int64 of a tensor that requires grad", expect=[
    Expect("paddle", "paddle keeps stop_gradient=False through astype('int64')", D.PADDLE_TENSOR,
           {"requires grad": True}),
])
def cast_to_int(fw):
    x = fw.leaf([1.5, 2.5])
    i = fw.astype(x, "int64")
    return {"requires grad": fw.requires_grad(i), "value": i}


@scenario("grad_mode", "comparisons never require grad")
def comparison_flags(fw):
    x = fw.leaf([1., 2.])
    c = x > 1.5
    return {"requires grad": fw.requires_grad(c), "value": c}


@scenario("grad_mode", "set_grad_enabled with a string", expect=[
    Expect("paddle", "paddle's pybind check words it differently", D.PADDLE_SET_GRAD_ENABLED,
           {"call": Raises("TypeError", "incompatible function arguments")}),
])
def set_grad_enabled_string(fw):
    fw.attempt("call", fw.set_grad_enabled, "yes")
    return {"after": fw.is_grad_enabled()}


@scenario("grad_mode", "a tensor made under no_grad can be switched to require grad and becomes a leaf")
def flag_after_no_grad(fw):
    x = fw.leaf([1., 2.])
    with fw.no_grad():
        y = x * 2.
    fw.set_requires_grad(y, True)
    fw.backward(fw.sum(y * y))
    return {"is leaf": fw.is_leaf(y), "y.grad": fw.read_grad(y), "x.grad": fw.read_grad(x)}


@scenario("grad_mode", "a leaf switched to not requiring grad between forward and backward", expect=[
    Expect("paddle", "paddle decides edges at record time: the leaf still accumulates", D.PADDLE_TENSOR,
           {"x.grad": [2., 4.]}),
])
def flag_off_after_forward(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x * x)
    fw.set_requires_grad(x, False)
    fw.attempt("backward", fw.backward, y)
    return {"x.grad": fw.read_grad(x)}
