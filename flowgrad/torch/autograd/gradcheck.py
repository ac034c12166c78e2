"""torch.autograd.gradcheck: finite-difference checks of gradients (flowgrad/autograd/gradcheck.py).

As in PyTorch, `torch.autograd.gradcheck` is the function; this module is reached by import
(`from torch.autograd.gradcheck import GradcheckError`)."""
from __future__ import annotations

from ...autograd.gradcheck import (GradcheckError, get_analytical_jacobian, get_numerical_jacobian,  # noqa: F401
                                   gradcheck, gradgradcheck)

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "get_numerical_jacobian", "get_analytical_jacobian"]
