"""torch.nn.modules.module: the hooks that run for every module."""

from ....nn.module_hooks import (register_module_backward_hook, register_module_forward_hook,  # noqa: F401
                                 register_module_forward_pre_hook, register_module_full_backward_hook,
                                 register_module_full_backward_pre_hook)

__all__ = ["register_module_forward_pre_hook", "register_module_forward_hook",
           "register_module_full_backward_pre_hook", "register_module_full_backward_hook",
           "register_module_backward_hook"]
