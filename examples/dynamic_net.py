"""A custom nn.Module with Python control flow and weight sharing (the PyTorch tutorial's
DynamicNet): each forward pass picks, at random, whether to add 0, 1 or 2 extra fourth-and-higher
order terms, all sharing the parameter `e`. Trained with SGD + momentum.

Runs unchanged with real PyTorch (`python examples/dynamic_net.py --real`) or flowgrad.
"""
import math
import random
import sys

if "--real" not in sys.argv:  # flowgrad unless --real; `flowgrad run` and compat/ need no such lines
    from flowgrad import shim
    shim.install("torch")
import torch


class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1))
        self.b = torch.nn.Parameter(torch.tensor(0.5))
        self.c = torch.nn.Parameter(torch.tensor(-0.1))
        self.d = torch.nn.Parameter(torch.tensor(-0.05))
        self.e = torch.nn.Parameter(torch.tensor(0.01))
        self.rng = random.Random(0)  # the control flow draws from a seeded stream of its own

    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, self.rng.randint(4, 6)):
            y = y + self.e * x ** exp  # the same parameter, reused: its gradients add up
        return y

    def string(self):
        return (f"y = {self.a.item():.5f} + {self.b.item():.5f} x + {self.c.item():.5f} x^2 + "
                f"{self.d.item():.5f} x^3 + {self.e.item():.5f} x^4 ? + {self.e.item():.5f} x^5 ?")


torch.set_default_dtype(torch.float64)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)

model = DynamicNet()
print(model)
print([name for name, _ in model.named_parameters()])

criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(6000):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 1500 == 1499:
        print(t, f"{loss.item():.5f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

print(f"Result: {model.string()}")
print("momentum buffer of e:", f"{optimizer.state[model.e]['momentum_buffer'].item():.6e}")
