"""Devices: gradients live where their primal lives, `.to()` is differentiable, mixing devices is
refused with PyTorch's message, and CUDA without CuPy fails clearly. The second device here is the
NumPy-backed fake device (flowgrad.testing.fake_device); on a GPU machine the same code runs on CuPy."""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys

import pytest

from flowgrad.testing import fake_device

fake_device.register()
HAVE_CUPY = importlib.util.find_spec("cupy") is not None


def test_ops_and_gradients_stay_on_the_tensor_device(ftorch):
    x = ftorch.tensor([1.0, 2.0], device="fake", requires_grad=True)
    y = (x.exp() * x).sum()
    assert y.device.type == "fake"
    y.backward()
    assert x.grad.device == x.device
    assert type(x.grad._data) is fake_device.FakeArray
    assert x.grad.tolist() == pytest.approx([2 * 2.718281828459045, 3 * 7.38905609893065])


def test_to_is_differentiable_and_gradient_returns_to_the_source_device(ftorch):
    x = ftorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.to("fake")
    assert y.device.type == "fake" and y.grad_fn.name() == "ToCopyBackward0"
    (y * y).sum().backward()
    assert x.grad.device.type == "cpu"
    assert x.grad.tolist() == [2.0, 4.0, 6.0]


def test_mixing_devices_in_one_op_raises_pytorchs_error(ftorch):
    a = ftorch.ones(2)
    b = ftorch.ones(2, device="fake")
    msg = "Expected all tensors to be on the same device, but found at least two devices, fake:0 and cpu!"
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        a + b


def test_factories_accept_a_device(ftorch):
    for t in (ftorch.zeros(2, device="fake"), ftorch.randn(3, device="fake"), ftorch.arange(3, device="fake"),
              ftorch.tensor([1, 2], device="fake"), ftorch.eye(2, device="fake")):
        assert t.device.type == "fake"


def test_importing_flowgrad_never_imports_cupy():
    code = "import sys, flowgrad.torch, flowgrad.ops; print('cupy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.skipif(HAVE_CUPY, reason="CuPy is installed here")
def test_cuda_without_cupy_says_how_to_install_it(ftorch):
    with pytest.raises(RuntimeError, match=re.escape('pip install "flowgrad[cuda]"')):
        ftorch.zeros(2, device="cuda")
    assert ftorch.cuda.is_available() is False
    assert ftorch.accelerator.is_available() is False


@pytest.mark.skipif(not HAVE_CUPY, reason="CuPy is not installed")
def test_cuda_round_trip_when_cupy_is_present(ftorch):  # pragma: no cover - needs a GPU
    if not ftorch.cuda.is_available():
        pytest.skip("no CUDA device")
    x = ftorch.tensor([1.0, 2.0], requires_grad=True)
    y = x.cuda()
    (y * y).sum().backward()
    assert y.device.type == "cuda" and x.grad.tolist() == [2.0, 4.0]
