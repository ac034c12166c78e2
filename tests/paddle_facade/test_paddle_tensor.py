"""paddle.Tensor: stop_gradient, .grad and its clearing, print format, in-place versions
(reference §1.6, §3.1, §3.7–§3.9)."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


# ----------------------------------------------------------------------- stop_gradient

@pytest.mark.parametrize("make", [
    lambda p: p.to_tensor([1., 2.]), lambda p: p.ones([2]), lambda p: p.zeros([2]), lambda p: p.randn([2]),
    lambda p: p.arange(3), lambda p: p.zeros_like(p.ones([2])), lambda p: p.full([2], 3.),
    lambda p: p.to_tensor(p.to_tensor([1.], stop_gradient=False)),
], ids=["to_tensor", "ones", "zeros", "randn", "arange", "zeros_like", "full", "to_tensor_of_tensor"])
def test_created_tensors_stop_gradient(paddle, make):
    t = make(paddle)
    assert t.stop_gradient is True and t.is_leaf is True


def test_to_tensor_stop_gradient_false_also_under_no_grad(paddle):
    with paddle.no_grad():
        t = paddle.to_tensor([1.], stop_gradient=False)
    assert t.stop_gradient is False


def test_op_output_follows_inputs_and_grad_mode(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    c = paddle.to_tensor([1., 2.])
    assert (x * c).stop_gradient is False
    assert (c * c).stop_gradient is True
    with paddle.no_grad():
        assert (x * c).stop_gradient is True


def test_non_differentiable_ops_stop_gradient(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    assert paddle.argmax(x).stop_gradient is True
    assert (x > 1).stop_gradient is True


def test_clone_and_casts_stay_differentiable(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    assert x.clone().stop_gradient is False
    assert x.astype("float64").stop_gradient is False
    assert x.astype("int64").stop_gradient is False


def test_detach_stops_gradient_and_shares_version(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    d = x.detach()
    assert d.stop_gradient is True
    with paddle.no_grad():
        x.add_(paddle.ones([2]))
    assert d.inplace_version == x.inplace_version == 1


def test_requires_grad_is_the_inverse(paddle):
    t = paddle.to_tensor([1.])
    assert t.requires_grad is False
    t.requires_grad = True
    assert t.stop_gradient is False


def test_stop_gradient_on_non_leaf_cuts_later_uses(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = x * 2
    y.stop_gradient = True
    assert y.is_leaf is False
    (x * y).sum().backward()
    assert x.grad.tolist() == [2., 4.]


def test_stop_gradient_on_non_leaf_after_use_changes_nothing(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = x * 3
    z = (y * 2).sum()
    y.stop_gradient = True
    z.backward()
    assert x.grad.tolist() == [6., 6.]


def test_leaf_flipped_after_forward(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    z = (x * 2).sum()
    x.stop_gradient = True
    z.backward()
    assert x.grad.tolist() == [2., 2.]
    w = paddle.to_tensor([1., 2.])
    z = (w * 2).sum()
    w.stop_gradient = False
    z.backward()
    assert w.grad is None


def test_no_grad_result_made_trainable_is_a_new_leaf(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    with paddle.no_grad():
        y = x * 2
    y.stop_gradient = False
    assert y.is_leaf is True
    (y * 3).sum().backward()
    assert y.grad.tolist() == [3., 3.]


def test_integer_tensors_carry_integer_grads(paddle):
    i = paddle.to_tensor([1, 2], stop_gradient=False)
    (i * 2).sum().backward()
    assert i.grad.dtype == paddle.int64 and i.grad.tolist() == [2, 2]
    j = paddle.to_tensor([1, 2], stop_gradient=False)
    (j.astype("float32") * 3).sum().backward()
    assert j.grad.dtype == paddle.int64 and j.grad.tolist() == [3, 3]


# ----------------------------------------------------------------------- grad

def test_grad_is_none_until_first_backward(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    assert x.grad is None
    x.clear_grad()
    assert x.grad is None


def test_grad_flags(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False, dtype="float64")
    (x * 2).sum().backward()
    g = x.grad
    assert isinstance(g, paddle.Tensor)
    assert g.stop_gradient is False and g.is_leaf is True and g.grad_fn is None
    assert g.dtype == paddle.float64


def test_grad_accumulates_in_place(paddle):
    x = paddle.to_tensor(5., stop_gradient=False)
    handle = None
    seen = []
    for _ in range(3):
        y = paddle.pow(x, 4.0)
        y.backward()
        handle = handle if handle is not None else x.grad
        seen.append("{}".format(x.grad))
    assert seen == ["500.0", "1000.0", "1500.0"]
    assert handle.item() == 1500.
    x.clear_grad()
    assert handle.item() == 0.


def test_non_leaf_grad_is_none_without_warning(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    y = x * 2
    (y * y).sum().backward()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert y.grad is None


def test_clear_grad_zero_fills(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    (x * 2).sum().backward()
    x.clear_grad()
    assert x.grad.tolist() == [0., 0.]


def test_clear_grad_takes_no_arguments(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    with pytest.raises(TypeError, match="unexpected keyword argument 'set_to_zero'"):
        x.clear_grad(set_to_zero=False)


@pytest.mark.parametrize("call, expected", [
    (lambda x: x.clear_gradient(), [0., 0.]),
    (lambda x: x.clear_gradient(True), [0., 0.]),
    (lambda x: x.clear_gradient(False), None),
    (lambda x: x.clear_gradient(set_to_zero=False), [0., 0.]),  # 3.3.1 ignores the keyword
], ids=["default", "true", "false_positional", "false_keyword"])
def test_clear_gradient_variants(paddle, call, expected):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    (x * 2).sum().backward()
    call(x)
    assert (x.grad.tolist() if x.grad is not None else None) == expected


def test_assigned_grad_keeps_its_flag_and_accumulates(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    x.grad = paddle.to_tensor([5., 5.])
    (x * 3).sum().backward()
    assert x.grad.tolist() == [8., 8.] and x.grad.stop_gradient is True
    x.grad = None
    assert x.grad is None


def test_assigning_a_list_as_grad_raises(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    with pytest.raises(ValueError, match=re.escape("(InvalidArgument) argument (position 1) must be Tensor, but got "
                                                   "list")):
        x.grad = [1., 2.]


def test_gradient_returns_numpy_or_none(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    assert x.gradient() is None
    (x * 2).sum().backward()
    assert isinstance(x.gradient(), np.ndarray) and x.gradient().tolist() == [2., 2.]


def test_in_place_on_grad_refused_outside_no_grad(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    (x * 2).sum().backward()
    with pytest.raises(ValueError, match=re.escape("(InvalidArgument) Leaf Var () that doesn't stop gradient can't "
                                                   "use inplace strategy.")):
        x.grad.add_(paddle.ones([2]))
    with paddle.no_grad():
        x.grad.zero_()
    assert x.grad.tolist() == [0., 0.]


# ----------------------------------------------------------------------- in place and versions

def test_in_place_on_trainable_leaf_raises(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    msg = (f"(InvalidArgument) Leaf Var ({x.name}) that doesn't stop gradient can't use inplace strategy.\n  [Hint: "
           "Expected !autograd_meta->StopGradient() && IsLeafTensor(target) == false, but received "
           "!autograd_meta->StopGradient() && IsLeafTensor(target):1 != false:0.] (at "
           "/paddle/paddle/fluid/eager/utils.cc:277)\n")
    with pytest.raises(ValueError, match=exact(msg)):
        x.add_(paddle.ones([2]))


def test_setitem_on_trainable_leaf_raises(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    with pytest.raises(ValueError, match=re.escape(f"(InvalidArgument) Leaf Tensor ({x.name}) that doesn't stop "
                                                   "gradient can't use inplace strategy.")):
        x[0] = 3.


def test_in_place_on_trainable_leaf_allowed_under_no_grad(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    with paddle.no_grad():
        x.add_(paddle.ones([2]))
    assert x.tolist() == [2., 3.] and x.inplace_version == 1 and x._inplace_version() == 1


def test_modified_saved_tensor_raises_at_backward(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    v = x * 1.0
    w = v * v
    v.add_(paddle.ones([2]))
    msg = ("(PermissionDenied) Tensor '' used in gradient computation has been modified by an inplace operation. Its "
           "version is 1 but the expected version is 0. Please fix your code to void calling an inplace operator after "
           "using the Tensor which will used in gradient computation.")
    with pytest.raises(RuntimeError, match="^" + re.escape(msg)) as info:
        w.sum().backward()
    assert "received tensor_version:1 != wrapper_version_snapshot:0" in str(info.value)


def test_in_place_on_input_not_needed_by_backward_is_fine(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    v = x * 1.0
    w = v + paddle.ones([2])
    v.add_(paddle.ones([2]))
    w.sum().backward()
    assert x.grad.tolist() == [1., 1.]


def test_set_value_does_not_bump_version(paddle):
    x = paddle.to_tensor([1., 2.])
    x.set_value(np.array([3., 4.], dtype=np.float32))
    assert x.tolist() == [3., 4.] and x.inplace_version == 0


# ----------------------------------------------------------------------- metadata and print format

def test_shape_is_a_paddle_size_list(paddle):
    t = paddle.ones([2, 3])
    assert t.shape == [2, 3] and isinstance(t.shape, list)
    assert repr(t.shape) == "paddle.Size([2, 3])"
    assert t.size == 6 and t.ndim == 2


def test_dtype_and_place_text(paddle):
    t = paddle.ones([2])
    assert str(t.dtype) == "paddle.float32" and repr(t.dtype) == "<DataType.FLOAT32: 10>"
    assert t.dtype == paddle.float32 and t.dtype != paddle.float64
    assert str(t.place) == "Place(cpu)"


def test_default_dtypes(paddle):
    assert paddle.to_tensor(1).dtype == paddle.int64
    assert paddle.to_tensor(1.).dtype == paddle.float32
    assert paddle.to_tensor(True).dtype == paddle.bool
    assert paddle.to_tensor(np.array([1., 2.])).dtype == paddle.float64
    assert paddle.full([2], 1).dtype == paddle.float32
    assert paddle.arange(3).dtype == paddle.int64 and paddle.arange(3.).dtype == paddle.float32


@pytest.mark.parametrize("make, text", [
    (lambda p: p.to_tensor([[12., 18.], [17., 25.]], stop_gradient=False),
     "Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=False,\n       [[12., 18.],\n"
     "        [17., 25.]])"),
    (lambda p: p.to_tensor(500.),
     "Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,\n       500.)"),
    (lambda p: p.to_tensor([1., 2.5, -3.]),
     "Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=True,\n       [ 1.       , 2.50000000, "
     "-3.       ])"),
    (lambda p: p.to_tensor([1, 2, 3]),
     "Tensor(shape=[3], dtype=int64, place=Place(cpu), stop_gradient=True,\n       [1, 2, 3])"),
    (lambda p: p.to_tensor([True, False]),
     "Tensor(shape=[2], dtype=bool, place=Place(cpu), stop_gradient=True,\n       [True , False])"),
    (lambda p: p.to_tensor([float("nan"), float("inf"), -float("inf"), 1.]),
     "Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,\n       [ nan ,  inf., -inf.,  1.  ])"),
    (lambda p: p.arange(12, dtype="float32").reshape([2, 2, 3]),
     "Tensor(shape=[2, 2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,\n       [[[0. , 1. , 2. ],\n"
     "         [3. , 4. , 5. ]],\n\n        [[6. , 7. , 8. ],\n         [9. , 10., 11.]]])"),
    (lambda p: p.zeros([0, 3]),
     "Tensor(shape=[0, 3], dtype=float32, place=Place(cpu), stop_gradient=True,\n       [])"),
    (lambda p: p.arange(2000, dtype="float32"),
     "Tensor(shape=[2000], dtype=float32, place=Place(cpu), stop_gradient=True,\n       [0.   , 1.   , 2.   , ..., "
     "1997., 1998., 1999.])"),
], ids=["2x2", "0d", "signed", "int", "bool", "nonfinite", "3d", "empty", "summarised"])
def test_print_format(paddle, make, text):
    t = make(paddle)
    assert str(t) == text and repr(t) == text


def test_print_wraps_long_rows(paddle):
    t = paddle.arange(30, dtype="float64") / 7
    assert str(t) == str(t)  # deterministic
    lines = str(t).splitlines()
    assert len(lines) > 2 and all(len(line) <= 80 for line in lines[1:])


def test_print_respects_printoptions(paddle):
    paddle.set_printoptions(precision=3)
    assert str(paddle.to_tensor([1.23456])).endswith("[1.235])")


def test_format_of_0d_tensor_formats_the_item(paddle):
    assert "{:.3f}".format(paddle.to_tensor(2.)) == "2.000"
    assert f"{paddle.to_tensor(3.5)}" == "3.5"
    with pytest.raises(TypeError, match="unsupported format string passed to Tensor.__format__"):
        "{:.3f}".format(paddle.to_tensor([2.]))


def test_item_of_many_elements_raises(paddle):
    with pytest.raises(ValueError, match=re.escape("(InvalidArgument) only one element tensors can be converted to "
                                                   "Python scalars when no input coordinates")):
        paddle.to_tensor([1., 2.]).item()
    assert paddle.to_tensor([[2.]]).item() == 2.0


def test_numpy_works_on_tensors_that_need_grad(paddle):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    assert x.numpy().tolist() == [1., 2.]


def test_names(paddle):
    assert re.fullmatch(r"generated_tensor_\d+", paddle.to_tensor([1.]).name)
    x = paddle.to_tensor([1.], stop_gradient=False)
    assert re.fullmatch(r"eager_tmp_\d+", (x * 2).name)
