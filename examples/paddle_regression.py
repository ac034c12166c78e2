"""Fit sin(x) with a small tanh network, written as ordinary paddle code, trained with
paddle.optimizer.Adam. The data and the initial weights come from NumPy, so the run is the same
under flowgrad's facade and under real paddle.

    python examples/paddle_regression.py          # flowgrad's paddle facade
    python examples/paddle_regression.py --real   # real paddle: the same output
"""
import sys

import numpy as np

if "--real" not in sys.argv:  # flowgrad unless --real; `flowgrad run` and compat/ need no such lines
    from flowgrad import shim
    shim.install("paddle")
import paddle


class Net(paddle.nn.Layer):
    def __init__(self, hidden):
        super().__init__()
        self.fc1 = paddle.nn.Linear(1, hidden)
        self.fc2 = paddle.nn.Linear(hidden, 1)

    def forward(self, x):
        return self.fc2(paddle.tanh(self.fc1(x)))


rng = np.random.default_rng(0)
xs = np.linspace(-3.0, 3.0, 64, dtype=np.float32).reshape(64, 1)
ys = np.sin(xs) + 0.05 * rng.standard_normal((64, 1)).astype(np.float32)

net = Net(hidden=16)
for p in net.parameters():  # deterministic initial weights, identical in both frameworks
    p.set_value((0.5 * rng.standard_normal(p.shape)).astype(np.float32))

x = paddle.to_tensor(xs)
y = paddle.to_tensor(ys)
opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=net.parameters())
loss_fn = paddle.nn.MSELoss()

for step in range(301):
    loss = loss_fn(net(x), y)
    loss.backward()
    opt.step()
    opt.clear_grad()
    if step % 50 == 0:
        print(f"step {step:3d}  loss {loss.item():.5f}")

with paddle.no_grad():
    pred = net(paddle.to_tensor([[0.0], [1.5]]))
print("prediction at 0.0 and 1.5:", [round(v, 3) for v in pred.numpy().reshape(-1).tolist()])
print("fc2.bias grad after clear_grad:", net.fc2.bias.grad.numpy().tolist())
