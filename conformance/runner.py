"""One conformance run: observe every scenario on every implementation, then judge each cell.

The facades run in this process (they are plain Python); each real framework runs in its own
worker process, concurrently, so a crash costs one cell and torch and paddle never meet.
"""
from __future__ import annotations

import os
import platform
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from . import adapters, recordings
from .adapters import BASELINE_FAMILY, FACADES, REAL, Unavailable
from .observe import observe
from .scenario import Scenario
from .verdict import FAILING, Cell, Reference, judge
from .worker import WorkerSpec, run_worker

Progress = Callable[[int, int, str], None]


@dataclass
class ImplState:
    """One column: whether it ran, with which version, or why not."""

    name: str
    family: str
    is_facade: bool
    state: str = "ran"            # "ran", "not installed", "unavailable"
    version: str = ""
    detail: str = ""
    seconds: float = 0.0

    @property
    def ran(self) -> bool:
        return self.state == "ran"

    def to_json(self) -> dict:
        return {"name": self.name, "family": self.family, "facade": self.is_facade, "state": self.state,
                "version": self.version, "detail": self.detail, "seconds": round(self.seconds, 3)}


@dataclass
class RunResult:
    """Everything a report needs: scenarios, columns, observations, verdicts and run metadata."""

    scenarios: list[Scenario]
    impls: list[ImplState]
    observations: dict[str, dict[str, dict]] = field(default_factory=dict)
    references: dict[str, dict[str, Reference]] = field(default_factory=dict)   # sid -> impl -> pair ref
    baselines: dict[str, Reference] = field(default_factory=dict)
    cells: dict[str, dict[str, Cell]] = field(default_factory=dict)
    recording_drift: list[str] = field(default_factory=list)
    meta: dict = field(default_factory=dict)

    def ran(self) -> list[ImplState]:
        return [i for i in self.impls if i.ran]

    def counts(self) -> Counter:
        return Counter(c.status for row in self.cells.values() for c in row.values())

    def failing(self) -> list[tuple[Scenario, str, Cell]]:
        return [(sc, impl, cell) for sc in self.scenarios for impl, cell in self.cells.get(sc.id, {}).items()
                if cell.status in FAILING]

    @property
    def exit_code(self) -> int:
        return 1 if self.failing() or self.recording_drift else 0


def default_impls() -> list[str]:
    """The three facades, plus every real framework installed here."""
    return FACADES + [n for n in REAL if adapters.is_installed(n)]


def run(impl_names: list[str] | None, scenarios: list[Scenario], *, progress: Progress | None = None,
        worker_specs: dict[str, WorkerSpec] | None = None, use_recordings: bool = True) -> RunResult:
    """Observe `scenarios` on the implementations and judge every cell."""
    names = list(impl_names) if impl_names else default_impls()
    for n in names:
        adapters.get(n)   # raises UnknownImplementation
    names = [n for n in adapters.IMPLEMENTATIONS if n in names]     # canonical column order
    result = RunResult(scenarios, [ImplState(n, adapters.get(n).family, adapters.get(n).is_facade) for n in names])
    result.observations = {sc.id: {} for sc in scenarios}
    started = time.monotonic()
    started_at = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    lock = threading.Lock()
    total = len(scenarios) * len(names)
    done = [0]

    def tick(label: str) -> None:
        with lock:
            done[0] += 1
            if progress:
                progress(done[0], total, label)

    states = {s.name: s for s in result.impls}
    threads = []
    for name in names:
        if adapters.get(name).is_facade:
            continue
        spec = (worker_specs or {}).get(name) or WorkerSpec(name)
        if not spec.module and not spec.adapter and not adapters.is_installed(name):
            states[name].state = "not installed"
            for _ in scenarios:
                tick(name)
            continue
        t = threading.Thread(target=_run_real, args=(spec, scenarios, states[name], result, lock, tick), daemon=True)
        t.start()
        threads.append(t)
    for name in names:
        if adapters.get(name).is_facade:
            _run_facade(name, scenarios, states[name], result, tick)
    for t in threads:
        t.join()
    for sc in scenarios:
        for state in result.impls:
            if state.ran and state.name not in result.observations[sc.id]:
                result.observations[sc.id][state.name] = {"status": "error", "detail": "no outcome from the worker"}
    _judge_all(result, use_recordings)
    result.meta = run_metadata(result, time.monotonic() - started, started_at)
    return result


def _run_facade(name: str, scenarios: list[Scenario], state: ImplState, result: RunResult,
                tick: Callable[[str], None]) -> None:
    t0 = time.monotonic()
    try:
        fw = adapters.load(name)
    except Unavailable as exc:
        state.state = "not installed" if str(exc) == "not installed" else "unavailable"
        state.detail = str(exc)
        for _ in scenarios:
            tick(name)
        return
    state.version = fw.version
    for sc in scenarios:
        result.observations[sc.id][name] = observe(sc, fw)
        tick(f"{name} {sc.id}")
    state.seconds = time.monotonic() - t0


def _run_real(spec: WorkerSpec, scenarios: list[Scenario], state: ImplState, result: RunResult,
              lock: threading.Lock, tick: Callable[[str], None]) -> None:
    t0 = time.monotonic()
    seen: set[str] = set()

    def on_result(sid: str, obs: dict) -> None:
        with lock:
            result.observations[sid][spec.impl] = obs
        if sid not in seen:
            seen.add(sid)
            tick(f"{spec.impl} {sid}")

    outcome = run_worker(spec, [sc.id for sc in scenarios], on_result)
    if outcome.unavailable:
        state.state = "not installed" if outcome.unavailable == "not installed" else "unavailable"
        state.detail = outcome.unavailable
        for _ in range(len(scenarios) - len(seen)):
            tick(spec.impl)
    state.version = outcome.version
    if outcome.crashes:
        state.detail = f"{len(outcome.crashes)} crash(es)"
    state.seconds = time.monotonic() - t0


def _judge_all(result: RunResult, use_recordings: bool) -> None:
    states = {s.name: s for s in result.impls}
    ran = {s.name for s in result.impls if s.ran}
    real_torch = "torch" in ran
    for sc in result.scenarios:
        obs = result.observations[sc.id]
        if real_torch:
            baseline = Reference("torch", obs["torch"])
        else:
            rec = recordings.recorded_observation(sc, BASELINE_FAMILY) if use_recordings else None
            if rec:
                baseline = Reference(*rec)
            elif "flowgrad.torch" in ran:
                baseline = Reference("flowgrad.torch", obs["flowgrad.torch"])
            else:
                baseline = None
        result.baselines[sc.id] = baseline
        result.references[sc.id] = {}
        result.cells[sc.id] = {}
        for name in ran:
            st = states[name]
            pair = None
            if st.is_facade:
                partner = adapters.get(name).partner
                if partner in ran:
                    pair = Reference(partner, obs[partner])
                elif use_recordings:
                    rec = recordings.recorded_observation(sc, st.family, st.version)
                    pair = Reference(*rec) if rec else None
                if pair:
                    result.references[sc.id][name] = pair
            is_baseline = baseline is not None and baseline.label == name
            result.cells[sc.id][name] = judge(sc, name, st.family, st.version, st.is_facade, obs[name],
                                              pair, baseline, is_baseline)
        if use_recordings:
            for name in ran:
                st = states[name]
                if st.is_facade:
                    continue
                rec = recordings.recorded_observation(sc, st.family, st.version)
                if rec and _normalised(rec[1]) != _normalised(obs[name]):
                    result.recording_drift.append(f"{sc.id} ({name})")


def _normalised(obs: dict) -> dict:
    """An observation without its traceback (which names local paths)."""
    return {k: v for k, v in obs.items() if k != "traceback"}


def flowgrad_commit() -> str:
    """The git commit of the flowgrad checkout this runs from ("unknown" outside a checkout)."""
    import flowgrad
    root = os.path.dirname(os.path.dirname(os.path.abspath(flowgrad.__file__)))
    try:
        out = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        commit = out.stdout.strip()
        if out.returncode == 0 and commit:
            dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                                   capture_output=True, text=True, timeout=10).stdout.strip()
            return commit + ("-dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return "unknown"


def run_metadata(result: RunResult, seconds: float, started_at: str) -> dict:
    import numpy
    import flowgrad
    return {
        "flowgrad_version": flowgrad.__version__,
        "flowgrad_commit": flowgrad_commit(),
        "python": sys.version.split()[0],
        "numpy": numpy.__version__,
        "platform": platform.platform(),
        "machine": platform.machine(),
        "started": started_at,
        "seconds": round(seconds, 2),
        "baseline": sorted({r.label for r in result.baselines.values() if r}),
        "implementations": {s.name: s.to_json() for s in result.impls},
    }
