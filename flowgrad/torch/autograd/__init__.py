"""torch.autograd for the torch facade."""

from ...autograd import api as _api
from ...autograd.mode import (detect_anomaly, enable_grad, inference_mode, no_grad, set_detect_anomaly,
                              set_grad_enabled)
from ...autograd.policy import TORCH as _TORCH
from . import anomaly_mode, function, functional, graph, grad_mode  # noqa: F401
from .function import Function  # noqa: F401
from .gradcheck import gradcheck, gradgradcheck  # noqa: F401  (the functions shadow the module, as in PyTorch)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None) -> None:
    """Accumulate the gradients of `tensors` into the leaves' `.grad`."""
    _api.backward(tensors, grad_tensors, retain_graph, create_graph, grad_variables, inputs, policy=_TORCH)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of `outputs` with respect to `inputs`, as a tuple."""
    return _api.grad(outputs, inputs, grad_outputs, retain_graph, create_graph, only_inputs, allow_unused,
                     is_grads_batched, materialize_grads, policy=_TORCH)


class _VariableMeta(type):
    def __instancecheck__(cls, obj) -> bool:
        from ...tensor import Tensor
        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    """Legacy: `Variable(t, requires_grad=True)` returns a plain Tensor; every Tensor is a Variable."""

    def __new__(cls, data, requires_grad=False, volatile=False):
        out = data.detach()
        if requires_grad:
            out.requires_grad_(True)
        return out
