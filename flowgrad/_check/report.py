"""Uses -> one row per API with its status; the coverage figure; the table, parsable and JSON forms
(the JSON schema is documented in docs/CHECK.md)."""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Iterable, TextIO

from .files import FileError
from .scan import Use
from .support import DIFFERS, SUPPORTED, UNRESOLVED, UNSUPPORTED, Support, split_keyword

JSON_SCHEMA = "flowgrad-check"
JSON_VERSION = 1
_ORDER = {UNSUPPORTED: 0, DIFFERS: 1, SUPPORTED: 2, UNRESOLVED: 3}
_UNRESOLVED_REASON = "the receiver's type is unknown statically; supported if it is a tensor"


@dataclass
class Row:
    """One API: where it is used, and whether flowgrad supports it."""
    api: str
    framework: str
    kind: str
    status: str
    reason: str | None
    places: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.places)


@dataclass
class Coverage:
    apis_covered: int
    apis_total: int
    uses_covered: int
    uses_total: int

    @staticmethod
    def percent(part: int, total: int) -> float | None:
        return round(100.0 * part / total, 2) if total else None

    @property
    def uses_percent(self) -> float | None:
        return self.percent(self.uses_covered, self.uses_total)

    @property
    def apis_percent(self) -> float | None:
        return self.percent(self.apis_covered, self.apis_total)


@dataclass
class Result:
    """What `flowgrad check` found in a set of files."""
    frameworks: tuple[str, ...]
    files: int
    rows: list[Row]
    errors: list[FileError]
    missing_facades: tuple[str, ...] = ()

    def coverage(self) -> Coverage:
        counted = [r for r in self.rows if r.status != UNRESOLVED]
        ok = [r for r in counted if r.status in (SUPPORTED, DIFFERS)]
        return Coverage(len(ok), len(counted), sum(r.count for r in ok), sum(r.count for r in counted))

    def gaps(self) -> list[Row]:
        return [r for r in self.rows if r.status == UNSUPPORTED]


def rows(uses: Iterable[Use], support: Support) -> list[Row]:
    """Group uses by API, ask the facade about each, and order: unsupported, differs, supported,
    unresolved; most used first within each. A keyword of an unsupported API is not listed again."""
    by_api: dict[str, Row] = {}
    for u in uses:
        row = by_api.get(u.api)
        if row is None:
            if u.kind == "unresolved":
                status, reason = UNRESOLVED, _UNRESOLVED_REASON
            else:
                status, reason = support.status(u.api, u.framework)
            row = by_api[u.api] = Row(u.api, u.framework, u.kind, status, reason)
        row.places.append((u.path, u.line, u.col))
    out = []
    for row in by_api.values():
        base, keyword = split_keyword(row.api)
        if keyword is not None and support.status(base, row.framework)[0] == UNSUPPORTED:
            continue
        row.places.sort()
        out.append(row)
    out.sort(key=lambda r: (_ORDER[r.status], -r.count, r.api))
    return out


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}%"


def coverage_line(result: Result) -> str:
    c = result.coverage()
    if not c.apis_total:
        return f"coverage: no {' / '.join(result.frameworks)} API used"
    return (f"coverage: {c.apis_covered} of {c.apis_total} APIs ({_pct(c.apis_percent)}), "
            f"{c.uses_covered} of {c.uses_total} uses ({_pct(c.uses_percent)})")


def table(result: Result, places: int = 3) -> str:
    """The human-readable report: the table, notes on what differs, the coverage figure."""
    lines = []
    for fw in result.missing_facades:
        lines.append(f"note: this flowgrad has no {fw} facade: every {fw} API counts as unsupported")
    if result.rows:
        width = max(len("API"), *(len(r.api) for r in result.rows))
        lines.append(f"{'status':<11}  {'uses':>5}  {'API':<{width}}  first places")
        for r in result.rows:
            lines_used = list(dict.fromkeys(f"{p}:{line}" for p, line, _ in r.places))
            first = ", ".join(lines_used[:places])
            more = f", +{len(lines_used) - places} more" if len(lines_used) > places else ""
            lines.append(f"{r.status:<11}  {r.count:>5}  {r.api:<{width}}  {first}{more}")
        lines.append("")
    differs = [r for r in result.rows if r.status == DIFFERS]
    if differs:
        lines.append("known to differ:")
        lines += [f"  {r.api}: {r.reason}" for r in differs]
    unresolved = [r for r in result.rows if r.status == UNRESOLVED]
    if unresolved:
        n = sum(r.count for r in unresolved)
        lines.append(f"unresolved: {n} call{'s' * (n != 1)} of {len(unresolved)} Tensor method name"
                     f"{'s' * (len(unresolved) != 1)} on receivers of unknown type (not counted below)")
    gaps = result.gaps()
    plural = "s" * (result.files != 1)
    lines.append(f"checked {result.files} file{plural}: {len(gaps)} unsupported API{'s' * (len(gaps) != 1)}"
                 + (f", {len(result.errors)} file{'s' * (len(result.errors) != 1)} not checked" if result.errors
                    else ""))
    lines.append(coverage_line(result))
    return "\n".join(lines)


def parsable(result: Result) -> str:
    """One `path:line:col: status: API` line per use of an unsupported or differing API."""
    out = []
    for r in result.rows:
        if r.status in (UNSUPPORTED, DIFFERS):
            note = f" ({r.reason})" if r.status == DIFFERS else ""
            out += [(p, line, col, f"{p}:{line}:{col}: {r.status}: {r.api}{note}") for p, line, col in r.places]
    out.sort()
    return "\n".join(item[3] for item in out)


def as_json(result: Result, flowgrad_version: str) -> dict:
    """The stable JSON form (docs/CHECK.md)."""
    c = result.coverage()
    counts = {s: 0 for s in _ORDER}
    for r in result.rows:
        counts[r.status] += 1
    return {
        "schema": JSON_SCHEMA,
        "version": JSON_VERSION,
        "flowgrad_version": flowgrad_version,
        "frameworks": list(result.frameworks),
        "missing_facades": list(result.missing_facades),
        "files": result.files,
        "errors": [{"path": e.path, "line": e.line, "message": e.message} for e in result.errors],
        "coverage": {
            "apis": {"covered": c.apis_covered, "total": c.apis_total, "percent": c.apis_percent},
            "uses": {"covered": c.uses_covered, "total": c.uses_total, "percent": c.uses_percent},
        },
        "counts": counts,
        "apis": [{"api": r.api, "framework": r.framework, "kind": r.kind, "status": r.status, "reason": r.reason,
                  "count": r.count, "places": [{"path": p, "line": line, "col": col} for p, line, col in r.places]}
                 for r in result.rows],
    }


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal and the run is long."""

    def __init__(self, total: int, stream: TextIO | None = None, min_total: int = 100, interval: float = 0.1):
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.on = total >= min_total and _isatty(self.stream)
        self.interval = interval
        self._last = 0.0

    def update(self, done: int) -> None:
        if not self.on:
            return
        now = time.monotonic()
        if now - self._last < self.interval and done < self.total:
            return
        self._last = now
        filled = 30 * done // self.total
        self.stream.write(f"\rflowgrad check [{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} files")
        self.stream.flush()

    def close(self) -> None:
        if self.on:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
