"""torch.utils.dlpack."""
from __future__ import annotations

from ...dlpack import to_dlpack  # noqa: F401
from .. import from_dlpack  # noqa: F401
