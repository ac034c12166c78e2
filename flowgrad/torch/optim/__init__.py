"""torch.optim for the torch facade (the framework-neutral optimizers)."""

from ...optim import LBFGS, SGD, Adagrad, Adam, Adamax, AdamW, Optimizer, RMSprop  # noqa: F401
from . import lr_scheduler

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "LBFGS", "lr_scheduler"]
