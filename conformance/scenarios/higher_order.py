"""create_graph and higher-order gradients."""
from __future__ import annotations

from .. import docs as D
from ..expect import OK, Expect, Raises
from ..scenario import register, scenario


@scenario("higher_order", "first, second and third derivatives of x**3 through grad(create_graph=True)")
def third_order(fw):
    x = fw.leaf(3.)
    g1, = fw.grad(x * x * x, [x], create_graph=True)
    g2, = fw.grad(g1, [x], create_graph=True)
    g3, = fw.grad(g2, [x])
    return {"g1": g1, "g2": g2, "g3": g3}


@scenario("higher_order", "gradients carry a graph only when create_graph=True")
def create_graph_flags(fw):
    x = fw.leaf([1., 2.])
    plain, = fw.grad(fw.sum(x * x * x), [x])
    graphed, = fw.grad(fw.sum(x * x * x), [x], create_graph=True)
    return {"plain requires grad": fw.requires_grad(plain), "graphed requires grad": fw.requires_grad(graphed),
            "plain is leaf": fw.is_leaf(plain), "graphed is leaf": fw.is_leaf(graphed)}


@scenario("higher_order", "the gradient of a linear function has no graph; differentiating it again", expect=[
    Expect("paddle", "paddle.grad results have stop_gradient=False under create_graph; a constant gives None",
           D.PADDLE_GRAD, {"second": OK, "g requires grad": True, "second result": [None]}),
    Expect("oneflow", "OneFlow's check-failed error keeps a literal RuntimeError prefix", D.ONEFLOW_GRAD,
           {"second": Raises("Exception", "element 0 of tensors does not require grad")}),
])
def linear_second_order(fw):
    x = fw.leaf([1., 2.])
    g, = fw.grad(fw.sum(x * 2.), [x], create_graph=True)
    second = fw.attempt("second", fw.grad, fw.sum(g), [x], allow_unused=True)
    return {"g": g, "g requires grad": fw.requires_grad(g), "second result": second}


@scenario("higher_order", "mixed second derivative d2(x*y)/dx dy")
def mixed_partials(fw):
    x = fw.leaf([1., 2.])
    y = fw.leaf([3., 4.])
    gx, = fw.grad(fw.sum(x * y * y), [x], create_graph=True)
    gxy, = fw.grad(fw.sum(gx), [y])
    return {"gx": gx, "gxy": gxy}


@scenario("higher_order", "grad_outputs that require grad become part of the double-backward graph")
def grad_outputs_in_graph(fw):
    x = fw.leaf([1., 2.])
    v = fw.leaf([3., 5.])
    g, = fw.grad(x * x * x, [x], grad_outputs=[v], create_graph=True)
    gv, = fw.grad(fw.sum(g), [v])
    return {"g": g, "gv": gv}


@scenario("higher_order", "create_graph=True inside a no-grad block still records the gradient graph")
def create_graph_under_no_grad(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x * x * x)
    with fw.no_grad():
        g, = fw.grad(y, [x], create_graph=True)
    return {"g": g, "g requires grad": fw.requires_grad(g)}


@scenario("higher_order", "backward(create_graph=True): .grad gets a graph; a second backward through it",
          needs=["backward_create_graph"])
def backward_create_graph(fw):
    x = fw.leaf([1., 2.])
    fw.backward(fw.sum(x * x * x), create_graph=True)
    first = fw.clone(fw.read_grad(x))
    flag = fw.requires_grad(fw.read_grad(x))
    fw.backward(fw.sum(fw.read_grad(x)))
    return {"first x.grad": first, "x.grad requires grad": flag, "x.grad": fw.read_grad(x)}


@scenario("higher_order", "Hessian-vector product through a double backward (z = x^2 + xy + y^2)",
          needs=["backward_create_graph"])
def hessian_vector_double_backward(fw):
    x = fw.leaf([1., 2.])
    y = fw.leaf([3., 4.])
    z = x * x + y * x + y * y
    ones = fw.tensor([1., 1.])
    fw.backward(z, ones, create_graph=True)
    fw.backward(fw.read_grad(x) * 2. + fw.read_grad(y), ones)
    return {"x.grad": fw.read_grad(x), "y.grad": fw.read_grad(y)}


@scenario("higher_order", "the second derivative of matmul w.r.t. a tensor reached only through the gradient")
def matmul_double_grad(fw):
    x = fw.leaf([[1., 2.], [3., 4.]])
    w = fw.leaf([[1., 0.], [2., 1.]])
    g, = fw.grad(fw.sum(fw.matmul(x, w)), [x], create_graph=True)
    gw, = fw.grad(fw.sum(g * g), [w])
    return {"g": g, "gw": gw}


@scenario("higher_order", "second-order gradient through softmax", expect=[
    Expect("paddle", "paddle's softmax_grad has no registered double-grad op", D.PADDLE_GRAD,
           {"first order": Raises("RuntimeError", "The Op softmax_grad doesn't have any grad op"),
            "g": None, "h": None}),
])
def softmax_second_order(fw):
    x = fw.leaf([0.5, 1., 2.])
    w = fw.tensor([1., 2., 3.])
    first = fw.attempt("first order", fw.grad, fw.sum(fw.softmax(x, 0) * w), [x], create_graph=True)
    h = first and fw.grad(fw.sum(first[0] * first[0]), [x])
    return {"g": first and first[0], "h": h and h[0]}


_SECOND_ORDER = {
    "exp": "fw.exp(x)", "log": "fw.log(x)", "sin": "fw.sin(x)", "cos": "fw.cos(x)", "tanh": "fw.tanh(x)",
    "sigmoid": "fw.sigmoid(x)", "sqrt": "fw.sqrt(x)", "pow": "fw.pow(x, 3.)", "div": "1. / x",
}


def _second_order(op: str, expr: str) -> None:
    src = (f"def second_derivative_{op}(fw):\n"
           f"    x = fw.leaf([0.5, 1., 2.])\n"
           f"    y = {expr}\n"
           f"    g, = fw.grad(fw.sum(y), [x], create_graph=True)\n"
           f"    h, = fw.grad(fw.sum(g), [x])\n"
           f"    return {{\"y\": y, \"g\": g, \"h\": h}}\n")
    namespace: dict = {}
    exec(compile(src, f"<scenario higher_order.second_derivative_{op}>", "exec"), namespace)
    register("higher_order", f"second_derivative_{op}", f"second derivative of {expr.replace('fw.', '')}",
             namespace[f"second_derivative_{op}"], source=src)


for _op, _expr in _SECOND_ORDER.items():
    _second_order(_op, _expr)
