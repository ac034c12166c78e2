"""pytest plugin: write cross-framework tests once and run them on every implementation.

    def test_square_grad(fw):                        # fw: the conformance adapter of one implementation
        x = fw.leaf([1., 2.])
        fw.backward(fw.sum(x * x))
        assert fw.to_numpy(fw.read_grad(x)).tolist() == [2., 4.]

    @pytest.mark.expect_difference(fw="paddle", reason="paddle seeds non-scalar outputs with ones")
    def test_nonscalar_needs_gradient(fw): ...

`fw` runs the test on flowgrad.torch, flowgrad.oneflow, flowgrad.paddle and the real torch, oneflow
and paddle (an implementation that is not installed is skipped as "not installed");
`--fw NAMES` picks some (e.g. `--fw torch,flowgrad.torch`). `expect_difference(fw=FAMILY_OR_NAME,
reason=..., doc=None, versions=None, raises=None)` marks the test as expected to fail there
(strictly: a test that passes where a difference is declared fails as stale, like XPASS(strict)).
Registered through the `pytest11` entry point; loading it imports neither a framework nor NumPy.
"""
from __future__ import annotations

from typing import Any

import pytest

from conformance.implementations import IMPLEMENTATIONS

_NAMES = tuple(IMPLEMENTATIONS)
_SELECTED = pytest.StashKey[tuple]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("flowgrad", "flowgrad cross-framework tests")
    group.addoption("--fw", action="store", default=None, metavar="NAMES",
                    help="comma-separated implementations for the `fw` fixture (default: all of "
                         f"{', '.join(_NAMES)}; the ones not installed are skipped)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "expect_difference(fw, reason, doc=None, versions=None, raises=None): the test is expected "
                   "to fail on the implementations of family or name `fw` (strict: passing there fails as stale)")
    value = config.getoption("--fw", default=None)
    if value is None:
        config.stash[_SELECTED] = _NAMES
        return
    names = tuple(n.strip() for n in value.split(",") if n.strip())
    unknown = [n for n in names if n not in IMPLEMENTATIONS]
    if unknown or not names:
        raise pytest.UsageError(f"--fw: unknown implementation {', '.join(unknown) or repr(value)}; "
                                f"choose from {', '.join(_NAMES)}")
    config.stash[_SELECTED] = names


def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    """Drop the `fw` parametrizations that --fw did not select."""
    selected = config.stash.get(_SELECTED, _NAMES)
    if selected == _NAMES:
        return
    keep, drop = [], []
    for item in items:
        callspec = getattr(item, "callspec", None)
        name = callspec.params.get("fw") if callspec is not None else None
        (drop if name is not None and name in IMPLEMENTATIONS and name not in selected else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


_adapters: dict[str, Any] = {}


def _adapter(name: str) -> Any:
    from conformance.implementations import Unavailable, load
    if name not in _adapters:
        try:
            _adapters[name] = load(name)
        except Unavailable as exc:
            _adapters[name] = exc
    return _adapters[name]


def _apply_expectations(request: pytest.FixtureRequest, fw: Any) -> None:
    from conformance.expect import in_range, targets
    for mark in request.node.iter_markers("expect_difference"):
        target = mark.kwargs.get("fw", mark.args[0] if mark.args else None)
        reason = mark.kwargs.get("reason", "")
        if not target or not reason:
            raise pytest.UsageError(f"{request.node.nodeid}: expect_difference needs fw= and reason=")
        versions = mark.kwargs.get("versions")
        if targets(target, fw.name, fw.family) and (not versions or in_range(fw.version, versions)):
            doc = mark.kwargs.get("doc")
            text = f"expected difference on {fw.name}: {reason}" + (f" ({doc})" if doc else "")
            request.applymarker(pytest.mark.xfail(reason=text, strict=True, raises=mark.kwargs.get("raises")))


@pytest.fixture(params=_NAMES)
def fw(request: pytest.FixtureRequest) -> Any:
    """The conformance adapter of one implementation (see `conformance.adapters.base.Adapter`)."""
    adapter = _adapter(request.param)
    if isinstance(adapter, Exception):
        pytest.skip(f"{request.param}: {adapter}")
    _apply_expectations(request, adapter)
    adapter.reset()
    yield adapter
    adapter.reset()
