"""torch.autograd.functional: vjp, jvp, jacobian, hessian, hvp, vhp (flowgrad/autograd/functional.py)."""
from __future__ import annotations

from ...autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp  # noqa: F401

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]
