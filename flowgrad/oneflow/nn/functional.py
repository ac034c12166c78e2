"""oneflow.nn.functional: the neutral functional forms."""
from __future__ import annotations

from ...nn.functional import *  # noqa: F401,F403
from ...nn.functional import __all__  # noqa: F401
