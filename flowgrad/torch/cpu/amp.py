"""torch.cpu.amp: the deprecated spellings of `torch.amp.autocast('cpu', ...)` and
`torch.amp.GradScaler('cpu', ...)`, with PyTorch's FutureWarning."""
from __future__ import annotations

from ..amp import _built

autocast = _built["cpu_autocast"]
GradScaler = _built["cpu_GradScaler"]
