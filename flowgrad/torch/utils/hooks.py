"""torch.utils.hooks: the handle every `register_*hook` returns."""
from __future__ import annotations

from ...autograd.graph import RemovableHandle  # noqa: F401

__all__ = ["RemovableHandle", "unserializable_hook"]


def unserializable_hook(f):
    """Mark a hook as not to be serialized (PyTorch's decorator; the mark is the attribute)."""
    f.__torch_unserializable__ = True
    return f
