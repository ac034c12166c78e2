"""paddle's gcd / lcm, rot90, tensor_split, block_diag, cartesian_prod, combinations, take, isin,
quantile / nanquantile, trapezoid / cumulative_trapezoid, vander and addmm / baddbmm against real
paddle 3.3.1 with paddle's argument names: values, dtypes and gradients."""
from __future__ import annotations

import pytest

from tests.paddle_facade.test_paddle_tensor_ops import X, assert_matches_real_paddle


CASES = {
    "gcd_lcm": lambda p, x, s: (p.gcd(p.to_tensor([12, -18, 0]), p.to_tensor([8, 6, 5])),
                                p.to_tensor([4, 6]).lcm(p.to_tensor([6, 9]))),
    "rot90": lambda p, x, s: p.rot90(x, k=3, axes=[1, 0]),
    "rot90_method": lambda p, x, s: x.rot90(),
    "tensor_split": lambda p, x, s: p.tensor_split(x, 3, axis=1),
    "tensor_split_indices": lambda p, x, s: x.tensor_split([1, 2]),
    "block_diag": lambda p, x, s: p.block_diag([x, s[0]]),
    "cartesian_prod": lambda p, x, s: p.cartesian_prod([x[0], s[1, :2]]),
    "combinations": lambda p, x, s: p.combinations(x[1], r=3),
    "combinations_method": lambda p, x, s: s[0].combinations(with_replacement=True),
    "take": lambda p, x, s: p.take(x, p.to_tensor([[0, 11], [-1, 3]])),
    "take_wrap_clip": lambda p, x, s: (p.take(x, p.to_tensor([13, -14]), mode="wrap"),
                                       x.take(p.to_tensor([13, -14]), mode="clip")),
    "isin": lambda p, x, s: (p.isin(x, x[0]), x.isin(s, invert=True), p.isin(x[0], s.t())),
    "quantile": lambda p, x, s: p.quantile(x, 0.3),
    "quantile_list_axis": lambda p, x, s: p.quantile(x, [0.25, 0.5], axis=1),
    "nanquantile": lambda p, x, s: x.nanquantile(0.6, axis=0, interpolation="higher"),
    "trapezoid": lambda p, x, s: (p.trapezoid(x), p.trapezoid(x, dx=0.5, axis=0), x.trapezoid(x=s[0])),
    "cumulative_trapezoid": lambda p, x, s: (p.cumulative_trapezoid(x, x=s[1]), x.cumulative_trapezoid(dx=2.0)),
    "vander": lambda p, x, s: (p.vander(x[0].detach(), n=3), p.vander(p.to_tensor([1, 2, 3]), increasing=True)),
    "addmm": lambda p, x, s: p.addmm(s[:, :3], s, x.t(), beta=0.5, alpha=2.0),
    "baddbmm": lambda p, x, s: x[None].baddbmm(x[None, :, :2], s[None, :, :], alpha=3.0),
}


@pytest.mark.parametrize("case", list(CASES))
def test_ops_match_real_paddle(case, fpaddle, real_paddle):
    assert_matches_real_paddle(CASES[case], fpaddle, real_paddle)


@pytest.mark.parametrize("fn", [
    lambda p, x: p.rot90(x, axes=[0, 1, 2]),
    lambda p, x: p.rot90(x, axes=[0, -2]),
    lambda p, x: p.rot90(x, axes=[0, 2]),
    lambda p, x: p.rot90(x[0]),
    lambda p, x: p.take(x, p.to_tensor([0]), mode="foo"),
], ids=lambda f: "")
def test_errors_match_real_paddle(fn, fpaddle, real_paddle):
    caught = []
    for p in (fpaddle, real_paddle):
        with pytest.raises(Exception) as info:
            fn(p, p.to_tensor(X))
        caught.append(info.value)
    assert type(caught[0]) is type(caught[1]) and str(caught[0]) == str(caught[1])
