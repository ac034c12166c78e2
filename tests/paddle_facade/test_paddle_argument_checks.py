"""Where paddle 3.3.1 checks arguments or computes edge cases differently from PyTorch: the paddle
facade keeps paddle's behaviour (real paddle is the oracle)."""
from __future__ import annotations

import warnings

import pytest


@pytest.mark.parametrize("op", ["floordiv", "mod", "floor_divide", "remainder"])
def test_integer_division_by_zero(paddle, op):
    a, z = paddle.to_tensor([5, -5]), paddle.to_tensor([1, 0])
    call = {"floordiv": lambda: a // z, "mod": lambda: a % z, "floor_divide": lambda: paddle.floor_divide(a, z),
            "remainder": lambda: paddle.remainder(a, z)}[op]
    with pytest.raises(Exception) as info:   # paddle.EnforceNotMet, which paddle does not export
        call()
    assert type(info.value).__name__ == "EnforceNotMet"
    assert str(info.value).startswith("() InvalidArgumentError: Integer division by zero encountered in (floor/trunc) "
                                      "divide. Please check the input value. (at ")


def test_no_floating_point_warnings(paddle):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert paddle.log(paddle.to_tensor([0.])).tolist() == [float("-inf")]
        assert paddle.divide(paddle.to_tensor([0.]), paddle.to_tensor([0.])).isnan().tolist() == [True]


def test_negative_indices_count_from_the_end(paddle):
    x = paddle.arange(5)
    idx = paddle.to_tensor([-1, 0])
    assert paddle.index_select(x, idx).tolist() == [4, 0]
    assert paddle.gather(x, idx).tolist() == [4, 0]
    assert paddle.take_along_axis(x, idx, 0).tolist() == [4, 0]


def test_tensors_inside_a_list_stack(paddle):
    t = paddle.to_tensor([paddle.to_tensor([1., 2.]), paddle.to_tensor([3., 4.])])
    assert t.shape == [2, 2] and t.tolist() == [[1., 2.], [3., 4.]]
    assert paddle.to_tensor([paddle.to_tensor([1.]), paddle.to_tensor([2.])]).shape == [2, 1]


def test_python_ints_that_do_not_fit(paddle):
    assert paddle.to_tensor(300, dtype="uint8").item() == 44
    with pytest.raises(ValueError, match=r"^\(InvalidArgument\) Input object type error or incompatible array data "
                                         r"type\. tensor\.set\(\) supports array with bool"):
        paddle.to_tensor(2 ** 63)


def test_sign_of_nan_is_nan(paddle):
    out = paddle.sign(paddle.to_tensor([float("nan"), -2., 0.])).tolist()
    assert out[0] != out[0] and out[1:] == [-1., 0.]


def test_arange_with_a_step_away_from_the_end_is_empty(paddle):
    assert paddle.arange(0, 5, -1).tolist() == []


def test_view_as_another_dtype_reinterprets_bits(paddle):
    assert paddle.to_tensor([1., 2.]).view("int32").tolist() == [1065353216, 1073741824]


def test_writing_ints_that_do_not_fit_wraps(paddle):
    x = paddle.zeros([2], dtype="int8")
    x[0] = 300
    assert x.tolist() == [44, 0]
    assert paddle.zeros([1], dtype="uint8").fill_(-1).tolist() == [255]
