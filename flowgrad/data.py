"""Datasets, samplers, collation and DataLoader, framework-neutral: `torch.utils.data` presents
them (and so can any facade); the facade supplies the Tensor class collation builds.

Loading runs in the calling process. With `num_workers=N` the N workers are emulated there, with
PyTorch's semantics: each has its own (shallow) copy of the dataset, random streams seeded from
the loader's base seed and its id, `worker_init_fn(id)` run first and `get_worker_info()` while its
code runs; batches come in PyTorch's order (map-style: the sampler's; iterable-style: the workers'
batches in turn). Shuffling draws a permutation from the given generator, or from a generator
seeded off the default one, so a `manual_seed` makes the batch order reproducible (the order
differs from PyTorch's: the random streams differ).
"""
from __future__ import annotations

import bisect
import collections.abc
import contextlib
import copy
import dataclasses
import itertools
import math
import multiprocessing
import random
import re
import threading
import time
import traceback
import warnings
from typing import Generic, Iterable, NoReturn, Sequence, TypeVar

import numpy as np

from . import backend, creation, ops
from .autograd.policy import TORCH
from .tensor import Tensor as _CoreTensor

T_co = TypeVar("T_co", covariant=True)

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ConcatDataset", "Subset", "random_split", "Sampler",
           "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "BatchSampler", "DataLoader",
           "get_worker_info"]


# ------------------------------------------------------------------------------------ datasets

class Dataset(Generic[T_co]):
    def __getitem__(self, index) -> T_co:
        raise TORCH.errors.data_getitem()

    def __add__(self, other: "Dataset") -> "ConcatDataset":
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co], Iterable[T_co]):
    """A stream of samples; abstract until a subclass defines `__iter__`."""

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
        if not all(tensors[0]._data.shape[0] == t._data.shape[0] for t in tensors):
            raise tensors[0].policy.errors.data_tensor_sizes()
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0]._data.shape[0]


class ConcatDataset(Dataset):
    def __init__(self, datasets) -> None:
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise TORCH.errors.data_concat_empty()
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise TORCH.errors.data_concat_iterable()
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise TORCH.errors.data_concat_index()
            idx = len(self) + idx
        d = bisect.bisect_right(self.cumulative_sizes, idx)
        sample_idx = idx if d == 0 else idx - self.cumulative_sizes[d - 1]
        return self.datasets[d][sample_idx]


class ZippedDataset(Dataset):
    """Sample i is the fields of sample i of each dataset (of equal lengths) in turn, as one tuple
    (a sample that is not a list or tuple is one field)."""

    def __init__(self, datasets) -> None:
        self.datasets = list(datasets)

    def __len__(self) -> int:
        return len(self.datasets[0])

    def __getitem__(self, idx) -> tuple:
        fields = []
        for d in self.datasets:
            sample = d[idx]
            fields.extend(sample if isinstance(sample, (list, tuple)) else [sample])
        return tuple(fields)


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
                raise TORCH.errors.data_split_fraction(index=i)
            subset_lengths.append(int(math.floor(len(dataset) * frac)))
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        lengths = subset_lengths
        for i, n in enumerate(lengths):
            if n == 0:
                warnings.warn(TORCH.errors.data_split_empty(index=i), stacklevel=2)
    if sum(lengths) != len(dataset):
        raise TORCH.errors.data_split_sum()
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


def _draw_seed(generator) -> int:
    """A seed drawn from `generator` (the default one when None), as PyTorch draws one with random_()."""
    return int((generator or creation.default_generator).rng.integers(0, 2 ** 63 - 1))


def _fresh_generator(generator):
    if generator is not None:
        return generator
    return creation.Generator().manual_seed(_draw_seed(None))


class RandomSampler(Sampler[int]):
    def __init__(self, data_source, replacement: bool = False, num_samples=None, generator=None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TORCH.errors.data_replacement(value=self.replacement)
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise TORCH.errors.data_num_samples(value=self.num_samples)

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
            raise TORCH.errors.data_batch_size(value=batch_size)
        if not isinstance(drop_last, bool):
            raise TORCH.errors.data_drop_last(value=drop_last)
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


def make_collation(Tensor: type) -> tuple:
    """`default_collate` and `default_convert` building tensors of a facade's `Tensor` class."""
    policy = Tensor.policy

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
                raise policy.errors.data_collate_sizes()
            transposed = list(zip(*batch))
            if isinstance(elem, tuple):
                return [default_collate(samples) for samples in transposed]
            return [default_collate(samples) for samples in transposed]
        raise policy.errors.data_collate_type(type=type(elem))

    return default_collate, default_convert


# ------------------------------------------------------------------------------------- workers

@dataclasses.dataclass(frozen=True)
class WorkerInfo:
    """What `get_worker_info()` returns while a DataLoader worker's code runs."""

    id: int
    num_workers: int
    seed: int
    dataset: object
    rng: object = None
    worker_method: str | None = "multiprocessing"


_current = threading.local()


def get_worker_info() -> WorkerInfo | None:
    """The running worker's WorkerInfo; None outside a worker."""
    return getattr(_current, "info", None)


class _KeyErrorMessage(str):
    """A KeyError's text that prints without quotes (PyTorch's KeyErrorMessage)."""

    __slots__ = ()

    def __repr__(self):
        return self


class _Fetcher:
    """Turns what the sampler gives into a batch (PyTorch's dataset fetchers): indices are looked up
    in a map-style dataset; an iterable dataset's iterator is read `batch_size` samples at a time."""

    def __init__(self, loader: "DataLoader", dataset) -> None:
        self.loader, self.dataset = loader, dataset
        self.iterator = iter(dataset) if loader._iterable else None
        self.ended = False

    def fetch(self, index):
        loader = self.loader
        if self.iterator is None:
            if loader.batch_sampler is None:
                return loader.collate_fn(self.dataset[index])
            getitems = getattr(self.dataset, "__getitems__", None)
            return loader.collate_fn(getitems(index) if callable(getitems) else [self.dataset[i] for i in index])
        if self.ended:
            raise StopIteration
        if loader.batch_size is None:
            return loader.collate_fn(next(self.iterator))
        batch = list(itertools.islice(self.iterator, loader.batch_size))
        if len(batch) < loader.batch_size:
            self.ended = True
        if not batch or (loader.drop_last and len(batch) < loader.batch_size):
            raise StopIteration
        return loader.collate_fn(batch)


class _Worker:
    """A DataLoader worker run in the calling process: a shallow copy of the dataset (attributes its
    `worker_init_fn` sets stay with it), random streams seeded as PyTorch seeds a worker's (Python's
    `random` and flowgrad's default generator with base_seed + id, NumPy's global one from both),
    swapped in with its WorkerInfo whenever its code runs."""

    def __init__(self, loader: "DataLoader", worker_id: int, base_seed: int) -> None:
        seed = base_seed + worker_id
        self.info = WorkerInfo(id=worker_id, num_workers=loader.num_workers, seed=seed,
                               dataset=copy.copy(loader.dataset))
        self.python_state = random.Random(seed).getstate()
        np_seed = np.random.SeedSequence([worker_id, base_seed]).generate_state(4)
        self.numpy_state = np.random.RandomState(np_seed).get_state()
        gen = creation.Generator().manual_seed(seed)
        self.generator = (gen.rng, gen.initial_seed())
        self.active = True
        self.init_error = None
        self.fetcher = None
        with self.running():
            try:
                if loader.worker_init_fn is not None:
                    loader.worker_init_fn(worker_id)
                self.fetcher = _Fetcher(loader, self.info.dataset)
            except Exception as exc:  # reported with each batch asked of this worker
                self.init_error, self.init_traceback = exc, exc.__traceback__

    @contextlib.contextmanager
    def running(self):
        """Run the enclosed code as this worker: its random streams and WorkerInfo in, then back out."""
        default = creation.default_generator
        saved = (random.getstate(), np.random.get_state(), (default.rng, default._seed), get_worker_info())
        random.setstate(self.python_state)
        np.random.set_state(self.numpy_state)
        default.rng, default._seed = self.generator
        _current.info = self.info
        try:
            yield
        finally:
            self.python_state, self.numpy_state = random.getstate(), np.random.get_state()
            self.generator = (default.rng, default._seed)
            random.setstate(saved[0])
            np.random.set_state(saved[1])
            default.rng, default._seed = saved[2]
            _current.info = saved[3]

    def restart(self, loader: "DataLoader") -> None:
        """A persistent worker's next epoch: a fresh pass over its dataset copy."""
        self.active = True
        with self.running():
            self.fetcher = _Fetcher(loader, self.info.dataset)


def _reraise(policy, exc: Exception, worker_id: int) -> NoReturn:
    """The worker's exception as PyTorch re-raises it in the main process: same class, the text
    naming the worker and carrying the original traceback."""
    trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    msg = str(policy.errors.data_worker_raised(type=type(exc).__name__, worker=worker_id, trace=trace))
    cls = type(exc)
    if cls is KeyError:
        msg = _KeyErrorMessage(msg)
    elif getattr(cls, "message", None):
        raise cls(message=msg) from None
    try:
        wrapped = cls(msg)
    except Exception:
        raise RuntimeError(msg) from None
    raise wrapped from None


def _pinned(data):
    """`data` with its tensors (and whatever else has a `pin_memory`) in page-locked memory, its
    containers rebuilt as PyTorch's loader rebuilds them."""
    if isinstance(data, _CoreTensor) or hasattr(data, "pin_memory"):
        return data.pin_memory()
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        items = {k: _pinned(v) for k, v in data.items()}
        try:
            if isinstance(data, collections.abc.MutableMapping):
                out = copy.copy(data)
                out.update(items)
                return out
            return type(data)(items)
        except TypeError:
            return items
    if isinstance(data, tuple):
        parts = [_pinned(d) for d in data]
        return type(data)(*parts) if hasattr(data, "_fields") else type(data)(parts)
    if isinstance(data, collections.abc.Sequence):
        parts = [_pinned(d) for d in data]
        try:
            if isinstance(data, collections.abc.MutableSequence):
                out = copy.copy(data)
                out[:] = parts
                return out
            return type(data)(parts)
        except TypeError:
            return parts
    return data


class _LoaderIter:
    """One pass over a DataLoader (PyTorch's single- and multi-process iterators in one): batches
    are fetched in this process, each by the worker whose turn it is when there are workers."""

    def __init__(self, loader: "DataLoader") -> None:
        self.loader = loader
        base_seed = _draw_seed(loader.generator)
        policy = loader._tensor_cls.policy
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn(policy.errors.data_pin_memory_device(device=loader.pin_memory_device), stacklevel=3)
        self.pin = loader.pin_memory and loader._can_pin()
        if loader.pin_memory and not self.pin:
            warnings.warn(policy.errors.data_pin_memory_unavailable(), stacklevel=3)
        if loader.num_workers == 0 and loader.timeout != 0:
            raise policy.errors.data_single_process_timeout()
        self.main = _Fetcher(loader, loader.dataset) if loader.num_workers == 0 else None
        self.workers = [_Worker(loader, i, base_seed) for i in range(loader.num_workers)]
        self.reset(first=True)

    def reset(self, first: bool = False) -> None:
        loader = self.loader
        sampler = loader.batch_sampler if loader.batch_sampler is not None else loader.sampler
        self.indices = itertools.repeat(None) if loader._iterable else iter(sampler)
        self.turns = itertools.cycle(self.workers)
        if not first:
            for w in self.workers:
                w.restart(loader)

    def __iter__(self) -> "_LoaderIter":
        return self

    def __len__(self) -> int:
        return len(self.loader)

    def __next__(self):
        batch = self._fetch()
        return _pinned(batch) if self.pin else batch

    def _fetch(self):
        if self.main is not None:
            return self.main.fetch(next(self.indices))
        loader = self.loader
        while True:
            worker = next((w for w in itertools.islice(self.turns, len(self.workers)) if w.active), None)
            if worker is None:
                raise StopIteration
            index = next(self.indices)
            start = time.monotonic()
            try:
                if worker.init_error is not None:
                    raise worker.init_error.with_traceback(worker.init_traceback)
                with worker.running():
                    batch = worker.fetcher.fetch(index)
            except StopIteration:
                if not loader._iterable:
                    raise
                worker.active = False
                continue
            except Exception as exc:
                _reraise(loader._tensor_cls.policy, exc, worker.info.id)
            if loader.timeout > 0 and time.monotonic() - start > loader.timeout:
                raise loader._tensor_cls.policy.errors.data_timed_out(timeout=loader.timeout)
            return batch


# ---------------------------------------------------------------------------------- DataLoader

_FROZEN = frozenset(("batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers"))


class DataLoader(Generic[T_co]):
    """Batches of samples from a dataset: `for x, y in DataLoader(ds, batch_size=32, shuffle=True)`."""

    _collate = _convert = None  # a facade's subclass sets them from make_collation(its Tensor)
    _tensor_cls = _CoreTensor   # ... and its Tensor class, whose policy words the loader's errors
    _can_pin = staticmethod(lambda: False)   # ... and whether an accelerator can pin batches (pin_memory=True)
    _initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers: int = 0,
                 collate_fn=None, pin_memory: bool = False, drop_last: bool = False, timeout: float = 0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *, prefetch_factor=None,
                 persistent_workers: bool = False, pin_memory_device: str = "", in_order: bool = True) -> None:
        policy = self._tensor_cls.policy
        if num_workers < 0:
            raise policy.errors.data_num_workers()
        if timeout < 0:
            raise policy.errors.data_timeout()
        if num_workers == 0 and prefetch_factor is not None:
            raise policy.errors.data_prefetch_without_workers()
        elif num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise policy.errors.data_prefetch_factor()
        if persistent_workers and num_workers == 0:
            raise policy.errors.data_persistent_without_workers()
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in (False, None):
                raise policy.errors.data_iterable_option(option="shuffle", value=shuffle)
            if sampler is not None:
                raise policy.errors.data_iterable_option(option="sampler", value=sampler)
            if batch_sampler is not None:
                raise policy.errors.data_iterable_option(option="batch_sampler", value=batch_sampler)
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise policy.errors.data_sampler_shuffle()
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise policy.errors.data_batch_sampler_exclusive()
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise policy.errors.data_no_batch_drop_last()
        if sampler is None and not self._iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = (self._collate if batch_size is not None or batch_sampler is not None else self._convert)
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._iterator = None
        self._initialized = True

    @property
    def multiprocessing_context(self):
        return self._multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context) -> None:
        """Checked as PyTorch checks it; a start method name becomes its context. The workers run in
        this process, so no process is ever started with it."""
        if context is not None:
            if self.num_workers == 0:
                raise self._tensor_cls.policy.errors.data_context_without_workers(num_workers=self.num_workers)
            if isinstance(context, str):
                methods = multiprocessing.get_all_start_methods()
                if context not in methods:
                    raise self._tensor_cls.policy.errors.data_context_method(methods=methods, context=context)
                context = multiprocessing.get_context(context)
            if not isinstance(context, multiprocessing.context.BaseContext):
                raise self._tensor_cls.policy.errors.data_context_type(context=context)
        self._multiprocessing_context = context

    def __setattr__(self, attr: str, value) -> None:
        if self._initialized and attr in _FROZEN:
            raise self._tensor_cls.policy.errors.data_attribute_frozen(attr=attr, cls=type(self).__name__)
        super().__setattr__(attr, value)

    def __iter__(self) -> _LoaderIter:
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = _LoaderIter(self)
            else:
                self._iterator.reset()
            return self._iterator
        return _LoaderIter(self)

    def __len__(self) -> int:
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is not None:
                n = n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)
            return n
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)
