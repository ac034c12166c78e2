"""Fit y = sin(x) with a third-order Legendre polynomial, P3 written as a custom
torch.autograd.Function with its own backward (the PyTorch tutorial's LegendrePolynomial3).

Runs unchanged with real PyTorch (`python examples/polynomial_custom_function.py --real`) or flowgrad.
"""
import math
import sys

if "--real" not in sys.argv:  # flowgrad unless --real; `flowgrad run` and compat/ need no such lines
    from flowgrad import shim
    shim.install("torch")
import torch


class LegendrePolynomial3(torch.autograd.Function):
    """P3(x) = (5x^3 - 3x) / 2, with P3'(x) = 1.5 (5x^2 - 1)."""

    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)


torch.manual_seed(0)
dtype = torch.float64
x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x)

# the tutorial draws these from randn; fixed values keep both frameworks on the same path
a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)

learning_rate = 5e-6
for t in range(2000):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 400 == 399:
        print(t, f"{loss.item():.6f}")
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= learning_rate * p.grad
            p.grad = None



def fmt(v):
    """Six decimals, printing a tiny negative as 0.000000 (a and c only drift by rounding)."""
    return f"{v:.6f}".replace("-0.000000", "0.000000")


print(f"Result: y = {fmt(a.item())} + {fmt(b.item())} * P3({fmt(c.item())} + {fmt(d.item())} x)")
print("backward node:", LegendrePolynomial3.apply(d * x).grad_fn.name())
