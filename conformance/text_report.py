"""The terminal report: the matrix (group x implementation), the summary line, and for every
disagreement its details and a reproducer program."""
from __future__ import annotations

import sys
from collections import Counter
from typing import TextIO

from .compare import describe
from .reproducer import reproducer
from .runner import RunResult
from .scenario import GROUPS
from .verdict import (AGREE, BASELINE, DEFECT, DTYPE, ERROR, EXCEPTION, EXPECTED, FAILING, GRADIENT,
                      SKIPPED, STALE, STATUSES, UNSUPPORTED, VALUE)

SHORT = {AGREE: "ok", BASELINE: "base", EXPECTED: "exp", DEFECT: "defect", UNSUPPORTED: "unsup",
         SKIPPED: "skip", STALE: "STALE", VALUE: "DIFF", GRADIENT: "DIFF", DTYPE: "DIFF", EXCEPTION: "DIFF",
         ERROR: "ERR"}
LEGEND = ("ok = agrees with its reference; base = the baseline itself (torch); exp = expected difference "
          "(declared, with a reason); defect = known facade defect; unsup = the framework has no such API; "
          "skip = nothing to compare with; DIFF = value, gradient, dtype or exception differs; "
          "STALE = an expectation or known defect no longer needed; ERR = the scenario failed to run")
_ORDER = ["ERR", "DIFF", "STALE", "ok", "base", "exp", "defect", "unsup", "skip"]
_COLOR = {"ok": "32", "base": "32", "exp": "36", "defect": "33", "unsup": "2", "skip": "2",
          "STALE": "31", "DIFF": "31", "ERR": "31"}


def cell_text(statuses: Counter) -> str:
    """'12ok 3exp' for a group cell."""
    short: Counter = Counter()
    for status, n in statuses.items():
        short[SHORT[status]] += n
    return " ".join(f"{short[k]}{k}" for k in _ORDER if short[k])


def _paint(text: str, color: bool) -> str:
    if not color:
        return text
    for word in _ORDER:
        if word in text:
            pass
    parts = []
    for token in text.split(" "):
        key = token.lstrip("0123456789")
        code = _COLOR.get(key)
        parts.append(f"\x1b[{code}m{token}\x1b[0m" if code else token)
    return " ".join(parts)


def matrix_lines(result: RunResult, color: bool = False) -> list[str]:
    """The matrix as lines of text."""
    names = [s.name for s in result.impls]
    groups = [g for g in GROUPS if any(sc.group == g for sc in result.scenarios)]
    rows = []
    for g in groups:
        scs = [sc for sc in result.scenarios if sc.group == g]
        row = [f"{GROUPS[g]} ({len(scs)})"]
        for s in result.impls:
            if not s.ran:
                row.append(s.state)
                continue
            row.append(cell_text(Counter(result.cells[sc.id][s.name].status for sc in scs)))
        rows.append(row)
    header = ["scenario group"] + names
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip()]
    out.append("  ".join("-" * w for w in widths))
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [_paint(c, color) + " " * (w - len(c)) for c, w in zip(r[1:], widths[1:])]
        out.append("  ".join(cells).rstrip())
    return out


def summary_line(result: RunResult) -> str:
    counts = result.counts()
    failing = sum(counts[s] for s in FAILING)
    parts = [f"{counts[s]} {s}" for s in STATUSES if counts[s]]
    verdict = "PASS" if result.exit_code == 0 else "FAIL"
    extra = f", {len(result.recording_drift)} recorded outcome(s) out of date" if result.recording_drift else ""
    return (f"{verdict}: {len(result.scenarios)} scenarios, {sum(counts.values())} cells: " + ", ".join(parts)
            + f"; {failing} failing{extra} ({result.meta.get('seconds', 0):.1f} s)")


def header_lines(result: RunResult) -> list[str]:
    cols = []
    for s in result.impls:
        if s.ran:
            cols.append(f"{s.name} {s.version}")
        else:
            cols.append(f"{s.name} ({s.state}{': ' + s.detail if s.detail and s.detail != s.state else ''})")
    base = ", ".join(result.meta.get("baseline", [])) or "none"
    return [f"flowgrad conformance: {len(result.scenarios)} scenarios on " + "; ".join(cols),
            f"baseline: {base}; flowgrad {result.meta.get('flowgrad_commit', '')[:12]}"]


def detail_lines(result: RunResult, reproducers: bool = True) -> list[str]:
    """Every failing cell with its differences (and a reproducer), then the known defects."""
    out: list[str] = []
    for sc, impl, cell in result.failing():
        out.append("")
        out.append(f"{cell.status.upper()}: {sc.id} on {impl}: {sc.checks}")
        if cell.note:
            out.append(f"  {cell.note}")
        for d in cell.diffs[:8]:
            out.append(f"  {d.key} [{d.kind}]: {impl} {describe(d.observed)}")
            out.append(f"  {' ' * len(d.key)}  {' ' * (len(d.kind) + 2)} {cell.against or 'reference'} "
                       f"{describe(d.reference)}")
        if cell.status == ERROR:
            tb = result.observations[sc.id][impl].get("traceback", "").strip().splitlines()
            out += [f"    {line}" for line in tb[-4:]]
        elif reproducers and cell.diffs:
            out.append("  reproducer:")
            code = reproducer(sc, impl, cell.against or "reference", cell.diffs)
            out += [f"    {line}" if line else "" for line in code.splitlines()]
    defects = [(sc, impl, c) for sc in result.scenarios for impl, c in result.cells[sc.id].items()
               if c.status == DEFECT]
    if defects:
        out.append("")
        out.append(f"known facade defects ({len(defects)}; listed in conformance/known_defects.py):")
        for sc, impl, c in defects:
            out.append(f"  {sc.id} on {impl}: {c.note}")
    if result.recording_drift:
        out.append("")
        out.append("recorded outcomes out of date (run `flowgrad conformance --record`): "
                   + ", ".join(result.recording_drift[:10]) + (" ..." if len(result.recording_drift) > 10 else ""))
    return out


def write_report(result: RunResult, stream: TextIO | None = None, color: bool | None = None,
                 details: bool = True) -> None:
    """The whole terminal report."""
    stream = stream or sys.stdout
    color = stream.isatty() if color is None else color
    lines = header_lines(result) + [""] + matrix_lines(result, color) + [""] + ["legend: " + LEGEND]
    if details:
        lines += detail_lines(result)
    lines += ["", summary_line(result)]
    stream.write("\n".join(lines) + "\n")
