"""A run without real torch or paddle says so at the end: how much it left out and how to run it all."""
from __future__ import annotations

from oracles import ORACLE_INSTALL, oracle_summary


def test_nothing_is_said_when_both_oracles_are_installed():
    assert oracle_summary(["real torch is not installed"], {"torch": 5}, {"torch": True, "paddle": True}) == []


def test_missing_oracles_are_counted_by_their_skip_reasons_and_the_twins_not_generated():
    reasons = ["real torch is not installed", "could not import 'torch': No module named 'torch'",
               "real paddle is not installed", "Graphviz is not installed", "CuPy is not installed"]
    lines = oracle_summary(reasons, {"torch": 40, "paddle": 7}, {"torch": False, "paddle": False})
    assert lines == ["real torch is not installed: 2 tests skipped and 40 comparisons against it were not generated",
                     "real paddle is not installed: 1 tests skipped and 7 comparisons against it were not generated",
                     f"to run them all: {ORACLE_INSTALL} (torch==2.13.0 CPU, paddlepaddle==3.3.1)"]


def test_only_the_missing_one_is_reported():
    lines = oracle_summary(["real paddle is not installed"], {"paddle": 3, "torch": 9}, {"torch": True, "paddle": False})
    assert lines[0].startswith("real paddle is not installed: 1 tests skipped and 3 comparisons")
    assert len(lines) == 2
