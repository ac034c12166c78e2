"""torch.optim for the torch facade (the framework-neutral optimizers)."""

from ...optim import (LBFGS, SGD, Adadelta, Adagrad, Adam, Adamax, AdamW, NAdam, Optimizer, RAdam,  # noqa: F401
                      RMSprop)
from . import lr_scheduler

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "Adadelta", "NAdam", "RAdam", "LBFGS",
           "lr_scheduler"]
