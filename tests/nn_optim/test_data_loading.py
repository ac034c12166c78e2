"""torch.utils.data: datasets, samplers, default collation and DataLoader behaviour."""
from __future__ import annotations

import warnings

import pytest


def _data(torch):
    return torch.utils.data


def test_tensor_dataset_and_sequential_loader(torch):
    d = _data(torch)
    x, y = torch.arange(10.0).reshape(5, 2), torch.arange(5)
    ds = d.TensorDataset(x, y)
    assert len(ds) == 5 and [t.tolist() for t in ds[1]] == [[2.0, 3.0], 1]
    batches = list(d.DataLoader(ds, batch_size=2))
    assert len(batches) == 3 and len(d.DataLoader(ds, batch_size=2)) == 3
    assert [b[1].tolist() for b in batches] == [[0, 1], [2, 3], [4]]
    assert batches[0][0].shape == torch.Size([2, 2])
    assert [b[1].tolist() for b in d.DataLoader(ds, batch_size=2, drop_last=True)] == [[0, 1], [2, 3]]


def test_tensor_dataset_size_mismatch(torch):
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        _data(torch).TensorDataset(torch.zeros(3), torch.zeros(4))


def test_shuffle_is_a_permutation_reproducible_with_a_generator(torch):
    d = _data(torch)
    ds = d.TensorDataset(torch.arange(20))

    def order(seed):
        g = torch.Generator().manual_seed(seed)
        return [v for (b,) in d.DataLoader(ds, batch_size=6, shuffle=True, generator=g) for v in b.tolist()]

    assert sorted(order(0)) == list(range(20)) and order(0) == order(0)
    torch.manual_seed(3)
    a = [v for (b,) in d.DataLoader(ds, batch_size=6, shuffle=True) for v in b.tolist()]
    torch.manual_seed(3)
    b = [v for (b,) in d.DataLoader(ds, batch_size=6, shuffle=True) for v in b.tolist()]
    assert a == b and sorted(a) == list(range(20))


def test_default_collate_of_dicts_tuples_numbers(torch):
    d = _data(torch)
    batch = next(iter(d.DataLoader([{"x": torch.ones(2), "y": 1, "z": 0.5, "name": "a"},
                                    {"x": torch.zeros(2), "y": 2, "z": 1.5, "name": "b"}], batch_size=2)))
    assert batch["x"].shape == torch.Size([2, 2]) and batch["y"].tolist() == [1, 2]
    assert batch["y"].dtype == torch.int64 and batch["z"].dtype == torch.float64 and batch["name"] == ["a", "b"]
    pairs = next(iter(d.DataLoader([(torch.ones(1), 3), (torch.ones(1), 4)], batch_size=2)))
    assert isinstance(pairs, list) and pairs[1].tolist() == [3, 4]
    assert d.default_collate([[1, 2], [3, 4]])[0].tolist() == [1, 3]


def test_batch_size_none_disables_batching(torch):
    d = _data(torch)
    items = list(d.DataLoader(d.TensorDataset(torch.arange(3)), batch_size=None))
    assert [it[0].item() for it in items] == [0, 1, 2]


def test_custom_dataset_and_collate_fn(torch):
    d = _data(torch)

    class Squares(d.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return i * i

    loader = d.DataLoader(Squares(), batch_size=3, collate_fn=lambda b: sum(b))
    assert list(loader) == [5, 9]
    with pytest.raises(NotImplementedError):
        d.Dataset()[0]


def test_iterable_dataset(torch):
    d = _data(torch)

    class Stream(d.IterableDataset):
        def __iter__(self):
            return iter(range(5))

    assert [b.tolist() for b in d.DataLoader(Stream(), batch_size=2)] == [[0, 1], [2, 3], [4]]
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        d.DataLoader(Stream(), shuffle=True)


def test_random_split_lengths_and_fractions(torch):
    d = _data(torch)
    ds = d.TensorDataset(torch.arange(10))
    parts = d.random_split(ds, [7, 3], generator=torch.Generator().manual_seed(0))
    assert [len(p) for p in parts] == [7, 3]
    assert sorted(int(p[i][0]) for p in parts for i in range(len(p))) == list(range(10))
    assert [len(p) for p in d.random_split(ds, [0.5, 0.3, 0.2])] == [5, 3, 2]
    with pytest.raises(ValueError, match="Sum of input lengths does not equal the length of the input dataset!"):
        d.random_split(ds, [3, 3])


def test_loader_option_errors(torch):
    d = _data(torch)
    ds = d.TensorDataset(torch.arange(4))
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        d.DataLoader(ds, shuffle=True, sampler=d.SequentialSampler(ds))
    with pytest.raises(ValueError, match="batch_size should be a positive integer value, but got batch_size=0"):
        d.DataLoader(ds, batch_size=0)


def test_concat_and_subset(torch):
    d = _data(torch)
    a, b = d.TensorDataset(torch.arange(3)), d.TensorDataset(torch.arange(10, 12))
    cat = a + b
    assert len(cat) == 5 and cat[3][0].item() == 10 and cat[-1][0].item() == 11
    assert d.Subset(a, [2, 0])[0][0].item() == 2


def test_pin_memory_without_an_accelerator_warns_and_loads_as_is(torch):
    if torch.cuda.is_available():
        pytest.skip("the CPU build's behaviour")
    d = torch.utils.data
    ds = d.TensorDataset(torch.arange(6.).reshape(3, 2), torch.arange(3))
    loader = d.DataLoader(ds, batch_size=2, pin_memory=True)    # nothing said until it is iterated
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        batches = list(loader)
    assert [str(w.message) for w in caught] == ["'pin_memory' argument is set as true but no accelerator is found, "
                                                "then device pinned memory won't be used."]
    assert [b[0].tolist() for b in batches] == [[[0., 1.], [2., 3.]], [[4., 5.]]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        list(d.DataLoader(ds, batch_size=2, pin_memory=True, pin_memory_device="cpu"))
        list(d.DataLoader(ds, batch_size=2, pin_memory_device="cpu"))     # without pin_memory: nothing
    assert [str(w.message) for w in caught] == [
        "pin_memory_device is deprecated, the current accelerator will be used as the device,ignore "
        "pin_memory_device='cpu'.",
        "'pin_memory' argument is set as true but no accelerator is found, then device pinned memory won't be used."]
    assert all(w.category is UserWarning for w in caught)


def test_pinning_rebuilds_a_batch_as_pytorch_does():
    import collections
    from flowgrad.data import _pinned

    class Pinnable:
        def pin_memory(self):
            return "pinned"

    Pair = collections.namedtuple("Pair", "a b")
    batch = {"x": [Pinnable(), (Pinnable(), "s")], "p": Pair(Pinnable(), 3), "r": range(2), "b": b"raw"}
    assert _pinned(batch) == {"x": ["pinned", ("pinned", "s")], "p": Pair("pinned", 3), "r": [0, 1], "b": b"raw"}
