"""torch.autograd.grad_mode: the grad-mode context managers."""
from __future__ import annotations

from ...autograd.mode import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: F401
