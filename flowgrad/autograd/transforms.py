"""Function transforms (PyTorch's `torch.func`): grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian
and vmap, with PyTorch's argument rules and messages.

They are built on the one reverse-mode engine (`api.grad`), not on a second interpreter:
- the differentiated arguments (pytrees of tensors) become fresh leaves, or differentiable aliases
  where they already require grad; a transform keeps the graph of its results (create_graph) exactly
  when the function's graph reaches a leaf it did not make, which is what lets transforms nest
  (`grad(grad(f))`, `jacfwd(jacrev(f))`) and compose with ordinary autograd; otherwise results are
  detached, as PyTorch returns them;
- forward mode (`jvp`, `jacfwd`) is computed by reverse mode: jvp by the double-vjp trick, jacfwd as
  jacrev (the same values);
- `vmap` calls the function once per batch element on slices of the mapped inputs and stacks the
  results, so values and gradients are PyTorch's, but the function sees unbatched tensors (it may call
  `.item()` or branch on values, where PyTorch refuses), only the default `randomness="error"` is
  built (a random draw inside vmap or jacfwd raises PyTorch's error), an empty batch is refused, and an
  output is treated as unbatched (`out_dims=None`) when it is equal across the batch.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from . import api, mode
from . import pytree
from .functional import _grad_preprocess, _zeros_like
from .graph import AccumulateGrad
from .policy import TORCH, policy_of
from ..tensor import Tensor

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "linearize", "jacrev", "jacfwd", "hessian", "vmap",
           "functionalize"]

_RANDOMNESS = ("error", "different", "same")


# ------------------------------------------------------------------------------- plumbing

def _check_argnums(argnums, count: int) -> tuple[int, ...]:
    if not isinstance(argnums, (int, tuple)) or (
            isinstance(argnums, tuple) and not all(isinstance(a, int) for a in argnums)):
        raise TORCH.errors.func_argnums_type(type=type(argnums))
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    if not nums:
        raise TORCH.errors.func_argnums_empty()
    for a in nums:
        if not -count <= a < count:
            raise TORCH.errors.func_argnum_range(argnum=a, count=count)
    normal = tuple(a % count for a in nums)
    if len(set(normal)) != len(normal):
        raise TORCH.errors.func_argnums_unique(argnums=normal)
    return normal


def _track(t) -> Tensor:
    """A tensor to differentiate with respect to: an alias of `t` where it requires grad (the outer
    graph goes on through it), else a fresh leaf (autograd.functional's preparation of inputs)."""
    if not isinstance(t, Tensor):
        raise TORCH.errors.func_not_tensor(type=type(t))
    return _grad_preprocess((t,), create_graph=True, need_graph=True)[0]


def _tracked_args(args: tuple, nums: tuple[int, ...]) -> tuple[list, list[list[Tensor]], list]:
    """The arguments with those at `nums` replaced by tracked copies: (new args, tracked leaves per
    argnum, spec per argnum)."""
    new, leaves, specs = list(args), [], []
    for i in nums:
        flat, spec = pytree.flatten(args[i])
        tracked = [_track(t) for t in flat]
        new[i] = pytree.unflatten(tracked, spec)
        leaves.append(tracked)
        specs.append(spec)
    return new, leaves, specs


def _regroup(flat: list, leaves: list[list], specs: list) -> list:
    """`flat` (one entry per tracked leaf, in order) cut back into one tree per differentiated argument."""
    trees, k = [], 0
    for group, spec in zip(leaves, specs):
        trees.append(pytree.unflatten(flat[k:k + len(group)], spec))
        k += len(group)
    return trees


def _reaches_outside(outputs, own: list[Tensor]) -> bool:
    """Whether the graph of `outputs` reaches a leaf requiring grad other than `own`: then results
    must keep their graph for an enclosing transform or ordinary autograd."""
    mine = {id(t) for t in own}
    seen, stack = set(), []
    for out in outputs:
        if not isinstance(out, Tensor) or not out._requires_grad:
            continue
        if out._grad_fn is None:
            if id(out) not in mine:
                return True
            continue
        stack.append(out._grad_fn)
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if isinstance(node, AccumulateGrad):
            if id(node.variable) not in mine:
                return True
            continue
        stack.extend(e[0] for e in node.next_edges if e is not None)
    return False


def _grads(outputs: list, inputs: list, seeds, keep: bool, retain: bool) -> list:
    """d outputs / d inputs against `seeds`, zeros where an input is not reached."""
    pairs = [(o, s) for o, s in zip(outputs, seeds) if o._requires_grad]
    if not pairs:
        return [_zeros_like(t) for t in inputs]
    got = api.grad([o for o, _ in pairs], inputs, [s for _, s in pairs], retain_graph=retain or keep,
                   create_graph=keep, allow_unused=True, policy=policy_of(*inputs))
    return [g if g is not None else _zeros_like(t) for g, t in zip(got, inputs)]


def _detach_tree(tree, keep: bool):
    if keep:
        return tree
    return pytree.tree_map(lambda t: t.detach() if isinstance(t, Tensor) else t, tree)


def _aux(tree, keep: bool):
    """The auxiliary output, every leaf a tensor (detached unless the graph is kept)."""
    for leaf in pytree.flatten(tree)[0]:
        if not isinstance(leaf, Tensor):
            raise TORCH.errors.func_aux_not_tensor(type=type(leaf))
    return _detach_tree(tree, keep)


def _split_aux(out, has_aux: bool, api_name: str):
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise TORCH.errors.func_aux_tuple(api=api_name)
    return out


# ------------------------------------------------------------------------------- grad

def grad_and_value(func: Callable, argnums=0, has_aux: bool = False) -> Callable:
    """A function returning (gradient of `func` w.r.t. the arguments at `argnums`, value of `func`);
    `func` returns a scalar tensor (and, with `has_aux`, an auxiliary object beside it)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        nums = _check_argnums(argnums, len(args))
        with mode._GradModeGuard(True):
            new_args, leaves, specs = _tracked_args(args, nums)
            out, aux = _split_aux(func(*new_args, **kwargs), has_aux, "grad_and_value(f)(*args)")
            if not isinstance(out, Tensor):
                raise TORCH.errors.func_grad_output_type(type=type(out))
            if out._data.ndim != 0:
                raise TORCH.errors.func_grad_output_scalar(ndim=out._data.ndim)
            flat = [t for group in leaves for t in group]
            keep = _reaches_outside([out], flat)
            got = _grads([out], flat, [None], keep, retain=False)
        grads = _regroup(got, leaves, specs)
        result = grads[0] if isinstance(argnums, int) else tuple(grads)
        value = _detach_tree(out, keep)
        if has_aux:
            return result, (value, _aux(aux, keep))
        return result, value

    return wrapper


def grad(func: Callable, argnums=0, has_aux: bool = False) -> Callable:
    """The gradient of `func` (a scalar tensor) w.r.t. the arguments at `argnums`, as a function
    (with `has_aux`: (gradient, aux))."""
    both = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        result, value = both(*args, **kwargs)
        return (result, value[1]) if has_aux else result

    return wrapper


# ------------------------------------------------------------------------------- vjp / jvp

def _output_leaves(out, api_name: str) -> tuple[list, pytree.TreeSpec]:
    flat, spec = pytree.flatten(out)
    for t in flat:
        if not isinstance(t, Tensor):
            raise TORCH.errors.func_vjp_output_type(api=api_name, type=type(t))
    return flat, spec


def vjp(func: Callable, *primals, has_aux: bool = False):
    """(func(*primals), vjp_fn[, aux]): vjp_fn(cotangents) gives, for each primal, the
    vector-Jacobian product against cotangents shaped as the output (a tuple, one entry per primal)."""
    nums = tuple(range(len(primals)))
    with mode._GradModeGuard(True):
        new_args, leaves, specs = _tracked_args(primals, nums)
        out, aux = _split_aux(func(*new_args), has_aux, "vjp(f, *primals)")
        flat_out, out_spec = _output_leaves(out, "vjp(f, *primals)")
    flat_in = [t for group in leaves for t in group]
    keep = _reaches_outside(flat_out, flat_in)

    def vjp_fn(cotangents):
        flat_ct, ct_spec = pytree.flatten(cotangents)
        if ct_spec != out_spec:
            raise TORCH.errors.func_cotangent_structure(cotangents=ct_spec.pretty(), output=out_spec.pretty())
        with mode._GradModeGuard(True):
            got = _grads(flat_out, flat_in, flat_ct, keep or _reaches_outside(flat_ct, []), retain=True)
        return tuple(_regroup(got, leaves, specs))

    shown = _detach_tree(out, keep)
    if has_aux:
        return shown, vjp_fn, _aux(aux, keep)
    return shown, vjp_fn


def jvp(func: Callable, primals, tangents, *, strict: bool = False, has_aux: bool = False):
    """(func(*primals), J tangents[, aux]), by the double-vjp trick on reverse mode."""
    if not isinstance(primals, tuple):
        raise TORCH.errors.func_jvp_tuple(name="primals")
    flat_p, p_spec = pytree.flatten(primals)
    flat_t, t_spec = pytree.flatten(tangents)
    if not flat_p:
        raise TORCH.errors.func_jvp_empty()
    for name, flat in (("primals", flat_p), ("tangents", flat_t)):
        for t in flat:
            if not isinstance(t, Tensor):
                raise TORCH.errors.func_jvp_not_tensor(name=name, type=type(t))
    if p_spec != t_spec:
        raise TORCH.errors.func_jvp_structure(primals=repr(p_spec), tangents=repr(t_spec))
    for p, t in zip(flat_p, flat_t):
        if p._data.shape != t._data.shape:
            raise TORCH.errors.func_jvp_tangent_size(primal_size=list(p._data.shape),
                                                     tangent_size=list(t._data.shape))
    with mode._GradModeGuard(True):
        new_args, leaves, _ = _tracked_args(primals, tuple(range(len(primals))))
        out, aux = _split_aux(func(*new_args), has_aux, "jvp(f, primals, tangents)")
        flat_out, out_spec = _output_leaves(out, "jvp(f, primals, tangents)")
        flat_in = [t for group in leaves for t in group]
        keep = _reaches_outside(flat_out, flat_in) or _reaches_outside(flat_t, [])
        dummies = [_zeros_like(o, requires_grad=True) for o in flat_out]
        back = _grads(flat_out, flat_in, dummies, keep=True, retain=True)
        if strict and not all(o._requires_grad for o in flat_out):
            raise TORCH.errors.func_jvp_strict_independent()
        forward = _grads(back, dummies, flat_t, keep, retain=keep)
    result = (_detach_tree(out, keep), pytree.unflatten(forward, out_spec))
    return (*result, _aux(aux, keep)) if has_aux else result


def linearize(func: Callable, *primals):
    """(func(*primals), jvp_fn): jvp_fn(*tangents) is the Jacobian-vector product at `primals`
    (PyTorch traces the function once; here each call runs jvp again, with the same values)."""
    out = jvp(func, primals, tuple(_zeros_like(p) if isinstance(p, Tensor) else p for p in primals))[0]
    p_spec = pytree.flatten(primals)[1]
    flat_p = pytree.flatten(primals)[0]

    def jvp_fn(*tangents):
        flat_t, t_spec = pytree.flatten(tangents)
        if t_spec != p_spec:
            raise TORCH.errors.func_linearize_structure(tangents=repr(t_spec), primals=repr(p_spec))
        for i, (p, t) in enumerate(zip(flat_p, flat_t)):
            if isinstance(t, Tensor) and t._data.shape != p._data.shape:
                raise TORCH.errors.func_linearize_shape(index=i, tangent=type(t)._size(t._data.shape),
                                                        primal=type(p)._size(p._data.shape))
        return jvp(func, primals, tangents)[1]

    return out, jvp_fn


def functionalize(func: Callable, *, remove: str = "mutations") -> Callable:
    """PyTorch's functionalize in eager mode: a function computing what `func` computes, mutations of
    its inputs included. PyTorch records the mutation-free program it rewrites `func` into; flowgrad
    runs `func` itself, so the values and gradients agree but a mutated view records CopySlices
    where PyTorch records a scatter node (SelectScatterBackward0, ...)."""
    if remove not in ("mutations", "mutations_and_views"):
        raise TORCH.errors.func_functionalize_remove(remove=remove)

    @functools.wraps(func)
    def functionalized(*args, **kwargs):
        return func(*args, **kwargs)
    return functionalized


# ------------------------------------------------------------------------------- Jacobians

def _jacobian(func: Callable, argnums, has_aux: bool, api_name: str) -> Callable:
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from ..ops import reshape, stack
        nums = _check_argnums(argnums, len(args))
        with mode._GradModeGuard(True):
            new_args, leaves, specs = _tracked_args(args, nums)
            out, aux = _split_aux(func(*new_args, **kwargs), has_aux, "vjp(f, *primals)")
            flat_out, out_spec = _output_leaves(out, "vjp(f, *primals)")
            flat_in = [t for group in leaves for t in group]
            keep = _reaches_outside(flat_out, flat_in)
            per_output = []
            for o in flat_out:
                shape, n = tuple(o._data.shape), o._data.size
                rows = []
                for k in range(n):
                    seed = _zeros_like(o)
                    seed._data.reshape(-1)[k] = 1
                    rows.append(_grads([o], flat_in, [seed], keep, retain=True))
                jacs = []
                for j, t in enumerate(flat_in):
                    if n:
                        jac = reshape(stack([r[j] for r in rows]), shape + tuple(t._data.shape))
                    else:
                        jac = t._new(t._data.reshape(-1)[:0].reshape(shape + tuple(t._data.shape)))
                    jacs.append(jac)
                groups = _regroup(jacs, leaves, specs)
                per_output.append(groups[0] if isinstance(argnums, int) else tuple(groups))
        result = pytree.unflatten(per_output, out_spec)
        if has_aux:
            return result, _aux(aux, keep)
        return result

    return wrapper


def jacrev(func: Callable, argnums=0, *, has_aux: bool = False, chunk_size: int | None = None,
           _preallocate_and_copy: bool = False) -> Callable:
    """The Jacobian of `func` w.r.t. the arguments at `argnums`, shaped `output.shape + input.shape`,
    one reverse pass per output element (`chunk_size` bounds PyTorch's batching of those passes: here
    they always run one by one, with the same values)."""
    if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
        raise TORCH.errors.func_jacrev_chunk_size()
    return _jacobian(func, argnums, has_aux, "jacrev")


def jacfwd(func: Callable, argnums=0, has_aux: bool = False, *, randomness: str = "error") -> Callable:
    """The Jacobian of `func` w.r.t. the arguments at `argnums`, as PyTorch's forward-mode jacfwd
    gives it, computed here by reverse mode (the same values; row by row as jacrev)."""
    if randomness not in _RANDOMNESS:
        raise TORCH.errors.func_randomness(randomness=randomness)
    if randomness != "error":
        raise TORCH.errors.func_randomness_unsupported(api="jacfwd", randomness=randomness)
    jac = _jacobian(func, argnums, has_aux, "jacfwd")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        token = mode._random_refused.set(TORCH)   # PyTorch's jacfwd runs under vmap's "error" mode
        try:
            return jac(*args, **kwargs)
        finally:
            mode._random_refused.reset(token)
    return wrapper


def hessian(func: Callable, argnums=0) -> Callable:
    """The Hessian of a scalar `func` w.r.t. the arguments at `argnums`: jacfwd(jacrev(func))."""
    return jacfwd(jacrev(func, argnums), argnums)


# ------------------------------------------------------------------------------- vmap

def _fn_name(func) -> str:
    if hasattr(func, "__name__"):
        return func.__name__
    if isinstance(func, functools.partial):
        return f"functools.partial({_fn_name(func.func)}, ...)"
    return repr(func)


def vmap(func: Callable, in_dims=0, out_dims=0, randomness: str = "error", *,
         chunk_size: int | None = None) -> Callable:
    """`func` mapped over a batch dimension of its inputs (`in_dims`: an int, or a tuple per
    argument, nested as the argument, None for an unmapped one), its outputs stacked along
    `out_dims`. Runs `func` once per batch element (see the module's note); keyword arguments are
    passed unmapped, as in PyTorch. `chunk_size` (PyTorch's batching of the calls) changes nothing
    here: the calls always run one by one."""
    if randomness not in _RANDOMNESS:
        raise TORCH.errors.func_randomness(randomness=randomness)
    if randomness != "error":
        raise TORCH.errors.func_randomness_unsupported(api="vmap", randomness=randomness)
    name = _fn_name(func)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from ..ops import select
        if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
            raise TORCH.errors.func_vmap_chunk_size(chunk_size=chunk_size)
        if not isinstance(out_dims, int):
            for d in pytree.flatten(out_dims)[0]:
                if d is not None and not isinstance(d, int):
                    raise TORCH.errors.func_vmap_out_dims_type(name=name, out_dims=out_dims)
        where = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>)"
        if not isinstance(in_dims, (int, tuple)):
            raise TORCH.errors.func_vmap_in_dims_type(where=where, type=type(in_dims))
        if not args:
            raise TORCH.errors.func_vmap_no_inputs(name=name)
        flat, spec = pytree.flatten(args)
        dims = pytree.broadcast_prefix(in_dims, spec)
        if dims is None:
            raise TORCH.errors.func_vmap_in_dims_structure(where=where, dims=repr(pytree.flatten(in_dims)[1]),
                                                           inputs=repr(spec))
        axes, sizes = [], []
        for leaf, d in zip(flat, dims):
            if d is not None and not isinstance(d, int):
                raise TORCH.errors.func_vmap_in_dim_value(where=where, dim=d)
            if d is not None and not isinstance(leaf, Tensor):
                raise TORCH.errors.func_vmap_in_dim_not_tensor(where=where, dim=d, type=type(leaf))
            if d is not None:
                nd = leaf._data.ndim
                if not -nd <= d < nd:
                    raise TORCH.errors.func_vmap_in_dim_range(where=where, dim=d, ndim=nd)
                d %= nd
                sizes.append(leaf._data.shape[d])
            axes.append(d)
        if not sizes:
            raise TORCH.errors.func_vmap_nothing_mapped()
        if len(set(sizes)) != 1:
            raise TORCH.errors.func_vmap_sizes(sizes=sizes)
        if sizes[0] == 0:
            raise TORCH.errors.func_vmap_empty_batch()
        results = []
        token = mode._random_refused.set(TORCH)   # randomness="error": a random draw inside raises
        try:
            for b in range(sizes[0]):
                sliced = [leaf if a is None else select(leaf, a, b) for leaf, a in zip(flat, axes)]
                results.append(func(*pytree.unflatten(sliced, spec), **kwargs))
        finally:
            mode._random_refused.reset(token)
        return _stack_outputs(results, out_dims, name)

    return wrapper


def _unbatched(items: list) -> bool:
    """Whether every batch element gave the same output (an output vmap leaves unbatched)."""
    first = items[0]
    if all(i is first for i in items):
        return True
    return isinstance(first, Tensor) and all(
        isinstance(i, Tensor) and i._data.shape == first._data.shape and bool((i._data == first._data).all())
        for i in items)


def _stack_outputs(results: list, out_dims, name: str) -> Any:
    from ..ops import normalize_dim, stack
    flat0, spec = pytree.flatten(results[0])
    if spec.is_leaf:
        odims = [out_dims[0]] if isinstance(out_dims, tuple) and len(out_dims) == 1 else (
            [out_dims] if out_dims is None or isinstance(out_dims, int) else None)
    else:
        odims = pytree.broadcast_prefix(out_dims, spec)
    if odims is None:
        raise TORCH.errors.func_vmap_out_dims_structure(name=name, out_dims=out_dims,
                                                        dims=repr(pytree.flatten(out_dims)[1]), outputs=repr(spec))
    columns = [pytree.flatten(r)[0] for r in results]
    stacked = []
    for k, d in enumerate(odims):
        items = [col[k] for col in columns]
        if d is None:
            if isinstance(items[0], Tensor) and not _unbatched(items):
                raise TORCH.errors.func_vmap_batched_out_none(name=name)
            stacked.append(items[0])
            continue
        bad = [i for i in items if not isinstance(i, Tensor)]
        if bad:
            raise TORCH.errors.func_vmap_output_type(name=name, type=type(bad[0]))
        stacked.append(stack(items, normalize_dim(d, items[0]._data.ndim + 1)))
    return pytree.unflatten(stacked, spec)
