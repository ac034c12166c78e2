"""oneflow.autograd: backward and grad with OneFlow's signatures in front of the one front end
(`flowgrad.autograd.api`), Function, the grad modes, `graph` and `functional`."""
from __future__ import annotations

from ...autograd import api as _api
from .._policy import ONEFLOW as _ONEFLOW
from . import functional, graph  # noqa: F401
from .autograd_function import Function
from .autograd_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .functional import hessian, hvp, jacobian, jvp, vhp, vjp

__all__ = ["backward", "grad", "Function", "set_grad_enabled", "enable_grad", "inference_mode", "is_grad_enabled",
           "no_grad", "vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _seeds(grads):
    """OneFlow reads no gradients (None, or an empty list) as a None for every output."""
    return None if isinstance(grads, (list, tuple)) and not grads else grads


def backward(tensors, grad_tensors, retain_graph: bool = False, create_graph: bool = False) -> None:
    """Accumulate the gradients of `tensors` into the leaves' `.grad`; `grad_tensors` is required
    (None seeds one-element outputs with ones); create_graph=True retains the graph."""
    _api.backward(tensors, _seeds(grad_tensors), retain_graph, create_graph, policy=_ONEFLOW)


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool = False, create_graph: bool = False,
         allow_unused: bool = False, is_grads_batched: bool = False) -> tuple:
    """The gradients of `outputs` with respect to `inputs`, as a tuple; with no inputs, OneFlow runs
    a plain backward (accumulating into the leaves) and returns ()."""
    if inputs is None or (isinstance(inputs, (list, tuple)) and not inputs):
        _api.backward(outputs, _seeds(grad_outputs), retain_graph, create_graph, policy=_ONEFLOW)
        return ()
    return _api.grad(outputs, inputs, _seeds(grad_outputs), bool(retain_graph), create_graph, True, allow_unused,
                     is_grads_batched, policy=_ONEFLOW)
