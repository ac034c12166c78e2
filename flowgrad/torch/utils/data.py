"""torch.utils.data: the framework-neutral datasets, samplers and DataLoader (`flowgrad.data`),
collating into torch tensors."""
from __future__ import annotations

from ...data import *  # noqa: F401,F403
from ...data import DataLoader as _DataLoader
from ...data import __all__ as _neutral
from ...data import make_collation
from .._tensor import Tensor

default_collate, default_convert = make_collation(Tensor)


class DataLoader(_DataLoader):
    __doc__ = _DataLoader.__doc__
    _collate = staticmethod(default_collate)
    _convert = staticmethod(default_convert)
    _tensor_cls = Tensor


__all__ = list(_neutral) + ["default_collate", "default_convert"]
