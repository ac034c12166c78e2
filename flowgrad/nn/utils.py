"""Gradient clipping and parameter/vector conversion (PyTorch's torch.nn.utils)."""
from __future__ import annotations

import math
import types
import warnings

import numpy as np

from .. import backend
from .. import ops
from ..autograd.policy import TORCH
from ..tensor import Tensor
from .module import _typename


def _param_list(parameters) -> list:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def _norm_array(xp, a, norm_type: float):
    if norm_type == math.inf:
        return xp.max(xp.abs(a)) if a.size else xp.zeros((), a.dtype)
    if norm_type == -math.inf:
        return xp.min(xp.abs(a))
    if norm_type == 0:
        return xp.asarray(xp.count_nonzero(a), dtype=a.dtype)
    if norm_type == 2:
        return xp.sqrt(xp.sum(a * a))
    if norm_type == 1:
        return xp.sum(xp.abs(a))
    return xp.sum(xp.abs(a) ** norm_type) ** (1.0 / norm_type)


def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach=None):
    tensors = _param_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return Tensor._make(np.asarray(0.0, dtype=np.float32))
    xp = backend.namespace(tensors[0]._data)
    norms = xp.stack([_norm_array(xp, t._data, norm_type) for t in tensors])
    total = _norm_array(xp, norms, norm_type)
    if error_if_nonfinite and not bool(xp.isfinite(total)):
        raise tensors[0].policy.errors.nn_clip_nonfinite(norm_type=norm_type)
    return tensors[0]._new(xp.asarray(total))


def clip_grads_with_norm_(parameters, max_norm: float, total_norm, foreach=None) -> None:
    grads = [p._grad for p in _param_list(parameters) if p._grad is not None]
    max_norm = float(max_norm)
    if not grads:
        return
    # PyTorch's arithmetic, in the norm's dtype: (1 / (total + 1e-6)) * max_norm, clamped at 1
    total = total_norm._data if isinstance(total_norm, Tensor) else np.asarray(total_norm)
    xp = backend.namespace(total)
    coef = xp.minimum(xp.reciprocal(total + 1e-6) * max_norm, 1.0)
    for g in grads:
        d = g._data
        d *= backend.to_device(coef, g.device)
        g._bump()


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach=None):
    """Scale the gradients in place so that their joint `norm_type` norm is at most `max_norm`;
    returns the norm before clipping."""
    if isinstance(parameters, Tensor):
        params = [parameters]
    else:
        params = list(parameters)
        if isinstance(parameters, types.GeneratorType) and not params:
            warnings.warn(TORCH.errors.nn_clip_empty_generator(), stacklevel=3)
    grads = [p._grad for p in params if p._grad is not None]
    if not grads:
        cls = type(params[0])._out_cls if params else Tensor
        return cls._make(np.asarray(0.0, dtype=backend.default_float()))
    total = get_total_norm(grads, norm_type, error_if_nonfinite)
    clip_grads_with_norm_(params, max_norm, total)
    return total


def clip_grad_norm(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                   foreach=None):
    """Deprecated spelling of clip_grad_norm_."""
    warnings.warn(TORCH.errors.nn_clip_grad_norm_deprecated(), stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    clip_value = float(clip_value)
    for p in _param_list(parameters):
        g = p._grad
        if g is not None:
            xp = backend.namespace(g._data)
            xp.clip(g._data, -clip_value, clip_value, out=g._data)
            g._bump()


def _check_same_device(param: Tensor, first: Tensor | None) -> Tensor:
    """The first parameter seen; PyTorch's TypeError when `param` is on another device."""
    if first is not None and param.device != first.device:
        raise param.policy.errors.nn_parameters_devices()
    return first if first is not None else param


def parameters_to_vector(parameters):
    params, first = list(parameters), None
    for p in params:
        first = _check_same_device(p, first)
    return ops.cat([ops.reshape(p, (-1,)) for p in params])


def vector_to_parameters(vec, parameters) -> None:
    if not isinstance(vec, Tensor):
        raise TORCH.errors.nn_vector_type(type=_typename(vec))
    pointer, first = 0, None
    for p in parameters:
        first = _check_same_device(p, first)
        n = p._data.size
        p.data = vec._data[pointer:pointer + n].reshape(p._data.shape)
        pointer += n
