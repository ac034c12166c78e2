"""paddle.io (datasets, samplers, DataLoader) and paddle.save / paddle.load, against real paddle."""
from __future__ import annotations

import io as _io
import re

import numpy as np
import pytest


def _described(batch):
    if isinstance(batch, dict):
        return {k: _described(v) for k, v in batch.items()}
    if isinstance(batch, list):
        return [_described(v) for v in batch]
    return (type(batch).__name__, str(batch.dtype), list(batch.shape), batch.numpy().tolist(), batch.stop_gradient)


def _samples(paddle):
    class Samples(paddle.io.Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return np.full([2], i, "float32"), i, float(i), {"a": np.int32(i)}, paddle.to_tensor([i, -i])
    return Samples()


def test_dataloader_collates_as_paddle(paddle):
    loader = paddle.io.DataLoader(_samples(paddle), batch_size=2)
    batches = [_described(b) for b in loader]
    assert len(loader) == 3 and len(batches) == 3
    assert batches[0] == [("Tensor", "paddle.float32", [2, 2], [[0., 0.], [1., 1.]], True),
                          ("Tensor", "paddle.int64", [2], [0, 1], True),
                          ("Tensor", "paddle.float64", [2], [0., 1.], True),
                          {"a": ("Tensor", "paddle.int32", [2], [0, 1], True)},
                          ("Tensor", "paddle.int64", [2, 2], [[0, 0], [1, -1]], True)]
    assert batches[2][1][2] == [1]


def test_tensor_dataset_and_batch_sampler(paddle):
    data = paddle.io.TensorDataset([paddle.arange(4), paddle.ones([4, 2])])
    assert len(data) == 4 and isinstance(data, paddle.io.Dataset)
    assert [_described(x) for x in data[1]] == [("Tensor", "paddle.int64", [], 1, True),
                                                ("Tensor", "paddle.float32", [2], [1., 1.], True)]
    sampler = paddle.io.BatchSampler(dataset=data, batch_size=3, drop_last=True)
    assert list(sampler) == [[0, 1, 2]] and len(sampler) == 1
    sampler = paddle.io.BatchSampler(sampler=paddle.io.SequenceSampler(data), batch_size=3)
    assert list(sampler) == [[0, 1, 2], [3]] and len(sampler) == 2
    loader = paddle.io.DataLoader(data, batch_sampler=sampler)
    assert [[x.shape for x in b] for b in loader] == [[[3], [3, 2]], [[1], [1, 2]]]
    shuffled = paddle.io.DataLoader(data, batch_size=2, shuffle=True, drop_last=True)
    assert sorted(i for b in shuffled for i in b[0].tolist()) == [0, 1, 2, 3]
    single = next(iter(paddle.io.DataLoader(data, batch_size=None)))
    assert [_described(x) for x in single] == [("Tensor", "paddle.int64", [], 0, True),
                                               ("Tensor", "paddle.float32", [2], [1., 1.], True)]
    assert sorted(paddle.io.RandomSampler(data)) == [0, 1, 2, 3]
    parts = paddle.io.random_split(data, [1, 3])
    assert [len(p) for p in parts] == [1, 3] and all(isinstance(p, paddle.io.Subset) for p in parts)
    assert isinstance(parts[0], paddle.io.Dataset)
    both = paddle.io.ConcatDataset([data, data])
    assert len(both) == 8 and both[5][0].tolist() == 1


def test_iterable_dataset(paddle):
    class Stream(paddle.io.IterableDataset):
        def __iter__(self):
            return iter(range(5))

    assert [b.tolist() for b in paddle.io.DataLoader(Stream(), batch_size=2)] == [[0, 1], [2, 3], [4]]
    assert [b.tolist() for b in paddle.io.DataLoader(Stream(), batch_size=2, drop_last=True)] == [[0, 1], [2, 3]]
    chained = paddle.io.ChainDataset([Stream(), Stream()])
    assert isinstance(chained, paddle.io.IterableDataset) and [x for x in chained] == [0, 1, 2, 3, 4] * 2
    with pytest.raises(RuntimeError, match=re.escape("'__len__' should not be called for IterableDatasetStream")):
        len(Stream())
    with pytest.raises(ValueError, match=re.escape("IterableDataset not support shuffle, but got shuffle=True")):
        paddle.io.DataLoader(Stream(), batch_size=2, shuffle=True)
    with pytest.raises(ValueError, match=re.escape("IterableDataset expect unspecified batch_sampler")):
        paddle.io.DataLoader(Stream(), batch_sampler=[[0]])


IO_ERRORS = [
    (lambda io, p: io.TensorDataset([p.arange(4), p.ones([3])]), AssertionError,
     "tensors not have same shape of the 1st dimension"),
    (lambda io, p: io.BatchSampler(batch_size=2), AssertionError, "either dataset or sampler should be set"),
    (lambda io, p: io.BatchSampler(dataset=[1, 2], batch_size=0), AssertionError,
     "batch_size should be a positive integer, but got 0"),
    (lambda io, p: io.BatchSampler(dataset=[1, 2], shuffle=1), AssertionError,
     "shuffle should be a boolean value, but got <class 'int'>"),
    (lambda io, p: io.BatchSampler(dataset=[1, 2], drop_last=1), AssertionError,
     "drop_last should be a boolean value, but got <class 'int'>"),
    (lambda io, p: io.BatchSampler(dataset=[1, 2], sampler=[0, 1]), AssertionError,
     "should not set both dataset and sampler"),
    (lambda io, p: io.BatchSampler(sampler=[0, 1], shuffle=True), AssertionError,
     "shuffle should be False when sampler is set"),
    (lambda io, p: io.DataLoader([1, 2], batch_size=2, batch_sampler=[[0]]), AssertionError,
     "batch_size/shuffle/drop_last should not be set when batch_sampler is given"),
    (lambda io, p: io.DataLoader([1, 2], batch_size=0), AssertionError,
     "batch_size should be None or a positive value when batch_sampler is not given"),
    (lambda io, p: io.DataLoader([1, 2], num_workers=-1), AssertionError, "num_workers should be a non-negative value"),
    (lambda io, p: io.DataLoader([1, 2], timeout=-1), AssertionError, "timeout should be a non-negative value"),
    (lambda io, p: io.DataLoader([1, 2], prefetch_factor=0), AssertionError,
     "prefetch_factor should be a positive value"),
    (lambda io, p: io.Dataset()[0], NotImplementedError, "'__getitem__' not implement in class Dataset"),
    (lambda io, p: len(io.Dataset()), NotImplementedError, "'__len__' not implement in class Dataset"),
]


@pytest.mark.parametrize("make, exc, text", IO_ERRORS)
def test_io_argument_errors(paddle, make, exc, text):
    with pytest.raises(exc, match="^" + re.escape(text) + "$"):
        make(paddle.io, paddle)


def test_collate_errors(fpaddle):
    """Real paddle raises these in its loader thread and then hangs; the texts are its collate function's."""
    with pytest.raises(RuntimeError, match="^fields number not same among samples in a batch$"):
        list(fpaddle.io.DataLoader([(1, 2), (1,)], batch_size=2))
    with pytest.raises(TypeError, match="^" + re.escape("batch data con only contains: tensor, numpy.ndarray, dict, "
                                                        "list, number, but got <class 'object'>") + "$"):
        list(fpaddle.io.DataLoader([object(), object()], batch_size=2))


def test_training_loop_over_a_loader(fpaddle, real_paddle):
    def run(paddle):
        x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(8, 2)
        y = (x @ np.array([[2.], [-1.]], dtype=np.float32))
        data = paddle.io.TensorDataset([paddle.to_tensor(x), paddle.to_tensor(y)])
        layer = paddle.nn.Linear(2, 1)
        layer.weight.set_value(np.zeros([2, 1], np.float32))
        layer.bias.set_value(np.zeros([1], np.float32))
        opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=layer.parameters())
        for _ in range(3):
            for xb, yb in paddle.io.DataLoader(data, batch_size=3):
                loss = paddle.nn.functional.mse_loss(layer(xb), yb)
                loss.backward()
                opt.step()
                opt.clear_grad()
        return layer.weight.numpy()
    np.testing.assert_allclose(run(fpaddle), run(real_paddle), rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------------------- save / load

def test_save_load_state_dicts(paddle, tmp_path):
    layer = paddle.nn.Linear(2, 3)
    sched = paddle.optimizer.lr.StepDecay(0.5, step_size=1)
    opt = paddle.optimizer.Adam(learning_rate=sched, parameters=layer.parameters())
    layer(paddle.ones([1, 2])).sum().backward()
    opt.step()
    sched.step()
    paddle.save(layer.state_dict(), str(tmp_path / "sub" / "m.pdparams"))
    paddle.save(opt.state_dict(), str(tmp_path / "m.pdopt"))
    params = paddle.load(str(tmp_path / "sub" / "m.pdparams"))
    assert sorted(params) == ["bias", "weight"]
    assert all(type(v) is paddle.Tensor and v.stop_gradient for v in params.values())
    np.testing.assert_array_equal(params["weight"].numpy(), layer.weight.numpy())
    assert params["weight"].dtype == paddle.float32 and params["weight"].shape == [2, 3]
    state = paddle.load(str(tmp_path / "m.pdopt"))
    assert state["LR_Scheduler"] == {"last_epoch": 1, "last_lr": 0.05}
    fresh = paddle.nn.Linear(2, 3)
    fresh.set_state_dict(params)
    np.testing.assert_array_equal(fresh.bias.numpy(), layer.bias.numpy())
    sched2 = paddle.optimizer.lr.StepDecay(0.5, step_size=1)
    opt2 = paddle.optimizer.Adam(learning_rate=sched2, parameters=fresh.parameters())
    opt2.set_state_dict(state)
    assert sched2.last_epoch == 1


def test_save_load_containers_and_buffers(paddle):
    buf = _io.BytesIO()
    t = paddle.to_tensor([1., 2.], stop_gradient=False)
    paddle.save({"t": t, "n": np.arange(3), "f": 1.5, "tu": (1, 2), "s": "x", "l": [paddle.ones([2])]}, buf)
    buf.seek(0)
    got = paddle.load(buf)
    assert got["t"].tolist() == [1., 2.] and got["t"].stop_gradient
    assert got["n"].tolist() == [0, 1, 2] and isinstance(got["n"], np.ndarray)
    assert (got["f"], got["tu"], got["s"], got["l"][0].tolist()) == (1.5, (1, 2), "x", [1., 1.])


def test_save_load_errors(paddle, tmp_path):
    with pytest.raises(ValueError, match=re.escape(f"The ``path`` ({tmp_path}/none.pd) to load model not exists.")):
        paddle.load(str(tmp_path / "none.pd"))
    with pytest.raises(ValueError, match=re.escape("but received filename is empty string.")):
        paddle.save({}, str(tmp_path) + "/")
    with pytest.raises(ValueError, match=re.escape("Expected 1<'protocol'<5, but received protocol=5")):
        paddle.save({"a": 1}, str(tmp_path / "a.pd"), protocol=5)
    with pytest.raises(ValueError, match=re.escape("The additional config (other) of `paddle.save` is not "
                                                   "supported.")):
        paddle.save({"a": 1}, str(tmp_path / "a.pd"), other=1)
    with pytest.warns(UserWarning, match="The input state dict is empty, no need to save."):
        paddle.save({}, str(tmp_path / "b.pd"))
