"""RAdam: Adam with the variance rectification term (L2 or decoupled weight decay)."""
from __future__ import annotations

from .. import backend
from ..autograd.policy import policy_of
from .optimizer import (Optimizer, as_float, bump_all, check_adam_arguments, check_built_options, decay_weight,
                        init_moments, real_view, update_moments)


class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0,
                 decoupled_weight_decay: bool = False, *, foreach=None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False) -> None:
        policy = policy_of(params)
        check_adam_arguments(policy, lr, eps, betas, weight_decay)
        check_built_options(policy, type(self).__name__, foreach=foreach, capturable=capturable,
                            differentiable=differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable, "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update_group(self, group: dict) -> None:
        beta1, beta2 = (as_float(b) for b in group["betas"])
        eps, decoupled = group["eps"], group["decoupled_weight_decay"]
        rho_inf = 2 / (1 - beta2) - 1
        for p, g, lr, wd in self._param_steps(group):
            state = self._state[p]
            if len(state) == 0:
                init_moments(state, p)
            state["step"]._data += 1
            step = float(state["step"]._data)
            pd = real_view(p._data)
            g = decay_weight(pd, g, lr, wd, decoupled)
            ea, eas = update_moments(state, g, beta1, beta2)
            bias_correction1 = 1 - beta1 ** step
            bias_correction2 = 1 - beta2 ** step
            corrected = ea / bias_correction1
            rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
            if rho_t > 5.0:
                rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                adaptive = (bias_correction2 ** 0.5) / (backend.namespace(pd).sqrt(eas) + eps)
                pd -= corrected * lr * adaptive * rect
            else:
                pd -= corrected * lr
            bump_all(state, p)
