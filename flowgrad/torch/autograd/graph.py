"""torch.autograd.graph: nodes and gradient edges."""
from __future__ import annotations

from ...autograd.api import GradientEdge, get_gradient_edge  # noqa: F401
from ...autograd.graph import Node  # noqa: F401
