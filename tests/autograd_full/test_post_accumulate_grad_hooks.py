"""Reference §1.12: Tensor.register_post_accumulate_grad_hook."""
from __future__ import annotations

import re

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def test_hook_sees_the_leaf_after_its_grad_is_updated(torch):
    x = torch.tensor([1., 1.], requires_grad=True)
    log = []
    x.register_post_accumulate_grad_hook(lambda t: log.append((t is x, t.grad.tolist())))
    (x * 3).sum().backward()
    (x * 3).sum().backward()
    assert log == [(True, [3., 3.]), (True, [6., 6.])]


def test_hook_may_update_the_grad_in_place(torch):
    x = torch.tensor([1., 1.], requires_grad=True)

    def scale(t):
        t.grad.mul_(10)

    x.register_post_accumulate_grad_hook(scale)
    (x * 3).sum().backward()
    assert x.grad.tolist() == [30., 30.]


def test_removed_hook_is_not_called(torch):
    x = torch.tensor([1., 1.], requires_grad=True)
    log = []
    x.register_post_accumulate_grad_hook(lambda t: log.append(1)).remove()
    (x * 3).sum().backward()
    assert log == []


def test_autograd_grad_does_not_run_it(torch):
    x = torch.tensor([1., 1.], requires_grad=True)
    log = []
    x.register_post_accumulate_grad_hook(lambda t: log.append(1))
    torch.autograd.grad((x * 3).sum(), x)
    assert log == [] and x.grad is None


def test_non_leaf_refuses_the_hook(torch):
    x = torch.tensor([1., 1.], requires_grad=True)
    with pytest.raises(RuntimeError, match=exact("post accumulate grad hooks cannot be registered on non-leaf "
                                                 "tensors")):
        (x * 2).register_post_accumulate_grad_hook(lambda t: None)


def test_hook_returning_a_tensor_raises(torch):
    x = torch.tensor([1., 1.], requires_grad=True)
    x.register_post_accumulate_grad_hook(lambda t: t.grad)
    with pytest.raises(RuntimeError, match=exact("Tensor post accumulate grad hooks should return None.")):
        (x * 2).sum().backward()


@pytest.mark.parametrize("value, type_name", [(1, "int"), ((1,), "tuple"), ("s", "str")])
def test_hook_returning_a_non_tensor_fails_the_type_check(torch, value, type_name):
    x = torch.tensor([1., 1.], requires_grad=True)
    x.register_post_accumulate_grad_hook(lambda t: value)
    with pytest.raises(TypeError, match=exact(f"expected Variable, but hook returned '{type_name}'")):
        (x * 2).sum().backward()
