"""Run one computation on flowgrad.torch and on real torch with the same float64 inputs and
compare outputs and gradients (imported by the tests of this directory)."""
from __future__ import annotations

import numpy as np

import flowgrad.torch as ft


def run(T, fn, arrays, grad=True, seed_grad=1, create_graph=False):
    ts = [T.tensor(a, requires_grad=(grad and a.dtype.kind == "f")) for a in arrays]
    out = fn(T, *ts)
    res = [out.detach().numpy()]
    if grad:
        g = np.random.default_rng(seed_grad).standard_normal(tuple(out.shape))
        leaves = [t for t in ts if t.requires_grad]
        grads = T.autograd.grad(out, leaves, T.tensor(g, dtype=out.dtype), allow_unused=True,
                                create_graph=create_graph)
        res += [None if x is None else x.detach().numpy() for x in grads]
        if create_graph:
            pen = sum((x * x).sum() for x in grads if x is not None)
            res += [None if x is None else x.numpy()
                    for x in T.autograd.grad(pen, leaves, allow_unused=True)]
    return res


def compare(real_torch, fn, arrays, grad=True, tol=1e-7, create_graph=False):
    """Assert flowgrad and real torch agree on `fn(torch, *tensors)` and its gradients."""
    a = run(ft, fn, arrays, grad, create_graph=create_graph)
    b = run(real_torch, fn, arrays, grad, create_graph=create_graph)
    assert len(a) == len(b)
    for i, (x, y) in enumerate(zip(a, b)):
        if x is None or y is None:
            assert x is None and y is None, f"result {i}: one side is None"
            continue
        assert x.shape == y.shape, f"result {i}: shapes {x.shape} vs {y.shape}"
        assert x.dtype == y.dtype, f"result {i}: dtypes {x.dtype} vs {y.dtype}"
        np.testing.assert_allclose(x, y, rtol=tol, atol=tol, err_msg=f"result {i}")
