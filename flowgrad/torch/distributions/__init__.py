"""torch.distributions: the neutral distributions (flowgrad/distributions) under torch.Tensor."""
from ...facade.distributions import build as _build, submodules as _submodules
from .._tensor import Tensor as _Tensor
from . import constraints  # noqa: F401
from . import kl  # noqa: F401
from .kl import kl_divergence, register_kl  # noqa: F401

_classes = _build(__name__, _Tensor)
globals().update({k: v for k, v in _classes.items() if not k.startswith("_")})
globals().update(_submodules(__name__, _classes, _Tensor))
identity_transform = _classes["_identity_transform"]

__all__ = ["Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2", "ContinuousBernoulli", "Dirichlet",
           "Distribution", "Exponential", "ExponentialFamily", "Gamma", "Geometric", "Gumbel", "HalfCauchy",
           "HalfNormal", "Independent", "Kumaraswamy", "Laplace", "LogNormal", "LogisticNormal",
           "LowRankMultivariateNormal", "MixtureSameFamily", "Multinomial", "MultivariateNormal", "NegativeBinomial",
           "Normal", "OneHotCategorical", "OneHotCategoricalStraightThrough", "Pareto", "Poisson", "RelaxedBernoulli",
           "RelaxedOneHotCategorical", "StudentT", "TransformedDistribution", "Uniform", "VonMises", "Weibull",
           "AbsTransform", "AffineTransform", "ComposeTransform", "CumulativeDistributionTransform", "ExpTransform",
           "IndependentTransform", "LowerCholeskyTransform", "PositiveDefiniteTransform", "PowerTransform",
           "ReshapeTransform", "SigmoidTransform", "SoftplusTransform", "SoftmaxTransform", "StickBreakingTransform",
           "TanhTransform", "Transform", "biject_to", "constraints", "identity_transform", "kl_divergence",
           "register_kl", "transform_to"]
