"""Reference §1.6 (accumulation into .grad, .grad assignment, non-leaf .grad warning) and
§1.10 (retain_grad / retains_grad)."""
from __future__ import annotations

import re
import warnings

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


NONLEAF_GRAD_WARNING_PREFIX = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
    "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)
NO_RETAIN = "can't retain_grad on Tensor that has requires_grad=False"


def _grad_warnings(rec):
    return [w for w in rec if str(w.message).startswith(NONLEAF_GRAD_WARNING_PREFIX)]


def _dtype_msg(name: str) -> str:
    return (f"attempting to assign a gradient with dtype '{name}' to a tensor with grad_dtype 'Float'. "
            "The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the "
            "tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with "
            "caution. Diverging the dtypes of a tensor and its gradient may break downstream systems that assume "
            "they match.")


# --------------------------------------------------------------------------------------------
# §1.6 accumulation into .grad
# --------------------------------------------------------------------------------------------

def test_successive_backwards_sum_into_grad(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    seen = []
    for _ in range(3):
        (x * x).sum().backward()
        seen.append(x.grad.tolist())
    assert seen == [[2., 4.], [4., 8.], [6., 12.]]


def test_first_accumulation_stores_new_tensor(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    g = torch.tensor([3., 4.])
    x.backward(g)
    assert x.grad is not g
    g.mul_(100)
    assert x.grad.tolist() == [3., 4.]


def test_later_accumulations_are_in_place(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (x * 3).sum().backward()
    first = x.grad
    (x * 3).sum().backward()
    assert x.grad is first
    assert first.tolist() == [6., 6.]


def test_user_assigned_grad_is_accumulated_in_place(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    mine = torch.full((2,), 10.)
    x.grad = mine
    x.sum().backward()
    assert x.grad is mine
    assert mine.tolist() == [11., 11.]


def test_broadcast_gradient_is_summed_to_leaf_shape(torch):
    a = torch.ones(3, 1, requires_grad=True)
    b = torch.ones(1, 4, requires_grad=True)
    (a + b).sum().backward()
    assert a.grad.tolist() == [[4.], [4.], [4.]]
    assert b.grad.tolist() == [[3., 3., 3., 3.]]


def test_0dim_leaf_broadcast_gradient_is_summed_to_0dim(torch):
    s = torch.tensor(2., requires_grad=True)
    (s * torch.ones(5)).sum().backward()
    assert s.grad.dim() == 0
    assert s.grad.tolist() == 5.


def test_grad_dtype_matches_leaf_dtype(torch):
    x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
    (x.float() * 2).sum().backward()
    assert x.grad.dtype == torch.float64
    assert x.grad.tolist() == [2., 2.]


def test_leaf_used_twice_gets_summed_gradient(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (x * x + x).sum().backward()
    assert x.grad.tolist() == [3., 5.]


def test_non_leaf_grad_is_none_and_warns(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    h.sum().backward()
    with pytest.warns(UserWarning, match=re.escape(NONLEAF_GRAD_WARNING_PREFIX)):
        g = h.grad
    assert g is None


def test_non_leaf_grad_warns_on_every_access(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        h.grad
        h.grad
    assert len(_grad_warnings(rec)) == 2
    assert all(w.category is UserWarning for w in _grad_warnings(rec))


def test_leaf_grad_access_does_not_warn(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        assert x.grad is None
    assert _grad_warnings(rec) == []


def test_grad_access_on_tensor_not_requiring_grad_does_not_warn(torch):
    t = torch.ones(2)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        assert t.grad is None
    assert _grad_warnings(rec) == []


def test_grad_access_after_retain_grad_does_not_warn(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    h.retain_grad()
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        assert h.grad is None
    assert _grad_warnings(rec) == []


@pytest.mark.parametrize("value,type_name", [(0, "int"), (0., "float")], ids=["int", "float"])
def test_assigning_python_number_to_grad_raises(torch, value, type_name):
    x = torch.ones(2, 2, requires_grad=True)
    before = torch.full((2, 2), 5.)
    x.grad = before
    with pytest.raises(TypeError, match=exact(
            f"assigned grad expected to be a Tensor or None but got grad of type {type_name}")):
        x.grad = value
    assert x.grad is before


def test_assigning_grad_of_wrong_size_raises(torch):
    x = torch.ones(2, 2, requires_grad=True)
    with pytest.raises(RuntimeError, match=exact(
            "attempting to assign a gradient of size '[3]' to a tensor of size '[2, 2]'. "
            "Please ensure that the gradient and the tensor are the same size")):
        x.grad = torch.ones(3)
    assert x.grad is None


@pytest.mark.parametrize("dtype_name,cpp_name", [("long", "long int"), ("float64", "double")],
                         ids=["long", "double"])
def test_assigning_grad_of_wrong_dtype_raises(torch, dtype_name, cpp_name):
    x = torch.ones(2, 2, requires_grad=True)
    with pytest.raises(RuntimeError, match=exact(_dtype_msg(cpp_name))):
        x.grad = torch.ones(2, 2, dtype=getattr(torch, dtype_name))
    assert x.grad is None


def test_assigning_tensor_as_its_own_grad_raises(torch):
    x = torch.ones(2, 2, requires_grad=True)
    with pytest.raises(RuntimeError, match=exact("can't assign Variable as its own grad")):
        x.grad = x
    assert x.grad is None


def test_assigning_none_clears_grad(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (x * x).sum().backward()
    x.grad = None
    assert x.grad is None
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3., 3.]


def test_deleting_grad_clears_it(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (x * x).sum().backward()
    del x.grad
    assert x.grad is None


def test_assigning_grad_that_requires_grad_is_allowed(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    g = torch.tensor([3., 4.], requires_grad=True)
    x.grad = g
    assert x.grad is g
    assert x.grad.requires_grad is True


def test_assigning_grad_on_tensor_not_requiring_grad_is_allowed(torch):
    t = torch.ones(2)
    g = torch.tensor([3., 4.])
    t.grad = g
    assert t.grad is g


def test_assigning_grad_on_non_leaf_is_allowed(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    g = torch.tensor([3., 4.])
    h.grad = g
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert h.grad is g


def test_grad_zero_in_place_then_backward(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (x * x).sum().backward()
    g = x.grad
    x.grad.zero_()
    (x * 3).sum().backward()
    assert x.grad is g
    assert x.grad.tolist() == [3., 3.]


def test_grad_data_zero_in_place_then_backward(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (x * x).sum().backward()
    x.grad.data.zero_()
    assert x.grad.tolist() == [0., 0.]
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3., 3.]


# --------------------------------------------------------------------------------------------
# §1.10 retain_grad / retains_grad
# --------------------------------------------------------------------------------------------

def test_retain_grad_populates_non_leaf_grad(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    h.retain_grad()
    (h * h).sum().backward()
    assert h.grad.tolist() == [4., 8.]


def test_retained_grad_accumulates_across_backwards(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    h.retain_grad()
    out = (h * h).sum()
    out.backward(retain_graph=True)
    out.backward()
    assert h.grad.tolist() == [8., 16.]


def test_retain_grad_sets_retains_grad(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    assert h.retains_grad is False
    h.retain_grad()
    assert h.retains_grad is True


def test_retain_grad_is_idempotent(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    h.retain_grad()
    h.retain_grad()
    (h * 3).sum().backward()
    assert h.retains_grad is True
    assert h.grad.tolist() == [3., 3.]


def test_retain_grad_on_leaf_is_noop(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    x.retain_grad()
    assert x.retains_grad is False
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3., 3.]


def test_retain_grad_on_tensor_not_requiring_grad_raises(torch):
    t = torch.ones(2)
    with pytest.raises(RuntimeError, match=exact(NO_RETAIN)):
        t.retain_grad()
    assert t.retains_grad is False


def test_retain_grad_on_result_computed_under_no_grad_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.no_grad():
        h = x * 2
    with pytest.raises(RuntimeError, match=exact(NO_RETAIN)):
        h.retain_grad()
    assert h.retains_grad is False


def test_retained_grad_reflects_all_hooks_regardless_of_order(torch):
    a = torch.tensor(1., requires_grad=True)
    b = a * 1
    b.register_hook(lambda g: g * 2)
    b.retain_grad()
    b.register_hook(lambda g: g * 2)
    b.backward()
    assert b.grad.tolist() == 4.
    assert a.grad.tolist() == 4.


def test_retain_grad_on_root(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    loss = (x * x).sum()
    loss.retain_grad()
    loss.backward()
    assert loss.grad.dim() == 0
    assert loss.grad.tolist() == 1.


def test_retain_grad_follows_tensor_through_in_place_op(torch):
    a = torch.tensor([1.], requires_grad=True)
    b = a.clone()
    b.retain_grad()
    b.mul_(2)
    b.sum().backward()
    assert b.grad.tolist() == [1.]
    assert a.grad.tolist() == [2.]
