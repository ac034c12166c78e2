"""Fit y = sin(x) with a cubic polynomial, the PyTorch way: the features x, x^2, x^3 go through
nn.Sequential(nn.Linear(3, 1), nn.Flatten(0, 1)), trained with nn.MSELoss and optim.RMSprop, the
learning rate decaying with lr_scheduler.ExponentialLR.

Runs unchanged with real PyTorch (`python examples/sequential_rmsprop.py --real`) or flowgrad.
"""
import math
import sys

if "--real" not in sys.argv:  # flowgrad unless --real; `flowgrad run` and compat/ need no such lines
    from flowgrad import shim
    shim.install("torch")
import torch

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)

model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1),
)
print(model)
print("parameters:", [(name, tuple(param.shape)) for name, param in model.named_parameters()])

# the default init draws from the framework's own random stream: start from fixed values instead
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.2, -0.1, 0.05]]))
    model[0].bias.fill_(0.1)

loss_fn = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.RMSprop(model.parameters(), lr=2e-3)
scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.996)
print(optimizer)

for t in range(2000):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 400 == 399:
        print(t, f"{loss.item():.6f}", f"lr={scheduler.get_last_lr()[0]:.3e}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()


def fmt(v):
    """Five decimals; the even coefficients only drift from zero by rounding, so -0.00000 prints as 0.00000."""
    return f"{v:.5f}".replace("-0.00000", "0.00000")


linear_layer = model[0]
w = [linear_layer.weight[:, i].item() for i in range(3)]
print(f"Result: y = {fmt(linear_layer.bias.item())} + {fmt(w[0])} x + {fmt(w[1])} x^2 + {fmt(w[2])} x^3")
print("state keys:", sorted(optimizer.state_dict()["state"][0].keys()))
print("last loss node:", loss.grad_fn.name())
