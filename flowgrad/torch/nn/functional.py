"""torch.nn.functional for the torch facade (the neutral functional forms)."""

from ...nn.functional import *  # noqa: F401,F403
from ...nn.functional import (__all__, max_pool1d_with_indices, max_pool2d_with_indices,  # noqa: F401
                              max_pool3d_with_indices)
from ...nn.attention import multi_head_attention_forward  # noqa: F401

del flatten   # the neutral functional module keeps it for nn.Flatten; torch.nn.functional has none

__all__ = [*(n for n in __all__ if n != "flatten"), "multi_head_attention_forward"]
