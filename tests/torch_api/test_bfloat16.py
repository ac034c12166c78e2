"""bfloat16 in the torch facade (a NumPy dtype from the optional ml_dtypes package), each behaviour
written once and run on flowgrad.torch and on real torch 2.13 (the `torch` fixture): the dtype
object, creation and conversion, promotion, printing, values bit for bit (PyTorch computes each
bfloat16 op in float32 and rounds the result once), gradients that stay bfloat16, and the refusals."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("ml_dtypes")
TEST_DEVICE = os.environ.get("FLOWGRAD_TEST_DEVICE", "cpu")     # (the suite's device, as conftest reads it)
# bfloat16 tensors live on the CPU only (CuPy has no bfloat16): not run on the suite's other devices
pytestmark = pytest.mark.skipif(TEST_DEVICE != "cpu", reason="bfloat16 tensors live on the CPU only")

VALUES = [1.1, -2.3, 0.0071, 3.5e4, -0.5, 7.0]


def _f32(t):
    """The tensor's values as float32 (every bfloat16 is one), for exact comparison."""
    return t.detach().float().numpy()


def _raises(fn, cls, msg):
    with pytest.raises(cls, match="^" + re.escape(msg) + "$"):
        fn()


def _pair(T, shape=(4, 6), seed=0):
    rng = np.random.default_rng(seed)
    a = T.tensor(rng.standard_normal(shape).astype(np.float32)).bfloat16()
    b = T.tensor(rng.standard_normal(shape).astype(np.float32)).bfloat16()
    return a, b


# ------------------------------------------------------------------------------------ the dtype

def test_dtype_object(torch):
    bf = torch.bfloat16
    assert (bf.is_floating_point, bf.is_complex, bf.is_signed, bf.itemsize) == (True, False, True, 2)
    assert repr(bf) == "torch.bfloat16" and bf != torch.float16 and bf != torch.float32
    import pickle
    assert pickle.loads(pickle.dumps(bf)) == bf
    info = torch.finfo(bf)
    assert (info.bits, info.eps, info.max, info.tiny, info.resolution) == (16, 0.0078125, 3.3895313892515355e+38,
                                                                         1.1754943508222875e-38, 0.01)
    assert torch.is_floating_point(torch.ones(2, dtype=bf)) and torch.ones(2, dtype=bf).is_floating_point()


def test_creation_rounds_to_nearest_even(torch):
    t = torch.tensor(VALUES, dtype=torch.bfloat16)
    assert t.dtype == torch.bfloat16 and t.shape == (6,)
    want = [1.1015625, -2.296875, 0.007110595703125, 35072.0, -0.5, 7.0]
    np.testing.assert_array_equal(_f32(t), want)
    for make in (torch.zeros, torch.ones, torch.empty, torch.rand, torch.randn):
        assert make(2, 3, dtype=torch.bfloat16).dtype == torch.bfloat16
    assert torch.full((2,), 1.1, dtype=torch.bfloat16).tolist() == [1.1015625, 1.1015625]
    assert torch.tensor(2.5, dtype=torch.bfloat16).item() == 2.5


def test_conversions(torch):
    x = torch.tensor(VALUES)
    for y in (x.bfloat16(), x.to(torch.bfloat16), x.to(dtype=torch.bfloat16), x.type(torch.bfloat16)):
        assert y.dtype == torch.bfloat16
        np.testing.assert_array_equal(_f32(y), _f32(torch.tensor(VALUES, dtype=torch.bfloat16)))
    back = x.bfloat16().double()
    assert back.dtype == torch.float64 and back.tolist()[0] == 1.1015625
    assert torch.zeros(2, dtype=torch.bfloat16).new_ones(3).dtype == torch.bfloat16
    assert torch.ones_like(x, dtype=torch.bfloat16).dtype == torch.bfloat16


# ---------------------------------------------------------------------------------- promotion

@pytest.mark.parametrize("make, want", [
    (lambda T: T.ones(2, dtype=T.bfloat16) + T.ones(2, dtype=T.float16), "float32"),
    (lambda T: T.ones(2, dtype=T.bfloat16) + T.ones(2), "float32"),
    (lambda T: T.ones(2, dtype=T.bfloat16) + T.ones(2, dtype=T.float64), "float64"),
    (lambda T: T.ones(2, dtype=T.bfloat16) + T.tensor(1.0, dtype=T.float64), "bfloat16"),
    (lambda T: T.ones(2, dtype=T.int64) + T.tensor(1.0, dtype=T.bfloat16), "bfloat16"),
    (lambda T: T.ones(2, dtype=T.bfloat16) + 1, "bfloat16"),
    (lambda T: T.ones(2, dtype=T.bfloat16) * 2.5, "bfloat16"),
    (lambda T: T.ones(2, dtype=T.bfloat16) * 1j, "complex64"),
    (lambda T: T.ones(2, dtype=T.bfloat16) + T.ones(2, dtype=T.complex128), "complex128"),
    (lambda T: T.ones(2, dtype=T.int32) + T.ones(2, dtype=T.bfloat16), "bfloat16"),
    (lambda T: T.ones(2, dtype=T.bool) * T.ones(2, dtype=T.bfloat16), "bfloat16"),
    (lambda T: T.ones(2, dtype=T.bfloat16) > 0.5, "bool"),
    (lambda T: T.cat([T.ones(2, dtype=T.bfloat16), T.ones(2)]), "float32"),
    (lambda T: T.promote_types(T.bfloat16, T.float16), "float32"),
    (lambda T: T.promote_types(T.bfloat16, T.int8), "bfloat16"),
    (lambda T: T.result_type(T.ones(2, dtype=T.bfloat16), 2.0), "bfloat16"),
])
def test_promotion(torch, make, want):
    r = make(torch)
    assert (r if isinstance(r, torch.dtype) else r.dtype) == getattr(torch, want)


# ----------------------------------------------------------------------------------- printing

@pytest.mark.parametrize("make", [
    lambda T: T.tensor(VALUES, dtype=T.bfloat16),
    lambda T: T.tensor([1.0, 2.0], dtype=T.bfloat16),
    lambda T: T.tensor(3.0, dtype=T.bfloat16),
    lambda T: T.tensor([[1e-5, 1e5], [float("nan"), float("inf")]], dtype=T.bfloat16),
    lambda T: T.tensor([0.1, 0.2], dtype=T.bfloat16, requires_grad=True),
    lambda T: T.tensor([0.1, 0.2], dtype=T.bfloat16, requires_grad=True) * 2,
])
def test_repr(make):
    import torch as real_torch
    import flowgrad.torch as ft
    got, want = repr(make(ft)), repr(make(real_torch))
    assert got == re.sub(r"<(\w+)Backward0>", r"<\1Backward0>", want)


# ------------------------------------------------------------------------- values bit for bit

OPS = {
    "add": lambda T, a, b: a + b,
    "sub": lambda T, a, b: a - b,
    "mul": lambda T, a, b: a * b,
    "div": lambda T, a, b: a / b,
    "add_scalar": lambda T, a, b: a + 0.1 - 3.3,
    "rsub_scalar": lambda T, a, b: 1 - a,
    "mul_exact_scalar": lambda T, a, b: a * 2.5 / 0.5,
    "add_alpha": lambda T, a, b: T.add(a, b, alpha=2),
    "neg_abs": lambda T, a, b: -a.abs(),
    "exp": lambda T, a, b: T.exp(a),
    "log": lambda T, a, b: T.log(a.abs()),
    "tanh": lambda T, a, b: T.tanh(a),
    "sigmoid": lambda T, a, b: T.sigmoid(a),
    "sqrt_reciprocal": lambda T, a, b: T.sqrt(a.abs()) + T.reciprocal(b),
    "sin_cos": lambda T, a, b: T.sin(a) * T.cos(b),
    "relu": lambda T, a, b: T.relu(a),
    "pow": lambda T, a, b: a ** 2,
    "maximum": lambda T, a, b: T.maximum(a, b),
    "where": lambda T, a, b: T.where(a > 0, a, b),
    "sum": lambda T, a, b: (a * 100).sum(),
    "sum_dim": lambda T, a, b: a.sum(0) + b.sum(1, keepdim=True).sum(0),
    "mean": lambda T, a, b: a.mean(1),
    "matmul": lambda T, a, b: a @ b.t(),
    "linear": lambda T, a, b: T.nn.functional.linear(a, b, b[:, 0]),
    "softmax": lambda T, a, b: T.softmax(a, 1),
    "log_softmax": lambda T, a, b: T.log_softmax(a * 3, 0),
    "views": lambda T, a, b: a.t().reshape(3, 8)[1:].flatten() * 1,
    "cat_stack": lambda T, a, b: T.stack([T.cat([a, b]), T.cat([b, a])]),
}


@pytest.mark.parametrize("name", list(OPS))
def test_values_bit_for_bit(name):
    import torch as real_torch
    import flowgrad.torch as ft
    got = [OPS[name](T, *_pair(T)) for T in (ft, real_torch)]
    assert str(got[0].dtype) == str(got[1].dtype) == "torch.bfloat16"
    np.testing.assert_array_equal(_f32(got[0]), _f32(got[1]))


def test_mul_by_an_unrepresentable_number_within_one_unit():
    """A Python number becomes a bfloat16 before the op (exact where PyTorch's add does so too); its
    mul and div keep the number in float32, so there the last bit may differ."""
    import torch as real_torch
    import flowgrad.torch as ft
    got = [_f32(_pair(T)[0] * 0.1) for T in (ft, real_torch)]
    np.testing.assert_allclose(got[0], got[1], rtol=2 ** -7, atol=0)


# -------------------------------------------------------------------------------------- grads

GRADS = {
    "mul_add": lambda T, a, b: (a * b + a).sum(),
    "tanh": lambda T, a, b: T.tanh(a).sum(),
    "matmul": lambda T, a, b: (a @ b.t()).sum(),
    "linear_relu": lambda T, a, b: T.relu(T.nn.functional.linear(a, b)).sum(),
    "softmax": lambda T, a, b: (T.softmax(a, 1) * b).sum(),
    "mean": lambda T, a, b: (a * a).mean(),
}


@pytest.mark.parametrize("name", list(GRADS))
def test_gradients_stay_bfloat16(name):
    import torch as real_torch
    import flowgrad.torch as ft
    grads = []
    for T in (ft, real_torch):
        a, b = (t.requires_grad_() for t in _pair(T))
        GRADS[name](T, a, b).backward()
        assert a.grad.dtype == T.bfloat16 and (b.grad is None or b.grad.dtype == T.bfloat16)
        grads.append((_f32(a.grad), None if b.grad is None else _f32(b.grad)))
    for g1, g2 in zip(*grads):   # (formulas of several ops: each rounds, so within a few units)
        assert (g1 is None) == (g2 is None)
        if g1 is not None:
            np.testing.assert_allclose(g1, g2, rtol=3 * 2 ** -8, atol=1e-2)


def test_module_to_bfloat16_runs_as_torch():
    import torch as real_torch
    import flowgrad.torch as ft
    real = real_torch.nn.Sequential(real_torch.nn.Linear(6, 5), real_torch.nn.ReLU(), real_torch.nn.Linear(5, 3))
    mine = ft.nn.Sequential(ft.nn.Linear(6, 5), ft.nn.ReLU(), ft.nn.Linear(5, 3))
    mine.load_state_dict({k: ft.tensor(v.numpy()) for k, v in real.state_dict().items()})
    outs = []
    for T, m in ((ft, mine), (real_torch, real)):
        m.to(T.bfloat16)
        assert all(p.dtype == T.bfloat16 for p in m.parameters())
        x = _pair(T)[0]
        outs.append(_f32(m(x)))
    np.testing.assert_array_equal(outs[0], outs[1])


# ------------------------------------------------------------------------------------ refusals

def test_numpy_refuses_bfloat16(torch):
    _raises(lambda: torch.ones(2, dtype=torch.bfloat16).numpy(), TypeError, "Got unsupported ScalarType BFloat16")


def test_cuda_refuses_bfloat16(ftorch):
    t = ftorch.ones(2, dtype=ftorch.bfloat16)
    msg = "bfloat16 tensors live on the cpu only: the cuda device's array library (CuPy) has no bfloat16 dtype"
    _raises(lambda: t.to("cuda"), RuntimeError, msg)
    _raises(lambda: ftorch.zeros(2, dtype=ftorch.bfloat16, device="cuda"), RuntimeError, msg)


def test_default_dtype_bfloat16_not_built(ftorch):
    _raises(lambda: ftorch.set_default_dtype(ftorch.bfloat16), NotImplementedError,
            "bfloat16 as the default dtype is not built in flowgrad")
    assert ftorch.get_default_dtype() == ftorch.float32


def test_without_ml_dtypes_the_dtype_exists_and_tensors_say_what_to_install():
    code = ("import sys; sys.modules['ml_dtypes'] = None\n"
            "import flowgrad.torch as torch\n"
            "assert repr(torch.bfloat16) == 'torch.bfloat16' and torch.bfloat16.is_floating_point\n"
            "assert torch.bfloat16 != torch.float16 and torch.float16 != torch.bfloat16\n"
            "import pickle; assert pickle.loads(pickle.dumps(torch.bfloat16)) == torch.bfloat16\n"
            "for make in (lambda: torch.ones(2, dtype=torch.bfloat16), lambda: torch.ones(2).to(torch.bfloat16),\n"
            "             lambda: torch.tensor([1.0], dtype=torch.bfloat16)):\n"
            "    try:\n"
            "        make()\n"
            "    except RuntimeError as e:\n"
            "        print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    want = ("bfloat16 tensors need the ml_dtypes package, which gives NumPy a bfloat16 dtype: install it with "
            "`pip install \"flowgrad[bfloat16]\"`\n")
    assert out == want * 3


def test_save_load_and_copies_keep_bfloat16(ftorch, tmp_path):
    t = ftorch.tensor(VALUES, dtype=ftorch.bfloat16)
    ftorch.save({"t": t, "w": ftorch.nn.Linear(2, 1).to(ftorch.bfloat16).state_dict()}, tmp_path / "b.pt")
    back = ftorch.load(tmp_path / "b.pt")
    assert back["t"].dtype == back["w"]["weight"].dtype == ftorch.bfloat16
    np.testing.assert_array_equal(_f32(back["t"]), _f32(t))
    import copy
    import pickle
    for c in (copy.deepcopy(t), pickle.loads(pickle.dumps(t))):
        assert c.dtype == ftorch.bfloat16 and c.tolist() == t.tolist()


def test_numpy_bfloat16_arrays_refused(torch):
    import ml_dtypes
    a = np.array([1.5, 2.0], dtype=ml_dtypes.bfloat16)
    msg = ("can't convert np.ndarray of type ml_dtypes.bfloat16. The only supported types are: float64, float32, "
           "float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool.")
    for make in (torch.tensor, torch.from_numpy, torch.as_tensor):
        _raises(lambda: make(a), TypeError, msg)
    t = torch.tensor([torch.tensor(1.5, dtype=torch.bfloat16), torch.tensor(2.0, dtype=torch.bfloat16)])
    assert t.dtype == torch.bfloat16 and t.tolist() == [1.5, 2.0]
