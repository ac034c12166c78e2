"""The first accumulation into `.grad` may reuse a gradient's array only when nothing else can see
it: a seed the caller holds, a tensor a hook kept, or one gradient shared by two leaves is copied."""
from __future__ import annotations

import numpy as np


def test_seed_given_for_a_leaf_is_copied(ftorch):
    a = ftorch.ones(2, requires_grad=True)
    g = ftorch.ones(2)
    a.backward(g)
    g[0] = 5.0
    assert a.grad is not g and a.grad.tolist() == [1.0, 1.0]


def test_gradient_kept_by_a_hook_is_not_aliased_by_grad(ftorch):
    stash = []
    x = ftorch.ones(2, requires_grad=True)
    x.register_hook(lambda g: stash.append(g))
    (x * 3).sum().backward()
    with ftorch.no_grad():
        x.grad.add_(1)
    assert stash[0].tolist() == [3.0, 3.0] and x.grad.tolist() == [4.0, 4.0]


def test_one_gradient_flowing_to_two_leaves_gives_two_arrays(ftorch):
    a = ftorch.ones(2, requires_grad=True)
    b = ftorch.ones(2, requires_grad=True)
    (a + b).sum().backward()
    assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())
    (a + b).sum().backward()  # in-place accumulation into one must not touch the other
    assert a.grad.tolist() == [2.0, 2.0] and b.grad.tolist() == [2.0, 2.0]


def test_view_of_a_seed_is_not_aliased(ftorch):
    x = ftorch.ones(4, requires_grad=True)
    g = ftorch.ones(2, 2)
    x.reshape(2, 2).backward(g)
    g[0, 0] = 9.0
    assert x.grad.tolist() == [1.0, 1.0, 1.0, 1.0]


def test_numpy_array_behind_a_seed_is_not_aliased(ftorch):
    arr = np.ones(3)
    x = ftorch.zeros(3, dtype=ftorch.float64, requires_grad=True)
    x.backward(ftorch.from_numpy(arr))
    arr[:] = 7.0
    assert x.grad.tolist() == [1.0, 1.0, 1.0]


def test_seed_reaching_a_leaf_through_a_same_shape_expand_is_not_aliased(ftorch):
    x = ftorch.ones(3, requires_grad=True)
    g = ftorch.ones(3)
    x.expand(3).backward(g)
    g[0] = 9.0
    assert x.grad.tolist() == [1.0, 1.0, 1.0]


def test_gradients_added_into_one_buffer_leave_the_seed_and_the_other_leaf_alone(ftorch):
    x = ftorch.full((2,), 3.0, requires_grad=True)
    y = ftorch.ones(2, requires_grad=True)
    g = ftorch.ones(2)
    (x * x + x + y).backward(g)     # x's buffer: the seed (passed on by the adds), then 2 * 3 twice
    assert g.tolist() == [1.0, 1.0]
    assert x.grad.tolist() == [7.0, 7.0] and y.grad.tolist() == [1.0, 1.0]
    assert not np.shares_memory(x.grad.numpy(), y.grad.numpy())
