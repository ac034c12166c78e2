"""A planted file for `flowgrad check`: framework code flowgrad only partly covers. Never run."""
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn import Linear, functional as F

torch.manual_seed(0)
dist.init_process_group("gloo")
x = torch.zeros(3, dtype=torch.float32, names=("n",))
y = x.refine_names("n") + x.sum(dim=0, keepdim=True)
scripted = torch.jit.freeze(F.relu)
layer = Linear(3, 4, bias=False)
layer.zero_grad(set_to_none=True)
layer.planted_method()
torch.jit.trace(layer, x)  # flowgrad: ignore


def step(model: nn.Module, batch: torch.Tensor, torch_like) -> None:
    batch.backward(create_graph=True)
    torch_like.zeros(3)
    model(batch).mean().backward()
