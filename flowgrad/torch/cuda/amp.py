"""torch.cuda.amp: the deprecated spellings of `torch.amp.autocast('cuda', ...)` and
`torch.amp.GradScaler('cuda', ...)`, with PyTorch's FutureWarning (without CUDA both then disable
themselves, as PyTorch's do)."""
from __future__ import annotations

from ..amp import _built

autocast = _built["cuda_autocast"]
GradScaler = _built["cuda_GradScaler"]
