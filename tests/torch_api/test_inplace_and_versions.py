"""Version counters and in-place modification of saved tensors (reference §1.18), and the
leaf / view in-place errors plus `numpy()` on tensors requiring grad (§1.19); view ops in place
(t_, transpose_, squeeze_, unsqueeze_, ...) and writes through a 0-d element view."""
from __future__ import annotations

import re

import numpy as np
import pytest

from tensor_op_parity import same, same_error

_HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
_MODIFIED = "one of the variables needed for gradient computation has been modified by an inplace operation: "
_LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
_VIEW_OF_LEAF_INPLACE = "a view of a leaf Variable that requires grad is being used in an in-place operation."


def _multi_view_msg(n: int, fn: str) -> str:
    return (
        f"Output {n} of {fn} is a view and is being modified inplace. This view is the output of a function "
        "that returns multiple views. Such functions do not allow the output views to be modified inplace. "
        "You should replace the inplace operation by an out-of-place one."
    )


# --- §1.18 version counter --------------------------------------------------------------------


def test_version_starts_at_zero(torch):
    assert torch.ones(2)._version == 0
    assert torch.ones(2, requires_grad=True)._version == 0


def test_each_inplace_op_bumps_version_by_one(torch):
    t = torch.ones(2)
    t.add_(1)
    assert t._version == 1
    t.mul_(2).add_(1)
    assert t._version == 3
    assert t.tolist() == [5.0, 5.0]


def test_setitem_bumps_version(torch):
    t = torch.ones(2)
    t[0] = 5
    assert t._version == 1
    assert t.tolist() == [5.0, 1.0]


def test_view_shares_version_counter_with_base(torch):
    x = torch.ones(3)
    v = x[1:]
    v.zero_()
    assert x._version == 1
    assert v._version == 1
    assert x.tolist() == [1.0, 0.0, 0.0]


def test_out_of_place_result_starts_at_version_zero(torch):
    x = torch.ones(2)
    x.add_(1)
    x.add_(1)
    y = x + 1
    assert x._version == 2
    assert y._version == 0


def test_inplace_under_no_grad_still_bumps_version(torch):
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        x.add_(1)
    assert x._version == 1


def test_inplace_through_data_does_not_bump_version(torch):
    x = torch.ones(2, requires_grad=True)
    x.data.add_(1)
    assert x._version == 0
    assert x.tolist() == [2.0, 2.0]


def test_inplace_through_data_escapes_the_saved_tensor_check(torch):
    a = torch.ones(2, requires_grad=True)
    c = a * a
    a.data.add_(1)
    c.sum().backward()
    assert a.grad.tolist() == [4.0, 4.0]


def test_modifying_saved_non_leaf_raises_naming_its_current_grad_fn(torch):
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    c = b * b
    b.add_(1)
    msg = _MODIFIED + "[torch.FloatTensor [2]], which is output 0 of Add, is at version 1; expected version 0 instead. " + _HINT
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        c.sum().backward()
    assert a.grad is None
    assert b._version == 1


def test_modifying_saved_output_names_the_saving_node(torch):
    a = torch.ones(2, requires_grad=True)
    e = a.exp()
    e.mul_(2)
    msg = _MODIFIED + "[torch.FloatTensor [2]], which is output 0 of Exp, is at version 1; expected version 0 instead. " + _HINT
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        e.sum().backward()
    assert a.grad is None


def test_version_error_reports_legacy_type_name_and_shape(torch):
    a = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
    b = a * 2
    c = b * b
    b.add_(1)
    msg = _MODIFIED + "[torch.DoubleTensor [2, 3]], which is output 0 of Add, is at version 1; expected version 0 instead. " + _HINT
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        c.sum().backward()
    assert a.grad is None


def test_version_error_reports_current_version(torch):
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    c = b * b
    b.add_(1)
    b.mul_(3)
    msg = _MODIFIED + "[torch.FloatTensor [2]], which is output 0 of Mul, is at version 2; expected version 0 instead. " + _HINT
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        c.sum().backward()
    assert a.grad is None


def test_modifying_saved_leaf_under_no_grad_raises_without_output_clause(torch):
    a = torch.ones(2, requires_grad=True)
    c = a * a
    with torch.no_grad():
        a.add_(1)
    msg = _MODIFIED + "[torch.FloatTensor [2]] is at version 1; expected version 0 instead. " + _HINT
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        c.sum().backward()
    assert a.grad is None
    assert a.tolist() == [2.0, 2.0]


def test_modifying_saved_leaf_through_detach_raises(torch):
    a = torch.ones(2, requires_grad=True)
    c = a * a
    a.detach().add_(1)
    msg = _MODIFIED + "[torch.FloatTensor [2]] is at version 1; expected version 0 instead. " + _HINT
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        c.sum().backward()
    assert a.grad is None


def test_inplace_on_tensor_that_was_not_saved_is_fine(torch):
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    c = b + 3
    b.add_(1)
    c.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0]


def test_inplace_op_rebinds_grad_fn_chained_to_old_node(torch):
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    old = b.grad_fn
    b.mul_(3)
    assert b.grad_fn is not old
    assert type(b.grad_fn).__name__ == "MulBackward0"
    assert b.grad_fn.next_functions[0][0] is old
    assert b.grad_fn.next_functions[1] == (None, 0)
    b.sum().backward()
    assert a.grad.tolist() == [6.0, 6.0]


def test_inplace_with_grad_operand_makes_tensor_require_grad(torch):
    w = torch.ones(2, requires_grad=True)
    t = torch.zeros(2)
    t.add_(w)
    assert t.requires_grad is True
    assert type(t.grad_fn).__name__ == "AddBackward0"
    assert t.is_leaf is False
    t.sum().backward()
    assert w.grad.tolist() == [1.0, 1.0]


def test_setitem_with_grad_value_routes_gradient_through_copy_slices(torch):
    w = torch.ones(2, requires_grad=True)
    t = torch.zeros(2)
    t[0] = w[0] * 5
    assert t.requires_grad is True
    assert t.grad_fn.name() == "torch::autograd::CopySlices"
    t.sum().backward()
    assert w.grad.tolist() == [5.0, 0.0]


def test_inplace_on_view_of_non_leaf_propagates_to_base(torch):
    root = torch.ones(2, 2, requires_grad=True)
    x = root.clone()
    x[0].mul_(2)
    assert x.grad_fn.name() == "torch::autograd::CopySlices"
    assert x._version == 1
    x.sum().backward()
    assert root.grad.tolist() == [[2.0, 2.0], [1.0, 1.0]]


def test_detaching_saved_input_in_place_raises_at_backward(torch):
    a = torch.tensor(1.0, requires_grad=True).clone()
    b = a.sin()
    a.detach_()
    assert a.requires_grad is False
    msg = (
        "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is not "
        "supported, please use out-of-place `.detach()` instead"
    )
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        b.backward()


# --- §1.19 leaf / view in-place errors --------------------------------------------------------


@pytest.mark.parametrize(
    "op",
    [
        lambda torch, a: a.add_(1),
        lambda torch, a: a.zero_(),
        lambda torch, a: a.copy_(torch.zeros(2)),
        lambda torch, a: a.relu_(),
        lambda torch, a: a.mul_(2),
    ],
    ids=["add_", "zero_", "copy_", "relu_", "mul_"],
)
def test_inplace_on_leaf_requiring_grad_raises(torch, op):
    a = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=re.escape(_LEAF_INPLACE)):
        op(torch, a)
    assert a._version == 0
    assert a.tolist() == [1.0, 1.0]
    assert a.requires_grad is True and a.is_leaf is True and a.grad_fn is None


def test_augmented_assignment_on_leaf_requiring_grad_raises(torch):
    a = torch.ones(2, requires_grad=True)
    b = a
    with pytest.raises(RuntimeError, match=re.escape(_LEAF_INPLACE)):
        b += 1
    assert b is a
    assert a._version == 0
    assert a.tolist() == [1.0, 1.0]


@pytest.mark.parametrize(
    "op",
    [
        lambda a: a.__setitem__(0, 5.0),
        lambda a: a[:1].mul_(2),
        lambda a: a.view(2).add_(1),
    ],
    ids=["setitem", "slice_mul_", "view_add_"],
)
def test_inplace_through_view_of_leaf_requiring_grad_raises(torch, op):
    a = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=re.escape(_VIEW_OF_LEAF_INPLACE)):
        op(a)
    assert a._version == 0
    assert a.tolist() == [1.0, 1.0]
    assert a.grad_fn is None


def test_inplace_on_leaf_allowed_under_no_grad(torch):
    a = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        a.mul_(2)
        a[0] = 7.0
    assert a.tolist() == [7.0, 2.0]
    assert a.is_leaf is True
    assert a.requires_grad is True
    assert a.grad_fn is None
    assert a._version == 2


def test_inplace_on_leaf_allowed_through_data(torch):
    a = torch.ones(2, requires_grad=True)
    a.data.mul_(2)
    assert a.tolist() == [2.0, 2.0]
    assert a.is_leaf is True and a.requires_grad is True and a.grad_fn is None


def test_inplace_on_unbind_output_raises(torch):
    x = torch.ones(2, 2, requires_grad=True).clone()
    with pytest.raises(RuntimeError, match=re.escape(_multi_view_msg(0, "Unbind"))):
        x.unbind()[0].mul_(2)
    assert x.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert x._version == 0


def test_inplace_on_split_output_raises(torch):
    x = torch.ones(2, 2, requires_grad=True).clone()
    with pytest.raises(RuntimeError, match=re.escape(_multi_view_msg(0, "Split"))):
        x.split(1)[0].mul_(2)
    assert x.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert x._version == 0


def test_inplace_on_chunk_output_raises_naming_split(torch):
    x = torch.ones(2, 2, requires_grad=True).clone()
    with pytest.raises(RuntimeError, match=re.escape(_multi_view_msg(1, "Split"))):
        x.chunk(2)[1].mul_(2)
    assert x.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_detach_in_place_on_view_raises(torch):
    x = torch.ones(2, 2, requires_grad=True).clone()
    v = x[0]
    msg = (
        "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for "
        "training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence "
        "detach_() cannot be called on these gradients. To fix this error, please refer to the "
        "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
    )
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        v.detach_()
    assert v.requires_grad is True
    assert type(v.grad_fn).__name__ == "SelectBackward0"


def test_out_argument_with_input_requiring_grad_raises(torch):
    a = torch.ones(2, requires_grad=True)
    out = torch.zeros(2)
    msg = "mul(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad."
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        torch.mul(a, a, out=out)
    assert out.tolist() == [0.0, 0.0]
    assert out.requires_grad is False


def test_numpy_on_tensor_requiring_grad_raises(torch):
    a = torch.ones(2, requires_grad=True)
    msg = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        a.numpy()
    assert a.requires_grad is True


def test_tolist_item_and_detached_numpy_work_on_tensor_requiring_grad(torch):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    assert a.tolist() == [1.0, 2.0]
    assert a.sum().item() == 3.0
    assert a.detach().numpy().tolist() == [1.0, 2.0]


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_arithmetic_on_shapes_that_do_not_broadcast_raises_torchs_error(torch, op):
    a, b = torch.zeros(2, 3), torch.ones(4, 1, 2)
    with pytest.raises(RuntimeError, match=re.escape("The size of tensor a (3) must match the size of tensor b (2) "
                                                     "at non-singleton dimension 2")):
        getattr(torch, op)(a, b)


def test_inplace_arithmetic_keeps_the_tensor_when_shapes_do_not_broadcast(torch):
    x = torch.zeros(3)
    with torch.no_grad():
        with pytest.raises(RuntimeError, match=re.escape("The size of tensor a (3) must match the size of tensor b "
                                                         "(2) at non-singleton dimension 0")):
            x += torch.ones(2)
        x -= 0.5 * torch.ones(3)            # the direct path: same shape, same dtype
        x *= 2
    assert x.tolist() == [-1.0, -1.0, -1.0] and x._version == 2


def test_in_place_change_of_an_element_writes_through(torch):
    """`x[0]` of a 1-d tensor is a 0-d view: changing it in place changes x (NumPy's integer
    indexing alone would give a copy)."""
    z = torch.tensor([1.0, 2.0])
    z[0].mul_(3)
    w = torch.tensor([[1.0, 2.0]])
    w[0, 1].add_(3)
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = x.clone()
    y[1].mul_(5)
    y.sum().backward()
    assert z.tolist() == [3.0, 2.0] and w.tolist() == [[1.0, 5.0]] and w[0, 1]._base is w
    assert y.tolist() == [1.0, 10.0] and x.grad.tolist() == [1.0, 5.0]


def _in_place_view_info(r, y):
    return r is y, tuple(y.shape), type(y.grad_fn).__name__, y._version, y.is_contiguous()


@pytest.mark.parametrize("fn", [
    lambda T, x: (lambda y: _in_place_view_info(y.t_(), y))(x * 1),
    lambda T, x: (lambda y: _in_place_view_info(y.transpose_(0, 1), y))(x * 1),
    lambda T, x: (lambda y: _in_place_view_info(y.swapdims_(0, 1), y))(x * 1),
    lambda T, x: (lambda y: _in_place_view_info(y.swapaxes_(0, 1), y))(x * 1),
    lambda T, x: (lambda y: _in_place_view_info(y.squeeze_(), y))((x * 1).unsqueeze(0)),
    lambda T, x: (lambda y: _in_place_view_info(y.squeeze_(0), y))((x * 1).unsqueeze(0)),
    lambda T, x: (lambda y: _in_place_view_info(y.squeeze_((0,)), y))((x * 1).unsqueeze(0)),
    lambda T, x: (lambda y: _in_place_view_info(y.unsqueeze_(1), y))(x * 1),
    lambda T, x: (lambda y: (y.t_(), y * T.arange(2.0, dtype=y.dtype))[1])(x * 1),
    lambda T, x: (lambda y: (y.unsqueeze_(0), y.squeeze_(0), y.t_(), y.exp())[3])(x * 1),
    lambda T, x: (lambda z: (z.t_(), tuple(z.shape), z._version)[1:])(x.detach().clone()),
    lambda T, x: (lambda b: (lambda v: (v.unsqueeze_(0), v._base is b, type(v.grad_fn).__name__,
                                        type(b.grad_fn).__name__, v * 2)[1:])(b[0]))(x * 1),
    lambda T, x: T.swapdims(x, 0, 1),
    lambda T, x: x.swapdims(1, 0),
], ids=["t_", "transpose_", "swapdims_", "swapaxes_", "squeeze_", "squeeze_dim", "squeeze_dims", "unsqueeze_",
        "gradient", "chain", "no_grad", "view_of_a_base", "swapdims", "swapdims_method"])
def test_view_ops_in_place(fn):
    same(fn, np.arange(6.0).reshape(2, 3) / 5)


@pytest.mark.parametrize("fn", [
    lambda T, x: x.requires_grad_().t_(),
    lambda T, x: x.unsqueeze(0).t_(),
    lambda T, x: x.transpose_(0, 2),
    lambda T, x: x.unsqueeze_(3),
], ids=["leaf", "t_3d", "transpose_range", "unsqueeze_range"])
def test_view_ops_in_place_errors(fn):
    same_error(fn, np.arange(6.0).reshape(2, 3) / 5)
