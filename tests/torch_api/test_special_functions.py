"""lgamma, digamma and polygamma against real torch: values over the whole real line (poles, signed
zeros, infinities), dtypes, node names, gradients to the second order and the error for a negative n."""
from __future__ import annotations

import math

import numpy as np
import pytest

real = pytest.importorskip("torch")
import flowgrad.torch as fg  # noqa: E402

POINTS = [0.3, 1.0, 2.0, 2.5, 7.1, 30.0, 150.0, -1.5, -2.5, -7.3, 1e-3, 0.0, -0.0, -1.0, 1e6, 1e-300, 3e305,
          np.inf, -np.inf, np.nan, 0.5]


@pytest.mark.parametrize("name", ["lgamma", "digamma"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_values_match_torch(name, dtype):
    x = np.array(POINTS)
    mine = getattr(fg, name)(fg.tensor(x, dtype=getattr(fg, dtype)))
    theirs = getattr(real, name)(real.tensor(x, dtype=getattr(real, dtype)))
    assert str(mine.dtype) == str(theirs.dtype)
    tol = 1e-13 if dtype == "float64" else 1e-6
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5])
def test_polygamma_matches_torch(n):
    x = np.array([0.3, 1.0, 2.5, 7.1, 30.0, 150.0, -1.5, -2.5, -0.3, 1e-3])
    mine = fg.polygamma(n, fg.tensor(x, dtype=fg.float64)).numpy()
    np.testing.assert_allclose(mine, real.polygamma(n, real.tensor(x, dtype=real.float64)).numpy(), rtol=1e-9)
    assert np.allclose(fg.tensor(x).polygamma(n).numpy(), real.tensor(x).polygamma(n).numpy(), rtol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("n", [1, 2])
def test_polygamma_at_the_poles_matches_torch(n, dtype):
    """trigamma as PyTorch computes it: a pole gives the large finite value of its reflection."""
    x = [0.0, -1.0, -2.0, -7.0, 0.5, -0.5, 3.3, math.inf, -math.inf, math.nan]
    mine = fg.polygamma(n, fg.tensor(x, dtype=getattr(fg, dtype))).float().numpy()
    theirs = real.polygamma(n, real.tensor(x, dtype=getattr(real, dtype))).float().numpy()
    np.testing.assert_allclose(mine, theirs, rtol=1e-6)


def test_integer_inputs_give_the_default_float(torch):
    assert torch.lgamma(torch.tensor([1, 2])).dtype == torch.float32
    assert torch.polygamma(1, torch.tensor([1, 2])).dtype == torch.float32


def test_node_names_and_gradients(torch):
    x = torch.tensor([0.7, 1.5, 4.0], dtype=torch.float64, requires_grad=True)
    outs = [torch.lgamma(x), torch.digamma(x), torch.polygamma(2, x), x.polygamma(0)]
    assert [type(o.grad_fn).__name__ for o in outs] == ["LgammaBackward0", "DigammaBackward0",
                                                         "PolygammaBackward0", "PolygammaBackward0"]
    (g,) = torch.autograd.grad(sum(o.sum() for o in outs), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    # d/dx [lgamma + digamma + psi2 + psi0] = psi0 + psi1 + psi3 + psi1
    expect = [torch.polygamma(k, x.detach()) for k in (0, 1, 3, 1)]
    assert torch.allclose(g, sum(expect))
    assert torch.allclose(gg, sum(torch.polygamma(k, x.detach()) for k in (1, 2, 4, 2)))


def test_negative_order_is_refused(torch):
    with pytest.raises(RuntimeError, match=r"^polygamma\(n, x\) does not support negative n\.$"):
        torch.polygamma(-1, torch.tensor([1.0]))


def test_xlogy(torch):
    x = torch.tensor([0.0, 1.0, 2.0, 0.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([0.0, 0.5, 3.0, float("nan")], dtype=torch.float64, requires_grad=True)
    out = torch.xlogy(x, y)
    assert type(out.grad_fn).__name__ == "XlogyBackward0"
    assert type(torch.xlogy(x, 2.0).grad_fn).__name__ == "XlogyBackward2"
    assert type(torch.xlogy(2.0, y).grad_fn).__name__ == "XlogyBackward1"
    assert torch.allclose(out[:3], torch.tensor([0.0, 0.5 ** 0 * np.log(0.5), 2 * np.log(3.0)], dtype=torch.float64))
    assert bool(torch.isnan(out[3]))
    out[:3].sum().backward()
    assert x.grad.tolist()[:3] == pytest.approx([0.0, np.log(0.5), np.log(3.0)])
    assert y.grad.tolist()[1:3] == pytest.approx([2.0, 2 / 3])
    assert torch.xlogy(torch.tensor([0, 1]), torch.tensor([0, 2])).dtype == torch.float32


@pytest.mark.parametrize("shapes", [((2, 3), (2,)), ((2, 3), (4, 5, 6))])
def test_xlogy_shapes_that_do_not_broadcast(shapes):
    caught = []
    for T in (fg, real):
        with pytest.raises(RuntimeError) as info:
            T.xlogy(T.ones(*shapes[0]), T.ones(*shapes[1]))
        caught.append(str(info.value))
    assert caught[0] == caught[1]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_erfinv_matches_torch(dtype):
    x = np.array([-1.0, -0.999999999, -0.9, -0.5, -1e-8, 0.0, 1e-8, 0.3, 0.51, 0.7, 0.99, 0.999999, 1 - 1e-15, 1.0, 1.5,
                  np.nan, 1e-300])
    mine = fg.erfinv(fg.tensor(x, dtype=getattr(fg, dtype)))
    theirs = real.erfinv(real.tensor(x, dtype=getattr(real, dtype)))
    tol = 1e-14 if dtype == "float64" else 1e-6
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=tol, atol=0)
    assert fg.tensor([0.5]).erfinv().dtype == fg.float32
    assert fg.erfinv(fg.tensor([0, 1])).dtype == fg.float32


def test_erfinv_gradient(torch):
    x = torch.tensor([-0.7, 0.1, 0.95], dtype=torch.float64, requires_grad=True)
    y = torch.erfinv(x)
    assert type(y.grad_fn).__name__ == "ErfinvBackward0"
    (g,) = torch.autograd.grad(y.sum(), x)
    assert torch.allclose(g, 0.5 * np.sqrt(np.pi) * torch.exp(y.detach() ** 2))
