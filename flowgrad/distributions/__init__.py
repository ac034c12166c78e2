"""Probability distributions (PyTorch's torch.distributions), framework-neutral: a facade presents
them under its own classes (`flowgrad/facade/distributions.py`) naming its tensor class.

Built: Normal, Laplace, Cauchy, Bernoulli, Categorical, Uniform, Exponential, Gamma, Beta, Dirichlet,
MultivariateNormal, Independent, Poisson and Geometric; TransformedDistribution with the transforms
(`transforms.py`, `biject_to` / `transform_to`) and the families built on it (LogNormal,
LogisticNormal, HalfNormal, HalfCauchy, Gumbel, Weibull, Pareto, Kumaraswamy, RelaxedBernoulli,
RelaxedOneHotCategorical); with log_prob / entropy / mean / variance / sampling, argument and value
validation, `expand`, and `kl_divergence` with the rules PyTorch registers between them.
Random draws come from flowgrad's seeded stream (not PyTorch's numbers); Gamma, Beta and
Dirichlet refuse `rsample` (see gamma.py)."""
from __future__ import annotations

from . import constraints
from . import transforms
from . import kl_cross  # noqa: F401  (registers the rules between families)
from . import kl_transformed  # noqa: F401  (and those of the transformed families)
from .constraint_registry import biject_to, transform_to
from .continuous import Exponential, Uniform
from .counts import Geometric, Poisson
from .dirichlet import Dirichlet
from .discrete import Bernoulli, Categorical
from .distribution import Distribution, ExponentialFamily
from .gamma import Beta, Gamma
from .independent import Independent
from .kl import kl_divergence, register_kl
from .multivariate_normal import MultivariateNormal
from .normal import Cauchy, Laplace, Normal
from .relaxed import ExpRelaxedCategorical, LogitRelaxedBernoulli, RelaxedBernoulli, RelaxedOneHotCategorical
from .transformed import TransformedDistribution
from .transformed_families import (Gumbel, HalfCauchy, HalfNormal, Kumaraswamy, LogisticNormal, LogNormal, Pareto,
                                   Weibull, _Folded, _LocScaleOfNormal)

# the classes a facade presents, bases before the classes derived from them
CLASSES = (Distribution, ExponentialFamily, Normal, Laplace, Cauchy, Bernoulli, Categorical, Uniform, Exponential,
           Gamma, Beta, Dirichlet, MultivariateNormal, Independent, Poisson, Geometric, TransformedDistribution,
           _LocScaleOfNormal, LogNormal, LogisticNormal, _Folded, HalfNormal, HalfCauchy, Gumbel, Weibull, Pareto,
           Kumaraswamy, LogitRelaxedBernoulli, RelaxedBernoulli, ExpRelaxedCategorical, RelaxedOneHotCategorical)

# classes PyTorch keeps in their submodules only
PRIVATE = ("_LocScaleOfNormal", "_Folded", "LogitRelaxedBernoulli", "ExpRelaxedCategorical")

__all__ = ["biject_to", "constraints", "kl_divergence", "register_kl", "transform_to", "transforms",
           *(c.__name__ for c in CLASSES if c.__name__ not in PRIVATE)]
