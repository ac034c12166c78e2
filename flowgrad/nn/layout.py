"""Channels-last layouts (NLC, NHWC, NDHWC) over the channels-first layers: move the channel axis
to 1, compute, move it back to the end."""
from __future__ import annotations

from .. import ops


def channels_first(x):
    """The last axis moved to axis 1."""
    return ops.movedim(x, -1, 1)


def channels_last(x):
    """Axis 1 moved to the end."""
    return ops.movedim(x, 1, -1)


def in_channels_first(fn, x, last: bool, *args, **kwargs):
    """`fn(x, *args, **kwargs)` on a channels-first `x`; with `last`, `x` is channels-last, and so
    are the results (each of a tuple)."""
    if not last:
        return fn(x, *args, **kwargs)
    out = fn(channels_first(x), *args, **kwargs)
    return tuple(channels_last(o) for o in out) if isinstance(out, tuple) else channels_last(out)
