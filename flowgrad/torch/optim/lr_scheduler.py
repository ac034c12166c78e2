"""torch.optim.lr_scheduler for the torch facade."""
from __future__ import annotations

from ...optim.lr_cycles import *  # noqa: F401,F403
from ...optim.lr_cycles import __all__ as _cycles
from ...optim.lr_scheduler import *  # noqa: F401,F403
from ...optim.lr_scheduler import __all__ as _schedules
from ...optim.lr_scheduler import _LRScheduler  # noqa: F401

__all__ = _schedules + _cycles
