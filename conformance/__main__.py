"""`python -m conformance` is `flowgrad conformance`."""
import sys

from .cli import main

sys.exit(main())
