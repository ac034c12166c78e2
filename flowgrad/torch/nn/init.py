"""torch.nn.init for the torch facade (the neutral initialisers)."""
from __future__ import annotations

from ...nn.init import *  # noqa: F401,F403
from ...nn.init import (__all__, _calculate_correct_fan, _calculate_fan_in_and_fan_out, constant,  # noqa: F401
                        kaiming_normal, kaiming_uniform, normal, orthogonal, uniform, xavier_normal, xavier_uniform)
