"""no_grad, enable_grad, set_grad_enabled, is_grad_enabled (reference §3.2)."""
from __future__ import annotations

import inspect
import re

import pytest


def test_no_grad_is_the_class_no_grad_(paddle):
    assert paddle.no_grad is paddle.autograd.no_grad
    assert isinstance(paddle.no_grad, type) and paddle.no_grad.__name__ == "no_grad_"


def test_no_grad_context(paddle):
    x = paddle.to_tensor([1.], stop_gradient=False)
    with paddle.no_grad():
        assert paddle.is_grad_enabled() is False
        assert (x * 2).stop_gradient is True
    assert paddle.is_grad_enabled() is True


def test_no_grad_bare_decorator_raises(paddle):
    with pytest.raises(TypeError, match="^" + re.escape("no_grad_() takes no arguments") + "$"):
        @paddle.no_grad
        def f():
            pass


def test_enable_grad_bare_decorator_raises(paddle):
    with pytest.raises(TypeError, match=re.escape("enable_grad() takes no arguments")):
        @paddle.enable_grad
        def f():
            pass


def test_no_grad_decorator_keeps_signature_and_doc(paddle):
    @paddle.no_grad()
    def h(a, b=2):
        "doc"
        return paddle.is_grad_enabled()
    assert h.__name__ == "h" and h.__doc__ == "doc"
    assert inspect.getfullargspec(h).args == ["a", "b"]
    assert h(1) is False and paddle.is_grad_enabled() is True


def test_decorated_generator_stays_in_the_mode_between_yields(paddle):
    @paddle.no_grad()
    def gen():
        yield paddle.is_grad_enabled()
        yield paddle.is_grad_enabled()
    g = gen()
    assert next(g) is False
    assert paddle.is_grad_enabled() is False
    assert next(g) is False
    for _ in g:
        pass
    assert paddle.is_grad_enabled() is True


def test_no_grad_instance_is_reusable_and_restores_after_exception(paddle):
    ng = paddle.no_grad()
    for _ in range(2):
        with pytest.raises(ValueError):
            with ng:
                raise ValueError
        assert paddle.is_grad_enabled() is True


def test_enable_grad_inside_no_grad(paddle):
    x = paddle.to_tensor([1.], stop_gradient=False)
    with paddle.no_grad():
        with paddle.enable_grad():
            assert (x * 2).stop_gradient is False
        assert (x * 2).stop_gradient is True


def test_set_grad_enabled_as_context_restores_previous(paddle):
    with paddle.set_grad_enabled(False):
        assert paddle.is_grad_enabled() is False
    assert paddle.is_grad_enabled() is True


def test_set_grad_enabled_as_plain_call_is_persistent(paddle):
    paddle.set_grad_enabled(False)
    assert paddle.is_grad_enabled() is False
    paddle.set_grad_enabled(True)
    assert paddle.is_grad_enabled() is True


def test_set_grad_enabled_decorator_switches_at_decoration(paddle):
    @paddle.set_grad_enabled(False)
    def f():
        return paddle.is_grad_enabled()
    assert paddle.is_grad_enabled() is False
    assert f() is False
    assert paddle.is_grad_enabled() is True


def test_set_grad_enabled_rejects_non_bool(paddle):
    msg = ("_set_has_grad(): incompatible function arguments. The following argument types are supported:\n    1. "
           "(arg0: bool) -> None\n\nInvoked with: 'yes'")
    with pytest.raises(TypeError, match="^" + re.escape(msg) + "$"):
        paddle.set_grad_enabled("yes")


def test_grad_create_graph_inside_no_grad_still_records(paddle):
    x = paddle.to_tensor(3., stop_gradient=False)
    y = x ** 3
    with paddle.no_grad():
        (g,) = paddle.grad(y, x, create_graph=True)
    assert g.stop_gradient is False


def test_saved_tensors_hooks_pack_and_unpack(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    log = []

    def pack(t):
        log.append("pack")
        return t.numpy()

    def unpack(a):
        log.append("unpack")
        return paddle.to_tensor(a)

    with paddle.autograd.saved_tensors_hooks(pack, unpack):
        y = x * x
    y.sum().backward()
    assert log == ["pack", "pack", "unpack", "unpack"]
    assert x.grad.tolist() == [2., 4.]
