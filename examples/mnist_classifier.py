"""A small MNIST-shaped classifier: 28x28 single-channel "digits" generated from ten noisy class
templates, an MLP (Flatten, Linear, ReLU, Dropout, Linear) trained with nn.CrossEntropyLoss and
optim.Adam over a DataLoader, then evaluated with model.eval() and torch.no_grad().

The data come from a seeded numpy generator and the weights are copied in from numpy, so both
frameworks train the same network on the same batches (dropout is 0 for the same reason: the two
frameworks' random streams differ).
Runs unchanged with real PyTorch (`python examples/mnist_classifier.py --real`) or flowgrad.
"""
import math
import sys

import numpy as np

if "--real" not in sys.argv:  # flowgrad unless --real; `flowgrad run` and compat/ need no such lines
    from flowgrad import shim
    shim.install("torch")
import torch

DataLoader = torch.utils.data.DataLoader
TensorDataset = torch.utils.data.TensorDataset

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
rng = np.random.default_rng(0)


def make_digits(n):
    """Ten fixed 28x28 templates plus noise; labels 0..9."""
    templates = np.random.default_rng(123).uniform(0, 1, (10, 28, 28)) > 0.7
    labels = rng.integers(0, 10, n)
    images = templates[labels] * 0.8 + rng.normal(0, 2.5, (n, 28, 28))
    return torch.tensor(images[:, None, :, :]), torch.tensor(labels)


x_train, y_train = make_digits(512)
x_test, y_test = make_digits(256)
train_loader = DataLoader(TensorDataset(x_train, y_train), batch_size=64, shuffle=False)
print("batch shapes:", [tuple(t.shape) for t in next(iter(train_loader))], "batches:", len(train_loader))

model = torch.nn.Sequential(
    torch.nn.Flatten(),
    torch.nn.Linear(28 * 28, 64),
    torch.nn.ReLU(),
    torch.nn.Dropout(p=0.0),
    torch.nn.Linear(64, 10),
)
with torch.no_grad():  # kaiming-uniform-like values from numpy, identical in both frameworks
    for name, p in model.named_parameters():
        fan_in = p.shape[1] if p.dim() == 2 else p.shape[0]
        bound = 1 / math.sqrt(fan_in)
        p.copy_(torch.tensor(rng.uniform(-bound, bound, tuple(p.shape))))
print(model)
print("trainable parameters:", sum(p.numel() for p in model.parameters() if p.requires_grad))

loss_fn = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(4):
    model.train()
    total, seen = 0.0, 0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
        seen += len(xb)
    model.eval()
    with torch.no_grad():
        logits = model(x_test)
        test_loss = loss_fn(logits, y_test).item()
        accuracy = (logits.argmax(dim=1) == y_test).float().mean().item()
    print(f"epoch {epoch}: train loss {total / seen:.4f}  test loss {test_loss:.4f}  accuracy {accuracy:.4f}")

with torch.no_grad():
    probs = torch.softmax(model(x_test[:3]), dim=1)
print("predictions:", probs.argmax(1).tolist(), "labels:", y_test[:3].tolist())
print("max probability:", [f"{v:.4f}" for v in probs.max(dim=1).values.tolist()])
print("Adam state:", sorted(optimizer.state[model[1].weight].keys()),
      f"step={optimizer.state[model[1].weight]['step'].item():.0f}")
