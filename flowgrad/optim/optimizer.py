"""Optimizer: parameter groups, per-parameter state, step hooks and state dicts (PyTorch's
torch.optim.Optimizer). Subclasses implement `_update_group(group)`, which runs under no_grad and
updates each parameter's array in place (bumping its version counter), as PyTorch's in-place
`param.add_(...)` does."""
from __future__ import annotations

import warnings
from collections import OrderedDict, defaultdict
from copy import deepcopy
from itertools import chain
from typing import Callable

from .. import backend
from ..autograd import mode
from ..autograd.graph import RemovableHandle, add_hook
from ..autograd.policy import policy_of
from ..nn.module import _typename
from ..tensor import Tensor, zero_grads


class _RequiredParameter:
    """Singleton marking a hyper-parameter that has no default."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def state_tensor(param: Tensor, arr) -> Tensor:
    """A state tensor (moment, step counter) of the parameter's facade tensor class."""
    return type(param)._out_cls._make(arr)


def real_view(arr):
    """How PyTorch's optimizers update a complex parameter, its gradient and its state: as pairs of
    reals (`view_as_real`), a float view of shape (..., 2) sharing the array's memory. Other arrays
    as they are."""
    if arr.dtype.kind != "c":
        return arr
    return arr[..., None].view(arr.real.dtype)


def zeros_state(param: Tensor) -> Tensor:
    d = param._data
    return state_tensor(param, backend.namespace(d).zeros_like(d))


def step_state(param: Tensor) -> Tensor:
    """PyTorch keeps `step` as a 0-dim tensor of the default float dtype."""
    return state_tensor(param, backend.namespace(param._data).zeros((), dtype=backend.default_float()))


def lerp_(a, b, weight: float) -> None:
    """a <- a + weight * (b - a), in place, with PyTorch's two-sided formula."""
    if weight < 0.5:
        a += weight * (b - a)
    else:
        a[...] = b - (b - a) * (1 - weight)


def decay_weight(pd, g, lr: float, wd: float, decoupled: bool):
    """PyTorch's weight decay of the Adam family: decoupled (the parameter shrinks in place by
    `lr * wd`) or L2 (`wd * p` added to the gradient). Returns the gradient to use."""
    if wd != 0:
        if decoupled:
            pd *= 1 - lr * wd
        else:
            g = g + wd * pd
    return g


def init_moments(state: dict, p: Tensor) -> None:
    """The Adam family's state of a parameter seen first: step and both moments at zero."""
    state["step"] = step_state(p)
    state["exp_avg"] = zeros_state(p)
    state["exp_avg_sq"] = zeros_state(p)


def update_moments(state: dict, g, beta1: float, beta2: float):
    """exp_avg <- lerp(exp_avg, g, 1 - beta1), exp_avg_sq <- beta2 exp_avg_sq + (1 - beta2) g^2,
    in place; returns both arrays."""
    ea, eas = real_view(state["exp_avg"]._data), real_view(state["exp_avg_sq"]._data)
    lerp_(ea, g, 1 - beta1)
    eas *= beta2
    eas += (1 - beta2) * (g * g)
    return ea, eas


def bump_all(state: dict, p: Tensor) -> None:
    """Count the in-place update of the parameter and of each of its state tensors."""
    for t in state.values():
        t._bump()
    p._bump()


def as_float(v) -> float:
    return float(v._data) if isinstance(v, Tensor) else v


def check_lr(policy, lr) -> None:
    if not 0.0 <= as_float(lr):
        raise policy.errors.optim_invalid_lr(lr=lr)


def check_adam_arguments(policy, lr, eps, betas, weight_decay) -> None:
    """PyTorch's checks of the Adam family's hyperparameters, in its order."""
    check_lr(policy, lr)
    if not 0.0 <= eps:
        raise policy.errors.optim_invalid_eps(eps=eps)
    for index in (0, 1):
        if not 0.0 <= betas[index] < 1.0:
            raise policy.errors.optim_invalid_beta(index=index, beta=betas[index])
    if not 0.0 <= weight_decay:
        raise policy.errors.optim_invalid_weight_decay(weight_decay=weight_decay)


# the values flowgrad builds of PyTorch's implementation switches (the non-capturable,
# non-differentiable path); the first is the default. foreach=True, PyTorch's multi-tensor form of the
# same update, is served by the per-parameter loop: the same numbers up to rounding.
_BUILT_OPTIONS = {"foreach": (None, False, True), "fused": (None, False), "capturable": (False,),
                  "differentiable": (False,)}


def check_built_options(policy, optimizer: str, **options) -> None:
    """Refuse a value of PyTorch's implementation switches (foreach, fused, capturable,
    differentiable) that flowgrad does not build."""
    for name, value in options.items():
        built = _BUILT_OPTIONS[name]
        if value not in built:
            raise policy.errors.argument_unsupported(name=optimizer, argument=name, value=value, default=built[0])


class Optimizer:
    """Base class of all optimizers."""

    def __init__(self, params, defaults: dict) -> None:
        self.defaults = defaults
        self._optimizer_step_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_step_post_hooks: OrderedDict = OrderedDict()
        self._optimizer_state_dict_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_state_dict_post_hooks: OrderedDict = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_load_state_dict_post_hooks: OrderedDict = OrderedDict()
        if isinstance(params, Tensor):
            raise params.policy.errors.optim_params_tensor(type=_typename(params))
        self._state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict] = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise policy_of(param_groups).errors.optim_empty()
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(dict(group) if not isinstance(group, dict) else group)

    @property
    def state(self) -> defaultdict:
        """Parameter -> its state (PyTorch's public attribute; paddle's optimizers have none)."""
        return self._state

    @state.setter
    def state(self, value: defaultdict) -> None:
        self._state = value

    def __getstate__(self) -> dict:
        return {"defaults": self.defaults, "state": self._state, "param_groups": self.param_groups}

    def __setstate__(self, state: dict) -> None:
        state = dict(state)
        self._state = state.pop("state")
        self.__dict__.update(state)
        for name in ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks", "_optimizer_state_dict_pre_hooks",
                     "_optimizer_state_dict_post_hooks", "_optimizer_load_state_dict_pre_hooks",
                     "_optimizer_load_state_dict_post_hooks"):
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())
        self.defaults.setdefault("differentiable", False)

    def __repr__(self) -> str:
        s = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            s += "\n"
            s += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    s += f"    {key}: {group[key]}\n"
        return s + ")"

    # ---------------------------------------------------------------------------- groups
    def add_param_group(self, param_group: dict) -> None:
        policy = policy_of(param_group, self.param_groups)
        if not isinstance(param_group, dict):
            raise policy.errors.optim_group_type(type=type(param_group))
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise policy.errors.optim_params_set()
        else:
            param_group["params"] = list(params)
        tensors, names = [], []
        for p in param_group["params"]:
            if isinstance(p, tuple):
                names.append(p[0])
                tensors.append(p[1])
            else:
                tensors.append(p)
        param_group["params"] = tensors
        if names:
            if len(names) == len(tensors):
                param_group["param_names"] = names
            else:
                raise policy.errors.optim_names_partial()
        for p in tensors:
            if not isinstance(p, Tensor):
                raise policy.errors.optim_not_tensor(type=_typename(p))
            if not self.defaults.get("differentiable", None) and not (p._grad_fn is None or p.retains_grad):
                raise policy.errors.optim_nonleaf()
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise policy.errors.optim_required(name=name)
            param_group.setdefault(name, default)
        if len(tensors) != len({id(p) for p in tensors}):
            warnings.warn(policy.errors.optim_duplicate_params(), stacklevel=3)
        seen = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with" if "param_names" in param_group else "without"
                raise policy.errors.optim_group_names(which=which)
        if any(id(p) in seen for p in tensors):
            raise policy.errors.optim_param_in_two_groups()
        self.param_groups.append(param_group)

    # ------------------------------------------------------------------------------ step
    def zero_grad(self, set_to_none: bool = True) -> None:
        zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure: Callable | None = None):
        """One update of every parameter that has a gradient (`closure` re-evaluates the loss)."""
        return self._hooked(self._update_groups, closure)

    def _update_groups(self, closure: Callable | None):
        loss = None
        if closure is not None:
            with mode.enable_grad():
                loss = closure()
        with mode.no_grad():
            for group in self.param_groups:
                self._update_group(group)
        return loss

    def _hooked(self, body: Callable, closure: Callable | None):
        """Run `body(closure)` between the step pre- and post-hooks, as PyTorch's patched `step` does."""
        for hook in list(self._optimizer_step_pre_hooks.values()):
            res = hook(self, (), {})
            if res is not None:
                raise policy_of(self.param_groups).errors.optim_step_pre_hook_result(func=type(self).step,
                                                         hook=hook, result=res)
        loss = body(closure)
        for hook in list(self._optimizer_step_post_hooks.values()):
            hook(self, (), {})
        return loss

    def _update_group(self, group: dict) -> None:
        raise NotImplementedError

    @staticmethod
    def _grads(group: dict):
        """(param, grad array) for each parameter of the group that has a gradient."""
        out = []
        for p in group["params"]:
            g = p._grad
            if g is not None:
                out.append((p, g._data))
        return out

    def _param_steps(self, group: dict):
        """(param, grad array, lr, weight decay) for each parameter of the group that has a
        gradient; the gradient negated where the group maximizes, a complex one as pairs of reals
        (`real_view`: the update views the parameter and its state so too)."""
        group_lr, group_wd = as_float(group["lr"]), group.get("weight_decay", 0)
        maximize = group.get("maximize", False)
        for p, g in self._grads(group):
            yield p, real_view(-g if maximize else g), self._param_lr(p, group_lr), self._param_decay(p, group_wd)

    def _param_lr(self, p: Tensor, lr: float) -> float:
        """The learning rate that updates `p` (a facade may scale the group's per parameter)."""
        return lr

    def _param_decay(self, p: Tensor, weight_decay: float) -> float:
        """The weight decay applied to `p` (a facade may set it per parameter)."""
        return weight_decay

    @staticmethod
    def _bump(p: Tensor) -> None:
        p._bump()

    def register_step_pre_hook(self, hook) -> RemovableHandle:
        return add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook) -> RemovableHandle:
        return add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        return add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        return add_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        return add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        return add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # ------------------------------------------------------------------------ state dict
    def state_dict(self) -> dict:
        for hook in self._optimizer_state_dict_pre_hooks.values():
            hook(self)
        mapping: dict[int, int] = {}
        start = 0

        def pack(group):
            nonlocal start
            packed = {k: v for k, v in group.items() if k != "params"}
            mapping.update({id(p): i for i, p in enumerate(group["params"], start) if id(p) not in mapping})
            packed["params"] = [mapping[id(p)] for p in group["params"]]
            start += len(packed["params"])
            return packed

        groups = [pack(g) for g in self.param_groups]
        state = {(mapping[id(k)] if isinstance(k, Tensor) else k): v for k, v in self._state.items()}
        out = {"state": state, "param_groups": groups}
        for hook in self._optimizer_state_dict_post_hooks.values():
            res = hook(self, out)
            if res is not None:
                out = res
        return out

    def load_state_dict(self, state_dict: dict) -> None:
        state_dict = state_dict.copy()
        for hook in self._optimizer_load_state_dict_pre_hooks.values():
            res = hook(self, state_dict)
            if res is not None:
                state_dict = res
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise policy_of(self.param_groups).errors.optim_load_group_count()
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise policy_of(self.param_groups).errors.optim_load_group_size()
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))

        def cast(param, value, key=None):
            if isinstance(value, Tensor):
                arr = value._data
                if key != "step":
                    if param._data.dtype.kind in "fV" and arr.dtype.kind in "fV":
                        arr = arr.astype(param._data.dtype)
                    arr = backend.to_device(arr, param.device)
                return state_tensor(param, arr.copy())
            if isinstance(value, dict):
                return {k: cast(param, v, k) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(cast(param, v) for v in value)
            return value

        state: defaultdict = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = cast(param, v)
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        self.__setstate__({"state": state, "param_groups": [update_group(g, ng) for g, ng in zip(groups,
                                                                                                 saved_groups)]})
        for hook in self._optimizer_load_state_dict_post_hooks.values():
            hook(self)
