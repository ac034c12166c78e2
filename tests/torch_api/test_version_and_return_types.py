"""`torch.__version__` compares as PyTorch's TorchVersion does (with strings and tuples), and
functions returning (values, indices) give `torch.return_types` named tuples, an importable module."""
from __future__ import annotations

import importlib
import sys

import pytest

import flowgrad.torch as ft

torch = pytest.importorskip("torch")

# operands whose comparison with 2.13.0+<local> does not depend on the local part's text
OTHERS = [(2, 13), (2, 13, 0), [2, 13], "2.13", "2.13.0", (2, 14), (2, 12, 9), "2.13.0a0", "2.13.0rc1",
          "2.13.0.post1", "3", "abc", (2, 13, 0, "x"), 3, None]


def _compare(v, other):
    out = []
    for op in (lambda: v == other, lambda: v != other, lambda: v < other, lambda: v <= other, lambda: v > other,
               lambda: v >= other):
        try:
            out.append(op())
        except TypeError:
            out.append(TypeError)
    return out


@pytest.mark.parametrize("other", OTHERS, ids=repr)
def test_version_compares_as_torch(other):
    assert _compare(ft.__version__, other) == _compare(torch.__version__, other)


def test_version_is_a_string():
    assert isinstance(ft.__version__, str)
    assert ft.__version__ == "2.13.0+flowgrad" and {ft.__version__: 1}["2.13.0+flowgrad"] == 1
    assert ft.__version__.split("+")[0] == torch.__version__.split("+")[0]


@pytest.mark.parametrize("name,call", [
    ("max", lambda T, x: T.max(x, 0)), ("min", lambda T, x: T.min(x, 1, keepdim=True)),
    ("median", lambda T, x: T.median(x, 1)), ("max", lambda T, x: x.max(dim=1)), ("min", lambda T, x: x.min(0)),
    ("sort", lambda T, x: T.sort(x, 1)), ("topk", lambda T, x: T.topk(x, 2)), ("kthvalue", lambda T, x: x.kthvalue(2)),
])
def test_values_indices_results_are_named_tuples(name, call):
    data = [[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]]
    got = call(ft, ft.tensor(data, requires_grad=True))
    want = call(torch, torch.tensor(data, requires_grad=True))
    assert type(got).__name__ == type(want).__name__ == name
    assert type(got).__module__.replace("flowgrad.", "") == type(want).__module__ == "torch.return_types"
    assert len(got) == len(want) == 2 and isinstance(got, tuple) and isinstance(want, tuple)
    assert got.values.tolist() == want.values.tolist() and got.indices.tolist() == want.indices.tolist()
    assert repr(got).split("(")[0] == repr(want).split("(")[0]
    got.values.sum().backward()
    want.values.sum().backward()


def test_full_reductions_stay_tensors():
    x = ft.tensor([[1.0, 5.0], [4.0, 2.0]])
    assert isinstance(ft.max(x), ft.Tensor) and isinstance(x.min(), ft.Tensor) and isinstance(ft.median(x), ft.Tensor)
    assert ft.max(x, ft.tensor([[3.0, 3.0], [3.0, 3.0]])).tolist() == [[3.0, 5.0], [4.0, 3.0]]


def test_return_types_is_an_importable_module():
    mod = importlib.import_module("flowgrad.torch.return_types")
    assert mod is ft.return_types and sys.modules["flowgrad.torch.return_types"] is mod
    assert isinstance(ft.max(ft.tensor([[1.0]]), 0), mod.max)
    assert "torch.return_types" not in sys.modules or sys.modules["torch.return_types"].__name__ == "torch.return_types"


def test_version_module_matches_a_cpu_build():
    import torch.version as real

    assert ft.version.__version__ is ft.__version__
    for name in ("debug", "cuda", "hip", "rocm", "xpu"):
        assert getattr(ft.version, name) == getattr(real, name)
