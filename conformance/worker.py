"""Running the scenarios of one implementation in a worker process (for the real frameworks).

A crash of the framework (a segfault, an abort) ends only the worker: the scenario it was running
becomes an error cell and a fresh worker carries on with the rest. Real torch and real paddle never
share a process. The worker speaks JSON lines on its original stdout; everything the framework
prints goes to stderr.

    python -m conformance.worker IMPL [--module M] [--adapter MOD:CLASS] [--scenario-module MOD]
    (stdin: a JSON list of scenario ids)
"""
from __future__ import annotations

import argparse
import collections
import importlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

PROTOCOL_TIMEOUT_S = 120.0


# ------------------------------------------------------------------------------- worker side

def _load_adapter(impl: str, module: str | None, adapter: str | None):
    from . import adapters
    if not module and not adapter:
        return adapters.load(impl)
    info = adapters.get(impl)
    mod = importlib.import_module(module or info.module)
    if adapter:
        mod_name, cls_name = adapter.split(":")
        cls = getattr(importlib.import_module(mod_name), cls_name)
    else:
        cls = adapters.adapter_class(impl)
    return cls(impl, mod)


def worker_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.worker")
    parser.add_argument("impl")
    parser.add_argument("--module")
    parser.add_argument("--adapter")
    parser.add_argument("--scenario-module", action="append", default=[])
    args = parser.parse_args(argv)
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)                       # whatever the framework prints goes to stderr
    sys.stdout = sys.stderr

    def send(**event) -> None:
        proto.write(json.dumps(event) + "\n")
        proto.flush()

    from . import adapters
    from .observe import observe
    from .scenario import by_id, load_all
    ids = json.loads(sys.stdin.readline() or "[]")
    try:
        fw = _load_adapter(args.impl, args.module, args.adapter)
    except adapters.Unavailable as exc:
        send(event="unavailable", reason=str(exc))
        return 0
    for mod in args.scenario_module:
        importlib.import_module(mod)
    load_all()
    send(event="ready", version=fw.version)
    for sid in ids:
        send(event="start", id=sid)
        send(event="result", id=sid, observation=observe(by_id(sid), fw))
    send(event="done")
    return 0


# ------------------------------------------------------------------------------- parent side

@dataclass
class WorkerSpec:
    """How to start the worker of one implementation (overrides are for tests)."""

    impl: str
    module: str | None = None
    adapter: str | None = None
    scenario_modules: list[str] = field(default_factory=list)
    timeout_s: float = PROTOCOL_TIMEOUT_S
    max_restarts: int = 8

    def command(self) -> list[str]:
        cmd = [sys.executable, "-m", "conformance.worker", self.impl]
        if self.module:
            cmd += ["--module", self.module]
        if self.adapter:
            cmd += ["--adapter", self.adapter]
        for mod in self.scenario_modules:
            cmd += ["--scenario-module", mod]
        return cmd


@dataclass
class WorkerOutcome:
    """What a worker run produced: observations by scenario id, and the implementation's state."""

    observations: dict[str, dict] = field(default_factory=dict)
    version: str = ""
    unavailable: str = ""
    crashes: list[str] = field(default_factory=list)


def _environment() -> dict:
    env = dict(os.environ)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    import flowgrad
    roots = [here, os.path.dirname(os.path.dirname(os.path.abspath(flowgrad.__file__)))]
    roots += [p for p in sys.path if p and os.path.isdir(p) and p not in roots]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(roots))
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("GLOG_minloglevel", "2")
    env["PYTHONWARNINGS"] = "ignore"
    return env


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "killed"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with status {code}"


def run_worker(spec: WorkerSpec, ids: Iterable[str], on_result: Callable[[str, dict], None] | None = None
               ) -> WorkerOutcome:
    """Run `ids` in worker processes, restarting after a crash; every id gets an observation."""
    pending = list(ids)
    outcome = WorkerOutcome()
    restarts = 0
    while pending or not (outcome.version or outcome.unavailable):
        crashed_on = _one_worker(spec, pending, outcome, on_result)
        if outcome.unavailable:
            break
        pending = [sid for sid in pending if sid not in outcome.observations]
        if crashed_on is None:
            break
        restarts += 1
        if restarts > spec.max_restarts:
            for sid in pending:
                obs = {"status": "error", "detail": f"{spec.impl} worker crashed {restarts} times; scenario not run"}
                outcome.observations[sid] = obs
                if on_result:
                    on_result(sid, obs)
            break
    return outcome


def _one_worker(spec: WorkerSpec, ids: list[str], outcome: WorkerOutcome,
                on_result: Callable[[str, dict], None] | None) -> str | None:
    """One worker process over `ids`; returns the id it crashed on (None when it finished)."""
    proc = subprocess.Popen(spec.command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_environment(), text=True, bufsize=1)
    stderr_tail: collections.deque = collections.deque(maxlen=40)
    lines: queue.Queue = queue.Queue()

    def drain_stderr() -> None:
        for line in proc.stderr:
            stderr_tail.append(line.rstrip("\n"))

    def read_stdout() -> None:
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=drain_stderr, daemon=True).start()
    threading.Thread(target=read_stdout, daemon=True).start()
    try:
        proc.stdin.write(json.dumps(ids) + "\n")
        proc.stdin.close()
    except BrokenPipeError:
        pass
    current: str | None = None
    started = time.monotonic()
    timeout = spec.timeout_s * 3     # importing a framework may take a while
    while True:
        try:
            line = lines.get(timeout=max(0.1, timeout - (time.monotonic() - started)))
        except queue.Empty:
            proc.kill()
            proc.wait()
            if current is None and not outcome.version:
                outcome.unavailable = f"worker did not start within {timeout:.0f} s"
                return None
            return _crash(spec, current, ids, outcome, on_result, f"timed out after {spec.timeout_s:.0f} s",
                          stderr_tail)
        if line is None:
            proc.wait()
            if current is None and not outcome.version and not outcome.unavailable:
                outcome.unavailable = f"worker failed to start ({_describe_exit(proc.returncode)})" + _tail(stderr_tail)
                return None
            if current is not None:
                return _crash(spec, current, ids, outcome, on_result,
                              f"worker process {_describe_exit(proc.returncode)}", stderr_tail)
            return None
        try:
            event = json.loads(line)
        except ValueError:
            continue
        kind = event.get("event")
        if kind == "unavailable":
            outcome.unavailable = event["reason"]
        elif kind == "ready":
            outcome.version = event["version"]
        elif kind == "start":
            current, started, timeout = event["id"], time.monotonic(), spec.timeout_s
        elif kind == "result":
            outcome.observations[event["id"]] = event["observation"]
            if on_result:
                on_result(event["id"], event["observation"])
            current = None
        elif kind == "done":
            current = None


def _tail(stderr_tail: collections.deque) -> str:
    last = [l for l in stderr_tail if l.strip()]
    return f": {last[-1].strip()[:200]}" if last else ""


def _crash(spec: WorkerSpec, current: str | None, ids: list[str], outcome: WorkerOutcome,
           on_result, what: str, stderr_tail: collections.deque) -> str | None:
    if current is None:
        remaining = [sid for sid in ids if sid not in outcome.observations]
        if not remaining:
            return None
        current = remaining[0]
    detail = f"{spec.impl} {what}"
    outcome.crashes.append(f"{current}: {detail}")
    obs = {"status": "error", "detail": detail, "traceback": "\n".join(stderr_tail)[-4000:]}
    outcome.observations[current] = obs
    if on_result:
        on_result(current, obs)
    return current


if __name__ == "__main__":
    sys.exit(worker_main())
