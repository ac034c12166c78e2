"""paddle.optimizer.lr: paddle's learning-rate schedulers (signatures, argument checks, messages,
state dicts) over flowgrad's optimizer-free schedules. An optimizer built with
`learning_rate=scheduler` reads `scheduler()` at every step; `scheduler.step()` advances it."""
from __future__ import annotations

import warnings

import numpy as _np

from ...optim import schedules as _s
from ...tensor import Tensor as _Tensor


def _check_lr(learning_rate) -> None:
    if not isinstance(learning_rate, (float, int)):
        raise TypeError(f"The type of learning rate must be float, but received {type(learning_rate)}")
    if learning_rate < 0:
        raise ValueError(f"Invalid learning rate: {learning_rate}")


def _check_gamma(gamma: float) -> None:
    if gamma >= 1.0:
        raise ValueError("gamma should be < 1.0.")


class LRScheduler(_s.Schedule):
    """Paddle's base class: subclass it and define `get_lr()` from `last_epoch` / `base_lr`."""

    def __init__(self, learning_rate: float = 0.1, last_epoch: int = -1, verbose: bool = False) -> None:
        _check_lr(learning_rate)
        _s.Schedule.__init__(self, learning_rate, last_epoch, verbose)

    def state_keys(self) -> None:
        self.keys = list(self._state_keys)

    def state_dict(self) -> dict:
        self.state_keys()
        out = {}
        for key in self.keys:
            if key in self.__dict__:
                value = self.__dict__[key]
                out[key] = float(value) if isinstance(value, _Tensor) else value
        return out

    def set_state_dict(self, state_dict: dict) -> None:
        self.state_keys()
        for key in self.keys:
            if key not in state_dict:
                raise RuntimeError("Please check whether state_dict is correct for optimizer. Can't find "
                                   f"[ {key} ] in state_dict")
            self.__dict__[key] = state_dict[key]
        if len(state_dict) > len(self.keys):
            warnings.warn("There are some unused values in state_dict. Maybe the optimizer have different "
                          "'LearningRateDecay' when invoking state_dict and set_dict")

    set_dict = set_state_dict


class StepDecay(LRScheduler, _s.StepSchedule):
    def __init__(self, learning_rate: float, step_size: int, gamma: float = 0.1, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if not isinstance(step_size, int):
            raise TypeError(f"The type of 'step_size' must be 'int', but received {type(step_size)}.")
        _check_gamma(gamma)
        if step_size <= 0:
            raise AssertionError(" 'step_size' must be a positive integer.")
        _check_lr(learning_rate)
        _s.StepSchedule.__init__(self, learning_rate, step_size, gamma, last_epoch, verbose)


class MultiStepDecay(LRScheduler, _s.MultiStepSchedule):
    def __init__(self, learning_rate: float, milestones, gamma: float = 0.1, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if not isinstance(milestones, (tuple, list)):
            raise TypeError("The type of 'milestones' in 'MultiStepDecay' must be 'tuple, list', but received "
                            f"{type(milestones)}.")
        if not all(a < b for a, b in zip(milestones, milestones[1:])):
            raise ValueError("The elements of milestones must be incremented")
        _check_gamma(gamma)
        _check_lr(learning_rate)
        _s.MultiStepSchedule.__init__(self, learning_rate, milestones, gamma, last_epoch, verbose)


class ExponentialDecay(LRScheduler, _s.ExponentialSchedule):
    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False) -> None:
        if not 0.0 < gamma < 1.0:
            raise AssertionError(" 'gamma' must be in interval (0.0, 1.0) so that the learning rate will decay.")
        _check_lr(learning_rate)
        _s.ExponentialSchedule.__init__(self, learning_rate, gamma, last_epoch, verbose)


class PiecewiseDecay(LRScheduler, _s.PiecewiseSchedule):
    def __init__(self, boundaries, values, last_epoch: int = -1, verbose: bool = False) -> None:
        if len(boundaries) == 0:
            raise ValueError("The boundaries cannot be empty.")
        if len(values) <= len(boundaries):
            raise ValueError(f"The values have one more element than boundaries, but received len(values) "
                             f"[{len(values)}] < len(boundaries) + 1 [{len(boundaries) + 1}].")
        _s.PiecewiseSchedule.__init__(self, boundaries, values, last_epoch, verbose)


class LambdaDecay(LRScheduler, _s.LambdaSchedule):
    def __init__(self, learning_rate: float, lr_lambda, last_epoch: int = -1, verbose: bool = False) -> None:
        if not callable(lr_lambda):
            raise TypeError("The type of 'lr_lambda' in 'LambdaDecay' must be 'function', but received "
                            f"{type(lr_lambda)}.")
        _check_lr(learning_rate)
        _s.LambdaSchedule.__init__(self, learning_rate, lr_lambda, last_epoch, verbose)


class CosineAnnealingDecay(LRScheduler, _s.CosineAnnealingSchedule):
    def __init__(self, learning_rate: float, T_max: int, eta_min: float = 0, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if not isinstance(T_max, int):
            raise TypeError(f"The type of 'T_max' in 'CosineAnnealingDecay' must be 'int', but received {type(T_max)}.")
        if not isinstance(eta_min, (float, int)):
            raise TypeError("The type of 'eta_min' in 'CosineAnnealingDecay' must be 'float, int', but received "
                            f"{type(eta_min)}.")
        if T_max <= 0:
            raise AssertionError(" 'T_max' must be a positive integer.")
        _check_lr(learning_rate)
        _s.CosineAnnealingSchedule.__init__(self, learning_rate, T_max, eta_min, last_epoch, verbose)


class LinearWarmup(LRScheduler, _s.LinearWarmupSchedule):
    def __init__(self, learning_rate, warmup_steps: int, start_lr: float, end_lr: float, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if not isinstance(learning_rate, (float, int, LRScheduler)):
            raise TypeError("the type of learning_rate should be [int, float or LRScheduler], the current type is "
                            f"{learning_rate}")
        if not (isinstance(warmup_steps, int) and warmup_steps > 0):
            raise AssertionError(" 'warmup_steps' must be a positive integer.")
        if not end_lr > start_lr:
            raise AssertionError(f"end_lr {end_lr} must be greater than start_lr {start_lr}")
        _check_lr(start_lr)
        _s.LinearWarmupSchedule.__init__(self, learning_rate, warmup_steps, start_lr, end_lr, last_epoch, verbose)

    def state_dict(self) -> dict:
        out = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            out["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return out

    def set_state_dict(self, state_dict: dict) -> None:
        super().set_state_dict(state_dict)
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.set_state_dict(state_dict["LinearWarmup_LR"])

    set_dict = set_state_dict


class ReduceOnPlateau(LRScheduler, _s.PlateauSchedule):
    def __init__(self, learning_rate: float, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0, min_lr: float = 0,
                 epsilon: float = 1e-8, verbose: bool = False) -> None:
        mode, threshold_mode = mode.lower(), threshold_mode.lower()
        if mode not in ("min", "max"):
            raise ValueError("mode: " + mode + " is unknown!")
        if factor >= 1.0:
            raise ValueError("new_lr = origin_lr * gamma and gamma should be < 1.0.")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode: " + threshold_mode + " is unknown!")
        if not isinstance(learning_rate, (float, int)):
            raise TypeError("The type of 'learning_rate' in 'ReduceOnPlateau' must be 'float', but received "
                            f"{type(learning_rate)}.")
        _s.PlateauSchedule.__init__(self, learning_rate, mode, factor, patience, threshold, threshold_mode, cooldown,
                                    min_lr, epsilon, verbose)

    def step(self, metrics, epoch: int | None = None) -> None:
        self._advance(epoch)
        if isinstance(metrics, (_Tensor, _np.ndarray)):
            size = metrics.size if isinstance(metrics, _np.ndarray) else metrics.numel()
            if int(size) != 1:
                raise AssertionError(f"the size of metrics must be 1, but the current metrics.size is {int(size)}. "
                                     "Maybe that you should call paddle.mean to process it first.")
            metrics = float(metrics)
        elif not isinstance(metrics, (int, float, _np.float32, _np.float64)):
            raise TypeError("metrics must be 'int', 'float', 'np.float64', 'numpy.ndarray' or 'paddle.Tensor', but "
                            f"receive {type(metrics)}")
        self._observe(metrics)


__all__ = ["LRScheduler", "StepDecay", "MultiStepDecay", "ExponentialDecay", "PiecewiseDecay", "LambdaDecay",
           "CosineAnnealingDecay", "LinearWarmup", "ReduceOnPlateau"]
