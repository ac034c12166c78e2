"""autograd.grad: return values and options (allow_unused, grad_outputs, batched, duplicates)."""
from __future__ import annotations

from .. import docs as D
from ..expect import OK, Expect, Raises
from ..scenario import scenario

ONEFLOW_NONSCALAR = Expect("oneflow", "OneFlow's message starts with a capital G", D.ONEFLOW_GRAD,
                           {"grad": Raises("Exception", "^Grad can be implicitly created only for scalar outputs")})


@scenario("grad_api", "grad of a scalar w.r.t. one input")
def basic(fw):
    x = fw.leaf([1., 2.])
    g, = fw.grad(fw.sum(x * x), [x])
    return {"g": g}


@scenario("grad_api", "grad returns a tuple (paddle: a list)", expect=[
    Expect("paddle", "paddle.grad returns a list", D.PADDLE_GRAD, {"container": "list"}),
])
def container_type(fw):
    x = fw.leaf([1., 2.])
    out = fw.grad_raw(fw.sum(x * x), [x])
    return {"container": type(out).__name__, "length": len(out)}


@scenario("grad_api", "grad leaves .grad untouched")
def leaves_dot_grad(fw):
    x = fw.leaf([1., 2.])
    fw.grad(fw.sum(x * x), [x])
    return {"x.grad": fw.read_grad(x)}


@scenario("grad_api", "grad results are plain tensors without graph")
def result_flags(fw):
    x = fw.leaf([1., 2.])
    g, = fw.grad(fw.sum(x * x), [x])
    return {"g requires grad": fw.requires_grad(g), "g is leaf": fw.is_leaf(g)}


@scenario("grad_api", "an input that does not reach the output, without allow_unused", expect=[
    Expect("paddle", "paddle raises ValueError with its own wording", D.PADDLE_GRAD,
           {"grad": Raises("ValueError", "The 1-th input does not appear in the backward graph")}),
    Expect("oneflow", "OneFlow does not name the index", D.ONEFLOW_GRAD,
           {"grad": Raises("RuntimeError", "One of the differentiated Tensors appears to not have been used in the graph")}),
])
def unused_input(fw):
    x = fw.leaf([1., 2.])
    unused = fw.leaf([3., 4.])
    fw.attempt("grad", fw.grad, fw.sum(x * x), [x, unused])
    return {}


@scenario("grad_api", "allow_unused=True gives None for the unused input")
def allow_unused(fw):
    x = fw.leaf([1., 2.])
    unused = fw.leaf([3., 4.])
    return {"grads": fw.grad(fw.sum(x * x), [x, unused], allow_unused=True)}


@scenario("grad_api", "materialize_grads=True gives zeros for the unused input", needs=["grad_materialize"])
def materialize_grads(fw):
    x = fw.leaf([1., 2.])
    unused = fw.leaf([3., 4.])
    return {"grads": fw.grad(fw.sum(x * x), [x, unused], materialize_grads=True)}


@scenario("grad_api", "materialize_grads=True with allow_unused=False", needs=["grad_materialize"])
def materialize_without_allow_unused(fw):
    x = fw.leaf([1., 2.])
    fw.attempt("grad", fw.grad, fw.sum(x * x), [x], materialize_grads=True, allow_unused=False)
    return {}


@scenario("grad_api", "an input that does not require grad", expect=[
    Expect("paddle", "paddle treats it as an input outside the backward graph", D.PADDLE_GRAD,
           {"grad": Raises("ValueError", "does not appear in the backward graph")}),
    Expect("oneflow", "OneFlow checks all inputs first, with its own wording", D.ONEFLOW_GRAD,
           {"grad": Raises("Exception", "All input tensors `.requires_grad` should be true")}),
])
def input_without_grad(fw):
    x = fw.leaf([1., 2.])
    c = fw.tensor([1., 1.])
    fw.attempt("grad", fw.grad, fw.sum(x * c), [c])
    return {}


@scenario("grad_api", "an output that does not require grad", expect=[
    Expect("paddle", "paddle reports the input as unreachable", D.PADDLE_GRAD,
           {"grad": Raises("ValueError", "The 0-th input does not appear in the backward graph")}),
    Expect("oneflow", "OneFlow's check-failed error keeps a literal RuntimeError prefix", D.ONEFLOW_GRAD,
           {"grad": Raises("Exception", "element 0 of tensors does not require grad")}),
])
def output_without_grad(fw):
    x = fw.leaf([1., 2.])
    c = fw.tensor([1., 1.])
    fw.attempt("grad", fw.grad, fw.sum(c * 2.), [x])
    return {}


@scenario("grad_api", "explicit grad_outputs weight the output")
def explicit_grad_outputs(fw):
    x = fw.leaf([1., 2.])
    g, = fw.grad(x * x, [x], grad_outputs=[fw.tensor([1., 10.])])
    return {"g": g}


@scenario("grad_api", "a single tensor (not a list) as grad_outputs")
def single_grad_output(fw):
    x = fw.leaf([1., 2.])
    g, = fw.grad(x * x, [x], grad_outputs=fw.tensor([1., 10.]))
    return {"g": g}


@scenario("grad_api", "grad of a non-scalar output without grad_outputs", expect=[
    Expect("paddle", "paddle seeds any output with ones", D.PADDLE_GRAD, {"grad": OK, "g": [2., 4.]}),
    ONEFLOW_NONSCALAR,
])
def nonscalar_implicit(fw):
    x = fw.leaf([1., 2.])
    out = fw.attempt("grad", fw.grad, x * x, [x])
    return {"g": out and out[0]}


@scenario("grad_api", "several outputs: their gradients are summed")
def several_outputs(fw):
    x = fw.leaf([1., 2.])
    g, = fw.grad([fw.sum(x * 2.), fw.sum(x * 3.)], [x])
    return {"g": g}


@scenario("grad_api", "a non-leaf input: propagation stops there")
def nonleaf_input(fw):
    x = fw.leaf([1., 2.])
    h = x * 3.
    gh, gx = fw.grad(fw.sum(h * h), [h, x])
    return {"gh": gh, "gx": gx, "x.grad": fw.read_grad(x)}


@scenario("grad_api", "grad of an output w.r.t. itself is its grad_output")
def wrt_itself(fw):
    x = fw.leaf([1., 2.])
    y = x * 2.
    g, = fw.grad(y, [y], grad_outputs=[fw.tensor([3., 4.])])
    return {"g": g}


@scenario("grad_api", "the same input twice", expect=[
    Expect("paddle", "paddle.grad refuses duplicate inputs", D.PADDLE_GRAD,
           {"grad": Raises("RuntimeError", r"\(AlreadyExists\) inputs contain duplicate tensor"), "grads": None}),
])
def duplicate_inputs(fw):
    x = fw.leaf([1., 2.])
    out = fw.attempt("grad", fw.grad, fw.sum(x * x), [x, x])
    return {"grads": out}


@scenario("grad_api", "the same output twice", expect=[
    Expect("paddle", "paddle.grad refuses duplicate outputs", D.PADDLE_GRAD,
           {"grad": Raises("RuntimeError", r"\(AlreadyExists\) outputs contain duplicate tensor"), "grads": None}),
])
def duplicate_outputs(fw):
    x = fw.leaf([1., 2.])
    y = x * 2.
    g = fw.tensor([1., 1.])
    out = fw.attempt("grad", fw.grad, [y, y], [x], grad_outputs=[g, g])
    return {"grads": out}


@scenario("grad_api", "is_grads_batched: one vector-Jacobian product per row", needs=["grad_batched"])
def batched(fw):
    x = fw.leaf([1., 2.])
    y = x * fw.tensor([10., 20.])
    g, = fw.grad(y, [x], grad_outputs=[fw.tensor([[1., 0.], [0., 1.]])], is_grads_batched=True)
    return {"g": g}


@scenario("grad_api", "is_grads_batched on a scalar output", needs=["grad_batched"])
def batched_scalar(fw):
    x = fw.leaf([1., 2.])
    g, = fw.grad(fw.sum(x * x), [x], grad_outputs=[fw.tensor([0., 1., 2.])], is_grads_batched=True)
    return {"g": g}


@scenario("grad_api", "is_grads_batched with a batch of the wrong shape", needs=["grad_batched"], expect=[
    Expect("oneflow", "OneFlow prints shapes as tuples in the same message", D.ONEFLOW_GRAD,
           {"grad": Raises("RuntimeError", "If `is_grads_batched=True`, we interpret the first dimension")}),
])
def batched_wrong_shape(fw):
    x = fw.leaf([1., 2.])
    fw.attempt("grad", fw.grad, x * 2., [x], grad_outputs=[fw.tensor([1., 1.])], is_grads_batched=True)
    return {}


@scenario("grad_api", "an empty list of inputs", expect=[
    Expect("paddle", "paddle.grad asserts a non-empty inputs list, with its own wording", D.PADDLE_GRAD,
           {"grad": Raises("AssertionError", "inputs cannot be empty")}),
    Expect("oneflow", "OneFlow runs a plain backward and returns an empty tuple", D.ONEFLOW_GRAD,
           {"grad": OK, "result": [], "x.grad": [2., 4.]}),
])
def empty_inputs(fw):
    x = fw.leaf([1., 2.])
    out = fw.attempt("grad", fw.grad, fw.sum(x * x), [])
    return {"result": out, "x.grad": fw.read_grad(x)}


@scenario("grad_api", "only_inputs=False (deprecated in torch)", needs=["grad_only_inputs"], expect=[
    Expect("paddle", "paddle does not support only_inputs=False", D.PADDLE_GRAD,
           {"grad": Raises("AssertionError", "only_inputs=False is not supported yet"), "g": None}),
])
def only_inputs_false(fw):
    x = fw.leaf([1., 2.])
    out = fw.attempt("grad", fw.grad, fw.sum(x * x), [x], only_inputs=False)
    return {"g": out and out[0]}


@scenario("grad_api", "no_grad_vars cuts the gradient at the listed tensors", needs=["no_grad_vars"])
def no_grad_vars(fw):
    x = fw.leaf([1., 2.])
    h = x * 3.
    g, = fw.grad(fw.sum(h * x), [x], no_grad_vars=[h])
    return {"g": g}


@scenario("grad_api", "a Python number inside grad_outputs", expect=[
    Expect("paddle", "paddle asserts the element types", D.PADDLE_GRAD,
           {"grad": Raises("AssertionError", "grad_outputs must be None, a Variable or a list containing None or Variables")}),
])
def number_in_grad_outputs(fw):
    x = fw.leaf([1., 2.])
    fw.attempt("grad", fw.grad, fw.sum(x * x), [x], grad_outputs=[2.0])
    return {}


@scenario("grad_api", "grad through a chain of several ops w.r.t. two inputs")
def two_inputs_chain(fw):
    x = fw.leaf([0.5, 1.5])
    w = fw.leaf([[1., 2.], [3., 4.]])
    y = fw.sum(fw.tanh(fw.matmul(w, x)) * fw.exp(x))
    gx, gw = fw.grad(y, [x, w])
    return {"gx": gx, "gw": gw}
