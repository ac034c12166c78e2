"""Stochastic gradient descent with momentum, dampening, Nesterov, weight decay and maximize."""
from __future__ import annotations

from .optimizer import Optimizer, as_float, state_tensor


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum: float = 0, dampening: float = 0, weight_decay: float = 0,
                 nesterov: bool = False, *, maximize: bool = False, foreach=None, differentiable: bool = False,
                 fused=None) -> None:
        if as_float(lr) < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach, "differentiable": differentiable,
                    "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _update_group(self, group: dict) -> None:
        lr = as_float(group["lr"])
        momentum, dampening = group["momentum"], group["dampening"]
        wd, nesterov, maximize = group["weight_decay"], group["nesterov"], group["maximize"]
        for p, g in self._grads(group):
            if maximize:
                g = -g
            if wd != 0:
                g = g + wd * p._data
            if momentum != 0:
                state = self.state[p]
                buf = state.get("momentum_buffer")
                if buf is None:
                    buf = state["momentum_buffer"] = state_tensor(p, g.copy())
                else:
                    b = buf._data
                    b *= momentum
                    b += (1 - dampening) * g
                    buf._bump()
                g = g + momentum * buf._data if nesterov else buf._data
            p._data -= lr * g
            p._bump()
