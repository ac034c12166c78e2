"""Probability distributions (PyTorch's torch.distributions), framework-neutral: a facade presents
them under its own classes (`flowgrad/facade/distributions.py`) naming its tensor class.

Built: Normal, Laplace, Cauchy, StudentT, Bernoulli, ContinuousBernoulli, Categorical, OneHotCategorical
(and its straight-through variant), Uniform, Exponential, Gamma, Chi2, Beta, Dirichlet, VonMises,
MultivariateNormal, LowRankMultivariateNormal, Independent, MixtureSameFamily, Poisson, Geometric,
Binomial, NegativeBinomial and Multinomial; TransformedDistribution with the transforms
(`transforms.py`, `biject_to` / `transform_to`) and the families built on it (LogNormal,
LogisticNormal, HalfNormal, HalfCauchy, Gumbel, Weibull, Pareto, Kumaraswamy, RelaxedBernoulli,
RelaxedOneHotCategorical); with log_prob / entropy / mean / variance / sampling, argument and value
validation, `expand`, and `kl_divergence` with the rules PyTorch registers between them.
Random draws come from flowgrad's seeded stream (not PyTorch's numbers); gamma-based draws (Gamma,
Chi2, StudentT, Beta, Dirichlet) are differentiated implicitly with PyTorch's approximations
(flowgrad/ops/random_grads.py)."""
from __future__ import annotations

from . import constraints
from . import transforms
from . import kl_cross  # noqa: F401  (registers the rules between families)
from . import kl_transformed  # noqa: F401  (and those of the transformed families)
from . import kl_more_families  # noqa: F401  (and of the count, one-hot, continuous Bernoulli and low-rank ones)
from .constraint_registry import biject_to, transform_to
from .continuous import Exponential, Uniform
from .continuous_bernoulli import ContinuousBernoulli
from .counts import Binomial, Geometric, NegativeBinomial, Poisson, _CountOfTrials
from .dirichlet import Dirichlet
from .discrete import Bernoulli, Categorical
from .distribution import Distribution, ExponentialFamily
from .gamma import Beta, Chi2, Gamma
from .independent import Independent
from .kl import kl_divergence, register_kl
from .lowrank_multivariate_normal import LowRankMultivariateNormal
from .mixture import MixtureSameFamily
from .multinomial import Multinomial, OneHotCategorical, OneHotCategoricalStraightThrough, _OfCategorical
from .multivariate_normal import MultivariateNormal
from .normal import Cauchy, Laplace, Normal
from .student_t import StudentT
from .von_mises import VonMises
from .relaxed import ExpRelaxedCategorical, LogitRelaxedBernoulli, RelaxedBernoulli, RelaxedOneHotCategorical
from .transformed import TransformedDistribution
from .transformed_families import (Gumbel, HalfCauchy, HalfNormal, Kumaraswamy, LogisticNormal, LogNormal, Pareto,
                                   Weibull, _Folded, _LocScaleOfNormal)

# the classes a facade presents, bases before the classes derived from them
CLASSES = (Distribution, ExponentialFamily, Normal, Laplace, Cauchy, StudentT, Bernoulli, ContinuousBernoulli,
           Categorical, _OfCategorical, OneHotCategorical, OneHotCategoricalStraightThrough, Multinomial, Uniform,
           Exponential, Gamma, Chi2, Beta, Dirichlet, VonMises, MultivariateNormal, LowRankMultivariateNormal,
           Independent, MixtureSameFamily, Poisson, Geometric, _CountOfTrials, Binomial, NegativeBinomial,
           TransformedDistribution, _LocScaleOfNormal, LogNormal, LogisticNormal, _Folded, HalfNormal, HalfCauchy,
           Gumbel, Weibull, Pareto, Kumaraswamy, LogitRelaxedBernoulli, RelaxedBernoulli, ExpRelaxedCategorical,
           RelaxedOneHotCategorical)

# classes PyTorch keeps in their submodules only (the private bases are never presented by name)
PRIVATE = ("LogitRelaxedBernoulli", "ExpRelaxedCategorical")

__all__ = ["biject_to", "constraints", "kl_divergence", "register_kl", "transform_to", "transforms",
           *(c.__name__ for c in CLASSES if c.__name__ not in PRIVATE and not c.__name__.startswith("_"))]
