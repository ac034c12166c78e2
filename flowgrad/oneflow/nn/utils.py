"""oneflow.nn.utils: gradient clipping and the parameter / vector conversions."""
from __future__ import annotations

from ...nn.utils import (clip_grad_norm_, clip_grad_value_, parameters_to_vector,  # noqa: F401
                         vector_to_parameters)

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters"]
