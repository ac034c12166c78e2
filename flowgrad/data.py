"""Datasets, samplers, collation and DataLoader, framework-neutral: `torch.utils.data` presents
them (and so can any facade); the facade supplies the Tensor class collation builds.

Loading runs in the calling process (`num_workers` is accepted and ignored). Shuffling draws a
permutation from the given generator, or from a generator seeded off the default one, so a
`manual_seed` makes the batch order reproducible (the order differs from PyTorch's: the random
streams differ).
"""
from __future__ import annotations

import bisect
import collections.abc
import itertools
import math
import re
import warnings
from typing import Generic, Iterator, Sequence, TypeVar

import numpy as np

from . import backend, creation, ops
from .tensor import Tensor as _CoreTensor

T_co = TypeVar("T_co", covariant=True)

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ConcatDataset", "Subset", "random_split", "Sampler",
           "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "BatchSampler", "DataLoader",
           "get_worker_info"]


# ------------------------------------------------------------------------------------ datasets

class Dataset(Generic[T_co]):
    def __getitem__(self, index) -> T_co:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: "Dataset") -> "ConcatDataset":
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co]):
    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other):
        return ChainDataset([self, other])


class ChainDataset(IterableDataset):
    def __init__(self, datasets) -> None:
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            yield from d


class TensorDataset(Dataset):
    """Samples are tuples of the tensors' rows."""

    def __init__(self, *tensors) -> None:
        if not all(tensors[0].size(0) == t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class ConcatDataset(Dataset):
    def __init__(self, datasets) -> None:
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        d = bisect.bisect_right(self.cumulative_sizes, idx)
        sample_idx = idx if d == 0 else idx - self.cumulative_sizes[d - 1]
        return self.datasets[d][sample_idx]


class Subset(Dataset):
    def __init__(self, dataset, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices):
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[i] for i in indices])
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset, lengths, generator=None) -> list:
    """Split into non-overlapping subsets of the given lengths (or fractions summing to 1)."""
    generator = generator or creation.default_generator
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            subset_lengths.append(int(math.floor(len(dataset) * frac)))
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
        for i, n in enumerate(lengths):
            if n == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                              stacklevel=2)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = _randperm(sum(lengths), generator)
    out = []
    offset = 0
    for n in lengths:
        out.append(Subset(dataset, indices[offset:offset + n]))
        offset += n
    return out


# ------------------------------------------------------------------------------------ samplers

class Sampler(Generic[T_co]):
    def __init__(self, data_source=None) -> None:
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


def _randperm(n: int, generator) -> list:
    return creation.randperm(n, None, None, generator).tolist()


def _fresh_generator(generator):
    if generator is not None:
        return generator
    seed = int(creation.default_generator.rng.integers(0, 2 ** 63 - 1))
    return creation.Generator().manual_seed(seed)


class RandomSampler(Sampler[int]):
    def __init__(self, data_source, replacement: bool = False, num_samples=None, generator=None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={self.replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        gen = _fresh_generator(self.generator)
        if self.replacement:
            yield from creation.randint(0, n, (self.num_samples,), "int64", None, gen).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from _randperm(n, gen)
        yield from _randperm(n, gen)[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler[int]):
    def __init__(self, indices, generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in _randperm(len(self.indices), self.generator):
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class BatchSampler(Sampler[list]):
    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        it = iter(self.sampler)
        while True:
            batch = list(itertools.islice(it, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size


# ----------------------------------------------------------------------------------- collation

_NP_STR = re.compile(r"[SaUO]")
_COLLATE_ERR = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}")


def make_collation(Tensor: type) -> tuple:
    """`default_collate` and `default_convert` building tensors of a facade's `Tensor` class."""

    def as_tensor(data):
        if isinstance(data, np.ndarray) and data.dtype in backend.DTYPES:
            return Tensor._make(data)
        return Tensor._make(creation.array_from(data, None, None))

    def default_convert(data):
        if isinstance(data, _CoreTensor):
            return data
        if isinstance(data, np.ndarray) and not _NP_STR.search(data.dtype.str):
            return as_tensor(data)
        if isinstance(data, np.generic) and not _NP_STR.search(data.dtype.str):
            return as_tensor(data)
        if isinstance(data, collections.abc.Mapping):
            return type(data)({k: default_convert(v) for k, v in data.items()}) if type(data) is not dict else \
                {k: default_convert(v) for k, v in data.items()}
        if isinstance(data, tuple) and hasattr(data, "_fields"):
            return type(data)(*(default_convert(d) for d in data))
        if isinstance(data, tuple):
            return [default_convert(d) for d in data]
        if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
            return [default_convert(d) for d in data]
        return data


    def default_collate(batch):
        """Stack a list of samples into a batch, recursing through tuples, lists and dicts."""
        elem = batch[0]
        if isinstance(elem, _CoreTensor):
            return ops.stack(batch, 0)
        if isinstance(elem, np.ndarray) and not _NP_STR.search(elem.dtype.str):
            return default_collate([as_tensor(b) for b in batch])
        if isinstance(elem, np.generic) and not _NP_STR.search(elem.dtype.str):
            return as_tensor(np.stack(batch))
        if isinstance(elem, bool):
            return Tensor._make(creation.array_from(batch, None, None))
        if isinstance(elem, float):
            return Tensor._make(creation.array_from(batch, np.float64, None))
        if isinstance(elem, int):
            return Tensor._make(creation.array_from(batch, None, None))
        if isinstance(elem, (str, bytes)):
            return batch
        if isinstance(elem, collections.abc.Mapping):
            out = {key: default_collate([d[key] for d in batch]) for key in elem}
            return out if type(elem) is dict else type(elem)(out)
        if isinstance(elem, tuple) and hasattr(elem, "_fields"):
            return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
        if isinstance(elem, collections.abc.Sequence):
            it = iter(batch)
            size = len(next(it))
            if not all(len(e) == size for e in it):
                raise RuntimeError("each element in list of batch should be of equal size")
            transposed = list(zip(*batch))
            if isinstance(elem, tuple):
                return [default_collate(samples) for samples in transposed]
            return [default_collate(samples) for samples in transposed]
        raise TypeError(_COLLATE_ERR.format(type(elem)))

    return default_collate, default_convert


def get_worker_info():
    return None


# ---------------------------------------------------------------------------------- DataLoader


class DataLoader(Generic[T_co]):
    """Batches of samples from a dataset: `for x, y in DataLoader(ds, batch_size=32, shuffle=True)`."""

    _collate = _convert = None  # a facade's subclass sets them from make_collation(its Tensor)

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers: int = 0,
                 collate_fn=None, pin_memory: bool = False, drop_last: bool = False, timeout: float = 0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *, prefetch_factor=None,
                 persistent_workers: bool = False, pin_memory_device: str = "", in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        self.dataset = dataset
        self.num_workers = num_workers
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.generator = generator
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if isinstance(shuffle, bool) and shuffle:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 f"shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got "
                                 f"sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler option, but "
                                 f"got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                             "drop_last")
        if sampler is None and not self._iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        if collate_fn is None:
            collate_fn = (self._collate if batch_size is not None or batch_sampler is not None else self._convert)
        self.collate_fn = collate_fn

    def _fetch(self, indices):
        getitems = getattr(self.dataset, "__getitems__", None)
        if callable(getitems):
            return getitems(indices)
        return [self.dataset[i] for i in indices]

    def __iter__(self):
        if self._iterable:
            it = iter(self.dataset)
            if self.batch_size is None:
                for sample in it:
                    yield self.collate_fn(sample)
                return
            while True:
                batch = list(itertools.islice(it, self.batch_size))
                if not batch or (self.drop_last and len(batch) < self.batch_size):
                    return
                yield self.collate_fn(batch)
        elif self.batch_sampler is not None:
            for indices in self.batch_sampler:
                yield self.collate_fn(self._fetch(indices))
        else:
            for i in self.sampler:
                yield self.collate_fn(self.dataset[i])

    def __len__(self) -> int:
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is not None:
                n = n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)
            return n
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)
