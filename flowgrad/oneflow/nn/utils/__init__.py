"""oneflow.nn.utils: gradient clipping, the parameter / vector conversions and, in `rnn`, the packing
of variable-length sequences."""
from __future__ import annotations

from ....nn.utils import (clip_grad_norm_, clip_grad_value_, parameters_to_vector,  # noqa: F401
                          vector_to_parameters)
from . import rnn

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "rnn", "vector_to_parameters"]
