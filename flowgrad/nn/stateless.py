"""functional_call: run a module with some of its parameters and buffers replaced by given tensors
(PyTorch's `torch.func.functional_call`), restoring them afterwards, even when the call raises; and
stack_module_state, the stacked parameters and buffers of several like modules (for vmap)."""
from __future__ import annotations

from typing import Any

from ..tensor import Tensor
from .module import Module


def _merge_dicts(dicts, policy) -> dict:
    if isinstance(dicts, dict):
        return dict(dicts)
    if isinstance(dicts, (list, tuple)):
        counts: dict = {}
        for d in dicts:
            for k in d:
                counts[k] = counts.get(k, 0) + 1
        repeated = [k for k, n in counts.items() if n > 1]
        if repeated:
            raise policy.errors.functional_call_repeated_keys(keys=repeated)
        return {k: v for d in dicts for k, v in d.items()}
    raise policy.errors.functional_call_dicts_type(type=type(dicts))


def _untie(module: Module, given: dict, policy) -> dict:
    """PyTorch's tie_weights: a value given for one name of a tensor registered under several names
    replaces it under all of them; different values for names of one tensor are refused."""
    names_of: dict[int, set] = {}
    for name, t in [*module.named_parameters(remove_duplicate=False), *module.named_buffers(remove_duplicate=False)]:
        if t is not None:
            names_of.setdefault(id(t), set()).add(name)
    tied = {n: group for group in names_of.values() if len(group) > 1 for n in group}
    out = dict(given)
    for name in given:
        group = tied.get(name)
        if group is None:
            continue
        values = {id(given[n]) for n in group if n in given}
        if len(values) > 1:
            raise policy.errors.functional_call_tied(keys=sorted(group))
        for other in group:
            out[other] = given[name]
    return out


def _owner(module: Module, name: str) -> tuple[Module, str]:
    *path, attr = name.split(".")
    for part in path:
        module = getattr(module, part)
    return module, attr


def _swap(module: Module, name: str, value) -> Any:
    """Put `value` under `name`, returning what was there (`_MISSING` for nothing)."""
    owner, attr = _owner(module, name)
    for store in (owner._parameters, owner._buffers):
        if attr in store:
            old, store[attr] = store[attr], value
            return old
    old = owner.__dict__.get(attr, _MISSING)
    if value is _MISSING:
        owner.__dict__.pop(attr, None)
    else:
        owner.__dict__[attr] = value
    return old


_MISSING = object()


def functional_call(module: Module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights: bool = True,
                    strict: bool = False):
    """`module(*args, **kwargs)` with the named parameters and buffers of `parameter_and_buffer_dicts`
    (a dict, or a list / tuple of dicts with distinct keys) in place of the module's own."""
    policy = module._tensor_cls.policy
    given = _merge_dicts(parameter_and_buffer_dicts, policy)
    for value in given.values():
        if not isinstance(value, Tensor):
            raise policy.errors.functional_call_not_tensor(value=value, module=policy.name)
    if tie_weights:
        given = _untie(module, given, policy)
    if strict:
        valid = {n for n, _ in [*module.named_parameters(remove_duplicate=False),
                                *module.named_buffers(remove_duplicate=False)]}
        missing, unexpected = sorted(valid - given.keys()), sorted(given.keys() - valid)
        unexpected_keys, missing_keys = ", ".join(map(repr, unexpected)), ", ".join(map(repr, missing))
        if unexpected and missing:
            raise policy.errors.functional_call_keys(module=module._get_name(), unexpected=unexpected_keys,
                                                     missing=missing_keys)
        if unexpected:
            raise policy.errors.functional_call_unexpected(module=module._get_name(), unexpected=unexpected_keys)
        if missing:
            raise policy.errors.functional_call_missing(module=module._get_name(), missing=missing_keys)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    originals: dict = {}
    try:
        for name, value in given.items():
            originals[name] = _swap(module, name, value)
        return module(*args, **(kwargs or {}))
    finally:
        for name, old in reversed(list(originals.items())):
            _swap(module, name, old)


def _stacked_leaf(tensors: list, name: str, policy):
    from .. import ops
    requires = [t._requires_grad for t in tensors]
    if any(requires) and not all(requires):
        raise policy.errors.func_stack_requires_grad(name=name)
    result = ops.stack(list(tensors), 0)
    return result.detach().requires_grad_(True) if all(requires) else result


def stack_module_state(models) -> tuple[dict, dict]:
    """(params, buffers): each parameter and buffer of the models stacked along a new first dim;
    the stacked parameters are new leaves (requiring grad where the originals do)."""
    if len(models) == 0:
        from ..autograd.policy import TORCH
        raise TORCH.errors.func_stack_no_models()
    policy = models[0]._tensor_cls.policy
    if not (all(m.training for m in models) or not any(m.training for m in models)):
        raise policy.errors.func_stack_modes()
    if not all(type(m) is type(models[0]) for m in models):
        raise policy.errors.func_stack_classes()
    all_params = [dict(m.named_parameters()) for m in models]
    params = {k: _stacked_leaf([p[k] for p in all_params], k, policy) for k in all_params[0]}
    all_buffers = [dict(m.named_buffers()) for m in models]
    buffers = {k: _stacked_leaf([b[k] for b in all_buffers], k, policy) for k in all_buffers[0]}
    return params, buffers
