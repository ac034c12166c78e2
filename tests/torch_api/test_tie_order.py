"""Which index topk / kthvalue return among tied values, and where sort puts NaN: PyTorch's CPU kernels
(libstdc++'s nth_element / partial_sort / sort, its own quickselect) against flowgrad, on rows full of
ties, with values and the gradient that follows the chosen index."""
from __future__ import annotations

import pytest

import flowgrad.torch as ft

real = pytest.importorskip("torch")

NAN = float("nan")


def _rows(T, n, dtype):
    g = real.Generator().manual_seed(n)
    x = real.randint(0, 3, (5, n), generator=g).double()
    x[0, ::4] = NAN
    return T.tensor(x.tolist(), dtype=getattr(T, dtype), requires_grad=True)


@pytest.mark.parametrize("n,k", [(4, 1), (7, 3), (20, 17), (130, 2), (300, 40)])
@pytest.mark.parametrize("largest,sorted,dtype", [(True, True, "float32"), (False, True, "float64"),
                                                  (True, False, "bfloat16"), (False, False, "float32")])
def test_topk_and_kthvalue_pick_torchs_index_among_ties(n, k, largest, sorted, dtype):
    out = {}
    for T in (ft, real):
        x = _rows(T, n, dtype)
        top = T.topk(x, k, largest=largest, sorted=sorted)
        kth = T.kthvalue(x.t(), k, 0)
        (top.values.nan_to_num().sum() + kth.values.nan_to_num().sum() * 2).backward()
        out[T] = (top.indices.tolist(), kth.indices.tolist(), x.grad.tolist(),
                  top.values.nan_to_num(-9).tolist(), kth.values.nan_to_num(-9).tolist())
    assert out[ft] == out[real]


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_sort_descending_puts_nan_first(dtype):
    rows = [[1.0, NAN, 2.0, NAN, 2.0], [3.0, 2.0, float("inf"), 0.0, NAN]]
    got = [T.sort(T.tensor(rows, dtype=getattr(T, dtype)).t(), 0, descending=True).indices.tolist()
           for T in (ft, real)]
    assert got[0] == got[1]
