"""Reference §1.1 (entry points / argument normalisation), §1.2 (grad_tensors rules),
§1.7 (duplicate roots) and §1.8 (roots that do not require grad).

Every test runs against flowgrad.torch and real torch (the oracle) through the `torch` fixture."""
from __future__ import annotations

import collections
import re
import warnings

import pytest


def exact(msg: str) -> str:
    """Regex matching the whole message and nothing else."""
    return "^" + re.escape(msg) + "$"


NOT_SCALAR = "grad can be implicitly created only for scalar outputs"
ELEMENT0 = "element 0 of tensors does not require grad and does not have a grad_fn"


# --------------------------------------------------------------------------------------------
# §1.1 entry points, signatures, argument normalisation
# --------------------------------------------------------------------------------------------

def test_tensor_backward_rejects_grad_tensors_keyword(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    with pytest.raises(TypeError, match=exact(
            "Tensor.backward() got an unexpected keyword argument 'grad_tensors'")):
        y.backward(grad_tensors=torch.ones(2))
    assert x.grad is None


def test_tensor_backward_accepts_gradient_keyword(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.backward(gradient=torch.tensor([1., 10.]))
    assert x.grad.tolist() == [2., 20.]


def test_tensor_backward_returns_none(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    assert (x * x).sum().backward() is None
    assert x.grad.tolist() == [2., 4.]


def test_autograd_backward_returns_none(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    assert torch.autograd.backward((x * x).sum()) is None
    assert x.grad.tolist() == [2., 4.]


def test_autograd_backward_single_tensor_with_single_grad_tensor(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 3
    torch.autograd.backward(y, torch.tensor([1., 2.]))
    assert x.grad.tolist() == [3., 6.]


def test_autograd_backward_accepts_tuple_of_tensors(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    torch.autograd.backward(((x * 2).sum(), (x * 3).sum()))
    assert x.grad.tolist() == [5., 5.]


def test_autograd_backward_empty_list_is_noop(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (x * 2).sum()
    assert torch.autograd.backward([]) is None
    assert x.grad is None


def test_grad_with_empty_outputs_reports_input_unused(torch):
    a = torch.tensor([1., 2.], requires_grad=True)
    with pytest.raises(RuntimeError, match=exact(
            "The differentiated Tensor at index 0 appears to not have been used in the graph. "
            "Set allow_unused=True if this is the desired behavior.")):
        torch.autograd.grad([], [a])
    assert a.grad is None


def test_grad_returns_tuple_for_single_input(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    res = torch.autograd.grad((x * x).sum(), x)
    assert type(res) is tuple
    assert len(res) == 1
    assert res[0].tolist() == [2., 4.]


def test_backward_python_float_gradient_is_not_iterable(torch):
    x = torch.tensor(2., requires_grad=True)
    y = x * 3
    with pytest.raises(TypeError, match=exact("'float' object is not iterable")):
        y.backward(1.0)
    assert x.grad is None


def test_grad_python_float_grad_outputs_is_not_iterable(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    s = (x * x).sum()
    with pytest.raises(TypeError, match=exact("'float' object is not iterable")):
        torch.autograd.grad(s, x, grad_outputs=2.0)
    # the graph was not consumed: a valid call still works
    assert torch.autograd.grad(s, x)[0].tolist() == [2., 4.]


def test_grad_float_inside_grad_outputs_list_is_rejected(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    s = (x * x).sum()
    with pytest.raises(TypeError, match=exact("gradients can be either Tensors or None, but got float")):
        torch.autograd.grad(s, x, grad_outputs=[2.0])
    assert x.grad is None


def test_backward_extra_grad_tensors_are_ignored(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y1 = x * 2
    torch.autograd.backward([y1], [torch.ones(2), torch.full((3,), 7.)])
    assert x.grad.tolist() == [2., 2.]


def test_grad_extra_grad_outputs_are_ignored(torch):
    a = torch.tensor([1., 2.], requires_grad=True)
    y = a * 2
    res = torch.autograd.grad([y], [a], [torch.ones(2), torch.full((3,), 7.)])
    assert res[0].tolist() == [2., 2.]


def test_backward_too_few_grad_tensors_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y1 = x * 2
    y2 = x * 3
    with pytest.raises(RuntimeError, match=exact("got 2 tensors and 1 gradients")):
        torch.autograd.backward([y1, y2], [torch.ones(2)])
    assert x.grad is None


def test_grad_variables_is_deprecated_alias_of_grad_tensors(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    with pytest.warns(FutureWarning, match=exact("`grad_variables` is deprecated. Use `grad_tensors` instead.")):
        torch.autograd.backward([y], grad_variables=[torch.tensor([1., 10.])])
    assert x.grad.tolist() == [2., 20.]


def test_grad_tensors_and_grad_variables_together_raise(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        with pytest.raises(RuntimeError, match=exact(
                "`grad_tensors` and `grad_variables` (deprecated) arguments both passed to `backward()`. "
                "Please only use `grad_tensors`.")):
            torch.autograd.backward([y], grad_tensors=[torch.ones(2)], grad_variables=[torch.ones(2)])
    assert x.grad is None


def test_grad_with_dict_inputs_returns_dict_keyed_like_inputs(torch):
    a = torch.tensor([1., 2.], requires_grad=True)
    b = torch.tensor([3., 4.], requires_grad=True)
    out = (a * b).sum()
    res = torch.autograd.grad(out, {"first": a, "second": b})
    assert type(res) is dict
    assert list(res.keys()) == ["first", "second"]
    assert res["first"].tolist() == [3., 4.]
    assert res["second"].tolist() == [1., 2.]


def test_backward_inputs_ordereddict_is_rejected(torch):
    a = torch.tensor([1., 2.], requires_grad=True)
    out = (a * a).sum()
    with pytest.raises(TypeError, match=exact(
            "`inputs` argument to `backward()` must be a dict, not OrderedDict. "
            "Other Mapping types are not supported.")):
        out.backward(inputs=collections.OrderedDict(a=a))
    assert a.grad is None


def test_grad_inputs_ordereddict_is_rejected(torch):
    a = torch.tensor([1., 2.], requires_grad=True)
    out = (a * a).sum()
    with pytest.raises(TypeError, match=exact(
            "`inputs` argument to `grad()` must be a dict, not OrderedDict. "
            "Other Mapping types are not supported.")):
        torch.autograd.grad(out, collections.OrderedDict(a=a))
    assert a.grad is None


# --------------------------------------------------------------------------------------------
# §1.2 grad_tensors / grad_outputs rules
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(1,), (1, 1)])
def test_implicit_grad_for_one_element_non_0dim_output(torch, shape):
    x = torch.full(shape, 3., requires_grad=True)
    y = x * x
    y.backward()
    assert x.grad.tolist() == torch.full(shape, 6.).tolist()


_IMPLICIT_ENTRY_POINTS = {
    "Tensor.backward": lambda torch, y, x: y.backward(),
    "autograd.backward": lambda torch, y, x: torch.autograd.backward(y),
    "autograd.backward[None]": lambda torch, y, x: torch.autograd.backward([y], [None]),
    "autograd.grad": lambda torch, y, x: torch.autograd.grad(y, x),
    "autograd.grad[None]": lambda torch, y, x: torch.autograd.grad(y, x, grad_outputs=[None]),
}


@pytest.mark.parametrize("entry", list(_IMPLICIT_ENTRY_POINTS), ids=list(_IMPLICIT_ENTRY_POINTS))
def test_implicit_grad_for_non_scalar_output_raises(torch, entry):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match=exact(NOT_SCALAR)):
        _IMPLICIT_ENTRY_POINTS[entry](torch, y, x)
    assert x.grad is None


def test_implicit_grad_for_complex_scalar_output_raises(torch):
    if torch.__name__ == "flowgrad.torch":
        pytest.skip("flowgrad has no complex dtypes yet (float, int and bool only)")
    z = torch.tensor([1. + 2.j], requires_grad=True)
    s = (z * 2).sum()
    with pytest.raises(RuntimeError, match=exact(
            "grad can be implicitly created only for real scalar outputs but got torch.complex64")):
        s.backward()
    assert z.grad is None


def test_grad_shape_mismatch_raises(torch):
    x = torch.ones(2, 2, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match=exact(
            "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] "
            "has a shape of torch.Size([2, 2]).")):
        y.backward(torch.ones(2))
    assert x.grad is None


def test_grad_shape_is_not_broadcast(torch):
    x = torch.ones(2, 2, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match=exact(
            "Mismatch in shape: grad_output[0] has a shape of torch.Size([2, 1]) and output[0] "
            "has a shape of torch.Size([2, 2]).")):
        y.backward(torch.ones(2, 1))
    assert x.grad is None


def test_grad_of_shape_1_for_0dim_output_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    s = (x * 2).sum()
    with pytest.raises(RuntimeError, match=exact(
            "Mismatch in shape: grad_output[0] has a shape of torch.Size([1]) and output[0] "
            "has a shape of torch.Size([]).")):
        s.backward(torch.ones(1))
    assert x.grad is None


@pytest.mark.parametrize("dtype_name", ["float64", "int64", "bool", "float16"])
def test_grad_of_other_noncomplex_dtype_is_accepted_and_cast_to_leaf_dtype(torch, dtype_name):
    dtype = getattr(torch, dtype_name)
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.backward(torch.ones(2, dtype=dtype))
    assert x.grad.dtype == torch.float32
    assert x.grad.tolist() == [2., 2.]


def test_noncomplex_grad_for_complex_output_raises_dtype_mismatch(torch):
    if torch.__name__ == "flowgrad.torch":
        pytest.skip("flowgrad has no complex dtypes yet (float, int and bool only)")
    z = torch.tensor([1. + 2.j], requires_grad=True)
    y = z * 2
    with pytest.raises(RuntimeError, match=exact(
            "For complex Tensors, both grad_output and output are required to have the same dtype. "
            "Mismatch in dtype: grad_output[0] has a dtype of torch.float32 and output[0] has a dtype "
            "of torch.complex64.")):
        y.backward(torch.ones(1))
    assert z.grad is None


def test_grad_tensor_that_is_not_a_tensor_raises_type_error(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    with pytest.raises(TypeError, match=exact("gradients can be either Tensors or None, but got list")):
        torch.autograd.backward([y], [[1., 1.]])
    assert x.grad is None


def test_mixed_none_and_tensor_grad_tensors(torch):
    a = torch.tensor(1., requires_grad=True)
    torch.autograd.backward([a * 3, a * torch.ones(2)], [None, torch.tensor([1., 10.])])
    assert a.grad.tolist() == 14.


def test_grad_tensor_requiring_grad_not_differentiated_without_create_graph(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    v = torch.tensor([3., 4.], requires_grad=True)
    y = x * 2
    y.backward(v)
    assert x.grad.tolist() == [6., 8.]
    assert x.grad.requires_grad is False
    assert x.grad.grad_fn is None


def test_grad_output_requiring_grad_is_differentiated_with_create_graph(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    v = torch.tensor([3., 4.], requires_grad=True)
    y = x * 2
    (g,) = torch.autograd.grad(y, x, grad_outputs=v, create_graph=True)
    assert g.tolist() == [6., 8.]
    assert g.requires_grad is True
    assert g.grad_fn is not None
    (gv,) = torch.autograd.grad(g.sum(), v)
    assert gv.tolist() == [2., 2.]


# --------------------------------------------------------------------------------------------
# §1.7 duplicate tensors in the `tensors` list
# --------------------------------------------------------------------------------------------

def test_duplicate_roots_with_grads_sum(torch):
    a = torch.tensor([1., 2.], requires_grad=True)
    b = torch.tensor([3., 5.])
    x = a * b
    g = torch.tensor([1., 10.])
    torch.autograd.backward([x, x], [g, g])
    assert a.grad.tolist() == [6., 100.]


def test_duplicate_scalar_roots_with_implicit_grads_sum(torch):
    a = torch.tensor([1., 2.], requires_grad=True)
    s = a.sum()
    torch.autograd.backward([s, s, s])
    assert a.grad.tolist() == [3., 3.]


def test_grad_duplicate_outputs_sum(torch):
    a = torch.tensor([1., 2.], requires_grad=True)
    y = 2 * a
    res = torch.autograd.grad([y, y], a, [torch.ones(2), torch.ones(2)])
    assert len(res) == 1
    assert res[0].tolist() == [4., 4.]


def test_leaf_as_root_receives_gradient(torch):
    a = torch.tensor([1., 2.], requires_grad=True)
    g = torch.tensor([3., 4.])
    a.backward(g)
    assert a.grad.tolist() == [3., 4.]


def test_leaf_duplicated_as_root_sums(torch):
    a = torch.tensor([1., 2.], requires_grad=True)
    torch.autograd.backward([a, a], [torch.ones(2), torch.ones(2)])
    assert a.grad.tolist() == [2., 2.]


# --------------------------------------------------------------------------------------------
# §1.8 tensors that do not require grad
# --------------------------------------------------------------------------------------------

def _plain(torch):
    return torch.ones(2).sum()


def _under_no_grad(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.no_grad():
        return (x * 2).sum()


def _detached(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    return (x * 2).sum().detach()


def _integer(torch):
    return torch.tensor([1, 2]).sum()


def _argmax(torch):
    x = torch.tensor([1., 3., 2.], requires_grad=True)
    return x.argmax()


_NO_GRAD_ROOTS = {"plain": _plain, "no_grad": _under_no_grad, "detach": _detached,
                  "integer": _integer, "argmax": _argmax}


@pytest.mark.parametrize("kind", list(_NO_GRAD_ROOTS), ids=list(_NO_GRAD_ROOTS))
def test_backward_on_root_without_grad_raises(torch, kind):
    root = _NO_GRAD_ROOTS[kind](torch)
    assert root.requires_grad is False
    assert root.grad_fn is None
    with pytest.raises(RuntimeError, match=exact(ELEMENT0)):
        root.backward()


def test_backward_error_reports_index_of_root_without_grad(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * 2).sum()
    t = torch.ones(2)
    with pytest.raises(RuntimeError, match=exact(
            "element 1 of tensors does not require grad and does not have a grad_fn")):
        torch.autograd.backward([y, t.sum()])
    assert x.grad is None


def test_grad_on_output_without_grad_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    t = torch.ones(2)
    with pytest.raises(RuntimeError, match=exact(ELEMENT0)):
        torch.autograd.grad(t.sum(), x)


def test_grad_wrt_input_not_requiring_grad_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    c = torch.tensor([3., 4.])
    out = (x * c).sum()
    with pytest.raises(RuntimeError, match=exact("One of the differentiated Tensors does not require grad")):
        torch.autograd.grad(out, [x, c])
    assert x.grad is None


def test_non_differentiable_op_gives_zero_grad(torch):
    x = torch.tensor([1.4, 2.6], requires_grad=True)
    x.round().sum().backward()
    assert x.grad.tolist() == [0., 0.]
