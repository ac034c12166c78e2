"""flow.autograd.backward / grad and Tensor.backward: OneFlow's signatures and rules over the one
front end (reference: OneFlow's autograd.backward, autograd.grad and Tensor.backward)."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

from same_program import alike


def test_signatures_are_oneflows(flow):
    params = inspect.signature(flow.autograd.backward).parameters
    assert [(p.name, p.default) for p in params.values()] == [
        ("tensors", inspect.Parameter.empty), ("grad_tensors", inspect.Parameter.empty), ("retain_graph", False),
        ("create_graph", False)]
    assert list(inspect.signature(flow.autograd.grad).parameters) == [
        "outputs", "inputs", "grad_outputs", "retain_graph", "create_graph", "allow_unused", "is_grads_batched"]
    assert list(inspect.signature(flow.Tensor.backward).parameters) == [
        "self", "gradient", "retain_graph", "create_graph"]


def test_grad_tensors_is_required(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    with pytest.raises(TypeError):
        flow.autograd.backward((x * x).sum())
    with pytest.raises(TypeError):
        flow.autograd.backward((x * x).sum(), None, inputs=[x])
    assert x.grad is None


def test_none_seeds_only_for_one_element_outputs(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    flow.autograd.backward([(x * x).sum(), (x * 3).sum().reshape(1, 1)], [None, None])
    assert x.grad.tolist() == [5., 7.]
    with pytest.raises(RuntimeError) as e:
        flow.autograd.backward([x * 2], [None])
    assert str(e.value) == "Grad can be implicitly created only for scalar outputs"
    assert x.grad.tolist() == [5., 7.]


def test_seed_shape_must_match_exactly(flow):
    x = flow.ones(2, 3, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError) as e:
        flow.autograd.backward(y, flow.ones(3))   # PyTorch would broadcast-check; OneFlow needs equal shapes
    assert str(e.value) == "out_grad's shape must be same as output's ((2,3) vs (3,))"
    with pytest.raises(RuntimeError, match=r"\(\(2,3\) vs \(3,2\)\)"):
        y.backward(flow.ones(3, 2))
    assert x.grad is None


def test_seed_dtype_is_cast_to_the_output(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    flow.autograd.backward(x * 2, flow.tensor([True, False]))
    assert x.grad.dtype == flow.float32 and x.grad.tolist() == [2., 0.]
    y = flow.tensor([1., 2.], dtype=flow.float64, requires_grad=True)
    (y * 2).backward(flow.tensor([1., 1.]))
    assert y.grad.dtype == flow.float64 and y.grad.tolist() == [2., 2.]


def test_count_of_gradients_must_equal_outputs(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        flow.autograd.backward([x.sum()], [flow.tensor(1.), flow.tensor(1.)])
    assert str(e.value) == "RuntimeError: got 1 tensors and 2 gradients"
    with pytest.raises(RuntimeError, match="^RuntimeError: got 2 tensors and 1 gradients$"):
        flow.autograd.backward([x.sum(), x.sum()], [flow.tensor(1.)])
    assert x.grad is None


def test_create_graph_forces_retention(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    (g,) = flow.autograd.grad(y, [x], create_graph=True, retain_graph=False)
    assert flow.autograd.grad(y, [x])[0].tolist() == [2., 4.]    # still there
    (h,) = flow.autograd.grad(g.sum(), [x])
    assert h.tolist() == [2., 2.]
    z = (x * x).sum()
    flow.autograd.backward(z, None, retain_graph=False, create_graph=True)
    z.backward()
    assert x.grad.tolist() == [4., 8.]


def test_grad_returns_a_tuple_and_leaves_grad_alone(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    got = flow.autograd.grad((x * x).sum(), x)
    assert type(got) is tuple and got[0].tolist() == [2., 4.] and x.grad is None


def test_grad_without_inputs_runs_a_plain_backward(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    assert flow.autograd.grad((x * x).sum(), []) == ()
    assert x.grad.tolist() == [2., 4.]


def test_grad_unused_input(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    w = flow.tensor([1., 2.], requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        flow.autograd.grad((x * 2).sum(), [x, w])
    assert str(e.value) == ("One of the differentiated Tensors appears to not have been used in the graph. Set "
                            "allow_unused=True if this is the desired behavior.")
    gx, gw = flow.autograd.grad((x * 2).sum(), [x, w], allow_unused=True)
    assert gx.tolist() == [2., 2.] and gw is None


def test_grad_inputs_must_require_grad(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        flow.autograd.grad((x * 2).sum(), [x, flow.ones(2)])
    assert str(e.value) == "All input tensors `.requires_grad` should be true"


def test_outputs_must_require_grad(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        flow.autograd.backward([x.sum(), flow.ones(1)], [None, None])
    assert str(e.value) == "\nRuntimeError: element 1 of tensors does not require grad and does not have a grad_fn"
    with pytest.raises(RuntimeError, match="^\nRuntimeError: element 0 of tensors"):
        flow.ones(1).backward()


def test_leaf_output_backward_accumulates_into_itself(flow):
    x = flow.tensor([3.], requires_grad=True)
    x.backward()
    assert x.grad.tolist() == [1.]
    assert x.grad_fn.name() == "accumulategrad"


def test_grads_batched(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    (g,) = flow.autograd.grad(x * x, [x], flow.eye(2), is_grads_batched=True)
    assert g.tolist() == [[2., 0.], [0., 4.]]
    with pytest.raises(RuntimeError) as e:
        flow.autograd.grad(x * x, [x], flow.ones(2, 3), is_grads_batched=True)
    assert str(e.value).endswith("grad_output[0] has a shape of (3,) and output[0] has a shape of (2,).")


def test_backward_and_grad_work_under_no_grad(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    loss, other = (x * x).sum(), (x * 3).sum()
    with flow.no_grad():
        loss.backward()
        got = flow.autograd.grad(other, x)[0]
    assert (x.grad.tolist(), got.tolist()) == ([2., 4.], [3., 3.])


def test_values_and_gradients_agree_with_pytorch():
    alike(lambda fw, a, b: (fw.matmul(a, b).tanh(), (a * 3 + 1).exp().mean(), fw.cat([a, a]).softmax(1)),
          np.arange(6.).reshape(2, 3) / 10, np.ones((3, 2)) / 3)
    alike(lambda fw, a: fw.nn.functional.relu(a - 0.5) * a.sigmoid(), np.linspace(0, 1, 7))


def test_higher_order_agrees_with_pytorch():
    def program(fw, a):
        (g,) = fw.autograd.grad((a ** 3).sum(), [a], create_graph=True)
        return g * a
    alike(program, [1., 2., 3.])


def test_an_empty_gradient_list_means_implicit_seeds(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    flow.autograd.backward([(x * x).sum()], [])
    assert flow.autograd.grad([(x * 3).sum()], [x], [])[0].tolist() == [3., 3.]
    assert x.grad.tolist() == [2., 4.]
    with pytest.raises(RuntimeError, match="^Grad can be implicitly created only for scalar outputs$"):
        flow.autograd.backward(x * 2, [])
