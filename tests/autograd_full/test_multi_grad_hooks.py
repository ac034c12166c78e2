"""torch.autograd.graph.register_multi_grad_hook and torch.utils.hooks.RemovableHandle."""
from __future__ import annotations

import re

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def leaves(torch, n):
    return [torch.ones(2, requires_grad=True) for _ in range(n)]


def test_all_mode_fires_once_with_grads_of_tensors_the_pass_computes(torch):
    a, b, c, d = leaves(torch, 4)
    log = []
    torch.autograd.graph.register_multi_grad_hook((a, b, c, d), lambda gs: log.append([g is not None for g in gs]))
    (a * b + c).sum().backward()
    assert log == [[True, True, True, False]]
    (a * c).sum().backward(inputs=[a])
    assert log[-1] == [True, False, False, False]
    assert len(log) == 2


def test_all_mode_passes_the_gradients(torch):
    a, b = leaves(torch, 2)
    got = []
    torch.autograd.graph.register_multi_grad_hook((a, b), lambda gs: got.append([g.tolist() for g in gs]))
    (a * 2 + b * 3).sum().backward()
    assert got == [[[2., 2.], [3., 3.]]]


def test_all_mode_on_non_leaf_tensors(torch):
    a, b = leaves(torch, 2)
    nr = a * 2
    log = []
    torch.autograd.graph.register_multi_grad_hook((nr, b), lambda gs: log.append([g is not None for g in gs]))
    (nr * 3).sum().backward()
    assert log == [[True, False]]
    assert a.grad.tolist() == [6., 6.]


def test_removed_multi_hook_does_not_fire(torch):
    a, b = leaves(torch, 2)
    log = []
    handle = torch.autograd.graph.register_multi_grad_hook((a, b), lambda gs: log.append(1))
    assert isinstance(handle, torch.utils.hooks.RemovableHandle)
    handle.remove()
    (a * b).sum().backward()
    assert log == []


def test_any_mode_fires_with_the_first_gradient_only(torch):
    a, b = leaves(torch, 2)
    got = []
    torch.autograd.graph.register_multi_grad_hook((a, b), lambda g: got.append(g.tolist()), mode="any")
    (a * 2 + b * 3).sum().backward()
    assert len(got) == 1 and got[0] in ([2., 2.], [3., 3.])
    (a * 5).sum().backward()
    assert got[1] == [5., 5.]


def test_any_mode_skips_tensors_not_requiring_grad(torch):
    a, = leaves(torch, 1)
    got = []
    torch.autograd.graph.register_multi_grad_hook((a, torch.ones(2)), lambda g: got.append(g.tolist()), mode="any")
    (a * 4).sum().backward()
    assert got == [[4., 4.]]


def test_unknown_mode_raises(torch):
    a, b = leaves(torch, 2)
    with pytest.raises(ValueError, match=exact("Expects mode to be one of ('all', 'any') but got x")):
        torch.autograd.graph.register_multi_grad_hook((a, b), lambda g: None, mode="x")


def test_all_mode_on_tensor_without_grad_raises(torch):
    a, = leaves(torch, 1)
    with pytest.raises(AssertionError, match=exact("Expected gradient function to be set")):
        torch.autograd.graph.register_multi_grad_hook((a, torch.ones(2)), lambda g: None)


# ------------------------------------------------------------------------------------ RemovableHandle

def test_every_hook_registration_returns_a_removable_handle(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    handles = [x.register_hook(lambda g: g), y.register_hook(lambda g: g), y.grad_fn.register_hook(lambda gi, go: None),
               y.grad_fn.register_prehook(lambda go: None), x.register_post_accumulate_grad_hook(lambda t: None)]
    for h in handles:
        assert isinstance(h, torch.utils.hooks.RemovableHandle)
        assert isinstance(h.id, int)
    ids = [h.id for h in handles]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)


def test_handle_as_context_manager_removes_on_exit(torch):
    x = torch.ones(2, requires_grad=True)
    calls = []
    with x.register_hook(lambda g: calls.append(1)):
        (x * 2).sum().backward()
    (x * 2).sum().backward()
    assert calls == [1]


def test_handle_removes_from_extra_dicts_too(torch):
    from collections import OrderedDict
    hooks, extra = OrderedDict(), OrderedDict()
    handle = torch.utils.hooks.RemovableHandle(hooks, extra_dict=extra)
    hooks[handle.id] = "h"
    extra[handle.id] = "e"
    handle.remove()
    handle.remove()
    assert (dict(hooks), dict(extra)) == ({}, {})
