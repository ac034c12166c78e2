"""Recorded outcomes of the real frameworks, so a machine without them still checks the facades.

`flowgrad conformance --record` runs the real frameworks and writes `recorded/<family>.json`: per
scenario, the digest of its code and the observation. A recorded observation is used only while
the scenario's code is unchanged (same digest) and the facade imitates the recorded version.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any

from .expect import version_tuple
from .scenario import Scenario

RECORD_DIR = pathlib.Path(__file__).resolve().parent / "recorded"
_cache: dict[str, dict | None] = {}


def path_for(family: str) -> pathlib.Path:
    return RECORD_DIR / f"{family}.json"


def load(family: str) -> dict | None:
    """The recording of `family` ({"framework", "version", "scenarios"}), or None."""
    if family not in _cache:
        p = path_for(family)
        try:
            _cache[family] = json.loads(p.read_text()) if p.is_file() else None
        except (OSError, ValueError):
            _cache[family] = None
    return _cache[family]


def recorded_observation(sc: Scenario, family: str, version: str | None = None) -> tuple[str, dict] | None:
    """(label, observation) recorded for `sc`, if fresh for its code and (when given) `version`."""
    rec = load(family)
    if not rec:
        return None
    if version is not None and version_tuple(version) != version_tuple(rec["version"]):
        return None
    entry = rec["scenarios"].get(sc.id)
    if not entry or entry.get("digest") != sc.digest:
        return None
    return f"recorded {family} {rec['version']}", entry["observation"]


def write(family: str, version: str, scenarios: list[Scenario], observations: dict[str, dict]) -> pathlib.Path:
    """Write the recording of `family` (merged over an existing one for scenarios not re-run)."""
    old = load(family) or {}
    entries: dict[str, Any] = dict(old.get("scenarios", {})) if version_tuple(old.get("version", "")) == \
        version_tuple(version) else {}
    from .scenario import load_all
    known = {sc.id for sc in load_all()}
    entries = {sid: e for sid, e in entries.items() if sid in known}
    for sc in scenarios:
        if sc.id in observations:
            entries[sc.id] = {"digest": sc.digest, "observation": observations[sc.id]}
    RECORD_DIR.mkdir(parents=True, exist_ok=True)
    p = path_for(family)
    data = {"framework": family, "version": version, "scenarios": dict(sorted(entries.items()))}
    p.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    _cache.pop(family, None)
    return p
