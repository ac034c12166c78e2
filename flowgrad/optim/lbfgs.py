"""L-BFGS (PyTorch's torch.optim.LBFGS): a limited-memory quasi-Newton step over the parameters
flattened into one vector, with a fixed step or PyTorch's strong-Wolfe line search. The
arithmetic runs on the arrays (scalars stay 0-d values of the parameters' dtype, as PyTorch's
0-d tensors do); the state holds them as tensors of the parameters' facade class."""
from __future__ import annotations

from typing import Callable

from .. import backend
from ..autograd import mode
from ..autograd.policy import policy_of
from ..tensor import Tensor
from .optimizer import Optimizer, as_float, check_lr, real_view, state_tensor

# state entries that are arrays (or lists of arrays) while stepping, tensors between steps
_ARRAY_STATE = ("d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad", "al")


def _cubic_interpolate(xp, x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through two points with their derivatives, clipped to `bounds`."""
    if bounds is not None:
        xmin_bound, xmax_bound = bounds
    else:
        xmin_bound, xmax_bound = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = xp.sqrt(d2_square)
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    return (xmin_bound + xmax_bound) / 2.0


def _strong_wolfe(xp, obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """PyTorch's strong-Wolfe line search: (loss, flat grad, step, evaluations)."""
    d_norm = xp.abs(d).max()
    g = g.copy()
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        tmp = t
        t = _cubic_interpolate(xp, t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step))
        t_prev, f_prev, g_prev, gtd_prev = tmp, f_new, g_new.copy(), gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]

    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(xp, bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1],
                               bracket_gtd[1])
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                if abs(t - max(bracket)) < abs(t - min(bracket)):
                    t = max(bracket) - eps
                else:
                    t = min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low_pos]:
            bracket[high_pos], bracket_f[high_pos] = t, f_new
            bracket_g[high_pos], bracket_gtd[high_pos] = g_new.copy(), gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                bracket[high_pos], bracket_f[high_pos] = bracket[low_pos], bracket_f[low_pos]
                bracket_g[high_pos], bracket_gtd[high_pos] = bracket_g[low_pos], bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos] = t, f_new
            bracket_g[low_pos], bracket_gtd[low_pos] = g_new.copy(), gtd_new
    return bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], ls_func_evals


class LBFGS(Optimizer):
    def __init__(self, params, lr=1, max_iter: int = 20, max_eval: int | None = None, tolerance_grad: float = 1e-7,
                 tolerance_change: float = 1e-9, history_size: int = 100, line_search_fn: str | None = None) -> None:
        policy = policy_of(params)
        check_lr(policy, lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {"lr": lr, "max_iter": max_iter, "max_eval": max_eval, "tolerance_grad": tolerance_grad,
                    "tolerance_change": tolerance_change, "history_size": history_size,
                    "line_search_fn": line_search_fn}
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise policy.errors.optim_lbfgs_groups()
        self._params = self.param_groups[0]["params"]

    def _gather_flat_grad(self, xp):
        # (a complex parameter as pairs of reals, as PyTorch's)
        return xp.concatenate([real_view(p._grad._data).reshape(-1) if p._grad is not None else
                               xp.zeros(real_view(p._data).size, dtype=p._data.real.dtype) for p in self._params])

    def _add_grad(self, step_size, update) -> None:
        offset = 0
        for p in self._params:
            pd = real_view(p._data)
            pd += step_size * update[offset:offset + pd.size].reshape(pd.shape)
            offset += pd.size
            p._bump()

    def _set_param(self, params_data) -> None:
        for p, data in zip(self._params, params_data):
            p._data[...] = data
            p._bump()

    def step(self, closure: Callable):
        """Up to `max_iter` L-BFGS iterations; `closure` re-evaluates the loss and its gradients."""
        return self._hooked(self._iterate, closure)

    def _iterate(self, closure: Callable):
        with mode.no_grad():
            return self._run(closure)

    def _evaluate(self, closure: Callable) -> float:
        with mode.enable_grad():
            return closure()

    def _run(self, closure: Callable):
        if len(self.param_groups) != 1:
            raise policy_of(self.param_groups).errors.optim_lbfgs_group_count(count=len(self.param_groups))
        group = self.param_groups[0]
        lr = as_float(group["lr"])
        max_iter, max_eval = group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        line_search_fn, history_size = group["line_search_fn"], group["history_size"]
        first = self._params[0]
        xp = backend.namespace(first._data)
        state = self._state[first]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = self._evaluate(closure)
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad(xp)
        if xp.abs(flat_grad).max() <= tolerance_grad:
            return orig_loss

        d, t, old_dirs, old_stps, ro, H_diag, prev_flat_grad, al = (_unwrap(state.get(k)) for k in _ARRAY_STATE)
        prev_loss = state.get("prev_loss")
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = -flat_grad
                old_dirs, old_stps, ro = [], [], []
                H_diag = 1
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
                    H_diag = ys / y.dot(y)
                num_old = len(old_dirs)
                if al is None:
                    al = state["al"] = [None] * history_size
                q = -flat_grad
                for i in range(num_old - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    q += -al[i] * old_dirs[i]
                d = r = q * H_diag
                for i in range(num_old):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    r += (al[i] - be_i) * old_stps[i]
            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.copy()
            else:
                prev_flat_grad[...] = flat_grad
            prev_loss = loss
            if state["n_iter"] == 1:
                inverse = 1.0 / xp.abs(flat_grad).sum()
                t = (inverse if inverse < 1.0 else 1.0) * lr
            else:
                t = lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:
                break

            ls_func_evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise policy_of(self.param_groups).errors.optim_lbfgs_line_search()
                x_init = [p._data.copy() for p in self._params]

                def obj_func(x, t, d):
                    self._add_grad(t, d)
                    value = float(self._evaluate(closure))
                    grad = self._gather_flat_grad(xp)
                    self._set_param(x)
                    return value, grad

                loss, flat_grad, t, ls_func_evals = _strong_wolfe(xp, obj_func, x_init, t, d, loss, flat_grad, gtd,
                                                                  max_ls=max_eval - current_evals)
                self._add_grad(t, d)
                opt_cond = xp.abs(flat_grad).max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                if n_iter != max_iter:
                    loss = float(self._evaluate(closure))
                    flat_grad = self._gather_flat_grad(xp)
                    opt_cond = xp.abs(flat_grad).max() <= tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals
            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if xp.abs(d * t).max() <= tolerance_change or abs(loss - prev_loss) < tolerance_change:
                break

        for key, value in zip(_ARRAY_STATE, (d, t, old_dirs, old_stps, ro, H_diag, prev_flat_grad, al)):
            state[key] = _wrap(first, value)
        state["prev_loss"] = prev_loss
        return orig_loss


def _unwrap(value):
    """A state entry as arrays (tensors to arrays, lists element by element)."""
    if isinstance(value, list):
        return [_unwrap(v) for v in value]
    return value._data if isinstance(value, Tensor) else value


def _wrap(param, value):
    """An array state entry as tensors of the parameter's facade class (Python numbers stay)."""
    if isinstance(value, list):
        return [_wrap(param, v) for v in value]
    if value is None or type(value) in (int, float):
        return value
    return state_tensor(param, backend.namespace(param._data).asarray(value))
