"""Adagrad (with learning-rate decay, weight decay, initial accumulator and maximize)."""
from __future__ import annotations

from .. import backend
from ..autograd.policy import policy_of
from .optimizer import Optimizer, as_float, check_built_options, real_view, state_tensor, step_state


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach=None, *, maximize: bool = False,
                 differentiable: bool = False, fused=None) -> None:
        policy = policy_of(params)
        if not 0.0 <= as_float(lr):
            raise policy.errors.optim_invalid_lr(lr=lr)
        if not 0.0 <= lr_decay:
            raise policy.errors.optim_invalid_lr_decay(lr_decay=lr_decay)
        if not 0.0 <= weight_decay:
            raise policy.errors.optim_invalid_weight_decay(weight_decay=weight_decay)
        if not 0.0 <= initial_accumulator_value:
            raise policy.errors.optim_invalid_initial_accumulator(value=initial_accumulator_value)
        if not 0.0 <= eps:
            raise policy.errors.optim_invalid_eps(eps=eps)
        check_built_options(policy, type(self).__name__, foreach=foreach, differentiable=differentiable, fused=fused)
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self._state[p]
                state["step"] = step_state(p)
                d = p._data   # (both parts of a complex accumulator start at the value)
                start = initial_accumulator_value * (1 + 1j) if d.dtype.kind == "c" else initial_accumulator_value
                state["sum"] = state_tensor(p, backend.namespace(d).full_like(d, start))

    def _update_group(self, group: dict) -> None:
        lr_decay, eps = group["lr_decay"], group["eps"]
        for p, g, lr, wd in self._param_steps(group):
            state = self._state[p]
            step_t = state["step"]
            step_t._data += 1
            step = float(step_t._data)
            pd = real_view(p._data)
            if wd != 0:
                g = g + wd * pd
            clr = lr / (1 + (step - 1) * lr_decay)
            s = real_view(state["sum"]._data)
            s += g * g
            std = backend.namespace(s).sqrt(s) + eps
            pd -= clr * (g / std)
            step_t._bump()
            state["sum"]._bump()
            p._bump()
