"""The catalogue itself: size and coverage, data hygiene, recorded references kept fresh, every
scenario a real check, reproducers that run on their own."""
from __future__ import annotations

import copy
import json
import pathlib
import subprocess
import sys

import pytest

from conformance import known_defects, recordings
from conformance.implementations import IMPLEMENTATIONS
from conformance.reproducer import reproducer
from conformance.scenario import GROUPS, load_all
from conformance.verdict import FAILING, Reference, judge
from conformance_helpers import ROOT, env_with_root

SCENARIOS = load_all()


def test_at_least_150_scenarios_over_every_group():
    assert len(SCENARIOS) >= 150
    per_group = {g: sum(sc.group == g for sc in SCENARIOS) for g in GROUPS}
    assert all(n >= 5 for n in per_group.values()), per_group


def test_every_scenario_says_what_it_checks_and_has_code():
    for sc in SCENARIOS:
        assert sc.checks and "\n" not in sc.checks, sc.id
        assert f"def {sc.name}(fw)" in sc.source or "def " in sc.source, sc.id


def test_documentation_pointers_are_public_urls_and_nothing_points_outside():
    shared = "/" + "shared"  # spelled in two parts so that this file does not contain what it forbids
    forbidden = (".." + shared, "/work" + shared, "issue #", "issues/")
    for path in list((ROOT / "conformance").rglob("*.py")) + [ROOT / "docs" / "CONFORMANCE.md"]:
        text = path.read_text()
        for needle in forbidden:
            assert needle not in text, f"{path}: {needle}"
    for sc in SCENARIOS:
        for exp in sc.expect:
            assert exp.doc.startswith(("https://pytorch.org/", "https://www.paddlepaddle.org.cn/",
                                       "https://oneflow.readthedocs.io/")), (sc.id, exp.doc)


def test_known_defects_name_existing_scenarios_and_facades():
    ids = {sc.id for sc in SCENARIOS}
    seen = set()
    for d in known_defects.KNOWN_DEFECTS:
        assert d.scenario in ids, d
        assert IMPLEMENTATIONS[d.impl].is_facade, d
        assert d.what and "\n" not in d.what
        assert (d.scenario, d.impl) not in seen
        seen.add((d.scenario, d.impl))


@pytest.mark.parametrize("family", ["torch", "paddle"])
def test_recorded_references_cover_the_current_scenarios(family):
    """Changing a scenario's code needs `flowgrad conformance --record` (with the real frameworks)."""
    rec = recordings.load(family)
    assert rec is not None, f"no recording for {family}"
    stale = [sc.id for sc in SCENARIOS if rec["scenarios"].get(sc.id, {}).get("digest") != sc.digest]
    assert not stale, f"recorded {family} outcomes out of date for: {stale[:10]}"


def _perturb(value):
    """A changed copy of an encoded value (or None when there is nothing to change)."""
    if isinstance(value, dict) and "tensor" in value:
        v = copy.deepcopy(value)
        data = v["tensor"]["data"]
        if data:
            data[0] = (data[0] + 1) if isinstance(data[0], (int, float)) and not isinstance(data[0], bool) \
                else (not data[0] if isinstance(data[0], bool) else 1.5)
        else:
            v["tensor"]["shape"] = v["tensor"]["shape"] + [1]
        return v
    if isinstance(value, dict) and ("ok" in value or "raised" in value):
        return {"raised": {"type": "KeyError", "builtin": "KeyError", "message": "x"}} if "ok" in value else {"ok": True}
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + "?"
    if value is None:
        return 1.0
    if isinstance(value, list):
        return value + [0]
    return None


@pytest.mark.parametrize("family", ["torch", "paddle"])
def test_every_scenario_is_a_real_check(family, monkeypatch):
    """Changing any single observed value of a scenario makes its cell fail, both for a facade against
    its framework's recorded outcome and (for paddle) for the framework against torch with the
    declared differences: no scenario can pass vacuously, no expectation swallows everything."""
    monkeypatch.setattr(known_defects, "KNOWN_DEFECTS", ())
    checked = 0
    for sc in SCENARIOS:
        rec = recordings.recorded_observation(sc, family)
        base = recordings.recorded_observation(sc, "torch")
        assert rec is not None and base is not None, sc.id
        label, obs = rec
        if obs["status"] != "ok":
            assert obs["status"] == "unsupported", (sc.id, obs)
            continue
        assert obs["values"], sc.id
        baseline = Reference(*base)
        for key, value in obs["values"].items():
            mutated = copy.deepcopy(obs)
            mutated["values"][key] = _perturb(value)
            facade = judge(sc, f"flowgrad.{family}", family, "0", True, mutated, Reference(label, obs), baseline,
                           False)
            assert facade.status in FAILING, (sc.id, key, facade.status)
            if family != "torch" and base[1]["status"] == "ok":
                real = judge(sc, family, family, "3.3.1", False, mutated, None, baseline, False)
                assert real.status in FAILING, (sc.id, key, real.status)
            checked += 1
    assert checked >= 300


def test_reproducer_runs_on_its_own(tmp_path):
    sc = next(s for s in SCENARIOS if s.id == "retain_graph.twice_saved")
    code = reproducer(sc, "flowgrad.paddle", "torch", [])
    path = tmp_path / "repro.py"
    path.write_text(code)
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, cwd=tmp_path,
                          env=env_with_root(), timeout=120)
    assert proc.returncode == 0, proc.stderr
    obs = json.loads(proc.stdout)
    assert obs["status"] == "ok" and obs["values"]["second"]["raised"]["builtin"] == "SystemError"


def test_generated_reproducer_for_a_generated_scenario(tmp_path):
    sc = next(s for s in SCENARIOS if s.id == "numeric.mul_2x1_by_1x3")
    path = tmp_path / "repro.py"
    path.write_text(reproducer(sc, "flowgrad.torch", "torch", []))
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, cwd=tmp_path,
                          env=env_with_root(), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["values"]["b.grad"]["tensor"]["shape"] == [1, 3]


def test_docs_page_exists():
    assert pathlib.Path(ROOT / "docs" / "CONFORMANCE.md").is_file()
