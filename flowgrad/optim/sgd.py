"""Stochastic gradient descent with momentum, dampening, Nesterov, weight decay and maximize."""
from __future__ import annotations

from ..autograd.policy import policy_of
from .optimizer import Optimizer, as_float, check_built_options, real_view, zeros_state


class SGD(Optimizer):

    def __init__(self, params, lr=1e-3, momentum: float = 0, dampening: float = 0, weight_decay: float = 0,
                 nesterov: bool = False, *, maximize: bool = False, foreach=None, differentiable: bool = False,
                 fused=None) -> None:
        policy = policy_of(params)
        if as_float(lr) < 0.0:
            raise policy.errors.optim_invalid_lr(lr=lr)
        if momentum < 0.0:
            raise policy.errors.optim_invalid_momentum(momentum=momentum)
        if weight_decay < 0.0:
            raise policy.errors.optim_invalid_weight_decay(weight_decay=weight_decay)
        check_built_options(policy, type(self).__name__, foreach=foreach, differentiable=differentiable, fused=fused)
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach, "differentiable": differentiable,
                    "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise policy.errors.optim_nesterov()
        super().__init__(params, defaults)

    def _update_group(self, group: dict) -> None:
        momentum, dampening = group["momentum"], group["dampening"]
        nesterov = group["nesterov"]
        for p, g, lr, wd in self._param_steps(group):
            pd = real_view(p._data)
            if wd != 0:
                g = g + wd * pd
            if momentum != 0:
                state = self._state[p]
                buf = state.get("momentum_buffer")
                if buf is None:
                    buf = state["momentum_buffer"] = zeros_state(p)   # (p's dtype, g as real pairs)
                    real_view(buf._data)[...] = g
                else:
                    b = real_view(buf._data)
                    b *= momentum
                    b += (1 - dampening) * g
                    buf._bump()
                b = real_view(buf._data)
                g = g + momentum * b if nesterov else b
            pd -= lr * g
            p._bump()
