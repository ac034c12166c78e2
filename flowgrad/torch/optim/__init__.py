"""torch.optim for the torch facade (the framework-neutral optimizers)."""
from __future__ import annotations

from ...optim import SGD, Adagrad, Adam, Adamax, AdamW, Optimizer, RMSprop  # noqa: F401
from ...optim.optimizer import required  # noqa: F401
from . import lr_scheduler

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "lr_scheduler"]
