"""paddle.io: paddle's datasets, samplers and DataLoader (signatures, argument checks, messages)
over the framework-neutral `flowgrad.data`, collating into paddle tensors. Loading runs in the
calling process; the arguments that only place or buffer data (`places`, `use_buffer_reader`,
`use_shared_memory`, `return_list`, which dynamic mode always treats as True) change nothing on
flowgrad's one CPU device."""
from __future__ import annotations

from collections.abc import Iterable as _Iterable

import numpy as _np

from ... import data as _data
from ... import data_samplers as _samplers
from ...data import get_worker_info
from ...facade import data as _kit
from .._tensor import Tensor

_loader = _kit.build(__name__, Tensor)["DataLoader"]


class Dataset(_data.Dataset):
    """Map-style dataset: define `__getitem__` and `__len__`."""

    def __getitem__(self, idx):
        raise NotImplementedError(f"'__getitem__' not implement in class {type(self).__name__}")

    def __len__(self) -> int:
        raise NotImplementedError(f"'__len__' not implement in class {type(self).__name__}")


class IterableDataset(Dataset, _data.IterableDataset):
    """A stream of samples: define `__iter__`."""

    def __iter__(self):
        raise NotImplementedError(f"'__iter__' not implement in class {type(self).__name__}")

    def __getitem__(self, idx):
        raise RuntimeError(f"'__getitem__' should not be called for IterableDataset{type(self).__name__}")

    def __len__(self) -> int:
        raise RuntimeError(f"'__len__' should not be called for IterableDataset{type(self).__name__}")


class TensorDataset(_data.TensorDataset, Dataset):
    """Samples are tuples of the rows of a list of tensors."""

    def __init__(self, tensors) -> None:
        _data.TensorDataset.__init__(self, *tensors)


class ChainDataset(_data.ChainDataset, IterableDataset):
    pass


class ConcatDataset(_data.ConcatDataset, Dataset):
    pass


class Subset(_data.Subset, Dataset):
    pass


class ComposeDataset(_data.ZippedDataset, Dataset):
    """Sample i is the fields of sample i of each dataset in turn, as one tuple."""

    def __init__(self, datasets) -> None:
        _data.ZippedDataset.__init__(self, datasets)
        if not self.datasets:
            raise AssertionError("input datasets should not be empty")
        for i, d in enumerate(self.datasets):
            if not isinstance(d, _data.Dataset):
                raise AssertionError("each input dataset should be paddle.io.Dataset")
            if isinstance(d, _data.IterableDataset):
                raise AssertionError("paddle.io.IterableDataset not supported")
            if i > 0 and len(d) != len(self.datasets[i - 1]):
                raise AssertionError("lengths of datasets should be same")


def random_split(dataset, lengths, generator=None) -> list:
    return [Subset(s.dataset, s.indices) for s in _data.random_split(dataset, lengths, generator)]


Sampler = _data.Sampler
SequenceSampler = _data.SequentialSampler
RandomSampler = _data.RandomSampler
SubsetRandomSampler = _data.SubsetRandomSampler


class WeightedRandomSampler(_data.Sampler):
    """`num_samples` indices drawn with probabilities proportional to `weights` (NumPy's global
    random state draws them)."""

    def __init__(self, weights, num_samples: int, replacement: bool = True) -> None:
        if not isinstance(num_samples, int) or num_samples <= 0:
            raise ValueError("num_samples should be a positive integer")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value")
        self.weights, self.num_samples, self.replacement = weights, num_samples, replacement

    def __iter__(self):
        weights = _np.array(self.weights) if isinstance(self.weights, (list, tuple)) else self.weights
        if not isinstance(weights, _np.ndarray):
            raise AssertionError("weights should be paddle.Tensor, numpy.ndarray, list or tuple")
        if weights.ndim > 2:
            raise AssertionError("weights should be a 1-D or 2-D array")
        rows = weights.reshape((-1, weights.shape[-1]))
        if not _np.all(rows >= 0.0):
            raise AssertionError("weights should be positive value")
        if _np.any(rows == _np.inf):
            raise AssertionError("weights should not be INF")
        positive = _np.sum(rows > 0.0, axis=1)
        if not _np.all(positive > 0):
            raise AssertionError("weights should have positive values")
        if not self.replacement and not _np.all(positive >= self.num_samples):
            raise AssertionError("weights positive value number should not less than num_samples when "
                                 "replacement=False")
        return iter(_samplers.weighted_draws(rows, self.num_samples, self.replacement).reshape(-1).tolist())

    def __len__(self) -> int:
        return self.num_samples * (int(_np.prod(self.weights.shape)) // self.weights.shape[-1])


class BatchSampler(_data.BatchSampler):
    """Batches of indices from `sampler`, or from a sequential (`shuffle=True`: random) sampler over `dataset`."""

    def __init__(self, dataset=None, sampler=None, shuffle: bool = False, batch_size: int = 1,
                 drop_last: bool = False) -> None:
        if dataset is None:
            if sampler is None:
                raise AssertionError("either dataset or sampler should be set")
            if not isinstance(sampler, (_data.Sampler, _Iterable)):
                raise AssertionError(f"sampler should be either paddle.io.Sampler or Iterable, but got {type(sampler)}")
            if shuffle:
                raise AssertionError("shuffle should be False when sampler is set")
        else:
            if isinstance(dataset, _data.IterableDataset):
                raise AssertionError("dataset should not be a paddle.io.IterableDataset")
            if sampler is not None:
                raise AssertionError("should not set both dataset and sampler")
            if not isinstance(shuffle, bool):
                raise AssertionError(f"shuffle should be a boolean value, but got {type(shuffle)}")
            sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        if not (isinstance(batch_size, int) and batch_size > 0):
            raise AssertionError(f"batch_size should be a positive integer, but got {batch_size}")
        if not isinstance(drop_last, bool):
            raise AssertionError(f"drop_last should be a boolean value, but got {type(drop_last)}")
        _data.BatchSampler.__init__(self, sampler, batch_size, drop_last)
        self.shuffle = shuffle


class DistributedBatchSampler(_samplers.ShardedBatchSampler, BatchSampler):
    """Batches of one replica's share of `dataset` (`rank` of `num_replicas`; a single process is
    replica 0 of 1); `shuffle` reshuffles per epoch by `np.random.RandomState(epoch)`."""

    def __init__(self, dataset, batch_size: int, num_replicas: int | None = None, rank: int | None = None,
                 shuffle: bool = False, drop_last: bool = False) -> None:
        if not (isinstance(batch_size, int) and batch_size > 0):
            raise AssertionError("batch_size should be a positive integer")
        if not isinstance(shuffle, bool):
            raise AssertionError("shuffle should be a boolean value")
        if not isinstance(drop_last, bool):
            raise AssertionError("drop_last should be a boolean number")
        if num_replicas is not None and not (isinstance(num_replicas, int) and num_replicas > 0):
            raise AssertionError("num_replicas should be a positive integer")
        if rank is not None and not (isinstance(rank, int) and rank >= 0):
            raise AssertionError("rank should be a non-negative integer")
        _samplers.ShardedBatchSampler.__init__(self, dataset, batch_size, 1 if num_replicas is None else num_replicas,
                                               0 if rank is None else rank, shuffle, drop_last)

    @property
    def nranks(self) -> int:
        return self.num_replicas

    @property
    def local_rank(self) -> int:
        return self.rank


class DataLoader(_loader):
    """Batches of a dataset as lists of paddle tensors: `for x, y in DataLoader(ds, batch_size=32, shuffle=True)`."""

    def __init__(self, dataset, feed_list=None, places=None, return_list: bool = True, batch_sampler=None,
                 batch_size: int | None = 1, shuffle: bool = False, drop_last: bool = False, collate_fn=None,
                 num_workers: int = 0, use_buffer_reader: bool = True, prefetch_factor: int = 2,
                 use_shared_memory: bool = True, timeout: int = 0, worker_init_fn=None,
                 persistent_workers: bool = False) -> None:
        if num_workers < 0:
            raise AssertionError("num_workers should be a non-negative value")
        if prefetch_factor <= 0:
            raise AssertionError("prefetch_factor should be a positive value")
        if timeout < 0:
            raise AssertionError("timeout should be a non-negative value")
        iterable = isinstance(dataset, _data.IterableDataset)
        if iterable and shuffle:
            raise ValueError(f"IterableDataset not support shuffle, but got shuffle={shuffle}")
        if iterable and batch_sampler is not None:
            raise ValueError("IterableDataset expect unspecified batch_sampler")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or drop_last:
                raise AssertionError("batch_size/shuffle/drop_last should not be set when batch_sampler is given")
        elif batch_size is not None:
            if batch_size <= 0:
                raise AssertionError("batch_size should be None or a positive value when batch_sampler is not given")
            if not iterable:
                batch_sampler = BatchSampler(dataset=dataset, batch_size=batch_size, shuffle=shuffle,
                                             drop_last=drop_last)
        self.return_list, self.feed_list, self.places = True, feed_list, places
        workers = num_workers > 0
        _loader.__init__(self, dataset, batch_size=batch_size if iterable or batch_sampler is None else 1,
                         batch_sampler=batch_sampler, num_workers=num_workers, collate_fn=collate_fn,
                         drop_last=drop_last if iterable else False, timeout=timeout, worker_init_fn=worker_init_fn,
                         prefetch_factor=prefetch_factor if workers else None,
                         persistent_workers=persistent_workers and workers)


__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ChainDataset", "ConcatDataset", "Subset", "random_split",
           "ComposeDataset", "Sampler", "SequenceSampler", "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
           "BatchSampler", "DistributedBatchSampler", "DataLoader",
           "get_worker_info"]
