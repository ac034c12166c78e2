"""In-place ops: version counters, modified saved tensors, in-place on leaves, rebasing history."""
from __future__ import annotations

from .. import docs as D
from ..expect import OK, Expect, Raises
from ..scenario import scenario

PADDLE_VERSION = Raises("RuntimeError", r"has been modified by an inplace operation. Its version is 1 but the expected version is 0")


@scenario("inplace", "a saved input modified in place before backward", expect=[
    Expect("paddle", "paddle checks the version with its own message", D.PADDLE_INPLACE,
           {"backward": PADDLE_VERSION}),
    Expect("oneflow", "OneFlow has no version counter: backward uses the modified value", D.ONEFLOW_AUTOGRAD,
           {"backward": OK, "a.grad": [12., 20.]}),
])
def modified_saved_input(fw):
    a = fw.leaf([1., 2.])
    b = a * 2.
    c = b * b
    fw.add_(b, 1.)
    fw.attempt("backward", fw.backward, fw.sum(c))
    return {"a.grad": fw.read_grad(a)}


@scenario("inplace", "a saved output (exp) modified in place before backward", expect=[
    Expect("paddle", "paddle checks the version with its own message", D.PADDLE_INPLACE,
           {"backward": PADDLE_VERSION}),
    Expect("oneflow", "OneFlow has no version counter: backward uses the modified value", D.ONEFLOW_AUTOGRAD,
           {"backward": OK, "a.grad": [4., 10.873127]}),
])
def modified_saved_output(fw):
    a = fw.leaf([0., 1.])
    e = fw.exp(a)
    fw.mul_(e, 2.)
    fw.attempt("backward", fw.backward, fw.sum(e))
    return {"a.grad": fw.read_grad(a)}


@scenario("inplace", "an in-place op on a leaf that requires grad", expect=[
    Expect("paddle", "paddle raises ValueError after the in-place add already changed the leaf", D.PADDLE_INPLACE,
           {"add_": Raises("ValueError", "that doesn't stop gradient can't use inplace strategy"), "x": [2., 3.]}),
    Expect("oneflow", "OneFlow says Tensor where PyTorch says Variable", D.ONEFLOW_AUTOGRAD,
           {"add_": Raises("RuntimeError", "a leaf Tensor that requires grad is being used in an in-place operation")}),
])
def on_leaf(fw):
    x = fw.leaf([1., 2.])
    fw.attempt("add_", fw.add_, x, 1.)
    return {"x": x}


@scenario("inplace", "in-place on a leaf under no_grad is allowed; it stays a leaf")
def on_leaf_no_grad(fw):
    x = fw.leaf([1., 2.])
    with fw.no_grad():
        fw.add_(x, 1.)
    return {"x": x, "is leaf": fw.is_leaf(x), "requires grad": fw.requires_grad(x)}


@scenario("inplace", "each in-place op bumps the version", needs=["version_counter"])
def version_counts(fw):
    t = fw.tensor([1., 2.])
    seen = [fw.version_of(t)]
    fw.add_(t, 1.)
    seen.append(fw.version_of(t))
    fw.mul_(t, 2.)
    seen.append(fw.version_of(t))
    with fw.no_grad():
        fw.add_(t, 1.)
    seen.append(fw.version_of(t))
    return {"versions": seen}


@scenario("inplace", "a detached alias shares the version counter", needs=["version_counter"])
def detach_shares_version(fw):
    x = fw.leaf([1., 2.])
    d = fw.detach(x)
    fw.add_(d, 1.)
    return {"x version": fw.version_of(x), "d version": fw.version_of(d), "x": x}


@scenario("inplace", "in-place on a tensor not needed by backward is fine")
def not_saved_ok(fw):
    a = fw.leaf([1., 2.])
    b = a * 2.
    c = b + 3.
    fw.add_(b, 1.)
    fw.backward(fw.sum(c))
    return {"a.grad": fw.read_grad(a), "b": b}


@scenario("inplace", "an in-place op rewires the graph: gradients see it")
def rebases_history(fw):
    a = fw.leaf([1., 2.])
    b = a * 2.
    fw.mul_(b, 3.)
    fw.backward(fw.sum(b))
    return {"a.grad": fw.read_grad(a), "b": b}


@scenario("inplace", "in-place with a grad-requiring operand makes the target require grad")
def target_starts_requiring_grad(fw):
    w = fw.leaf([1., 2.])
    t = fw.zeros([2])
    fw.add_(t, w * 3.)
    flags = [fw.requires_grad(t), fw.is_leaf(t)]
    fw.backward(fw.sum(t * t))
    return {"requires grad, is leaf": flags, "w.grad": fw.read_grad(w)}


@scenario("inplace", "assigning into a slice from a grad-requiring tensor")
def setitem_from_grad(fw):
    w = fw.leaf([1., 2.])
    t = fw.zeros([2])
    fw.setitem(t, 0, w[0] * 5.)
    fw.backward(fw.sum(t))
    return {"t": t, "w.grad": fw.read_grad(w)}


@scenario("inplace", "assigning into a slice of a non-leaf: the base's gradient")
def setitem_nonleaf(fw):
    x = fw.leaf([1., 2., 3.])
    y = x * 2.
    fw.setitem(y, 1, 0.)
    fw.backward(fw.sum(y * y))
    return {"y": y, "x.grad": fw.read_grad(x)}


@scenario("inplace", "in-place under no_grad on a saved tensor still bumps the version", expect=[
    Expect("paddle", "paddle checks the version with its own message", D.PADDLE_INPLACE,
           {"backward": PADDLE_VERSION}),
    Expect("oneflow", "OneFlow has no version counter: backward uses the modified value", D.ONEFLOW_AUTOGRAD,
           {"backward": OK, "a.grad": [3., 5.]}),
])
def no_grad_inplace_on_saved(fw):
    a = fw.leaf([1., 2.])
    b = a * 1.
    c = b * a
    with fw.no_grad():
        fw.add_(b, 1.)
    fw.attempt("backward", fw.backward, fw.sum(c))
    return {"a.grad": fw.read_grad(a)}
