"""A one-line progress bar on a terminal (stderr); silent when stderr is not a terminal."""
from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """Call with (done, total, label); redraws at most ten times a second."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.width = width
        self._last = 0.0

    def __call__(self, done: int, total: int, label: str) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        filled = int(self.width * done / max(total, 1))
        bar = "#" * filled + "-" * (self.width - filled)
        text = f"\r[{bar}] {done}/{total} {label}"[:110]
        self.stream.write(text.ljust(112))
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * 112 + "\r")
            self.stream.flush()
