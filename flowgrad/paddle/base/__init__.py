"""paddle.base: the names paddle's own tests import from it (`core`, `framework`, `dygraph`), over
the facade; flowgrad has only paddle's dynamic graph."""
from __future__ import annotations

from . import core, dygraph, framework  # noqa: F401
from .framework import in_dygraph_mode  # noqa: F401
