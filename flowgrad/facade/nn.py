"""The neutral `flowgrad.nn` presented under a facade's classes: its Module (building the facade's
tensors and parameters) and one class per layer, `type(name, (neutral_layer, facade_Module), {})`,
through the facade class of a public neutral base (so that an LSTM is an RNNBase)."""
from __future__ import annotations

import types

from .. import nn as _nn


def build(module: str, Tensor: type, Parameter: type, **overrides) -> dict:
    """`Module` and every layer class for the facade module named `module`; `overrides` are extra
    Module attributes (a facade's defaults, e.g. OneFlow's `zero_grad(set_to_none=False)`)."""
    attrs = {"__doc__": _nn.Module.__doc__, "__module__": module, "__qualname__": "Module",
             "_param_cls": Parameter, "_tensor_cls": Tensor, "_facade_classes": {},
             "_facade_functions": {},
             "_default_device": staticmethod(lambda: Tensor._factories._default_device[0]), **overrides}
    out = {"Module": type("Module", (_nn.Module,), attrs)}
    registry = out["Module"]._facade_classes   # neutral class -> this facade's (Module._layer reads it)

    def present(neutral: type, qualname: str) -> type:
        bases = [out[b.__name__] for b in neutral.__bases__ if _nn.MODULE_CLASSES.get(b.__name__) is b]
        registry[neutral] = type(neutral.__name__, (neutral, *(bases or [out["Module"]])),
                                 {"__module__": module, "__qualname__": qualname, "__doc__": neutral.__doc__})
        return registry[neutral]

    for name, neutral in sorted(_nn.MODULE_CLASSES.items(), key=lambda item: len(item[1].__mro__)):
        out[name] = present(neutral, neutral.__name__)
    # built by layers but not named in the framework's nn: reachable as `_inner.<Name>` for pickle
    out["_inner"] = types.SimpleNamespace(**{name: present(neutral, f"_inner.{name}")
                                             for name, neutral in _nn.INNER_MODULE_CLASSES.items()})
    return out
