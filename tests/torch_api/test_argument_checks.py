"""Arguments PyTorch refuses before computing (dtypes, shapes, ranges, reduce modes), and the
results it computes where a NumPy-backed op could silently differ; real torch is the oracle."""
from __future__ import annotations

import re
import warnings

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def _raises(fn, cls, msg: str) -> None:
    with pytest.raises(cls, match=exact(msg)):
        fn()


# ------------------------------------------------------------------------------ scatter / gather

@pytest.mark.parametrize("reduce,want", [("add", [5., 0., 0.]), ("multiply", [6., 1., 1.])])
def test_scatter_reduce_combines_repeated_indices(torch, reduce, want):
    base = torch.ones(3) if reduce == "multiply" else torch.zeros(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = base.scatter(0, torch.tensor([0, 0]), torch.tensor([3., 2.]), reduce=reduce)
        inplace = base.clone().scatter_(0, torch.tensor([0, 0]), torch.tensor([3., 2.]), reduce=reduce)
    assert out.tolist() == want and inplace.tolist() == want
    value = torch.ones(3).scatter_(0, torch.tensor([0, 0]), 2.0, reduce=reduce)
    assert value.tolist() == ([5., 1., 1.] if reduce == "add" else [4., 1., 1.])
    ints = torch.zeros(3, dtype=torch.int64).scatter(0, torch.tensor([0, 0]), 2, reduce=reduce)
    assert ints.dtype == torch.int64 and ints.tolist() == ([4, 0, 0] if reduce == "add" else [0, 0, 0])


def test_scatter_reduce_refuses_other_modes(torch):
    x = torch.zeros(3)
    for call in (lambda: x.scatter(0, torch.tensor([0]), torch.ones(1), reduce="mean"),
                 lambda: x.scatter_(0, torch.tensor([0]), 1.0, reduce="sum"),
                 lambda: torch.scatter(x, 0, torch.tensor([0]), torch.ones(1), reduce="foo")):
        _raises(call, RuntimeError, "reduce argument must be either add or multiply.")
    assert x.tolist() == [0., 0., 0.]


def test_scatter_reduce_has_no_derivative(torch):
    x = torch.zeros(3, requires_grad=True)
    y = x.scatter(0, torch.tensor([0, 0]), 2.0, reduce="add")
    assert y.tolist() == [4., 0., 0.] and type(y.grad_fn).__name__ == "NotImplemented"
    _raises(lambda: y.sum().backward(), RuntimeError, "derivative for aten::scatter is not implemented")


def test_gather_scatter_index_checks(torch):
    x = torch.zeros(3)
    _raises(lambda: x.gather(0, torch.tensor([0.])), RuntimeError, "gather(): Expected dtype int32/int64 for index")
    _raises(lambda: x.scatter(0, torch.tensor([0], dtype=torch.int16), 1.0), RuntimeError,
            "scatter(): Expected dtype int32/int64 for index")
    _raises(lambda: x.scatter_add(0, torch.tensor([0.]), torch.ones(1)), RuntimeError,
            "scatter(): Expected dtype int32/int64 for index")
    for call in (lambda: x.gather(0, torch.tensor([5])), lambda: x.scatter_add(0, torch.tensor([5]), torch.ones(1))):
        _raises(call, RuntimeError, "index 5 is out of bounds for dimension 0 with size 3")
    for call in (lambda: x.gather(0, torch.tensor([-1])), lambda: x.scatter(0, torch.tensor([-1]), 1.0)):
        _raises(call, RuntimeError, "index -1 is out of bounds for dimension 0 with size 3")
    _raises(lambda: x.scatter(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64)), RuntimeError,
            "scatter(): Expected self.dtype to be equal to src.dtype")
    _raises(lambda: x.scatter_add(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64)), RuntimeError,
            "scatter(): Expected self.dtype to be equal to src.dtype")
    _raises(lambda: x.gather(0, torch.tensor([[0]])), RuntimeError,
            "Index tensor must have the same number of dimensions as input tensor")
    _raises(lambda: x.scatter(0, torch.tensor([[0]]), 1.0), RuntimeError,
            "Index tensor must have the same number of dimensions as self tensor")
    assert x.gather(0, torch.tensor([2, 1], dtype=torch.int32)).tolist() == [0., 0.]
    assert x.tolist() == [0., 0., 0.]
