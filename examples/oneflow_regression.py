"""Regression in OneFlow's style (`import oneflow as flow`): a two-layer network fits a noisy
quadratic surface of two inputs, fed in mini-batches by flow.utils.data and trained with
flow.optim.SGD (momentum) under a step learning-rate schedule. Inputs, targets and initial weights
are NumPy's, so the numbers equal those of the same program under PyTorch.

    python examples/oneflow_regression.py       # flowgrad's OneFlow facade
"""
import sys

import numpy as np

if "--real" not in sys.argv:  # flowgrad unless --real; `flowgrad run` and compat/ need no such lines
    from flowgrad import shim
    shim.install("oneflow")
import oneflow as flow

gen = np.random.default_rng(7)
features = gen.uniform(-1.0, 1.0, size=(96, 2)).astype(np.float32)
target = (features[:, :1] ** 2 - 0.5 * features[:, 1:] + 0.02 * gen.standard_normal((96, 1))).astype(np.float32)

model = flow.nn.Sequential(flow.nn.Linear(2, 24), flow.nn.ReLU(), flow.nn.Linear(24, 1))
with flow.no_grad():   # reproducible starting weights
    for param in model.parameters():
        param.copy_(flow.tensor(gen.normal(0.0, 0.4, size=tuple(param.shape)).astype(np.float32)))

batches = flow.utils.data.DataLoader(flow.utils.data.TensorDataset(flow.tensor(features), flow.tensor(target)),
                                     batch_size=32)
sgd = flow.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
schedule = flow.optim.lr_scheduler.StepLR(sgd, step_size=40, gamma=0.5)

for epoch in range(1, 121):
    running = 0.0
    for inputs, wanted in batches:
        sgd.zero_grad()
        mse = flow.nn.functional.mse_loss(model(inputs), wanted)
        mse.backward()
        sgd.step()
        running += mse.item() * inputs.shape[0]
    schedule.step()
    if epoch % 20 == 0:
        print(f"epoch {epoch:3d}  lr {schedule.get_last_lr()[0]:.4f}  mse {running / len(features):.5f}")

model.eval()
with flow.no_grad():
    probe = model(flow.tensor([[0.5, 0.0], [-1.0, 1.0]])).flatten().tolist()
print("f(0.5, 0) ~", f"{probe[0]:.3f}", "(0.250)   f(-1, 1) ~", f"{probe[1]:.3f}", "(0.500)")
