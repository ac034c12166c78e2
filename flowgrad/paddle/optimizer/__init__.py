"""paddle.optimizer: SGD, Momentum, Adam and AdamW with paddle's constructor arguments
(`learning_rate`, `parameters`, `beta1`, `weight_decay` as a float or L2Decay, `grad_clip`) and
methods (`step`, `clear_grad(set_to_zero=True)` zero-filling, `minimize`, `get_lr`, `set_lr`,
`state_dict`, `set_state_dict`) over flowgrad's framework-neutral optimizers, whose update
formulas match paddle's."""
from __future__ import annotations

from ... import optim as _optim
from ..regularizer import L1Decay, L2Decay


def _params(parameters) -> list:
    if parameters is None:
        raise AttributeError("parameters argument given to the Optimizer should not be None in dygraph mode.")
    return list(parameters)


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

    def _all_params(self) -> list:
        return [p for group in self.param_groups for p in group["params"]]

    def step(self) -> None:
        if self._grad_clip is not None:
            self._grad_clip(self._all_params())
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

    def set_state_dict(self, state_dict: dict) -> None:
        self.load_state_dict(state_dict)


class SGD(Optimizer, _optim.SGD):
    def __init__(self, learning_rate: float = 0.001, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision: bool = False, name=None) -> None:
        _optim.SGD.__init__(self, _params(parameters), lr=learning_rate, weight_decay=_decay(weight_decay))
        self._grad_clip = grad_clip


class Momentum(Optimizer, _optim.SGD):
    """velocity = momentum * velocity + grad; param -= lr * velocity (Nesterov: lr * (grad + momentum * velocity))."""

    def __init__(self, learning_rate: float = 0.001, momentum: float = 0.9, parameters=None,
                 use_nesterov: bool = False, weight_decay=None, grad_clip=None, multi_precision: bool = False,
                 rescale_grad: float = 1.0, use_multi_tensor: bool = False, name=None) -> None:
        _optim.SGD.__init__(self, _params(parameters), lr=learning_rate, momentum=momentum,
                            weight_decay=_decay(weight_decay), nesterov=use_nesterov)
        self._grad_clip = grad_clip


class Adam(Optimizer, _optim.Adam):
    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-08,
                 parameters=None, weight_decay=None, grad_clip=None, lazy_mode: bool = False,
                 multi_precision: bool = False, use_multi_tensor: bool = False, amsgrad: bool = False,
                 name=None) -> None:
        _optim.Adam.__init__(self, _params(parameters), lr=learning_rate, betas=(beta1, beta2), eps=epsilon,
                             weight_decay=_decay(weight_decay), amsgrad=amsgrad)
        self._grad_clip = grad_clip


class AdamW(Optimizer, _optim.AdamW):
    """Adam with decoupled weight decay; `apply_decay_param_fun(name)` picks the parameters it applies to."""

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-08,
                 parameters=None, weight_decay: float = 0.01, lr_ratio=None, apply_decay_param_fun=None,
                 grad_clip=None, lazy_mode: bool = False, multi_precision: bool = False, amsgrad: bool = False,
                 name=None) -> None:
        params = _params(parameters)
        wd = _decay(weight_decay)
        if apply_decay_param_fun is not None and params and not isinstance(params[0], dict):
            decay = [p for p in params if apply_decay_param_fun(p.name)]
            rest = [p for p in params if not apply_decay_param_fun(p.name)]
            params = [g for g in ({"params": decay}, {"params": rest, "weight_decay": 0.0}) if g["params"]]
        _optim.AdamW.__init__(self, params, lr=learning_rate, betas=(beta1, beta2), eps=epsilon, weight_decay=wd,
                              amsgrad=amsgrad)
        self._grad_clip = grad_clip


__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamW"]
