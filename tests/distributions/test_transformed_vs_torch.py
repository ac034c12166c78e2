"""torch.distributions.transforms, biject_to / transform_to, TransformedDistribution and the families
built on it (LogNormal, LogisticNormal, HalfNormal, HalfCauchy, Gumbel, Weibull, Pareto, Kumaraswamy,
RelaxedBernoulli, RelaxedOneHotCategorical) and Cauchy, against real torch: values and gradients of
the same program on both, shapes, reprs, validation errors, samples by statistics and rsample by the
reparameterization identity."""
from __future__ import annotations

import importlib
import re

import numpy as np
import pytest

from test_distributions_vs_torch import TRIGAMMA_RTOL, _same

real = pytest.importorskip("torch")
fg = importlib.import_module("flowgrad.torch")

LOC, SCALE = [0.3, -1.2, 2.0], [0.5, 1.5, 2.5]
POS_A, POS_B = [0.7, 2.5, 4.2], [1.3, 0.6, 3.3]
X = [0.1, -0.7, 3.1]
POS_X = [0.4, 1.7, 3.1]
UNIT = [0.15, 0.5, 0.85]


def _stats(d, T, x, cdf=True, icdf=True, u=None):
    """log_prob, entropy, mean, variance, stddev, mode, and cdf / icdf where asked, stacked."""
    parts = [d.log_prob(x), d.entropy(), d.mean, d.variance, d.stddev]
    if cdf:
        parts.append(d.cdf(x))
    if icdf:
        parts.append(d.icdf(u if u is not None else T.tensor(UNIT, dtype=T.float64)))
    return T.stack([p.reshape(-1) for p in parts])


TRANSFORMS = {
    "exp": (lambda T, D, x: D.ExpTransform(), LOC),
    "sigmoid": (lambda T, D, x: D.SigmoidTransform(), LOC),
    "tanh": (lambda T, D, x: D.TanhTransform(), LOC),
    "softplus": (lambda T, D, x: D.SoftplusTransform(), LOC),
    "affine": (lambda T, D, x: D.AffineTransform(x * 0.5, x - 3.0), LOC),
    "affine_numbers": (lambda T, D, x: D.AffineTransform(1.5, -2.0), LOC),
    "affine_event": (lambda T, D, x: D.AffineTransform(0.3, x + 3.0, event_dim=1), LOC),
    "power": (lambda T, D, x: D.PowerTransform(x * 0 + 1.7), POS_A),
    "stick_breaking": (lambda T, D, x: D.StickBreakingTransform(), LOC),
    "compose": (lambda T, D, x: D.ComposeTransform([D.ExpTransform(), D.AffineTransform(1.0, x)]), LOC),
    "compose_event": (lambda T, D, x: D.ComposeTransform([D.AffineTransform(0.0, 2.0), D.StickBreakingTransform()]),
                      LOC),
    "independent": (lambda T, D, x: D.IndependentTransform(D.SigmoidTransform(), 1), LOC),
    "inverse": (lambda T, D, x: D.SigmoidTransform().inv, UNIT),
    "cdf": (lambda T, D, x: D.CumulativeDistributionTransform(D.Normal(x * 0.1, 2.0)), LOC),
}


@pytest.mark.parametrize("name", list(TRANSFORMS))
def test_transform_forward_inverse_and_jacobian(name):
    make, params = TRANSFORMS[name]

    def program(T, D, p, x):
        t = make(T, D, p)
        y = t(x)
        return T.cat([y.reshape(-1), t.inv(y).reshape(-1), t.log_abs_det_jacobian(x, y).reshape(-1)])

    _same(program, [params, params], rtol=1e-9, atol=1e-12)


def test_transform_matrices_and_reshape():
    A = [[0.3, 0.2, -0.1], [0.5, -0.4, 0.0], [0.1, 0.7, 0.2]]

    def program(T, D, a):
        L = D.LowerCholeskyTransform()(a)
        P = D.PositiveDefiniteTransform()(a)
        r = D.ReshapeTransform((3, 3), (9,))
        return T.cat([L.reshape(-1), D.LowerCholeskyTransform().inv(L).reshape(-1), P.reshape(-1),
                      D.PositiveDefiniteTransform().inv(P).reshape(-1), r(a), r.inv(r(a)).reshape(-1),
                      r.log_abs_det_jacobian(a, r(a)).reshape(-1), D.SoftmaxTransform()(a).reshape(-1)])

    _same(program, [A], rtol=1e-9, atol=1e-12)


def test_transform_attributes(torch):
    D = torch.distributions
    t = D.AffineTransform(1.0, 2.0)
    assert repr(t) == "AffineTransform()" and repr(t.inv) == "_InverseTransform(AffineTransform())"
    assert t.inv.inv is t and t.sign == 1 and D.AffineTransform(0.0, -3.0).sign == -1 and t.bijective
    assert t == D.AffineTransform(1.0, 2.0) and t != D.AffineTransform(1.0, 3.0)
    assert D.ExpTransform() == D.ExpTransform() and D.ExpTransform().inv == D.ExpTransform().inv
    assert D.ExpTransform() != D.SigmoidTransform() and not D.AbsTransform().bijective
    assert [repr(x) for x in (D.ExpTransform().domain, D.ExpTransform().codomain, D.TanhTransform().codomain,
                              D.StickBreakingTransform().codomain, D.ExpTransform().inv.domain)] == [
        "Real()", "GreaterThan(lower_bound=0.0)", "Interval(lower_bound=-1.0, upper_bound=1.0)", "Simplex()",
        "GreaterThan(lower_bound=0.0)"]
    c = D.ComposeTransform([D.ExpTransform(), D.AffineTransform(0.0, -1.0)])
    assert c.sign == -1 and c.inv.inv is c and c.bijective
    assert repr(c) == "ComposeTransform(\n    ExpTransform(),\n    AffineTransform()\n)"
    assert repr(c.inv) == "ComposeTransform(\n    _InverseTransform(AffineTransform()),\n    " \
                          "_InverseTransform(ExpTransform())\n)"
    assert repr(D.transforms.identity_transform) == "ComposeTransform(\n    \n)"
    assert isinstance(D.biject_to(D.constraints.positive), D.ComposeTransform)
    assert repr(D.IndependentTransform(D.ExpTransform(), 2)) == "IndependentTransform(ExpTransform(), 2)"
    assert D.IndependentTransform(D.ExpTransform(), 2).domain.event_dim == 2
    assert D.StickBreakingTransform().forward_shape(torch.Size([2, 3])) == torch.Size([2, 4])
    assert D.StickBreakingTransform().inverse_shape((2, 4)) == (2, 3)
    assert D.AffineTransform(torch.zeros(3), 1.0).forward_shape((2, 1)) == torch.Size([2, 3])
    assert D.ReshapeTransform((2, 3), (6,)).forward_shape((4, 2, 3)) == torch.Size([4, 6])
    assert bool((D.PowerTransform(2.0).exponent == torch.tensor(2.0)).all())
    assert D.PowerTransform(torch.tensor([-1.0, 2.0])).sign.tolist() == [-1.0, 1.0]
    assert D.ComposeTransform([D.ExpTransform(), D.StickBreakingTransform()]).domain.event_dim == 1
    assert repr(D.ComposeTransform([D.ExpTransform(), D.StickBreakingTransform()]).domain) == \
        "IndependentConstraint(Real(), 1)"
    assert D.SigmoidTransform().event_dim == 0 and D.SoftmaxTransform().event_dim == 1


def test_transform_cache(torch):
    D = torch.distributions
    t = D.ExpTransform(cache_size=1)
    x = torch.tensor([0.5, 1.0])
    y = t(x)
    assert t(x) is y and t.inv(y) is x
    u = D.ExpTransform()
    assert u(x) is not u(x) and u.with_cache(1)._cache_size == 1 and u.with_cache(0) is u
    c = D.ComposeTransform([D.ExpTransform(), D.AffineTransform(1.0, 2.0)], cache_size=1)
    assert all(p._cache_size == 1 for p in c.parts)


@pytest.mark.parametrize("constraint,expected", [
    ("real", "ComposeTransform(\n    \n)"),
    ("positive", "ComposeTransform(\n    ExpTransform(),\n    AffineTransform()\n)"),
    ("nonnegative", "ComposeTransform(\n    ExpTransform(),\n    AffineTransform()\n)"),
    ("unit_interval", "SigmoidTransform()"),
    ("simplex", "StickBreakingTransform()"),
    ("real_vector", "IndependentTransform(ComposeTransform(\n    \n), 1)"),
])
def test_biject_to(torch, constraint, expected):
    assert repr(torch.distributions.biject_to(getattr(torch.distributions.constraints, constraint))) == expected


def test_transform_to_values():
    def program(T, D, x):
        C = D.constraints
        parts = [D.transform_to(C.interval(-1.0, 2.0))(x), D.transform_to(C.greater_than(1.5))(x),
                 D.transform_to(C.less_than(0.5))(x), D.transform_to(C.simplex)(x), D.biject_to(C.simplex)(x),
                 D.transform_to(C.half_open_interval(0.0, 3.0))(x)]
        return T.cat([p.reshape(-1) for p in parts])

    _same(program, [LOC])
    for T in (fg, real):
        C = T.distributions.constraints
        assert repr(T.distributions.transform_to(C.lower_cholesky)) == "LowerCholeskyTransform()"
        assert repr(T.distributions.transform_to(C.positive_definite)) == "PositiveDefiniteTransform()"
        assert repr(T.distributions.transform_to(C.simplex)) == "SoftmaxTransform()"


CASES = {
    "lognormal": (lambda T, D, a, b, x: _stats(D.LogNormal(a, b), T, x), [LOC, SCALE, POS_X]),
    "halfnormal": (lambda T, D, a, x: _stats(D.HalfNormal(a), T, x), [SCALE, POS_X]),
    "halfcauchy": (lambda T, D, a, x: T.stack([D.HalfCauchy(a).log_prob(x), D.HalfCauchy(a).entropy(),
                                               D.HalfCauchy(a).cdf(x), D.HalfCauchy(a).icdf(x / 4)]),
                   [SCALE, POS_X]),
    "cauchy": (lambda T, D, a, b, x: T.stack([D.Cauchy(a, b).log_prob(x), D.Cauchy(a, b).entropy(),
                                              D.Cauchy(a, b).cdf(x), D.Cauchy(a, b).icdf(T.sigmoid(x))]),
               [LOC, SCALE, X]),
    "gumbel": (lambda T, D, a, b, x: _stats(D.Gumbel(a, b), T, x), [LOC, SCALE, X]),
    "weibull": (lambda T, D, a, b, x: _stats(D.Weibull(a, b), T, x), [POS_A, POS_B, POS_X]),
    "pareto": (lambda T, D, a, b, x: _stats(D.Pareto(a, b + 2), T, x + 4.2), [POS_A, POS_B, POS_X]),
    "kumaraswamy": (lambda T, D, a, b, x: _stats(D.Kumaraswamy(a, b), T, x, cdf=False, icdf=False),
                    [POS_A, POS_B, UNIT]),
    "logistic_normal": (lambda T, D, a, b, x: D.LogisticNormal(a, b).log_prob(T.softmax(T.cat([x, x[:1]]), -1)),
                        [LOC, SCALE, X]),
    "relaxed_bernoulli": (lambda T, D, t, p, x: T.stack([D.RelaxedBernoulli(t, probs=p).log_prob(x),
                                                         D.RelaxedBernoulli(t, logits=p).log_prob(x)]),
                          [POS_B, UNIT, UNIT[::-1]]),
    "relaxed_one_hot": (lambda T, D, t, p, x: T.stack([
        D.RelaxedOneHotCategorical(t, probs=p).log_prob(x / x.sum()),
        D.RelaxedOneHotCategorical(t, logits=p).log_prob(x / x.sum())]), [1.7, UNIT, POS_X]),
    "transformed_logistic": (lambda T, D, a, b, x: (lambda d: T.stack([d.log_prob(x), d.cdf(x), d.icdf(T.sigmoid(x))]))(
        D.TransformedDistribution(D.Uniform(a * 0, a * 0 + 1), [D.SigmoidTransform().inv, D.AffineTransform(a, b)])),
        [LOC, SCALE, X]),
    "transformed_decreasing": (lambda T, D, a, b, x: (lambda d: T.stack([d.log_prob(x), d.cdf(x),
                                                                         d.icdf(T.sigmoid(x))]))(
        D.TransformedDistribution(D.Normal(a, b), [D.AffineTransform(1.0, -2.0), D.ExpTransform()])),
        [LOC, SCALE, POS_X]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_values_and_gradients(name):
    program, params = CASES[name]
    digamma = name in ("kumaraswamy", "weibull")
    _same(program, params, rtol=TRIGAMMA_RTOL if digamma else 1e-9, atol=1e-9 if digamma else 1e-12)


KL = {
    "lognormal": (lambda T, D, a, b, c, d: D.kl_divergence(D.LogNormal(a, c), D.LogNormal(b, d))),
    "halfnormal": (lambda T, D, a, b, c, d: D.kl_divergence(D.HalfNormal(c), D.HalfNormal(d))),
    "cauchy": (lambda T, D, a, b, c, d: D.kl_divergence(D.Cauchy(a, c), D.Cauchy(b, d))),
    "gumbel": (lambda T, D, a, b, c, d: D.kl_divergence(D.Gumbel(a, c), D.Gumbel(b, d))),
    "pareto": (lambda T, D, a, b, c, d: D.kl_divergence(D.Pareto(c, d), D.Pareto(d, c))),
    "exponential_gumbel": (lambda T, D, a, b, c, d: D.kl_divergence(D.Exponential(c), D.Gumbel(a, d))),
    "gamma_gumbel": (lambda T, D, a, b, c, d: D.kl_divergence(D.Gamma(c, d), D.Gumbel(a, d))),
    "gumbel_normal": (lambda T, D, a, b, c, d: D.kl_divergence(D.Gumbel(a, c), D.Normal(b, d))),
    "normal_gumbel": (lambda T, D, a, b, c, d: D.kl_divergence(D.Normal(a, c), D.Gumbel(b, d))),
    "pareto_exponential": (lambda T, D, a, b, c, d: D.kl_divergence(D.Pareto(c, d), D.Exponential(c))),
    "pareto_gamma": (lambda T, D, a, b, c, d: D.kl_divergence(D.Pareto(c, d), D.Gamma(c, d))),
    "pareto_normal": (lambda T, D, a, b, c, d: D.kl_divergence(D.Pareto(c, d + 1), D.Normal(a, d))),
    "uniform_gumbel": (lambda T, D, a, b, c, d: D.kl_divergence(D.Uniform(a, a + c), D.Gumbel(b, d))),
    "uniform_pareto": (lambda T, D, a, b, c, d: D.kl_divergence(D.Uniform(c, c + d), D.Pareto(d * 0.5 + 0.3, c))),
    "transformed": (lambda T, D, a, b, c, d: D.kl_divergence(
        D.TransformedDistribution(D.Normal(a, c), [D.TanhTransform()]),
        D.TransformedDistribution(D.Normal(b, d), [D.TanhTransform()]))),
}


@pytest.mark.parametrize("name", list(KL))
def test_kl_values_and_gradients(name):
    _same(KL[name], [LOC, X, SCALE, POS_A], rtol=TRIGAMMA_RTOL, atol=1e-9)


INFINITE_KL = [("Gumbel", "Gamma"), ("Gumbel", "Beta"), ("Gumbel", "Exponential"), ("Gumbel", "Pareto"),
               ("Gumbel", "Uniform"), ("Pareto", "Uniform"), ("Pareto", "Beta"), ("Normal", "Pareto"),
               ("Beta", "Pareto"), ("Exponential", "Pareto"), ("Gamma", "Pareto"), ("Laplace", "Pareto")]
_TWO = {"Gumbel": (0.3, 1.5), "Gamma": (1.3, 0.5), "Beta": (1.3, 0.5), "Pareto": (1.3, 0.5), "Uniform": (0.2, 0.9),
        "Normal": (0.3, 1.5), "Laplace": (0.3, 1.5)}


@pytest.mark.parametrize("pair", INFINITE_KL, ids="-".join)
def test_kl_infinite_rules(torch, pair):
    D = torch.distributions

    def make(name):
        if name == "Exponential":
            return D.Exponential(torch.tensor([1.5, 2.0]))
        a, b = _TWO[name]
        return getattr(D, name)(torch.tensor([a, a]), torch.tensor([b, b]))

    kl = D.kl_divergence(make(pair[0]), make(pair[1]))
    assert kl.tolist() == [float("inf")] * 2 and kl.dtype == torch.float32


def test_kl_transformed_needs_equal_transforms(torch):
    D = torch.distributions
    with pytest.raises(NotImplementedError):
        D.kl_divergence(D.TransformedDistribution(D.Normal(0.0, 1.0), D.ExpTransform()),
                        D.TransformedDistribution(D.Normal(0.0, 1.0), D.SigmoidTransform()))


def test_shapes_reprs_and_expand(torch):
    D = torch.distributions
    ln = D.LogNormal(torch.zeros(3), 1.0)
    assert repr(ln) == "LogNormal()" and ln.batch_shape == torch.Size([3]) and ln.has_rsample
    assert repr(ln.support) == "GreaterThan(lower_bound=0.0)" and ln.expand((2, 3)).batch_shape == torch.Size([2, 3])
    assert isinstance(ln, D.TransformedDistribution) and isinstance(ln.base_dist, D.Normal)
    assert isinstance(ln.transforms[0], D.ExpTransform)
    g = D.Gumbel(torch.zeros(2), torch.ones(2))
    assert repr(g) == "Gumbel(loc: torch.Size([2]), scale: torch.Size([2]))" and g.has_rsample
    assert g.expand((4, 2)).batch_shape == torch.Size([4, 2]) and tuple(g.expand((4, 2)).sample().shape) == (4, 2)
    assert repr(D.Gumbel(0.0, 1.0)) == "Gumbel(loc: 0.0, scale: 1.0)"
    lg = D.LogisticNormal(torch.zeros(2, 3), 1.0)
    assert (lg.batch_shape, lg.event_shape) == (torch.Size([2]), torch.Size([4]))
    assert (D.LogisticNormal(0.0, 1.0).batch_shape, D.LogisticNormal(0.0, 1.0).event_shape) == (
        torch.Size([]), torch.Size([2]))
    assert repr(lg.support) == "Simplex()" and tuple(lg.rsample((5,)).shape) == (5, 2, 4)
    assert tuple(lg.expand((3, 2)).sample().shape) == (3, 2, 4)
    p = D.Pareto(torch.tensor([1.0, 2.0]), 3.0)
    assert repr(p) == "Pareto(alpha: torch.Size([2]), scale: torch.Size([2]))"
    assert repr(p.support) == "GreaterThanEq(lower_bound=tensor([1., 2.]))"
    w = D.Weibull(torch.ones(2), torch.tensor([0.5, 2.0]))
    assert repr(w) == "Weibull(scale: torch.Size([2]), concentration: torch.Size([2]))" and w.has_rsample
    assert w.expand((3, 2)).concentration.shape == (3, 2) and tuple(w.expand((3, 2)).rsample().shape) == (3, 2)
    k = D.Kumaraswamy(torch.ones(2), 2.0)
    assert repr(k) == "Kumaraswamy(concentration1: torch.Size([2]), concentration0: torch.Size([2]))"
    r = D.RelaxedOneHotCategorical(torch.tensor(0.5), logits=torch.zeros(2, 3))
    assert (r.batch_shape, r.event_shape) == (torch.Size([2]), torch.Size([3])) and repr(r.support) == "Simplex()"
    assert tuple(r.expand((4, 2)).rsample().shape) == (4, 2, 3) and repr(r) == "RelaxedOneHotCategorical()"
    rb = D.RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.3, 0.6]))
    assert rb.batch_shape == torch.Size([2]) and tuple(rb.expand((3, 2)).rsample().shape) == (3, 2)
    assert repr(D.HalfNormal(1.0)) == "HalfNormal()" and repr(D.HalfNormal(1.0).support) == \
        "GreaterThanEq(lower_bound=0.0)"
    assert repr(D.Cauchy(0.0, 1.0)) == "Cauchy(loc: 0.0, scale: 1.0)"
    td = D.TransformedDistribution(D.Normal(torch.zeros(2, 3), 1.0), [D.StickBreakingTransform()])
    assert (td.batch_shape, td.event_shape) == (torch.Size([2]), torch.Size([4]))
    assert isinstance(td.base_dist, D.Independent) and repr(td.support) == "Simplex()"
    assert tuple(td.expand((5, 2)).sample().shape) == (5, 2, 4)
    a = D.TransformedDistribution(D.Normal(0.0, 1.0), D.AffineTransform(torch.zeros(3), 1.0))
    assert a.batch_shape == torch.Size([3]) and a.base_dist.batch_shape == torch.Size([3])
    import importlib as il
    for mod, cls in [("log_normal", "LogNormal"), ("gumbel", "Gumbel"), ("transformed_distribution",
                                                                        "TransformedDistribution"),
                     ("relaxed_bernoulli", "RelaxedBernoulli"), ("cauchy", "Cauchy")]:
        assert getattr(il.import_module(f"{torch.__name__}.distributions.{mod}"), cls) is getattr(D, cls)
    assert il.import_module(f"{torch.__name__}.distributions.transforms").ExpTransform is D.ExpTransform
    assert il.import_module(f"{torch.__name__}.distributions.relaxed_bernoulli").LogitRelaxedBernoulli.__name__ == \
        "LogitRelaxedBernoulli"
    assert il.import_module(f"{torch.__name__}.distributions.constraint_registry").biject_to is D.biject_to


def test_means_and_variances_of_undefined_moments(torch):
    D = torch.distributions
    c = D.Cauchy(torch.zeros(2), torch.ones(2))
    assert torch.isnan(c.mean).all() and torch.isinf(c.variance).all() and c.mode.tolist() == [0.0, 0.0]
    assert torch.isinf(D.HalfCauchy(torch.ones(2)).mean).all()
    assert D.Pareto(torch.tensor([1.0]), torch.tensor([0.5])).mean.tolist() == [float("inf")]
    assert torch.isnan(D.Kumaraswamy(torch.tensor([0.5]), torch.tensor([2.0])).mode).all()


@pytest.mark.parametrize("build,kind,message", [
    (lambda T, D: D.TransformedDistribution(D.Normal(0.0, 1.0), [D.ExpTransform(), 3]), ValueError,
     "transforms must be a Transform or a list of Transforms"),
    (lambda T, D: D.TransformedDistribution(D.Normal(0.0, 1.0), (D.ExpTransform(),)), ValueError,
     "transforms must be a Transform or list, but was (ExpTransform(),)"),
    (lambda T, D: D.TransformedDistribution(D.Normal(0.0, 1.0), D.StickBreakingTransform()), ValueError,
     "base_distribution needs to have shape with size at least 1, but got torch.Size([])."),
    (lambda T, D: D.ExpTransform(cache_size=2), ValueError, "cache_size must be 0 or 1"),
    (lambda T, D: D.StickBreakingTransform().forward_shape(()), ValueError, "Too few dimensions on input"),
    (lambda T, D: D.IndependentTransform(D.ExpTransform(), 2)(T.zeros(3)), ValueError, "Too few dimensions on input"),
    (lambda T, D: D.ReshapeTransform((2, 3), (5,)), ValueError, "in_shape, out_shape have different numbers of "
                                                                "elements"),
    (lambda T, D: D.ReshapeTransform((2, 3), (6,)).forward_shape((3, 2)), ValueError,
     "Shape mismatch: expected (3, 2) but got torch.Size([2, 3])"),
    (lambda T, D: D.ReshapeTransform((6,), (2, 3)).event_dim, ValueError,
     "Please use either .domain.event_dim or .codomain.event_dim"),
    (lambda T, D: D.biject_to(D.constraints.lower_cholesky), NotImplementedError,
     "Cannot transform _LowerCholesky constraints"),
    (lambda T, D: D.biject_to.register(3, lambda c: None), TypeError,
     "Expected constraint to be either a Constraint subclass or instance, but got 3"),
    (lambda T, D: D.LogNormal(0.0, -1.0), ValueError,
     "Expected parameter scale (Tensor of shape ()) of distribution Normal(loc: 0.0, scale: -1.0) to satisfy the "
     "constraint GreaterThan(lower_bound=0.0), but found invalid values:\n-1.0"),
    (lambda T, D: D.HalfNormal(T.tensor([1.0, -1.0])), ValueError,
     "Expected parameter scale (Tensor of shape (2,)) of distribution HalfNormal() to satisfy the constraint "
     "GreaterThan(lower_bound=0.0), but found invalid values:\ntensor([ 1., -1.])"),
    (lambda T, D: D.LogNormal(0.0, 1.0).log_prob(T.tensor(-1.0)), ValueError,
     "Expected value argument (Tensor of shape ()) to be within the support (GreaterThan(lower_bound=0.0)) of the "
     "distribution LogNormal(), but found invalid values:\n-1.0"),
    (lambda T, D: D.Gumbel(0.0, -2.0), ValueError,
     "Expected parameter scale (Tensor of shape ()) of distribution Gumbel(loc: 0.0, scale: -2.0) to satisfy the "
     "constraint GreaterThan(lower_bound=0.0), but found invalid values:\n-2.0"),
    (lambda T, D: D.Pareto(1.0, 2.0).log_prob(T.tensor(0.5)), ValueError,
     "Expected value argument (Tensor of shape ()) to be within the support (GreaterThanEq(lower_bound=1.0)) of the "
     "distribution Pareto(alpha: 2.0, scale: 1.0), but found invalid values:\n0.5"),
    (lambda T, D: D.RelaxedBernoulli(T.tensor(1.0)), ValueError,
     "Either `probs` or `logits` must be specified, but not both."),
    (lambda T, D: D.RelaxedOneHotCategorical(T.tensor(1.0), probs=T.tensor([0.5, -0.2])), ValueError,
     "Expected parameter probs (Tensor of shape (2,)) of distribution Categorical(probs: torch.Size([2])) to satisfy "
     "the constraint Simplex(), but found invalid values:\ntensor([ 1.6667, -0.6667])"),
    (lambda T, D: D.Kumaraswamy(1.0, 2.0).log_prob(T.tensor(1.5)), ValueError,
     "Expected value argument (Tensor of shape ()) to be within the support (Interval(lower_bound=0.0, "
     "upper_bound=1.0)) of the distribution Kumaraswamy(concentration1: 1.0, concentration0: 2.0), but found invalid "
     "values:\n1.5"),
])
def test_errors(torch, build, kind, message):
    with pytest.raises(kind) as info:
        build(torch, torch.distributions)
    assert re.sub(r", device='[^']*'\)", ")", str(info.value)) == message


SAMPLERS = {
    # (distribution, expected mean, expected variance)
    "lognormal": (lambda T, D: D.LogNormal(T.tensor([0.0, 0.5]), T.tensor([0.25, 0.5])),
                  np.exp([0.03125, 0.625]), (np.exp([0.0625, 0.25]) - 1) * np.exp([0.0625, 1.25])),
    "halfnormal": (lambda T, D: D.HalfNormal(T.tensor([1.0, 2.0])), np.sqrt(2 / np.pi) * np.array([1.0, 2.0]),
                   (1 - 2 / np.pi) * np.array([1.0, 4.0])),
    "gumbel": (lambda T, D: D.Gumbel(T.tensor([0.0, 1.0]), T.tensor([1.0, 0.5])),
               np.array([0.5772156649, 1.28860783]), np.pi ** 2 / 6 * np.array([1.0, 0.25])),
    "weibull": (lambda T, D: D.Weibull(T.tensor([1.0, 2.0]), T.tensor([2.0, 3.0])),
                np.array([0.88622693, 1.78596712]), np.array([0.21460184, 0.4220842])),
    "pareto": (lambda T, D: D.Pareto(T.tensor([1.0, 2.0]), T.tensor([5.0, 6.0])), np.array([1.25, 2.4]),
               np.array([5 / 48, 4 * 6 / 100])),
    "kumaraswamy": (lambda T, D: D.Kumaraswamy(T.tensor([2.0, 1.0]), T.tensor([3.0, 1.0])),
                    np.array([0.45714286, 0.5]), np.array([0.04040816, 1 / 12])),
    "relaxed_bernoulli": (lambda T, D: D.RelaxedBernoulli(T.tensor(0.05), probs=T.tensor([0.2, 0.7])),
                          np.array([0.2, 0.7]), np.array([0.16, 0.21])),
}


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_sample_statistics(torch, name):
    build, mean, var = SAMPLERS[name]
    torch.manual_seed(0)
    d = build(torch, torch.distributions)
    s = d.sample((40000,))
    assert tuple(s.shape) == (40000, 2) and s.dtype == torch.float32 and not s.requires_grad
    x = s.double().numpy()
    np.testing.assert_allclose(x.mean(0), mean, rtol=0.03, atol=0.01)
    np.testing.assert_allclose(x.var(0), var, rtol=0.1, atol=0.01)
    if name != "relaxed_bernoulli":    # (which has no mean)
        np.testing.assert_allclose(x.mean(0), d.mean.numpy(), rtol=0.03, atol=0.01)


def test_cauchy_and_one_hot_samples(torch):
    D = torch.distributions
    torch.manual_seed(0)
    s = D.Cauchy(torch.tensor([1.0, -2.0]), torch.tensor([0.5, 2.0])).sample((40000,)).numpy()
    np.testing.assert_allclose(np.median(s, 0), [1.0, -2.0], atol=0.05)
    np.testing.assert_allclose(np.percentile(s, 75, 0) - np.percentile(s, 25, 0), [1.0, 4.0], rtol=0.05)
    r = D.RelaxedOneHotCategorical(torch.tensor(0.05), probs=torch.tensor([0.2, 0.5, 0.3])).sample((40000,))
    assert torch.allclose(r.sum(-1), torch.ones(40000))
    np.testing.assert_allclose(r.numpy().mean(0), [0.2, 0.5, 0.3], atol=0.02)
    lg = D.LogisticNormal(torch.zeros(2), torch.ones(2)).sample((1000,))
    assert tuple(lg.shape) == (1000, 3) and torch.allclose(lg.sum(-1), torch.ones(1000))


def test_rsample_reparameterization(torch):
    D = torch.distributions
    loc = torch.tensor([0.5, -1.0], requires_grad=True)
    scale = torch.tensor([2.0, 0.5], requires_grad=True)
    s = D.LogNormal(loc, scale).rsample((3,))
    gl, gs = torch.autograd.grad(s.sum(), (loc, scale))
    eps = ((s.log() - loc) / scale).detach()
    assert torch.allclose(gl, s.detach().sum(0)) and torch.allclose(gs, (s.detach() * eps).sum(0))
    h = D.HalfNormal(scale).rsample((4,))
    (gh,) = torch.autograd.grad(h.sum(), scale)
    assert torch.allclose(gh, (h / scale).detach().sum(0))
    c = D.Cauchy(loc, scale).rsample()
    gl, gs = torch.autograd.grad(c.sum(), (loc, scale))
    assert gl.tolist() == [1.0, 1.0] and torch.allclose(gs, ((c - loc) / scale).detach())
    conc = torch.tensor([0.7, 2.0], requires_grad=True)
    w = D.Weibull(scale, conc).rsample()
    gs, gc = torch.autograd.grad(w.sum(), (scale, conc))
    z = (w / scale).detach()           # w = scale * E ** (1 / conc), E standard exponential
    assert torch.allclose(gs, z) and torch.allclose(gc, -w.detach() * (z ** conc.detach()).log() / conc.detach() ** 2)
    t = torch.tensor(0.5, requires_grad=True)
    logits = torch.tensor([0.2, -0.4, 1.0], requires_grad=True)
    r = D.RelaxedOneHotCategorical(t, logits=logits).rsample()
    assert r.requires_grad and tuple(r.shape) == (3,)
    (gt,) = torch.autograd.grad(r[0], t)
    assert torch.isfinite(gt)
