"""Running Python and the `flowgrad` command in fresh interpreters: aliasing changes a process's
import state, and the test process itself may have imported real torch or paddle already."""
from __future__ import annotations

import ast
import importlib.util
import os
import pathlib
import subprocess
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
COMPAT = ROOT / "compat"
EXAMPLES = ROOT / "examples"
DATA = pathlib.Path(__file__).resolve().parent / "data"
HAVE_REAL_TORCH = importlib.util.find_spec("torch") is not None
HAVE_ONEFLOW_FACADE = importlib.util.find_spec("flowgrad.oneflow") is not None


def env(*, compat: bool = False, **extra: str) -> dict[str, str]:
    """The environment for a child: this checkout's flowgrad first (compat/ before it when asked)."""
    e = {k: v for k, v in os.environ.items() if k not in ("FLOWGRAD_SHIM", "PYTHONPATH")}
    e["PYTHONPATH"] = os.pathsep.join(([str(COMPAT)] if compat else []) + [str(ROOT)])
    e.update(extra)
    return e


def python(code: str, *args: str, compat: bool = False, cwd=None, **extra: str) -> subprocess.CompletedProcess:
    """`python -c code args` in a fresh interpreter."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                          env=env(compat=compat, **extra), cwd=cwd, timeout=300)


def ok(code: str, **kw) -> str:
    """Run `code`; it must exit 0. Its stdout."""
    res = python(code, **kw)
    assert res.returncode == 0, f"exit {res.returncode}\n{res.stdout}\n{res.stderr}"
    return res.stdout


def flowgrad(*args: str, cwd=None, **extra: str) -> subprocess.CompletedProcess:
    """`python -m flowgrad args` in a fresh interpreter."""
    return subprocess.run([sys.executable, "-m", "flowgrad", *map(str, args)], capture_output=True, text=True,
                          env=env(**extra), cwd=cwd, timeout=300)


def plain_copy(example: pathlib.Path, dest: pathlib.Path) -> pathlib.Path:
    """The example without its `if "--real" not in sys.argv:` lines: plain framework code that names
    flowgrad nowhere."""
    source = example.read_text()
    header = next(n for n in ast.parse(source).body if isinstance(n, ast.If) and "--real" in ast.unparse(n.test))
    lines = source.splitlines(keepends=True)
    del lines[header.lineno - 1:header.end_lineno]
    out = dest / example.name
    out.write_text("".join(lines))
    imported = {alias.name.partition(".")[0] for node in ast.walk(ast.parse(out.read_text()))
                if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    imported |= {node.module.partition(".")[0] for node in ast.walk(ast.parse(out.read_text()))
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert "flowgrad" not in imported, imported
    return out
