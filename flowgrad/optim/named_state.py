"""Optimizer state dicts keyed by accumulator name, one flat entry per parameter and accumulator
(paddle's layout: `linear_0.w_0_moment1_0`), in place of PyTorch's nested one. An optimizer mixing
in `NamedState` names a parameter's accumulators at the first step that updates it (the facade's
`_accumulator_name`), lists them accumulator by accumulator, and loads a state dict into its neutral
state at once for the parameters already named and at their first step for the others."""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..autograd.policy import policy_of
from .optimizer import state_tensor, step_state


class Accumulator(NamedTuple):
    """One accumulator: its `name` in the state dict, the neutral state entry `key` it shows, the
    group flag `when` that must be set for it to exist, and for a power accumulator the index `beta`
    of the beta it holds `betas[beta] ** (step + 1)` of (read from and written to the step count)."""

    name: str
    key: str
    when: str | None = None
    beta: int | None = None


class NamedState:
    """Mixed in before a neutral optimizer; `_accumulators` lists its accumulators in state-dict order."""

    _accumulators: tuple = ()
    _held: dict = {}  # the state dict set_state_dict was given, for accumulators not named yet

    def _accumulator_name(self, param, accumulator: Accumulator) -> str:
        raise NotImplementedError

    def _named(self, t, name: str):
        """`t` carrying `name` (a facade's tensors have names)."""
        return t

    def _accs(self, group: dict) -> list:
        return [a for a in self._accumulators if a.when is None or group[a.when]]

    def _name_accumulators(self) -> None:
        """Before a step: name the accumulators of the parameters it updates for the first time,
        filled from the held state dict when there is one."""
        names = self.__dict__.setdefault("_acc_names", {})
        for group in self.param_groups:
            for p in group["params"]:
                if p._grad is not None and id(p) not in names:
                    names[id(p)] = [self._accumulator_name(p, a) for a in self._accs(group)]
                    if self._held:
                        self._load_accumulators(p, group, self._held, "optim_accumulator_unset", pop=True)

    def state_dict(self) -> dict:
        names = self.__dict__.get("_acc_names", {})
        if self._held and not names:
            return dict(self._held)
        rows = []
        for group in self.param_groups:
            for p in group["params"]:
                state = self._state.get(p)
                if id(p) not in names or not state:
                    continue
                for acc, name in zip(self._accs(group), names[id(p)]):
                    t = state[acc.key]
                    if acc.beta is not None:
                        beta = group["betas"][acc.beta]
                        t = state_tensor(p, np.full((1,), beta ** (float(t._data) + 1), p._data.dtype))
                    rows.append((acc.name, name, self._named(t, name)))
        return {name: t for acc in self._accumulators for a, name, t in rows if a == acc.name}

    def set_state_dict(self, state_dict: dict) -> None:
        self._held = dict(state_dict)
        names = self.__dict__.get("_acc_names", {})
        for group in self.param_groups:
            for p in group["params"]:
                if id(p) in names:
                    self._load_accumulators(p, group, self._held, "optim_accumulator_missing")

    load_state_dict = set_state_dict

    def _load_accumulators(self, p, group: dict, values: dict, missing: str, pop: bool = False) -> None:
        """`p`'s accumulators from a named state dict, as the neutral optimizer keeps them."""
        state = self._state[p]
        for acc, name in zip(self._accs(group), self._acc_names[id(p)]):
            if name not in values:
                raise policy_of(p).error(missing, name=name)
            v = values.pop(name) if pop else values[name]
            arr = np.asarray(v._host() if hasattr(v, "_host") else v)
            if acc.beta is None:
                state[acc.key] = state_tensor(p, arr.astype(p._data.dtype, copy=True))
                continue
            beta = group["betas"][acc.beta]  # the step count from beta ** (step + 1), by a beta that is not 0
            if 0 < beta and (acc.beta == 0 or group["betas"][0] == 0):
                power = max(float(arr.reshape(-1)[0]), np.finfo(np.float64).tiny)
                state[acc.key] = step_state(p)
                state[acc.key]._data[...] = round(math.log(power) / math.log(beta)) - 1
