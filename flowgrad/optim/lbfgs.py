"""L-BFGS (PyTorch's torch.optim.LBFGS without line search): each `step(closure)` runs up to
`max_iter` iterations on the concatenated parameters, the direction from the two-loop recursion over
the last `history_size` curvature pairs (kept only when y.s > 1e-10), a first step of
min(1, 1/|g|_1) * lr and then steps of lr, stopping on PyTorch's gradient, change and evaluation
tolerances. Its state carries across steps under PyTorch's keys (d, t, old_dirs, old_stps, ro,
H_diag, prev_flat_grad, prev_loss, al, n_iter, func_evals). `line_search_fn='strong_wolfe'` is not built."""
from __future__ import annotations

from typing import Callable

from .. import backend
from ..autograd import mode
from ..autograd.policy import policy_of
from .optimizer import Optimizer, as_float


class LBFGS(Optimizer):
    def __init__(self, params, lr=1, max_iter: int = 20, max_eval: int | None = None, tolerance_grad: float = 1e-7,
                 tolerance_change: float = 1e-9, history_size: int = 100, line_search_fn: str | None = None) -> None:
        policy = policy_of(params)
        if not 0.0 <= as_float(lr):
            raise policy.errors.optim_invalid_lr(lr=lr)
        if line_search_fn == "strong_wolfe":
            raise policy.errors.optim_lbfgs_strong_wolfe()
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {"lr": lr, "max_iter": max_iter, "max_eval": max_eval, "tolerance_grad": tolerance_grad,
                    "tolerance_change": tolerance_change, "history_size": history_size,
                    "line_search_fn": line_search_fn}
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise policy_of(self.param_groups).errors.optim_lbfgs_groups()
        self._params = self.param_groups[0]["params"]

    def _flat_grad(self, xp):
        return xp.concatenate([p._grad._data.reshape(-1) if p._grad is not None
                               else xp.zeros(p._data.size, p._data.dtype) for p in self._params])

    def _add_grad(self, t, d) -> None:
        offset = 0
        step = d.dtype.type(t)                       # PyTorch's alpha, in the parameters' dtype
        for p in self._params:
            n = p._data.size
            p._data += step * d[offset:offset + n].reshape(p._data.shape)
            p._bump()
            offset += n

    def _tensor(self, arr):
        return type(self._params[0])._out_cls._make(arr)

    def step(self, closure: Callable):
        """Up to max_iter L-BFGS iterations; `closure` re-evaluates the loss (and its gradients)."""
        self._run_step_pre_hooks()
        with mode.no_grad():
            loss = self._iterate(closure)
        self._run_step_post_hooks()
        return loss

    def _evaluate(self, closure):
        with mode.enable_grad():
            return closure()

    def _iterate(self, closure: Callable):
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        history_size, line_search_fn = group["history_size"], group["line_search_fn"]
        xp = backend.namespace(self._params[0]._data)
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = self._evaluate(closure)
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad(xp)
        if xp.abs(flat_grad).max() <= tolerance_grad:
            return orig_loss

        def array(key):
            value = state.get(key)
            return value._data if value is not None else None
        d, t, h_diag = array("d"), state.get("t"), state.get("H_diag")
        old_dirs = [v._data for v in state.get("old_dirs", [])]
        old_stps = [v._data for v in state.get("old_stps", [])]
        ro = [v._data for v in state.get("ro", [])]
        prev_flat_grad, prev_loss = array("prev_flat_grad"), state.get("prev_loss")
        al = [v if v is None else v._data for v in state["al"]] if "al" in state else None
        h_diag = h_diag._data if h_diag is not None and not isinstance(h_diag, (int, float)) else h_diag

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = -flat_grad
                old_dirs, old_stps, ro = [], [], []
                h_diag = 1
            else:
                y = flat_grad - prev_flat_grad
                s = d * t
                ys = y.dot(s)
                if ys > 1e-10:
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / y.dot(y)
                if al is None:
                    al = [None] * history_size
                q = -flat_grad
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    q = q - al[i] * old_dirs[i]
                d = r = q * h_diag
                for i in range(len(old_dirs)):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    r += (al[i] - be_i) * old_stps[i]
            prev_flat_grad = flat_grad.copy()
            prev_loss = loss
            t = min(1.0, 1.0 / xp.abs(flat_grad).sum()) * lr if state["n_iter"] == 1 else lr
            if flat_grad.dot(d) > -tolerance_change:
                break
            if line_search_fn is not None:
                raise policy_of(self._params).errors.optim_lbfgs_line_search()
            self._add_grad(t, d)
            ls_func_evals = 0
            if n_iter != max_iter:
                loss = float(self._evaluate(closure))
                flat_grad = self._flat_grad(xp)
                ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals
            if n_iter == max_iter or current_evals >= max_eval:
                break
            if xp.abs(flat_grad).max() <= tolerance_grad:
                break
            if xp.abs(d * t).max() <= tolerance_change or abs(loss - prev_loss) < tolerance_change:
                break

        wrap = self._tensor
        state.update(d=wrap(d), t=t, old_dirs=[wrap(v) for v in old_dirs], old_stps=[wrap(v) for v in old_stps],
                     ro=[wrap(xp.asarray(v)) for v in ro], prev_flat_grad=wrap(prev_flat_grad), prev_loss=prev_loss,
                     H_diag=h_diag if isinstance(h_diag, int) else wrap(xp.asarray(h_diag)))
        if al is not None:
            state["al"] = [v if v is None else wrap(xp.asarray(v)) for v in al]
        return orig_loss
