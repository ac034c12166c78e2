"""torch.amp: `autocast` (checked; flowgrad performs no dtype conversion, see the facade kit's `amp`)
and `GradScaler` (PyTorch's dynamic loss scaling)."""
from __future__ import annotations

from ..facade import amp as _kit
from ._tensor import Tensor

_built = _kit.build(Tensor, "flowgrad.torch")
autocast = _built["autocast"]
GradScaler = _built["GradScaler"]
