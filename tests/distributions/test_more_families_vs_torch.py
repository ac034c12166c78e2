"""StudentT, Chi2, Binomial, NegativeBinomial, Multinomial, OneHotCategorical (and its
straight-through variant), ContinuousBernoulli, VonMises, LowRankMultivariateNormal and
MixtureSameFamily against real torch: values and gradients of the same program on both, KL rules,
shapes, reprs, validation errors, samples by statistics and rsample gradients."""
from __future__ import annotations

import importlib
import re

import numpy as np
import pytest

from test_distributions_vs_torch import TRIGAMMA_RTOL, _same

real = pytest.importorskip("torch")
fg = importlib.import_module("flowgrad.torch")

LOC, SCALE = [0.3, -1.2, 2.0], [0.5, 1.5, 2.5]
POS_A = [0.7, 2.5, 4.2]
UNIT = [0.15, 0.5, 0.85]
NEAR_HALF = [0.2, 0.4995, 0.9]        # (the middle one inside ContinuousBernoulli's Taylor region)
W = [[0.5, 0.1], [2.0, -0.3], [0.6, 0.4]]


def _cat(T, *parts):
    return T.cat([p.reshape(-1) for p in parts])


CASES = {
    "student_t": (lambda T, D, df, m, s: (lambda d: _cat(T, d.log_prob(m * 2 + 0.1), d.entropy(), d.mean, d.variance,
                                                         d.mode))(D.StudentT(df, m, s)), [[0.7, 1.5, 4.2], LOC, SCALE]),
    "chi2": (lambda T, D, df: (lambda d: _cat(T, d.log_prob(df * 0.7), d.entropy(), d.mean, d.variance, d.df))(
        D.Chi2(df)), [POS_A]),
    "binomial": (lambda T, D, p: (lambda d: _cat(T, d.log_prob(T.tensor([1.0, 4.0, 6.0], dtype=T.float64)), d.entropy(),
                                                 d.mean, d.variance, d.logits))(D.Binomial(6, p)), [UNIT]),
    "binomial_logits": (lambda T, D, l: (lambda d: _cat(T, d.log_prob(T.tensor([1.0, 4.0, 0.0], dtype=T.float64)),
                                                        d.mean, d.probs))(
        D.Binomial(T.tensor([3.0, 5.0, 7.0], dtype=T.float64), logits=l)), [LOC]),
    "negative_binomial": (lambda T, D, n, p: (lambda d: _cat(T, d.log_prob(T.tensor([0.0, 4.0, 6.0], dtype=T.float64)),
                                                             d.mean, d.variance))(D.NegativeBinomial(n, p)),
                          [POS_A, UNIT]),
    "negative_binomial_logits": (lambda T, D, n, l: D.NegativeBinomial(n, logits=l).log_prob(
        T.tensor([0.0, 2.0, 5.0], dtype=T.float64)), [POS_A, LOC]),
    "multinomial": (lambda T, D, p: (lambda d: _cat(T, d.log_prob(T.tensor([[1.0, 3.0, 1.0], [0.0, 0.0, 5.0]],
                                                                          dtype=T.float64)),
                                                    d.entropy(), d.mean, d.variance))(D.Multinomial(5, p)),
                    [[[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]]]),
    "one_hot": (lambda T, D, l: (lambda d: _cat(T, d.log_prob(T.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                                                                       dtype=T.float64)),
                                                d.entropy(), d.mean, d.variance, d.probs))(D.OneHotCategorical(logits=l)),
                [[LOC, SCALE]]),
    "continuous_bernoulli": (lambda T, D, p, x: (lambda d: _cat(T, d.log_prob(x), d.entropy(), d.mean, d.variance,
                                                                d.stddev, d.cdf(x), d.icdf(x)))(
        D.ContinuousBernoulli(p)), [NEAR_HALF, UNIT]),
    "continuous_bernoulli_logits": (lambda T, D, l, x: (lambda d: _cat(T, d.log_prob(x), d.entropy(), d.mean))(
        D.ContinuousBernoulli(logits=l)), [LOC, UNIT]),
    "von_mises": (lambda T, D, m, k, x: (lambda d: _cat(T, d.log_prob(x), d.variance, d.mean))(D.VonMises(m, k)),
                  [LOC, [0.5, 2.0, 6.0], UNIT]),
    "lowrank_mvn": (lambda T, D, m, w, d_: (lambda d: _cat(T, d.log_prob(m * 0.5 + 0.2), d.entropy(), d.variance,
                                                           d.scale_tril, d.covariance_matrix, d.precision_matrix))(
        D.LowRankMultivariateNormal(m, w, d_)), [LOC, W, POS_A]),
    "lowrank_mvn_batched": (lambda T, D, m, w, d_: (lambda d: _cat(T, d.log_prob(T.zeros(3, dtype=T.float64)),
                                                                   d.entropy()))(
        D.LowRankMultivariateNormal(T.stack([m, m * 2]), w, d_)), [LOC, W, POS_A]),
    "mixture_normal": (lambda T, D, p, m, s: (lambda d: _cat(T, d.log_prob(T.tensor([[0.1], [0.6]], dtype=T.float64)),
                                                             d.mean, d.variance, d.cdf(T.tensor(0.3, dtype=T.float64))))(
        D.MixtureSameFamily(D.Categorical(p), D.Normal(m, s))), [UNIT, LOC, SCALE]),
    "mixture_independent": (lambda T, D, p, m, s: (lambda d: _cat(T, d.log_prob(T.tensor([0.1, 0.6], dtype=T.float64)),
                                                                  d.mean, d.variance))(
        D.MixtureSameFamily(D.Categorical(p), D.Independent(D.Normal(T.stack([m, s]).T[:, :2], s[:2] + 0.5), 1))),
        [UNIT, LOC, SCALE]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_values_and_gradients(name):
    program, params = CASES[name]
    digamma = name in ("student_t", "chi2")
    _same(program, params, rtol=TRIGAMMA_RTOL if digamma else 1e-9, atol=1e-9 if digamma else 1e-12)


KL = {
    "binomial": (lambda T, D, p, q: D.kl_divergence(D.Binomial(T.tensor([5.0, 6.0, 6.0], dtype=T.float64), p),
                                                   D.Binomial(T.tensor([5.0, 4.0, 6.0], dtype=T.float64), q))),
    "one_hot": (lambda T, D, p, q: D.kl_divergence(D.OneHotCategorical(p), D.OneHotCategorical(q))),
    "continuous_bernoulli": (lambda T, D, p, q: D.kl_divergence(D.ContinuousBernoulli(p), D.ContinuousBernoulli(q))),
    "beta_cb": (lambda T, D, p, q: D.kl_divergence(D.Beta(p * 3, q + 1), D.ContinuousBernoulli(q))),
    "cb_exponential": (lambda T, D, p, q: D.kl_divergence(D.ContinuousBernoulli(p), D.Exponential(q + 1))),
    "cb_normal": (lambda T, D, p, q: D.kl_divergence(D.ContinuousBernoulli(p), D.Normal(q, p + 1))),
    "cb_uniform": (lambda T, D, p, q: D.kl_divergence(D.ContinuousBernoulli(p), D.Uniform(q - 1, q + 1))),
    "uniform_cb": (lambda T, D, p, q: D.kl_divergence(D.Uniform(q * 0.5, q * 0.5 + 0.4), D.ContinuousBernoulli(p))),
    "lowrank": (lambda T, D, p, q: D.kl_divergence(
        D.LowRankMultivariateNormal(p, T.stack([p, q], -1), q + 1),
        D.LowRankMultivariateNormal(q, T.stack([q, p * p], -1), p + 2))),
    "mvn_lowrank": (lambda T, D, p, q: D.kl_divergence(
        D.MultivariateNormal(p, scale_tril=T.diag(q + 1)), D.LowRankMultivariateNormal(q, T.stack([q, p * p], -1),
                                                                                        p + 2))),
    "lowrank_mvn": (lambda T, D, p, q: D.kl_divergence(
        D.LowRankMultivariateNormal(p, T.stack([p, q], -1), q + 1), D.MultivariateNormal(q, T.diag(p + 1) + 0.1))),
}


@pytest.mark.parametrize("name", list(KL))
def test_kl_values_and_gradients(name):
    rtol = TRIGAMMA_RTOL if name == "beta_cb" else 1e-9
    _same(KL[name], [NEAR_HALF, UNIT], rtol=rtol, atol=1e-9)


@pytest.mark.parametrize("pair", [("Poisson", "Binomial"), ("Normal", "ContinuousBernoulli"),
                                  ("Gamma", "ContinuousBernoulli"), ("ContinuousBernoulli", "Pareto"),
                                  ("Pareto", "ContinuousBernoulli"), ("Gumbel", "ContinuousBernoulli")], ids="-".join)
def test_kl_infinite_rules(torch, pair):
    D = torch.distributions
    make = {"Poisson": lambda: D.Poisson(torch.tensor([1.0, 2.0])),
            "Binomial": lambda: D.Binomial(3, torch.tensor([0.3, 0.6])),
            "Normal": lambda: D.Normal(torch.zeros(2), 1.0), "Gamma": lambda: D.Gamma(torch.ones(2), 1.0),
            "ContinuousBernoulli": lambda: D.ContinuousBernoulli(torch.tensor([0.3, 0.6])),
            "Pareto": lambda: D.Pareto(torch.ones(2), 2.0), "Gumbel": lambda: D.Gumbel(torch.zeros(2), 1.0)}
    assert D.kl_divergence(make[pair[0]](), make[pair[1]]()).tolist() == [float("inf")] * 2


def test_shapes_reprs_and_expand(torch):
    D = torch.distributions
    t = D.StudentT(torch.tensor([1.0, 3.0]))
    assert repr(t) == "StudentT(df: torch.Size([2]), loc: torch.Size([2]), scale: torch.Size([2]))"
    assert repr(D.StudentT(3.0)) == "StudentT(df: 3.0, loc: 0.0, scale: 1.0)" and t.expand((3, 2)).batch_shape == (3, 2)
    assert tuple(t.expand((3, 2)).rsample().shape) == (3, 2) and repr(D.Chi2(2.0)) == "Chi2()"
    assert D.Chi2(torch.ones(3)).expand((2, 3)).df.shape == (2, 3)
    b = D.Binomial(10, torch.tensor([0.2, 0.5]))
    assert repr(b) == "Binomial(total_count: torch.Size([2]), probs: torch.Size([2]))"
    assert b.total_count.dtype == torch.float32 and repr(b.support) == \
        "IntegerInterval(lower_bound=0, upper_bound=tensor([10., 10.]))"
    assert b.enumerate_support().shape == (11, 2) and b.enumerate_support(False).shape == (11, 1)
    assert b.expand((3, 2)).sample().shape == (3, 2) and b.param_shape == torch.Size([2])
    nb = D.NegativeBinomial(3.0, logits=torch.zeros(2))
    assert repr(nb) == "NegativeBinomial(total_count: torch.Size([2]), logits: torch.Size([2]))"
    assert nb.expand((4, 2)).sample().shape == (4, 2) and repr(nb.support) == "IntegerGreaterThan(lower_bound=0)"
    m = D.Multinomial(4, torch.tensor([[0.2, 0.8], [0.5, 0.5]]))
    assert repr(m) == "Multinomial()" and (m.batch_shape, m.event_shape) == (torch.Size([2]), torch.Size([2]))
    assert repr(m.support) == "Multinomial()" and m.expand((3, 2)).sample().shape == (3, 2, 2)
    o = D.OneHotCategorical(torch.tensor([0.2, 0.3, 0.5]))
    assert repr(o) == "OneHotCategorical()" and repr(o.support) == "OneHot()" and o.event_shape == torch.Size([3])
    assert o.mode.tolist() == [0.0, 0.0, 1.0] and o.enumerate_support().tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0],
                                                                                    [0.0, 0.0, 1.0]]
    assert o.expand((2,)).sample((5,)).shape == (5, 2, 3) and not o.has_rsample
    c = D.ContinuousBernoulli(torch.tensor([0.3, 0.6]))
    assert repr(c) == "ContinuousBernoulli(probs: torch.Size([2]))" and c.expand((3, 2)).rsample().shape == (3, 2)
    v = D.VonMises(torch.zeros(2), torch.ones(2))
    assert repr(v) == "VonMises(loc: torch.Size([2]), concentration: torch.Size([2]))"
    assert v.expand((3, 2)).batch_shape == (3, 2) and v.expand((3, 2)).sample().shape == (3, 2)
    lr = D.LowRankMultivariateNormal(torch.zeros(2, 3), torch.ones(3, 1), torch.ones(3))
    assert repr(lr) == ("LowRankMultivariateNormal(loc: torch.Size([2, 3]), cov_factor: torch.Size([2, 3, 1]), "
                        "cov_diag: torch.Size([2, 3]))")
    assert (lr.batch_shape, lr.event_shape) == (torch.Size([2]), torch.Size([3]))
    assert lr.expand((4, 2)).rsample((5,)).shape == (5, 4, 2, 3)
    mix = D.MixtureSameFamily(D.Categorical(torch.ones(2, 3)), D.Normal(torch.zeros(2, 3), 1.0))
    assert repr(mix) == ("MixtureSameFamily(\n  Categorical(probs: torch.Size([2, 3]), logits: torch.Size([2, 3])),\n  "
                         "Normal(loc: torch.Size([2, 3]), scale: torch.Size([2, 3])))")
    assert mix.batch_shape == torch.Size([2]) and repr(mix.support) == "MixtureSameFamilyConstraint(Real())"
    assert mix.expand((4, 2)).sample((5,)).shape == (5, 4, 2) and mix.sample().shape == (2,)
    mv = D.MixtureSameFamily(D.Categorical(torch.ones(3)), D.Independent(D.Normal(torch.zeros(3, 2), 1.0), 1))
    assert (mv.batch_shape, mv.event_shape) == (torch.Size([]), torch.Size([2])) and mv.sample((4,)).shape == (4, 2)
    import importlib as il
    for mod, cls in [("studentT", "StudentT"), ("chi2", "Chi2"), ("one_hot_categorical",
                                                                  "OneHotCategoricalStraightThrough"),
                     ("mixture_same_family", "MixtureSameFamily"), ("von_mises", "VonMises")]:
        assert getattr(il.import_module(f"{torch.__name__}.distributions.{mod}"), cls) is getattr(D, cls)


@pytest.mark.parametrize("build,kind,message", [
    (lambda T, D: D.Binomial(T.tensor([2.0, 3.0]), T.tensor([0.2, 0.5])).entropy(), NotImplementedError,
     "Inhomogeneous total count not supported by `entropy`."),
    (lambda T, D: D.Binomial(T.tensor([2.0, 3.0]), T.tensor([0.2, 0.5])).enumerate_support(), NotImplementedError,
     "Inhomogeneous total count not supported by `enumerate_support`."),
    (lambda T, D: D.Binomial(T.tensor([2.5]), T.tensor([0.2])), ValueError,
     "Expected parameter total_count (Tensor of shape (1,)) of distribution Binomial(total_count: tensor([2.5000]), "
     "probs: tensor([0.2000])) to satisfy the constraint IntegerGreaterThan(lower_bound=0), but found invalid "
     "values:\ntensor([2.5000])"),
    (lambda T, D: D.Binomial(3, T.tensor([0.2])).log_prob(T.tensor([4.0])), ValueError,
     "Expected value argument (Tensor of shape (1,)) to be within the support (IntegerInterval(lower_bound=0, "
     "upper_bound=tensor([3.]))) of the distribution Binomial(total_count: tensor([3.]), probs: tensor([0.2000])), "
     "but found invalid values:\ntensor([4.])"),
    (lambda T, D: D.NegativeBinomial(3.0), ValueError, "Either `probs` or `logits` must be specified, but not both."),
    (lambda T, D: D.Multinomial(T.tensor(3), T.tensor([0.5, 0.5])), NotImplementedError,
     "inhomogeneous total_count is not supported"),
    (lambda T, D: D.Multinomial(3, T.tensor([0.5, 0.5])).log_prob(T.tensor([2.0, 2.0])), ValueError,
     "Expected value argument (Tensor of shape (2,)) to be within the support (Multinomial()) of the distribution "
     "Multinomial(), but found invalid values:\ntensor([2., 2.])"),
    (lambda T, D: D.OneHotCategorical(T.tensor([0.5, 0.5])).log_prob(T.tensor([1.0, 1.0])), ValueError,
     "Expected value argument (Tensor of shape (2,)) to be within the support (OneHot()) of the distribution "
     "OneHotCategorical(), but found invalid values:\ntensor([1., 1.])"),
    (lambda T, D: D.ContinuousBernoulli(T.tensor([1.5]), validate_args=True), ValueError,
     "The parameter probs has invalid values"),
    (lambda T, D: D.StudentT(T.tensor([-1.0])), ValueError,
     "Expected parameter df (Tensor of shape (1,)) of distribution Chi2() to satisfy the constraint "
     "GreaterThan(lower_bound=0.0), but found invalid values:\ntensor([-1.])"),
    (lambda T, D: D.LowRankMultivariateNormal(T.tensor(0.0), T.ones(1, 1), T.ones(1)), ValueError,
     "loc must be at least one-dimensional."),
    (lambda T, D: D.LowRankMultivariateNormal(T.zeros(2), T.ones(2), T.ones(2)), ValueError,
     "cov_factor must be at least two-dimensional, with optional leading batch dimensions"),
    (lambda T, D: D.LowRankMultivariateNormal(T.zeros(2), T.ones(3, 1), T.ones(2)), ValueError,
     "cov_factor must be a batch of matrices with shape 2 x m"),
    (lambda T, D: D.LowRankMultivariateNormal(T.zeros(2), T.ones(2, 1), T.ones(3)), ValueError,
     "cov_diag must be a batch of vectors with shape torch.Size([2])"),
    (lambda T, D: D.LowRankMultivariateNormal(T.zeros(3, 2), T.ones(4, 2, 1), T.ones(2)), ValueError,
     "Incompatible batch shapes: loc torch.Size([3, 2]), cov_factor torch.Size([4, 2, 1]), cov_diag "
     "torch.Size([2])"),
    (lambda T, D: D.LowRankMultivariateNormal(T.zeros(2), T.zeros(2, 1), -T.ones(2)), ValueError,
     "Expected parameter cov_diag (Tensor of shape (2,)) of distribution LowRankMultivariateNormal(loc: "
     "torch.Size([2]), cov_factor: torch.Size([2, 1]), cov_diag: torch.Size([2])) to satisfy the constraint "
     "IndependentConstraint(GreaterThan(lower_bound=0.0), 1), but found invalid values:\ntensor([-1., -1.])"),
    (lambda T, D: D.MixtureSameFamily(D.Normal(0.0, 1.0), D.Normal(T.zeros(2), 1.0)), ValueError,
     " The Mixture distribution needs to be an  instance of torch.distributions.Categorical"),
    (lambda T, D: D.MixtureSameFamily(D.Categorical(T.ones(2)), 3), ValueError,
     "The Component distribution needs to be an instance of torch.distributions.Distribution"),
    (lambda T, D: D.MixtureSameFamily(D.Categorical(T.ones(3, 2)), D.Normal(T.zeros(4, 2), 1.0)), ValueError,
     "`mixture_distribution.batch_shape` (torch.Size([3])) is not compatible with "
     "`component_distribution.batch_shape`(torch.Size([4]))"),
    (lambda T, D: D.MixtureSameFamily(D.Categorical(T.ones(3)), D.Normal(T.zeros(2), 1.0)), ValueError,
     "`mixture_distribution component` (3) does not equal `component_distribution.batch_shape[-1]` (2)"),
    (lambda T, D: D.kl_divergence(D.Binomial(2, T.tensor([0.5])), D.Binomial(3, T.tensor([0.5]))),
     NotImplementedError, "KL between Binomials where q.total_count > p.total_count is not implemented"),
    (lambda T, D: D.kl_divergence(D.LowRankMultivariateNormal(T.zeros(2), T.ones(2, 1), T.ones(2)),
                                  D.LowRankMultivariateNormal(T.zeros(3), T.ones(3, 1), T.ones(3))), ValueError,
     "KL-divergence between two Low Rank Multivariate Normals with                          different event shapes "
     "cannot be computed"),
    (lambda T, D: D.kl_divergence(D.MultivariateNormal(T.zeros(2), T.eye(2)),
                                  D.LowRankMultivariateNormal(T.zeros(3), T.ones(3, 1), T.ones(3))), ValueError,
     "KL-divergence between two (Low Rank) Multivariate Normals with                          different event "
     "shapes cannot be computed"),
])
def test_errors(torch, build, kind, message):
    with pytest.raises(kind) as info:
        build(torch, torch.distributions)
    assert re.sub(r", device='[^']*'\)", ")", str(info.value)) == message


SAMPLERS = {
    # (distribution, expected mean, expected variance)
    "student_t": (lambda T, D: D.StudentT(T.tensor([5.0, 10.0]), T.tensor([1.0, -1.0]), T.tensor([1.0, 2.0])),
                  [1.0, -1.0], [5 / 3, 4 * 10 / 8]),
    "chi2": (lambda T, D: D.Chi2(T.tensor([1.0, 4.0])), [1.0, 4.0], [2.0, 8.0]),
    "binomial": (lambda T, D: D.Binomial(T.tensor([10.0, 4.0]), T.tensor([0.3, 0.9])), [3.0, 3.6], [2.1, 0.36]),
    "negative_binomial": (lambda T, D: D.NegativeBinomial(T.tensor([3.0, 5.0]), T.tensor([0.4, 0.2])),
                          [2.0, 1.25], [2.0 / 0.6, 1.25 / 0.8]),
    "continuous_bernoulli": (lambda T, D: D.ContinuousBernoulli(T.tensor([0.2, 0.7])), None, None),
    "von_mises": (lambda T, D: D.VonMises(T.tensor([0.5, -2.0]), T.tensor([2.0, 8.0])), [0.5, -2.0], None),
    "mixture": (lambda T, D: D.MixtureSameFamily(D.Categorical(T.tensor([0.3, 0.7])),
                                                 D.Normal(T.tensor([-2.0, 1.0]), T.tensor([0.5, 1.0]))), None, None),
}


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_sample_statistics(torch, name):
    build, mean, var = SAMPLERS[name]
    torch.manual_seed(0)
    d = build(torch, torch.distributions)
    s = d.sample((40000,))
    assert tuple(s.shape) == (40000,) + tuple(d.batch_shape) and s.dtype == torch.float32 and not s.requires_grad
    x = s.double().numpy()
    mean = d.mean.numpy() if mean is None else mean
    var = d.variance.numpy() if var is None else var
    np.testing.assert_allclose(x.mean(0), mean, rtol=0.03, atol=0.02)
    if name == "von_mises":     # (the circular variance: 1 - the mean resultant length)
        np.testing.assert_allclose(1 - np.cos(x - np.array(mean)).mean(0), d.variance.numpy(), rtol=0.05)
    else:
        np.testing.assert_allclose(x.var(0), var, rtol=0.06, atol=0.01)
    torch.manual_seed(0)
    assert bool((build(torch, torch.distributions).sample((40000,)) == s).all())


def test_multinomial_and_one_hot_samples(torch):
    D = torch.distributions
    torch.manual_seed(0)
    p = torch.tensor([0.2, 0.5, 0.3])
    m = D.Multinomial(7, p).sample((20000,))
    assert m.shape == (20000, 3) and bool((m.sum(-1) == 7).all()) and m.dtype == torch.float32
    np.testing.assert_allclose(m.numpy().mean(0), 7 * p.numpy(), rtol=0.03)
    o = D.OneHotCategorical(p).sample((20000,))
    assert bool((o.sum(-1) == 1).all())
    np.testing.assert_allclose(o.numpy().mean(0), p.numpy(), atol=0.02)


def test_rsample_gradients(torch):
    D = torch.distributions
    probs = torch.tensor([0.2, 0.5, 0.3], requires_grad=True)
    st = D.OneHotCategoricalStraightThrough(probs).rsample()
    assert st.requires_grad and float(st.detach().sum()) == 1.0
    (g,) = torch.autograd.grad((st * torch.tensor([1.0, 2.0, 3.0])).sum(), probs)
    # (probs normalised by their sum: d(p_i / s) / d p_j of the weighted sum)
    w = torch.tensor([1.0, 2.0, 3.0])
    assert torch.allclose(g, w - (w * probs.detach()).sum())
    p = torch.tensor([0.2, 0.8], requires_grad=True)
    x = D.ContinuousBernoulli(p).rsample((3,))
    assert x.requires_grad and bool(((x >= 0) & (x <= 1)).all())
    loc = torch.tensor([0.5, -1.0], requires_grad=True)
    scale = torch.tensor([2.0, 0.5], requires_grad=True)
    t = D.StudentT(5.0, loc, scale).rsample((4,))
    gl, gs = torch.autograd.grad(t.sum(), (loc, scale))
    assert gl.tolist() == [4.0, 4.0] and torch.allclose(gs, ((t - loc) / scale).detach().sum(0))
    df = torch.tensor([3.0, 8.0], requires_grad=True)
    (gdf,) = torch.autograd.grad(D.StudentT(df).rsample().sum(), df)
    assert torch.isfinite(gdf).all()
    m = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
    w = torch.ones(3, 1, requires_grad=True)
    s = D.LowRankMultivariateNormal(m, w, torch.ones(3)).rsample((2,))
    gm, gw = torch.autograd.grad(s.sum(), (m, w))
    assert gm.tolist() == [2.0, 2.0, 2.0] and gw.shape == (3, 1)
