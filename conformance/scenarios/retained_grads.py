"""Retained gradients of non-leaf tensors (retain_grad / paddle's retain_grads)."""
from __future__ import annotations

from .. import docs as D
from ..expect import OK, Expect, Raises
from ..scenario import scenario


@scenario("retained_grads", "a retained non-leaf gets .grad")
def nonleaf(fw):
    x = fw.leaf([1., 2.])
    h = x * 2.
    fw.retain_grad(h)
    fw.backward(fw.sum(h * h))
    return {"h.grad": fw.read_grad(h), "x.grad": fw.read_grad(x)}


@scenario("retained_grads", "a retained gradient across two backwards", expect=[
    Expect("paddle", "paddle overwrites a retained gradient on every backward", D.PADDLE_RETAIN_GRADS,
           {"h.grad": [4., 8.]}),
])
def across_two_backwards(fw):
    x = fw.leaf([1., 2.])
    h = x * 2.
    fw.retain_grad(h)
    y = fw.sum(h * h)
    fw.backward(y, retain_graph=True)
    fw.backward(y)
    return {"h.grad": fw.read_grad(h), "x.grad": fw.read_grad(x)}


@scenario("retained_grads", "retaining a leaf's gradient changes nothing")
def on_leaf(fw):
    x = fw.leaf([1., 2.])
    fw.retain_grad(x)
    fw.backward(fw.sum(x * x))
    return {"x.grad": fw.read_grad(x)}


@scenario("retained_grads", "retains_grad is set on non-leaves only", needs=["retains_grad_flag"])
def retains_grad_flag(fw):
    x = fw.leaf([1., 2.])
    h = x * 2.
    before = fw.retains_grad(h)
    fw.retain_grad(h)
    fw.retain_grad(x)
    return {"before": before, "h": fw.retains_grad(h), "x": fw.retains_grad(x)}


@scenario("retained_grads", "retaining the gradient of a tensor that does not require grad", expect=[
    Expect("paddle", "paddle allows retain_grads() on a stop-gradient tensor", D.PADDLE_RETAIN_GRADS,
           {"retain": OK}),
    Expect("oneflow", "OneFlow capitalises the message", D.ONEFLOW_RETAIN_GRAD,
           {"retain": Raises("RuntimeError", "Can't retain_grad on Tensor that has requires_grad=False")}),
])
def without_grad(fw):
    c = fw.tensor([1., 2.])
    fw.attempt("retain", fw.retain_grad, c)
    return {}


@scenario("retained_grads", "retain_grad before a scaling hook: the retained value", expect=[
    Expect("paddle", "paddle retains the value before hooks registered after retain_grads()", D.PADDLE_RETAIN_GRADS,
           {"h.grad": [4., 8.]}),
])
def retain_then_hook(fw):
    x = fw.leaf([1., 2.])
    h = x * 2.
    fw.retain_grad(h)
    fw.register_hook(h, lambda g: g * 10.)
    fw.backward(fw.sum(h * h))
    return {"h.grad": fw.read_grad(h), "x.grad": fw.read_grad(x)}


@scenario("retained_grads", "a scaling hook before retain_grad: the retained value")
def hook_then_retain(fw):
    x = fw.leaf([1., 2.])
    h = x * 2.
    fw.register_hook(h, lambda g: g * 10.)
    fw.retain_grad(h)
    fw.backward(fw.sum(h * h))
    return {"h.grad": fw.read_grad(h), "x.grad": fw.read_grad(x)}


@scenario("retained_grads", "the root's retained gradient is the seed")
def root(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x * x)
    fw.retain_grad(y)
    fw.backward(y)
    return {"y.grad": fw.read_grad(y)}


@scenario("retained_grads", "a retained gradient under autograd.grad")
def under_grad(fw):
    x = fw.leaf([1., 2.])
    h = x * 2.
    fw.retain_grad(h)
    g, = fw.grad(fw.sum(h * h), [x])
    return {"g": g, "h.grad": fw.read_grad(h)}


@scenario("retained_grads", "the retained gradient tensor's flags", expect=[
    Expect("paddle", "paddle's retained gradient has stop_gradient=False", D.PADDLE_RETAIN_GRADS,
           {"h.grad requires grad": True}),
])
def flags(fw):
    x = fw.leaf([1., 2.])
    h = x * 2.
    fw.retain_grad(h)
    fw.backward(fw.sum(h * h))
    return {"h.grad requires grad": fw.requires_grad(fw.read_grad(h))}


@scenario("retained_grads", "retaining twice is the same as once")
def idempotent(fw):
    x = fw.leaf([1., 2.])
    h = x * 2.
    fw.retain_grad(h)
    fw.retain_grad(h)
    fw.backward(fw.sum(h * 3.))
    return {"h.grad": fw.read_grad(h)}
