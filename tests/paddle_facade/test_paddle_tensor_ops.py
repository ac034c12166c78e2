"""paddle's index_add / index_fill, repeat_interleave, bucketize, searchsorted, histogram, cumprod,
cummax / cummin and kron against real paddle 3.3.1 with paddle's argument names: values, dtypes
and gradients."""
from __future__ import annotations

import re

import numpy as np
import pytest

X = np.arange(12.0).reshape(3, 4).astype("float32") / 3 - 1.5
S = np.linspace(-1.0, 2.0, 8).reshape(2, 4).astype("float32")


def _run(paddle, fn):
    x = paddle.to_tensor(X, stop_gradient=False)
    s = paddle.to_tensor(S, stop_gradient=False)
    out = fn(paddle, x, s)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    live = [o for o in outs if not o.stop_gradient and "float" in str(o.dtype)]
    if live:
        sum((o * o).sum() for o in live).backward()
    return ([(o.numpy(), str(o.dtype).replace("paddle.", "")) for o in outs],
            [None if t.grad is None else t.grad.numpy() for t in (x, s)])


CASES = {
    "index_add": lambda p, x, s: p.index_add(x, p.to_tensor([2, 0]), 0, s),
    "index_add_axis": lambda p, x, s: p.index_add(x, p.to_tensor([3, 1]), -1, s.t()[:3]),
    "index_add_method": lambda p, x, s: x.index_add(p.to_tensor([1]), 0, s[:1]),
    "index_fill": lambda p, x, s: p.index_fill(x, p.to_tensor([0, 2]), 1, -2.5),
    "index_fill_method": lambda p, x, s: x.index_fill(p.to_tensor([1]), 0, 4.0) * x,
    "repeat_interleave": lambda p, x, s: p.repeat_interleave(x, 2),
    "repeat_interleave_axis": lambda p, x, s: p.repeat_interleave(x, 3, axis=1),
    "repeat_interleave_tensor": lambda p, x, s: x.repeat_interleave(p.to_tensor([1, 0, 2]), axis=0),
    "cumprod": lambda p, x, s: p.cumprod(x, dim=1),
    "cumprod_flat": lambda p, x, s: p.cumprod(x),
    "cumprod_method": lambda p, x, s: x.cumprod(0),
    "cummax": lambda p, x, s: p.cummax(x, axis=0),
    "cummax_flat": lambda p, x, s: p.cummax(x),
    "cummin_int32": lambda p, x, s: p.cummin(x, axis=1, dtype="int32"),
    "cummin_method": lambda p, x, s: x.cummin(axis=-1),
    "kron": lambda p, x, s: p.kron(x, s),
    "kron_method": lambda p, x, s: s.kron(x[0]),
}


def assert_matches_real_paddle(fn, fpaddle, real_paddle) -> None:
    """`fn(paddle, x, s)`'s outputs (values, dtypes) and the gradients of x and s, on both."""
    (mine, my_grads), (theirs, their_grads) = _run(fpaddle, fn), _run(real_paddle, fn)
    assert len(mine) == len(theirs)
    for (m, md), (t, td) in zip(mine, theirs):
        assert md == td
        np.testing.assert_allclose(m, t, rtol=1e-5, atol=1e-6)
    for m, t in zip(my_grads, their_grads):
        assert (m is None) == (t is None)
        if t is not None:
            np.testing.assert_allclose(m, t, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", list(CASES))
def test_ops_match_real_paddle(case, fpaddle, real_paddle):
    assert_matches_real_paddle(CASES[case], fpaddle, real_paddle)


SEARCH = {
    "bucketize": lambda p, b, v: p.bucketize(v, b),
    "bucketize_right_int32": lambda p, b, v: p.bucketize(v, b, out_int32=True, right=True),
    "bucketize_method": lambda p, b, v: v.bucketize(b),
    "searchsorted": lambda p, b, v: p.searchsorted(b, v),
    "searchsorted_right": lambda p, b, v: p.searchsorted(b, v, right=True),
    "histogram": lambda p, b, v: p.histogram(v, bins=4, min=0, max=6),
    "histogram_default": lambda p, b, v: p.histogram(b),
    "histogram_int": lambda p, b, v: p.histogram(b.astype("int64"), bins=3),
    "histogram_method": lambda p, b, v: v.histogram(bins=5),
}


@pytest.mark.parametrize("case", list(SEARCH))
def test_search_ops_match_real_paddle(case, fpaddle, real_paddle):
    got = []
    for p in (fpaddle, real_paddle):
        b = p.to_tensor(np.array([1.0, 3.0, 5.0, 7.0], "float32"))
        v = p.to_tensor(np.array([[0.0, 3.0, 6.0], [1.0, 5.0, 8.0]], "float32"))
        out = SEARCH[case](p, b, v)
        got.append((out.numpy(), str(out.dtype).replace("paddle.", ""), out.stop_gradient))
    (m, md, ms), (t, td, ts) = got
    assert md == td and ms == ts
    np.testing.assert_array_equal(m, t)


@pytest.mark.parametrize("kw", [{}, {"return_inverse": True, "return_counts": True},
                                {"return_inverse": True, "axis": 0},
                                {"return_counts": True, "dtype": "int32", "axis": 1}])
def test_unique_consecutive_matches_real_paddle(kw, fpaddle, real_paddle):
    got = []
    for p in (fpaddle, real_paddle):
        out = p.unique_consecutive(p.to_tensor([[1, 1, 2], [1, 1, 2], [3, 3, 3], [1, 1, 2]]), **kw)
        outs = out if isinstance(out, tuple) else (out,)
        got.append([(o.numpy(), str(o.dtype).replace("paddle.", "")) for o in outs])
    mine, theirs = got
    assert len(mine) == len(theirs)
    for (m, md), (t, td) in zip(mine, theirs):
        assert md == td
        np.testing.assert_array_equal(m, t)


def test_histogram_weight_not_built(fpaddle):
    x = fpaddle.to_tensor([1.0, 2.0])
    with pytest.raises(NotImplementedError, match="histogram\\(\\): flowgrad does not support weight="):
        fpaddle.histogram(x, weight=x)


@pytest.mark.parametrize("fn", ["maximum", "minimum"])
def test_maximum_minimum_refuse_a_number(paddle, fn):
    x = paddle.to_tensor([1.0, 2.0])
    want = f"(InvalidArgument) {fn}(): argument 'y' (position 1) must be Tensor, but got float"
    with pytest.raises(ValueError, match=re.escape(want)):
        getattr(paddle, fn)(x, 2.0)
