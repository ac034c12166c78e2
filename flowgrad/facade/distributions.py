"""The neutral `flowgrad.distributions` presented under a facade's classes: one class per
distribution and per transform, `type(name, (neutral, facade_base), {"_tensor_cls": Tensor})`, so
that the facade's Normal is its ExponentialFamily and its Distribution, numbers become the facade's
tensors, and the parts a distribution builds (its base distribution, its transforms) are the facade's
classes too."""
from __future__ import annotations

import sys
import types
from types import SimpleNamespace

from .. import distributions as _distributions
from ..distributions import constraint_registry as _registry
from ..distributions import transforms as _transforms
from ..distributions import utils as _utils

# PyTorch's submodules of torch.distributions that hold the classes flowgrad builds: module -> classes
SUBMODULES = {"distribution": ("Distribution",), "exp_family": ("ExponentialFamily",), "normal": ("Normal",),
              "laplace": ("Laplace",), "cauchy": ("Cauchy",), "bernoulli": ("Bernoulli",),
              "categorical": ("Categorical",), "uniform": ("Uniform",), "exponential": ("Exponential",),
              "gamma": ("Gamma",), "beta": ("Beta",), "dirichlet": ("Dirichlet",),
              "multivariate_normal": ("MultivariateNormal",), "independent": ("Independent",),
              "poisson": ("Poisson",), "geometric": ("Geometric",),
              "transformed_distribution": ("TransformedDistribution",), "log_normal": ("LogNormal",),
              "logistic_normal": ("LogisticNormal",), "half_normal": ("HalfNormal",),
              "half_cauchy": ("HalfCauchy",), "gumbel": ("Gumbel",), "weibull": ("Weibull",), "pareto": ("Pareto",),
              "kumaraswamy": ("Kumaraswamy",), "relaxed_bernoulli": ("LogitRelaxedBernoulli", "RelaxedBernoulli"),
              "relaxed_categorical": ("ExpRelaxedCategorical", "RelaxedOneHotCategorical"),
              "chi2": ("Chi2",), "studentT": ("StudentT",), "binomial": ("Binomial",),
              "negative_binomial": ("NegativeBinomial",), "multinomial": ("Multinomial",),
              "one_hot_categorical": ("OneHotCategorical", "OneHotCategoricalStraightThrough"),
              "continuous_bernoulli": ("ContinuousBernoulli",), "von_mises": ("VonMises",),
              "lowrank_multivariate_normal": ("LowRankMultivariateNormal",),
              "mixture_same_family": ("MixtureSameFamily",)}


def _derive(neutrals, module: str, Tensor: type) -> dict:
    out: dict[type, type] = {}
    for neutral in neutrals:
        bases = [out[b] for b in neutral.__bases__ if b in out]
        attrs = {"__module__": module, "__qualname__": neutral.__name__, "__doc__": neutral.__doc__}
        if not bases:
            attrs.update(_tensor_cls=Tensor, _default_device=staticmethod(lambda: Tensor._factories._default_device[0]))
        out[neutral] = type(neutral.__name__, (neutral, *bases), attrs)
    return out


def build(module: str, Tensor: type) -> dict:
    """The public distribution and transform classes for the facade module named `module`, whose
    tensors are `Tensor`, with `biject_to` and `transform_to` over those transforms; the classes
    PyTorch keeps in submodules only are under "_private"."""
    dists = _derive(_distributions.CLASSES, module, Tensor)
    trans = _derive(_transforms.CLASSES, module + ".transforms", Tensor)
    family = {**dists, **trans}
    dists[_distributions.Distribution]._family = family
    trans[_transforms.Transform]._family = family
    out = {cls.__name__: cls for cls in (*dists.values(), *trans.values()) if not cls.__name__.startswith("_")}
    private = {name: out.pop(name) for name in _distributions.PRIVATE if name in out}
    T = SimpleNamespace(**out, identity_transform=out["ComposeTransform"]([]))
    out["biject_to"], out["transform_to"] = _registry.registries(T)
    out["_private"], out["_identity_transform"] = private, T.identity_transform
    return out


def submodules(package: str, classes: dict, Tensor: type) -> dict:
    """`<package>.normal` and the other submodules PyTorch has (each holding its classes),
    `<package>.transforms`, `<package>.constraint_registry` and `<package>.utils` (broadcast_all
    making `Tensor`s, probs <-> logits, lazy_property), registered in sys.modules so that
    `import <package>.normal` works."""
    everything = {**classes, **classes["_private"]}
    out = {}
    for name, cls_names in SUBMODULES.items():
        out[name] = _module(f"{package}.{name}", {**{n: everything[n] for n in cls_names}, "__all__": list(cls_names)})
    names = [n for n in _transforms.__all__ if n != "identity_transform"]
    out["transforms"] = _module(f"{package}.transforms", {
        **{n: classes[n] for n in names}, "identity_transform": classes["_identity_transform"],
        "__all__": list(_transforms.__all__)})
    out["constraint_registry"] = _module(f"{package}.constraint_registry", {
        "ConstraintRegistry": _registry.ConstraintRegistry, "biject_to": classes["biject_to"],
        "transform_to": classes["transform_to"], "__all__": ["ConstraintRegistry", "biject_to", "transform_to"]})

    def broadcast_all(*values):
        return tuple(_utils.broadcast_all(values, Tensor, Tensor._factories._default_device[0]))

    out["utils"] = _module(f"{package}.utils", {
        "broadcast_all": broadcast_all, "clamp_probs": _utils.clamp_probs, "euler_constant": _utils.euler_constant,
        "lazy_property": _utils.lazy_property, "logits_to_probs": _utils.logits_to_probs,
        "probs_to_logits": _utils.probs_to_logits,
        "__all__": ["broadcast_all", "logits_to_probs", "clamp_probs", "probs_to_logits", "lazy_property"]})
    return out


def _module(name: str, contents: dict) -> types.ModuleType:
    mod = types.ModuleType(name)
    mod.__dict__.update(contents)
    sys.modules[name] = mod
    return mod
