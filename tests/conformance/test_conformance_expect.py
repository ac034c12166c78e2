"""Version ranges and applicability of expected differences."""
from __future__ import annotations

from conformance.expect import Expect, in_range, targets, version_tuple

DOC = "https://example.org/doc"


def test_version_tuple_ignores_local_tails():
    assert version_tuple("3.3.1+flowgrad") == (3, 3, 1)
    assert version_tuple("2.13.0+cpu") == (2, 13, 0)
    assert version_tuple("unknown") == ()


def test_ranges():
    assert in_range("3.3.1", ">=3.0,<4")
    assert not in_range("4.0", ">=3.0,<4")
    assert in_range("3.3", "==3.3.0")
    assert not in_range("unknown", ">=0")


def test_expectations_are_keyed_by_family_and_version():
    exp = Expect("paddle", "r", DOC, {"a": 1}, versions=">=3")
    assert exp.applies_to("paddle", "3.3.1")
    assert not exp.applies_to("paddle", "2.6.0")
    assert not exp.applies_to("oneflow", "3.3.1")


def test_targets_by_family_or_name():
    assert targets("paddle", "flowgrad.paddle", "paddle")
    assert targets(["flowgrad.paddle"], "flowgrad.paddle", "paddle")
    assert not targets("flowgrad.paddle", "paddle", "paddle")
