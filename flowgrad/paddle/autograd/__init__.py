"""paddle.autograd for the paddle facade: backward, grad, PyLayer, jacobian/hessian, grad modes."""
from __future__ import annotations

from ...autograd.hooks import saved_tensors_hooks
from . import autograd, backward_mode, grad_mode, py_layer  # noqa: F401
from .autograd import Hessian, Jacobian, hessian, jacobian
from .backward_mode import backward, grad
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .py_layer import PyLayer, PyLayerContext

Function = PyLayer

__all__ = ["backward", "grad", "PyLayer", "PyLayerContext", "Function", "jacobian", "hessian", "Jacobian", "Hessian",
           "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "saved_tensors_hooks"]
