"""Mixed precision entry points of the torch family: `autocast` and `GradScaler`.

flowgrad has no automatic mixed precision: every op runs in its inputs' dtype. `autocast` checks
its arguments as PyTorch does and is a context (or decorator) that changes nothing where PyTorch's
own autocast would change nothing either: `enabled=False`; a dtype the device does not autocast to
(on the CPU anything but bfloat16 / float16, e.g. float32, with PyTorch's warning); device 'cuda'
without CUDA (PyTorch's warning). Where PyTorch would convert (the CPU with its default bfloat16 or
with float16; CUDA present) it raises NotImplementedError saying so, rather than run the block in
float32 while claiming otherwise.

`GradScaler` is PyTorch's dynamic loss scaling, complete (scale, unscale_, step skipping on
inf / NaN gradients, update with growth and backoff, state_dict): it is independent of autocast and
works on any floating dtype flowgrad has; on 'cuda' without CUDA it disables itself with PyTorch's
warning, as PyTorch does.
"""
from __future__ import annotations

import functools
import math
import warnings
from collections import abc, defaultdict
from typing import Any

import numpy as np

from .. import backend
from ..autograd.mode import no_grad
from ..tensor import Tensor as _CoreTensor
from . import cuda_memory
from .argcheck import place

# what each device autocasts to when no dtype is given, and which dtypes the CPU accepts
_DEFAULT_DTYPE = {"cpu": "bfloat16", "cuda": "float16"}
_CPU_DTYPES = ("bfloat16", "float16")

READY, UNSCALED, STEPPED = "ready", "unscaled", "stepped"


def _fresh_state() -> dict[str, Any]:
    return {"stage": READY, "found_inf_per_device": {}}


def build(Tensor: type, home: str) -> dict:
    """`autocast`, `GradScaler` and their deprecated `cpu.amp` / `cuda.amp` spellings for the facade module
    `home`."""
    policy = Tensor.policy
    module = home.rpartition(".")[2]   # the name messages use: torch.bfloat16

    class autocast:
        """A context / decorator for autocast regions; see the module's docstring for what flowgrad
        does with each request."""

        def __init__(self, device_type: str, dtype=None, enabled: bool = True, cache_enabled: bool | None = None):
            if not isinstance(device_type, str):
                raise policy.errors.autocast_device_type(type_repr=type(device_type))
            if device_type not in _DEFAULT_DTYPE:
                raise policy.errors.autocast_device_unsupported(device=device_type)
            self.device = device_type
            self.fast_dtype = dtype
            self._cache_enabled = cache_enabled
            if enabled is True:
                enabled = self._decide()
            self._enabled = enabled

        def _decide(self) -> bool:
            """Whether autocast would convert anything; raise where it would and flowgrad cannot."""
            dtype = self.fast_dtype
            name = _DEFAULT_DTYPE[self.device] if dtype is None else getattr(dtype, "name", None)
            if self.device == "cuda" and not cuda_memory.available():
                warnings.warn(policy.errors.autocast_no_cuda(), stacklevel=3)
                return False
            if self.device == "cpu" and (not isinstance(dtype, (backend.DType, type(None))) or name not in _CPU_DTYPES):
                warnings.warn(policy.errors.autocast_dtype_unsupported(device="CPU", module=module), stacklevel=3)
                return False
            raise policy.errors.autocast_not_performed(device=self.device, dtype=f"{module}.{name}")

        def __enter__(self):
            if not isinstance(self._enabled, bool):
                raise policy.errors.autocast_enabled_type(type=type(self._enabled).__name__)
            if self.fast_dtype is not None and not isinstance(self.fast_dtype, backend.DType):
                raise policy.errors.autocast_dtype_type(module=module, type=type(self.fast_dtype).__name__)
            if self._cache_enabled is not None and not isinstance(self._cache_enabled, bool):
                raise policy.errors.autocast_cache_type(type=type(self._cache_enabled).__name__)
            return self

        def __exit__(self, exc_type, exc_val, exc_tb) -> bool:
            return False

        def __call__(self, func):
            if not callable(func):
                raise policy.errors.autocast_not_callable(type=type(func).__name__, module=module)

            @functools.wraps(func)
            def decorated(*args, **kwargs):
                with self:
                    return func(*args, **kwargs)
            return decorated

    class GradScaler:
        """Dynamic loss scaling: `scale(loss).backward()`, `step(optimizer)` (skipped when a gradient
        is inf / NaN), `update()` (backoff after a skip, growth after `growth_interval` clean steps)."""

        def __init__(self, device: str = "cuda", init_scale: float = 2.0 ** 16, growth_factor: float = 2.0,
                     backoff_factor: float = 0.5, growth_interval: int = 2000, enabled: bool = True) -> None:
            self._device = device
            self._enabled = enabled
            if device == "cuda" and enabled and not cuda_memory.available():
                warnings.warn(policy.errors.scaler_no_cuda(), stacklevel=2)
                self._enabled = False
            if self._enabled:
                if growth_factor <= 1.0:
                    raise policy.errors.scaler_growth_factor()
                if backoff_factor >= 1.0:
                    raise policy.errors.scaler_backoff_factor()
                self._init_scale = init_scale
                self._scale: np.float32 | None = None
                self._growth_factor = growth_factor
                self._backoff_factor = backoff_factor
                self._growth_interval = growth_interval
                self._init_growth_tracker = 0
                self._growth_tracker: int | None = None
                self._per_optimizer_states: dict[int, dict[str, Any]] = defaultdict(_fresh_state)

        def _check_scale(self, fn: str) -> None:
            if self._scale is None:
                raise policy.errors.scaler_not_scaled(fn=fn)

        def _scale_like(self, val):
            """The scale as a 0-dim float32 tensor on `val`'s device (so dtype promotion is PyTorch's)."""
            if self._scale is None:
                self._scale, self._growth_tracker = np.float32(self._init_scale), int(self._init_growth_tracker)
            return val._new(backend.to_device(np.asarray(self._scale, dtype=np.float32), val.device))

        def scale(self, outputs):
            """`outputs` (a tensor, or an iterable of them, nested) times the scale."""
            if not self._enabled:
                return outputs

            def apply(val):
                if isinstance(val, _CoreTensor):
                    return val * self._scale_like(val)
                if isinstance(val, abc.Iterable):
                    scaled = map(apply, val)
                    return type(val)(scaled) if isinstance(val, (list, tuple)) else scaled
                raise policy.errors.scaler_outputs_type()
            return apply(outputs)

        def _unscale_grads_(self, optimizer, inv_scale: float, allow_fp16: bool) -> dict:
            found: dict = {}
            with no_grad():
                for group in optimizer.param_groups:
                    for param in group["params"]:
                        if not isinstance(param, _CoreTensor):
                            raise policy.errors.scaler_param_type(type=type(param).__name__)
                        grad = param.grad
                        if grad is None:
                            continue
                        if not allow_fp16 and grad._data.dtype == np.float16:
                            raise policy.errors.scaler_fp16_grads()
                        xp = backend.namespace(grad._data)
                        bad = not bool(xp.isfinite(grad._data).all())
                        key = str(grad.device)
                        found[key] = max(found.get(key, 0.0), 1.0 if bad else 0.0)
                        grad.mul_(grad._new(backend.to_device(np.asarray(inv_scale, dtype=np.float32), grad.device)))
            return found

        def unscale_(self, optimizer) -> None:
            """Divide the optimizer's gradients by the scale (once per step), noting infs / NaNs."""
            if not self._enabled:
                return
            self._check_scale("unscale_")
            state = self._per_optimizer_states[id(optimizer)]
            if state["stage"] == UNSCALED:
                raise policy.errors.scaler_unscale_twice()
            if state["stage"] == STEPPED:
                raise policy.errors.scaler_unscale_after_step()
            inv_scale = float(np.float32(1.0 / float(self._scale)))
            state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, False)
            state["stage"] = UNSCALED

        def step(self, optimizer, *args, **kwargs):
            """Unscale (unless done) and run `optimizer.step()` unless a gradient was inf / NaN."""
            if not self._enabled:
                return optimizer.step(*args, **kwargs)
            if "closure" in kwargs:
                raise policy.errors.scaler_closure()
            self._check_scale("step")
            state = self._per_optimizer_states[id(optimizer)]
            if state["stage"] == STEPPED:
                raise policy.errors.scaler_step_twice()
            if state["stage"] == READY:
                self.unscale_(optimizer)
            if not state["found_inf_per_device"]:
                raise policy.errors.scaler_no_inf_checks()
            retval = None
            if not sum(state["found_inf_per_device"].values()):
                retval = optimizer.step(*args, **kwargs)
            state["stage"] = STEPPED
            return retval

        def update(self, new_scale: float | Any = None) -> None:
            """Back the scale off after a skipped step, grow it after growth_interval clean ones, or set
            it to `new_scale` (a float or a one-element tensor on the scaler's device)."""
            if not self._enabled:
                return
            self._check_scale("update")
            if new_scale is not None:
                if isinstance(new_scale, float):
                    self._scale = np.float32(new_scale)
                else:
                    if (new_scale.device.type != self._device or new_scale.numel() != 1
                            or new_scale.requires_grad is True):
                        raise policy.errors.scaler_new_scale()
                    self._scale = np.float32(new_scale.item())
            else:
                found = [v for state in self._per_optimizer_states.values()
                         for v in state["found_inf_per_device"].values()]
                if not found:
                    raise policy.errors.scaler_no_inf_checks_update()
                if sum(found):
                    self._scale = np.float32(float(self._scale) * self._backoff_factor)
                    self._growth_tracker = 0
                else:
                    successful = self._growth_tracker + 1
                    if successful == self._growth_interval:
                        grown = np.float32(float(self._scale) * self._growth_factor)
                        if math.isfinite(grown):
                            self._scale = grown
                        self._growth_tracker = 0
                    else:
                        self._growth_tracker = successful
            self._per_optimizer_states = defaultdict(_fresh_state)

        def get_scale(self) -> float:
            """The current scale (1.0 when disabled)."""
            if self._enabled:
                return self._init_scale if self._scale is None else float(self._scale)
            return 1.0

        def get_growth_factor(self) -> float:
            return self._growth_factor

        def set_growth_factor(self, new_factor: float) -> None:
            self._growth_factor = new_factor

        def get_backoff_factor(self) -> float:
            return self._backoff_factor

        def set_backoff_factor(self, new_factor: float) -> None:
            self._backoff_factor = new_factor

        def get_growth_interval(self) -> int:
            return self._growth_interval

        def set_growth_interval(self, new_interval: int) -> None:
            self._growth_interval = new_interval

        def _get_growth_tracker(self) -> int:
            if self._enabled:
                return self._init_growth_tracker if self._growth_tracker is None else self._growth_tracker
            return 0

        def is_enabled(self) -> bool:
            return self._enabled

        def state_dict(self) -> dict[str, Any]:
            """scale, growth_factor, backoff_factor, growth_interval and _growth_tracker ({} when disabled)."""
            if not self._enabled:
                return {}
            return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                    "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                    "_growth_tracker": self._get_growth_tracker()}

        def load_state_dict(self, state_dict: dict[str, Any]) -> None:
            if not self._enabled:
                return
            if len(state_dict) == 0:
                raise policy.errors.scaler_empty_state()
            self._init_scale = state_dict["scale"]
            if self._scale is not None:
                self._scale = np.float32(state_dict["scale"])
            self._growth_factor = state_dict["growth_factor"]
            self._backoff_factor = state_dict["backoff_factor"]
            self._growth_interval = state_dict["growth_interval"]
            self._init_growth_tracker = state_dict["_growth_tracker"]
            if self._growth_tracker is not None:
                self._growth_tracker = int(state_dict["_growth_tracker"])

        def __getstate__(self) -> dict[str, Any]:
            state = self.__dict__.copy()
            if self._enabled:
                if len(self._per_optimizer_states) != 0:
                    raise policy.errors.scaler_pickle_mid_iteration()
                state["_init_scale"] = self.get_scale()
                state["_init_growth_tracker"] = self._get_growth_tracker()
                state["_scale"] = None
                state["_growth_tracker"] = None
            return state

        def __setstate__(self, state: dict[str, Any]) -> None:
            self.__dict__.update(state)

    def deprecated_spellings(device: str) -> tuple[type, type]:
        """`<device>.amp.autocast` / `GradScaler`: `amp.autocast(device, ...)` / `amp.GradScaler(device,
        ...)` under PyTorch's deprecation warning."""

        class device_autocast(autocast):
            def __init__(self, enabled: bool = True, dtype=None, cache_enabled: bool = True):
                warnings.warn(policy.errors.autocast_deprecated(device=device), stacklevel=2)
                super().__init__(device, dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)

        class device_GradScaler(GradScaler):
            def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                         growth_interval: int = 2000, enabled: bool = True) -> None:
                warnings.warn(policy.errors.scaler_deprecated(device=device), stacklevel=2)
                super().__init__(device, init_scale, growth_factor, backoff_factor, growth_interval, enabled)

        return (place(device_autocast, f"{home}.{device}.amp", "autocast"),
                place(device_GradScaler, f"{home}.{device}.amp", "GradScaler"))

    place(autocast, f"{home}.amp")
    place(GradScaler, f"{home}.amp")
    built = {"autocast": autocast, "GradScaler": GradScaler}
    for device in ("cpu", "cuda"):
        built[f"{device}_autocast"], built[f"{device}_GradScaler"] = deprecated_spellings(device)
    return built
