"""torch.nn.utils' gradient clipping and parameter/vector conversion against real torch: values
to the bit in float32 and float64, the norm types, the returned norm, warnings and errors."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

rng = np.random.default_rng(5)
A, B = rng.standard_normal((3, 4)) * 3, rng.standard_normal(5)


def _clip(T, dtype, norm_type, max_norm):
    a = T.tensor(A, dtype=dtype, requires_grad=True)
    b = T.tensor(B, dtype=dtype, requires_grad=True)
    ((a ** 3).sum() + (b * a[0, 0]).sum()).backward()
    total = T.nn.utils.clip_grad_norm_([a, b], max_norm=max_norm, norm_type=norm_type)
    return total.item(), str(total.dtype), a.grad.numpy().copy(), b.grad.numpy().copy()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("norm_type", [2.0, 1, 3.5, "inf", 0.0])
@pytest.mark.parametrize("max_norm", [0.5, 1e6])
def test_clip_grad_norm_matches_torch(dtype, norm_type, max_norm, real_torch):
    import flowgrad.torch as ft
    mine = _clip(ft, getattr(ft, dtype), norm_type, max_norm)
    theirs = _clip(real_torch, getattr(real_torch, dtype), norm_type, max_norm)
    rtol = 1e-6 if dtype == "float32" else 1e-13
    np.testing.assert_allclose(mine[0], theirs[0], rtol=rtol)
    assert mine[1] == theirs[1]
    for x, y in zip(mine[2:], theirs[2:]):
        np.testing.assert_allclose(x, y, rtol=rtol)
        assert x.dtype == y.dtype


def test_clip_grad_value_and_single_tensor(real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        a = T.tensor(A, requires_grad=True)
        (a ** 2).sum().backward()
        T.nn.utils.clip_grad_value_(a, 2.5)
        total = T.nn.utils.clip_grad_norm_(a, 1.0)
        out.append((a.grad.tolist(), total.item()))
    np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-6)
    np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-6)


def test_empty_inputs_and_warnings(real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            empty = T.nn.utils.clip_grad_norm_((p for p in []), 1.0)
            no_grads = T.nn.utils.clip_grad_norm_([T.zeros(2, requires_grad=True)], 1.0)
            w = T.tensor([3.0, 4.0], requires_grad=True)
            w.grad = T.tensor([3.0, 4.0])
            old = T.nn.utils.clip_grad_norm([w], 1.0)
        # (the empty generator's zero is a plain flowgrad tensor: nothing names the facade there)
        out.append(([(c.category.__name__, str(c.message)) for c in caught], empty.item(), str(no_grads.dtype),
                    no_grads.item(), old.item(), w.grad.tolist()))
    assert out[0][:5] == out[1][:5]
    np.testing.assert_allclose(out[0][5], out[1][5], rtol=1e-6)


def test_parameters_to_vector_and_back(real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        T.manual_seed(0)
        lin = T.nn.Linear(3, 2)
        vec = T.arange(8, dtype=T.float32)
        T.nn.utils.vector_to_parameters(vec, lin.parameters())
        with T.no_grad():
            vec[0] = 100.0   # the parameters view the vector, as in PyTorch
        back = T.nn.utils.parameters_to_vector(lin.parameters())
        out.append((lin.weight.tolist(), lin.bias.tolist(), back.tolist(), back.requires_grad,
                    lin.weight.is_leaf))
    assert out[0] == out[1]


def test_vector_to_parameters_type_error(torch):
    with pytest.raises(TypeError, match="^" + re.escape("expected torch.Tensor, but got: numpy.ndarray") + "$"):
        torch.nn.utils.vector_to_parameters(np.zeros(3), [torch.zeros(3, requires_grad=True)])
    with pytest.raises(TypeError, match="^" + re.escape("expected torch.Tensor, but got: int") + "$"):
        torch.nn.utils.vector_to_parameters(3, [torch.zeros(3, requires_grad=True)])
