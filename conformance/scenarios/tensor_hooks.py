"""Tensor hooks: what they see, what their return value does, when they run."""
from __future__ import annotations

from .. import docs as D
from ..expect import OK, Expect, Raises
from ..scenario import scenario


@scenario("tensor_hooks", "a leaf hook's return value is what accumulates")
def leaf_hook_replaces(fw):
    x = fw.leaf([1., 2.])
    fw.register_hook(x, lambda g: g * 100.)
    fw.backward(fw.sum(x * 5.))
    return {"x.grad": fw.read_grad(x)}


@scenario("tensor_hooks", "a non-leaf hook changes what flows upstream")
def nonleaf_hook_replaces(fw):
    x = fw.leaf([1., 2.])
    h = x * 2.
    fw.register_hook(h, lambda g: g * 10.)
    fw.backward(fw.sum(h))
    return {"x.grad": fw.read_grad(x)}


@scenario("tensor_hooks", "hooks chain in registration order; None keeps the value")
def hooks_chain(fw):
    x = fw.leaf([1., 2.])
    log = []

    def first(g):
        log.append(("first", fw.clone(g)))
        return g + 1.

    def second(g):
        log.append(("second", fw.clone(g)))

    def third(g):
        log.append(("third", fw.clone(g)))
        return g * 10.
    for hook in (first, second, third):
        fw.register_hook(x, hook)
    fw.backward(fw.sum(x * 3.))
    return {"log": [[name, g] for name, g in log], "x.grad": fw.read_grad(x)}


@scenario("tensor_hooks", "a hook on a tensor used twice runs once, with the summed gradient")
def called_once_with_sum(fw):
    x = fw.leaf([1., 2.])
    seen = []
    fw.register_hook(x, lambda g: seen.append(fw.clone(g)))
    fw.backward(fw.sum(x * x + x * 3.))
    return {"seen": seen}


@scenario("tensor_hooks", "a hook on an intermediate used by two branches runs once")
def intermediate_diamond(fw):
    x = fw.leaf([1., 2.])
    h = x * 2.
    seen = []
    fw.register_hook(h, lambda g: seen.append(fw.clone(g)))
    fw.backward(fw.sum(h * 3. + h * h))
    return {"seen": seen, "x.grad": fw.read_grad(x)}


@scenario("tensor_hooks", "hooks run from the output towards the inputs")
def order_over_graph(fw):
    a = fw.leaf([1.])
    b = a * 2.
    c = b * 3.
    d = c * 4.
    log = []
    for name, t in (("a", a), ("b", b), ("c", c), ("d", d)):
        fw.register_hook(t, lambda g, name=name: log.append(name))
    fw.backward(fw.sum(d))
    return {"order": log}


@scenario("tensor_hooks", "a hook fires on every backward", expect=[])
def fires_every_backward(fw):
    x = fw.leaf([1., 2.])
    calls = []
    fw.register_hook(x, lambda g: calls.append(1))
    y = fw.sum(x * x)
    fw.backward(y, retain_graph=True)
    fw.backward(y)
    return {"calls": len(calls), "x.grad": fw.read_grad(x)}


@scenario("tensor_hooks", "a hook on the root receives the seed")
def hook_on_root(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x * x)
    seen = []
    fw.register_hook(y, lambda g: seen.append(fw.clone(g)))
    fw.backward(y)
    return {"seen": seen}


@scenario("tensor_hooks", "registering a hook on a tensor that does not require grad", expect=[
    Expect("paddle", "paddle words it as a stop-gradient tensor", D.PADDLE_HOOK,
           {"register": Raises("RuntimeError", "Cannot register hook on a tensor that stop gradient")}),
])
def on_tensor_without_grad(fw):
    c = fw.tensor([1., 2.])
    fw.attempt("register", fw.register_hook, c, lambda g: g)
    return {}


@scenario("tensor_hooks", "a removed hook no longer runs; what remove() returns", needs=["hook_handle"], expect=[
    Expect("paddle", "paddle's remove() reports whether a hook was removed", D.PADDLE_HOOK,
           {"first remove": True, "second remove": False}),
])
def remove(fw):
    x = fw.leaf([1., 2.])
    handle = fw.register_hook(x, lambda g: g * 100.)
    first = fw.remove_hook(handle)
    second = fw.remove_hook(handle)
    fw.backward(fw.sum(x * 2.))
    return {"first remove": first, "second remove": second, "x.grad": fw.read_grad(x)}


@scenario("tensor_hooks", "a hook returning a tensor of another shape", expect=[
    Expect("paddle", "paddle accepts the new shape silently", D.PADDLE_HOOK,
           {"backward": OK, "x.grad": [1., 1., 1.]}),
])
def wrong_shape(fw):
    x = fw.leaf([1., 2.])

    def reshaping_hook(g):
        return fw.ones([3])
    fw.register_hook(x, reshaping_hook)
    fw.attempt("backward", fw.backward, fw.sum(x * 2.))
    return {"x.grad": fw.read_grad(x)}


@scenario("tensor_hooks", "an exception raised inside a hook", expect=[
    Expect("paddle", "paddle re-raises hook errors as OSError (External)", D.PADDLE_HOOK,
           {"backward": Raises("OSError", r"ValueError: boom from hook")}),
])
def hook_raises(fw):
    x = fw.leaf([1., 2.])

    def bad_hook(g):
        raise ValueError("boom from hook")
    fw.register_hook(x, bad_hook)
    fw.attempt("backward", fw.backward, fw.sum(x * 2.))
    return {"x.grad": fw.read_grad(x)}


@scenario("tensor_hooks", "the backward pass still works after a hook raised", expect=[
    Expect("paddle", "paddle re-raises hook errors as OSError (External)", D.PADDLE_HOOK,
           {"first": Raises("OSError", r"ValueError: boom from hook")}),
])
def usable_after_hook_error(fw):
    x = fw.leaf([1., 2.])
    armed = [True]

    def bad_hook(g):
        if armed[0]:
            armed[0] = False
            raise ValueError("boom from hook")
    fw.register_hook(x, bad_hook)
    fw.attempt("first", fw.backward, fw.sum(x * 2.))
    fw.backward(fw.sum(x * 3.))
    return {"x.grad": fw.read_grad(x)}


@scenario("tensor_hooks", "grad() applies the hook of an intermediate tensor")
def in_grad_on_intermediate(fw):
    x = fw.leaf([1., 2.])
    h = x * 3.
    fw.register_hook(h, lambda g: g * 100.)
    g, = fw.grad(fw.sum(h), [x])
    return {"g": g}


@scenario("tensor_hooks", "grad() and the hook of a leaf input", expect=[
    Expect("paddle", "paddle applies leaf hooks only in backward, not in paddle.grad", D.PADDLE_HOOK,
           {"g": [3., 3.]}),
])
def in_grad_on_leaf_input(fw):
    x = fw.leaf([1., 2.])
    fw.register_hook(x, lambda g: g * 100.)
    g, = fw.grad(fw.sum(x * 3.), [x])
    return {"g": g}


@scenario("tensor_hooks", "grad mode inside a hook follows create_graph", expect=[
    Expect("paddle", "paddle runs hooks under the caller's grad mode, whatever create_graph is", D.PADDLE_HOOK,
           {"modes": [True, True]}),
])
def grad_mode_inside(fw):
    x = fw.leaf([1., 2.])
    h = x * 1.
    modes = []
    fw.register_hook(h, lambda g: modes.append(fw.is_grad_enabled()))
    fw.grad(fw.sum(h * h), [x], retain_graph=True)
    fw.grad(fw.sum(h * h), [x], create_graph=True)
    return {"modes": modes}


@scenario("tensor_hooks", "the gradient a hook receives does not require grad without create_graph", expect=[
    Expect("paddle", "paddle hands hooks a gradient with stop_gradient=False", D.PADDLE_HOOK,
           {"hook grad requires grad": [True]}),
])
def hook_grad_flags(fw):
    x = fw.leaf([1., 2.])
    flags = []
    fw.register_hook(x, lambda g: flags.append(fw.requires_grad(g)))
    fw.backward(fw.sum(x * x))
    return {"hook grad requires grad": flags}
