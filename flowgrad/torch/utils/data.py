"""torch.utils.data: the framework-neutral datasets, samplers and DataLoader (`flowgrad.data`),
collating into torch tensors."""

from ...data import *  # noqa: F401,F403
from ...data import __all__ as _neutral
from ...facade import data as _kit
from .._tensor import Tensor as _Tensor

globals().update(_kit.build(__name__, _Tensor))

__all__ = list(_neutral) + ["default_collate", "default_convert"]
