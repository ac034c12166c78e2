"""The `flowgrad` command line. `flowgrad bench [options]` runs the benchmark suite of a source
checkout (the same as `python -m benchmarks [options]` from the repository root)."""
from __future__ import annotations

import pathlib
import subprocess
import sys

USAGE = """usage: flowgrad <command> [options]

commands:
  bench    flowgrad beside torch, MyGrad, HIPS autograd and hand-written NumPy
           (`flowgrad bench --help` for its options)"""


def _checkout_root() -> pathlib.Path | None:
    """The source checkout this flowgrad was installed from (editable), if it has benchmarks/."""
    root = pathlib.Path(__file__).resolve().parent.parent
    return root if (root / "benchmarks" / "__main__.py").is_file() else None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    command, rest = argv[0], argv[1:]
    if command == "bench":
        root = _checkout_root()
        if root is None:
            print("flowgrad bench: the benchmarks live in the source repository; install flowgrad from a checkout "
                  "(pip install -e .) or run `python -m benchmarks` there", file=sys.stderr)
            return 2
        return subprocess.call([sys.executable, "-m", "benchmarks", *rest], cwd=root)
    print(f"flowgrad: unknown command {command!r}\n\n{USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
