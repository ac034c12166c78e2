"""Argument variants where flowgrad once differed from real torch 2.13 (found by calling each public
function on both with wrong dtypes, 0-d and empty tensors, negative dims, non-contiguous inputs, Python
numbers and mismatched operands): each case runs on flowgrad.torch and on real torch and compares
values, dtypes, shapes, gradients and node names, or the exception type and message."""
from __future__ import annotations

import math

import pytest

import flowgrad.torch as ft

real = pytest.importorskip("torch")

NAN, INF = math.nan, math.inf


def _run(T, code: str, **names):
    env = {"torch": T, "F": T.nn.functional, "nan": NAN, "inf": INF}
    env.update({k: v(T) for k, v in names.items()})
    try:
        return "value", eval(code, env)
    except Exception as exc:  # noqa: BLE001 - the outcome compared
        return "raise", exc


def _plain(v):
    if isinstance(v, (ft.Tensor, real.Tensor)):
        return ("Tensor", str(v.dtype).rpartition(".")[2], tuple(v.shape), _plain(v.detach().tolist()))
    if isinstance(v, (tuple, list)):
        return [_plain(e) for e in v]
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    return v


def _same(code: str, **names) -> None:
    theirs, mine = _run(real, code, **names), _run(ft, code, **names)
    if theirs[0] == "raise":
        assert mine[0] == "raise", f"{code}: flowgrad returned {mine[1]!r}, torch raised {theirs[1]!r}"
        assert type(mine[1]).__name__ == type(theirs[1]).__name__ and str(mine[1]) == str(theirs[1]), (mine, theirs)
        return
    assert mine[0] == "value", f"{code}: flowgrad raised {mine[1]!r}"
    assert _close(_plain(mine[1]), _plain(theirs[1])), (code, _plain(mine[1]), _plain(theirs[1]))


def _close(a, b) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_close(p, q) for p, q in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return a == pytest.approx(b, rel=1e-6, abs=1e-12) or (math.isinf(a) and a == b)
    return a == b and type(a) is type(b)


def _grads(code: str, dtype: str):
    """(result, input gradients, node name) of `code` over leaves a, b with NaN, inf and zeros."""
    def run(T):
        dt = getattr(T, dtype)
        a = T.tensor([[1.0, NAN, 0.0], [INF, 4.0, -3.0]], dtype=dt, requires_grad=True)
        b = T.tensor([[2.0, 1.0, 0.0], [1.0, -3.0, 4.0]], dtype=dt, requires_grad=True)
        out = eval(code, {"torch": T, "a": a, "b": b})
        out.sum().backward()
        return out, a.grad, b.grad, out.grad_fn.name()
    return run


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("code", ["torch.nansum(a)", "torch.nansum(a, 1, keepdim=True)", "a.nansum(-2)",
                                  "torch.hypot(a, b)", "a.hypot(b)"])
def test_nansum_and_hypot_primitives(code, dtype):
    """NansumBackward0 (a NaN's gradient is 0, an inf's 1) and HypotBackward0 (NaN where both are 0)."""
    mine, theirs = _grads(code, dtype)(ft), _grads(code, dtype)(real)
    assert mine[3] == theirs[3]
    assert _close(_plain(list(mine[:3])), _plain(list(theirs[:3]))), (mine, theirs)


@pytest.mark.parametrize("code", [
    "torch.nansum(torch.tensor([1, 2]))", "torch.nansum(torch.tensor([True, True]))",
    "torch.nansum(torch.tensor([1.5, nan]), dtype=torch.float64)", "torch.nansum(torch.ones(0, 3), 0)",
    "torch.nansum(torch.tensor([1j]))",
    "torch.hypot(torch.tensor([3]), torch.tensor([4]))", "torch.hypot(torch.tensor([3]), torch.tensor([4.0]))",
    "torch.hypot(torch.tensor([3.0]), torch.tensor(4.0, dtype=torch.float64))",
    "torch.hypot(torch.ones(2, 3), torch.ones(4))", "torch.hypot(torch.tensor([1j]), torch.tensor([1j]))",
    "torch.tensor([3.0]).hypot_(torch.tensor([4.0]))",
])
def test_nansum_and_hypot_arguments(code):
    _same(code)
