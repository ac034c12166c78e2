"""torch.distributions against real torch: log_prob / entropy / mean / variance / stddev / cdf and
kl_divergence values and their gradients w.r.t. the parameters (the same program on both, compared),
shapes (batch, event, expand), reprs, validation errors, and samples by shape, dtype and statistics
(the random streams differ); rsample by the reparameterization identity."""
from __future__ import annotations

import importlib
import re

import numpy as np
import pytest

real = pytest.importorskip("torch")
fg = importlib.import_module("flowgrad.torch")


def _run(program, params):
    """program(T, D, *leaves) -> tensor, on both: (values, grads) of each."""
    out = []
    for T in (fg, real):
        leaves = [T.tensor(p, dtype=T.float64, requires_grad=True) for p in params]
        value = program(T, T.distributions, *leaves)
        value.sum().backward()
        out.append((value.detach().numpy(), [leaf.grad.numpy() if leaf.grad is not None else None for leaf in leaves],
                    str(value.dtype), tuple(value.shape)))
    return out


def _same(program, params, rtol=1e-10, atol=1e-12):
    (v1, g1, d1, s1), (v2, g2, d2, s2) = _run(program, params)
    assert (d1, s1) == (d2.replace("torch.", "torch."), s2)
    np.testing.assert_allclose(v1, v2, rtol=rtol, atol=atol)
    for a, b in zip(g1, g2):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


LOC, SCALE = [0.3, -1.2, 2.0], [0.5, 1.5, 2.5]
X = [0.1, -0.7, 3.1]
PROBS = [0.2, 0.7, 0.45]
POS_A, POS_B = [0.7, 2.5, 4.2], [1.3, 0.6, 3.3]
UNIT = [0.15, 0.5, 0.85]
CAT = [[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]]

CASES = {
    "normal_log_prob": (lambda T, D, m, s, x: D.Normal(m, s).log_prob(x), [LOC, SCALE, X]),
    "normal_stats": (lambda T, D, m, s: T.stack([D.Normal(m, s).entropy(), D.Normal(m, s).mean,
                                                D.Normal(m, s).variance, D.Normal(m, s).stddev]), [LOC, SCALE]),
    "normal_cdf": (lambda T, D, m, s, x: D.Normal(m, s).cdf(x), [LOC, SCALE, X]),
    "poisson": (lambda T, D, r: T.stack([D.Poisson(r).log_prob(T.tensor([2.0, 0.0, 5.0], dtype=T.float64)),
                                         D.Poisson(r).mean, D.Poisson(r).variance]), [POS_A]),
    "geometric": (lambda T, D, p: T.stack([D.Geometric(p).log_prob(T.tensor([2.0, 0.0, 5.0], dtype=T.float64)),
                                           D.Geometric(p).entropy(), D.Geometric(p).mean, D.Geometric(p).variance,
                                           D.Geometric(logits=p).log_prob(T.tensor([1.0, 3.0, 0.0], dtype=T.float64))]),
                  [PROBS]),
    "icdf": (lambda T, D, m, s, u: T.stack([D.Normal(m, s).icdf(u), D.Laplace(m, s).icdf(u), D.Uniform(m, m + s).icdf(u),
                                           D.Exponential(s).icdf(u)]), [LOC, SCALE, UNIT]),
    "laplace": (lambda T, D, m, s, x: T.stack([D.Laplace(m, s).log_prob(x), D.Laplace(m, s).entropy(),
                                              D.Laplace(m, s).variance, D.Laplace(m, s).cdf(x)]), [LOC, SCALE, X]),
    "bernoulli_probs": (lambda T, D, p: T.stack([D.Bernoulli(probs=p).log_prob(T.tensor([1.0, 0.0, 1.0],
                                                                                        dtype=T.float64)),
                                                D.Bernoulli(probs=p).entropy(), D.Bernoulli(probs=p).variance,
                                                D.Bernoulli(probs=p).logits]), [PROBS]),
    "bernoulli_logits": (lambda T, D, l: T.stack([D.Bernoulli(logits=l).log_prob(T.tensor([1.0, 0.0, 0.0],
                                                                                         dtype=T.float64)),
                                                 D.Bernoulli(logits=l).entropy(), D.Bernoulli(logits=l).mean]),
                         [LOC]),
    "categorical_probs": (lambda T, D, p: T.cat([D.Categorical(probs=p).log_prob(T.tensor([2, 0])),
                                                 D.Categorical(probs=p).entropy(),
                                                 D.Categorical(probs=p).logits.reshape(-1)]), [CAT]),
    "categorical_logits": (lambda T, D, l: T.cat([D.Categorical(logits=l).log_prob(T.tensor([[1, 0], [2, 1]])
                                                                                  ).reshape(-1),
                                                  D.Categorical(logits=l).entropy(),
                                                  D.Categorical(logits=l).probs.reshape(-1)]), [CAT]),
    "uniform": (lambda T, D, a, b: T.stack([D.Uniform(a, a + b).log_prob(a + 0.5 * b), D.Uniform(a, a + b).entropy(),
                                           D.Uniform(a, a + b).mean, D.Uniform(a, a + b).variance,
                                           D.Uniform(a, a + b).cdf(a + 0.25 * b)]), [LOC, SCALE]),
    "exponential": (lambda T, D, r, x: T.stack([D.Exponential(r).log_prob(x), D.Exponential(r).entropy(),
                                               D.Exponential(r).mean, D.Exponential(r).variance,
                                               D.Exponential(r).cdf(x)]), [POS_A, POS_B]),
    "gamma": (lambda T, D, c, r, x: T.stack([D.Gamma(c, r).log_prob(x), D.Gamma(c, r).entropy(), D.Gamma(c, r).mean,
                                            D.Gamma(c, r).variance]), [POS_A, POS_B, POS_B]),
    "beta": (lambda T, D, a, b, x: T.stack([D.Beta(a, b).log_prob(x), D.Beta(a, b).entropy(), D.Beta(a, b).mean,
                                           D.Beta(a, b).variance]), [POS_A, POS_B, UNIT]),
    "dirichlet": (lambda T, D, c, x: (lambda d: T.cat([d.log_prob(x / x.sum(-1, keepdim=True)), d.entropy(),
                                                       d.mean.reshape(-1), d.variance.reshape(-1),
                                                       d.mode.reshape(-1)]))(D.Dirichlet(c)),
                  [[[0.7, 2.5, 4.2], [1.3, 0.6, 3.3]], [[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]]]),
    "independent": (lambda T, D, m, s, x: (lambda d: T.cat([d.log_prob(x).reshape(-1), d.entropy().reshape(-1),
                                                            d.mean.reshape(-1), d.variance.reshape(-1)]))(
        D.Independent(D.Normal(m, s), 1)), [[LOC, X], [SCALE, POS_A], [X, LOC]]),
    "mvn_covariance": (lambda T, D, m, a: (lambda d: T.cat([d.log_prob(m * 0.5 + 0.1).reshape(-1),
                                                            d.entropy().reshape(-1), d.variance,
                                                            d.precision_matrix.reshape(-1),
                                                            d.scale_tril.reshape(-1)]))(
        D.MultivariateNormal(m, a @ a.T + T.eye(3, dtype=T.float64))), [LOC, [[1.0, 0.2, 0.1], [0.3, 1.5, 0.0],
                                                                           [0.2, -0.4, 0.8]]]),
    "mvn_scale_tril_batched": (lambda T, D, m, a: (lambda d: T.cat([d.log_prob(T.tensor([[0.1, 0.2, 0.3]] * 2,
                                                                                        dtype=T.float64)),
                                                                    d.entropy(), d.covariance_matrix.reshape(-1)]))(
        D.MultivariateNormal(T.stack([m, m * 2]), scale_tril=T.tril(a) + T.eye(3, dtype=T.float64) * 2)),
        [LOC, [[1.0, 0.2, 0.1], [0.3, 1.5, 0.0], [0.2, -0.4, 0.8]]]),
    "mvn_precision": (lambda T, D, m, a: (lambda d: T.cat([d.log_prob(m + 0.3).reshape(-1),
                                                           d.covariance_matrix.reshape(-1)]))(
        D.MultivariateNormal(m, precision_matrix=a @ a.T + T.eye(3, dtype=T.float64))),
        [LOC, [[1.0, 0.2, 0.1], [0.3, 1.5, 0.0], [0.2, -0.4, 0.8]]]),
}

KL = {
    "normal": (lambda T, D, a, b, c, d: D.kl_divergence(D.Normal(a, c), D.Normal(b, d)), [LOC, X, SCALE, POS_A]),
    "laplace": (lambda T, D, a, b, c, d: D.kl_divergence(D.Laplace(a, c), D.Laplace(b, d)), [LOC, X, SCALE, POS_A]),
    "bernoulli": (lambda T, D, p, q: D.kl_divergence(D.Bernoulli(p), D.Bernoulli(q)), [PROBS, UNIT]),
    "categorical": (lambda T, D, p, q: D.kl_divergence(D.Categorical(p), D.Categorical(q)),
                    [CAT, [[0.1, 0.1, 0.8], [0.3, 0.3, 0.4]]]),
    "uniform": (lambda T, D, a, b: D.kl_divergence(D.Uniform(a, a + b), D.Uniform(a - 1, a + b + 1)), [LOC, SCALE]),
    "uniform_infinite": (lambda T, D, a, b: D.kl_divergence(D.Uniform(a - 1, a + b), D.Uniform(a, a + b)),
                         [LOC, SCALE]),
    "exponential": (lambda T, D, a, b: D.kl_divergence(D.Exponential(a), D.Exponential(b)), [POS_A, POS_B]),
    "gamma": (lambda T, D, a, b, c, d: D.kl_divergence(D.Gamma(a, b), D.Gamma(c, d)), [POS_A, POS_B, POS_B, POS_A]),
    "beta": (lambda T, D, a, b, c, d: D.kl_divergence(D.Beta(a, b), D.Beta(c, d)), [POS_A, POS_B, POS_B, POS_A]),
    "dirichlet": (lambda T, D, a, b: D.kl_divergence(D.Dirichlet(a), D.Dirichlet(b)),
                  [[[0.7, 2.5, 4.2], [1.3, 0.6, 3.3]], [[1.1, 0.9, 2.0], [0.5, 0.5, 0.5]]]),
    "independent": (lambda T, D, a, b, c, d: D.kl_divergence(D.Independent(D.Normal(a, c), 1),
                                                             D.Independent(D.Normal(b, d), 1)), [LOC, X, SCALE, POS_A]),
    "poisson": (lambda T, D, a, b: D.kl_divergence(D.Poisson(a), D.Poisson(b)), [POS_A, POS_B]),
    "bernoulli_poisson": (lambda T, D, p, r: D.kl_divergence(D.Bernoulli(p), D.Poisson(r)), [PROBS, POS_A]),
    "geometric": (lambda T, D, p, q: D.kl_divergence(D.Geometric(p), D.Geometric(q)), [PROBS, UNIT]),
    "mvn": (lambda T, D, m, a, n: D.kl_divergence(
        D.MultivariateNormal(m, scale_tril=T.tril(a) + 2 * T.eye(3, dtype=T.float64)),
        D.MultivariateNormal(T.stack([n, m]), a @ a.T + T.eye(3, dtype=T.float64))),
        [LOC, [[1.0, 0.2, 0.1], [0.3, 1.5, 0.0], [0.2, -0.4, 0.8]], X]),
}


# gradients through digamma take PyTorch's trigamma, which is accurate to about 5e-10 (relative; flowgrad's
# to about 1e-15, both checked against mpmath when this was written)
TRIGAMMA_RTOL = 2e-9


# the rules between families PyTorch registers for these distributions
_P = {"beta": lambda T, D, a, b: D.Beta(a, b), "exponential": lambda T, D, a, b: D.Exponential(a),
      "gamma": lambda T, D, a, b: D.Gamma(a, b), "laplace": lambda T, D, a, b: D.Laplace(a - 1, b),
      "normal": lambda T, D, a, b: D.Normal(a - 1, b), "uniform": lambda T, D, a, b: D.Uniform(a * 0.1, a * 0.1 + b * 0.2)}
_Q = {"beta": lambda T, D, c, d: D.Beta(c, d), "exponential": lambda T, D, c, d: D.Exponential(c),
      "gamma": lambda T, D, c, d: D.Gamma(c, d), "laplace": lambda T, D, c, d: D.Laplace(c, d),
      "normal": lambda T, D, c, d: D.Normal(c, d), "uniform": lambda T, D, c, d: D.Uniform(-c, c + d)}
CROSS = [(a, b) for a in _P for b in _Q if a != b]


@pytest.mark.parametrize("pair", CROSS, ids=lambda p: f"{p[0]}-{p[1]}")
def test_kl_between_families(pair):
    make_p, make_q = _P[pair[0]], _Q[pair[1]]
    params = [[0.35, 0.6, 0.8], [1.3, 0.6, 3.3], [0.7, 2.5, 4.2], [1.1, 0.9, 2.0]]
    results = []
    for T in (fg, real):
        leaves = [T.tensor(p, dtype=T.float64, requires_grad=True) for p in params]
        D = T.distributions
        try:
            value = D.kl_divergence(make_p(T, D, *leaves[:2]), make_q(T, D, *leaves[2:]))
        except NotImplementedError as e:
            results.append(("raises", str(e)))
            continue
        grads = None
        if value.requires_grad:
            grads = [g.numpy() if g is not None else None
                     for g in T.autograd.grad(value.sum(), leaves, allow_unused=True)]
        results.append((value.detach().numpy(), grads))
    mine, theirs = results
    if isinstance(theirs[0], str):
        assert mine == theirs
        return
    np.testing.assert_allclose(mine[0], theirs[0], rtol=TRIGAMMA_RTOL)
    assert (mine[1] is None) == (theirs[1] is None)
    for a, b in zip(mine[1] or [], theirs[1] or []):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=TRIGAMMA_RTOL, atol=1e-9)


@pytest.mark.parametrize("name", list(CASES))
def test_values_and_gradients(name):
    program, params = CASES[name]
    digamma_grads = name in ("gamma", "beta", "dirichlet")
    _same(program, params, rtol=TRIGAMMA_RTOL if digamma_grads else 1e-10, atol=1e-9 if digamma_grads else 1e-12)


@pytest.mark.parametrize("name", list(KL))
def test_kl_values_and_gradients(name):
    program, params = KL[name]
    digamma_grads = name in ("gamma", "beta", "dirichlet")
    _same(program, params, rtol=TRIGAMMA_RTOL if digamma_grads else 1e-10, atol=1e-9 if digamma_grads else 1e-12)


def test_float32_parameters_from_numbers(torch):
    d = torch.distributions.Normal(0.0, 1.0)
    assert d.loc.dtype == torch.float32 and d.batch_shape == torch.Size([]) and repr(d) == "Normal(loc: 0.0, scale: 1.0)"
    assert torch.distributions.Normal(torch.tensor(0.0, dtype=torch.float64), 1.0).scale.dtype == torch.float64
    assert d.log_prob(torch.tensor([1, 2])).dtype == torch.float32


def test_shapes_and_expand(torch):
    D = torch.distributions
    n = D.Normal(torch.zeros(3), 1.0)
    assert n.batch_shape == torch.Size([3]) and n.event_shape == torch.Size([])
    assert repr(n) == "Normal(loc: torch.Size([3]), scale: torch.Size([3]))"
    e = n.expand((2, 3))
    assert e.batch_shape == torch.Size([2, 3]) and tuple(e.sample().shape) == (2, 3)
    m = D.MultivariateNormal(torch.zeros(2), torch.eye(2))
    assert m.batch_shape == torch.Size([]) and m.event_shape == torch.Size([2])
    assert tuple(m.expand((4,)).rsample((5,)).shape) == (5, 4, 2)
    c = D.Categorical(logits=torch.zeros(4, 3))
    assert c.batch_shape == torch.Size([4]) and tuple(c.sample((2,)).shape) == (2, 4)
    assert c.sample().dtype == torch.int64
    assert tuple(c.expand((5, 4)).sample().shape) == (5, 4)
    assert repr(D.Bernoulli(logits=torch.zeros(2))) == "Bernoulli(logits: torch.Size([2]))"
    assert repr(D.Beta(1.0, 2.0)) == "Beta()"
    assert repr(m) == "MultivariateNormal(loc: torch.Size([2]), covariance_matrix: torch.Size([2, 2]))"
    assert repr(D.Uniform(0.0, 2.0).support) == "Interval(lower_bound=0.0, upper_bound=2.0)"
    assert repr(c.support) == "IntegerInterval(lower_bound=0, upper_bound=2)"
    assert [repr(x.support) for x in (D.Beta(1.0, 2.0), D.Gamma(1.0, 2.0), D.Bernoulli(0.3), m)] == [
        "Interval(lower_bound=0.0, upper_bound=1.0)", "GreaterThanEq(lower_bound=0.0)", "Boolean()",
        "IndependentConstraint(Real(), 1)"]


def test_independent_and_dirichlet_shapes(torch):
    D = torch.distributions
    i = D.Independent(D.Normal(torch.zeros(2, 3), 1.0), 1)
    assert repr(i) == "Independent(Normal(loc: torch.Size([2, 3]), scale: torch.Size([2, 3])), 1)"
    assert (i.batch_shape, i.event_shape) == (torch.Size([2]), torch.Size([3]))
    assert repr(i.support) == "IndependentConstraint(Real(), 1)" and i.has_rsample
    assert i.expand((4, 2)).batch_shape == torch.Size([4, 2]) and tuple(i.log_prob(torch.zeros(3)).shape) == (2,)
    assert tuple(i.rsample((5,)).shape) == (5, 2, 3)
    d = D.Dirichlet(torch.tensor([[0.5, 2.0, 3.0], [1.0, 1.0, 1.0]]))
    assert repr(d) == "Dirichlet(concentration: torch.Size([2, 3]))" and repr(d.support) == "Simplex()"
    assert (d.batch_shape, d.event_shape) == (torch.Size([2]), torch.Size([3]))
    assert tuple(d.expand((4, 2)).sample().shape) == (4, 2, 3)
    torch.manual_seed(0)
    s = d.sample((4000,))
    assert torch.allclose(s.sum(-1), torch.ones(4000, 2)) and torch.allclose(s.mean(0), d.mean, atol=0.03)
    with pytest.raises(ValueError, match=r"^Expected reinterpreted_batch_ndims <= len\(base_distribution.batch_shape\), "
                                         r"actual 3 vs 2$"):
        D.Independent(D.Normal(torch.zeros(2, 3), 1.0), 3)
    with pytest.raises(NotImplementedError, match="^Enumeration over cartesian product is not implemented$"):
        D.Independent(D.Bernoulli(torch.ones(2, 2) * 0.5), 1).enumerate_support()
    with pytest.raises(ValueError, match="^`concentration` parameter must be at least one-dimensional.$"):
        D.Dirichlet(torch.tensor(1.0))
    with pytest.raises(NotImplementedError):
        D.kl_divergence(i, D.Independent(D.Normal(torch.zeros(2, 3), 1.0), 2))


def test_enumerate_support(torch):
    D = torch.distributions
    b = D.Bernoulli(torch.tensor([0.3, 0.6]))
    assert b.enumerate_support().tolist() == [[0.0, 0.0], [1.0, 1.0]] and b.enumerate_support().dtype == torch.float32
    assert b.enumerate_support(expand=False).tolist() == [[0.0], [1.0]]
    assert D.Bernoulli(0.3).enumerate_support().tolist() == [0.0, 1.0]
    c = D.Categorical(torch.tensor([[0.3, 0.2, 0.5], [0.5, 0.25, 0.25]]))
    assert c.enumerate_support().tolist() == [[0, 0], [1, 1], [2, 2]] and c.enumerate_support().dtype == torch.int64
    assert c.enumerate_support(expand=False).tolist() == [[0], [1], [2]]
    assert c.has_enumerate_support and not D.Normal.has_enumerate_support


def test_has_rsample_flags(torch):
    D = torch.distributions
    flags = [c.has_rsample for c in (D.Normal, D.Laplace, D.Bernoulli, D.Categorical, D.Uniform, D.Exponential,
                                     D.Gamma, D.Beta, D.MultivariateNormal)]
    assert flags == [True, True, False, False, True, True, True, True, True]
    assert isinstance(D.Normal(0.0, 1.0), D.ExponentialFamily) and isinstance(D.Uniform(0.0, 1.0), D.Distribution)


@pytest.mark.parametrize("build,kind,message", [
    (lambda T, D: D.Normal(0.0, -1.0), ValueError,
     "Expected parameter scale (Tensor of shape ()) of distribution Normal(loc: 0.0, scale: -1.0) to satisfy the "
     "constraint GreaterThan(lower_bound=0.0), but found invalid values:\n-1.0"),
    (lambda T, D: D.Normal(T.tensor([0.0, 1.0]), T.tensor([1.0, -1.0])), ValueError,
     "Expected parameter scale (Tensor of shape (2,)) of distribution Normal(loc: torch.Size([2]), scale: "
     "torch.Size([2])) to satisfy the constraint GreaterThan(lower_bound=0.0), but found invalid values:\n"
     "tensor([ 1., -1.])"),
    (lambda T, D: D.Normal("a", 1.0), ValueError,
     "Input arguments must all be instances of Number, torch.Tensor or objects implementing "
     "__torch_function__."),
    (lambda T, D: D.Normal(0.0, 1.0).log_prob(3.0), ValueError, "The value argument to log_prob must be a Tensor"),
    (lambda T, D: D.Normal(T.zeros(2), 1.0).log_prob(T.zeros(3)), ValueError,
     "Value is not broadcastable with batch_shape+event_shape: torch.Size([3]) vs torch.Size([2])."),
    (lambda T, D: D.MultivariateNormal(T.zeros(2), T.eye(2)).log_prob(T.zeros(3)), ValueError,
     "The right-most size of value must match event_shape: torch.Size([3]) vs torch.Size([2])."),
    (lambda T, D: D.Exponential(T.tensor([1.0, 2.0])).log_prob(T.tensor([-1.0, 1.0])), ValueError,
     "Expected value argument (Tensor of shape (2,)) to be within the support (GreaterThanEq(lower_bound=0.0)) of "
     "the distribution Exponential(rate: torch.Size([2])), but found invalid values:\ntensor([-1.,  1.])"),
    (lambda T, D: D.Bernoulli(probs=0.3, logits=0.1), ValueError,
     "Either `probs` or `logits` must be specified, but not both."),
    (lambda T, D: D.Bernoulli(probs=T.tensor([0.3, 1.2])), ValueError,
     "Expected parameter probs (Tensor of shape (2,)) of distribution Bernoulli(probs: torch.Size([2])) to satisfy "
     "the constraint Interval(lower_bound=0.0, upper_bound=1.0), but found invalid values:\ntensor([0.3000, "
     "1.2000])"),
    (lambda T, D: D.Bernoulli(probs=0.3).log_prob(T.tensor(0.5)), ValueError,
     "Expected value argument (Tensor of shape ()) to be within the support (Boolean()) of the distribution "
     "Bernoulli(probs: 0.30000001192092896), but found invalid values:\n0.5"),
    (lambda T, D: D.Categorical(probs=T.tensor(0.3)), ValueError, "`probs` parameter must be at least "
                                                                   "one-dimensional."),
    (lambda T, D: D.Categorical(probs=T.tensor([0.3, -0.7])), ValueError,
     "Expected parameter probs (Tensor of shape (2,)) of distribution Categorical(probs: torch.Size([2])) to "
     "satisfy the constraint Simplex(), but found invalid values:\ntensor([-0.7500,  1.7500])"),
    (lambda T, D: D.Categorical(logits=T.tensor([0.3, 0.7])).log_prob(T.tensor(2)), ValueError,
     "Expected value argument (Tensor of shape ()) to be within the support (IntegerInterval(lower_bound=0, "
     "upper_bound=1)) of the distribution Categorical(logits: torch.Size([2])), but found invalid values:\n2"),
    (lambda T, D: D.Uniform(1.0, 0.0), ValueError,
     "Expected parameter low (Tensor of shape ()) of distribution Uniform(low: 1.0, high: 0.0) to satisfy the "
     "constraint LessThan(upper_bound=0.0), but found invalid values:\n1.0"),
    (lambda T, D: D.Uniform(0.0, 1.0).log_prob(T.tensor(2.0)), ValueError,
     "Expected value argument (Tensor of shape ()) to be within the support (Interval(lower_bound=0.0, "
     "upper_bound=1.0)) of the distribution Uniform(low: 0.0, high: 1.0), but found invalid values:\n2.0"),
    (lambda T, D: D.Beta(T.tensor(-1.0), T.tensor(1.0)), ValueError,
     "Expected parameter concentration (Tensor of shape (2,)) of distribution Dirichlet(concentration: "
     "torch.Size([2])) to satisfy the constraint IndependentConstraint(GreaterThan(lower_bound=0.0), 1), but found "
     "invalid values:\ntensor([-1.,  1.])"),
    (lambda T, D: D.MultivariateNormal(T.zeros(2)), ValueError,
     "Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified."),
    (lambda T, D: D.MultivariateNormal(T.tensor(0.0), T.eye(2)), ValueError, "loc must be at least one-dimensional."),
    (lambda T, D: D.MultivariateNormal(T.zeros(2), T.ones(2)), ValueError,
     "covariance_matrix must be at least two-dimensional, with optional leading batch dimensions"),
    (lambda T, D: D.MultivariateNormal(T.zeros(2), scale_tril=T.ones(2)), ValueError,
     "scale_tril matrix must be at least two-dimensional, with optional leading batch dimensions"),
    (lambda T, D: D.MultivariateNormal(T.zeros(2), -T.eye(2)), ValueError,
     "Expected parameter covariance_matrix (Tensor of shape (2, 2)) of distribution MultivariateNormal(loc: "
     "torch.Size([2]), covariance_matrix: torch.Size([2, 2])) to satisfy the constraint PositiveDefinite(), but "
     "found invalid values:\ntensor([[-1., -0.],\n        [-0., -1.]])"),
    (lambda T, D: D.MultivariateNormal(T.zeros(2), scale_tril=T.ones(2, 2)), ValueError,
     "Expected parameter scale_tril (Tensor of shape (2, 2)) of distribution MultivariateNormal(loc: "
     "torch.Size([2]), scale_tril: torch.Size([2, 2])) to satisfy the constraint LowerCholesky(), but found invalid "
     "values:\ntensor([[1., 1.],\n        [1., 1.]])"),
    (lambda T, D: D.kl_divergence(D.MultivariateNormal(T.zeros(2), T.eye(2)), D.MultivariateNormal(T.zeros(3),
                                                                                                   T.eye(3))),
     ValueError, "KL-divergence between two Multivariate Normals with                          different event "
                 "shapes cannot be computed"),
    (lambda T, D: D.kl_divergence(D.Normal(0.0, 1.0), D.Bernoulli(0.3)), NotImplementedError,
     "The cross KL-divergence between different exponential families cannot                             be "
     "computed using Bregman divergences"),
    (lambda T, D: D.kl_divergence(D.Categorical(T.tensor([0.3, 0.7])), D.Normal(0.0, 1.0)), NotImplementedError,
     "No KL(p || q) is implemented for p type Categorical and q type Normal"),
    (lambda T, D: D.Bernoulli(0.3).rsample(), NotImplementedError, ""),
    (lambda T, D: D.Geometric(T.tensor([0.3, 0.0])), ValueError,
     "Expected parameter probs (Tensor of shape (2,)) of distribution Geometric(probs: torch.Size([2])) to be "
     "positive but found invalid values:\ntensor([0.])"),
    (lambda T, D: D.Poisson(T.tensor([1.0])).entropy(), NotImplementedError, ""),
    (lambda T, D: D.kl_divergence(D.Poisson(T.tensor([1.0])), D.Gamma(1.0, 1.0)), NotImplementedError,
     "The cross KL-divergence between different exponential families cannot                             be "
     "computed using Bregman divergences"),
])
def test_errors(torch, build, kind, message):
    with pytest.raises(kind) as info:
        build(torch, torch.distributions)
    # (a printed tensor names its device when it is not the cpu: the suites may run on another)
    assert re.sub(r", device='[^']*'\)", ")", str(info.value)) == message


def test_validation_can_be_turned_off(torch):
    d = torch.distributions.Normal(0.0, -1.0, validate_args=False)
    assert torch.isnan(d.log_prob(torch.tensor(0.0)))
    assert float(torch.distributions.Uniform(0.0, 1.0, validate_args=False).log_prob(torch.tensor(2.0))) == float("-inf")


def test_register_kl_and_dispatch(torch):
    D = torch.distributions

    class MyNormal(D.Normal):
        pass

    assert float(D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 1.0))) == pytest.approx(0.5)

    @D.register_kl(MyNormal, MyNormal)
    def _kl(p, q):
        return p.loc * 0 + 42.0

    try:
        assert float(D.kl_divergence(MyNormal(0.0, 1.0), MyNormal(1.0, 1.0))) == 42.0
        assert float(D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 1.0))) == pytest.approx(0.5)
    finally:
        from importlib import import_module
        registry = import_module(D.kl_divergence.__module__)
        del registry._KL_REGISTRY[MyNormal, MyNormal]
        registry._KL_MEMOIZE.clear()


# ----------------------------------------------------------------------------- samples

SAMPLERS = {
    "normal": (lambda T, D: D.Normal(T.tensor([1.0, -2.0]), T.tensor([0.5, 2.0])), [1.0, -2.0], [0.25, 4.0]),
    "laplace": (lambda T, D: D.Laplace(T.tensor([1.0, -2.0]), T.tensor([0.5, 2.0])), [1.0, -2.0], [0.5, 8.0]),
    "bernoulli": (lambda T, D: D.Bernoulli(T.tensor([0.2, 0.7])), [0.2, 0.7], [0.16, 0.21]),
    "uniform": (lambda T, D: D.Uniform(T.tensor([0.0, -1.0]), T.tensor([1.0, 3.0])), [0.5, 1.0], [1 / 12, 16 / 12]),
    "exponential": (lambda T, D: D.Exponential(T.tensor([0.5, 2.0])), [2.0, 0.5], [4.0, 0.25]),
    "gamma": (lambda T, D: D.Gamma(T.tensor([0.5, 3.0]), T.tensor([1.0, 2.0])), [0.5, 1.5], [0.5, 0.75]),
    "chi2": (lambda T, D: D.Chi2(T.tensor([0.5, 3.0])), [0.5, 3.0], [1.0, 6.0]),
    "beta": (lambda T, D: D.Beta(T.tensor([0.5, 3.0]), T.tensor([2.0, 1.5])), [0.2, 2 / 3],
             [0.5 * 2 / (6.25 * 3.5), 4.5 / (20.25 * 5.5)]),
    "categorical": (lambda T, D: D.Categorical(T.tensor([0.2, 0.5, 0.3])), [1.1], [0.49]),
    "poisson": (lambda T, D: D.Poisson(T.tensor([0.5, 4.0])), [0.5, 4.0], [0.5, 4.0]),
    "geometric": (lambda T, D: D.Geometric(T.tensor([0.3, 0.8])), [7 / 3, 0.25], [7 / 0.9, 0.3125]),
}


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_sample_statistics(torch, name):
    build, mean, var = SAMPLERS[name]
    torch.manual_seed(0)
    d = build(torch, torch.distributions)
    s = d.sample((20000,))
    assert tuple(s.shape) == (20000,) + tuple(d.batch_shape)
    assert s.dtype == (torch.int64 if name == "categorical" else torch.float32)
    assert not s.requires_grad
    x = s.double().numpy()
    np.testing.assert_allclose(x.mean(0), mean, atol=0.05 * max(1.0, max(np.abs(mean))))
    np.testing.assert_allclose(x.var(0), var, rtol=0.1, atol=0.01)
    torch.manual_seed(0)
    again = build(torch, torch.distributions).sample((20000,))
    assert bool((again == s).all())


def test_mvn_sample_covariance(torch):
    torch.manual_seed(0)
    cov = torch.tensor([[2.0, 0.6], [0.6, 1.0]])
    s = torch.distributions.MultivariateNormal(torch.tensor([1.0, -1.0]), cov).sample((40000,))
    np.testing.assert_allclose(np.cov(s.numpy().T), cov.numpy(), atol=0.05)


def test_rsample_reparameterization(torch):
    D = torch.distributions
    loc = torch.tensor([0.5, -1.0], requires_grad=True)
    scale = torch.tensor([2.0, 0.5], requires_grad=True)
    s = D.Normal(loc, scale).rsample((3,))
    assert s.requires_grad and tuple(s.shape) == (3, 2)
    gl, gs = torch.autograd.grad(s.sum(), (loc, scale))
    assert gl.tolist() == [3.0, 3.0]                     # d sample / d loc = 1
    assert torch.allclose(gs, ((s - loc) / scale).sum(0).detach())    # d sample / d scale = eps
    rate = torch.tensor([0.5, 2.0], requires_grad=True)
    e = D.Exponential(rate).rsample()
    (g,) = torch.autograd.grad(e.sum(), rate)
    assert torch.allclose(g, -e.detach() / rate.detach())
    low = torch.tensor([0.0, 1.0], requires_grad=True)
    high = torch.tensor([1.0, 3.0], requires_grad=True)
    u = D.Uniform(low, high).rsample()
    gl, gh = torch.autograd.grad(u.sum(), (low, high))
    frac = ((u - low) / (high - low)).detach()
    assert torch.allclose(gh, frac) and torch.allclose(gl, 1 - frac)
    m = torch.tensor([0.0, 1.0], requires_grad=True)
    tril = torch.tensor([[1.0, 0.0], [0.5, 2.0]], requires_grad=True)
    x = D.MultivariateNormal(m, scale_tril=tril).rsample()
    (gm,) = torch.autograd.grad(x.sum(), m)
    assert gm.tolist() == [1.0, 1.0]
    lap_loc = torch.tensor([0.3], requires_grad=True)
    (glap,) = torch.autograd.grad(D.Laplace(lap_loc, 1.0).rsample((4,)).sum(), lap_loc)
    assert glap.tolist() == [4.0]


def test_gamma_approximate_gradients_are_pytorchs():
    """The implicit gradients of gamma and Beta draws, evaluated on a grid of draws against PyTorch's
    own functions (float64: the same to rounding; float32: the Beta series cancel, to 1e-4)."""
    from flowgrad.ops.random_grads import dirichlet_grad_array, gamma_grad_array
    rng = np.random.default_rng(0)
    for dtype, rtol in ((np.float64, 1e-11), (np.float32, 2e-4)):
        a = np.exp(rng.uniform(-3, 4, 5000)).astype(dtype)
        x = np.maximum(rng.standard_gamma(a.astype(np.float64)), 1e-30).astype(dtype)
        theirs = real._standard_gamma_grad(real.from_numpy(a), real.from_numpy(x)).numpy()
        np.testing.assert_allclose(gamma_grad_array(np, a, x), theirs, rtol=1e-12 if dtype == np.float64 else 1e-6)
        alpha, beta = (np.exp(rng.uniform(-2, 3, 5000)).astype(dtype) for _ in range(2))
        ga, gb = rng.standard_gamma(alpha.astype(np.float64)), rng.standard_gamma(beta.astype(np.float64))
        b = np.clip(ga / (ga + gb), np.finfo(dtype).tiny, 1 - np.finfo(dtype).eps).astype(dtype)
        total = (alpha + beta).astype(dtype)
        theirs = real._dirichlet_grad(*(real.from_numpy(v) for v in (b, alpha, total))).numpy()
        np.testing.assert_allclose(dirichlet_grad_array(np, b, alpha, total), theirs, rtol=rtol)


def test_gamma_beta_dirichlet_rsample_gradients():
    """rsample's gradients are PyTorch's implicit ones at the draws flowgrad made."""
    from torch.distributions.dirichlet import _Dirichlet_backward
    D = fg.distributions
    c = fg.tensor([0.4, 2.0, 30.0], dtype=fg.float64, requires_grad=True)
    r = fg.tensor([1.5, 0.5, 2.0], dtype=fg.float64, requires_grad=True)
    x = D.Gamma(c, r).rsample((5,))
    assert tuple(x.shape) == (5, 3) and x.grad_fn.next_functions[0][0].name() == "StandardGammaBackward0"
    gc, gr = fg.autograd.grad(x.sum(), (c, r))
    g = real.tensor((x * r).detach().numpy())
    alpha, rate = real.tensor(c.detach().numpy()).expand(5, 3), real.tensor(r.detach().numpy())
    np.testing.assert_allclose(gc.numpy(), (real._standard_gamma_grad(alpha, g) / rate).sum(0).numpy(), rtol=1e-12)
    np.testing.assert_allclose(gr.numpy(), (-g / rate ** 2).sum(0).numpy(), rtol=1e-12)
    chi = D.Chi2(c).rsample()
    (gd,) = fg.autograd.grad(chi.sum(), c)
    half = real.tensor(c.detach().numpy()) / 2
    np.testing.assert_allclose(gd.numpy(), real._standard_gamma_grad(half, real.tensor(chi.detach().numpy()) / 2)
                               .numpy(), rtol=1e-12)
    a = fg.tensor([[0.5, 2.0, 3.0], [4.0, 8.0, 9.0]], dtype=fg.float64, requires_grad=True)
    s = D.Dirichlet(a).rsample()
    assert s.grad_fn.name() == "_DirichletBackward"
    w = fg.tensor([1.0, 2.0, -3.0], dtype=fg.float64)
    (ga,) = fg.autograd.grad((s * w).sum(), a)
    expected = _Dirichlet_backward(real.tensor(s.detach().numpy()), real.tensor(a.detach().numpy()),
                                   real.tensor(w.numpy()).expand(2, 3))
    np.testing.assert_allclose(ga.numpy(), expected.numpy(), rtol=1e-12)
    b = D.Beta(c, r).rsample()
    g1, g0 = fg.autograd.grad(b.sum(), (c, r))
    pair = real.tensor(np.stack([c.detach().numpy(), r.detach().numpy()], -1))
    bx = real.tensor(b.detach().numpy())
    expected = _Dirichlet_backward(real.stack([bx, 1 - bx], -1), pair, real.tensor([1.0, 0.0], dtype=real.float64)
                                   .expand(3, 2))
    np.testing.assert_allclose(np.stack([g1.numpy(), g0.numpy()], -1), expected.numpy(), rtol=1e-12)


def test_gamma_rsample_second_derivative_is_refused(torch):
    c = torch.tensor([1.5, 3.0], requires_grad=True)
    (g,) = torch.autograd.grad(torch.distributions.Gamma(c, 1.0).rsample().sum(), c, create_graph=True)
    with pytest.raises(NotImplementedError, match=r"^the derivative for '_standard_gamma_grad' is not implemented\.$"):
        torch.autograd.grad(g.sum(), c)


def test_submodules_and_utils(torch):
    import importlib as il
    D = torch.distributions
    for mod, cls in [("normal", "Normal"), ("multivariate_normal", "MultivariateNormal"), ("exp_family",
                                                                                          "ExponentialFamily"),
                     ("bernoulli", "Bernoulli"), ("independent", "Independent"), ("dirichlet", "Dirichlet")]:
        assert getattr(il.import_module(f"{torch.__name__}.distributions.{mod}"), cls) is getattr(D, cls)
    utils = il.import_module(f"{torch.__name__}.distributions.utils")
    a, b = utils.broadcast_all(1.0, torch.ones(2, dtype=torch.float64))
    assert a.dtype == torch.float64 and tuple(a.shape) == (2,) and tuple(b.shape) == (2,)
    p = torch.tensor([0.2, 0.8])
    assert torch.allclose(utils.probs_to_logits(p), torch.log(p))
    assert torch.allclose(utils.probs_to_logits(p, is_binary=True), torch.log(p / (1 - p)))
    assert torch.allclose(utils.logits_to_probs(torch.tensor([0.0, 1.0])), torch.softmax(torch.tensor([0.0, 1.0]), -1))
    assert float(utils.clamp_probs(torch.tensor([0.0]))) == float(torch.finfo(torch.float32).eps)


def _my_exponential(D):
    class MyExponential(D.ExponentialFamily):
        arg_constraints = {}
        _mean_carrier_measure = 0

        def __init__(self, rate):
            self.rate = rate
            super().__init__(rate.shape, validate_args=False)

        @property
        def _natural_params(self):
            return (-self.rate,)

        def _log_normalizer(self, x):
            return -(-x).log()

    return MyExponential


def test_exponential_family_bregman_entropy_and_kl():
    out = []
    for T in (fg, real):
        rate = T.tensor([0.5, 2.0, 3.0], dtype=T.float64, requires_grad=True)
        other = T.tensor([1.5, 1.0, 0.2], dtype=T.float64)
        cls = _my_exponential(T.distributions)
        h = cls(rate).entropy()
        kl = T.distributions.kl_divergence(cls(rate), cls(other))
        # (both take the natural parameters detached: the results do not reach `rate`)
        (g,) = T.autograd.grad((h + kl).sum(), rate, allow_unused=True)
        assert g is None
        out.append((h.detach().numpy(), kl.detach().numpy()))
    for a, b in zip(*out):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    np.testing.assert_allclose(out[0][0], 1 - np.log([0.5, 2.0, 3.0]))
