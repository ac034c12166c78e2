"""oneflow.nn.init: the neutral initialisers."""
from __future__ import annotations

from ...nn.init import *  # noqa: F401,F403
from ...nn.init import __all__  # noqa: F401
