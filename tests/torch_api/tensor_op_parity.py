"""One program, run on flowgrad.torch and on real torch with equal inputs: outputs (values, dtypes,
shapes, requires_grad), the gradients of every floating input, and the exception (type and text)
must agree. Used by the tensor-op family's tests (index, cumulative, search, shape-making ops)."""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad.torch as ftorch

torch = pytest.importorskip("torch")


def _inputs(T, arrays, requires_grad):
    out = []
    for a in arrays:
        a = np.asarray(a)
        t = T.tensor(a.copy())
        if requires_grad and a.dtype.kind == "f":
            t.requires_grad_()
        out.append(t)
    return out


def _flat(result):
    if isinstance(result, (tuple, list)):
        return [r for item in result for r in _flat(item)]
    return [result]


def _compare(mine, theirs, what):
    if not isinstance(theirs, torch.Tensor):
        assert mine == theirs, f"{what}: {mine!r} != {theirs!r}"
        return
    assert isinstance(mine, ftorch.Tensor), f"{what}: got {type(mine).__name__}, torch gives a Tensor"
    assert str(mine.dtype) == str(theirs.dtype), f"{what}: dtype {mine.dtype} != {theirs.dtype}"
    assert tuple(mine.shape) == tuple(theirs.shape), f"{what}: shape {tuple(mine.shape)} != {tuple(theirs.shape)}"
    assert mine.requires_grad == theirs.requires_grad, f"{what}: requires_grad differs"
    np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-6, atol=1e-7,
                               equal_nan=True, err_msg=what)


def same(fn, *arrays, grad: bool = True):
    """`fn(T, *tensors)` agrees on both frameworks; with `grad`, so do the gradients of
    sum(out * w) (w seeded, one per floating output) for every floating input."""
    runs = []
    for T in (ftorch, torch):
        xs = _inputs(T, arrays, grad)
        outs = _flat(fn(T, *xs))
        grads = None
        live = [o for o in outs if isinstance(o, T.Tensor) and o.requires_grad]
        wanted = [x for x in xs if x.requires_grad]
        if grad and live and wanted:
            rng = np.random.default_rng(0)
            loss = sum((o * T.tensor(rng.uniform(0.5, 1.5, tuple(o.shape)), dtype=o.dtype)).sum() for o in live)
            grads = T.autograd.grad(loss, wanted, allow_unused=True)
        runs.append((outs, grads))
    (mine, my_grads), (theirs, their_grads) = runs
    assert len(mine) == len(theirs)
    for i, (m, t) in enumerate(zip(mine, theirs)):
        _compare(m, t, f"output {i}")
    assert (my_grads is None) == (their_grads is None)
    for i, (m, t) in enumerate(zip(my_grads or (), their_grads or ())):
        assert (m is None) == (t is None), f"gradient {i}: one is None"
        if t is not None:
            _compare(m, t, f"gradient {i}")
    return mine


def same_nodes(fn, *arrays):
    """`fn(T, *tensors)` (inputs requiring grad) records the same output node names on both frameworks."""
    names = []
    for T in (ftorch, torch):
        out = fn(T, *[T.tensor(a, requires_grad=True) for a in arrays])
        names.append([o.grad_fn.name() if o.grad_fn is not None else None
                      for o in (out if isinstance(out, tuple) else (out,))])
    assert names[0] == names[1]


def same_error(fn, *arrays):
    """`fn(T, *tensors)` raises the same exception type with the same text on both frameworks,
    and leaves its inputs unchanged."""
    caught = []
    for T in (ftorch, torch):
        xs = _inputs(T, arrays, False)
        before = [np.array(x.detach().numpy()) for x in xs]
        with pytest.raises(Exception) as info:
            fn(T, *xs)
        for x, b in zip(xs, before):
            np.testing.assert_array_equal(x.detach().numpy(), b, err_msg="the failed call changed an input")
        caught.append(info.value)
    mine, theirs = caught
    assert type(mine) is type(theirs), f"{type(mine).__name__} != {type(theirs).__name__}: {theirs}"
    assert str(mine) == str(theirs)
