"""oneflow.nn.utils.rnn: PackedSequence and the padding / packing functions (OneFlow's set, as
PyTorch's without invert_permutation)."""
from __future__ import annotations

from ....nn.rnn_utils import (PackedSequence, pack_padded_sequence, pack_sequence,  # noqa: F401
                              pad_packed_sequence, pad_sequence)

__all__ = ["PackedSequence", "pack_padded_sequence", "pack_sequence", "pad_packed_sequence", "pad_sequence"]
