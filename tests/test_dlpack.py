"""DLPack round trips are zero-copy with NumPy and the real PyTorch."""
from __future__ import annotations

import numpy as np
import pytest


def test_from_numpy_shares_memory(ftorch):
    a = np.arange(3.0)
    t = ftorch.from_numpy(a)
    a[0] = 7.0
    assert t.tolist() == [7.0, 1.0, 2.0]


def test_from_dlpack_of_numpy_is_zero_copy(ftorch):
    a = np.arange(4.0)
    t = ftorch.from_dlpack(a)
    t[1] = 9.0
    assert a.tolist() == [0.0, 9.0, 2.0, 3.0]


def test_numpy_reads_a_flowgrad_tensor_through_dlpack(ftorch):
    t = ftorch.arange(3.0, device="cpu")     # (NumPy reads host memory only)
    a = np.from_dlpack(t)
    a[2] = -1.0
    assert t.tolist() == [0.0, 1.0, -1.0]


def test_exporting_a_tensor_that_requires_grad_is_refused(ftorch):
    t = ftorch.ones(2, requires_grad=True)
    with pytest.raises(BufferError, match="Can't export tensors that require gradient, use tensor.detach()"):
        t.__dlpack__()
    assert np.from_dlpack(t.detach()).tolist() == [1.0, 1.0]


def test_capsule_round_trip_shares_memory(ftorch):
    from flowgrad.torch.utils import dlpack
    t = ftorch.tensor([1.0, 2.0])
    u = dlpack.from_dlpack(dlpack.to_dlpack(t))
    t[0] = 5.0  # a bare (unversioned) capsule imports read-only on the CPU, as NumPy does
    assert u.tolist() == [5.0, 2.0]


def test_real_torch_to_flowgrad_is_zero_copy(ftorch, real_torch):
    r = real_torch.arange(3, dtype=real_torch.float64)
    t = ftorch.from_dlpack(r)
    t[0] = 42.0
    assert r.tolist() == [42.0, 1.0, 2.0]
    assert str(t.dtype) == "torch.float64"


def test_flowgrad_to_real_torch_is_zero_copy(ftorch, real_torch):
    t = ftorch.tensor([1.0, 2.0, 3.0])
    r = real_torch.from_dlpack(t)
    r[1] = -2.0
    assert t.tolist() == [1.0, -2.0, 3.0]
    assert r.dtype == real_torch.float32


def test_real_torch_capsule_to_flowgrad(ftorch, real_torch):
    r = real_torch.ones(2, dtype=real_torch.float64)
    t = ftorch.from_dlpack(real_torch.utils.dlpack.to_dlpack(r))
    r.mul_(3)
    assert t.tolist() == [3.0, 3.0]


def test_from_dlpack_rejects_non_producers(ftorch):
    with pytest.raises(TypeError, match="DLPack protocol"):
        ftorch.from_dlpack(1)
