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


def on_both_paddles(body: type) -> type:
    """Paddle's unittest style, run on both paddles: from a plain class of `test_*` methods that read
    `self.paddle`, define `Test<Name>Flowgrad` (on `flowgrad.paddle`) and, where real paddle is
    installed, `Test<Name>Paddle` as unittest.TestCase classes in the body's module."""
    import importlib
    import unittest

    module = sys.modules[body.__module__]
    targets = [("Flowgrad", "flowgrad.paddle")] + ([("Paddle", "paddle")] if HAVE_PADDLE else [])
    for suffix, name in targets:
        def setUp(self, _name=name):
            self.paddle = importlib.import_module(_name)
            self.paddle.set_grad_enabled(True)

        def tearDown(self):
            self.paddle.set_grad_enabled(True)

        case = type(f"Test{body.__name__}{suffix}", (body, unittest.TestCase), {"setUp": setUp, "tearDown": tearDown})
        case.__module__ = body.__module__
        setattr(module, case.__name__, case)
    return body
