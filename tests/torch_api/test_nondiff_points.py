"""Gradient values at non-differentiable points and dtype/shape conventions (reference §1.26)."""
from __future__ import annotations

import math


def _grad(torch, fn, values):
    x = torch.tensor(values, requires_grad=True)
    fn(x).sum().backward()
    return x.grad.tolist()


# --- values at non-differentiable points ------------------------------------------------------


def test_abs_gradient_at_zero_is_zero(torch):
    assert _grad(torch, lambda x: x.abs(), [0.0, -1.0, 2.0]) == [0.0, -1.0, 1.0]


def test_relu_gradient_at_zero_is_zero(torch):
    assert _grad(torch, lambda x: x.relu(), [0.0, -1.0, 2.0]) == [0.0, 0.0, 1.0]


def test_clamp_min_gradient_at_boundary_is_one(torch):
    assert _grad(torch, lambda x: x.clamp(min=0), [0.0, -1.0, 2.0]) == [1.0, 0.0, 1.0]


def test_max_gradient_splits_evenly_between_ties(torch):
    assert _grad(torch, lambda x: x.max(), [1.0, 1.0, 0.0]) == [0.5, 0.5, 0.0]


def test_min_gradient_splits_evenly_between_ties(torch):
    assert _grad(torch, lambda x: x.min(), [0.0, 0.0, 1.0]) == [0.5, 0.5, 0.0]


def test_median_gradient_splits_evenly_between_ties(torch):
    assert _grad(torch, lambda x: x.median(), [1.0, 2.0, 1.0]) == [0.5, 0.0, 0.5]


def test_sqrt_gradient_at_zero_is_inf(torch):
    assert _grad(torch, lambda x: x.sqrt(), [0.0, 4.0]) == [math.inf, 0.25]


def test_half_power_gradient_at_zero_is_inf(torch):
    assert _grad(torch, lambda x: x**0.5, [0.0, 4.0]) == [math.inf, 0.25]


def test_norm_gradient_at_zero_vector_is_zero(torch):
    assert _grad(torch, lambda x: x.norm(), [0.0, 0.0]) == [0.0, 0.0]


def test_atan2_gradients_at_origin_are_zero(torch):
    y = torch.tensor(0.0, requires_grad=True)
    x = torch.tensor(0.0, requires_grad=True)
    torch.atan2(y, x).backward()
    assert y.grad.item() == 0.0
    assert x.grad.item() == 0.0


def test_power_of_zero_tensor_base_exponent_gradient(torch):
    a = torch.tensor([0.0, 0.0, 0.0])
    b = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
    (a**b).sum().backward()
    assert b.grad.tolist() == [-math.inf, 0.0, 0.0]


def test_power_of_zero_scalar_base_exponent_gradient(torch):
    b = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
    (0**b).sum().backward()
    assert b.grad.tolist() == [-math.inf, 0.0, 0.0]


# --- dtype and shape conventions --------------------------------------------------------------


def test_default_dtype_is_float32(torch):
    assert torch.get_default_dtype() == torch.float32
    assert torch.ones(2).dtype == torch.float32
    assert torch.tensor([1.0, 2.0]).dtype == torch.float32


def test_integer_data_gives_int64(torch):
    assert torch.tensor([1, 2]).dtype == torch.int64


def test_float32_times_int64_is_float32_and_tracks(torch):
    x = torch.ones(2, requires_grad=True)
    r = x * torch.tensor([1, 2])
    assert r.dtype == torch.float32
    r.sum().backward()
    assert x.grad.tolist() == [1.0, 2.0]
    assert x.grad.dtype == torch.float32


def test_int_true_division_gives_float32(torch):
    r = torch.tensor([1, 2]) / torch.tensor([2, 2])
    assert r.dtype == torch.float32
    assert r.tolist() == [0.5, 1.0]


def test_sum_of_vector_is_zero_dim(torch):
    s = torch.tensor([1.0, 2.0], requires_grad=True).sum()
    assert tuple(s.shape) == ()
    assert s.dim() == 0


def test_item_returns_python_float(torch):
    v = torch.tensor([1.0, 2.0]).sum().item()
    assert type(v) is float
    assert v == 3.0
