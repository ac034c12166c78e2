"""Fit sin(x) with a small tanh network, written as ordinary OneFlow code (`import oneflow as flow`),
trained with flow.optim.Adam on mini-batches from flow.utils.data. The data and the initial weights
come from NumPy, so the numbers are the same as the same program's under PyTorch.

    python examples/oneflow_regression.py       # flowgrad's OneFlow facade
"""
import sys

import numpy as np

if "--real" not in sys.argv:  # flowgrad unless --real; `flowgrad run` and compat/ need no such lines
    from flowgrad import shim
    shim.install("oneflow")
import oneflow as flow


class Net(flow.nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.fc1 = flow.nn.Linear(1, hidden)
        self.fc2 = flow.nn.Linear(hidden, 1)

    def forward(self, x):
        return self.fc2(flow.tanh(self.fc1(x)))


rng = np.random.default_rng(0)
xs = np.linspace(-3.0, 3.0, 64, dtype=np.float32).reshape(64, 1)
ys = np.sin(xs) + 0.05 * rng.standard_normal((64, 1)).astype(np.float32)

net = Net(hidden=16)
with flow.no_grad():
    for p in net.parameters():  # deterministic initial weights
        p.copy_(flow.tensor((0.5 * rng.standard_normal(tuple(p.shape))).astype(np.float32)))

data = flow.utils.data.TensorDataset(flow.tensor(xs), flow.tensor(ys))
loader = flow.utils.data.DataLoader(data, batch_size=16, shuffle=False)
opt = flow.optim.Adam(net.parameters(), lr=0.02)
loss_fn = flow.nn.MSELoss()

for epoch in range(61):
    total = 0.0
    for xb, yb in loader:
        loss = loss_fn(net(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    if epoch % 10 == 0:
        print(f"epoch {epoch:2d}  loss {total / len(loader):.5f}")

with flow.no_grad():
    pred = net(flow.tensor([[0.0], [1.5]]))
print("sin(0) ~", f"{pred[0, 0].item():.3f}", " sin(1.5) ~", f"{pred[1, 0].item():.3f}")
