"""Optimizer-free learning-rate schedules: a value that `step()` advances by one epoch and an
optimizer reads by calling the schedule (paddle's `paddle.optimizer.lr` model, where the optimizer
holds the schedule rather than the schedule rewriting the optimizer's groups). Each schedule is a
formula of `last_epoch`; `step(epoch)` jumps to an epoch by the closed form where the formula is
recursive. Argument checks and messages are the facade's."""
from __future__ import annotations

import math
from typing import Callable, Sequence


class Schedule:
    """`base_lr`, `last_lr`, `last_epoch`; `step()` moves to the next epoch and recomputes `last_lr`.
    `_state_keys` names what the state dict holds."""

    _state_keys: tuple = ("last_epoch", "last_lr")

    def __init__(self, learning_rate: float = 0.1, last_epoch: int = -1, verbose: bool = False) -> None:
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self.step()

    def __call__(self) -> float:
        return self.last_lr

    def step(self, epoch: int | None = None) -> None:
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            self.last_epoch = epoch
            self.last_lr = self._closed_form_lr()
        self._announce()

    def _announce(self) -> None:
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to {self.last_lr}.")

    def get_lr(self) -> float:
        raise NotImplementedError

    def _closed_form_lr(self) -> float:
        return self.get_lr()

    def state_dict(self) -> dict:
        return {key: self.__dict__[key] for key in self._state_keys if key in self.__dict__}

    def _set_state(self, state_dict: dict) -> None:
        for key in self._state_keys:
            self.__dict__[key] = state_dict[key]


class StepSchedule(Schedule):
    """base_lr * gamma ** (epoch // step_size)."""

    def __init__(self, learning_rate: float, step_size: int, gamma: float = 0.1, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.step_size, self.gamma = step_size, gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.gamma ** (self.last_epoch // self.step_size)


class MultiStepSchedule(Schedule):
    """base_lr * gamma ** (number of milestones reached)."""

    def __init__(self, learning_rate: float, milestones: Sequence[int], gamma: float = 0.1, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.milestones, self.gamma = milestones, gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        reached = next((i for i, m in enumerate(self.milestones) if self.last_epoch < m), len(self.milestones))
        return self.base_lr * self.gamma ** reached


class ExponentialSchedule(Schedule):
    """base_lr * gamma ** epoch."""

    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False) -> None:
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.gamma ** self.last_epoch


class PiecewiseSchedule(Schedule):
    """values[i] for the first boundary the epoch has not reached (the last value past them all)."""

    def __init__(self, boundaries: Sequence[int], values: Sequence[float], last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.boundaries, self.values = boundaries, values
        super().__init__(0.0, last_epoch, verbose)

    def get_lr(self) -> float:
        i = next((i for i, b in enumerate(self.boundaries) if self.last_epoch < b), len(self.values) - 1)
        return self.values[i]


class LambdaSchedule(Schedule):
    """base_lr * lr_lambda(epoch)."""

    def __init__(self, learning_rate: float, lr_lambda: Callable[[int], float], last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.lr_lambda(self.last_epoch)


class CosineAnnealingSchedule(Schedule):
    """SGDR's cosine annealing, recursive from the last value (closed form for `step(epoch)`)."""

    def __init__(self, learning_rate: float, T_max: int, eta_min: float = 0.0, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.T_max, self.eta_min = T_max, float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        e, t = self.last_epoch, self.T_max
        if e == 0:
            return self.base_lr
        if (e - 1 - t) % (2 * t) == 0:
            return self.last_lr + (self.base_lr - self.eta_min) * (1 - math.cos(math.pi / t)) / 2
        return ((1 + math.cos(math.pi * e / t)) / (1 + math.cos(math.pi * (e - 1) / t))
                * (self.last_lr - self.eta_min) + self.eta_min)

    def _closed_form_lr(self) -> float:
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2


class LinearWarmupSchedule(Schedule):
    """start_lr -> end_lr linearly over `warmup_steps` epochs, then `learning_rate` (a number, or a
    schedule stepped to epoch - warmup_steps)."""

    def __init__(self, learning_rate, warmup_steps: int, start_lr: float, end_lr: float, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.learning_rate, self.warmup_steps = learning_rate, warmup_steps
        self.start_lr, self.end_lr = start_lr, end_lr
        super().__init__(start_lr, last_epoch, verbose)

    def get_lr(self) -> float:
        if self.last_epoch < self.warmup_steps:
            return (self.end_lr - self.start_lr) * float(self.last_epoch) / float(self.warmup_steps) + self.start_lr
        if isinstance(self.learning_rate, Schedule):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return self.learning_rate


class PlateauSchedule(Schedule):
    """Multiplies the rate by `factor` once a metric has not improved for more than `patience` steps,
    then waits `cooldown` steps (not comparing) before counting again; a reduction smaller than
    `epsilon` is skipped and the rate never goes below `min_lr`."""

    _state_keys = ("cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr")

    def __init__(self, learning_rate: float, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0, min_lr: float = 0,
                 epsilon: float = 1e-8, verbose: bool = False) -> None:
        self.mode, self.factor, self.patience = mode, factor, patience
        self.threshold, self.threshold_mode, self.cooldown = threshold, threshold_mode, cooldown
        self.min_lr, self.epsilon = min_lr, epsilon
        self.cooldown_counter, self.best, self.num_bad_epochs = 0, None, 0
        self.base_lr = self.last_lr = float(learning_rate)
        self.last_epoch, self.verbose = 0, verbose

    def step(self, metrics, epoch: int | None = None) -> None:
        self._advance(epoch)
        self._observe(metrics)

    def _advance(self, epoch: int | None) -> None:
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch

    def _observe(self, metrics) -> None:
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._is_better(metrics, self.best):
            self.best, self.num_bad_epochs = metrics, 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                self._announce()

    def _is_better(self, current, best) -> bool:
        margin = best * self.threshold if self.threshold_mode == "rel" else self.threshold
        return current < best - margin if self.mode == "min" else current > best + margin


__all__ = ["Schedule", "StepSchedule", "MultiStepSchedule", "ExponentialSchedule", "PiecewiseSchedule",
           "LambdaSchedule", "CosineAnnealingSchedule", "LinearWarmupSchedule", "PlateauSchedule"]
