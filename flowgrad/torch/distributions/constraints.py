"""torch.distributions.constraints (flowgrad/distributions/constraints.py)."""
from ...distributions.constraints import *  # noqa: F401,F403
from ...distributions.constraints import Constraint, __all__  # noqa: F401
