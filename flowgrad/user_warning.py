"""Warnings attributed to the user's line: the first frame outside the flowgrad package, however many
of flowgrad's own frames (signature adapters, guards, facades) lie between it and the op."""
from __future__ import annotations

import sys
import warnings


def _ours(frame) -> bool:
    """A frame of flowgrad's modules, or of the adapters the facade kit compiles ("<signature ...>")."""
    name = frame.f_globals.get("__name__") or ""
    return name == "flowgrad" or name.startswith("flowgrad.") or frame.f_code.co_filename.startswith("<signature")


def warn(message, category: type[Warning] | None = None) -> None:
    """`warnings.warn(message, category)` at the caller's first frame outside flowgrad."""
    frame, level = sys._getframe(1), 2
    while frame is not None and _ours(frame):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)
