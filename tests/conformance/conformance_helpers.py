"""Helpers shared by the conformance tests (a module of its own: `conftest` is a name every test
folder shares)."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def env_with_root(extra: list[str] | None = None) -> dict:
    """The environment for a child process that must import this checkout's flowgrad and conformance."""
    env = dict(os.environ)
    parts = [str(ROOT)] + (extra or []) + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(parts)
    return env


def run_cli(*args: str, cwd: str | os.PathLike | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    """`python -m flowgrad conformance ARGS` in a child process (stdout/stderr captured, so piped)."""
    return subprocess.run([sys.executable, "-m", "flowgrad", "conformance", *args], capture_output=True,
                          text=True, cwd=cwd or ROOT, env=env_with_root(), timeout=timeout)
