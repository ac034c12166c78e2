"""In-place fills write where the tensor stands: the same values and version counts as PyTorch, and
no second buffer of the tensor's size (NumPy's allocations are visible to tracemalloc)."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest


def _fills(torch):
    x = torch.zeros(500, 400)
    view = x[2:5]
    x.fill_(3.0)
    view.fill_(torch.tensor(7))
    x[10:12].zero_()
    return x


def test_fills_match_pytorch(torch):
    x = _fills(torch)
    assert x._version == 3
    got = x.numpy()
    assert got.dtype == np.float32 and got[2:5].tolist() == [[7.0] * 400] * 3
    assert (got[10:12] == 0).all() and got[5:10].sum() == 3.0 * 5 * 400


def test_fills_of_an_integer_tensor_check_the_value_as_pytorch(torch):
    x = torch.zeros(3, dtype=torch.int8)
    x.fill_(2.7)
    assert x.tolist() == [2, 2, 2]
    with pytest.raises(RuntimeError, match="value cannot be converted to type int8_t without overflow"):
        x.fill_(300)
    assert x.tolist() == [2, 2, 2] and x._version == 1


def test_fills_allocate_no_second_buffer(ftorch):
    x = ftorch.zeros(1000, 1000)          # 4 MB
    tracemalloc.start()
    try:
        x.fill_(3.0)
        x.zero_()
        x[100:900].fill_(1.0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024, f"in-place fills allocated {peak} bytes"
    assert x.sum().item() == 800 * 1000


@pytest.mark.parametrize("shape, wrap", [((5, 3), True), ((7, 3), True), ((4, 3), True), ((5, 3), False),
                                         ((3, 5), True), ((3, 3, 3), False)])
def test_fill_diagonal_as_pytorch(torch, shape, wrap):
    x = torch.zeros(*shape)
    assert x.fill_diagonal_(2.0, wrap=wrap) is x
    assert x._version == (2 if wrap and shape[0] > shape[1] + 1 else 1)
    y = torch.zeros(shape[1], shape[0]).t()          # not contiguous: the wrapped rows too
    y.fill_diagonal_(2.0, wrap=wrap) if len(shape) == 2 else None
    expected = np.zeros(shape)
    flat = expected.reshape(-1)
    step = sum(np.prod(shape[i + 1:], dtype=int) for i in range(len(shape)))
    end = flat.size if wrap and len(shape) == 2 else min(shape) * step
    flat[0:end:step] = 2.0
    assert x.numpy().tolist() == expected.tolist()
    if len(shape) == 2:
        assert y.numpy().tolist() == expected.tolist()


def test_fill_diagonal_records_copy_slices_and_refuses_as_pytorch(torch):
    b = torch.ones(3, 3, requires_grad=True)
    c = b * 2
    c.fill_diagonal_(0.0)
    assert type(c.grad_fn).__name__ == "CopySlices"
    c.sum().backward()
    assert b.grad.tolist() == [[0.0, 2.0, 2.0], [2.0, 0.0, 2.0], [2.0, 2.0, 0.0]]
    with pytest.raises(RuntimeError, match="^all dimensions of input must be of equal length$"):
        torch.zeros(3, 4, 3).fill_diagonal_(1.0)
    with pytest.raises(RuntimeError, match="^dimensions must larger than 1$"):
        torch.zeros(3).fill_diagonal_(1.0)
    assert torch.zeros(2).is_sparse is False
