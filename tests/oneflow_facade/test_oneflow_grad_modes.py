"""Grad modes (no_grad, enable_grad, inference_mode as no_grad, set_grad_enabled acting in its
constructor, is_grad_enabled), `flow.autograd.graph.saved_tensors_hooks` and
`flow.autograd.functional`."""
from __future__ import annotations

import numpy as np
import pytest

from same_program import alike


def test_names_at_the_top_and_in_autograd(flow):
    for name in ("no_grad", "enable_grad", "inference_mode", "set_grad_enabled", "is_grad_enabled"):
        assert getattr(flow, name) is getattr(flow.autograd, name)
    assert not hasattr(flow, "grad_mode") and not hasattr(flow.autograd, "grad_mode")


def test_no_grad_and_enable_grad(flow):
    x = flow.ones(2, requires_grad=True)
    with flow.no_grad():
        assert not flow.is_grad_enabled()
        y = x * 2
        with flow.enable_grad():
            z = x * 2
    assert flow.is_grad_enabled()
    assert not y.requires_grad and y.is_leaf and z.requires_grad

    @flow.no_grad()
    def f(t):
        return t * 2
    assert not f(x).requires_grad and flow.is_grad_enabled()


def test_decorators_need_parentheses(flow):
    for mode in (flow.no_grad, flow.enable_grad):
        with pytest.raises(TypeError):
            @mode
            def f():
                pass


def test_inference_mode_is_no_grad(flow):
    x = flow.ones(2, requires_grad=True)
    with flow.inference_mode():
        y = x * 2
        assert not flow.is_grad_enabled()
    assert not y.requires_grad and not hasattr(y, "is_inference") or not y.is_inference()
    y.add_(1)                                               # a plain tensor: no inference-tensor restrictions
    with flow.no_grad():
        with flow.inference_mode(False):
            assert flow.is_grad_enabled()

    @flow.inference_mode()
    def g(t):
        return t * 2
    assert not g(x).requires_grad


def test_set_grad_enabled_acts_in_its_constructor(flow):
    flow.set_grad_enabled(False)
    assert not flow.is_grad_enabled()
    flow.set_grad_enabled(True)
    with flow.set_grad_enabled(False):
        assert not flow.is_grad_enabled()
    assert flow.is_grad_enabled()
    with flow.set_grad_enabled(False):
        flow.set_grad_enabled(True)                         # a plain call inside the block acts at once
        assert flow.ones(1, requires_grad=True).mul(2).requires_grad
    assert flow.is_grad_enabled()                           # the mode from before the block comes back
    flow.set_grad_enabled(False)
    flow.set_grad_enabled()                                 # is_train defaults to True
    assert flow.is_grad_enabled()

    @flow.set_grad_enabled(False)
    def f(t):
        return t * 2
    assert flow.is_grad_enabled() and not f(flow.ones(1, requires_grad=True)).requires_grad


def test_saved_tensors_hooks(flow):
    packed = []
    x = flow.tensor([1., 2.], requires_grad=True)
    y = flow.tensor([3., 4.], requires_grad=True)
    with flow.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t.tolist()) or t * 1,
                                                 lambda t: t * 2):
        z = x * y
    assert packed == [[3., 4.], [1., 2.]]                  # y, then x: the order OneFlow's mul saves them
    z.sum().backward()
    assert x.grad.tolist() == [6., 8.] and y.grad.tolist() == [2., 4.]   # unpack doubled the saved values


def test_unpack_hook_must_return_a_tensor(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    with flow.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: 1):
        z = x * x
    with pytest.raises(RuntimeError) as e:
        z.sum().backward()
    assert str(e.value) == "unpack_hook should return a Tensor, but got `<class 'int'>` instead"


def test_functional_agrees_with_pytorch():
    def program(fw, x, v):
        f = lambda t: (t ** 3).sum()                               # noqa: E731
        g = lambda t: t.sin() * t                                  # noqa: E731
        return (fw.autograd.functional.vjp(g, x, v)[1], fw.autograd.functional.jvp(g, x, v)[1],
                fw.autograd.functional.jacobian(g, x), fw.autograd.functional.hessian(f, x),
                fw.autograd.functional.hvp(f, x, v)[1], fw.autograd.functional.vhp(f, x, v)[1])
    alike(program, [0.5, 1.0, -2.0], [1., 0., 2.], requires_grad=False)


def test_functional_names(flow):
    assert flow.autograd.vjp is flow.autograd.functional.vjp
    out, j = flow.autograd.functional.vjp(lambda t: t * 2, flow.ones(2), flow.ones(2))
    assert np.allclose(j.numpy(), 2.)
