"""oneflow.autograd.functional: vjp, jvp, jacobian, hessian, hvp, vhp, OneFlow's ports of PyTorch's
(flowgrad/autograd/functional.py)."""
from __future__ import annotations

from ...autograd.functional import __all__, hessian, hvp, jacobian, jvp, vhp, vjp  # noqa: F401
