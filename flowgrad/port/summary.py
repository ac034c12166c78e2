"""The summary a port prints at its end: the convert rate, then each API translated, written into
the port as a function, left in place or assumed to be a tensor method, most used first; and the
same as JSON."""
from __future__ import annotations

from .translate import Outcome


def _rows(counter) -> list[tuple[int, str, str]]:
    rows = []
    for key, n in counter.items():
        api, why = key if isinstance(key, tuple) else (key, "")
        rows.append((n, api, why))
    return sorted(rows, key=lambda r: (-r[0], r[1]))


def text(outcome: Outcome, source: str, target: str) -> str:
    done = sum(outcome.translated.values()) + sum(outcome.added.values())
    left = sum(outcome.left.values()) + sum(outcome.assumed.values())
    lines = [f"flowgrad port {source} -> {target}: {outcome.rate():.1f}% converted ({done} uses translated, {left} "
             f"left in place, {len(outcome.flags)} autograd difference{'s' * (len(outcome.flags) != 1)} flagged)"]
    for title, counter in (("translated", outcome.translated), (f"added (written in {target}'s API)", outcome.added),
                           ("left", outcome.left), ("assumed tensor", outcome.assumed)):
        rows = _rows(counter)
        if rows:
            lines.append(f"  {title}:")
            lines += [f"    {n:>4}  {api}" + (f"  ({why})" if why else "") for n, api, why in rows]
    if outcome.flags:
        lines.append("  flagged:")
        lines += [f"    line {line}: {why}" for line, _, why in outcome.flags]
    return "\n".join(lines)


def as_json(outcome: Outcome, source: str, target: str) -> dict:
    def entries(counter):
        return [{"api": api, "count": n, **({"why": why} if why else {})} for n, api, why in _rows(counter)]
    return {"from": source, "to": target, "convert_rate": round(outcome.rate(), 2),
            "translated": entries(outcome.translated),
            "added": [{"api": api, "count": n, "function": name} for n, api, name in _rows(outcome.added)],
            "left": entries(outcome.left),
            "assumed_tensor": entries(outcome.assumed),
            "flags": [{"line": line, "kind": kind, "why": why} for line, kind, why in outcome.flags]}
