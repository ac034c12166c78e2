"""Saved-tensor hooks: pack at forward, unpack at backward."""
from __future__ import annotations

from .. import docs as D
from ..expect import Expect, Raises
from ..scenario import scenario

NEEDS = ["saved_tensors_hooks"]


@scenario("saved_hooks", "pack and unpack counts for mul and exp", needs=NEEDS)
def counts(fw):
    log = []

    def pack(t):
        log.append("pack")
        return t

    def unpack(t):
        log.append("unpack")
        return t
    x = fw.leaf([1., 2.])
    with fw.saved_tensors_hooks(pack, unpack):
        y = fw.exp(x * x)
    packs = log.count("pack")
    fw.backward(y, fw.tensor([1., 1.]))
    return {"packs": packs, "unpacks": log.count("unpack"), "x.grad": fw.read_grad(x)}


@scenario("saved_hooks", "what unpack returns is what backward uses", needs=NEEDS)
def unpack_value_used(fw):
    x = fw.leaf([1., 2.])
    with fw.saved_tensors_hooks(lambda t: t * 2., lambda t: t):
        y = x * x
    fw.backward(y, fw.tensor([1., 1.]))
    return {"x.grad": fw.read_grad(x)}


@scenario("saved_hooks", "the hooks captured at forward apply at backward outside the block", needs=NEEDS)
def captured_at_forward(fw):
    log = []
    x = fw.leaf([1., 2.])
    with fw.saved_tensors_hooks(lambda t: t, lambda t: log.append("unpack") or t):
        y = x * x
    fw.backward(y, fw.tensor([1., 1.]))
    return {"unpacks": len(log), "x.grad": fw.read_grad(x)}


@scenario("saved_hooks", "nested hooks: the innermost pair applies", needs=NEEDS, expect=[
    Expect("paddle", "paddle allows one pair of saved-tensor hooks at a time", D.PADDLE_SAVED_HOOKS,
           {"nest": Raises("ValueError", "only one pair of hooks is allowed at a time"), "x.grad": None}),
])
def nested(fw):
    x = fw.leaf([1., 2.])
    y = None
    with fw.saved_tensors_hooks(lambda t: t * 3., lambda t: t):
        with fw.step("nest"):
            with fw.saved_tensors_hooks(lambda t: t * 5., lambda t: t):
                y = x * x
    if y is not None:
        fw.backward(y, fw.tensor([1., 1.]))
    return {"x.grad": fw.read_grad(x)}


@scenario("saved_hooks", "nothing is packed without grad", needs=NEEDS)
def nothing_without_grad(fw):
    log = []
    x = fw.leaf([1., 2.])
    c = fw.tensor([3., 4.])
    with fw.saved_tensors_hooks(lambda t: log.append("pack") or t, lambda t: t):
        c * c
        with fw.no_grad():
            x * x
    return {"packs": len(log)}


@scenario("saved_hooks", "an unpack hook returning a non-tensor", needs=NEEDS, expect=[
    Expect("paddle", "paddle's check fails with a message about hook pairs (ValueError)", D.PADDLE_SAVED_HOOKS,
           {"backward": Raises("ValueError", "saved_tensors_hooks only one pair of hooks is allowed at a time")}),
    Expect("oneflow", "OneFlow words the check differently", D.ONEFLOW_SAVED_HOOKS,
           {"backward": Raises("RuntimeError", "unpack_hook should return a Tensor")}),
])
def unpack_non_tensor(fw):
    x = fw.leaf([1., 2.])
    with fw.saved_tensors_hooks(lambda t: t, lambda t: 3):
        y = x * x
    fw.attempt("backward", fw.backward, y, fw.tensor([1., 1.]))
    return {"x.grad": fw.read_grad(x)}


@scenario("saved_hooks", "a custom function's saved tensors go through the hooks", needs=NEEDS)
def custom_function_saves(fw):
    log = []

    def forward(ctx, x):
        fw.save_for_backward(ctx, x)
        return x * 2.

    def backward(ctx, g):
        x, = fw.saved_tensors(ctx)
        return g * x
    cls = fw.function("Saver", forward, backward)
    a = fw.leaf([1., 2.])
    with fw.saved_tensors_hooks(lambda t: log.append("pack") or t, lambda t: log.append("unpack") or t):
        y = fw.apply(cls, a)
    fw.backward(fw.sum(y))
    return {"log": log, "a.grad": fw.read_grad(a)}


@scenario("saved_hooks", "an exception raised by pack propagates from the forward op", needs=NEEDS, expect=[
    Expect("paddle", "paddle re-raises errors from Python callbacks as OSError (External)", D.PADDLE_SAVED_HOOKS,
           {"forward": Raises("OSError", "ValueError: boom in pack")}),
])
def pack_raises(fw):
    def pack(t):
        raise ValueError("boom in pack")
    x = fw.leaf([1., 2.])
    with fw.step("forward"):
        with fw.saved_tensors_hooks(pack, lambda t: t):
            x * x
    return {}
