"""ASGD: averaged stochastic gradient descent (PyTorch's single-tensor form): a decaying step
size `eta`, and `ax`, the running average of the iterates once `t0` steps have passed."""
from __future__ import annotations

from .. import backend
from ..autograd.policy import policy_of
from .optimizer import Optimizer, bump_all, check_built_options, check_lr, real_view, step_state, zeros_state


class ASGD(Optimizer):
    def __init__(self, params, lr=1e-2, lambd: float = 1e-4, alpha: float = 0.75, t0: float = 1e6,
                 weight_decay: float = 0, foreach=None, maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        policy = policy_of(params)
        check_lr(policy, lr)
        if not 0.0 <= weight_decay:
            raise policy.errors.optim_invalid_weight_decay(weight_decay=weight_decay)
        check_built_options(policy, type(self).__name__, foreach=foreach, differentiable=differentiable,
                            capturable=capturable)
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    def _update_group(self, group: dict) -> None:
        lambd, alpha, t0 = group["lambd"], group["alpha"], group["t0"]
        for p, g, lr, wd in self._param_steps(group):
            state = self._state[p]
            if len(state) == 0:
                state["step"] = step_state(p)
                eta = step_state(p)
                eta._data[...] = lr
                state["eta"] = eta
                mu = step_state(p)
                mu._data[...] = 1
                state["mu"] = mu
                state["ax"] = zeros_state(p)
            state["step"]._data += 1
            pd = real_view(p._data)
            if wd != 0:
                g = g + wd * pd
            eta_value = float(state["eta"]._data)
            pd *= 1 - lambd * eta_value
            pd -= eta_value * g
            ax, mu = real_view(state["ax"]._data), state["mu"]._data
            if float(mu) != 1:
                ax += (pd - ax) * mu
            else:
                ax[...] = pd
            step = float(state["step"]._data)
            # (PyTorch makes each new value a tensor of the default dtype before copying it in)
            scalar = backend.default_float().type
            state["eta"]._data[...] = scalar(lr / (1 + lambd * lr * step) ** alpha)
            mu[...] = scalar(1 / max(1, step - t0))
            bump_all(state, p)
