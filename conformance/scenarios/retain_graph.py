"""retain_graph and freeing: which second backward works, which raises, and with what."""
from __future__ import annotations

from .. import docs as D
from ..expect import OK, Expect, Raises
from ..scenario import scenario

PADDLE_FREED = Raises("SystemError", r"The TensorWrappers of \w+ do not exist")
ONEFLOW_FREED = Raises("Exception", r"has been released")
PADDLE_ANY_NODE = "paddle frees every node it ran, saved tensors or not, and says so with its own message"


@scenario("retain_graph", "a second backward through nodes that saved tensors", expect=[
    Expect("paddle", "paddle reports freed TensorWrappers (SystemError)", D.PADDLE_BACKWARD,
           {"second": PADDLE_FREED}),
    Expect("oneflow", "OneFlow reports a released FunctionNode", D.ONEFLOW_BACKWARD, {"second": ONEFLOW_FREED}),
])
def twice_saved(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x * x)
    fw.backward(y)
    fw.attempt("second", fw.backward, y)
    return {"x.grad": fw.read_grad(x)}


@scenario("retain_graph", "a second backward through nodes that saved nothing (x + 1, sum)", expect=[
    Expect("paddle", PADDLE_ANY_NODE, D.PADDLE_BACKWARD, {"second": PADDLE_FREED, "x.grad": [1., 1.]}),
    Expect("oneflow", "OneFlow's reduce_sum saves its input, so the sum node is released", D.ONEFLOW_BACKWARD,
           {"second": ONEFLOW_FREED, "x.grad": [1., 1.]}),
])
def twice_nothing_saved(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x + 1.)
    fw.backward(y)
    fw.attempt("second", fw.backward, y)
    return {"x.grad": fw.read_grad(x)}


@scenario("retain_graph", "x + 1 seeded explicitly, backward twice (the add saves nothing)", expect=[
    Expect("paddle", PADDLE_ANY_NODE, D.PADDLE_BACKWARD, {"second": PADDLE_FREED, "x.grad": [1., 1.]}),
])
def twice_add_explicit_seed(fw):
    x = fw.leaf([1., 2.])
    y = x + 1.
    g = fw.tensor([1., 1.])
    fw.backward(y, g)
    fw.attempt("second", fw.backward, y, g)
    return {"x.grad": fw.read_grad(x)}


@scenario("retain_graph", "x * 2 seeded explicitly, backward twice (torch saves the scalar)", expect=[
    Expect("paddle", PADDLE_ANY_NODE, D.PADDLE_BACKWARD, {"second": PADDLE_FREED}),
    Expect("oneflow", "OneFlow's scalar_mul saves nothing and can run again", D.ONEFLOW_BACKWARD,
           {"second": OK, "x.grad": [4., 4.]}),
])
def twice_scalar_mul(fw):
    x = fw.leaf([1., 2.])
    y = x * 2.
    g = fw.tensor([1., 1.])
    fw.backward(y, g)
    fw.attempt("second", fw.backward, y, g)
    return {"x.grad": fw.read_grad(x)}


@scenario("retain_graph", "matmul backward twice: the weight is saved even without gradient", expect=[
    Expect("paddle", "paddle reports freed TensorWrappers (SystemError)", D.PADDLE_BACKWARD, {"second": PADDLE_FREED}),
    Expect("oneflow", "OneFlow reports a released FunctionNode", D.ONEFLOW_BACKWARD, {"second": ONEFLOW_FREED}),
])
def twice_matmul(fw):
    x = fw.leaf([[1., 2.]])
    w = fw.tensor([[1., 0.], [2., 1.]])
    y = fw.sum(fw.matmul(x, w))
    fw.backward(y)
    fw.attempt("second", fw.backward, y)
    return {"x.grad": fw.read_grad(x)}


@scenario("retain_graph", "retain_graph=True, then a default backward, then a third", expect=[
    Expect("paddle", "paddle reports freed TensorWrappers (SystemError)", D.PADDLE_BACKWARD, {"third": PADDLE_FREED}),
    Expect("oneflow", "OneFlow reports a released FunctionNode", D.ONEFLOW_BACKWARD, {"third": ONEFLOW_FREED}),
])
def retain_then_default(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x * x)
    fw.backward(y, retain_graph=True)
    fw.attempt("second", fw.backward, y)
    fw.attempt("third", fw.backward, y)
    return {"x.grad": fw.read_grad(x)}


@scenario("retain_graph", "retain_graph=True three times: gradients accumulate")
def retain_three_times(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x * x * x)
    for _ in range(3):
        fw.backward(y, retain_graph=True)
    return {"x.grad": fw.read_grad(x)}


@scenario("retain_graph", "two losses over a shared subgraph: the first backward frees it", expect=[
    Expect("paddle", "paddle reports freed TensorWrappers (SystemError)", D.PADDLE_BACKWARD, {"b": PADDLE_FREED}),
    Expect("oneflow", "OneFlow reports a released FunctionNode", D.ONEFLOW_BACKWARD, {"b": ONEFLOW_FREED}),
])
def shared_subgraph(fw):
    x = fw.leaf([1., 2.])
    h = x * x
    a = fw.sum(h * 3.)
    b = fw.sum(h * 5.)
    fw.attempt("a", fw.backward, a)
    fw.attempt("b", fw.backward, b)
    return {"x.grad": fw.read_grad(x)}


@scenario("retain_graph", "retain_graph=True on the first of two losses over a shared subgraph")
def shared_subgraph_retained(fw):
    x = fw.leaf([1., 2.])
    h = x * x
    fw.backward(fw.sum(h * 3.), retain_graph=True)
    fw.backward(fw.sum(h * 5.))
    return {"x.grad": fw.read_grad(x)}


@scenario("retain_graph", "autograd.grad twice on one graph (grad frees by default)", expect=[
    Expect("paddle", "paddle.grad runs on a copy of the graph and never frees it", D.PADDLE_GRAD,
           {"second": OK, "second grad": [2., 4.]}),
    Expect("oneflow", "OneFlow reports a released FunctionNode", D.ONEFLOW_GRAD, {"second": ONEFLOW_FREED}),
])
def grad_twice(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x * x)
    first = fw.grad(y, [x])
    second = fw.attempt("second", fw.grad, y, [x])
    return {"first grad": first[0], "second grad": None if second is None else second[0]}


@scenario("retain_graph", "backward after autograd.grad on the same graph", expect=[
    Expect("paddle", "paddle.grad leaves the graph usable", D.PADDLE_GRAD,
           {"backward": OK, "x.grad": [2., 4.]}),
    Expect("oneflow", "OneFlow reports a released FunctionNode", D.ONEFLOW_GRAD, {"backward": ONEFLOW_FREED}),
])
def backward_after_grad(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x * x)
    fw.grad(y, [x])
    fw.attempt("backward", fw.backward, y)
    return {"x.grad": fw.read_grad(x)}


@scenario("retain_graph", "grad with create_graph=True retains by default: a second grad works, a third raises",
          expect=[
              Expect("paddle", "paddle.grad never frees the graph", D.PADDLE_GRAD,
                     {"third": OK, "third grad": [2., 4.]}),
              Expect("oneflow", "OneFlow reports a released FunctionNode", D.ONEFLOW_GRAD, {"third": ONEFLOW_FREED}),
          ])
def create_graph_retains(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x * x)
    g1 = fw.grad(y, [x], create_graph=True)
    g2 = fw.attempt("second", fw.grad, y, [x])
    g3 = fw.attempt("third", fw.grad, y, [x])
    return {"first grad": g1[0], "second grad": g2 and g2[0], "third grad": g3 and g3[0]}


@scenario("retain_graph", "create_graph=True with an explicit retain_graph=False frees the graph", expect=[
    Expect("paddle", "paddle.grad never frees the graph", D.PADDLE_GRAD, {"second": OK, "second grad": [2., 4.]}),
    Expect("oneflow", "OneFlow forces retain_graph=True whenever create_graph=True", D.ONEFLOW_GRAD,
           {"second": OK, "second grad": [2., 4.]}),
])
def create_graph_explicit_no_retain(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x * x)
    g1 = fw.grad(y, [x], create_graph=True, retain_graph=False)
    g2 = fw.attempt("second", fw.grad, y, [x])
    h = fw.grad(fw.sum(g1[0]), [x])
    return {"second grad": g2 and g2[0], "second order": h[0]}


@scenario("retain_graph", "a fresh graph from the same leaves is independent of a freed one")
def rebuild_after_free(fw):
    x = fw.leaf([1., 2.])
    fw.backward(fw.sum(x * x))
    fw.backward(fw.sum(x * x))
    return {"x.grad": fw.read_grad(x)}


@scenario("retain_graph", "a second backward on a leaf used directly as a root")
def leaf_root_twice(fw):
    x = fw.leaf([1., 2.])
    g = fw.tensor([1., 1.])
    fw.backward(x, g)
    fw.attempt("second", fw.backward, x, g)
    return {"x.grad": fw.read_grad(x)}
