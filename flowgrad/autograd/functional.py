"""Higher-level differentiation of a whole function: vjp, jvp, jacobian, hessian, hvp, vhp
(PyTorch's `torch.autograd.functional`, with its argument rules and messages).

Everything is built on reverse mode (`api.grad`). Forward-mode products use the double-vjp trick:
with `u` a dummy cotangent that requires grad, `g(u) = J^T u` is linear in `u`, so the vjp of `g`
against `v` is `J v`. Results are detached unless `create_graph=True`. `vectorize=True` is
accepted and gives the same numbers (the rows are computed one by one either way).
"""
from __future__ import annotations

from typing import Callable

from . import api, mode
from .policy import Policy, policy_of
from ..tensor import Tensor

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


# ------------------------------------------------------------------------------- plumbing

def _as_tuple(inp, arg_name: str, fn_name: str) -> tuple[bool, tuple]:
    is_tuple = isinstance(inp, tuple)
    items = inp if is_tuple else (inp,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            policy = policy_of(items)
            if is_tuple:
                raise policy.errors.functional_arg_type_at(arg_name=arg_name, fn_name=fn_name, index=i, type=type(el))
            raise policy.errors.functional_arg_type(arg_name=arg_name, fn_name=fn_name, type=type(el))
    return is_tuple, items


def _tuple_postprocess(res, to_unpack):
    """Undo the tuple wrapping: `to_unpack` is one flag, or (outer flag, inner flag) for nested."""
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs: tuple, create_graph: bool, need_graph: bool) -> tuple:
    """Fresh leaves (or, under create_graph, differentiable aliases) of the inputs, so the user's
    tensors are never modified and the gradient is taken with respect to exactly these."""
    from ..ops import view
    res = []
    for inp in inputs:
        if create_graph and inp._requires_grad:
            res.append(view(inp, inp._data.shape))
        else:
            res.append(inp.detach().requires_grad_(need_graph))
    return tuple(res)


def _grad_postprocess(inputs, create_graph: bool):
    if isinstance(inputs[0], Tensor):
        return inputs if create_graph else tuple(inp.detach() for inp in inputs)
    return tuple(_grad_postprocess(inp, create_graph) for inp in inputs)


def _validate_v(v: tuple, other: tuple, is_other_tuple: bool) -> None:
    policy = policy_of(other)
    if len(other) != len(v):
        if is_other_tuple:
            raise policy.errors.functional_v_length(expected=len(other), got=len(v))
        raise policy.errors.functional_v_single()
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v._data.shape != el_other._data.shape:
            raise policy.error("functional_v_entry_size" if is_other_tuple else "functional_v_size", index=idx,
                               want_shape=el_other._data.shape, got_shape=el_v._data.shape)


def _check_requires_grad(inputs: tuple, input_type: str, strict: bool) -> None:
    if not strict:
        return
    policy = policy_of(inputs)
    for i, inp in enumerate(inputs):
        if inp is None:
            raise policy.errors.functional_strict_output_independent(index=i)
        if not inp._requires_grad:
            if input_type == "hessian":
                raise policy.errors.functional_strict_hessian_constant(index=i)
            if input_type == "jacobian":
                raise policy.errors.functional_strict_jacobian_constant(index=i)
            if input_type == "grad_inputs":
                raise policy.errors.functional_strict_grad_inputs_constant(index=i)
            raise policy.errors.functional_strict_output_no_grad(index=i)


def _autograd_grad(outputs: tuple, inputs: tuple, grad_outputs=None, create_graph: bool = False,
                   retain_graph=None) -> tuple:
    """`api.grad` over the outputs that require grad, None for inputs nothing reached."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o._requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs, grads = zip(*pairs)
    return api.grad(outs, inputs, grads, retain_graph=retain_graph, create_graph=create_graph, allow_unused=True,
                    policy=outs[0].policy)


def _zeros_like(t: Tensor, requires_grad: bool = False) -> Tensor:
    from ..ops import zeros_for
    z = zeros_for(t, t._data.shape, t._data.dtype)
    z._requires_grad = requires_grad
    return z


def _fill_in_zeros(grads: tuple, refs: tuple, strict: bool, create_graph: bool, stage: str) -> tuple:
    """None gradients as zeros shaped like `refs`; in strict mode a None (or, under create_graph, a
    constant) gradient is an error, worded by `stage`: "back", "back_trick", "double_back" or
    "double_back_trick" (a first or second derivative, taken directly or by the double-vjp trick)."""
    res = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise _strict_none_error(policy_of(refs), stage, i)
            g = _zeros_like(refs[i])
        elif strict and create_graph and not g._requires_grad:
            raise policy_of(refs).error("functional_strict_hessian_no_graph" if "double" in stage else
                                      "functional_strict_jacobian_no_graph", index=i)
        res.append(g)
    return tuple(res)


def _strict_none_error(policy: Policy, stage: str, i: int) -> Exception:
    if stage == "back":
        return policy.errors.functional_strict_output_independent(index=i)
    if stage == "back_trick":
        return policy.errors.functional_strict_tangent_unused(index=i)
    if stage == "double_back":
        return policy.errors.functional_strict_jacobian_independent(index=i)
    return policy.errors.functional_strict_hessian_tangent_unused(index=i)


def _enabled(create_graph: bool):
    return mode._GradModeGuard(True if create_graph else mode.state.grad_enabled)


def _single_scalar_output(outputs: tuple, is_outputs_tuple: bool, fn_name: str) -> None:
    if is_outputs_tuple or not isinstance(outputs[0], Tensor):
        raise policy_of(outputs).errors.functional_not_single_tensor(fn_name=fn_name)
    if outputs[0]._data.size != 1:
        raise outputs[0].policy.errors.functional_not_single_element(fn_name=fn_name)


def _prepare_v(v, ref: tuple, is_ref_tuple: bool, create_graph: bool, fn_name: str):
    """`v` checked against `ref` (the inputs); None only when the input is a single element."""
    if v is not None:
        _, v = _as_tuple(v, "v", fn_name)
        v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
        _validate_v(v, ref, is_ref_tuple)
        return v
    if len(ref) != 1 or ref[0]._data.size != 1:
        raise policy_of(ref).errors.functional_v_none_input()
    return None


# ------------------------------------------------------------------------------- products

def vjp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """(func(inputs), v^T J): the vector-Jacobian product at `inputs`."""
    with mode._GradModeGuard(True):
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict)
        if v is not None:
            v = _prepare_v(v, outputs, is_outputs_tuple, create_graph, "vjp")
        elif len(outputs) != 1 or outputs[0]._data.size != 1:
            raise policy_of(outputs).errors.functional_v_none_output()
    with _enabled(create_graph):
        grad_res = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "back")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_inputs_tuple)


def jvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """(func(inputs), J v): the Jacobian-vector product, by the double-vjp trick."""
    with mode._GradModeGuard(True):
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, "jvp")
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict)
        grad_outputs = tuple(_zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with _enabled(create_graph):
        grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, outputs, strict, create_graph, "back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_outputs_tuple)


def _scalar_gradient(func, inputs, v, create_graph: bool, strict: bool, api: str):
    """What vhp and hvp share (under grad mode): the inputs and v prepared, the scalar output
    checked, and its gradient w.r.t. the inputs with a graph."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", api)
    inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
    v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, api)
    outputs = func(*inputs)
    is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", api)
    _check_requires_grad(outputs, "outputs", strict)
    _single_scalar_output(outputs, is_outputs_tuple, api)
    jac = _autograd_grad(outputs, inputs, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict)
    return is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac


def vhp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """(func(inputs), v^T H) for a scalar function."""
    with mode._GradModeGuard(True):
        is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac = _scalar_gradient(func, inputs, v, create_graph,
                                                                                      strict, "vhp")
    with _enabled(create_graph):
        grad_res = _autograd_grad(jac, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_inputs_tuple)


def hvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """(func(inputs), H v) for a scalar function, by the double-vjp trick on the gradient."""
    with mode._GradModeGuard(True):
        is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac = _scalar_gradient(func, inputs, v, create_graph,
                                                                                      strict, "hvp")
        grad_jac = tuple(_zeros_like(inp, requires_grad=True) for inp in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict)
    with _enabled(create_graph):
        grad_res = _autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_inputs_tuple)


# ------------------------------------------------------------------------------- jacobian

def jacobian(func: Callable, inputs, create_graph: bool = False, strict: bool = False, vectorize: bool = False,
             strategy: str = "reverse-mode"):
    """d func(inputs) / d inputs, shaped `output.shape + input.shape` (nested tuples for tuple
    outputs and inputs). Reverse mode takes one vjp per output element; "forward-mode" (which
    needs `vectorize=True`, as in PyTorch) takes one jvp per input element."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise policy_of(inputs).errors.functional_jacobian_strategy()
    if strategy == "forward-mode":
        if create_graph:
            raise policy_of(inputs).errors.functional_forward_create_graph()
        return _jacobian_forward(func, inputs, strict, vectorize)
    with mode._GradModeGuard(True):
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        if vectorize and strict:
            raise policy_of(inputs).errors.functional_strict_vectorize()
        jac = tuple(_jacobian_rows(out, i, inputs, strict, create_graph) for i, out in enumerate(outputs))
        jac = _grad_postprocess(jac, create_graph)
        return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))


def _jacobian_rows(out: Tensor, i: int, inputs: tuple, strict: bool, create_graph: bool) -> tuple:
    """The Jacobian of one output w.r.t. every input: one backward per output element."""
    from ..ops import reshape, stack
    rows: tuple[list, ...] = tuple([] for _ in inputs)
    flat = reshape(out, (-1,))
    for j in range(out._data.size):
        vj = _autograd_grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
        for k, (row, g, inp) in enumerate(zip(rows, vj, inputs)):
            if g is not None:
                if strict and create_graph and not g._requires_grad:
                    raise out.policy.errors.functional_strict_jacobian_no_graph(index=i)
                row.append(g)
            else:
                if strict:
                    raise out.policy.errors.functional_strict_output_unused_input(index=i, input_index=k)
                row.append(_zeros_like(inp))
    result = []
    for row, inp in zip(rows, inputs):
        shape = out._data.shape + inp._data.shape
        result.append(reshape(stack(row), shape) if row else _zeros_like_shape(inp, shape))
    return tuple(result)


def _zeros_like_shape(like: Tensor, shape: tuple) -> Tensor:
    from ..ops import zeros_for
    return zeros_for(like, shape, like._data.dtype)


def _jacobian_forward(func: Callable, inputs, strict: bool, vectorize: bool):
    """Column by column: the jvp of each input basis vector (double-vjp trick)."""
    if strict:
        raise policy_of(inputs).errors.functional_forward_strict()
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise policy_of(inputs).errors.functional_forward_not_vectorized()
    from ..ops import reshape, stack
    with mode._GradModeGuard(True):
        prims = _grad_preprocess(inputs, create_graph=False, need_graph=True)
        outputs = func(*prims)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        cots = tuple(_zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, prims, cots, create_graph=True)
    columns: list[list[list]] = [[[] for _ in inputs] for _ in outputs]
    for k, inp in enumerate(prims):
        for e in range(inp._data.size):
            basis = _zeros_like(inp)
            basis._data.reshape(-1)[e] = 1
            tangents = _autograd_grad(tuple(g for g in grad_inputs), cots,
                                      tuple(basis if m == k else _zeros_like(p) for m, p in enumerate(prims)),
                                      retain_graph=True)
            for o, t in enumerate(tangents):
                columns[o][k].append(t if t is not None else _zeros_like(outputs[o]))
    jac = []
    for o, out in enumerate(outputs):
        row = []
        for k, inp in enumerate(prims):
            cols = stack(columns[o][k], dim=-1) if columns[o][k] else _zeros_like_shape(out, out._data.shape + (0,))
            row.append(reshape(cols, out._data.shape + inp._data.shape).detach())
        jac.append(tuple(row))
    return _tuple_postprocess(tuple(jac), (is_outputs_tuple, is_inputs_tuple))


def hessian(func: Callable, inputs, create_graph: bool = False, strict: bool = False, vectorize: bool = False,
            outer_jacobian_strategy: str = "reverse-mode"):
    """The Hessian of a scalar function: the Jacobian of its gradient."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise policy_of(inputs).errors.functional_hessian_strategy()

    def ensure_single_output_function(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict)
        if is_out_tuple or not isinstance(out, Tensor):
            raise policy_of(t_out).errors.functional_not_single_tensor(fn_name="hessian")
        if out._data.size != 1:
            raise out.policy.errors.functional_not_single_element(fn_name="hessian")
        from ..ops import reshape
        return reshape(out, ())

    def jac_func(*inp):
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))
