"""A small convolutional network: Conv2d, BatchNorm2d, ReLU, MaxPool2d, AvgPool2d and Linear,
classifying 12x12 images of horizontal, vertical and diagonal strokes (generated with numpy), with
SGD + momentum and a StepLR schedule. Shows BatchNorm's running statistics and train/eval modes.

Runs unchanged with real PyTorch (`python examples/conv_net.py --real`) or flowgrad.
"""
import sys

import numpy as np

if "--real" not in sys.argv:  # flowgrad unless --real; `flowgrad run` and compat/ need no such lines
    from flowgrad import shim
    shim.install("torch")
import torch

nn = torch.nn
F = torch.nn.functional
torch.set_default_dtype(torch.float64)
rng = np.random.default_rng(3)


def make_images(n):
    """Class 0: a horizontal stroke, 1: a vertical stroke, 2: a diagonal stroke; noisy, shifted."""
    labels = rng.integers(0, 3, n)
    images = rng.normal(0, 0.3, (n, 1, 12, 12))
    for i, c in enumerate(labels):
        k = rng.integers(2, 10)
        if c == 0:
            images[i, 0, k, 1:11] += 1.0
        elif c == 1:
            images[i, 0, 1:11, k] += 1.0
        else:
            idx = np.arange(10)
            images[i, 0, (idx + k // 4) % 12, idx + 1] += 1.0
    return torch.tensor(images), torch.tensor(labels)


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 6, kernel_size=3, padding=1),
            nn.BatchNorm2d(6),
            nn.ReLU(),
            nn.MaxPool2d(2),                      # 12x12 -> 6x6
            nn.Conv2d(6, 8, kernel_size=3, stride=1, padding=1, bias=False),
            nn.ReLU(),
            nn.AvgPool2d(kernel_size=2, stride=2),  # 6x6 -> 3x3
        )
        self.classifier = nn.Linear(8 * 3 * 3, 3)

    def forward(self, x):
        x = self.features(x)
        return self.classifier(torch.flatten(x, 1))


model = ConvNet()
with torch.no_grad():
    for name, p in model.named_parameters():
        if "features.1" in name:  # BatchNorm keeps its default weight=1, bias=0
            continue
        p.copy_(torch.tensor(rng.normal(0, 0.3, tuple(p.shape))))
print(model)
print("buffers:", [name for name, _ in model.named_buffers()])

x_train, y_train = make_images(240)
x_test, y_test = make_images(90)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=4, gamma=0.5)
criterion = nn.CrossEntropyLoss()

for epoch in range(8):
    model.train()
    for i in range(0, 240, 40):
        optimizer.zero_grad()
        loss = criterion(model(x_train[i:i + 40]), y_train[i:i + 40])
        loss.backward()
        optimizer.step()
    scheduler.step()
    model.eval()
    with torch.no_grad():
        out = model(x_test)
        acc = (out.argmax(1) == y_test).double().mean().item()
    print(f"epoch {epoch}: last batch loss {loss.item():.4f}  test accuracy {acc:.4f}  lr {scheduler.get_last_lr()[0]:.4f}")

bn = model.features[1]
print("batches tracked:", bn.num_batches_tracked.item())
print("running mean:", [f"{v:.4f}" for v in bn.running_mean.tolist()])
print("running var:", [f"{v:.4f}" for v in bn.running_var.tolist()])
pooled, where = F.max_pool2d(x_test[:1, :, :4, :4], 2, return_indices=True)
print("max-pool indices:", where.view(-1).tolist())
print("conv weight grad norm:", f"{model.features[0].weight.grad.norm().item():.5f}")
