"""torch.optim.lr_scheduler for the torch facade."""
from __future__ import annotations

from ...optim.lr_scheduler import *  # noqa: F401,F403
from ...optim.lr_scheduler import __all__, _LRScheduler  # noqa: F401
