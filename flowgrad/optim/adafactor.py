"""Adafactor (PyTorch's single-tensor form): second moments kept factored, as row and column
means, for parameters of two or more dims; the update is clipped by its RMS (`d`) and scaled by
the parameter's RMS."""
from __future__ import annotations

from .. import backend
from ..autograd.policy import policy_of
from .optimizer import Optimizer, as_float, bump_all, check_built_options, lerp_, state_tensor, step_state, zeros_state


class Adafactor(Optimizer):
    def __init__(self, params, lr=1e-2, beta2_decay: float = -0.8, eps=(None, 1e-3), d: float = 1.0,
                 weight_decay: float = 0.0, *, foreach=None, maximize: bool = False) -> None:
        policy = policy_of(params)
        if not 0.0 <= as_float(lr):
            raise policy.errors.optim_adafactor_lr(lr=lr)
        if not 0.0 >= beta2_decay:
            raise policy.errors.optim_adafactor_beta2_decay(beta2_decay=beta2_decay)
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise policy.errors.optim_adafactor_eps(index=1, eps=eps[0])
        if not 0.0 <= eps[1]:
            raise policy.errors.optim_adafactor_eps(index=2, eps=eps[1])
        if not 1.0 <= d:
            raise policy.errors.optim_adafactor_d(d=d)
        if not 0.0 <= weight_decay:
            raise policy.errors.optim_adafactor_weight_decay(weight_decay=weight_decay)
        check_built_options(policy, type(self).__name__, foreach=foreach)
        defaults = {"lr": lr, "beta2_decay": beta2_decay, "eps": eps, "d": d, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize}
        super().__init__(params, defaults)

    def _update_group(self, group: dict) -> None:
        beta2_decay, d = group["beta2_decay"], group["d"]
        eps1, eps2 = group["eps"]
        for p, _ in self._grads(group):   # (checked before any update, as PyTorch's)
            if p._data.dtype.kind == "c":
                raise p.policy.errors.optim_adafactor_complex()
        for p, g, lr, wd in self._param_steps(group):
            pd = p._data
            xp = backend.namespace(pd)
            state = self._state[p]
            if len(state) == 0:
                state["step"] = step_state(p)
                if g.ndim > 1:
                    state["row_var"] = state_tensor(p, xp.zeros((*g.shape[:-1], 1), dtype=g.dtype))
                    state["col_var"] = state_tensor(p, xp.zeros((*g.shape[:-2], 1, g.shape[-1]), dtype=g.dtype))
                else:
                    state["variance"] = zeros_state(p)
            if eps1 is None:   # (PyTorch sets it from the first parameter for the whole group)
                eps1 = float(xp.finfo(pd.dtype).eps)
            state["step"]._data += 1
            step = float(state["step"]._data)
            one_minus_beta2_t = step ** beta2_decay
            rho_t = min(lr, 1 / step ** 0.5)
            alpha = max(eps2, float(xp.sqrt(xp.sum(pd * pd))) / pd.size ** 0.5) * rho_t
            if wd != 0:
                pd *= 1 - lr * wd
            if g.ndim > 1:
                row_var, col_var = state["row_var"]._data, state["col_var"]._data
                lerp_(row_var, xp.sqrt(xp.sum(g * g, axis=-1, keepdims=True)) ** 2 / g.shape[-1], one_minus_beta2_t)
                lerp_(col_var, xp.sqrt(xp.sum(g * g, axis=-2, keepdims=True)) ** 2 / g.shape[-2], one_minus_beta2_t)
                var_estimate = xp.matmul(row_var, col_var)
                var_estimate /= xp.maximum(xp.mean(row_var, axis=-2, keepdims=True), eps1)
            else:
                variance = state["variance"]._data
                lerp_(variance, g * g, one_minus_beta2_t)
                var_estimate = variance.copy()
            update = 1 / xp.sqrt(xp.maximum(var_estimate, eps1 * eps1))
            update *= g
            denom = max(1.0, float(xp.sqrt(xp.sum(update * update))) / (update.size ** 0.5 * d))
            pd -= (alpha / denom) * update
            bump_all(state, p)
