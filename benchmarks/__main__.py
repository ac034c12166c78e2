"""`python -m benchmarks`: pin threads (before NumPy/torch load), then run the CLI."""
from __future__ import annotations

import sys

from .threads import pin_threads_or_reexec

if __name__ == "__main__":
    pin_threads_or_reexec(sys.argv[1:])
    from .cli import main
    sys.exit(main(sys.argv[1:]))
