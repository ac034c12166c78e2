"""Expected differences as data: what a framework does instead of the baseline (torch), and why.

An `Expect` belongs to one scenario and one framework family ("paddle" or "oneflow"), optionally a
version range, and declares the observed values that differ from torch's (`outcome`), a one-line
reason and a pointer to the framework's documentation. Keys it does not declare must still agree
with torch; a declared key that agrees with torch again makes the expectation *stale*.
"""
from __future__ import annotations

import builtins
import re
from dataclasses import dataclass, field
from typing import Any

FAMILIES_WITH_EXPECTATIONS = ("paddle", "oneflow")


class _Ok:
    """The step succeeded (where the baseline raised)."""

    def __repr__(self) -> str:
        return "OK"


OK = _Ok()


@dataclass(frozen=True)
class Raises:
    """The step raised `type` (a builtin exception name; subclasses match) with a message that
    `re.search`es `match` (after message normalisation)."""

    type: str
    match: str = ""

    def __post_init__(self) -> None:
        if not isinstance(getattr(builtins, self.type, None), type):
            raise ValueError(f"Raises: {self.type!r} is not a builtin exception type")
        re.compile(self.match)

    def __repr__(self) -> str:
        return f"Raises({self.type!r}, {self.match!r})"


@dataclass(frozen=True)
class Tensor:
    """A tensor value with its dtype (a plain list declares the data alone)."""

    data: Any
    dtype: str | None = None


@dataclass(frozen=True)
class Expect:
    """One expected difference of `family` from torch in one scenario."""

    family: str
    reason: str
    doc: str
    outcome: dict = field(default_factory=dict)
    versions: str | None = None

    def __post_init__(self) -> None:
        if self.family not in FAMILIES_WITH_EXPECTATIONS:
            raise ValueError(f"Expect: family must be one of {FAMILIES_WITH_EXPECTATIONS}, not {self.family!r}")
        if not self.reason or "\n" in self.reason:
            raise ValueError("Expect: reason must be one line")
        if not self.doc.startswith("https://"):
            raise ValueError(f"Expect: doc must be a documentation URL, not {self.doc!r}")
        if not self.outcome:
            raise ValueError("Expect: outcome must declare at least one differing value")
        if self.versions:
            parse_range(self.versions)

    def applies_to(self, family: str, version: str) -> bool:
        return targets(self.family, "", family) and (not self.versions or in_range(version, self.versions))


def targets(selector: str | Any, name: str, family: str) -> bool:
    """Whether an expectation aimed at `selector` (a family or an implementation name, or a list of
    them) concerns the implementation `name` of `family` (shared with the pytest marker)."""
    wanted = [selector] if isinstance(selector, str) else list(selector)
    return family in wanted or (bool(name) and name in wanted)


def spec_text(value: Any) -> str:
    """A declared value as text for reports."""
    if isinstance(value, _Ok):
        return "ok"
    if isinstance(value, Raises):
        return f"raises {value.type} matching /{value.match}/"
    if isinstance(value, Tensor):
        return f"tensor({value.data!r}" + (f", dtype={value.dtype})" if value.dtype else ")")
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(spec_text(v) for v in value) + "]"
    return repr(value)


# -------------------------------------------------------------------------------- version ranges

_CLAUSE = re.compile(r"\s*(>=|<=|==|!=|>|<)\s*([0-9][0-9.]*)\s*$")


def version_tuple(version: str) -> tuple[int, ...]:
    """'3.3.1+flowgrad' -> (3, 3, 1); non-numeric tails are ignored."""
    m = re.match(r"\d+(\.\d+)*", version.strip())
    return tuple(int(p) for p in m.group(0).split(".")) if m else ()


def parse_range(spec: str) -> list[tuple[str, tuple[int, ...]]]:
    clauses = []
    for part in spec.split(","):
        m = _CLAUSE.match(part)
        if not m:
            raise ValueError(f"bad version range clause {part!r} in {spec!r}")
        clauses.append((m.group(1), version_tuple(m.group(2))))
    return clauses


def in_range(version: str, spec: str) -> bool:
    """Whether `version` satisfies every clause of `spec` (">=3.0,<4")."""
    v = version_tuple(version)
    if not v:
        return False
    for op, bound in parse_range(spec):
        n = max(len(v), len(bound))
        padded = bound + (0,) * (n - len(bound))
        vv = v + (0,) * (n - len(v))
        if not {">=": vv >= padded, "<=": vv <= padded, "==": vv == padded, "!=": vv != padded,
                ">": vv > padded, "<": vv < padded}[op]:
            return False
    return True
