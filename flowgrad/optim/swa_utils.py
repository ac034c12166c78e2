"""Stochastic weight averaging (PyTorch's torch.optim.swa_utils): AveragedModel keeps a running
(or exponential) average of a model's parameters, SWALR anneals each group's lr to its SWA lr,
update_bn recomputes batch-norm statistics with the averaged weights."""
from __future__ import annotations

import itertools
import math
import warnings
from copy import deepcopy

from .. import ops
from ..autograd import mode
from ..nn.layers import _BatchNorm
from ..nn.module import Module
from .lr_cycles import _format_param
from .lr_scheduler import LRScheduler, _policy
from .optimizer import lerp_

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn", "get_swa_multi_avg_fn", "get_ema_avg_fn",
           "get_swa_avg_fn"]


def _check_decay(decay: float) -> None:
    if decay < 0.0 or decay > 1.0:
        raise _policy(None).errors.swa_decay(decay=decay)


def _is_float(t) -> bool:
    return t._data.dtype.kind in "fcV"


def _lerp_in_place(a, b, weight: float) -> None:
    lerp_(a._data, b._data, weight)
    a._bump()


def get_ema_multi_avg_fn(decay: float = 0.999):
    """In place over lists: ema <- lerp(ema, current, 1 - decay)."""
    _check_decay(decay)

    def ema_update(ema_param_list, current_param_list, _) -> None:
        with mode.no_grad():
            for p_ema, p_model in zip(ema_param_list, current_param_list):
                if _is_float(p_ema):
                    _lerp_in_place(p_ema, p_model, 1 - decay)
                else:
                    p_ema.copy_(p_ema * decay + p_model * (1 - decay))
    return ema_update


def get_swa_multi_avg_fn():
    """In place over lists: the running mean after `num_averaged` models."""
    def swa_update(averaged_param_list, current_param_list, num_averaged) -> None:
        with mode.no_grad():
            for p_avg, p_model in zip(averaged_param_list, current_param_list):
                if _is_float(p_avg):
                    _lerp_in_place(p_avg, p_model, 1 / (float(num_averaged) + 1))
                else:
                    p_avg.copy_(p_avg + (p_model - p_avg) / (num_averaged + 1))
    return swa_update


def get_ema_avg_fn(decay: float = 0.999):
    """The exponential moving average of one parameter."""
    _check_decay(decay)

    def ema_update(ema_param, current_param, num_averaged):
        with mode.no_grad():
            return decay * ema_param + (1 - decay) * current_param
    return ema_update


def get_swa_avg_fn():
    """The running mean of one parameter."""
    def swa_update(averaged_param, current_param, num_averaged):
        with mode.no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)
    return swa_update


class AveragedModel(Module):
    """A copy of `model` whose parameters are the average of those `update_parameters` saw."""

    def __init__(self, model: Module, device=None, avg_fn=None, multi_avg_fn=None, use_buffers: bool = False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise self._tensor_cls.policy.errors.swa_two_avg_fns()
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        xp = self._factory_xp(device)
        self.register_buffer("n_averaged", self._new_tensor(xp.zeros((), dtype="int64")))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        if self.use_buffers:
            self_param = itertools.chain(self.module.parameters(), self.module.buffers())
            model_param = itertools.chain(model.parameters(), model.buffers())
        else:
            self_param, model_param = self.parameters(), model.parameters()
        averaged, current = [], []
        copy_param = bool(self.n_averaged == 0)
        with mode.no_grad():
            for p_averaged, p_model in zip(self_param, model_param):
                p_model_ = ops.to_device(p_model.detach(), p_averaged.device)
                averaged.append(p_averaged.detach())
                current.append(p_model_)
                if copy_param:
                    p_averaged.detach().copy_(p_model_)
            if self.n_averaged > 0:
                if self.avg_fn is None:
                    (self.multi_avg_fn or get_swa_multi_avg_fn())(averaged, current, self.n_averaged)
                else:
                    for p_averaged, p_model in zip(averaged, current):
                        p_averaged.copy_(self.avg_fn(p_averaged, p_model, self.n_averaged))
            if not self.use_buffers:
                for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                    b_swa.detach().copy_(ops.to_device(b_model.detach(), b_swa.device))
            self.n_averaged += 1


def update_bn(loader, model: Module, device=None) -> None:
    """One pass over `loader` in training mode with cumulative batch-norm averages, so that the
    running statistics match the model's (averaged) weights."""
    with mode.no_grad():
        momenta = {}
        for module in model.modules():
            if isinstance(module, _BatchNorm):
                module.reset_running_stats()
                momenta[module] = module.momentum
        if not momenta:
            return
        was_training = model.training
        model.train()
        for module in momenta:
            module.momentum = None
        for input in loader:
            if isinstance(input, (list, tuple)):
                input = input[0]
            if device is not None:
                input = input.to(device)
            model(input)
        for bn_module in momenta:
            bn_module.momentum = momenta[bn_module]
        model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's lr to its `swa_lr` over `anneal_epochs` steps (cosine or linear), then
    hold it."""

    def __init__(self, optimizer, swa_lr, anneal_epochs: int = 10, anneal_strategy: str = "cos",
                 last_epoch: int = -1) -> None:
        policy = _policy(optimizer)
        swa_lrs = _format_param("swa_lr", optimizer, swa_lr)
        for lr, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise policy.errors.sched_anneal_strategy(strategy=anneal_strategy)
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise policy.errors.swa_anneal_epochs(epochs=anneal_epochs)
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list:
        if not self._get_lr_called_within_step:
            warnings.warn(_policy(self.optimizer).errors.sched_get_lr(), stacklevel=2)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
                    for group in self.optimizer.param_groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [group["swa_lr"] * alpha + lr * (1 - alpha) for group, lr in zip(self.optimizer.param_groups, prev_lrs)]

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
