"""Checkpointing: train a small sequence model (Embedding, LayerNorm, GELU, Linear) with AdamW and
a cosine schedule, save model / optimizer / scheduler state with torch.save, load it into fresh
objects with torch.load, and check that resuming reproduces uninterrupted training exactly.

Runs unchanged with real PyTorch (`python examples/checkpoint_resume.py --real`) or flowgrad.
"""
import io
import sys

import numpy as np

if "--real" not in sys.argv:  # flowgrad unless --real; `flowgrad run` and compat/ need no such lines
    from flowgrad import shim
    shim.install("torch")
import torch

nn = torch.nn
torch.set_default_dtype(torch.float64)
data_rng = np.random.default_rng(11)
tokens = torch.tensor(data_rng.integers(1, 20, (96, 6)))
tokens[:, -1] = 0                                   # index 0 pads every sequence
targets = torch.tensor((tokens.numpy()[:, :-1].sum(1) % 3))


class BagOfTokens(nn.Module):
    def __init__(self, vocab=20, dim=8, classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 16), nn.GELU(), nn.Linear(16, classes))

    def forward(self, tokens):
        return self.mlp(self.norm(self.embed(tokens).mean(dim=1)))


def fresh(seed):
    model = BagOfTokens()
    rng = np.random.default_rng(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if not name.startswith("norm"):
                p.copy_(torch.tensor(rng.normal(0, 0.5, tuple(p.shape))))
        model.embed.weight[0].zero_()
    optimizer = torch.optim.AdamW(model.parameters(), lr=0.02, weight_decay=0.05)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=30, eta_min=1e-3)
    return model, optimizer, scheduler


def train(model, optimizer, scheduler, steps):
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(tokens), targets)
        loss.backward()
        optimizer.step()
        scheduler.step()
    return loss.item()


model, optimizer, scheduler = fresh(0)
print(model)
print("after 10 steps:", f"{train(model, optimizer, scheduler, 10):.6f}")

buffer = io.BytesIO()
torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(), "step": 10}, buffer)
buffer.seek(0)

print("continued to 30:", f"{train(model, optimizer, scheduler, 20):.6f}")

checkpoint = torch.load(buffer)
model2, optimizer2, scheduler2 = fresh(1)              # different weights until the load
print(model2.load_state_dict(checkpoint["model"]))
optimizer2.load_state_dict(checkpoint["optimizer"])
scheduler2.load_state_dict(checkpoint["scheduler"])
print("resumed from step", checkpoint["step"], "lr", f"{scheduler2.get_last_lr()[0]:.6f}")
print("resumed to 30:   ", f"{train(model2, optimizer2, scheduler2, 20):.6f}")
same = all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), model2.state_dict().values()))
print("identical weights:", same)
print("padding row stays zero:", model2.embed.weight[0].abs().sum().item() == 0.0)
print("checkpoint keys:", sorted(checkpoint), sorted(checkpoint["optimizer"]["state"][0]))
try:
    model2.load_state_dict({"embed.weight": checkpoint["model"]["embed.weight"]})
except RuntimeError as e:
    print(str(e).splitlines()[0], "|", str(e).splitlines()[1][:60])
