"""torch.utils.checkpoint for the torch facade (flowgrad/autograd/checkpoint.py)."""

from ...autograd.checkpoint import (CheckpointError, CheckpointFunction, check_backward_validity,  # noqa: F401
                                    checkpoint, checkpoint_sequential, detach_variable)

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction", "check_backward_validity",
           "detach_variable"]
