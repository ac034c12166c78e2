"""Reference §1.11 (Tensor.register_hook)."""
from __future__ import annotations

import re
import threading

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def test_register_hook_on_tensor_not_requiring_grad_raises(torch):
    t = torch.ones(2)
    with pytest.raises(RuntimeError, match=exact("cannot register a hook on a tensor that doesn't require gradient")):
        t.register_hook(lambda g: g)


def test_hook_returning_tensor_replaces_gradient(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    h.register_hook(lambda g: torch.tensor([1., 10.]))
    h.sum().backward()
    assert x.grad.tolist() == [2., 20.]


def test_hook_returning_none_keeps_gradient(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    seen = []
    h = x * 2
    h.register_hook(lambda g: seen.append(g.tolist()))
    (h * 3).sum().backward()
    assert seen == [[3., 3.]]
    assert x.grad.tolist() == [6., 6.]


def test_register_hook_returns_removable_handle(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    handle = x.register_hook(lambda g: g)
    assert isinstance(handle, torch.utils.hooks.RemovableHandle)
    assert isinstance(handle.id, int)


def test_removed_hook_does_not_run(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    calls = []
    handle = x.register_hook(lambda g: calls.append(1))
    handle.remove()
    (x * 2).sum().backward()
    assert calls == []
    assert x.grad.tolist() == [2., 2.]


def test_removing_hook_twice_is_fine(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    handle = x.register_hook(lambda g: g * 100)
    handle.remove()
    handle.remove()
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2., 2.]


def test_hook_handle_as_context_manager_removes_on_exit(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    with x.register_hook(lambda g: g * 100):
        (x * 2).sum().backward()
    assert x.grad.tolist() == [200., 200.]
    (x * 2).sum().backward()
    assert x.grad.tolist() == [202., 202.]


def test_leaf_hook_runs_before_accumulation(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    x.register_hook(lambda g: g * 100)
    (x * 5).sum().backward()
    assert x.grad.tolist() == [500., 500.]


def test_non_leaf_hook_changes_gradient_flowing_upstream(torch):
    x = torch.tensor(1., requires_grad=True)
    h = 2 * x
    h.register_hook(lambda g: g * 10)
    h.backward()
    assert x.grad.tolist() == 20.


def test_several_hooks_chain_in_registration_order(torch):
    x = torch.tensor(1., requires_grad=True)
    h = x * 1
    log = []

    def h1(g):
        log.append(("h1", g.item()))
        return g * 2

    def h2(g):
        log.append(("h2", g.item()))
        return g * 10

    def h3(g):
        log.append(("h3 returns None", g.item()))

    h.register_hook(h1)
    h.register_hook(h2)
    h.register_hook(h3)
    h.backward()
    assert log == [("h1", 1.0), ("h2", 2.0), ("h3 returns None", 20.0)]
    assert x.grad.tolist() == 20.


def test_leaf_hook_called_once_with_summed_gradient(torch):
    x = torch.tensor(1., requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g.item()))
    (x * 2 + x * 3).backward()
    assert seen == [5.0]
    assert x.grad.tolist() == 5.


def test_non_leaf_hook_called_once_with_summed_gradient(torch):
    x = torch.tensor(1., requires_grad=True)
    h = x * 1
    seen = []
    h.register_hook(lambda g: seen.append(g.item()))
    (h * 2 + h * 3).backward()
    assert seen == [5.0]


def test_leaf_hook_fires_on_every_backward(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    calls = []
    x.register_hook(lambda g: calls.append(g.tolist()))
    (x * 2).sum().backward()
    (x * 3).sum().backward()
    assert calls == [[2., 2.], [3., 3.]]


def test_leaf_hook_changing_size_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    x.register_hook(lambda g: torch.ones(3))
    with pytest.raises(RuntimeError, match=exact("hook '<lambda>' has changed the size of value")):
        (x * 2).sum().backward()
    assert x.grad is None


def test_non_leaf_hook_changing_size_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    h.register_hook(lambda g: torch.ones(3))
    with pytest.raises(RuntimeError, match=exact("hook '<lambda>' has changed the size of value")):
        (h * 2).sum().backward()
    assert x.grad is None


def test_hook_returning_non_tensor_raises_type_error(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    x.register_hook(lambda g: 1.0)
    with pytest.raises(TypeError, match=exact("expected Variable, but hook returned 'float'")):
        (x * 2).sum().backward()
    assert x.grad is None


def test_hook_changing_dtype_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    h.register_hook(lambda g: g.double())
    with pytest.raises(RuntimeError, match=exact(
            "hook '<lambda>' has changed the type of value (was torch.FloatTensor got torch.DoubleTensor)")):
        (h * 2).sum().backward()
    assert x.grad is None


def test_hook_error_message_uses_function_name(torch):
    x = torch.tensor([1., 2.], requires_grad=True)

    def my_hook(g):
        return torch.ones(3)

    x.register_hook(my_hook)
    with pytest.raises(RuntimeError, match=exact("hook 'my_hook' has changed the size of value")):
        (x * 2).sum().backward()


def test_callable_object_without_name_can_be_a_hook(torch):
    class Triple:
        def __call__(self, g):
            return g * 3

    assert not hasattr(Triple(), "__name__")
    x = torch.tensor([1., 2.], requires_grad=True)
    x.register_hook(Triple())
    (x * 2).sum().backward()
    assert x.grad.tolist() == [6., 6.]


def test_autograd_grad_runs_hooks_of_input_tensor(torch):
    x = torch.tensor(1., requires_grad=True)
    h = x * 2
    log = []
    h.register_hook(lambda g: log.append("h"))
    x.register_hook(lambda g: log.append("x"))
    torch.autograd.grad(h * 3, x)
    assert log == ["h", "x"]


def test_autograd_grad_does_not_run_hooks_beyond_inputs(torch):
    x = torch.tensor(1., requires_grad=True)
    h = x * 2
    log = []
    h.register_hook(lambda g: log.append("h"))
    x.register_hook(lambda g: log.append("x"))
    torch.autograd.grad(h * 3, h)
    assert log == ["h"]


def test_autograd_grad_input_hook_modifies_returned_gradient(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    x.register_hook(lambda g: g * 100)
    (g,) = torch.autograd.grad((x * 2).sum(), x)
    assert g.tolist() == [200., 200.]
    assert x.grad is None


def test_hooks_run_in_reverse_topological_order(torch):
    a = torch.tensor(1., requires_grad=True)
    b = a * 2
    c = b * 3
    d = c * 4
    log = []
    for name, t in [("a", a), ("b", b), ("c", c), ("d", d)]:
        t.register_hook(lambda g, name=name: log.append(name))
    d.backward()
    assert log == ["d", "c", "b", "a"]


def test_hooks_run_on_calling_thread(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    threads = []
    x.register_hook(lambda g: threads.append(threading.get_ident()))
    (x * 2).sum().backward()
    assert threads == [threading.get_ident()]


def test_hook_registered_before_in_place_op_sees_old_version_gradient(torch):
    a = torch.tensor(1., requires_grad=True)
    b = a.clone()
    log = []
    b.register_hook(lambda g: log.append(g.item()))
    b.mul_(2)
    (b * 5).backward()
    assert log == [10.0]
    assert a.grad.tolist() == 10.


def test_hook_registered_after_in_place_op_sees_new_version_gradient(torch):
    a = torch.tensor(1., requires_grad=True)
    b = a.clone()
    b.mul_(2)
    log = []
    b.register_hook(lambda g: log.append(g.item()))
    (b * 5).backward()
    assert log == [5.0]
