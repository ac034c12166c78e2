"""paddle.framework: `core` and the dynamic-graph names paddle code imports from here."""
from __future__ import annotations

from ._creation import get_default_dtype, seed, set_default_dtype  # noqa: F401
from ._flags import get_flags, set_flags  # noqa: F401
from .base import core  # noqa: F401
from .base.framework import in_dygraph_mode as in_dynamic_mode  # noqa: F401
from .nn import Parameter, ParamAttr  # noqa: F401
