"""Rprop: resilient backpropagation (PyTorch's single-tensor form): each element's step size
grows by `etas[1]` while its gradient keeps its sign and shrinks by `etas[0]` when it flips (the
update skipped there), clamped to `step_sizes`; the parameter moves by sign(grad) * step size."""
from __future__ import annotations

from .. import backend
from ..autograd.policy import policy_of
from .optimizer import (Optimizer, bump_all, check_built_options, check_lr, real_view, state_tensor, step_state,
                        zeros_state)


class Rprop(Optimizer):
    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable: bool = False,
                 foreach=None, maximize: bool = False, differentiable: bool = False) -> None:
        policy = policy_of(params)
        check_lr(policy, lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise policy.errors.optim_invalid_etas(minus=etas[0], plus=etas[1])
        check_built_options(policy, type(self).__name__, foreach=foreach, differentiable=differentiable,
                            capturable=capturable)
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _update_group(self, group: dict) -> None:
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        for p, g, lr, _ in self._param_steps(group):
            state = self._state[p]
            if len(state) == 0:
                state["step"] = step_state(p)
                state["prev"] = zeros_state(p)
                d = p._data   # (both parts of a complex step size start at lr)
                start = lr * (1 + 1j) if d.dtype.kind == "c" else lr
                state["step_size"] = state_tensor(p, backend.namespace(d).full_like(d, start))
            state["step"]._data += 1
            xp = backend.namespace(g)
            prev, step_size = real_view(state["prev"]._data), real_view(state["step_size"]._data)
            sign = xp.sign(g * prev)
            factor = xp.where(sign > 0, etaplus, xp.where(sign < 0, etaminus, 1)).astype(sign.dtype)
            step_size *= factor
            xp.clip(step_size, step_size_min, step_size_max, out=step_size)
            g = xp.where(factor == sign.dtype.type(etaminus), 0, g).astype(g.dtype)
            pd = real_view(p._data)
            pd -= xp.sign(g) * step_size
            prev[...] = g
            bump_all(state, p)
