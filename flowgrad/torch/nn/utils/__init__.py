"""torch.nn.utils for the torch facade: gradient clipping, parameter/vector conversion, in `rnn`
the packing of variable-length sequences, in `parametrize` and `parametrizations` parametrized tensors."""
from __future__ import annotations

from ....nn.utils import (clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_,  # noqa: F401
                          get_total_norm, parameters_to_vector, vector_to_parameters)
from . import parametrizations, parametrize, rnn

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm",
           "parameters_to_vector", "parametrizations", "parametrize", "rnn", "vector_to_parameters"]
