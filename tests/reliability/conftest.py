"""pytest set-up of the reliability suite: makes the helper modules next to this file
(`reliability_config.py`, `fuzz_graphs.py`) importable under any pytest import mode and registers the
`slow` marker. The Hypothesis settings and the environment knobs live in reliability_config.py."""
from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes more than a minute on its own (deselect with -m 'not slow')")
