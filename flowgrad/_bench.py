"""`flowgrad bench [options]`: the benchmark suite of a source checkout (the same as
`python -m benchmarks [options]` from the repository root)."""
from __future__ import annotations

import pathlib
import subprocess
import sys


def checkout_root() -> pathlib.Path | None:
    """The source checkout this flowgrad was installed from (editable), if it has benchmarks/."""
    root = pathlib.Path(__file__).resolve().parent.parent
    return root if (root / "benchmarks" / "__main__.py").is_file() else None


def main(argv: list[str]) -> int:
    root = checkout_root()
    if root is None:
        print("flowgrad bench: the benchmarks live in the source repository; install flowgrad from a checkout "
              "(pip install -e .) or run `python -m benchmarks` there", file=sys.stderr)
        return 2
    return subprocess.call([sys.executable, "-m", "benchmarks", *argv], cwd=root)
