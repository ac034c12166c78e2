"""DataLoader with num_workers > 0. flowgrad runs the workers in the calling process; the batches,
their order, what `get_worker_info()` and `worker_init_fn` see, the workers' seeds and the argument
checks are PyTorch's. Each test runs on flowgrad.torch and on real torch (worker processes)."""
from __future__ import annotations

import math
import random
import re
import time

import numpy as np
import pytest


pytestmark = pytest.mark.filterwarnings("ignore:This DataLoader will create")


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def _data(torch):
    return torch.utils.data


def _batches(loader) -> list:
    return [b.tolist() for b in loader]


def _datasets(torch):
    d = _data(torch)

    class WhoLoads(d.Dataset):
        """Sample i is [i, id of the worker that loaded it]."""

        def __len__(self):
            return 10

        def __getitem__(self, i):
            info = d.get_worker_info()
            return torch.tensor([i, -1 if info is None else info.id])

    class Stream(d.IterableDataset):
        """range(start, end), the same in every worker unless a worker_init_fn narrows its copy."""

        def __init__(self, start, end):
            self.start, self.end = start, end

        def __iter__(self):
            return iter(range(self.start, self.end))

    class Sharded(Stream):
        """Each worker reads its own slice, chosen in __iter__ from get_worker_info()."""

        def __iter__(self):
            info = d.get_worker_info()
            if info is None:
                return iter(range(self.start, self.end))
            per = math.ceil((self.end - self.start) / info.num_workers)
            first = self.start + info.id * per
            return iter(range(first, min(first + per, self.end)))

    return WhoLoads, Stream, Sharded


def _shard(torch):
    """PyTorch's documented worker_init_fn: narrow this worker's copy of the dataset to its slice."""
    def init(worker_id):
        info = _data(torch).get_worker_info()
        ds = info.dataset
        per = math.ceil((ds.end - ds.start) / info.num_workers)
        first = ds.start + worker_id * per
        ds.start, ds.end = first, min(first + per, ds.end)
    return init


# ---------------------------------------------------------------------------------- map-style

def test_map_style_batches_in_sampler_order_loaded_by_the_workers_in_turn(torch):
    WhoLoads, _, _ = _datasets(torch)
    loader = _data(torch).DataLoader(WhoLoads(), batch_size=3, num_workers=3)
    assert _batches(loader) == [[[0, 0], [1, 0], [2, 0]], [[3, 1], [4, 1], [5, 1]], [[6, 2], [7, 2], [8, 2]],
                                [[9, 0]]]


def test_map_style_without_batching(torch):
    WhoLoads, _, _ = _datasets(torch)
    loader = _data(torch).DataLoader(WhoLoads(), batch_size=None, num_workers=2)
    assert _batches(loader) == [[i, i % 2] for i in range(10)]


def test_shuffled_order_does_not_depend_on_the_workers(torch):
    d = _data(torch)
    torch.manual_seed(3)
    alone = _batches(d.DataLoader(list(range(9)), batch_size=4, shuffle=True))
    torch.manual_seed(3)
    assert _batches(d.DataLoader(list(range(9)), batch_size=4, shuffle=True, num_workers=2)) == alone


def test_outside_a_worker_there_is_no_worker_info(torch):
    WhoLoads, _, _ = _datasets(torch)
    assert _data(torch).get_worker_info() is None
    assert _batches(_data(torch).DataLoader(WhoLoads(), batch_size=5)) == [[[i, -1] for i in range(5)],
                                                                           [[i, -1] for i in range(5, 10)]]


# ----------------------------------------------------------------------------- iterable-style

def test_iterable_dataset_is_read_whole_by_every_worker(torch):
    _, Stream, _ = _datasets(torch)
    loader = _data(torch).DataLoader(Stream(0, 10), batch_size=4, num_workers=2)
    assert _batches(loader) == [[0, 1, 2, 3], [0, 1, 2, 3], [4, 5, 6, 7], [4, 5, 6, 7], [8, 9], [8, 9]]


def test_each_worker_drops_its_own_last_partial_batch(torch):
    _, Stream, _ = _datasets(torch)
    loader = _data(torch).DataLoader(Stream(0, 7), batch_size=2, num_workers=3, drop_last=True)
    assert _batches(loader) == [[0, 1]] * 3 + [[2, 3]] * 3 + [[4, 5]] * 3


def test_worker_init_fn_shards_each_workers_copy(torch):
    _, Stream, _ = _datasets(torch)
    ds = Stream(3, 17)
    loader = _data(torch).DataLoader(ds, batch_size=3, num_workers=2, worker_init_fn=_shard(torch))
    assert _batches(loader) == [[3, 4, 5], [10, 11, 12], [6, 7, 8], [13, 14, 15], [9], [16]]
    assert (ds.start, ds.end) == (3, 17)   # the main process's dataset is not the workers' copy


def test_exhausted_workers_drop_out_of_the_turn(torch):
    _, Stream, Sharded = _datasets(torch)
    d = _data(torch)
    assert _batches(d.DataLoader(Stream(0, 5), batch_size=2, num_workers=3, worker_init_fn=_shard(torch))) == \
        [[0, 1], [2, 3], [4]]
    assert _batches(d.DataLoader(Sharded(0, 11), batch_size=2, num_workers=4)) == \
        [[0, 1], [3, 4], [6, 7], [9, 10], [2], [5], [8]]


def test_persistent_workers_keep_their_dataset_copies(torch):
    _, Stream, _ = _datasets(torch)
    loader = _data(torch).DataLoader(Stream(0, 6), batch_size=2, num_workers=2, persistent_workers=True,
                                     worker_init_fn=_shard(torch))
    assert _batches(loader) == _batches(loader) == [[0, 1], [3, 4], [2], [5]]


# ------------------------------------------------------------------------------ random streams

def test_workers_are_seeded_from_the_base_seed_and_leave_the_main_streams_alone(torch):
    d = _data(torch)

    class Draws(d.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            info = d.get_worker_info()
            return [torch.initial_seed() == info.seed, torch.rand(1).item(), random.random(), np.random.rand()]

    def run():
        torch.manual_seed(5)
        random.seed(5)
        np.random.seed(5)
        return list(d.DataLoader(Draws(), batch_size=None, num_workers=2)), random.random(), np.random.rand()

    first, py_after, np_after = run()
    assert all(sample[0] for sample in first)
    assert first[0][1:] != first[1][1:]           # each worker has its own streams...
    assert first[0][1:] != first[2][1:]           # ...which go on from sample to sample
    assert (py_after, np_after) == (random.Random(5).random(), np.random.RandomState(5).rand())
    assert run()[0] == first                      # and all of it follows the seed


# --------------------------------------------------------------------------------- errors

def test_an_error_in_a_worker_is_raised_with_its_class_and_traceback(torch):
    d = _data(torch)

    class Bad(d.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            if i == 2:
                raise ValueError("bad item")
            return i

    with pytest.raises(ValueError) as info:
        list(d.DataLoader(Bad(), batch_size=2, num_workers=2))
    text = str(info.value)
    assert text.startswith("Caught ValueError in DataLoader worker process 1.\nOriginal Traceback (most recent call "
                           "last):\n")
    assert text.endswith("ValueError: bad item\n")


def test_a_key_error_in_a_worker_prints_without_quotes(torch):
    d = _data(torch)

    class Missing(d.Dataset):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            return {}["k"]

    with pytest.raises(KeyError) as info:
        list(d.DataLoader(Missing(), num_workers=1))
    assert str(info.value).startswith("Caught KeyError in DataLoader worker process 0.\nOriginal Traceback")
    assert str(info.value).endswith("KeyError: 'k'\n")


def test_a_batch_slower_than_the_timeout(torch):
    d = _data(torch)

    class Slow(d.Dataset):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            time.sleep(1.0)
            return i

    with pytest.raises(RuntimeError, match=exact("DataLoader timed out after 0.2 seconds")):
        list(d.DataLoader(Slow(), num_workers=1, timeout=0.2))


def test_loader_arguments_that_need_workers(torch):
    d = _data(torch)
    cases = [
        ({"prefetch_factor": 2}, ValueError, "prefetch_factor option could only be specified in multiprocessing.let "
                                             "num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor "
                                             "to None."),
        ({"num_workers": 1, "prefetch_factor": -1}, ValueError, "prefetch_factor option should be non-negative"),
        ({"persistent_workers": True}, ValueError, "persistent_workers option needs num_workers > 0"),
        ({"multiprocessing_context": "fork"}, ValueError, "multiprocessing_context can only be used with "
                                                          "multi-process loading (num_workers > 0), but got "
                                                          "num_workers=0"),
        ({"num_workers": 1, "multiprocessing_context": 3}, TypeError, "multiprocessing_context option should be a "
                                                                      "valid context object or a string specifying "
                                                                      "the start method, but got "
                                                                      "multiprocessing_context=3"),
        ({"num_workers": -1}, ValueError, "num_workers option should be non-negative; use num_workers=0 to disable "
                                          "multiprocessing."),
        ({"timeout": -1}, ValueError, "timeout option should be non-negative"),
    ]
    for kwargs, cls, msg in cases:
        with pytest.raises(cls, match=exact(msg)):
            d.DataLoader(range(3), **kwargs)


def test_unknown_start_method(torch):
    with pytest.raises(ValueError, match=r"^multiprocessing_context option should specify a valid start method in "
                                         r"\[.*'fork'.*\], but got multiprocessing_context='foo'$"):
        _data(torch).DataLoader(range(3), num_workers=1, multiprocessing_context="foo")


def test_defaults_and_accepted_options(torch):
    d = _data(torch)
    assert d.DataLoader(range(3)).prefetch_factor is None
    loader = d.DataLoader(range(3), num_workers=2, multiprocessing_context="spawn")
    assert loader.prefetch_factor == 2 and loader.multiprocessing_context.get_start_method() == "spawn"


def test_timeout_without_workers_is_refused_when_iterating(torch):
    loader = _data(torch).DataLoader(range(3), timeout=1)
    with pytest.raises(AssertionError, match=exact("_SingleProcessDataLoaderIter requires timeout == 0")):
        iter(loader)


# --------------------------------------------------------------------- flowgrad's in-process run

def test_worker_init_fn_runs_once_per_worker_and_epoch_or_once_when_persistent(ftorch):
    d = ftorch.utils.data
    calls = []
    for persistent, expected in ((False, [0, 1, 0, 1]), (True, [0, 1])):
        calls.clear()
        loader = d.DataLoader(range(4), num_workers=2, worker_init_fn=calls.append, persistent_workers=persistent)
        for _ in range(2):
            assert [b.tolist() for b in loader] == [[0], [1], [2], [3]]
        assert calls == expected


def test_an_error_in_worker_init_fn_comes_with_the_workers_batch(ftorch):
    d = ftorch.utils.data

    def init(worker_id):
        if worker_id == 1:
            raise RuntimeError("no init")

    it = iter(d.DataLoader(range(4), num_workers=2, worker_init_fn=init))
    assert next(it).tolist() == [0]
    with pytest.raises(RuntimeError, match=r"^Caught RuntimeError in DataLoader worker process 1\.\n"):
        next(it)
    assert next(it).tolist() == [2]
