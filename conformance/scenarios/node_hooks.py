"""Hooks on graph nodes (pre- and post-hooks of grad_fn) and post-accumulate-grad hooks (PyTorch)."""
from __future__ import annotations

from ..scenario import scenario

NODE = ["node_hooks"]
POST = ["post_accumulate_hook"]


@scenario("node_hooks", "a node pre-hook replaces the incoming gradient", needs=NODE)
def prehook_replaces(fw):
    x = fw.leaf([1., 2.])
    y = x * 2.
    fw.register_node_prehook(y, lambda grad_outputs: (grad_outputs[0] * 10.,))
    fw.backward(y, fw.tensor([1., 1.]))
    return {"x.grad": fw.read_grad(x)}


@scenario("node_hooks", "a node post-hook replaces the outgoing gradients", needs=NODE)
def posthook_replaces(fw):
    x = fw.leaf([1., 2.])
    y = x * 2.
    fw.register_node_hook(y, lambda grad_inputs, grad_outputs: (grad_inputs[0] * 100., None))
    fw.backward(y, fw.tensor([1., 1.]))
    return {"x.grad": fw.read_grad(x)}


@scenario("node_hooks", "what node hooks receive: gradients in and out of the node", needs=NODE)
def what_hooks_see(fw):
    x = fw.leaf([1., 2.])
    w = fw.leaf([3., 4.])
    y = x * w
    seen = {}
    fw.register_node_prehook(y, lambda go: seen.__setitem__("pre grad_outputs", [fw.clone(g) for g in go]))
    fw.register_node_hook(y, lambda gi, go: seen.__setitem__("post grad_inputs", [fw.clone(g) for g in gi]))
    fw.backward(y, fw.tensor([1., 10.]))
    return seen


@scenario("node_hooks", "a pre-hook returning a tensor instead of a tuple", needs=NODE)
def prehook_returns_tensor(fw):
    x = fw.leaf([1., 2.])
    y = x * 2.
    fw.register_node_prehook(y, lambda go: go[0])
    fw.attempt("backward", fw.backward, y, fw.tensor([1., 1.]))
    return {"x.grad": fw.read_grad(x)}


@scenario("node_hooks", "a post-hook returning the wrong number of gradients", needs=NODE)
def posthook_wrong_count(fw):
    x = fw.leaf([1., 2.])
    y = x * 2.

    def short_hook(grad_inputs, grad_outputs):
        return (grad_inputs[0],) * 3
    fw.register_node_hook(y, short_hook)
    fw.attempt("backward", fw.backward, y, fw.tensor([1., 1.]))
    return {"x.grad": fw.read_grad(x)}


@scenario("node_hooks", "tensor hook, node pre-hook and node post-hook run in that order", needs=NODE)
def order(fw):
    x = fw.leaf([1., 2.])
    y = x * 2.
    log = []
    fw.register_node_hook(y, lambda gi, go: log.append("node-post"))
    fw.register_node_prehook(y, lambda go: log.append("node-pre"))
    fw.register_hook(y, lambda g: log.append("tensor"))
    fw.backward(y, fw.tensor([1., 1.]))
    return {"order": log}


@scenario("node_hooks", "node hooks stay across retained backwards", needs=NODE)
def persists(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x * x)
    calls = []
    fw.register_node_hook(y, lambda gi, go: calls.append(1))
    fw.backward(y, retain_graph=True)
    fw.backward(y)
    return {"calls": len(calls), "x.grad": fw.read_grad(x)}


@scenario("node_hooks", "a post-accumulate hook sees the updated .grad", needs=POST)
def post_accumulate_sees_grad(fw):
    x = fw.leaf([1., 2.])
    seen = []
    fw.register_post_accumulate_hook(x, lambda t: seen.append(fw.clone(fw.read_grad(t))))
    fw.backward(fw.sum(x * 3.))
    fw.backward(fw.sum(x * 3.))
    return {"seen": seen}


@scenario("node_hooks", "a post-accumulate hook on a non-leaf", needs=POST)
def post_accumulate_nonleaf(fw):
    x = fw.leaf([1., 2.])
    h = x * 2.
    fw.attempt("register", fw.register_post_accumulate_hook, h, lambda t: None)
    return {}


@scenario("node_hooks", "a post-accumulate hook that returns a value", needs=POST)
def post_accumulate_returns(fw):
    x = fw.leaf([1., 2.])
    fw.register_post_accumulate_hook(x, lambda t: fw.read_grad(t))
    fw.attempt("backward", fw.backward, fw.sum(x * 3.))
    return {}


@scenario("node_hooks", "a post-accumulate hook may change .grad in place", needs=POST)
def post_accumulate_in_place(fw):
    x = fw.leaf([1., 2.])

    def halve(t):
        with fw.no_grad():
            fw.mul_(fw.read_grad(t), 0.5)
    fw.register_post_accumulate_hook(x, halve)
    fw.backward(fw.sum(x * 3.))
    return {"x.grad": fw.read_grad(x)}
