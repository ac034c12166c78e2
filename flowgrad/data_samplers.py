"""Samplers beyond PyTorch's set, framework-neutral mechanism (argument checks and their messages
are the presenting facade's): weighted draws from NumPy's global random state, and a batch sampler
that shards a dataset among replicas, padded to equal shares, shuffled by a seed that is the epoch."""
from __future__ import annotations

import math

import numpy as np

from .data import Sampler


def weighted_draws(weights, num_samples: int, replacement: bool) -> np.ndarray:
    """`num_samples` indices per row of a 1-D or 2-D array of non-negative weights (one row of draws
    per row of weights), drawn with `np.random.choice`; each row is divided by the vector of row
    sums, as paddle divides it (which normalises exactly the 1-D case)."""
    rows = np.asarray(weights).reshape((-1, np.shape(weights)[-1]))
    probs = rows / rows.sum(axis=1)
    return np.array([np.random.choice(rows.shape[1], num_samples, replacement, p) for p in probs])


class ShardedBatchSampler(Sampler[list]):
    """Batches of replica `rank`'s share of `dataset` among `num_replicas`: indices padded (by
    repeating from the start) to a multiple of `num_replicas`, shuffled (`shuffle`) by
    `np.random.RandomState(epoch)` with the epoch advancing after each pass, then dealt out one
    batch per replica in turn, the remainder split evenly at the end."""

    def __init__(self, dataset, batch_size: int, num_replicas: int, rank: int, shuffle: bool,
                 drop_last: bool) -> None:
        self.dataset, self.batch_size, self.shuffle, self.drop_last = dataset, batch_size, shuffle, drop_last
        self.num_replicas, self.rank, self.epoch = num_replicas, rank, 0
        self.num_samples = math.ceil(len(dataset) / num_replicas)
        self.total_size = self.num_samples * num_replicas

    def _share(self) -> list:
        indices = list(range(len(self.dataset)))
        pad = self.total_size - len(indices)
        if pad:
            indices += (indices * math.ceil(pad / len(indices)))[:pad]
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.num_replicas == 1:
            return indices
        bs, n = self.batch_size, self.num_replicas
        tail = self.total_size % (bs * n)
        share = []
        for start in range(self.rank * bs, len(indices) - tail, bs * n):
            share.extend(indices[start:start + bs])
        each = tail // n
        share.extend(indices[len(indices) - tail:][self.rank * each:(self.rank + 1) * each])
        return share

    def __iter__(self):
        share = self._share()
        for start in range(0, len(share), self.batch_size):
            batch = share[start:start + self.batch_size]
            if len(batch) == self.batch_size or not self.drop_last:
                yield batch

    def __len__(self) -> int:
        return (self.num_samples + (0 if self.drop_last else self.batch_size - 1)) // self.batch_size

    def set_epoch(self, epoch: int) -> None:
        self.epoch = epoch


__all__ = ["weighted_draws", "ShardedBatchSampler"]
