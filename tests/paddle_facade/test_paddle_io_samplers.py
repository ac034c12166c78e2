"""paddle.io's ComposeDataset, WeightedRandomSampler and DistributedBatchSampler, on flowgrad.paddle
and real paddle."""
from __future__ import annotations

import re

import numpy as np
import pytest


def _range_dataset(paddle, n: int, fields: int = 1):
    class Rows(paddle.io.Dataset):
        def __getitem__(self, i):
            sample = [np.array([i * 10 + f], "float32") for f in range(fields)]
            return sample if fields > 1 else sample[0]

        def __len__(self):
            return n

    return Rows()


def test_compose_dataset(paddle):
    ds = paddle.io.ComposeDataset([_range_dataset(paddle, 4, 2), _range_dataset(paddle, 4)])
    assert len(ds) == 4
    sample = ds[2]
    assert isinstance(sample, tuple) and [float(f[0]) for f in sample] == [20.0, 21.0, 20.0]
    batches = [[t.tolist() for t in b] for b in paddle.io.DataLoader(ds, batch_size=2)]
    assert batches[1] == [[[20.0], [30.0]], [[21.0], [31.0]], [[20.0], [30.0]]]


@pytest.mark.parametrize("build, message", [
    (lambda paddle: [], "input datasets should not be empty"),
    (lambda paddle: [[1, 2]], "each input dataset should be paddle.io.Dataset"),
    (lambda paddle: [_range_dataset(paddle, 2), _range_dataset(paddle, 3)], "lengths of datasets should be same"),
])
def test_compose_dataset_errors(paddle, build, message):
    with pytest.raises(AssertionError, match=re.escape(message)):
        paddle.io.ComposeDataset(build(paddle))


def test_weighted_random_sampler_draws(paddle):
    np.random.seed(3)
    sampler = paddle.io.WeightedRandomSampler(np.array([0.1, 0.0, 0.5, 0.4]), 8)
    assert len(sampler) == 8
    assert list(sampler) == [2, 3, 2, 2, 3, 3, 2, 2]
    np.random.seed(3)
    listed = paddle.io.WeightedRandomSampler([0.1, 0.0, 0.5, 0.4], 8)
    assert [i for i in listed] == [2, 3, 2, 2, 3, 3, 2, 2]
    with pytest.raises(AttributeError):  # paddle's len() reads weights.shape
        len(listed)
    np.random.seed(1)
    unique = list(paddle.io.WeightedRandomSampler(np.array([1.0, 2.0, 3.0, 0.5]), 4, replacement=False))
    assert sorted(unique) == [0, 1, 2, 3] and unique == [1, 2, 0, 3]


@pytest.mark.parametrize("args, error, message", [
    (([0.5, 0.5], 0), ValueError, "num_samples should be a positive integer"),
    (([0.5, 0.5], 2, 1), ValueError, "replacement should be a boolean value"),
])
def test_weighted_random_sampler_argument_errors(paddle, args, error, message):
    with pytest.raises(error, match=re.escape(message)):
        paddle.io.WeightedRandomSampler(*args)


@pytest.mark.parametrize("weights, replacement, message", [
    ([0.5, -0.5], True, "weights should be positive value"),
    ([0.0, 0.0], True, "weights should have positive values"),
    ([1.0, float("inf")], True, "weights should not be INF"),
    ([1.0, 0.0, 1.0], False, "weights positive value number should not less than num_samples when replacement=False"),
    ("ab", True, "weights should be paddle.Tensor, numpy.ndarray, list or tuple"),
])
def test_weighted_random_sampler_weight_errors(paddle, weights, replacement, message):
    sampler = paddle.io.WeightedRandomSampler(weights, 3, replacement)
    with pytest.raises(AssertionError, match=re.escape(message)):
        iter(sampler)


def test_weighted_random_sampler_tensor_weights_refused(paddle):
    with pytest.raises(AssertionError, match="weights should be paddle.Tensor, numpy.ndarray, list or tuple"):
        list(paddle.io.WeightedRandomSampler(paddle.to_tensor([0.5, 0.5]), 2))


def test_distributed_batch_sampler_single_process(paddle):
    ds = _range_dataset(paddle, 10)
    sampler = paddle.io.DistributedBatchSampler(ds, batch_size=4)
    assert isinstance(sampler, paddle.io.BatchSampler)
    assert (sampler.nranks, sampler.local_rank, sampler.num_samples, sampler.total_size) == (1, 0, 10, 10)
    assert list(sampler) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]] and len(sampler) == 3
    dropped = paddle.io.DistributedBatchSampler(ds, batch_size=4, drop_last=True)
    assert list(dropped) == [[0, 1, 2, 3], [4, 5, 6, 7]] and len(dropped) == 2
    shuffled = paddle.io.DistributedBatchSampler(ds, batch_size=3, shuffle=True)
    first, second = list(shuffled), list(shuffled)
    assert first == [[2, 8, 4], [9, 1, 6], [7, 3, 0], [5]] and shuffled.epoch == 2
    assert second != first
    shuffled.set_epoch(0)
    assert list(shuffled) == first
    loader = paddle.io.DataLoader(ds, batch_sampler=paddle.io.DistributedBatchSampler(ds, batch_size=5))
    assert [b.shape for b in loader] == [[5, 1], [5, 1]]


@pytest.mark.parametrize("rank", [0, 1, 2])
def test_distributed_batch_sampler_shares(paddle, rank):
    ds = _range_dataset(paddle, 11)
    sampler = paddle.io.DistributedBatchSampler(ds, batch_size=2, num_replicas=3, rank=rank, shuffle=True)
    expected = {0: [[6, 0], [1, 7]], 1: [[4, 10], [9, 3]], 2: [[2, 8], [0, 5]]}
    assert list(sampler) == expected[rank]
    assert (sampler.num_samples, sampler.total_size, len(sampler)) == (4, 12, 2)


@pytest.mark.parametrize("kwargs, message", [
    ({"batch_size": 0}, "batch_size should be a positive integer"),
    ({"batch_size": 2, "shuffle": 1}, "shuffle should be a boolean value"),
    ({"batch_size": 2, "drop_last": None}, "drop_last should be a boolean number"),
    ({"batch_size": 2, "num_replicas": 0}, "num_replicas should be a positive integer"),
    ({"batch_size": 2, "rank": -1}, "rank should be a non-negative integer"),
])
def test_distributed_batch_sampler_errors(paddle, kwargs, message):
    with pytest.raises(AssertionError, match=re.escape(message)):
        paddle.io.DistributedBatchSampler(_range_dataset(paddle, 4), **kwargs)
