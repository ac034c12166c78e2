"""The JSON report: every observation and verdict, with the versions, platform and flowgrad commit
the run used (schema "flowgrad-conformance/1")."""
from __future__ import annotations

import json
from typing import Any

from .compare import describe
from .expect import OK, Raises, Tensor
from .runner import RunResult
from .scenario import GROUPS
from .verdict import FAILING

SCHEMA = "flowgrad-conformance/1"


def _spec(value: Any) -> Any:
    """An expectation's declared value as plain data."""
    if value is OK:
        return {"ok": True}
    if isinstance(value, Raises):
        return {"raises": value.type, "match": value.match}
    if isinstance(value, Tensor):
        return {"data": value.data, "dtype": value.dtype}
    if isinstance(value, (list, tuple)):
        return [_spec(v) for v in value]
    if isinstance(value, dict):
        return {k: _spec(v) for k, v in value.items()}
    return value


def to_data(result: RunResult) -> dict:
    counts = result.counts()
    scenarios = []
    for sc in result.scenarios:
        cells = {}
        for impl, cell in result.cells.get(sc.id, {}).items():
            entry = cell.to_json()
            entry["observation"] = result.observations[sc.id][impl]
            ref = result.references.get(sc.id, {}).get(impl)
            if ref:
                entry["pair_reference"] = ref.label
            cells[impl] = entry
        base = result.baselines.get(sc.id)
        scenarios.append({
            "id": sc.id, "group": sc.group, "checks": sc.checks, "needs": sorted(sc.needs), "digest": sc.digest,
            "expectations": [{"family": e.family, "reason": e.reason, "doc": e.doc, "versions": e.versions,
                              "outcome": _spec(e.outcome)} for e in sc.expect],
            "baseline": base.label if base else None,
            "cells": cells,
        })
    return {
        "schema": SCHEMA,
        "meta": result.meta,
        "implementations": [s.to_json() for s in result.impls],
        "summary": {"scenarios": len(result.scenarios), "cells": sum(counts.values()),
                    "counts": dict(sorted(counts.items())), "failing": sum(counts[s] for s in FAILING),
                    "recording_drift": result.recording_drift, "exit_code": result.exit_code},
        "groups": {g: t for g, t in GROUPS.items() if any(sc.group == g for sc in result.scenarios)},
        "scenarios": scenarios,
    }


def to_json_text(result: RunResult) -> str:
    return json.dumps(to_data(result), indent=1, default=describe) + "\n"
