"""paddle.optimizer: SGD, Momentum, Adam, AdamW, RMSProp, Adagrad and Adamax with paddle's constructor arguments
(`learning_rate`, `parameters`, `beta1`, `weight_decay` as a float or L2Decay, `grad_clip`) and
methods (`step`, `clear_grad(set_to_zero=True)` zero-filling, `minimize`, `get_lr`, `set_lr`,
`state_dict`, `set_state_dict`) over flowgrad's framework-neutral optimizers, whose update
formulas match paddle's. Paddle's per-parameter rules: the rate is the optimizer's times the
parameter's `optimize_attr['learning_rate']` (its ParamAttr's, or its group's `learning_rate`), and a
parameter's `regularizer` (its ParamAttr's, or its group's `weight_decay`) replaces the optimizer's.
The state dict holds paddle's accumulators, `<param name>_<accumulator>_<n>`."""
from __future__ import annotations

from ... import optim as _optim
from ...optim.named_state import Accumulator, NamedState
from .._policy import PADDLE
from ..nn.layer import _unique
from ..regularizer import L1Decay, L2Decay
from . import lr


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


def _rate(learning_rate) -> float:
    """The starting rate of a float or an `lr.LRScheduler` (which the optimizer then reads each step)."""
    if not isinstance(learning_rate, (float, lr.LRScheduler)):
        raise TypeError(f"learning rate should be float or LRScheduler, got {type(learning_rate)} here")
    return learning_rate() if isinstance(learning_rate, lr.LRScheduler) else learning_rate


class Optimizer(NamedState):
    """Paddle's optimizer interface, mixed into each flowgrad optimizer below; its state dict holds
    paddle's accumulators (`NamedState`) and, with a scheduler, its state as `LR_Scheduler`."""

    _grad_clip = None
    _learning_rate = None

    @property
    def state(self):
        """paddle's optimizers keep their accumulators out of sight (state_dict() names them)."""
        raise PADDLE.errors.nn_no_attribute(cls=type(self).__name__, name="state")

    def _setup(self, learning_rate, grad_clip) -> None:
        self._learning_rate, self._grad_clip = learning_rate, grad_clip

    def _given(self, parameters, weight_decay, keys: dict, decoupled: bool = False) -> list:
        """`_params`, keeping the parameters as given in paddle's `_parameter_list` (the parameters,
        or a dict per group)."""
        self._parameter_list = None if parameters is None else list(parameters)
        return _params(self._parameter_list, weight_decay, keys, decoupled)

    def _all_params(self) -> list:
        return [p for group in self.param_groups for p in group["params"]]

    def _param_lr(self, p, lr: float) -> float:
        attr = getattr(p, "optimize_attr", None)
        return lr if attr is None else lr * attr["learning_rate"]

    def _param_decay(self, p, weight_decay: float) -> float:
        reg = getattr(p, "regularizer", None)
        return weight_decay if reg is None else _decay(reg)

    def _accumulator_name(self, param, accumulator) -> str:
        return _unique(f"{param.name}_{accumulator.name}")

    def _named(self, t, name: str):
        t.name = name
        return t

    def _scheduler(self):
        return self._learning_rate if isinstance(self._learning_rate, lr.LRScheduler) else None

    def step(self) -> None:
        if self._grad_clip is not None:
            self._grad_clip(self._all_params())
        self._name_accumulators()
        if self._scheduler() is not None:
            for group in self.param_groups:
                group["lr"] = float(self._learning_rate())
        super().step()

    def state_dict(self) -> dict:
        out = super().state_dict()
        if self._scheduler() is not None:
            out["LR_Scheduler"] = self._learning_rate.state_dict()
        return out

    def set_state_dict(self, state_dict: dict) -> None:
        if self._scheduler() is not None:
            sched_state = state_dict.get("LR_Scheduler")
            if not isinstance(self._learning_rate, lr.LambdaDecay) and sched_state is None:
                raise AssertionError("LR_Scheduler state must be included in the state dict except LambdaDecay")
            if sched_state:
                self._learning_rate.set_state_dict(sched_state)
        super().set_state_dict({k: v for k, v in state_dict.items() if k != "LR_Scheduler"})

    load_state_dict = set_state_dict

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
        if self._scheduler() is not None:
            return self._learning_rate()
        return float(self.param_groups[0]["lr"])

    def set_lr(self, value: float) -> None:
        if not isinstance(value, (int, float)):
            raise TypeError(f"The type of 'value' in optimizer.set_lr must be float, but received {type(value)}.")
        if self._scheduler() is not None:
            raise RuntimeError("optimizer's learning rate can't be LRScheduler when invoke this API, because this "
                               "will lead to conflict.")
        self._learning_rate = float(value)
        for group in self.param_groups:
            group["lr"] = float(value)

    def set_lr_scheduler(self, scheduler) -> None:
        if not isinstance(scheduler, lr.LRScheduler):
            raise TypeError("The type of 'scheduler' in optimizer.set_lr_scheduler must be LRScheduler, but received "
                            f"{type(scheduler)}.")
        self._learning_rate = scheduler



class SGD(Optimizer, _optim.SGD):
    def __init__(self, learning_rate: float = 0.001, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision: bool = False, name=None) -> None:
        _optim.SGD.__init__(self, self._given(parameters, weight_decay, {}), lr=_rate(learning_rate),
                            weight_decay=_decay(weight_decay))
        self._setup(learning_rate, grad_clip)


class Momentum(Optimizer, _optim.SGD):
    """velocity = momentum * velocity + grad; param -= lr * velocity (Nesterov: lr * (grad + momentum * velocity))."""

    _accumulators = (Accumulator("velocity", "momentum_buffer"),)

    def __init__(self, learning_rate: float = 0.001, momentum: float = 0.9, parameters=None,
                 use_nesterov: bool = False, weight_decay=None, grad_clip=None, multi_precision: bool = False,
                 rescale_grad: float = 1.0, use_multi_tensor: bool = False, name=None) -> None:
        _optim.SGD.__init__(self, self._given(parameters, weight_decay, {}), lr=_rate(learning_rate), momentum=momentum,
                            weight_decay=_decay(weight_decay), nesterov=use_nesterov)
        self._setup(learning_rate, grad_clip)


class Adam(Optimizer, _optim.Adam):
    _accumulators = (Accumulator("moment1", "exp_avg"), Accumulator("moment2", "exp_avg_sq"),
                     Accumulator("moment2_max", "max_exp_avg_sq", when="amsgrad"),
                     Accumulator("beta1_pow_acc", "step", beta=0), Accumulator("beta2_pow_acc", "step", beta=1))

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-08,
                 parameters=None, weight_decay=None, grad_clip=None, lazy_mode: bool = False,
                 multi_precision: bool = False, use_multi_tensor: bool = False, amsgrad: bool = False,
                 name=None) -> None:
        _optim.Adam.__init__(self, self._given(parameters, weight_decay, {"beta1": beta1, "beta2": beta2}),
                             lr=_rate(learning_rate), betas=(beta1, beta2), eps=epsilon,
                             weight_decay=_decay(weight_decay),
                             amsgrad=amsgrad)
        self._setup(learning_rate, grad_clip)


class AdamW(Optimizer, _optim.AdamW):
    """Adam with decoupled weight decay; `apply_decay_param_fun(name)` picks the parameters it applies to."""

    _accumulators = Adam._accumulators

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-08,
                 parameters=None, weight_decay: float = 0.01, lr_ratio=None, apply_decay_param_fun=None,
                 grad_clip=None, lazy_mode: bool = False, multi_precision: bool = False, amsgrad: bool = False,
                 name=None) -> None:
        if lr_ratio is not None:
            raise NotImplementedError("flowgrad's paddle AdamW does not support lr_ratio")
        params = self._given(parameters, None, {"beta1": beta1, "beta2": beta2}, decoupled=True)
        if any(getattr(p, "regularizer", None) is not None for g in params
               for p in (g["params"] if isinstance(g, dict) else [g])):
            raise NotImplementedError("flowgrad's paddle AdamW does not apply a parameter's regularizer (its "
                                      "ParamAttr's)")
        wd = _decay(weight_decay)
        if apply_decay_param_fun is not None and params and not isinstance(params[0], dict):
            decay = [p for p in params if apply_decay_param_fun(p.name)]
            rest = [p for p in params if not apply_decay_param_fun(p.name)]
            params = [g for g in ({"params": decay}, {"params": rest, "weight_decay": 0.0}) if g["params"]]
        _optim.AdamW.__init__(self, params, lr=_rate(learning_rate), betas=(beta1, beta2), eps=epsilon, weight_decay=wd,
                              amsgrad=amsgrad)
        self._setup(learning_rate, grad_clip)

    def _param_decay(self, p, weight_decay: float) -> float:
        return weight_decay  # the decoupled coefficient; a regularizer would add an L2 term (not built)


class RMSProp(Optimizer, _optim.RMSprop):
    """mean_square = rho * mean_square + (1 - rho) * g^2 (centered: minus mean_grad^2);
    momentum = momentum * momentum + lr * g / sqrt(mean_square + epsilon); param -= momentum."""

    _accumulators = (Accumulator("momentum", "momentum_buffer"), Accumulator("mean_square", "square_avg"),
                     Accumulator("mean_grad", "grad_avg"))

    def __init__(self, learning_rate: float, rho: float = 0.95, epsilon: float = 1e-06, momentum: float = 0.0,
                 centered: bool = False, parameters=None, weight_decay=None, grad_clip=None, name=None) -> None:
        for value, text in ((learning_rate, "learning_rate"), (rho, "rho"), (epsilon, "epsilon"),
                            (momentum, "momentum")):
            if value is None:
                raise ValueError(f"{text} is not set.")
        if not 0.0 <= epsilon:
            raise ValueError("Invalid value of epsilon, expect epsilon >= 0.")
        if not 0.0 <= momentum:
            raise ValueError("Invalid value of momentum, expect momentum >= 0.")
        if not 0.0 <= rho:
            raise ValueError("Invalid value of rho, expect rho >= 0.")
        _optim.RMSprop.__init__(self, self._given(parameters, weight_decay, {}), lr=_rate(learning_rate), alpha=rho,
                                eps=epsilon, weight_decay=_decay(weight_decay), momentum=momentum, centered=centered,
                                eps_inside_sqrt=True, lr_in_buffer=True, all_buffers=True)
        self._setup(learning_rate, grad_clip)


class Adagrad(Optimizer, _optim.Adagrad):
    """moment += g^2; param -= lr * g / (sqrt(moment) + epsilon)."""

    _accumulators = (Accumulator("moment", "sum"),)

    def __init__(self, learning_rate: float, epsilon: float = 1e-06, parameters=None, weight_decay=None,
                 grad_clip=None, name=None, initial_accumulator_value: float = 0.0) -> None:
        if learning_rate is None or epsilon is None:
            raise AssertionError()
        _optim.Adagrad.__init__(self, self._given(parameters, weight_decay, {}), lr=_rate(learning_rate), eps=epsilon,
                                weight_decay=_decay(weight_decay), initial_accumulator_value=initial_accumulator_value)
        self._setup(learning_rate, grad_clip)


class Adamax(Optimizer, _optim.Adamax):
    """moment = beta1 * moment + (1 - beta1) * g; inf_norm = max(beta2 * inf_norm + epsilon, |g|);
    param -= lr / (1 - beta1^t) * moment / inf_norm."""

    _accumulators = (Accumulator("moment", "exp_avg"), Accumulator("inf_norm", "exp_inf"),
                     Accumulator("beta1_pow_acc", "step", beta=0))

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-08,
                 parameters=None, weight_decay=None, grad_clip=None, name=None) -> None:
        if learning_rate is None or beta1 is None or beta2 is None or epsilon is None:
            raise AssertionError()
        if not 0 <= beta1 < 1:
            raise ValueError("Invalid value of beta1, expect beta1 in [0,1).")
        if not 0 <= beta2 < 1:
            raise ValueError("Invalid value of beta2, expect beta2 in [0,1).")
        if not 0 <= epsilon:
            raise ValueError("Invalid value of epsilon, expect epsilon >= 0.")
        _optim.Adamax.__init__(self, self._given(parameters, weight_decay, {"beta1": beta1, "beta2": beta2}),
                               lr=_rate(learning_rate), betas=(beta1, beta2), eps=epsilon,
                               weight_decay=_decay(weight_decay), eps_in_decay=True)
        self._setup(learning_rate, grad_clip)


__all__ = ["lr", "Optimizer", "SGD", "Momentum", "Adam", "AdamW", "RMSProp", "Adagrad", "Adamax"]
