"""torch.nn.utils.rnn for the torch facade: PackedSequence and the padding / packing / unpacking functions."""
from __future__ import annotations

from ....nn.rnn_utils import (PackedSequence, invert_permutation, pack_padded_sequence,  # noqa: F401
                              pack_sequence, pad_packed_sequence, pad_sequence, unpack_sequence, unpad_sequence)

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "pack_sequence", "unpad_sequence", "unpack_sequence"]
