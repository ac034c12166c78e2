"""Framework-neutral optimizers and learning-rate schedulers with PyTorch's update formulas.
Updates run under no_grad and change each parameter's array in place."""
from __future__ import annotations

from . import lr_scheduler
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .adamax import Adamax
from .lbfgs import LBFGS
from .optimizer import Optimizer, required
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "LBFGS", "lr_scheduler", "required"]
