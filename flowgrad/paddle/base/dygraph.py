"""paddle.base.dygraph: flowgrad runs paddle's dynamic graph only, so `guard()` has nothing to
switch (a place to switch to is not taken)."""
from __future__ import annotations

import contextlib

from ..autograd import grad, no_grad  # noqa: F401


@contextlib.contextmanager
def guard():
    yield
