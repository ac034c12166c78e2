"""paddle.base.dygraph: flowgrad runs paddle's dynamic graph only, so `guard()` has nothing to
switch and `disable_dygraph()` (static graphs) is refused."""
from __future__ import annotations

import contextlib

from ..autograd import grad, no_grad  # noqa: F401


@contextlib.contextmanager
def guard(place=None):
    yield


def enabled() -> bool:
    return True


def enable_dygraph(place=None) -> None:
    """Already on."""


def disable_dygraph() -> None:
    raise NotImplementedError("flowgrad's paddle facade has no static graph")
