"""float16 tensors against real torch 2.13: values (to half precision), result dtypes, and
gradients that keep float16."""
from __future__ import annotations

import numpy as np
import pytest

CASES = {
    "add_mul": lambda T, x, w: (x * 2 + x * x).sum(),
    "matmul": lambda T, x, w: (x @ w).sum(),
    "exp_log": lambda T, x, w: (x.exp() + x.log()).sum(),
    "tanh_sigmoid_relu": lambda T, x, w: (x.tanh() + x.sigmoid() + x.relu()).sum(),
    "softmax": lambda T, x, w: (T.softmax(x, 1) * T.arange(4, dtype=T.float16)).sum(),
    "mean_var": lambda T, x, w: x.mean() + x.var(),
    "linear": lambda T, x, w: T.nn.functional.linear(x, w.t()).sum(),
    "div_pow": lambda T, x, w: (x / (x + 1)).pow(2).sum(),
    "max": lambda T, x, w: x.max(1).values.sum(),
    "sqrt_abs": lambda T, x, w: (x.sqrt() + (x - 1).abs()).sum(),
    "mse": lambda T, x, w: T.nn.functional.mse_loss(x @ w, T.zeros(3, 2, dtype=T.float16)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_half_values_and_grads(name):
    import torch as real_torch
    import flowgrad.torch as ft
    rng = np.random.default_rng(0)
    x0 = rng.uniform(0.5, 1.5, (3, 4)).astype(np.float16)
    w0 = rng.uniform(-1, 1, (4, 2)).astype(np.float16)
    results = []
    for T in (ft, real_torch):
        x, w = T.tensor(x0, requires_grad=True), T.tensor(w0, requires_grad=True)
        y = CASES[name](T, x, w)
        y.backward()
        results.append((y.detach().numpy(), str(y.dtype), x.grad, w.grad))
    (y1, d1, gx1, gw1), (y2, d2, gx2, gw2) = results
    assert d1 == d2 == "torch.float16"
    np.testing.assert_allclose(y1.astype(np.float32), y2.astype(np.float32), rtol=2e-2, atol=2e-2)
    for g1, g2 in ((gx1, gx2), (gw1, gw2)):
        assert (g1 is None) == (g2 is None)
        if g1 is not None:
            assert str(g1.dtype) == str(g2.dtype) == "torch.float16"
            np.testing.assert_allclose(g1.numpy().astype(np.float32), g2.numpy().astype(np.float32), rtol=2e-2,
                                       atol=2e-2)
