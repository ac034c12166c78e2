"""Adadelta: steps scaled by the ratio of running RMS of updates and of gradients (PyTorch's
single-tensor form)."""
from __future__ import annotations

from .. import backend
from ..autograd.policy import policy_of
from .optimizer import Optimizer, bump_all, check_built_options, check_lr, real_view, step_state, zeros_state


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho: float = 0.9, eps: float = 1e-6, weight_decay: float = 0, foreach=None,
                 *, capturable: bool = False, maximize: bool = False, differentiable: bool = False) -> None:
        policy = policy_of(params)
        check_lr(policy, lr)
        if not 0.0 <= rho <= 1.0:
            raise policy.errors.optim_invalid_rho(rho=rho)
        if not 0.0 <= eps:
            raise policy.errors.optim_invalid_eps(eps=eps)
        if not 0.0 <= weight_decay:
            raise policy.errors.optim_invalid_weight_decay(weight_decay=weight_decay)
        check_built_options(policy, type(self).__name__, foreach=foreach, capturable=capturable,
                            differentiable=differentiable)
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "capturable": capturable, "foreach": foreach, "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update_group(self, group: dict) -> None:
        rho, eps = group["rho"], group["eps"]
        for p, g, lr, wd in self._param_steps(group):
            state = self._state[p]
            if len(state) == 0:
                state["step"] = step_state(p)
                state["square_avg"] = zeros_state(p)
                state["acc_delta"] = zeros_state(p)
            state["step"]._data += 1
            pd = real_view(p._data)
            if wd != 0:
                g = g + wd * pd
            xp = backend.namespace(pd)
            sq, acc = real_view(state["square_avg"]._data), real_view(state["acc_delta"]._data)
            sq *= rho
            sq += (1 - rho) * (g * g)
            delta = xp.sqrt(acc + eps) / xp.sqrt(sq + eps) * g
            acc *= rho
            acc += (1 - rho) * (delta * delta)
            pd -= lr * delta
            bump_all(state, p)
