"""The verdict of one cell (scenario x implementation) from the observations of a run.

Two comparisons decide it:
1. *Family pair*: a facade against its own real framework (live, or its recorded outcome): they
   must agree exactly; a listed known defect turns a disagreement into "known defect".
2. *Across families*: every implementation against the baseline (torch: live, recorded, or
   flowgrad.torch when neither exists); a difference is fine only when the scenario declares it
   for that family (an `Expect`) and the observed values are the declared ones.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import known_defects
from .compare import Diff, diff_values, matches, worst_kind
from .expect import Expect
from .known_defects import KnownDefect
from .scenario import Scenario

AGREE = "agree"
EXPECTED = "expected difference"
STALE = "stale"
VALUE = "value differs"
GRADIENT = "gradient differs"
DTYPE = "dtype differs"
EXCEPTION = "exception differs"
DEFECT = "known defect"
UNSUPPORTED = "unsupported"
ERROR = "error"
SKIPPED = "skipped"
BASELINE = "baseline"

STATUSES = (AGREE, BASELINE, EXPECTED, DEFECT, UNSUPPORTED, SKIPPED, STALE, VALUE, GRADIENT, DTYPE,
            EXCEPTION, ERROR)
FAILING = frozenset({STALE, VALUE, GRADIENT, DTYPE, EXCEPTION, ERROR})
_BY_KIND = {"exception": EXCEPTION, "dtype": DTYPE, "gradient": GRADIENT, "value": VALUE}


@dataclass
class Cell:
    """The verdict for one scenario on one implementation."""

    status: str
    against: str = ""              # what it was compared with ("paddle", "recorded torch 2.13.0", ...)
    note: str = ""                 # reason, defect text, error detail
    diffs: list[Diff] = field(default_factory=list)
    expect: Expect | None = None
    defect: KnownDefect | None = None

    @property
    def failing(self) -> bool:
        return self.status in FAILING

    def to_json(self) -> dict:
        out: dict[str, Any] = {"status": self.status, "against": self.against, "note": self.note,
                               "diffs": [d.to_json() for d in self.diffs]}
        if self.expect:
            out["expect"] = {"family": self.expect.family, "reason": self.expect.reason,
                             "doc": self.expect.doc, "versions": self.expect.versions}
        if self.defect:
            out["defect"] = self.defect.what
        return out


@dataclass
class Reference:
    """An observation to compare with, and how to name it in reports."""

    label: str
    observation: dict


def _usable(ref: Reference | None) -> bool:
    return ref is not None and ref.observation.get("status") == "ok"


def judge(sc: Scenario, impl: str, family: str, version: str, is_facade: bool, observation: dict,
          pair: Reference | None, baseline: Reference | None, is_baseline: bool) -> Cell:
    """The cell for `impl` on `sc` (see the module docstring for the rules)."""
    status = observation.get("status")
    defect = known_defects.find(sc.id, impl) if is_facade else None
    if status == "unsupported":
        return Cell(UNSUPPORTED, note=observation.get("detail", ""))
    pair_checked = is_facade and _usable(pair)
    if status == "error":
        if defect and pair_checked:
            return Cell(DEFECT, against=pair.label, note=defect.what, defect=defect)
        return Cell(ERROR, note=observation.get("detail", ""))
    values = observation["values"]
    if pair_checked:
        diffs = diff_values(values, pair.observation["values"])
        if diffs:
            if defect:
                return Cell(DEFECT, against=pair.label, note=defect.what, diffs=diffs, defect=defect)
            return Cell(_BY_KIND[worst_kind(diffs)], against=pair.label,
                        note=f"differs from {pair.label}", diffs=diffs)
        if defect:
            return Cell(STALE, against=pair.label, defect=defect,
                        note=f"listed known defect no longer shows (agrees with {pair.label}): {defect.what}")
    cell = _across(sc, family, version, values, baseline, is_baseline, pair_checked,
                   pair.label if pair_checked else "")
    if defect and not pair_checked:
        if cell.failing:
            return Cell(DEFECT, against=cell.against, note=defect.what, diffs=cell.diffs, defect=defect)
        if cell.status in (AGREE, EXPECTED):
            return Cell(STALE, against=cell.against, defect=defect,
                        note=f"listed known defect no longer shows: {defect.what}")
    return cell


def _across(sc: Scenario, family: str, version: str, values: dict, baseline: Reference | None,
            is_baseline: bool, pair_checked: bool, pair_label: str) -> Cell:
    if is_baseline:
        return Cell(AGREE, against=pair_label) if pair_checked else Cell(BASELINE, note="the reference outcome")
    if not _usable(baseline):
        if pair_checked:
            return Cell(AGREE, against=pair_label)
        return Cell(SKIPPED, note="no torch outcome to compare with")
    exp = sc.expectation_for(family, version) if family != "torch" else None
    diffs = diff_values(values, baseline.observation["values"])
    against = f"{pair_label} and {baseline.label}" if pair_checked and pair_label != baseline.label else baseline.label
    if not diffs:
        if exp:
            return Cell(STALE, against=against, expect=exp,
                        note=f"expected difference no longer shows (agrees with {baseline.label}): {exp.reason}")
        return Cell(AGREE, against=against)
    if exp is None:
        return Cell(_BY_KIND[worst_kind(diffs)], against=baseline.label,
                    note=f"differs from {baseline.label}; no expected difference declared for {family}",
                    diffs=diffs)
    wrong = [d for d in diffs if d.key not in exp.outcome or not matches(exp.outcome[d.key], d.observed)]
    if wrong:
        undeclared = [d.key for d in wrong if d.key not in exp.outcome]
        what = (f"undeclared: {', '.join(undeclared)}" if undeclared
                else "observed values are not the declared ones")
        return Cell(_BY_KIND[worst_kind(wrong)], against=baseline.label, expect=exp, diffs=wrong,
                    note=f"differs from {baseline.label} beyond the expected difference ({what})")
    differing = {d.key for d in diffs}
    stale_keys = [k for k in exp.outcome if k not in differing]
    if stale_keys:
        return Cell(STALE, against=against, expect=exp, diffs=diffs,
                    note=f"declared differences now agree with {baseline.label}: {', '.join(stale_keys)}")
    return Cell(EXPECTED, against=against, expect=exp, diffs=diffs, note=exp.reason)
