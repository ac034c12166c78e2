"""`python -m flowgrad ...`: the `flowgrad` command."""
import sys

from flowgrad.cli import main

if __name__ == "__main__":
    sys.exit(main())
