"""Adam (with amsgrad, maximize, L2 or decoupled weight decay) and AdamW."""
from __future__ import annotations

from .. import backend
from ..autograd.policy import policy_of
from .optimizer import (Optimizer, as_float, bump_all, check_adam_arguments, check_built_options, decay_weight,
                        init_moments, real_view, update_moments, zeros_state)


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0,
                 amsgrad: bool = False, *, foreach=None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False, fused=None, decoupled_weight_decay: bool = False) -> None:
        policy = policy_of(params)
        check_adam_arguments(policy, lr, eps, betas, weight_decay)
        check_built_options(policy, type(self).__name__, foreach=foreach, capturable=capturable,
                            differentiable=differentiable, fused=fused)
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("amsgrad", False)
            group.setdefault("maximize", False)
            group.setdefault("decoupled_weight_decay", False)

    def _update_group(self, group: dict) -> None:
        beta1, beta2 = (as_float(b) for b in group["betas"])
        eps = group["eps"]
        amsgrad, decoupled = group["amsgrad"], group["decoupled_weight_decay"]
        for p, g, lr, wd in self._param_steps(group):
            state = self._state[p]
            if len(state) == 0:
                init_moments(state, p)
                if amsgrad:
                    state["max_exp_avg_sq"] = zeros_state(p)
            step_t = state["step"]
            step_t._data += 1
            pd = real_view(p._data)
            g = decay_weight(pd, g, lr, wd, decoupled)
            ea, eas = update_moments(state, g, beta1, beta2)
            step = float(step_t._data)
            bias_correction1 = 1 - beta1 ** step
            bias_correction2 = 1 - beta2 ** step
            step_size = lr / bias_correction1
            bc2_sqrt = bias_correction2 ** 0.5
            xp = backend.namespace(pd)
            if amsgrad:
                m = real_view(state["max_exp_avg_sq"]._data)
                xp.maximum(m, eas, out=m)
                denom = xp.sqrt(m) / bc2_sqrt + eps
            else:
                denom = xp.sqrt(eas) / bc2_sqrt + eps
            pd -= step_size * (ea / denom)
            bump_all(state, p)


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps: float = 1e-8, weight_decay: float = 1e-2,
                 amsgrad: bool = False, *, maximize: bool = False, foreach=None, capturable: bool = False,
                 differentiable: bool = False, fused=None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
