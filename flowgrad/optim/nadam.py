"""NAdam: Adam with Nesterov momentum and PyTorch's momentum-decay schedule (L2 or decoupled
weight decay)."""
from __future__ import annotations

from .. import backend
from ..autograd.policy import policy_of
from .optimizer import (Optimizer, as_float, bump_all, check_adam_arguments, check_built_options, decay_weight,
                        real_view, step_state, update_moments, zeros_state)


class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0,
                 momentum_decay: float = 4e-3, decoupled_weight_decay: bool = False, *, foreach=None,
                 maximize: bool = False, capturable: bool = False, differentiable: bool = False) -> None:
        policy = policy_of(params)
        check_adam_arguments(policy, lr, eps, betas, weight_decay)
        if not 0.0 <= momentum_decay:
            raise policy.errors.optim_invalid_momentum_decay(momentum_decay=momentum_decay)
        check_built_options(policy, type(self).__name__, foreach=foreach, capturable=capturable,
                            differentiable=differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update_group(self, group: dict) -> None:
        beta1, beta2 = (as_float(b) for b in group["betas"])
        eps, momentum_decay = group["eps"], group["momentum_decay"]
        decoupled = group["decoupled_weight_decay"]
        for p, g, lr, wd in self._param_steps(group):
            state = self._state[p]
            if len(state) == 0:
                state["step"] = step_state(p)
                mu_product = step_state(p)
                mu_product._data += 1
                state["mu_product"] = mu_product
                state["exp_avg"] = zeros_state(p)
                state["exp_avg_sq"] = zeros_state(p)
            state["step"]._data += 1
            step = float(state["step"]._data)
            bias_correction2 = 1 - beta2 ** step
            pd = real_view(p._data)
            g = decay_weight(pd, g, lr, wd, decoupled)
            mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
            mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
            mu_product = state["mu_product"]._data
            mu_product *= mu
            ea, eas = update_moments(state, g, beta1, beta2)
            denom = backend.namespace(pd).sqrt(eas / bias_correction2) + eps
            mu_product = float(mu_product)
            pd += (-lr * (1.0 - mu) / (1.0 - mu_product)) * (g / denom)
            pd += (-lr * mu_next / (1.0 - mu_product * mu_next)) * (ea / denom)
            bump_all(state, p)
