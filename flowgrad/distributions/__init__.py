"""Probability distributions (PyTorch's torch.distributions), framework-neutral: a facade presents
them under its own classes (`flowgrad/facade/distributions.py`) naming its tensor class.

Built: Normal, Laplace, Bernoulli, Categorical, Uniform, Exponential, Gamma, Beta, Dirichlet,
MultivariateNormal, Independent, Poisson and Geometric, with log_prob / entropy / mean / variance /
sampling, argument and value validation, `expand`, and `kl_divergence` with the rules PyTorch registers between them.
Random draws come from flowgrad's seeded stream (not PyTorch's numbers); Gamma, Beta and
Dirichlet refuse `rsample` (see gamma.py)."""
from __future__ import annotations

from . import constraints
from . import kl_cross  # noqa: F401  (registers the rules between families)
from .continuous import Exponential, Uniform
from .counts import Geometric, Poisson
from .dirichlet import Dirichlet
from .discrete import Bernoulli, Categorical
from .distribution import Distribution, ExponentialFamily
from .gamma import Beta, Gamma
from .independent import Independent
from .kl import kl_divergence, register_kl
from .multivariate_normal import MultivariateNormal
from .normal import Laplace, Normal

# the classes a facade presents, bases before the classes derived from them
CLASSES = (Distribution, ExponentialFamily, Normal, Laplace, Bernoulli, Categorical, Uniform, Exponential, Gamma,
           Beta, Dirichlet, MultivariateNormal, Independent, Poisson, Geometric)

__all__ = ["constraints", "kl_divergence", "register_kl", *(c.__name__ for c in CLASSES)]
