"""oneflow.optim.lr_scheduler: the neutral learning-rate schedulers."""
from __future__ import annotations

from ...optim.lr_scheduler import *  # noqa: F401,F403
from ...optim.lr_scheduler import __all__  # noqa: F401
