"""paddle.metric.accuracy: the share of rows whose label is among the top `k` scores."""
from __future__ import annotations

import numpy as np

from . import _ops


def accuracy(input, label, k: int = 1, correct=None, total=None, name=None):
    """`input` [N, C] scores, `label` [N, 1] class indices; a float32 0-D tensor. `correct` /
    `total` (int32 tensors), where given, receive the counts."""
    if label.ndim != 2:
        raise ValueError(f"(InvalidArgument) ShapeError: label's dimensions of AccuracyOp must be 2. But received "
                         f"label's dimensions = {label.ndim}, label's shape = {list(label.shape)}")
    width = input.shape[-1]
    if k > width:
        raise ValueError(f"(InvalidArgument) The rank ({k}) of the input 'k' for topk op must be less than or equal "
                         f"to {width}.")
    _, top = _ops.topk(input, k)
    hits = int((top._host() == label._host().reshape(-1, 1)).any(axis=1).sum())
    n = int(input.shape[0])
    for holder, value in ((correct, hits), (total, n)):
        if holder is not None:
            holder._data = np.asarray(value, dtype=holder._data.dtype)  # paddle leaves a 0-D count there
            holder._bump()
    return input._new(np.asarray(hits / n if n else 0.0, dtype=np.float32))


__all__ = ["accuracy"]
