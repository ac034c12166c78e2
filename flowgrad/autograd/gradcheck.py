"""gradcheck / gradgradcheck: compare the gradients autograd computes with central finite
differences (PyTorch's `torch.autograd.gradcheck`, its options and its messages).

Complex numbers are checked as PyTorch's gradcheck checks them: a complex output is split into its
real and imaginary parts (two real outputs), and for a complex input z = x + iy the numerical
Jacobian is d/dx + i d/dy (two perturbations), which is what PyTorch's convention makes backward
return (dL/dx + i dL/dy for a real L).

Slow mode builds both Jacobians in full: the numerical one column by column (perturb one input
element by +-eps, difference the outputs), the analytical one row by row (one backward per
output element with a one-hot grad_output), twice, to also catch a non-reentrant backward. Fast
mode compares the scalars v^T J u for random unit vectors u, v and falls back to slow mode to
explain a failure. Forward-mode checks use the double-vjp trick (flowgrad has no dual numbers),
so they exercise the same formulas differentiated once more.
"""
from __future__ import annotations

import collections.abc
import itertools
import warnings
from typing import Callable

from .. import backend, creation
from . import api, mode
from .policy import Policy, policy_of
from ..messages.tools import GradcheckError
from ..ops import derivative, imag, real
from ..tensor import Tensor

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "get_numerical_jacobian", "get_analytical_jacobian"]


# ----------------------------------------------------------------------------- small helpers

def _as_tuple(x) -> tuple:
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _iter_tensors(x, only_requiring_grad: bool = False):
    if isinstance(x, Tensor):
        if x._requires_grad or not only_requiring_grad:
            yield x
    elif isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
        for elem in x:
            yield from _iter_tensors(elem, only_requiring_grad)


def _differentiable_outputs(x) -> tuple:
    return tuple(o for o in _as_tuple(x) if o.requires_grad)


def _is_float(t) -> bool:
    return isinstance(t, Tensor) and t._data.dtype.kind in "fcV"


def _diff_inputs(inputs: tuple) -> list:
    return [(i, t) for i, t in enumerate(inputs) if isinstance(t, Tensor) and t._requires_grad]


def _wrap(like: Tensor, arr) -> Tensor:
    """An array as a tensor of `like`'s facade (so messages print the facade's way)."""
    return like._out_cls._make(arr)


def _grad(outputs, inputs, grad_outputs, **kw):
    outputs = _as_tuple(outputs)
    if not outputs:                 # nothing differentiable came out: no gradient reaches anything
        return (None,) * len(inputs)
    policy = outputs[0].policy if outputs else inputs[0].policy
    return api.grad(outputs, inputs, grad_outputs, allow_unused=True, policy=policy, **kw)


def _allclose(a, b, rtol: float, atol: float) -> bool:
    xp = backend.namespace(a)
    dt = xp.result_type(a.dtype, b.dtype)
    return bool(xp.allclose(a.astype(dt), b.astype(dt), rtol=rtol, atol=atol))


def _max_abs(a) -> float:
    xp = backend.namespace(a)
    return float(xp.abs(a).max()) if a.size else 0.0


# ----------------------------------------------------------------------------- numerical side

def _evaluate(func: Callable, inputs: tuple) -> list:
    return [o._data.copy() if isinstance(o, Tensor) else o for o in _as_tuple(func(*inputs))]


def _check_same_meta(a, b, eps: float, idx, like: Tensor) -> None:
    """Outputs at x - d and x + d must agree in shape and dtype (`idx`: the perturbed element, or
    None for a perturbation along a whole vector)."""
    policy = like.policy
    if a.shape != b.shape:
        raise policy.error("gradcheck_perturbed_shape" if idx is None else "gradcheck_perturbed_shape_at", index=idx,
                           eps=eps, a_shape=a.shape, b_shape=b.shape)
    if a.dtype != b.dtype:
        raise policy.error("gradcheck_perturbed_dtype" if idx is None else "gradcheck_perturbed_dtype_at", index=idx,
                           eps=eps, a_dtype=like._dtypes[a.dtype], b_dtype=like._dtypes[b.dtype])


def _central_difference(func: Callable, inputs: tuple, perturb, eps: float, idx, like: Tensor) -> list:
    """(f(x + d) - f(x - d)) / (2 eps) for each output, flattened; `perturb(k)` sets the input to
    x - d (k=0), x + d (k=1), x (k=2)."""
    perturb(0)
    out_a = _evaluate(func, inputs)
    perturb(1)
    out_b = _evaluate(func, inputs)
    perturb(2)
    cols = []
    for a, b in zip(out_a, out_b):
        if not hasattr(a, "dtype"):
            cols.append(None)
            continue
        _check_same_meta(a, b, eps, idx, like)
        if a.dtype.kind not in "fcV":       # integer and boolean outputs have no derivative
            cols.append(None)
            continue
        cols.append(((b - a) / (2 * eps)).reshape(-1))
    return cols


def _numerical_jacobian_wrt(func: Callable, inputs: tuple, index: int, outputs: tuple, eps: float) -> list:
    """Arrays of shape (input numel, output numel), one per floating output."""
    inp = inputs[index]
    x = inp._data
    xp = backend.namespace(x)
    float_outs = [k for k, o in enumerate(outputs) if _is_float(o)]
    jac = [xp.zeros((x.size, outputs[k]._data.size), dtype=xp.result_type(outputs[k]._data.dtype, x.dtype))
           for k in float_outs]
    steps = (eps, eps * 1j) if x.dtype.kind == "c" else (eps,)
    for d_idx, pos in enumerate(itertools.product(*[range(s) for s in x.shape])):
        orig = x[pos].copy()
        per_step = []
        for step in steps:
            values = (orig - step, orig + step, orig)

            def perturb(k, pos=pos, values=values):
                x[pos] = values[k]

            per_step.append(_central_difference(func, inputs, perturb, eps, pos, inp))
        cols = per_step[0] if len(steps) == 1 else _wirtinger(*per_step)
        for j, k in enumerate(float_outs):
            jac[j][d_idx] = cols[k]
    return jac


def _wirtinger(dx: list, dy: list) -> list:
    """d/dx + i d/dy per (real) output: the derivatives along the real and imaginary parts of a
    complex input combined as PyTorch's backward reports them."""
    return [None if a is None else a + 1j * b for a, b in zip(dx, dy)]


def _split_complex(func: Callable) -> Callable:
    """`func` with each complex output replaced by its real and imaginary parts."""
    def split(*inputs):
        outs = []
        for o in _as_tuple(func(*inputs)):
            if isinstance(o, Tensor) and o._data.dtype.kind == "c":
                outs += [real(o), imag(o)]
            else:
                outs.append(o)
        return tuple(outs)
    return split


def _numerical_jacobian(func: Callable, inputs: tuple, outputs: tuple, eps: float) -> list:
    """For each input requiring grad: a list of Jacobians, one per floating output."""
    return [_numerical_jacobian_wrt(func, inputs, i, outputs, eps) for i, _ in _diff_inputs(inputs)]


def _numerical_jvp(func: Callable, inputs: tuple, index: int, u, eps: float) -> list:
    """J u for each output (flattened), by a central difference along u."""
    x = inputs[index]._data
    orig = x.copy()
    per_step = []
    for step in ((eps, eps * 1j) if x.dtype.kind == "c" else (eps,)):
        delta = u.reshape(x.shape) * step
        values = (orig - delta, orig + delta, orig)

        def perturb(k, values=values):
            x[...] = values[k]

        per_step.append(_central_difference(func, inputs, perturb, eps, None, inputs[index]))
    return per_step[0] if len(per_step) == 1 else _wirtinger(*per_step)


# ----------------------------------------------------------------------------- analytical side

def _jacobian_rows(vjp_fn: Callable, output: Tensor, diff_inputs: list) -> list:
    """For each input, the list of its gradients for each one-hot grad_output (None = zero)."""
    xp = backend.namespace(output._data)
    rows: list[list] = [[] for _ in diff_inputs]
    flat = xp.zeros(output._data.size, dtype=output._data.dtype)
    for j in range(flat.size):
        flat[...] = 0
        flat[j] = 1
        grads = vjp_fn(output._new(flat.reshape(output._data.shape).copy()))
        for i, g in enumerate(grads):
            rows[i].append(None if g is None else g._data.copy())
    return rows


def _stack_rows(rows: list, diff_inputs: list, n_out: int):
    jacobians, sizes_ok, types_ok = [], True, True
    for row, inp in zip(rows, diff_inputs):
        d = inp._data
        xp = backend.namespace(d)
        jac = xp.zeros((d.size, n_out), dtype=d.dtype)
        for j, g in enumerate(row):
            if g is None:
                continue
            if g.shape != d.shape:
                sizes_ok = False
                continue
            if g.dtype != d.dtype:
                types_ok = False
            jac[:, j] = g.reshape(-1)
        jacobians.append(jac)
    return jacobians, sizes_ok, types_ok


def _analytical_jacobian(inputs: tuple, output: Tensor, nondet_tol: float, check_grad_dtypes: bool, v=None) -> list:
    """Arrays (input numel, output numel) per input requiring grad (with `v`, the single row
    v^T J); backward runs twice and must agree within `nondet_tol`."""
    diff_inputs = [t for _, t in _diff_inputs(inputs)]

    def vjp_fn(grad_output):
        return _grad(output, diff_inputs, grad_output, retain_graph=True)

    if v is None:
        rows1 = _jacobian_rows(vjp_fn, output, diff_inputs)
        rows2 = _jacobian_rows(vjp_fn, output, diff_inputs)
        n_out = output._data.size
    else:
        g = output._new(v.reshape(output._data.shape))
        rows1 = [[None if r is None else r._data.copy()] for r in vjp_fn(g)]
        rows2 = [[None if r is None else r._data.copy()] for r in vjp_fn(g)]
        n_out = 1
    jac1, sizes_ok, types_ok = _stack_rows(rows1, diff_inputs, n_out)
    jac2, _, _ = _stack_rows(rows2, diff_inputs, n_out)
    reentrant = all(a.size == 0 or _max_abs(a - b) <= nondet_tol for a, b in zip(jac1, jac2))
    if not types_ok and check_grad_dtypes:
        raise output.policy.errors.gradcheck_grad_dtype_mismatch()
    if not sizes_ok:
        raise output.policy.errors.gradcheck_analytical_size()
    if not reentrant:
        raise output.policy.errors.gradcheck_nondet(nondet_tol=nondet_tol)
    return jac1


def _forward_jacobian(func: Callable, inputs: tuple, u_per_input=None) -> list:
    """Forward-mode Jacobians by the double-vjp trick: for input k and tangent t,
    J_k t = d/dc <J_k^T c, t>. Returns [input][float output] arrays of shape (numel_in or 1,
    numel_out); with `u_per_input`, one column: J_k u_k."""
    diff = _diff_inputs(inputs)
    with mode._GradModeGuard(True):
        outs = _as_tuple(func(*inputs))
        float_outs = [o for o in outs if _is_float(o)]
        live = [o for o in float_outs if o._requires_grad]
        cots = [o._new(backend.namespace(o._data).zeros_like(o._data)).requires_grad_(True) for o in live]
        diff_tensors = [t for _, t in diff]
        vjps = _grad(live, diff_tensors, cots, create_graph=True) if live else (None,) * len(diff)
    result = []
    for k, (_, inp) in enumerate(diff):
        d = inp._data
        xp = backend.namespace(d)
        tangents = [u_per_input[k].reshape(d.shape)] if u_per_input is not None else None
        n_cols = 1 if tangents is not None else d.size
        jac = [xp.zeros((n_cols, o._data.size), dtype=o._data.dtype) for o in float_outs]
        g = vjps[k]
        if g is not None and g._requires_grad and cots:
            for col in range(n_cols):
                if tangents is not None:
                    t = tangents[0]
                else:
                    t = xp.zeros(d.shape, dtype=d.dtype)
                    t.reshape(-1)[col] = 1
                res = _grad((g,), cots, (inp._new(t),), retain_graph=True)
                it = iter(res)
                for j, o in enumerate(float_outs):
                    r = next(it) if o._requires_grad else None
                    if r is not None:
                        jac[j][col] = r._data.reshape(-1)
        result.append(jac)
    return result


# ----------------------------------------------------------------------------- the checks

def _check_inputs(tupled_inputs: tuple) -> None:
    any_requiring_grad = False
    for idx, inp in enumerate(tupled_inputs):
        if isinstance(inp, Tensor) and inp._requires_grad:
            if inp._data.dtype.name not in ("float64", "complex128"):
                warnings.warn(inp.policy.errors.gradcheck_not_double(index=idx), stacklevel=4)
            d = inp._data
            if not all(st > 0 or sz <= 1 for st, sz in zip(d.strides, d.shape)):
                raise inp.policy.errors.gradcheck_stride_zero(index=idx)
            any_requiring_grad = True
    if not any_requiring_grad:
        raise policy_of(tupled_inputs).errors.gradcheck_no_input_requires_grad()


def _check_no_differentiable_outputs(func, inputs, func_out, eps) -> None:
    for per_input in _numerical_jacobian(func, inputs, func_out, eps):
        for jac in per_input:
            if bool((jac != 0).any()):
                raise policy_of(inputs).errors.gradcheck_numerical_nonzero()


def _slow_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol,
                    use_forward_ad=False) -> None:
    func_out = _as_tuple(func_out)
    if not outputs:
        _check_no_differentiable_outputs(func, inputs, func_out, eps)
        return
    numerical = list(zip(*_numerical_jacobian(func, inputs, func_out, eps)))   # [float output][input]
    float_outs = [o for o in func_out if _is_float(o)]
    numerical = [nj for o, nj in zip(float_outs, numerical) if o._requires_grad]
    diff = [t for _, t in _diff_inputs(inputs)]
    if use_forward_ad:
        forward = _forward_jacobian(func, inputs)
        live = [j for j, o in enumerate(float_outs) if o._requires_grad]
        for i, n_per_out in enumerate(numerical):
            for j, n in enumerate(n_per_out):
                a = forward[j][live[i]]
                if not _allclose(a, n, rtol, atol):
                    raise diff[j].policy.errors.gradcheck_forward_jacobian_mismatch(output_idx=i, input_idx=j,
                                               numerical=_wrap(diff[j], n), analytical=_wrap(diff[j], a))
        return
    for i, o in enumerate(outputs):
        analytical = _analytical_jacobian(inputs, o, nondet_tol, check_grad_dtypes)
        for j, (a, n) in enumerate(zip(analytical, numerical[i])):
            if not _allclose(a, n, rtol, atol):
                raise o.policy.errors.gradcheck_jacobian_mismatch(output_idx=i, input_idx=j, numerical=_wrap(o, n),
                                     analytical=_wrap(diff[j], a))


def _unit_vector(like, generator):
    """A random vector of `like`'s size with unit norm (real dtype)."""
    d = like._data
    xp = backend.namespace(d)
    dt = d.dtype if d.dtype.kind in "fV" else xp.dtype("float64")
    vec = creation.uniform_like(xp.zeros(d.size, dtype=dt), 0.0, 1.0, generator)
    norm = float(xp.sqrt((vec * vec).sum()))
    return vec / norm if norm else vec


def _fast_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol,
                    use_forward_ad=False) -> None:
    generator = creation.Generator()
    diff = _diff_inputs(inputs)
    all_u = [_unit_vector(t, generator) for _, t in diff]
    all_v = None if use_forward_ad else [_unit_vector(o, generator) for o in outputs]
    func_out_t = _as_tuple(func_out)
    numerical = []   # [input][output] scalars v^T (J u), or J u under forward AD
    for (index, _), u in zip(diff, all_u):
        ju = _numerical_jvp(func, inputs, index, u, eps)
        ju = [c for c, o in zip(ju, func_out_t) if _is_float(o)]
        numerical.append([(v * c).sum() for v, c in zip(all_v, ju)] if all_v is not None else ju)
    if use_forward_ad:
        analytical = [[jac[0] for jac in per_input] for per_input in _forward_jacobian(func, inputs, all_u)]
    else:
        if not outputs:
            for row in numerical:
                for jvp in row:
                    if jvp.size and _max_abs(jvp) > nondet_tol:
                        raise policy_of(inputs).errors.gradcheck_numerical_nonzero()
        analytical = []    # [output][input] scalars (v^T J) u
        for o, v in zip(outputs, all_v):
            vj = _analytical_jacobian(inputs, o, nondet_tol, check_grad_dtypes, v=v)
            analytical.append([(row[:, 0] * u).sum() for row, u in zip(vj, all_u)])
    for i, per_input in enumerate(numerical):
        for j, n in enumerate(per_input):
            a = analytical[i][j] if use_forward_ad else analytical[j][i]
            xp = backend.namespace(all_u[i])
            a, n = xp.asarray(a), xp.asarray(n)
            scale = float(all_u[i].sum()) * (float(all_v[j].sum()) if all_v is not None else 1.0)
            if not _allclose(a, n, rtol, atol * scale):
                raise _fast_mismatch(func, inputs, outputs, i, j, rtol, atol, eps, use_forward_ad, a, n)


def _fast_mismatch(func, inputs, outputs, input_idx, output_idx, rtol, atol, eps, is_forward_ad, a, n) -> Exception:
    """Fast mode's failure (analytical `a` and numerical `n` products differ), explained by both
    Jacobians recomputed in slow mode, noting when those agree."""
    func_out = _as_tuple(func(*inputs))
    slow_numerical = _numerical_jacobian(func, inputs, func_out, eps)[input_idx][output_idx]
    if is_forward_ad:
        slow_analytical = _forward_jacobian(func, inputs)[input_idx][output_idx]
    else:
        slow_analytical = _analytical_jacobian(inputs, outputs[output_idx], float("inf"), False)[input_idx]
    like = _diff_inputs(inputs)[input_idx][1]
    max_diff = _wrap(like, backend.namespace(slow_numerical).asarray(_max_abs(slow_numerical - slow_analytical),
                                                                       dtype=slow_numerical.dtype))
    if _allclose(slow_analytical, slow_numerical, rtol, atol):
        kind = "gradcheck_fast_forward_jacobian_mismatch_slow_ok" if is_forward_ad else \
            "gradcheck_fast_jacobian_mismatch_slow_ok"
    else:
        kind = "gradcheck_fast_forward_jacobian_mismatch" if is_forward_ad else "gradcheck_fast_jacobian_mismatch"
    return like.policy.error(kind, output_idx=output_idx, input_idx=input_idx, numerical=_wrap(like, n),
                             analytical=_wrap(like, a), slow_numerical=_wrap(like, slow_numerical),
                             slow_analytical=_wrap(like, slow_analytical), max_diff=max_diff)


def _test_batched_grad(inputs: tuple, output: Tensor, output_idx: int) -> None:
    """Batched grad_outputs (`is_grads_batched`) must give the stacked per-row results."""
    from ..ops import stack
    diff = [t for _, t in _diff_inputs(inputs)]
    gen = creation.default_generator
    rows = [output._new(creation.normal_like(output._data, 0.0, 1.0, gen)) for _ in range(2)]

    def vjp(v, batched=False):
        res = _grad(output, diff, v, retain_graph=True, is_grads_batched=batched)
        shape = (2,) if batched else ()
        return [r if r is not None else inp._new(backend.namespace(inp._data).zeros(shape + inp._data.shape,
                                                                                     inp._data.dtype))
                for r, inp in zip(res, diff)]

    expected = [stack(shards) for shards in zip(*[vjp(v) for v in rows])]
    try:
        result = vjp(stack(rows), batched=True)
    except RuntimeError as ex:
        raise output.policy.errors.gradcheck_batched_error(error=ex) from ex
    for input_idx, (res, exp) in enumerate(zip(result, expected)):
        if not _allclose(res._data, exp._data, 1e-05, 1e-08):
            raise output.policy.errors.gradcheck_batched_mismatch(output_idx=output_idx, input_idx=input_idx, got=res,
                                      expected=exp)


def _test_batched_forward_grad(func, inputs: tuple) -> None:
    """Forward-mode products of several tangents at once must equal the products one by one."""
    gen = creation.default_generator
    full = _forward_jacobian(func, inputs)
    for k, (_, inp) in enumerate(_diff_inputs(inputs)):
        tangents = [creation.normal_like(inp._data, 0.0, 1.0, gen).reshape(-1) for _ in range(2)]
        one_by_one = [_forward_jacobian(func, inputs, [t if m == k else t * 0 for m in range(len(full))])
                      for t in tangents]
        xp = backend.namespace(inp._data)
        for j, jac in enumerate(full[k]):
            batched = xp.stack(tangents) @ jac
            single = xp.stack([res[k][j][0] for res in one_by_one])
            if not _allclose(batched, single, 1e-05, 1e-08):
                raise inp.policy.errors.gradcheck_batched_forward_mismatch(output_idx=k, input_idx=k,
                                       got=_wrap(inp, batched), expected=_wrap(inp, single))


def _test_backward_mul_by_grad_output(outputs: tuple, inputs: tuple) -> None:
    diff = [t for _, t in _diff_inputs(inputs)]
    if not diff:
        raise policy_of(inputs).errors.gradcheck_no_tensor_requires_grad()
    zeros = [o._new(backend.namespace(o._data).zeros_like(o._data)) for o in outputs]
    for gi, di in zip(_grad(outputs, diff, zeros), diff):
        if gi is None:
            continue
        if bool((gi._data != 0).any()):
            raise di.policy.errors.gradcheck_not_mul_by_grad_output()
        if gi._data.dtype != di._data.dtype:
            raise di.policy.errors.gradcheck_grad_type()
        if gi.device != di.device:
            raise di.policy.errors.gradcheck_grad_device()
        if gi._data.shape != di._data.shape:
            raise di.policy.errors.gradcheck_grad_size()


# passes no gradient on: what an output wrapped by `_undefined_grad` sends back
UndefinedGradBackward = derivative("UndefinedGradBackward", self=lambda grad: None)


def _undefined_grad(t: Tensor) -> Tensor:
    out = t._new(t._data)
    if t._requires_grad:
        UndefinedGradBackward.record((t,), out)
    return out


def _bc_warning(policy: Policy) -> None:
    warnings.warn(policy.errors.gradcheck_undefined_grad_compat(), stacklevel=4)


def _test_undefined_backward_mode(func, outputs: tuple, inputs: tuple) -> None:
    """Every backward must accept undefined (None) gradients for its outputs."""
    diff = [t for _, t in _diff_inputs(inputs)]
    policy = policy_of(inputs)
    if not diff:
        raise policy.errors.gradcheck_no_tensor_requires_grad()

    def check(outs: list) -> None:
        zeros = [o._new(backend.namespace(o._data).zeros_like(o._data)) for o in outs]
        try:
            grads = _grad(outs, diff, zeros)
        except RuntimeError as e:
            _bc_warning(policy)
            raise policy.errors.gradcheck_undefined_grad_unsupported() from e
        for gi in grads:
            if gi is not None and bool((gi._data != 0).any()):
                _bc_warning(policy)
                raise policy.errors.gradcheck_undefined_grad_nonzero()

    with mode._GradModeGuard(True):
        first = [_undefined_grad(o) for o in _differentiable_outputs(func(*inputs)) if isinstance(o, Tensor)]
        to_check = [first]
        if len(first) > 1:
            for undef in range(len(outputs)):
                outs = _differentiable_outputs(func(*inputs))
                to_check.append([_undefined_grad(o) if k == undef else o for k, o in enumerate(outs)])
        for outs in to_check:
            check(outs)


# ----------------------------------------------------------------------------- entry points

def gradcheck(func: Callable, inputs, *, eps: float = 1e-06, atol: float = 1e-05, rtol: float = 0.001,
              raise_exception: bool = True, nondet_tol: float = 0.0, check_undefined_grad: bool = True,
              check_grad_dtypes: bool = False, check_batched_grad: bool = False,
              check_batched_forward_grad: bool = False, check_forward_ad: bool = False,
              check_backward_ad: bool = True, fast_mode: bool = False, masked: bool | None = None) -> bool:
    """Check the gradients of `func` at `inputs` (a tensor, or a tuple/list possibly holding
    non-tensors) against finite differences; inputs requiring grad should be float64. Returns
    True, or raises GradcheckError (returns False with `raise_exception=False`)."""
    if not (check_forward_ad or check_backward_ad):
        raise policy_of(inputs).errors.gradcheck_no_mode()
    if check_batched_grad and not check_backward_ad:
        raise policy_of(inputs).errors.gradcheck_batched_needs_backward()
    if check_batched_forward_grad and not check_forward_ad:
        raise policy_of(inputs).errors.gradcheck_batched_forward_needs_forward()
    try:
        return _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes,
                          check_batched_grad, check_batched_forward_grad, check_forward_ad, check_backward_ad,
                          fast_mode)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes,
               check_batched_grad, check_batched_forward_grad, check_forward_ad, check_backward_ad,
               fast_mode) -> bool:
    tupled_inputs = _as_tuple(inputs)
    _check_inputs(tupled_inputs)
    func_out = func(*tupled_inputs)
    if any(isinstance(o, Tensor) and o._data.dtype.kind == "c" for o in _as_tuple(func_out)):
        func = _split_complex(func)
        func_out = func(*tupled_inputs)
    if (check_forward_ad or check_batched_forward_grad) and \
            any(isinstance(t, Tensor) and t._data.dtype.kind == "c" for t in tupled_inputs):
        raise policy_of(tupled_inputs).errors.complex_unsupported(op="gradcheck's forward-mode check of complex "
                                                                     "inputs")
    outputs = _differentiable_outputs(func_out)
    check = _fast_gradcheck if fast_mode else _slow_gradcheck
    if check_backward_ad:
        check(func, func_out, tupled_inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol)
    if check_forward_ad:
        check(func, func_out, tupled_inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol,
              use_forward_ad=True)
    if check_batched_forward_grad:
        _test_batched_forward_grad(func, tupled_inputs)
    if not check_backward_ad:
        return True
    if check_batched_grad:
        for i, o in enumerate(outputs):
            _test_batched_grad(tupled_inputs, o, i)
    _test_backward_mul_by_grad_output(outputs, tupled_inputs)
    if check_undefined_grad:
        _test_undefined_backward_mode(func, outputs, tupled_inputs)
    return True


def gradgradcheck(func: Callable, inputs, grad_outputs=None, *, eps: float = 1e-06, atol: float = 1e-05,
                  rtol: float = 0.001, gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True,
                  nondet_tol: float = 0.0, check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False, check_rev_over_rev: bool = True,
                  fast_mode: bool = False, masked: bool = False) -> bool:
    """gradcheck of the function (inputs, grad_outputs) -> autograd.grad(func(inputs), inputs,
    grad_outputs, create_graph=True): checks second derivatives. Random grad_outputs in [-1, 1)
    (requiring grad) unless given."""
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise policy_of(inputs).errors.gradgradcheck_no_mode()
    if check_undefined_grad and not check_rev_over_rev:
        raise policy_of(inputs).errors.gradgradcheck_undefined_needs_rev()
    if check_batched_grad and not check_rev_over_rev:
        raise policy_of(inputs).errors.gradgradcheck_batched_needs_rev()
    tupled_inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outputs = _differentiable_outputs(func(*tupled_inputs))
        tupled_grad_outputs = tuple(_random_grad_output(o, gen_non_contig_grad_outputs) for o in outputs)
    else:
        tupled_grad_outputs = _as_tuple(grad_outputs)
    num_outputs = len(tupled_grad_outputs)
    diff_input_indices = {i for i, x in enumerate(tupled_inputs) if isinstance(x, Tensor) and x._requires_grad}
    diff_grad_output_indices = {i for i, x in enumerate(tupled_grad_outputs) if x._requires_grad}

    def new_func(*args):
        input_args = tuple(x.requires_grad_() if i in diff_input_indices else x
                           for i, x in enumerate(args[:-num_outputs]))
        outputs = _differentiable_outputs(func(*input_args))
        grad_outs = tuple(x.requires_grad_() if i in diff_grad_output_indices else x
                          for i, x in enumerate(args[-num_outputs:]))
        diff_input_args = tuple(x for i, x in enumerate(input_args) if i in diff_input_indices)
        grad_inputs = _grad(outputs, diff_input_args, grad_outs, create_graph=True)
        return tuple(g for g in grad_inputs if g is not None)

    return gradcheck(new_func, tupled_inputs + tupled_grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol, check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad, fast_mode=fast_mode,
                     check_forward_ad=check_fwd_over_rev, check_backward_ad=check_rev_over_rev, masked=masked)


def _random_grad_output(o: Tensor, noncontiguous: bool) -> Tensor:
    d = o._data
    xp = backend.namespace(d)
    dt = d.dtype if d.dtype.kind in "fcV" else xp.dtype("float64")
    shape = d.shape
    values = creation.uniform_like(xp.zeros(shape, dtype=dt), -1.0, 1.0)
    if dt.kind == "c":
        values = values + 1j * creation.uniform_like(xp.zeros(shape, dtype=dt), -1.0, 1.0)
    if noncontiguous and values.size > 1:
        holder = xp.zeros(shape + (2,), dtype=dt)
        holder[..., 0] = values
        values = holder[..., 0]
    t = o._new(values)
    t._requires_grad = True
    return t


# ----------------------------------------------------------------------------- deprecated API

def _deprecated_private(name: str, grad_out, inputs) -> None:
    policy = policy_of(inputs)
    warnings.warn(policy.errors.gradcheck_private_api(name=name), stacklevel=3)
    if grad_out != 1.0:
        raise policy.errors.gradcheck_grad_out(name=name)


def get_numerical_jacobian(fn, inputs, target=None, eps=1e-3, grad_out=1.0):
    """Deprecated (PyTorch private API): the numerical Jacobian of `fn(inputs)` per input."""
    _deprecated_private("get_numerical_jacobian", grad_out, inputs)
    inputs = _as_tuple(inputs)
    outs = _as_tuple(fn(inputs))
    jacs = _numerical_jacobian(lambda *inps: fn(inps), inputs, outs, eps)
    like = [t for _, t in _diff_inputs(inputs)]
    return tuple(_wrap(t, j[0]) for t, j in zip(like, jacs))


def get_analytical_jacobian(inputs, output, nondet_tol=0.0, grad_out=1.0):
    """Deprecated (PyTorch private API): (jacobians, reentrant, sizes_ok, types_ok)."""
    _deprecated_private("get_analytical_jacobian", grad_out, inputs)
    inputs = _as_tuple(inputs)
    diff = [t for _, t in _diff_inputs(inputs)]

    def vjp_fn(g):
        return _grad(output, diff, g, retain_graph=True)

    rows1 = _jacobian_rows(vjp_fn, output, diff)
    rows2 = _jacobian_rows(vjp_fn, output, diff)
    jac1, sizes_ok, types_ok = _stack_rows(rows1, diff, output._data.size)
    jac2, _, _ = _stack_rows(rows2, diff, output._data.size)
    reentrant = all(a.size == 0 or _max_abs(a - b) <= nondet_tol for a, b in zip(jac1, jac2))
    return tuple(_wrap(t, j) for t, j in zip(diff, jac1)), reentrant, sizes_ok, types_ok
