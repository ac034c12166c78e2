"""inputs= of backward: accumulate only into the listed tensors (PyTorch only; paddle's and
OneFlow's backward have no such argument)."""
from __future__ import annotations

from ..scenario import scenario

NEEDS = ["backward_inputs"]


@scenario("inputs", "only the listed leaves receive gradients", needs=NEEDS)
def subset(fw):
    x = fw.leaf([1., 2.])
    w = fw.leaf([3., 4.])
    fw.backward(fw.sum(x * w), inputs=[x])
    return {"x.grad": fw.read_grad(x), "w.grad": fw.read_grad(w)}


@scenario("inputs", "a single tensor as inputs=", needs=NEEDS)
def single_tensor(fw):
    x = fw.leaf([1., 2.])
    w = fw.leaf([3., 4.])
    fw.backward(fw.sum(x * w), inputs=w)
    return {"x.grad": fw.read_grad(x), "w.grad": fw.read_grad(w)}


@scenario("inputs", "Tensor.backward(inputs=...)", needs=NEEDS)
def tensor_method(fw):
    x = fw.leaf([1., 2.])
    w = fw.leaf([3., 4.])
    fw.tensor_backward(fw.sum(x * x * w), inputs=[x])
    return {"x.grad": fw.read_grad(x), "w.grad": fw.read_grad(w)}


@scenario("inputs", "a non-leaf in inputs gets .grad (and retains it); leaves below it get nothing", needs=NEEDS)
def nonleaf(fw):
    x = fw.leaf([1., 2.])
    h = x * 3.
    fw.backward(fw.sum(h * h), inputs=[h])
    return {"h.grad": fw.read_grad(h), "h retains grad": fw.retains_grad(h), "x.grad": fw.read_grad(x)}


@scenario("inputs", "an input that is not part of the graph is ignored", needs=NEEDS)
def unreachable(fw):
    x = fw.leaf([1., 2.])
    other = fw.leaf([5., 6.])
    fw.backward(fw.sum(x * x), inputs=[x, other])
    return {"x.grad": fw.read_grad(x), "other.grad": fw.read_grad(other)}


@scenario("inputs", "an empty inputs= list", needs=NEEDS)
def empty(fw):
    x = fw.leaf([1., 2.])
    fw.attempt("backward", fw.backward, fw.sum(x * x), inputs=[])
    return {"x.grad": fw.read_grad(x)}


@scenario("inputs", "an input that does not require grad", needs=NEEDS)
def not_requiring_grad(fw):
    x = fw.leaf([1., 2.])
    c = fw.tensor([1., 1.])
    fw.attempt("backward", fw.backward, fw.sum(x * c), inputs=[c])
    return {"x.grad": fw.read_grad(x)}


@scenario("inputs", "a non-tensor among the inputs", needs=NEEDS)
def non_tensor(fw):
    x = fw.leaf([1., 2.])
    fw.attempt("backward", fw.backward, fw.sum(x * x), inputs=[1.0])
    return {"x.grad": fw.read_grad(x)}


@scenario("inputs", "inputs= with retain_graph: a second pass accumulates into the same inputs", needs=NEEDS)
def accumulates(fw):
    x = fw.leaf([1., 2.])
    w = fw.leaf([3., 4.])
    y = fw.sum(x * w)
    fw.backward(y, inputs=[w], retain_graph=True)
    fw.backward(y, inputs=[w, x])
    return {"x.grad": fw.read_grad(x), "w.grad": fw.read_grad(w)}
