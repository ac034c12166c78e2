"""Shared helpers of the paddle facade tests (a module of its own: `conftest` is a name every test
folder shares)."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap

HAVE_PADDLE = importlib.util.find_spec("paddle") is not None


def run_isolated(code: str, module: str = "paddle", env: dict | None = None) -> subprocess.CompletedProcess:
    """Run `code` (which may `import paddle`) in a fresh interpreter: some paddle 3.3.1 cases crash
    the process. `module="flowgrad.paddle"` runs the same code against the facade."""
    prelude = "import flowgrad.paddle as paddle\n" if module == "flowgrad.paddle" else "import paddle\n"
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300, env=env)
