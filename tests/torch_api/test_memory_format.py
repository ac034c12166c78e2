"""torch.memory_format (contiguous_format, channels_last, channels_last_3d, preserve_format) on
flowgrad.torch and real torch: strides of contiguous / clone / to and of a module's parameters after
Module.to, is_contiguous, values unchanged, gradients through the copy, and the errors."""
from __future__ import annotations

import re

import numpy as np
import pytest

X = np.random.default_rng(3).standard_normal((2, 3, 4, 5))


def test_names_and_repr(torch):
    for name in ("contiguous_format", "channels_last", "channels_last_3d", "preserve_format"):
        fmt = getattr(torch, name)
        assert isinstance(fmt, torch.memory_format) and repr(fmt) == f"torch.{name}"


def test_contiguous_clone_and_to_lay_out_as_torch(torch):
    x = torch.tensor(X, requires_grad=True)
    cl = x.contiguous(memory_format=torch.channels_last)
    assert cl.stride() == (60, 1, 15, 3) and not cl.is_contiguous()
    assert cl.is_contiguous(memory_format=torch.channels_last) and not x.is_contiguous(memory_format=torch.channels_last)
    assert cl.contiguous(memory_format=torch.channels_last) is cl
    assert type(cl.grad_fn).__name__ == "CloneBackward0"
    assert cl.contiguous().stride() == (60, 20, 5, 1)
    assert cl.clone(memory_format=torch.preserve_format).stride() == (60, 1, 15, 3)
    assert cl.clone(memory_format=torch.contiguous_format).stride() == (60, 20, 5, 1)
    assert x.to(memory_format=torch.channels_last).stride() == (60, 1, 15, 3)
    assert x.to(memory_format=torch.preserve_format) is x
    assert np.array_equal(cl.detach().numpy(), X)
    (cl * torch.tensor(X)).sum().backward()
    assert np.array_equal(x.grad.numpy(), X)
    five = torch.zeros(2, 3, 4, 5, 6).contiguous(memory_format=torch.channels_last_3d)
    assert five.stride() == (360, 1, 90, 18, 3)


def test_module_to_changes_the_parameters_of_its_rank(torch):
    torch.manual_seed(0)
    conv = torch.nn.Conv2d(3, 4, 3).to(memory_format=torch.channels_last)
    assert conv.weight.stride() == (27, 1, 9, 3) and conv.bias.stride() == (1,)
    assert torch.nn.Linear(2, 3).to(memory_format=torch.channels_last).weight.stride() == (2, 1)
    x = torch.tensor(X[:, :3].copy()).float()
    assert np.allclose(conv(x.contiguous(memory_format=torch.channels_last)).detach().numpy(),
                       conv(x).detach().numpy(), atol=1e-6)


@pytest.mark.parametrize("call, kind, message", [
    (lambda T, x: x.t().contiguous(memory_format=T.preserve_format), RuntimeError,
     "preserve memory format is unsupported by the contiguous operator"),
    (lambda T, x: x.contiguous(memory_format=T.channels_last), RuntimeError,
     "required rank 4 tensor to use channels_last format"),
    (lambda T, x: x.clone(memory_format=T.channels_last_3d), RuntimeError,
     "required rank 5 tensor to use channels_last_3d format"),
    (lambda T, x: x.contiguous(memory_format="channels_last"), TypeError,
     "contiguous(): argument 'memory_format' must be torch.memory_format, not str"),
    (lambda T, x: x.clone(memory_format=1), TypeError,
     "clone(): argument 'memory_format' must be torch.memory_format, not int"),
])
def test_errors(torch, call, kind, message):
    x = torch.zeros(2, 3)
    with pytest.raises(kind, match="^" + re.escape(message) + "$"):
        call(torch, x)


def test_module_to_refuses_what_is_not_a_memory_format(torch):
    with pytest.raises(TypeError):
        torch.nn.Linear(2, 3).to(memory_format="channels_last")


LIKE_INPUTS = {
    "permuted": lambda t: t.tensor(X).permute(0, 2, 3, 1),
    "channels_last": lambda t: t.tensor(X).contiguous(memory_format=t.channels_last),
    "sliced": lambda t: t.tensor(X)[:, ::2],
    "expanded": lambda t: t.tensor(X[:, :1]).expand(2, 3, 4, 5),
    "size-1 dims": lambda t: t.tensor(X[:1, :, :1]).permute(3, 2, 1, 0),
}


@pytest.mark.parametrize("make", list(LIKE_INPUTS))
def test_like_creators_keep_the_layout_as_torch(torch, make):
    """zeros_like and the other *_like creators default to preserve_format: strides as PyTorch's."""
    x = LIKE_INPUTS[make](torch)
    got = [f(x).stride() for f in (torch.zeros_like, torch.ones_like, torch.empty_like, torch.rand_like,
                                    torch.randn_like)] + [torch.full_like(x, 2.0).stride()]
    assert got == [x.clone().stride()] * 6
    assert torch.ones_like(x).sum().item() == x.numel()


@pytest.mark.parametrize("name", ["zeros_like", "ones_like", "empty_like", "rand_like", "randn_like"])
def test_like_creators_take_a_memory_format(torch, name):
    x = torch.tensor(X).permute(0, 2, 3, 1)
    like = getattr(torch, name)
    assert like(x, memory_format=torch.preserve_format).stride() == (60, 5, 1, 20)
    assert like(x, memory_format=torch.contiguous_format).stride() == (60, 15, 3, 1)
    assert like(x, memory_format=torch.channels_last).stride() == (60, 1, 12, 4)
    with pytest.raises(RuntimeError, match="required rank 5 tensor to use channels_last_3d format"):
        like(x, memory_format=torch.channels_last_3d)


@pytest.mark.parametrize("name, error", [("channels_last", None), ("contiguous_format", None),
                                         ("preserve_format", "^unsupported memory format Preserve$"),
                                         ("channels_last_3d", "^required rank 5 tensor to use channels_last_3d format$")])
def test_empty_takes_a_memory_format(torch, name, error):
    fmt = getattr(torch, name)
    if error:
        with pytest.raises(RuntimeError, match=error):
            torch.empty(2, 3, 4, 5, memory_format=fmt)
        return
    x = torch.empty(2, 3, 4, 5, memory_format=fmt, requires_grad=True)
    assert x.stride() == ((60, 1, 15, 3) if name == "channels_last" else (60, 20, 5, 1)) and x.is_leaf


@pytest.mark.parametrize("size, stride, error", [
    ((2, 3), (1, 2), None), ((2, 3), (0, 0), None), ((0, 3), (5, 1), None), ((), (), None),
    ((2, 3), (1,), "^dimensionality of sizes \\(2\\) must match dimensionality of strides \\(1\\)$"),
    ((2, -1), (1, 1), "^Trying to create tensor with negative dimension -1: \\[2, -1\\]$"),
    ((2,), (-1,), "^Storage size calculation overflowed with sizes=\\[2\\] and strides=\\[-1\\]$")])
def test_empty_strided_as_pytorch(torch, size, stride, error):
    if error:
        with pytest.raises(RuntimeError, match=error):
            torch.empty_strided(size, stride)
        return
    x = torch.empty_strided(size, stride, dtype=torch.float64)
    assert x.stride() == stride and tuple(x.shape) == size and x.dtype == torch.float64
    x.fill_(1.0)
    assert x.sum().item() == x.numel()
