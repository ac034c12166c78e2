"""The neutral `flowgrad.distributions` presented under a facade's classes: one class per
distribution, `type(name, (neutral, facade_base), {"_tensor_cls": Tensor})`, so that the facade's
Normal is its ExponentialFamily and its Distribution, and numbers become the facade's tensors."""
from __future__ import annotations

import sys
import types

from .. import distributions as _distributions
from ..distributions import utils as _utils

# PyTorch's submodules of torch.distributions that hold the classes flowgrad builds: module -> class
SUBMODULES = {"distribution": "Distribution", "exp_family": "ExponentialFamily", "normal": "Normal",
              "laplace": "Laplace", "bernoulli": "Bernoulli", "categorical": "Categorical", "uniform": "Uniform",
              "exponential": "Exponential", "gamma": "Gamma", "beta": "Beta", "dirichlet": "Dirichlet",
              "multivariate_normal": "MultivariateNormal", "independent": "Independent", "poisson": "Poisson",
              "geometric": "Geometric"}


def build(module: str, Tensor: type) -> dict:
    """The distribution classes for the facade module named `module`, whose tensors are `Tensor`."""
    out: dict[type, type] = {}
    for neutral in _distributions.CLASSES:
        bases = [out[b] for b in neutral.__bases__ if b in out]
        attrs = {"__module__": module, "__qualname__": neutral.__name__, "__doc__": neutral.__doc__}
        if not bases:
            attrs.update(_tensor_cls=Tensor, _default_device=staticmethod(lambda: Tensor._factories._default_device[0]))
        out[neutral] = type(neutral.__name__, (neutral, *bases), attrs)
    return {cls.__name__: cls for cls in out.values()}


def submodules(package: str, classes: dict, Tensor: type) -> dict:
    """`<package>.normal` and the other submodules PyTorch has (each holding its class), and
    `<package>.utils` (broadcast_all making `Tensor`s, probs <-> logits, lazy_property), registered
    in sys.modules so that `import <package>.normal` works."""
    out = {}
    for name, cls_name in SUBMODULES.items():
        out[name] = _module(f"{package}.{name}", {cls_name: classes[cls_name], "__all__": [cls_name]})

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
