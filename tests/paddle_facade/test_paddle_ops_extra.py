"""paddle's atan, lerp, kron, diag, meshgrid, roll, gather_nd, scatter and unique against real
paddle: values, dtypes and gradients."""
from __future__ import annotations

import numpy as np


def run(paddle):
    out = {}
    x = paddle.to_tensor(np.array([[1., -2., 3.], [0.5, 4., -1.]], 'float32'), stop_gradient=False)
    y = paddle.to_tensor(np.array([[2., 1.], [0., -1.]], 'float32'), stop_gradient=False)
    v = paddle.to_tensor(np.array([1., 2., 3.], 'float32'), stop_gradient=False)
    res = {
        "atan": paddle.atan(x), "lerp": paddle.lerp(x, x * 2, 0.3), "kron": paddle.kron(x, y),
        "kron_v": paddle.kron(v, y), "diag_v": paddle.diag(v, offset=1, padding_value=9.), "diag_vneg": paddle.diag(v, -1),
        "diag_m": paddle.diag(x, 1), "roll": paddle.roll(x, 1, axis=1), "roll_flat": paddle.roll(x, -2),
        "gather_nd": paddle.gather_nd(x, paddle.to_tensor([[1, 2], [0, 0]])),
        "gather_nd_rows": paddle.gather_nd(x, paddle.to_tensor([[1]])),
        "scatter": paddle.scatter(x, paddle.to_tensor([1]), v.unsqueeze(0) * 3),
        "scatter_add": paddle.scatter(x, paddle.to_tensor([1, 1]), paddle.stack([v, v]) * 2, overwrite=False),
    }
    for k, r in res.items():
        ins = [x, y, v]
        for t in ins: t.clear_gradient(False) if t.grad is not None else None
        (r * r).sum().backward()
        out[k] = (r.numpy(), str(r.dtype), [None if t.grad is None else t.grad.numpy() for t in ins])
    g = paddle.meshgrid(paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4, 5]))
    out["meshgrid"] = [t.numpy() for t in g]
    u = paddle.unique(paddle.to_tensor([3, 1, 3, 2, 1]), return_index=True, return_inverse=True, return_counts=True)
    out["unique"] = [(t.numpy(), str(t.dtype)) for t in u]
    out["unique1"] = paddle.unique(paddle.to_tensor([[3., 1.], [3., 1.]]), axis=0).numpy()
    out["unique_i32"] = [str(t.dtype) for t in paddle.unique(paddle.to_tensor([2, 2]), return_counts=True, dtype="int32")]
    return out


def _same(key, got, want):
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want), key
        for g, w in zip(got, want):
            _same(key, g, w)
    elif want is None or got is None:
        assert got is None and want is None, key
    elif isinstance(want, str):
        assert got == want, key
    else:
        assert np.shape(got) == np.shape(want), key
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, err_msg=key)


def test_ops_match_real_paddle(fpaddle, real_paddle):
    got, want = run(fpaddle), run(real_paddle)
    assert sorted(got) == sorted(want)
    for key in want:
        _same(key, got[key], want[key])


def test_methods(paddle):
    x = paddle.to_tensor([[1., 2.], [3., 4.]])
    assert x.roll(1, axis=0).tolist() == [[3., 4.], [1., 2.]]
    assert x.kron(paddle.ones([1, 2])).shape == [2, 4]
    assert x.gather_nd(paddle.to_tensor([[0, 1]])).tolist() == [2.]
