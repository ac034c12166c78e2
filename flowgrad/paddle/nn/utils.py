"""paddle.nn.utils' gradient clipping over the neutral flowgrad.nn.utils, with paddle's signatures
(no `foreach`), its norm types and wording."""
from __future__ import annotations

import math

from ...nn import utils as _utils
from .. import _creation
from .._policy import PADDLE
from .._tensor import Tensor

#: The norms paddle's clip_grad_norm_ computes.
NORM_TYPES = (math.inf, 0.0, 1.0, 2.0)


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False):
    """Scale the gradients in place so that their joint norm is at most `max_norm`; returns the norm
    before clipping (0.0 where no parameter has a gradient)."""
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    if norm_type not in NORM_TYPES:
        raise PADDLE.errors.clip_norm_type()
    if all(p.grad is None for p in params):
        return _creation.to_tensor(0.0)
    return _utils.clip_grad_norm_(params, max_norm, float(norm_type), error_if_nonfinite)


def clip_grad_value_(parameters, clip_value: float) -> None:
    """Clip each gradient in place to [-clip_value, clip_value]."""
    _utils.clip_grad_value_(parameters, clip_value)


__all__ = ["clip_grad_norm_", "clip_grad_value_"]
