"""RMSprop (with momentum, centered, weight decay and maximize). PyTorch's form by default:
`g / (sqrt(square_avg) + eps)`, a momentum buffer of those quotients scaled by lr at the update;
`eps_inside_sqrt=True` divides by `sqrt(square_avg + eps)` and `lr_in_buffer=True` accumulates
`lr * quotient` (paddle's form); `all_buffers=True` keeps the momentum and gradient-average
buffers whatever the options."""
from __future__ import annotations

from .. import backend
from ..autograd.policy import policy_of
from .optimizer import Optimizer, as_float, bump_all, check_built_options, lerp_, real_view, step_state, zeros_state


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha: float = 0.99, eps: float = 1e-8, weight_decay: float = 0,
                 momentum: float = 0, centered: bool = False, capturable: bool = False, foreach=None,
                 maximize: bool = False, differentiable: bool = False, *, eps_inside_sqrt: bool = False,
                 lr_in_buffer: bool = False, all_buffers: bool = False) -> None:
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
        check_built_options(policy, type(self).__name__, foreach=foreach, capturable=capturable,
                            differentiable=differentiable)
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                    "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable}
        self._form = (eps_inside_sqrt, lr_in_buffer, all_buffers)
        super().__init__(params, defaults)

    def _update_group(self, group: dict) -> None:
        alpha, eps = group["alpha"], group["eps"]
        momentum, centered = group["momentum"], group["centered"]
        eps_inside_sqrt, lr_in_buffer, all_buffers = self._form
        for p, g, lr, wd in self._param_steps(group):
            state = self._state[p]
            if len(state) == 0:
                state["step"] = step_state(p)
                state["square_avg"] = zeros_state(p)
                if momentum > 0 or all_buffers:
                    state["momentum_buffer"] = zeros_state(p)
                if centered or all_buffers:
                    state["grad_avg"] = zeros_state(p)
            state["step"]._data += 1
            pd = real_view(p._data)
            xp = backend.namespace(pd)
            if wd != 0:
                g = g + wd * pd
            sq = real_view(state["square_avg"]._data)
            sq *= alpha
            sq += (1 - alpha) * (g * g)
            if centered:
                ga = real_view(state["grad_avg"]._data)
                lerp_(ga, g, 1 - alpha)
                avg = sq - ga * ga
            else:
                avg = sq
            avg = xp.sqrt(avg + eps) if eps_inside_sqrt else xp.sqrt(avg) + eps
            if momentum > 0 or all_buffers:
                buf = real_view(state["momentum_buffer"]._data)
                buf *= momentum
                if lr_in_buffer:
                    buf += lr * (g / avg)
                    pd -= buf
                else:
                    buf += g / avg
                    pd -= lr * buf
            else:
                pd -= lr * (g / avg)
            bump_all(state, p)
