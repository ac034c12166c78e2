"""oneflow.optim: the framework-neutral optimizers, whose `zero_grad` zero-fills by default as OneFlow's do."""
from __future__ import annotations

from ... import optim as _optim
from ...tensor import zero_grads as _zero_grads
from . import lr_scheduler  # noqa: F401


def _zero_grad(self, set_to_none: bool = False) -> None:
    """Zero every parameter's `.grad` in place (OneFlow's default), or drop them with set_to_none=True."""
    _zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)


Optimizer = type("Optimizer", (_optim.Optimizer,), {"__module__": __name__, "zero_grad": _zero_grad,
                                                    "__doc__": _optim.Optimizer.__doc__})
for _name in ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad"):
    _neutral = getattr(_optim, _name)
    globals()[_name] = type(_name, (_neutral, Optimizer), {"__module__": __name__, "__doc__": _neutral.__doc__})
del _name, _neutral

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler"]
