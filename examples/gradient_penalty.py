"""Double backward: a WGAN-GP style critic trained with a gradient penalty. The penalty is built
from torch.autograd.grad(..., create_graph=True), so loss.backward() differentiates through the
critic's input gradient (second derivatives of Linear, Tanh and LeakyReLU).

Runs unchanged with real PyTorch (`python examples/gradient_penalty.py --real`) or flowgrad.
"""
import sys

import numpy as np

if "--real" not in sys.argv:  # flowgrad unless --real; `flowgrad run` and compat/ need no such lines
    from flowgrad import shim
    shim.install("torch")
import torch

torch.set_default_dtype(torch.float64)
rng = np.random.default_rng(7)


class Critic(torch.nn.Module):
    def __init__(self, dim=2, hidden=32):
        super().__init__()
        self.net = torch.nn.Sequential(
            torch.nn.Linear(dim, hidden), torch.nn.Tanh(),
            torch.nn.Linear(hidden, hidden), torch.nn.LeakyReLU(0.2),
            torch.nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


critic = Critic()
with torch.no_grad():
    for p in critic.parameters():
        p.copy_(torch.tensor(rng.normal(0, 0.4, tuple(p.shape))))


def gradient_penalty(critic, real, fake, alpha):
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(interp)
    (grads,) = torch.autograd.grad(scores.sum(), interp, create_graph=True)
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


optimizer = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.5, 0.9))
for step in range(200):
    real = torch.tensor(rng.normal([2.0, -1.0], 0.5, (64, 2)))
    fake = torch.tensor(rng.normal([-1.0, 1.0], 0.8, (64, 2)))
    alpha = torch.tensor(rng.uniform(0, 1, (64, 1)))
    gp = gradient_penalty(critic, real, fake, alpha)
    wasserstein = critic(real).mean() - critic(fake).mean()
    loss = -wasserstein + 10.0 * gp
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 40 == 39:
        print(f"step {step}: W estimate {wasserstein.item():.5f}  penalty {gp.item():.5f}")

# a Hessian-vector product of the critic at one point, by differentiating twice
x = torch.tensor([[0.5, -0.25]], requires_grad=True)
(g,) = torch.autograd.grad(critic(x).sum(), x, create_graph=True)
v = torch.tensor([[1.0, 2.0]])
(hv,) = torch.autograd.grad((g * v).sum(), x)
print("gradient:", [f"{t:.6f}" for t in g.detach().view(-1).tolist()])
print("Hessian @ v:", [f"{t:.6f}" for t in hv.view(-1).tolist()])
print("penalty graph root:", gp.grad_fn.name())
