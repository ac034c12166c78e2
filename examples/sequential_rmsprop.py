"""Fit y = sin(x) on [-pi/2, pi] with a cubic polynomial, the PyTorch way: the features x, x^2, x^3 go through
nn.Sequential(nn.Linear(3, 1), nn.Flatten(0, 1)), trained with nn.MSELoss and optim.RMSprop.

Runs unchanged with real PyTorch (`python examples/sequential_rmsprop.py --real`) or flowgrad.
"""
import math
import sys

if "--real" in sys.argv:
    import torch
else:
    import flowgrad.torch as torch

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)

x = torch.linspace(-math.pi / 2, math.pi, 2000)
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
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
print(optimizer)

for t in range(2000):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 400 == 399:
        print(t, f"{loss.item():.6f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

linear_layer = model[0]
w = linear_layer.weight[:, 0].item(), linear_layer.weight[:, 1].item(), linear_layer.weight[:, 2].item()
print(f"Result: y = {linear_layer.bias.item():.5f} + {w[0]:.5f} x + {w[1]:.5f} x^2 + {w[2]:.5f} x^3")
print("state keys:", sorted(optimizer.state_dict()["state"][0].keys()))
print("last loss node:", loss.grad_fn.name())
