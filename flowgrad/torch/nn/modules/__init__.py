"""torch.nn.modules for the torch facade: its `module` submodule (the hooks that run for every
module; the layer classes themselves are torch.nn's)."""

from . import module

__all__ = ["module"]
