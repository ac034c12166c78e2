"""paddle.amp on flowgrad's one CPU device, where paddle itself turns mixed precision off:
`auto_cast` checks its arguments and casts nothing; `GradScaler` is disabled (`is_enable()` is
False, the loss scale 1.0): `scale` returns the loss unchanged and `step` / `minimize` run the
optimizer."""
from __future__ import annotations

import contextlib


@contextlib.contextmanager
def auto_cast(enable: bool = True, custom_white_list=None, custom_black_list=None, level: str = "O1",
              dtype: str = "float16", use_promote: bool = True):
    if level not in ("O0", "OD", "O1", "O2"):
        raise ValueError("level should be O0, OD, O1 or O2.")
    if enable and dtype not in ("float16", "bfloat16"):
        raise ValueError("If enable amp, dtype should be 'float16' or 'bfloat16'.")
    yield


amp_guard = auto_cast


def is_float16_supported(device=None) -> bool:
    return False


def is_bfloat16_supported(device=None) -> bool:
    return True


class GradScaler:
    """The loss scaler, disabled on the CPU as paddle's is."""

    def __init__(self, enable: bool = True, init_loss_scaling: float = 65536.0, incr_ratio: float = 2.0,
                 decr_ratio: float = 0.5, incr_every_n_steps: int = 2000, decr_every_n_nan_or_inf: int = 1,
                 use_dynamic_loss_scaling: bool = True) -> None:
        self._enable = False
        self._use_dynamic_loss_scaling = False
        self._init_loss_scaling, self._incr_ratio, self._decr_ratio = 1.0, incr_ratio, decr_ratio
        self._incr_every_n_steps, self._decr_every_n_nan_or_inf = incr_every_n_steps, decr_every_n_nan_or_inf

    def scale(self, var):
        return var

    def minimize(self, optimizer, *args, **kwargs):
        return optimizer.minimize(*args, **kwargs)

    def step(self, optimizer) -> None:
        optimizer.step()

    def update(self) -> None:
        pass

    def unscale_(self, optimizer) -> None:
        pass

    def is_enable(self) -> bool:
        return self._enable

    def is_use_dynamic_loss_scaling(self) -> bool:
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self) -> float:
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling: float) -> None:
        self._init_loss_scaling = new_init_loss_scaling

    def get_incr_ratio(self) -> float:
        return self._incr_ratio

    def set_incr_ratio(self, new_incr_ratio: float) -> None:
        self._incr_ratio = new_incr_ratio

    def get_decr_ratio(self) -> float:
        return self._decr_ratio

    def set_decr_ratio(self, new_decr_ratio: float) -> None:
        self._decr_ratio = new_decr_ratio

    def get_incr_every_n_steps(self) -> int:
        return self._incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps: int) -> None:
        self._incr_every_n_steps = new_incr_every_n_steps

    def get_decr_every_n_nan_or_inf(self) -> int:
        return self._decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf: int) -> None:
        self._decr_every_n_nan_or_inf = new_decr_every_n_nan_or_inf

    def state_dict(self) -> dict:
        return {}

    def load_state_dict(self, state_dict: dict) -> None:
        pass


__all__ = ["auto_cast", "amp_guard", "GradScaler", "is_float16_supported", "is_bfloat16_supported"]
