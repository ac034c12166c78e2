"""paddle.linalg: the linear-algebra names the facade provides."""
from __future__ import annotations

from ._ops import matmul, norm  # noqa: F401
