"""Accumulation into .grad: summing across calls, broadcasting reduced to the leaf, dtypes, identity
of the gradient tensor, resetting it."""
from __future__ import annotations

from .. import docs as D
from ..expect import Expect
from ..scenario import scenario


@scenario("accumulation", "three backward calls add up in .grad")
def three_backwards(fw):
    x = fw.leaf([1., 2.])
    seen = []
    for _ in range(3):
        fw.backward(fw.sum(x * x))
        seen.append(fw.clone(fw.read_grad(x)))
    return {"x.grad after each": seen}


@scenario("accumulation", "broadcast gradients are summed to the leaf's shape")
def broadcast_reduced(fw):
    a = fw.leaf([[1.], [2.], [3.]])
    b = fw.leaf([[1., 2., 3., 4.]])
    fw.backward(fw.sum(a + b))
    return {"a.grad": fw.read_grad(a), "b.grad": fw.read_grad(b)}


@scenario("accumulation", "a 0-d leaf times a vector gets a 0-d gradient")
def zero_dim_leaf(fw):
    s = fw.leaf(2.)
    v = fw.tensor([1., 2., 3., 4., 5.])
    fw.backward(fw.sum(s * v))
    return {"s.grad": fw.read_grad(s)}


@scenario("accumulation", ".grad has the leaf's dtype (float64 leaf through float32 ops)")
def grad_dtype_follows_leaf(fw):
    x = fw.leaf([1., 2.], dtype="float64")
    y = fw.astype(x, "float32")
    fw.backward(fw.sum(y * y))
    return {"x.grad": fw.read_grad(x)}


@scenario("accumulation", "a leaf used twice in one graph gets one summed gradient")
def leaf_used_twice(fw):
    x = fw.leaf([1., 2.])
    fw.backward(fw.sum(x * x + x))
    return {"x.grad": fw.read_grad(x)}


@scenario("accumulation", "the first .grad is a copy: changing the seed afterwards does not change it")
def first_grad_is_copy(fw):
    x = fw.leaf([1., 2.])
    g = fw.tensor([3., 4.])
    fw.backward(x * 1., g)
    fw.add_(g, 100.)
    return {"x.grad": fw.read_grad(x), "g": g}


@scenario("accumulation", "a handle on .grad sees later accumulation (in-place add)")
def accumulates_in_place(fw):
    x = fw.leaf([1., 2.])
    fw.backward(fw.sum(x * x))
    handle = fw.read_grad(x)
    fw.backward(fw.sum(x * x))
    return {"handle after second": handle, "x.grad": fw.read_grad(x)}


@scenario("accumulation", "a user-assigned .grad is accumulated into", expect=[])
def assigned_grad(fw):
    x = fw.leaf([1., 2.])
    fw.set_grad(x, fw.tensor([10., 10.]))
    fw.backward(fw.sum(x * 1.))
    return {"x.grad": fw.read_grad(x)}


@scenario("accumulation", ".grad set to None starts over", expect=[])
def grad_reset_to_none(fw):
    x = fw.leaf([1., 2.])
    fw.backward(fw.sum(x * x))
    fw.set_grad(x, None)
    after_reset = fw.read_grad(x)
    fw.backward(fw.sum(x * 3.))
    return {"after reset": after_reset, "x.grad": fw.read_grad(x)}


@scenario("accumulation", "the framework's default zero_grad: None or zeros", expect=[
    Expect("paddle", "paddle's clear_grad() zero-fills the gradient instead of dropping it", D.PADDLE_CLEAR_GRAD,
           {"after zero_grad": [0., 0.]}),
    Expect("oneflow", "OneFlow's zero_grad defaults to set_to_none=False (zero-fill)", D.ONEFLOW_ZERO_GRAD,
           {"after zero_grad": [0., 0.]}),
])
def default_zero_grad(fw):
    x = fw.leaf([1., 2.])
    fw.backward(fw.sum(x * x))
    fw.zero_grad(x)
    after = fw.read_grad(x)
    after = None if after is None else fw.clone(after)
    fw.backward(fw.sum(x * 3.))
    return {"after zero_grad": after, "x.grad": fw.read_grad(x)}


@scenario("accumulation", "the .grad of a non-leaf is None; torch warns on access", expect=[
    Expect("paddle", "paddle returns None silently", D.PADDLE_TENSOR, {"access": []}),
    Expect("oneflow", "OneFlow returns None silently", D.ONEFLOW_AUTOGRAD, {"access": []}),
])
def nonleaf_grad_access(fw):
    x = fw.leaf([1., 2.])
    h = x * 2.
    fw.backward(fw.sum(h * h))
    with fw.warns("access"):
        value = fw.read_grad(h)
    return {"h.grad": value}


@scenario("accumulation", "gradients of a leaf with requires_grad but never used stay None")
def unused_leaf(fw):
    x = fw.leaf([1., 2.])
    unused = fw.leaf([1., 2.])
    fw.backward(fw.sum(x * x))
    return {"unused.grad": fw.read_grad(unused)}


@scenario("accumulation", "the accumulated gradient tensor itself requires no grad", expect=[
    Expect("paddle", "paddle's x.grad has stop_gradient=False", D.PADDLE_TENSOR, {"x.grad requires grad": True}),
])
def grad_tensor_flags(fw):
    x = fw.leaf([1., 2.])
    fw.backward(fw.sum(x * x))
    g = fw.read_grad(x)
    return {"x.grad requires grad": fw.requires_grad(g), "x.grad is leaf": fw.is_leaf(g)}


@scenario("accumulation", "gradients from two separate graphs add into one leaf")
def two_graphs(fw):
    x = fw.leaf([1., 2.])
    a = fw.sum(fw.exp(x))
    b = fw.sum(fw.sin(x))
    fw.backward(a)
    fw.backward(b)
    return {"x.grad": fw.read_grad(x)}


@scenario("accumulation", "a float64 leaf keeps float64 gradients")
def float64_leaf(fw):
    x = fw.leaf([1., 2.], dtype="float64")
    fw.backward(fw.sum(x * x * 0.5))
    return {"x.grad": fw.read_grad(x)}
