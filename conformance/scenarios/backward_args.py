"""Backward argument rules: implicit seeds, explicit seeds, roots that need no gradient, duplicates."""
from __future__ import annotations

from .. import docs as D
from ..expect import OK, Expect, Raises
from ..scenario import scenario

NONSCALAR_PADDLE = Expect("paddle", "paddle seeds any output with ones, whatever its shape", D.PADDLE_BACKWARD,
                          {"backward": OK, "x.grad": [2., 4.]})
NONSCALAR_ONEFLOW = Expect("oneflow", "OneFlow's message starts with a capital G", D.ONEFLOW_BACKWARD,
                           {"backward": Raises("Exception", "^Grad can be implicitly created only for scalar outputs")})


@scenario("backward_args", "a scalar output needs no explicit gradient")
def scalar_implicit(fw):
    x = fw.leaf([1., 2.])
    fw.backward(fw.sum(x * x))
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "autograd.backward on a non-scalar output without a gradient",
          expect=[NONSCALAR_PADDLE, NONSCALAR_ONEFLOW])
def nonscalar_implicit(fw):
    x = fw.leaf([1., 2.])
    y = x * x
    fw.attempt("backward", fw.backward, y)
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "Tensor.backward() on a non-scalar output without a gradient",
          expect=[NONSCALAR_PADDLE, NONSCALAR_ONEFLOW])
def nonscalar_tensor_method(fw):
    x = fw.leaf([1., 2.])
    y = x * x
    fw.attempt("backward", fw.tensor_backward, y)
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "a one-element output of shape [1] counts as a scalar")
def one_element_output(fw):
    x = fw.leaf([3.])
    fw.attempt("backward", fw.backward, x * x)
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "a one-element 2-d output of shape [1, 1] counts as a scalar")
def one_element_2d_output(fw):
    x = fw.leaf([[3.]])
    fw.attempt("backward", fw.backward, x * x * x)
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "an explicit gradient weights the output (vector-Jacobian product)")
def explicit_gradient(fw):
    x = fw.leaf([1., 2.])
    fw.backward(x * x, fw.tensor([1., 10.]))
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "Tensor.backward with an explicit gradient")
def explicit_gradient_method(fw):
    x = fw.leaf([[1., 2.], [3., 4.]])
    y = fw.matmul(x, x)
    fw.tensor_backward(y, fw.tensor([[1., 2.], [2., 3.]]))
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "Tensor.backward with a gradient of the wrong shape", expect=[
    Expect("paddle", "paddle's Tensor.backward asserts the shape, with its own wording", D.PADDLE_TENSOR,
           {"backward": Raises("AssertionError", "Tensor shape not match")}),
    Expect("oneflow", "OneFlow checks the shape with its own wording", D.ONEFLOW_TENSOR_BACKWARD,
           {"backward": Raises("Exception", "out_grad's shape must be same as output's")}),
])
def gradient_wrong_shape(fw):
    x = fw.leaf([[1., 2.], [3., 4.]])
    y = x * 2.
    fw.attempt("backward", fw.tensor_backward, y, fw.tensor([1., 1.]))
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "a float64 gradient for a float32 output is cast; .grad keeps the leaf's dtype")
def gradient_other_dtype(fw):
    x = fw.leaf([1., 2.])
    fw.backward(x * 3., fw.tensor([1., 1.], dtype="float64"))
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "several outputs with one gradient each: the contributions add")
def several_roots(fw):
    x = fw.leaf([1., 2.])
    fw.backward([x * x, x * 3.], [fw.tensor([1., 1.]), fw.tensor([1., 10.])])
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "a None entry among the gradients stands for ones on a scalar output")
def none_entry_scalar(fw):
    x = fw.leaf([1., 2.])
    fw.backward([fw.sum(x * 3.), x * x], [None, fw.tensor([1., 10.])])
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "a None entry for a non-scalar output", expect=[
    Expect("paddle", "paddle fills a None entry with ones for any shape", D.PADDLE_BACKWARD,
           {"backward": OK, "x.grad": [5., 7.]}),
    Expect("oneflow", "OneFlow's message starts with a capital G", D.ONEFLOW_BACKWARD,
           {"backward": Raises("Exception", "^Grad can be implicitly created only for scalar outputs")}),
])
def none_entry_nonscalar(fw):
    x = fw.leaf([1., 2.])
    fw.attempt("backward", fw.backward, [x * x, x * 3.], [fw.tensor([1., 1.]), None])
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "fewer gradients than outputs", expect=[
    Expect("paddle", "paddle asserts equal lengths in Python", D.PADDLE_BACKWARD,
           {"backward": Raises("AssertionError", "The length of grad_tensors must be equal to tensors")}),
    Expect("oneflow", "OneFlow's check-failed error carries a RuntimeError prefix in its text", D.ONEFLOW_BACKWARD,
           {"backward": Raises("Exception", "got 2 tensors and 1 gradients")}),
])
def too_few_gradients(fw):
    x = fw.leaf([1., 2.])
    fw.attempt("backward", fw.backward, [x * x, x * 3.], [fw.tensor([1., 1.])])
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "more gradients than outputs", expect=[
    Expect("paddle", "paddle asserts equal lengths; torch ignores the extra gradient", D.PADDLE_BACKWARD,
           {"backward": Raises("AssertionError", "The length of grad_tensors must be equal to tensors"),
            "x.grad": None}),
    Expect("oneflow", "OneFlow requires as many gradients as outputs", D.ONEFLOW_BACKWARD,
           {"backward": Raises("Exception", "got 1 tensors and 2 gradients"), "x.grad": None}),
])
def too_many_gradients(fw):
    x = fw.leaf([1., 2.])
    fw.attempt("backward", fw.backward, [x * x], [fw.tensor([1., 1.]), fw.tensor([5., 5.])])
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "an output that does not require grad", expect=[
    Expect("paddle", "paddle skips roots with stop_gradient=True silently", D.PADDLE_BACKWARD,
           {"backward": OK}),
    Expect("oneflow", "OneFlow's check-failed error keeps a literal RuntimeError prefix", D.ONEFLOW_BACKWARD,
           {"backward": Raises("Exception", "element 0 of tensors does not require grad and does not have a grad_fn")}),
])
def root_without_grad(fw):
    c = fw.tensor([1., 2.])
    fw.attempt("backward", fw.backward, fw.sum(c * 2.))
    return {"c.grad": fw.read_grad(c)}


@scenario("backward_args", "the second of two outputs does not require grad", expect=[
    Expect("paddle", "paddle skips roots with stop_gradient=True and runs the others", D.PADDLE_BACKWARD,
           {"backward": OK, "x.grad": [2., 4.]}),
    Expect("oneflow", "OneFlow's check-failed error keeps a literal RuntimeError prefix", D.ONEFLOW_BACKWARD,
           {"backward": Raises("Exception", "element 1 of tensors does not require grad and does not have a grad_fn")}),
])
def second_root_without_grad(fw):
    x = fw.leaf([1., 2.])
    c = fw.tensor([1., 2.])
    fw.attempt("backward", fw.backward, [fw.sum(x * x), fw.sum(c * 2.)])
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "the same output twice in the roots", expect=[
    Expect("paddle", "paddle.autograd.backward refuses duplicate tensors", D.PADDLE_BACKWARD,
           {"backward": Raises("AssertionError", "contains duplicate paddle.Tensor object"), "x.grad": None}),
])
def duplicate_roots(fw):
    x = fw.leaf([1., 2.])
    z = x * x
    g = fw.tensor([1., 1.])
    fw.attempt("backward", fw.backward, [z, z], [g, g])
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "a leaf used directly as a root receives the seed itself")
def leaf_as_root(fw):
    x = fw.leaf([1., 2.])
    fw.backward(x, fw.tensor([3., 4.]))
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "one root above another: contributions from both paths add")
def nested_roots(fw):
    x = fw.leaf([1., 2.])
    y = x * x
    z = y * y * y
    fw.backward([y, z], [fw.tensor([1., 1.]), fw.tensor([1., 1.])])
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "backward inside a no-grad block still computes gradients")
def backward_under_no_grad(fw):
    x = fw.leaf([1., 2.])
    y = fw.sum(x * x)
    with fw.no_grad():
        fw.backward(y)
    return {"x.grad": fw.read_grad(x)}


@scenario("backward_args", "a root computed from an integer op (argmax-like comparison) needs no gradient",
          expect=[
              Expect("paddle", "paddle skips roots with stop_gradient=True silently", D.PADDLE_BACKWARD,
                     {"backward": OK}),
              Expect("oneflow", "OneFlow's check-failed error keeps a literal RuntimeError prefix",
                     D.ONEFLOW_BACKWARD,
                     {"backward": Raises("Exception", "element 0 of tensors does not require grad")}),
          ])
def integer_root(fw):
    x = fw.leaf([1., 2.])
    flags = fw.astype(x > 1.5, "float32")
    fw.attempt("backward", fw.backward, fw.sum(flags))
    return {"x.grad": fw.read_grad(x), "flags": flags}
