"""torch.func: function transforms over flowgrad's one reverse-mode engine (flowgrad/autograd/transforms.py,
which says how forward mode and vmap are computed) and functional_call (flowgrad/nn/stateless.py)."""

from ..autograd.transforms import (functionalize, grad, grad_and_value, hessian, jacfwd, jacrev, jvp,  # noqa: F401
                                   linearize, vjp, vmap)
from ..nn.stateless import functional_call, stack_module_state  # noqa: F401

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "linearize", "jacrev", "jacfwd", "hessian", "vmap",
           "functional_call", "stack_module_state", "functionalize"]
