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
