"""Adamax: Adam with the infinity norm. PyTorch's form by default, `exp_inf = max(beta2 * exp_inf,
|g| + eps)`; `eps_in_decay=True` gives `max(beta2 * exp_inf + eps, |g|)` (paddle's)."""
from __future__ import annotations

from .. import backend
from ..autograd.policy import policy_of
from .optimizer import (Optimizer, bump_all, check_adam_arguments, check_built_options, lerp_, real_view, step_state,
                        zeros_state)


class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0,
                 foreach=None, *, maximize: bool = False, differentiable: bool = False, capturable: bool = False,
                 eps_in_decay: bool = False) -> None:
        policy = policy_of(params)
        check_adam_arguments(policy, lr, eps, betas, weight_decay)
        check_built_options(policy, type(self).__name__, foreach=foreach, capturable=capturable,
                            differentiable=differentiable)
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
        self._eps_in_decay = eps_in_decay
        super().__init__(params, defaults)

    def _update_group(self, group: dict) -> None:
        (beta1, beta2), eps = group["betas"], group["eps"]
        for p, g, lr, wd in self._param_steps(group):
            state = self._state[p]
            if len(state) == 0:
                state["step"] = step_state(p)
                state["exp_avg"] = zeros_state(p)
                state["exp_inf"] = zeros_state(p)
            state["step"]._data += 1
            step = float(state["step"]._data)
            pd = real_view(p._data)
            xp = backend.namespace(pd)
            if wd != 0:
                g = g + wd * pd
            m, u = real_view(state["exp_avg"]._data), real_view(state["exp_inf"]._data)
            lerp_(m, g, 1 - beta1)
            u *= beta2
            if self._eps_in_decay:
                u += eps
                xp.maximum(u, xp.abs(g), out=u)
            else:
                xp.maximum(u, xp.abs(g) + eps, out=u)
            pd -= (lr / (1 - beta1 ** step)) * (m / u)
            bump_all(state, p)
