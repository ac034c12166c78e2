"""Reference §1.24: torch.autograd.functional (vjp, jvp, jacobian, hessian, hvp, vhp)."""
from __future__ import annotations

import re

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def F(torch):
    return torch.autograd.functional


def pair(torch, x):
    return torch.stack([x[0] * x[1], x[2] ** 2])


def as_lists(obj):
    if isinstance(obj, tuple):
        return tuple(as_lists(o) for o in obj)
    return obj.tolist()


X = [1., 2., 3.]


# ------------------------------------------------------------------------------------ jacobian

@pytest.mark.parametrize("kw", [{}, {"vectorize": True}, {"vectorize": True, "strategy": "forward-mode"}])
def test_jacobian_of_vector_function(torch, kw):
    x = torch.tensor(X)
    J = F(torch).jacobian(lambda x: pair(torch, x), x, **kw)
    assert J.tolist() == [[2., 1., 0.], [0., 0., 6.]]
    assert not x.requires_grad and not J.requires_grad and J.grad_fn is None


def test_jacobian_shape_is_output_shape_plus_input_shape(torch):
    J = F(torch).jacobian(lambda m: m.sum(0), torch.ones(2, 3))
    assert tuple(J.shape) == (3, 2, 3)


def test_jacobian_of_tuples_is_nested_tuple_output_by_input(torch):
    J = F(torch).jacobian(lambda a, b: (a * b, a + b), (torch.tensor([1., 2.]), torch.tensor([3., 4.])))
    assert as_lists(J) == (([[3., 0.], [0., 4.]], [[1., 0.], [0., 2.]]), ([[1., 0.], [0., 1.]], [[1., 0.], [0., 1.]]))


def test_jacobian_of_constant_output_is_zero_unless_strict(torch):
    x = torch.tensor(X)
    assert F(torch).jacobian(lambda a: torch.ones(2), x).tolist() == [[0., 0., 0.]] * 2
    with pytest.raises(RuntimeError, match=exact(
            "Output 0 of the user-provided function does not require gradients. The outputs must be computed in a "
            "differentiable manner from the input when running in strict mode.")):
        F(torch).jacobian(lambda a: torch.ones(2), x, strict=True)


def test_jacobian_with_create_graph_is_differentiable(torch):
    x = torch.tensor(X)
    J = F(torch).jacobian(lambda x: x ** 2, x, create_graph=True)
    assert J.requires_grad and J.grad_fn is not None and not x.requires_grad


@pytest.mark.parametrize("call, message", [
    (lambda F, torch, x: F.jacobian(lambda a: 1.0, x),
     "The outputs of the user-provided function given to jacobian must be either a Tensor or a tuple of Tensors but "
     "the given outputs of the user-provided function has type <class 'float'>."),
    (lambda F, torch, x: F.jacobian(lambda a: a, 1.0),
     "The inputs given to jacobian must be either a Tensor or a tuple of Tensors but the given inputs has type "
     "<class 'float'>."),
    (lambda F, torch, x: F.jacobian(lambda a, b: a, (x, 1.0)),
     "The inputs given to jacobian must be either a Tensor or a tuple of Tensors but the value at index 1 has type "
     "<class 'float'>."),
])
def test_jacobian_type_errors(torch, call, message):
    with pytest.raises(TypeError, match=exact(message)):
        call(F(torch), torch, torch.tensor(X))


def test_jacobian_strategy_errors(torch):
    x = torch.tensor(X)
    f = lambda x: x * 2  # noqa: E731
    with pytest.raises(NotImplementedError, match=exact(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly implemented for "
            "`vectorize=True`.")):
        F(torch).jacobian(f, x, strategy="forward-mode")
    with pytest.raises(NotImplementedError, match=exact(
            'torch.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-mode"` are not supported '
            'together (yet). Please either set `create_graph=False` or `strategy="reverse-mode"`.')):
        F(torch).jacobian(f, x, create_graph=True, strategy="forward-mode")
    with pytest.raises(RuntimeError, match=exact(
            "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not supported together. "
            "Please either set `strict=False` or `vectorize=False`.")):
        F(torch).jacobian(f, x, strict=True, vectorize=True)
    with pytest.raises(AssertionError, match=r'^Expected strategy to be either "forward-mode" or "reverse-mode"\.'):
        F(torch).jacobian(f, x, strategy="bad")


# ------------------------------------------------------------------------------------ hessian

def test_hessian_of_cubic_is_diagonal(torch):
    H = F(torch).hessian(lambda x: (x ** 3).sum(), torch.tensor(X))
    assert H.tolist() == [[6., 0., 0.], [0., 12., 0.], [0., 0., 18.]]


def test_hessian_vectorized_and_forward_outer_strategy_agree(torch):
    f = lambda x: (x ** 3).sum()  # noqa: E731
    x = torch.tensor(X)
    for kw in ({"vectorize": True}, {"vectorize": True, "outer_jacobian_strategy": "forward-mode"}):
        assert F(torch).hessian(f, x, **kw).tolist() == [[6., 0., 0.], [0., 12., 0.], [0., 0., 18.]]


def test_hessian_of_two_inputs_is_nested(torch):
    H = F(torch).hessian(lambda a, b: (a * b).sum(), (torch.ones(2), torch.ones(2)))
    assert as_lists(H) == (([[0., 0.], [0., 0.]], [[1., 0.], [0., 1.]]), ([[1., 0.], [0., 1.]], [[0., 0.], [0., 0.]]))


def test_hessian_of_0d_input(torch):
    assert F(torch).hessian(lambda a: (a ** 3).sum(), torch.tensor(2.)).item() == 12.


@pytest.mark.parametrize("fn, message", [
    (lambda x: x ** 3, "The Tensor returned by the function given to hessian should contain a single element"),
    (lambda x: (x.sum(), x.sum()), "The function given to hessian should return a single Tensor"),
])
def test_hessian_needs_a_single_scalar_output(torch, fn, message):
    with pytest.raises(RuntimeError, match=exact(message)):
        F(torch).hessian(fn, torch.tensor(X))


def test_hessian_of_linear_function_in_strict_mode_raises(torch):
    with pytest.raises(RuntimeError, match=exact(
            "While computing the hessian, found that the jacobian of the user-provided function with respect to input "
            "0 is independent of the input. This is not allowed in strict mode. You should ensure that your function "
            "is twice differentiable and that the jacobian depends on the inputs (this would be violated by a linear "
            "function for example).")):
        F(torch).hessian(lambda x: (2 * x).sum(), torch.tensor(X), strict=True)


# ------------------------------------------------------------------------------------ vjp / jvp

def test_vjp(torch):
    out, v = F(torch).vjp(lambda x: pair(torch, x), torch.tensor(X), torch.ones(2))
    assert (out.tolist(), v.tolist()) == ([2., 9.], [2., 1., 6.])


def test_vjp_of_scalar_function_without_v(torch):
    out, v = F(torch).vjp(lambda x: x.sum(), torch.tensor(X))
    assert (out.item(), v.tolist()) == (6., [1., 1., 1.])


def test_vjp_v_errors(torch):
    f = lambda x: pair(torch, x)  # noqa: E731
    x = torch.tensor(X)
    with pytest.raises(RuntimeError, match=exact("The vector v can only be None if the user-provided function returns "
                                                 "a single Tensor with a single element.")):
        F(torch).vjp(f, x)
    with pytest.raises(RuntimeError, match=exact("v has invalid size: should be torch.Size([2]) but got "
                                                 "torch.Size([3]).")):
        F(torch).vjp(f, x, torch.ones(3))
    g = lambda a, b: (a, b)  # noqa: E731
    with pytest.raises(RuntimeError, match=exact("v is a tuple of invalid length: should be 2 but got 1.")):
        F(torch).vjp(g, (x, x), (torch.ones(3),))
    with pytest.raises(RuntimeError, match=exact("Entry 1 in v has invalid size: should be torch.Size([3]) but got "
                                                 "torch.Size([2]).")):
        F(torch).vjp(g, (x, x), (torch.ones(3), torch.ones(2)))


def test_jvp(torch):
    out, j = F(torch).jvp(lambda x: pair(torch, x), torch.tensor(X), torch.tensor([1., 0., 0.]))
    assert (out.tolist(), j.tolist()) == ([2., 9.], [2., 0.])
    out, j = F(torch).jvp(lambda x: x * 2, torch.tensor([3.]))
    assert (out.tolist(), j.tolist()) == ([6.], [2.])


def test_jvp_v_none_only_for_single_element_input(torch):
    with pytest.raises(RuntimeError, match=exact("The vector v can only be None if the input to the user-provided "
                                                 "function is a single Tensor with a single element.")):
        F(torch).jvp(lambda x: x * 2, torch.tensor(X))


def test_jvp_with_tuple_outputs(torch):
    out, j = F(torch).jvp(lambda a: (a * 2, a.sum()), torch.tensor(X), torch.ones(3))
    assert as_lists(out) == ([2., 4., 6.], 6.) and as_lists(j) == ([2., 2., 2.], 3.)


@pytest.mark.parametrize("name", ["vjp", "jvp"])
def test_create_graph_keeps_results_differentiable(torch, name):
    out, r = getattr(F(torch), name)(lambda x: x ** 2, torch.tensor(X), torch.ones(3), create_graph=True)
    assert r.tolist() == [2., 4., 6.] and r.requires_grad and out.requires_grad


def test_strict_mode_errors(torch):
    x = torch.tensor(X)
    with pytest.raises(RuntimeError, match=exact(
            "Output 0 of the user-provided function does not require gradients. The outputs must be computed in a "
            "differentiable manner from the input when running in strict mode.")):
        F(torch).vjp(lambda x: torch.ones(2), x, torch.ones(2), strict=True)
    with pytest.raises(RuntimeError, match=exact(
            "The output of the user-provided function is independent of input 0. This is not allowed in strict "
            "mode.")):
        F(torch).vjp(lambda a, b: b * 2, (x, x), torch.ones(3), strict=True)
    with pytest.raises(RuntimeError, match=exact(
            "Output 0 of the user-provided function does not require gradients. The outputs must be computed in a "
            "differentiable manner from the input when running in strict mode.")):
        F(torch).jvp(lambda x: x.detach(), x, torch.ones(3), strict=True)


# ------------------------------------------------------------------------------------ hvp / vhp

@pytest.mark.parametrize("name", ["hvp", "vhp"])
def test_hessian_vector_products(torch, name):
    out, r = getattr(F(torch), name)(lambda x: (x ** 3).sum(), torch.tensor(X), torch.ones(3))
    assert (out.item(), r.tolist()) == (36., [6., 12., 18.])


@pytest.mark.parametrize("name", ["hvp", "vhp"])
def test_hessian_vector_product_needs_scalar_function(torch, name):
    with pytest.raises(RuntimeError, match=exact(f"The Tensor returned by the function given to {name} should contain "
                                                 "a single element")):
        getattr(F(torch), name)(lambda x: x ** 3, torch.tensor(X), torch.ones(3))


def test_hvp_of_0d_input_without_v(torch):
    out, r = F(torch).vhp(lambda a: (a ** 3).sum(), torch.tensor(2.))
    assert (out.item(), r.item()) == (8., 12.)


def test_hvp_with_create_graph(torch):
    out, r = F(torch).hvp(lambda x: (x ** 3).sum(), torch.tensor(X), torch.ones(3), create_graph=True)
    assert r.tolist() == [6., 12., 18.] and r.requires_grad


def test_hvp_v_none_for_multi_element_input_raises(torch):
    with pytest.raises(RuntimeError, match=exact("The vector v can only be None if the input to the user-provided "
                                                 "function is a single Tensor with a single element.")):
        F(torch).hvp(lambda a: (a * a).sum(), torch.tensor(X))
