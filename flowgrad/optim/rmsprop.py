"""RMSprop (with momentum, centered, weight decay and maximize)."""
from __future__ import annotations

from .. import backend
from ..autograd.policy import policy_of
from .optimizer import Optimizer, as_float, lerp_, step_state, zeros_state


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha: float = 0.99, eps: float = 1e-8, weight_decay: float = 0,
                 momentum: float = 0, centered: bool = False, capturable: bool = False, foreach=None,
                 maximize: bool = False, differentiable: bool = False) -> None:
        policy = policy_of(params)
        if not 0.0 <= as_float(lr):
            raise policy.errors.optim_invalid_lr(lr=lr)
        if not 0.0 <= eps:
            raise policy.errors.optim_invalid_eps(eps=eps)
        if not 0.0 <= momentum:
            raise policy.errors.optim_invalid_momentum(momentum=momentum)
        if not 0.0 <= weight_decay:
            raise policy.errors.optim_invalid_weight_decay(weight_decay=weight_decay)
        if not 0.0 <= alpha:
            raise policy.errors.optim_invalid_alpha(alpha=alpha)
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                    "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update_group(self, group: dict) -> None:
        lr = as_float(group["lr"])
        alpha, eps, wd = group["alpha"], group["eps"], group["weight_decay"]
        momentum, centered, maximize = group["momentum"], group["centered"], group["maximize"]
        for p, g in self._grads(group):
            if maximize:
                g = -g
            state = self.state[p]
            if len(state) == 0:
                state["step"] = step_state(p)
                state["square_avg"] = zeros_state(p)
                if momentum > 0:
                    state["momentum_buffer"] = zeros_state(p)
                if centered:
                    state["grad_avg"] = zeros_state(p)
            state["step"]._data += 1
            pd = p._data
            xp = backend.namespace(pd)
            if wd != 0:
                g = g + wd * pd
            sq = state["square_avg"]._data
            sq *= alpha
            sq += (1 - alpha) * (g * g)
            if centered:
                ga = state["grad_avg"]._data
                lerp_(ga, g, 1 - alpha)
                avg = xp.sqrt(sq - ga * ga)
            else:
                avg = xp.sqrt(sq)
            avg += eps
            if momentum > 0:
                buf = state["momentum_buffer"]._data
                buf *= momentum
                buf += g / avg
                pd -= lr * buf
            else:
                pd -= lr * (g / avg)
            for t in state.values():
                t._bump()
            p._bump()
