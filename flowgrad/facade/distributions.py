"""The neutral `flowgrad.distributions` presented under a facade's classes: one class per
distribution, `type(name, (neutral, facade_base), {"_tensor_cls": Tensor})`, so that the facade's
Normal is its ExponentialFamily and its Distribution, and numbers become the facade's tensors."""
from __future__ import annotations

from .. import distributions as _distributions


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
