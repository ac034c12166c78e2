"""paddle.optimizer: SGD, Momentum, Adam and AdamW with paddle's constructor arguments
(`learning_rate`, `parameters`, `beta1`, `weight_decay` as a float or L2Decay, `grad_clip`) and
methods (`step`, `clear_grad(set_to_zero=True)` zero-filling, `minimize`, `get_lr`, `set_lr`,
`state_dict`, `set_state_dict`) over flowgrad's framework-neutral optimizers, whose update
formulas match paddle's. Paddle's per-parameter rules: the rate is the optimizer's times the
parameter's `optimize_attr['learning_rate']` (its ParamAttr's, or its group's `learning_rate`), and a
parameter's `regularizer` (its ParamAttr's, or its group's `weight_decay`) replaces the optimizer's.
The state dict holds paddle's accumulators, `<param name>_<accumulator>_<n>`."""
from __future__ import annotations

import math

import numpy as np

from ... import optim as _optim
from ..nn.layer import _unique
from ..regularizer import L1Decay, L2Decay


def _params(parameters, weight_decay, keys: dict, decoupled: bool = False) -> list:
    """The neutral optimizer's parameter list: a group's paddle options under the neutral names, its
    `learning_rate` and (unless the decay is decoupled) `weight_decay` set on its parameters as
    paddle does."""
    if parameters is None:
        raise AttributeError("parameters argument given to the Optimizer should not be None in dygraph mode.")
    params = list(parameters)
    if not params or not isinstance(params[0], dict):
        return params
    groups = []
    for group in params:
        group = dict(group)
        lr = group.pop("learning_rate", 1.0)
        group["params"] = list(group["params"]) if not hasattr(group["params"], "_data") else [group["params"]]
        if decoupled:
            if "weight_decay" in group:
                group["weight_decay"] = _decay(group["weight_decay"])
        else:
            wd = group.pop("weight_decay", weight_decay)
            for p in group["params"]:
                p.regularizer = L2Decay(wd) if isinstance(wd, (int, float)) else wd
        for p in group["params"]:
            p.optimize_attr["learning_rate"] = lr
        if "beta1" in group or "beta2" in group:
            group["betas"] = (group.pop("beta1", keys["beta1"]), group.pop("beta2", keys["beta2"]))
        for name, neutral in (("epsilon", "eps"), ("use_nesterov", "nesterov")):
            if name in group:
                group[neutral] = group.pop(name)
        groups.append(group)
    return groups


def _decay(weight_decay) -> float:
    if weight_decay is None:
        return 0.0
    if isinstance(weight_decay, L1Decay):
        raise NotImplementedError("flowgrad's paddle optimizers support L2Decay (or a float) as weight_decay, not "
                                  "L1Decay")
    if isinstance(weight_decay, L2Decay):
        return weight_decay.coeff
    return float(weight_decay)


class Optimizer:
    """Paddle's optimizer interface, mixed into each flowgrad optimizer below."""

    _grad_clip = None
    _held: dict = {}  # the state dict set_state_dict was given, for accumulators not made yet
    # paddle's accumulators in state-dict order: (name, neutral state key, beta index for the pow accumulators)
    _accumulators: tuple = ()

    def _all_params(self) -> list:
        return [p for group in self.param_groups for p in group["params"]]

    def _param_lr(self, p, lr: float) -> float:
        attr = getattr(p, "optimize_attr", None)
        return lr if attr is None else lr * attr["learning_rate"]

    def _param_decay(self, p, weight_decay: float) -> float:
        reg = getattr(p, "regularizer", None)
        return weight_decay if reg is None else _decay(reg)

    def step(self) -> None:
        if self._grad_clip is not None:
            self._grad_clip(self._all_params())
        names = self.__dict__.setdefault("_acc_names", {})
        for group in self.param_groups:  # accumulators are named (and filled from a held state dict) on first use
            for p in group["params"]:
                if p._grad is not None and id(p) not in names:
                    names[id(p)] = [_unique(f"{p.name}_{a[0]}") for a in self._accs(group)]
                    if self._held:
                        self._load(p, group, self._held, "Optimizer set error, {} should in state dict", pop=True)
        super().step()

    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Zero-fill every parameter's gradient (set it to None with `set_to_zero=False`)."""
        for p in self._all_params():
            if p._grad is not None:
                p.clear_gradient(set_to_zero)

    clear_gradients = clear_grad

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Apply the gradients already computed by `loss.backward()` (as paddle's dygraph does)."""
        self.step()
        return None, [(p, p.grad) for p in self._all_params() if p.grad is not None]

    def get_lr(self) -> float:
        return float(self.param_groups[0]["lr"])

    def set_lr(self, value: float) -> None:
        for group in self.param_groups:
            group["lr"] = float(value)

    # ------------------------------------------------------------------ paddle's state dict
    def _accs(self, group: dict) -> list:
        return [a for a in self._accumulators if a[0] != "moment2_max" or group["amsgrad"]]

    def state_dict(self) -> dict:
        names = self.__dict__.get("_acc_names", {})
        if self._held and not names:
            return dict(self._held)
        rows = []
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state.get(p)
                if id(p) not in names or not state:
                    continue
                for acc, name in zip(self._accs(group), names[id(p)]):
                    t = state[acc[1]]
                    if len(acc) == 3:  # paddle keeps beta ** (step + 1)
                        beta = group["betas"][acc[2]]
                        t = _optim.optimizer.state_tensor(p, np.full((1,), beta ** (float(t._data) + 1),
                                                                     p._data.dtype))
                    t.name = name
                    rows.append((acc[0], t))
        return {t.name: t for acc in self._accumulators for a, t in rows if a == acc[0]}

    def set_state_dict(self, state_dict: dict) -> None:
        self._held = dict(state_dict)
        names = self.__dict__.get("_acc_names", {})
        for group in self.param_groups:
            for p in group["params"]:
                if id(p) in names:
                    self._load(p, group, self._held, "optimizer Tensor {} not found")

    load_state_dict = set_state_dict

    def _load(self, p, group: dict, values: dict, missing: str, pop: bool = False) -> None:
        """`p`'s accumulators from paddle's state dict, as the neutral optimizer keeps them."""
        state = self.state[p]
        for acc, name in zip(self._accs(group), self._acc_names[id(p)]):
            if name not in values:
                raise AssertionError(missing.format(name))
            v = values.pop(name) if pop else values[name]
            arr = np.asarray(v._data if hasattr(v, "_data") else v)
            if len(acc) == 3:  # the step count from beta ** (step + 1)
                beta = group["betas"][acc[2]]
                if 0 < beta and (acc[2] == 0 or group["betas"][0] == 0):
                    pow_ = max(float(arr.reshape(-1)[0]), np.finfo(np.float64).tiny)
                    state[acc[1]] = _optim.optimizer.step_state(p)
                    state[acc[1]]._data[...] = round(math.log(pow_) / math.log(beta)) - 1
                continue
            state[acc[1]] = _optim.optimizer.state_tensor(p, arr.astype(p._data.dtype, copy=True))


class SGD(Optimizer, _optim.SGD):
    def __init__(self, learning_rate: float = 0.001, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision: bool = False, name=None) -> None:
        _optim.SGD.__init__(self, _params(parameters, weight_decay, {}), lr=learning_rate,
                            weight_decay=_decay(weight_decay))
        self._grad_clip = grad_clip


class Momentum(Optimizer, _optim.SGD):
    """velocity = momentum * velocity + grad; param -= lr * velocity (Nesterov: lr * (grad + momentum * velocity))."""

    _accumulators = (("velocity", "momentum_buffer"),)

    def __init__(self, learning_rate: float = 0.001, momentum: float = 0.9, parameters=None,
                 use_nesterov: bool = False, weight_decay=None, grad_clip=None, multi_precision: bool = False,
                 rescale_grad: float = 1.0, use_multi_tensor: bool = False, name=None) -> None:
        _optim.SGD.__init__(self, _params(parameters, weight_decay, {}), lr=learning_rate, momentum=momentum,
                            weight_decay=_decay(weight_decay), nesterov=use_nesterov)
        self._grad_clip = grad_clip


class Adam(Optimizer, _optim.Adam):
    _accumulators = (("moment1", "exp_avg"), ("moment2", "exp_avg_sq"), ("moment2_max", "max_exp_avg_sq"),
                     ("beta1_pow_acc", "step", 0), ("beta2_pow_acc", "step", 1))

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-08,
                 parameters=None, weight_decay=None, grad_clip=None, lazy_mode: bool = False,
                 multi_precision: bool = False, use_multi_tensor: bool = False, amsgrad: bool = False,
                 name=None) -> None:
        _optim.Adam.__init__(self, _params(parameters, weight_decay, {"beta1": beta1, "beta2": beta2}),
                             lr=learning_rate, betas=(beta1, beta2), eps=epsilon, weight_decay=_decay(weight_decay),
                             amsgrad=amsgrad)
        self._grad_clip = grad_clip


class AdamW(Optimizer, _optim.AdamW):
    """Adam with decoupled weight decay; `apply_decay_param_fun(name)` picks the parameters it applies to."""

    _accumulators = Adam._accumulators

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-08,
                 parameters=None, weight_decay: float = 0.01, lr_ratio=None, apply_decay_param_fun=None,
                 grad_clip=None, lazy_mode: bool = False, multi_precision: bool = False, amsgrad: bool = False,
                 name=None) -> None:
        if lr_ratio is not None:
            raise NotImplementedError("flowgrad's paddle AdamW does not support lr_ratio")
        params = _params(parameters, None, {"beta1": beta1, "beta2": beta2}, decoupled=True)
        if any(getattr(p, "regularizer", None) is not None for g in params
               for p in (g["params"] if isinstance(g, dict) else [g])):
            raise NotImplementedError("flowgrad's paddle AdamW does not apply a parameter's regularizer (its "
                                      "ParamAttr's)")
        wd = _decay(weight_decay)
        if apply_decay_param_fun is not None and params and not isinstance(params[0], dict):
            decay = [p for p in params if apply_decay_param_fun(p.name)]
            rest = [p for p in params if not apply_decay_param_fun(p.name)]
            params = [g for g in ({"params": decay}, {"params": rest, "weight_decay": 0.0}) if g["params"]]
        _optim.AdamW.__init__(self, params, lr=learning_rate, betas=(beta1, beta2), eps=epsilon, weight_decay=wd,
                              amsgrad=amsgrad)
        self._grad_clip = grad_clip

    def _param_decay(self, p, weight_decay: float) -> float:
        return weight_decay  # the decoupled coefficient; a regularizer would add an L2 term (not built)


__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamW"]
