"""paddle.autograd.backward and Tensor.backward (reference §1)."""
from __future__ import annotations

import re

import numpy as np
import pytest

from paddle_isolation import HAVE_PADDLE, run_isolated


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def first_line(msg: str) -> str:
    return "^" + re.escape(msg)


def test_docstring_example_seeds_and_none_entries(paddle):
    x = paddle.to_tensor([[1, 2], [3, 4]], dtype="float32", stop_gradient=False)
    y = paddle.to_tensor([[3, 2], [3, 4]], dtype="float32")
    g1 = paddle.to_tensor([[1, 2], [2, 3]], dtype="float32")
    g2 = paddle.to_tensor([[1, 1], [1, 1]], dtype="float32")
    z1, z2 = paddle.matmul(x, y), paddle.matmul(x, y)
    paddle.autograd.backward([z1, z2], [g1, g2], True)
    assert x.grad.tolist() == [[12., 18.], [17., 25.]]
    x.clear_grad()
    paddle.autograd.backward([z1, z2], [g1, None], True)
    assert x.grad.tolist() == [[12., 18.], [17., 25.]]
    x.clear_grad()
    paddle.autograd.backward([z1, z2])
    assert x.grad.tolist() == [[10., 14.], [10., 14.]]


def test_non_scalar_backward_seeds_ones(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    (x * x).backward()
    assert x.grad.tolist() == [2., 4.]


def test_leaf_root_gets_ones(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    x.backward()
    assert x.grad.tolist() == [1., 1.]


def test_leaf_root_twice_accumulates_without_retain(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    x.backward()
    x.backward()
    assert x.grad.tolist() == [2., 2.]


def test_leaf_and_its_use_as_roots(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    paddle.autograd.backward([x, x * 3])
    assert x.grad.tolist() == [4., 4.]


def test_root_that_is_ancestor_of_another_root(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = x ** 2
    z = y ** 3
    gy = paddle.to_tensor([1., 2.])
    gz = paddle.to_tensor([3., 1.])
    paddle.autograd.backward([z, y], [gz, gy])
    xv, yv = np.array([1., 2.]), np.array([1., 4.])
    np.testing.assert_allclose(x.grad.numpy(), 2 * xv * (gy.numpy() + 3 * yv ** 2 * gz.numpy()), rtol=1e-6)


def test_single_tensor_arguments_are_accepted(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    paddle.autograd.backward(x * 2, paddle.to_tensor([1., 3.]))
    assert x.grad.tolist() == [2., 6.]


def test_tuple_arguments_are_accepted(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    paddle.autograd.backward((x * 2,), (None,))
    assert x.grad.tolist() == [2., 2.]


def test_float64_seed_for_float32_output_gives_float32_grad(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    (x * 2).backward(paddle.to_tensor([1., 1.], dtype="float64"))
    assert x.grad.dtype == paddle.float32
    assert x.grad.tolist() == [2., 2.]


def test_constant_root_is_skipped_silently(paddle):
    c = paddle.to_tensor([1., 2.])
    z = c * 2
    assert z.stop_gradient is True
    paddle.autograd.backward([z])
    z.backward()
    assert c.grad is None


def test_constant_root_among_others_is_skipped(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    c = paddle.to_tensor([1., 2.])
    paddle.autograd.backward([x * 2, c * 3])
    assert x.grad.tolist() == [2., 2.]


def test_stop_gradient_set_on_loss_makes_backward_a_no_op(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = (x * 2).sum()
    y.stop_gradient = True
    y.backward()
    assert x.grad is None


def test_backward_inside_no_grad_computes_grads(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = (x * x).sum()
    with paddle.no_grad():
        y.backward()
    assert x.grad.tolist() == [2., 4.]


# ----------------------------------------------------------------------- retain_graph

@pytest.mark.parametrize("build, node", [
    (lambda p, x: (x * x).sum(), "SumGradNode"),
    (lambda p, x: x + 1, "ScaleGradNode"),
    (lambda p, x: x * 2, "ScaleGradNode"),
    (lambda p, x: p.matmul(x.reshape([1, 2]), x.reshape([2, 1])), "MatmulGradNode"),
], ids=["sum", "add_scalar", "mul_scalar", "matmul"])
def test_second_backward_without_retain_names_first_node_reached(paddle, build, node):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    z = build(paddle, x)
    z.backward()
    msg = (f"(Fatal) The TensorWrappers of {node} do not exist. This may be because:\nYou calculate backward twice "
           "for the same subgraph without setting retain_graph=True. Please set retain_graph=True in the first "
           "backward/grad call.\n\n  [Hint: Expected node->IsTensorWrappersCleared() != true, but received "
           "node->IsTensorWrappersCleared():1 == true:1.] (at /paddle/paddle/fluid/eager/backward.cc:204)\n")
    with pytest.raises(SystemError, match=exact(msg)):
        z.backward()


def test_second_autograd_backward_without_retain_raises(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    z = (x * x).sum()
    paddle.autograd.backward([z])
    with pytest.raises(SystemError, match=first_line("(Fatal) The TensorWrappers of SumGradNode do not exist.")):
        paddle.autograd.backward([z])


def test_shared_subgraph_freed_by_first_backward(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = x * x
    y.sum().backward()
    with pytest.raises(SystemError, match="TensorWrappers of MultiplyGradNode do not exist"):
        (y * 3).sum().backward()


def test_retain_graph_allows_second_backward_and_accumulates(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    z = (x * x).sum()
    z.backward(retain_graph=True)
    assert x.grad.tolist() == [2., 4.]
    z.backward()
    assert x.grad.tolist() == [4., 8.]


def test_new_graph_on_same_leaf_after_backward_works(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    (x * 3).sum().backward()
    (x * 4).sum().backward()
    assert x.grad.tolist() == [7., 7.]


# ----------------------------------------------------------------------- argument checks

@pytest.mark.parametrize("args, msg", [
    (lambda p, z: (None,), "tensors should not be None"),
    (lambda p, z: ([],), "tensors cannot be empty"),
    (lambda p, z: ([z, 1.0],), "Elements of tensors must be paddle.Tensor"),
    (lambda p, z: (1.0,), "tensors must be Tensor or list of Tensor"),
    (lambda p, z: ([z, z],), "The argument 'tensors' of paddle.autograd.backward contains duplicate paddle.Tensor "
                             "object."),
    (lambda p, z: ([z], [1.0]), "The argument 'grad_tensors' of paddle.autograd.backward is invalid, it can be "
                                "'None', 'paddle.Tensor' or 'list[None/paddle.Tensor]'."),
    (lambda p, z: ([z], [None, None]), "The length of grad_tensors must be equal to tensors"),
    (lambda p, z: ([z], None, 1), "retain_graph must be True or False"),
], ids=["none", "empty", "element", "single", "duplicate", "grad_type", "grad_len", "retain"])
def test_autograd_backward_argument_assertions(paddle, args, msg):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    z = x * 2
    with pytest.raises(AssertionError, match=exact(msg)):
        paddle.autograd.backward(*args(paddle, z))
    assert x.grad is None


def test_tensor_backward_rejects_non_tensor_seed(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    with pytest.raises(AssertionError, match=exact("The type of grad_tensor must be paddle.Tensor")):
        (x * 2).backward([1., 1.])


def test_tensor_backward_rejects_seed_of_other_shape(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    z = x * 2
    g = paddle.ones([3])
    msg = (f"Tensor shape not match, Tensor of grad_tensor [ {g.name} ] with shape paddle.Size([3]) mismatch Tensor "
           f"[ {z.name} ] with shape paddle.Size([2])")
    with pytest.raises(AssertionError, match=exact(msg)):
        z.backward(g)


def test_tensor_backward_rejects_non_bool_retain_graph(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    with pytest.raises(TypeError, match=first_line("(InvalidType) argument (position 3) must be bool, but got int")):
        (x * 2).backward(None, 1)


def test_tensor_backward_rejects_torch_keyword(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    with pytest.raises(TypeError, match="unexpected keyword argument 'gradient'"):
        (x * 2).backward(gradient=paddle.ones([2]))


def test_dump_path_is_keyword_only(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    with pytest.raises(TypeError, match="takes from 1 to 3 positional arguments but 4 were given"):
        paddle.autograd.backward([x * 2], None, False, "dir")


# ----------------------------------------------------------------------- seed shapes (paddle does not check)

def test_facade_rejects_seed_of_other_shape_in_autograd_backward(fpaddle):
    x = fpaddle.to_tensor([[1., 2.], [3., 4.]], stop_gradient=False)
    msg = ("(InvalidArgument) The shape of the 0-th initial gradient paddle.Size([2]) does not match the shape of the "
           "0-th output paddle.Size([2, 2]).")
    with pytest.raises(ValueError, match=exact(msg)):
        fpaddle.autograd.backward([x * 2], [fpaddle.ones([2])])
    assert x.grad is None


@pytest.mark.skipif(not HAVE_PADDLE, reason="real paddle is not installed")
def test_real_paddle_does_not_check_seed_shape():
    res = run_isolated("""
        x = paddle.to_tensor([[1., 2.], [3., 4.]], stop_gradient=False)
        paddle.autograd.backward([x * 2], [paddle.ones([2])])
        print(x.grad.shape)
    """)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "paddle.Size([2])"
