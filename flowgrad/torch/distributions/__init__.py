"""torch.distributions: the neutral distributions (flowgrad/distributions) under torch.Tensor."""
from ...facade.distributions import build as _build, submodules as _submodules
from .._tensor import Tensor as _Tensor
from . import constraints  # noqa: F401
from . import kl  # noqa: F401
from .kl import kl_divergence, register_kl  # noqa: F401

globals().update(_build(__name__, _Tensor))
globals().update(_submodules(__name__, globals(), _Tensor))

__all__ = ["Bernoulli", "Beta", "Categorical", "Dirichlet", "Distribution", "Exponential", "ExponentialFamily",
           "Gamma", "Geometric", "Independent", "Laplace", "MultivariateNormal", "Normal", "Poisson", "Uniform",
           "constraints", "kl_divergence", "register_kl"]
