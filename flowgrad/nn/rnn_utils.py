"""Variable-length sequences for the recurrent layers (PyTorch's torch.nn.utils.rnn): PackedSequence,
pad_sequence, pack_padded_sequence, pad_packed_sequence, pack_sequence, invert_permutation.

Packing and padding are single gathers (`index_select` over the rows of the input with one extra
padding row), so they are differentiable like any other op and keep the facade class of their input.
A packed sequence's rows are time-major: the `batch_sizes[t]` sequences still running at step t,
longest first.
"""
from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable

import numpy as np

from .. import backend, ops
from ..autograd.policy import TORCH
from ..ops import tie_order
from ..ops._args import broadcast_error, normalize_dim
from ..tensor import Tensor

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "unpad_sequence", "unpack_sequence",
           "pack_sequence"]


class PackedSequence(namedtuple("PackedSequence", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    """The rows of a batch of sequences, time-major (`batch_sizes[t]` rows at step t), with the
    permutation that sorted the batch by decreasing length and its inverse (None when unsorted).
    Built by pack_padded_sequence / pack_sequence; RNN, LSTM and GRU accept it as input."""

    __slots__ = ()

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None) -> "PackedSequence":
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is not None:
            if batch_sizes.device.type != "cpu":
                raise batch_sizes.policy.errors.rnn_batch_sizes_device()
            return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)
        if not (isinstance(data, (list, tuple)) and len(data) == 2):
            raise TORCH.errors.rnn_packed_args()
        return super().__new__(cls, data[0], data[1], sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs) -> "PackedSequence":
        """`data.to(...)`; the index tensors follow the data to its device (batch_sizes stays on the CPU)."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self

        def move(t):
            return None if t is None else t.to(data.device)
        return type(self)(data, self.batch_sizes, move(self.sorted_indices), move(self.unsorted_indices))

    def cpu(self) -> "PackedSequence":
        return self.to("cpu")

    def cuda(self, device=None) -> "PackedSequence":
        return self.to("cuda" if device is None else device)

    def pin_memory(self) -> "PackedSequence":
        def pin(t):
            return None if t is None else t.pin_memory()
        return type(self)(self.data.pin_memory(), self.batch_sizes, pin(self.sorted_indices),
                          pin(self.unsorted_indices))

    def _as(self, name: str) -> "PackedSequence":
        return self.to(dtype=self.data._dtypes[np.dtype(name)])

    def double(self) -> "PackedSequence":
        return self._as("float64")

    def float(self) -> "PackedSequence":
        return self._as("float32")

    def half(self) -> "PackedSequence":
        return self._as("float16")

    def long(self) -> "PackedSequence":
        return self._as("int64")

    def int(self) -> "PackedSequence":
        return self._as("int32")

    def short(self) -> "PackedSequence":
        return self._as("int16")

    def char(self) -> "PackedSequence":
        return self._as("int8")

    def byte(self) -> "PackedSequence":
        return self._as("uint8")

    @property
    def is_cuda(self) -> bool:
        return self.data.is_cuda


def invert_permutation(permutation):
    """The inverse of a permutation tensor (None for None)."""
    if permutation is None:
        return None
    p = permutation._data
    xp = backend.namespace(p)
    out = xp.empty_like(p)
    out[p] = xp.arange(p.size, dtype=p.dtype)
    return permutation._new(out)


# ------------------------------------------------------------------------------------- padding

def _on(like, arr: np.ndarray):
    """`arr` moved to the device of the array `like`."""
    return backend.to_device(arr, backend.device_of(like))


def _gather_rows(rows, index: np.ndarray, padding_value, shape: tuple):
    """`rows` (n, *rest) with one padding row appended, gathered by `index` (values in [0, n], n
    picking the padding row) and shaped `shape + rest`."""
    d = rows._data
    xp = backend.namespace(d)
    pad = rows._new(xp.full((1,) + d.shape[1:], padding_value, dtype=d.dtype))
    table = ops.cat([rows, pad])
    return ops.reshape(ops.index_select(table, 0, _on(d, index.reshape(-1))), shape + d.shape[1:])


def _lengths_tensor(like, lengths: np.ndarray):
    """An int64 CPU tensor of `like`'s facade."""
    return like._out_cls._make(np.asarray(lengths, dtype=np.int64))


def pad_sequence(sequences, batch_first: bool = False, padding_value: float = 0.0, padding_side: str = "right"):
    """Stack tensors of shapes (L_i, *) into (max L, B, *) (or (B, max L, *) with batch_first),
    filling with `padding_value` after (padding_side="right") or before ("left") each sequence."""
    if not isinstance(sequences, Iterable):
        raise TORCH.errors.rnn_pad_iterable(type=type(sequences))
    sequences = tuple(sequences)
    if not sequences:
        raise TORCH.errors.rnn_pad_empty()
    first = sequences[0]
    policy = first.policy
    if padding_side not in ("left", "right"):
        raise policy.errors.rnn_pad_side(side=padding_side)
    trailing = first._data.shape[1:]
    dtype = first._data.dtype
    pieces, starts = [], []
    for seq in sequences:
        target = (seq._data.shape[0],) + trailing
        if seq._data.shape != target:
            err = broadcast_error(target, seq._data.shape, policy)
            if err is not None:
                raise err
            wide = np.broadcast_shapes(target, seq._data.shape)
            if wide != target:
                raise policy.errors.rnn_pad_output_shape(out=", ".join(map(str, target)),
                                   wide=", ".join(map(str, wide)))
            seq = ops.broadcast_to(seq, target)
        pieces.append(ops.cast(seq, dtype))
        starts.append(target[0])
    lengths = np.asarray(starts, dtype=np.int64)
    max_len = int(lengths.max())
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    total = int(lengths.sum())
    t = np.arange(max_len)[:, None]                                   # (max_len, B)
    shift = (max_len - lengths) if padding_side == "left" else np.zeros_like(lengths)
    pos = t - shift
    index = np.where((pos >= 0) & (pos < lengths), offsets + pos, total)
    if batch_first:
        index = index.T
    return _gather_rows(ops.cat(pieces), index, padding_value, index.shape)


# ------------------------------------------------------------------------------------- packing

def _as_lengths(lengths, policy) -> np.ndarray:
    """Sequence lengths as an int64 NumPy vector, checked as PyTorch's packing kernel does."""
    if isinstance(lengths, Tensor):
        arr = lengths._data
        device = str(lengths.device)
        if backend.device_of(arr).type != "cpu":
            raise policy.errors.rnn_pack_lengths(ndim=arr.ndim, device=device)
        arr = arr.astype(np.int64)
    else:
        arr = np.asarray(lengths).astype(np.int64)
        device = "cpu"
    if arr.ndim != 1:
        raise policy.errors.rnn_pack_lengths(ndim=arr.ndim, device=device)
    return arr


def pack_padded_sequence(input, lengths, batch_first: bool = False, enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded batch (T, B, *) (or (B, T, *) with batch_first) of sequences of the given
    lengths. With enforce_sorted the lengths must decrease; otherwise the batch is sorted first and
    the permutation kept in the result."""
    policy = input.policy
    lens = _as_lengths(lengths, policy)
    sorted_indices = None
    batch_dim = 0 if batch_first else 1
    if not enforce_sorted:
        order = np.asarray(tie_order.sort_row(lens.tolist(), largest=True), dtype=np.int64)
        lens = lens[order]
        sorted_indices = input._new(_on(input._data, order))
        input = ops.index_select(input, batch_dim, sorted_indices)
    d = input._data
    normalize_dim(1, d.ndim)
    if d.size == 0:
        raise policy.errors.rnn_pack_empty()
    steps_total, batch = (d.shape[1], d.shape[0]) if batch_first else (d.shape[0], d.shape[1])
    if lens.shape[0] != batch:
        raise policy.errors.rnn_pack_batch(got=lens.shape[0], batch=batch)
    if lens[-1] <= 0:
        raise policy.errors.rnn_pack_nonpositive()
    if np.any(lens[1:] > lens[:-1]):
        raise policy.errors.rnn_pack_unsorted()
    batch_sizes = (lens[None, :] > np.arange(lens[0])[:, None]).sum(1)
    # the rows (t, b) with b < batch_sizes[t], time-major; steps past the padded length hold no rows
    t, b = np.nonzero(np.arange(min(int(lens[0]), steps_total))[:, None] < lens[None, :])
    index = b * steps_total + t if batch_first else t * batch + b
    rows = ops.reshape(input, (-1,) + d.shape[2:])
    data = ops.index_select(rows, 0, _on(d, index))
    return PackedSequence(data, _lengths_tensor(input, batch_sizes), sorted_indices, None)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False, padding_value: float = 0.0,
                        total_length=None):
    """Undo pack_padded_sequence: the padded batch (in the original order) and the lengths."""
    data, bs_t = sequence.data, sequence.batch_sizes
    bs = np.asarray(bs_t._host(), dtype=np.int64)
    max_seq_length = bs.shape[0]
    if total_length is not None:
        if total_length < max_seq_length:
            raise data.policy.errors.rnn_total_length(total=total_length, longest=max_seq_length)
        max_seq_length = total_length
    batch = int(bs[0])
    lengths = (bs[None, :] > np.arange(batch)[:, None]).sum(1)
    offsets = np.concatenate([[0], np.cumsum(bs)[:-1]])
    t = np.arange(max_seq_length)[:, None]
    b = np.arange(batch)[None, :]
    running = t < lengths[None, :]
    index = np.where(running, offsets[np.minimum(t, bs.shape[0] - 1)] + b, int(bs.sum()))
    if sequence.unsorted_indices is not None:
        unsorted = np.asarray(sequence.unsorted_indices._host(), dtype=np.int64)
        index, lengths = index[:, unsorted], lengths[unsorted]
    if batch_first:
        index = index.T
    padded = _gather_rows(data, index, padding_value, index.shape)
    return padded, _lengths_tensor(data, lengths)


def pack_sequence(sequences, enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of tensors of shapes (L_i, *); with enforce_sorted, longest first."""
    lengths = [int(v._data.shape[0]) for v in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)



def unpad_sequence(padded_sequences, lengths, batch_first: bool = False) -> list:
    """The sequences of a padded batch, each cut to its length (a boolean mask of one unbound row).
    As in PyTorch, a time-major batch is transposed in place first (`padded_sequences` stays so)."""
    if not batch_first:
        ops.transpose_(padded_sequences, 0, 1)
    steps = _on(lengths._data, np.arange(padded_sequences._data.shape[1]))
    return [ops.getitem(seq, steps < length._data) for seq, length in zip(ops.unbind(padded_sequences, 0), lengths)]


def unpack_sequence(packed_sequences: PackedSequence) -> list:
    """The tensors a PackedSequence was packed from, in their original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
