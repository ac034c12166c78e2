"""torch.optim for the torch facade (the framework-neutral optimizers)."""

from ...optim import (ASGD, LBFGS, SGD, Adadelta, Adafactor, Adagrad, Adam, Adamax, AdamW, NAdam,  # noqa: F401
                      Optimizer, RAdam, RMSprop, Rprop)
from . import lr_scheduler, swa_utils

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "Adadelta", "NAdam", "RAdam", "LBFGS",
           "ASGD", "Rprop", "Adafactor", "lr_scheduler", "swa_utils"]
