"""What a run without the real frameworks (the oracles) left out, said at its end."""
from __future__ import annotations

import re

ORACLE_INSTALL = 'python -m pip install -e ".[test,oracle]"'
_ORACLE_REASON = re.compile(r"\b(torch|paddle)\b.*not installed|could not import '(torch|paddle)'")


def _oracle_of(reason: str) -> str | None:
    m = _ORACLE_REASON.search(reason)
    return (m.group(1) or m.group(2)) if m else None


def oracle_summary(skip_reasons: list[str], twins_not_made: dict[str, int], have: dict[str, bool]) -> list[str]:
    """The lines a run ends with when real torch or paddle is absent: how many tests skipped and how
    many comparisons against the real framework were never generated, and how to run them all."""
    lines = []
    for name in ("torch", "paddle"):
        if have[name]:
            continue
        skipped = sum(1 for r in skip_reasons if _oracle_of(r) == name)
        twins = twins_not_made.get(name, 0)
        lines.append(f"real {name} is not installed: {skipped} tests skipped and {twins} comparisons against it "
                     f"were not generated")
    if lines:
        lines.append(f"to run them all: {ORACLE_INSTALL} (torch==2.13.0 CPU, paddlepaddle==3.3.1)")
    return lines
