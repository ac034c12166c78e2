"""OneFlow's engine policy, as entries of the one engine's Policy: a node is released after a
non-retained pass only where it saved a tensor, saved tensors carry no version check, `.grad` is
accumulated in place (a stable object), and zero_grad zero-fills by default."""
from __future__ import annotations

import numpy as np
import pytest

RELEASED = ("This FunctionNode with name `{}` has been released.\nMaybe you try to backward through the node a "
            "second time. Specify retain_graph=True when calling .backward() or autograd.grad() the first time.")


def test_nodes_that_saved_nothing_run_again(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    y = flow.tensor([3., 4.], requires_grad=True)
    z = x + y                               # add_n: saves nothing
    for _ in range(10):
        z.sum().backward()                  # a new sum each time, the add node again
    assert x.grad.tolist() == [10., 10.] and y.grad.tolist() == [10., 10.]
    w = x * 2.                              # scalar_mul: saves nothing (PyTorch's MulBackward0 saves the scalar)
    w.backward(flow.ones(2))
    w.backward(flow.ones(2))
    assert x.grad.tolist() == [14., 14.]


def test_a_node_that_saved_a_tensor_is_released(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    y = x * x
    y.backward(flow.ones(2))
    with pytest.raises(RuntimeError) as e:
        y.backward(flow.ones(2))
    assert str(e.value) == RELEASED.format("broadcast_mulBackward")
    assert x.grad.tolist() == [2., 4.]      # the failed pass changed nothing


def test_reduce_sum_saves_its_input_so_it_is_released(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    loss = (x + 1).sum()
    loss.backward()
    with pytest.raises(RuntimeError) as e:
        loss.backward()
    assert str(e.value) == RELEASED.format("reduce_sumBackward")
    assert x.grad.tolist() == [1., 1.]


def test_retain_graph_keeps_nodes_and_grad_frees_them(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    cube = (x ** 3).sum()
    for retain in (True, True, False):
        cube.backward(retain_graph=retain)
    assert x.grad.tolist() == [9., 36.]
    y = (x * x).sum()
    flow.autograd.grad(y, [x])
    with pytest.raises(RuntimeError, match="has been released"):
        flow.autograd.grad(y, [x])


def test_leaf_accumulators_are_never_released(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    x.backward(flow.ones(2))
    x.backward(flow.ones(2))
    assert x.grad.tolist() == [2., 2.]


def test_no_version_check_backward_sees_the_modified_value(flow):
    a = flow.tensor([1., 2.], requires_grad=True)
    b = a * 1
    c = b * b                               # saves b
    with flow.no_grad():
        b.mul_(3)                           # PyTorch: "modified by an inplace operation" at backward
    c.sum().backward()
    assert a.grad.tolist() == [6., 12.]     # 2 * (modified b) through b = a * 1


def test_grad_is_accumulated_in_place_with_a_stable_identity(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    (x * x).sum().backward()
    g = x.grad
    (x * 3).sum().backward()
    assert x.grad is g and g.tolist() == [5., 7.] and not g.requires_grad
    mine = flow.zeros(2)
    x.grad = mine
    (x * 2).sum().backward()
    assert x.grad is mine and mine.tolist() == [2., 2.]


def test_first_grad_never_aliases_the_propagated_gradient(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    seed = flow.tensor([5., 6.])
    x.backward(seed)
    x.grad.add_(1)
    assert seed.tolist() == [5., 6.]


def test_zero_grad_keeps_the_tensor_by_default(flow):
    net = flow.nn.Linear(2, 1)
    opt = flow.optim.SGD(net.parameters(), lr=0.1)
    net(flow.ones(1, 2)).sum().backward()
    w = net.weight.grad
    opt.zero_grad()
    assert net.weight.grad is w and w.tolist() == [[0., 0.]]
    net(flow.ones(1, 2)).sum().backward()
    net.zero_grad()
    assert net.weight.grad is w and w.tolist() == [[0., 0.]]
    net.zero_grad(set_to_none=True)
    opt.zero_grad(set_to_none=True)
    assert net.weight.grad is None
    assert isinstance(opt, flow.optim.Optimizer) and isinstance(net, flow.nn.Module)


def test_the_policy_is_one_engines(flow):
    """The facade sets knobs of the core Policy; nothing of the engine is redefined."""
    from flowgrad.autograd import engine
    from flowgrad.autograd.policy import Policy
    policy = flow.Tensor.policy
    assert type(policy).__mro__[1] is Policy and policy.release_needs_saved_tensor and not policy.check_versions
    assert "run_backward" not in vars(type(policy)) and engine.run_backward.__module__ == "flowgrad.autograd.engine"


def test_same_training_step_as_pytorch():
    from same_program import alike

    def step(fw, w, x):
        loss = ((x @ w).tanh() - 0.5).pow(2).mean()
        return loss
    res = alike(step, np.arange(6.).reshape(3, 2) / 7, np.ones((4, 3)))
    assert len(res) >= 2
