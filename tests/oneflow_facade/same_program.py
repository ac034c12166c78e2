"""OneFlow's own test style: one program, run on flowgrad.oneflow and on flowgrad.torch (and real
torch where installed) with equal inputs, its values and the gradients of its inputs compared.
Use it wherever OneFlow's reference lists no difference from PyTorch."""
from __future__ import annotations

import importlib
import importlib.util
from typing import Callable, Sequence

import numpy as np

FRAMEWORKS = ["flowgrad.oneflow", "flowgrad.torch"] + (["torch"] if importlib.util.find_spec("torch") else [])


def _numpy(t) -> np.ndarray:
    return t.detach().numpy() if hasattr(t, "detach") else np.asarray(t)


def _as_tuple(x) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def alike(program: Callable, *inputs: Sequence, requires_grad: bool = True, atol: float = 1e-6) -> dict:
    """Run `program(fw, *tensors)` on every framework (`fw` is the module; the tensors are float32
    leaves made from `inputs`, requiring grad unless told otherwise). The program returns a tensor
    or a tuple of tensors; when the inputs require grad, the sum of the outputs is backpropagated.
    Asserts that every framework gives the same values and input gradients (dtypes included) and
    returns {framework name: (outputs as arrays, input grads as arrays or None)}."""
    results = {}
    for name in FRAMEWORKS:
        fw = importlib.import_module(name)
        leaves = [fw.tensor(np.asarray(x, dtype=np.float32), requires_grad=requires_grad) for x in inputs]
        outs = _as_tuple(program(fw, *leaves))
        if requires_grad:
            total = sum(o.sum() for o in outs if o.requires_grad)
            if hasattr(total, "backward"):
                total.backward()
        grads = [None if t.grad is None else _numpy(t.grad) for t in leaves]
        results[name] = ([_numpy(o) for o in outs], grads)
    first, (want_outs, want_grads) = FRAMEWORKS[0], results[FRAMEWORKS[0]]
    for name, (outs, grads) in results.items():
        assert len(outs) == len(want_outs), (first, name)
        for a, b in zip(want_outs, outs):
            assert a.dtype == b.dtype and a.shape == b.shape, (first, name, a, b)
            np.testing.assert_allclose(a, b, atol=atol, err_msg=f"{first} vs {name}")
        for a, b in zip(want_grads, grads):
            assert (a is None) == (b is None), (first, name)
            if a is not None:
                assert a.dtype == b.dtype, (first, name)
                np.testing.assert_allclose(a, b, atol=atol, err_msg=f"grad: {first} vs {name}")
    return results


def make_function(fw, name: str, forward: Callable, backward: Callable) -> type:
    """A custom autograd Function class of framework `fw` named `name` from two plain functions."""
    return type(name, (fw.autograd.Function,), {"forward": staticmethod(forward), "backward": staticmethod(backward)})
