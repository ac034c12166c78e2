"""Reference §1.25: gradcheck / gradgradcheck behaviour and messages (real torch is the oracle)."""
from __future__ import annotations

import importlib
import re
import warnings

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def gradcheck_module(torch):
    return importlib.import_module(torch.__name__ + ".autograd.gradcheck")


def dbl(torch, values=(1., 2., 3.)):
    return torch.tensor(list(values), dtype=torch.float64, requires_grad=True)


def fn(torch, name, forward, backward, **attrs):
    attrs.update(forward=staticmethod(forward), backward=staticmethod(backward))
    return type(name, (torch.autograd.Function,), attrs)


def times_three_backward(torch):
    return fn(torch, "Bad", lambda ctx, a: a * 2, lambda ctx, g: g * 3)


MISMATCH = ("Jacobian mismatch for output 0 with respect to input 0,\n"
            "numerical:tensor([[2.0000, 0.0000, 0.0000],\n        [0.0000, 2.0000, 0.0000],\n"
            "        [0.0000, 0.0000, 2.0000]], dtype=torch.float64)\n"
            "analytical:tensor([[3., 0., 0.],\n        [0., 3., 0.],\n        [0., 0., 3.]], dtype=torch.float64)\n")


def test_gradcheck_error_is_a_runtime_error(torch):
    assert issubclass(gradcheck_module(torch).GradcheckError, RuntimeError)
    assert torch.autograd.gradcheck is gradcheck_module(torch).gradcheck


@pytest.mark.parametrize("wrap", [lambda x: x, lambda x: (x,), lambda x: [x]])
def test_gradcheck_accepts_tensor_tuple_or_list(torch, wrap):
    assert torch.autograd.gradcheck(lambda a: a * 2, wrap(dbl(torch))) is True


def test_gradcheck_with_non_tensor_args_and_several_outputs(torch):
    x = dbl(torch)
    assert torch.autograd.gradcheck(lambda a, k: a * k, (x, 3.0)) is True
    assert torch.autograd.gradcheck(lambda a: (a * 2, a.sum(), (a * a).exp()), x) is True
    a = torch.tensor([[0.3, -1.2, 0.5], [1.1, 0.2, -0.7]], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([[0.4, 0.1], [-0.5, 0.9], [0.3, -0.8]], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, b: (a @ b).tanh(), (a, b)) is True


def test_only_inputs_requiring_grad_are_checked(torch):
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b, g * 100          # right for a, wrong for b

    f = fn(torch, "RightForA", forward, backward)
    x, c = dbl(torch), torch.tensor([1., 2., 3.], dtype=torch.float64)
    assert torch.autograd.gradcheck(f.apply, (x, c)) is True
    with pytest.raises(gradcheck_module(torch).GradcheckError, match="^Jacobian mismatch for output 0 with respect "
                                                                      "to input 0,\n"):
        torch.autograd.gradcheck(f.apply, (c, x))


def test_jacobian_mismatch_message(torch):
    with pytest.raises(gradcheck_module(torch).GradcheckError, match=exact(MISMATCH)):
        torch.autograd.gradcheck(times_three_backward(torch).apply, dbl(torch))


def test_raise_exception_false_returns_false(torch):
    assert torch.autograd.gradcheck(times_three_backward(torch).apply, dbl(torch), raise_exception=False) is False


def test_fast_mode_failure_reports_projections_then_slow_mode_jacobians(torch):
    with pytest.raises(gradcheck_module(torch).GradcheckError) as info:
        torch.autograd.gradcheck(times_three_backward(torch).apply, dbl(torch), fast_mode=True)
    msg = str(info.value)
    head = re.match(r"^Jacobian mismatch for output 0 with respect to input 0,\nnumerical:([0-9.e+-]+)\n"
                    r"analytical:([0-9.e+-]+)\n", msg)
    assert head, msg
    assert abs(float(head.group(2)) / float(head.group(1)) - 1.5) < 1e-6
    assert msg[head.end():] == (
        "\nThe above quantities relating the numerical and analytical jacobians are computed \nin fast mode. See: "
        "https://github.com/pytorch/pytorch/issues/53876 for more background \nabout fast mode. Below, we recompute "
        "numerical and analytical jacobians in slow mode:\n\nNumerical:\n "
        "tensor([[2.0000, 0.0000, 0.0000],\n        [0.0000, 2.0000, 0.0000],\n        [0.0000, 0.0000, 2.0000]], "
        "dtype=torch.float64)\nAnalytical:\ntensor([[3., 0., 0.],\n        [0., 3., 0.],\n        [0., 0., 3.]], "
        "dtype=torch.float64)\n\nThe max per-element difference (slow mode) is: 1.000000000053511.\n")


def test_fast_mode_passes_on_correct_gradients(torch):
    x = dbl(torch)
    assert torch.autograd.gradcheck(lambda a: (a * a).sum(), x, fast_mode=True) is True
    assert torch.autograd.gradcheck(lambda a: (a.sin(), a.exp() * 2), x, fast_mode=True) is True
    assert torch.autograd.gradgradcheck(lambda a: a ** 3, x, fast_mode=True) is True


def test_float32_input_warns(torch):
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    with pytest.warns(UserWarning, match=exact(
            "Input #0 requires gradient and is not a double precision floating point or complex. This check will "
            "likely fail if all the inputs are not of double precision floating point or complex. ")):
        with pytest.raises(gradcheck_module(torch).GradcheckError, match="^Jacobian mismatch for output 0"):
            torch.autograd.gradcheck(lambda a: a * 2, x)


@pytest.mark.parametrize("raise_exception", [True, False])
def test_no_input_requiring_grad_raises_value_error(torch, raise_exception):
    with pytest.raises(ValueError, match=exact("gradcheck expects at least one input tensor to require gradient, but "
                                               "none of them have requires_grad=True.")):
        torch.autograd.gradcheck(lambda a: a * 2, dbl(torch).detach(), raise_exception=raise_exception)


def test_backward_not_multiplied_by_grad_output(torch):
    f = fn(torch, "NotMul", lambda ctx, a: a * 2, lambda ctx, g: torch.ones_like(g) * 2)
    with pytest.raises(gradcheck_module(torch).GradcheckError, match=exact("backward not multiplied by grad_output")):
        torch.autograd.gradcheck(f.apply, dbl(torch, [1.5]))


def test_nondeterministic_backward(torch):
    count = [0]

    def backward(ctx, g):
        count[0] += 1
        return g * (2 + count[0] * 1e-7)

    f = fn(torch, "Nondet", lambda ctx, a: a * 2, backward)
    with pytest.raises(gradcheck_module(torch).GradcheckError, match=exact(
            "Backward is not reentrant, i.e., running backward with same input and grad_output multiple times gives "
            "different values, although analytical gradient matches numerical gradient.The tolerance for "
            "nondeterminism was 0.0.\n\nNOTE: If your op relies on non-deterministic operations i.e., it is listed "
            "here:\nhttps://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html\nthis failure "
            "might be expected.\n\nIf you are adding a new operator, please file an issue and then use one of the\n"
            "workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.\nIf the test\n- "
            "manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck\n  with `nondet_tol=<tol>` "
            "as a keyword argument.\n- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for "
            "the test\n  to have `gradcheck_nondet_tol=<tol>`.\n- is a Module test (e.g., in common_nn.py), then "
            "modify the corresponding\n  module_test entry to have `gradcheck_nondet_tol=<tol>`\n")):
        torch.autograd.gradcheck(f.apply, dbl(torch))
    assert torch.autograd.gradcheck(f.apply, dbl(torch), nondet_tol=1e-5) is True


def test_output_shape_changing_under_perturbation(torch):
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    with pytest.raises(AssertionError, match=exact(
            "Expected `func` to return outputs with the same shape when inputs are perturbed on index (0,) by 1e-06, "
            "but got: shapes torch.Size([2]) and torch.Size([1]).")):
        torch.autograd.gradcheck(lambda a: a[: int(a[0].item() * 1e6) % 2 + 1] * 1, x)


def test_stride_zero_input_is_refused(torch):
    x = torch.tensor([1.], dtype=torch.float64).expand(3).requires_grad_()
    with pytest.raises(RuntimeError, match=exact(
            "The 0th input has a dimension with stride 0. gradcheck only supports inputs that are non-overlapping to "
            "be able to compute the numerical gradients correctly. You should call .contiguous on the input before "
            "passing it to gradcheck.")):
        torch.autograd.gradcheck(lambda a: a * 2, x)


def test_non_differentiable_output_with_nonzero_numerical_gradient(torch):
    x = dbl(torch)
    with pytest.raises(gradcheck_module(torch).GradcheckError, match=exact("Numerical gradient for function expected "
                                                                            "to be zero")):
        torch.autograd.gradcheck(lambda a: a.detach() * 2, x)
    assert torch.autograd.gradcheck(lambda a: (a > 0).double(), x) is True
    assert torch.autograd.gradcheck(lambda a: (), x) is True


def test_gradgradcheck_passes_for_twice_differentiable_functions(torch):
    x = dbl(torch)
    assert torch.autograd.gradgradcheck(lambda a: (a ** 3).sum(), x) is True
    assert torch.autograd.gradgradcheck(lambda a: a ** 3, x) is True
    assert torch.autograd.gradgradcheck(lambda a: a.sin() * a, x, gen_non_contig_grad_outputs=True) is True
    go = torch.tensor([0.5, -1., 2.], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradgradcheck(lambda a: a ** 3, x, go) is True


def _cube(torch, once):
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 3

    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * 3 * (a.detach() if not once else a) ** 2

    if once:
        backward = torch.autograd.function.once_differentiable(backward)
    return fn(torch, "CubeOD" if once else "DetachSaved", forward, backward)


@pytest.mark.parametrize("once", [True, False])
def test_gradgradcheck_catches_backward_that_is_not_differentiable(torch, once):
    f = _cube(torch, once)
    assert torch.autograd.gradcheck(f.apply, dbl(torch)) is True
    with pytest.raises(gradcheck_module(torch).GradcheckError) as info:
        torch.autograd.gradgradcheck(f.apply, dbl(torch))
    msg = str(info.value)
    assert msg.startswith("Jacobian mismatch for output 0 with respect to input 0,\nnumerical:tensor([[")
    assert msg.endswith("analytical:tensor([[0., 0., 0.],\n        [0., 0., 0.],\n        [0., 0., 0.]], "
                        "dtype=torch.float64)\n")


def test_batched_grad_and_forward_ad_checks(torch):
    x = dbl(torch)
    assert torch.autograd.gradcheck(lambda a: a * 2, x, check_batched_grad=True) is True
    assert torch.autograd.gradcheck(lambda a: (a.sin(), a @ a), x, check_forward_ad=True) is True
    assert torch.autograd.gradcheck(lambda a: a.exp(), x, check_forward_ad=True, check_backward_ad=False) is True
    assert torch.autograd.gradcheck(lambda a: a.exp() * a, x, fast_mode=True, check_forward_ad=True) is True
    with pytest.raises(AssertionError, match=exact("Setting check_batched_grad=True requires check_backward_ad to be "
                                                   "True")):
        torch.autograd.gradcheck(lambda a: a, x, check_batched_grad=True, check_backward_ad=False,
                                 check_forward_ad=True)
    with pytest.raises(AssertionError, match=exact("Expected at least one of check_forward_ad or check_backward_ad to "
                                                   "be True")):
        torch.autograd.gradcheck(lambda a: a, x, check_backward_ad=False)


def test_backward_not_handling_undefined_grads(torch):
    def forward(ctx, a):
        ctx.set_materialize_grads(False)
        return a * 2

    def backward(ctx, g):
        if g is None:
            raise RuntimeError("undefined")
        return g * 2

    f = fn(torch, "Undef", forward, backward)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with pytest.raises(gradcheck_module(torch).GradcheckError, match=exact(
                'Expected backward function to handle undefined output grads. Please look at "Notes about undefined '
                'output gradients" in "tools/autograd/derivatives.yaml"')) as info:
            torch.autograd.gradcheck(f.apply, dbl(torch))
    assert isinstance(info.value.__cause__, RuntimeError)
    assert any(str(w.message).startswith("Backwards compatibility: New undefined gradient support checking feature "
                                         "is enabled by default, but it may break existing callers of this "
                                         "function. If this is true for you, you can call this function with "
                                         '"check_undefined_grad=False" to disable the feature') for w in record)
    assert torch.autograd.gradcheck(f.apply, dbl(torch), check_undefined_grad=False) is True


def test_backward_returning_nonzero_for_undefined_grads(torch):
    def forward(ctx, a):
        ctx.set_materialize_grads(False)
        return a * 2

    def backward(ctx, g):
        return g * 2 if g is not None else torch.ones(3, dtype=torch.float64)

    f = fn(torch, "Nonzero", forward, backward)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(gradcheck_module(torch).GradcheckError, match=exact(
                "Expected all input grads to be undefined or zero when all output grads are undefined or zero. Please "
                'look at "Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"')):
            torch.autograd.gradcheck(f.apply, dbl(torch))


def test_unhandled_none_grad_propagates_its_own_error(torch):
    def forward(ctx, a):
        ctx.set_materialize_grads(False)
        return a * 2, a * 3

    f = fn(torch, "NoUndef", forward, lambda ctx, g1, g2: g1 * 2 + g2 * 3)
    with pytest.raises(TypeError):
        torch.autograd.gradcheck(f.apply, dbl(torch))
