"""The runner: a scenario that raises inside an adapter, crashing and hanging real-framework
workers, implementations that are not installed, unknown names."""
from __future__ import annotations

import textwrap

import pytest

from conformance import adapters
from conformance.adapters.paddle import PaddleAdapter
from conformance.runner import run
from conformance.scenario import by_id
from conformance.verdict import AGREE, BASELINE, ERROR
from conformance.worker import WorkerSpec

IDS = ["backward_args.scalar_implicit", "backward_args.explicit_gradient", "accumulation.leaf_used_twice"]


def scenarios():
    return [by_id(i) for i in IDS]


def test_scenario_raising_inside_an_adapter_is_that_cells_error(monkeypatch):
    def broken_sum(self, x, dim=None, keepdim=False):
        raise ZeroDivisionError("adapter broke")
    monkeypatch.setattr(PaddleAdapter, "sum", broken_sum)
    result = run(["flowgrad.torch", "flowgrad.paddle"], scenarios(), use_recordings=False)
    cells = {sid: row["flowgrad.paddle"] for sid, row in result.cells.items()}
    assert cells["backward_args.scalar_implicit"].status == ERROR            # uses fw.sum
    assert "ZeroDivisionError: adapter broke" in cells["backward_args.scalar_implicit"].note
    assert cells["backward_args.explicit_gradient"].status == AGREE           # the run went on
    assert result.exit_code == 1


CRASHING = '''
import os
from conformance.adapters.torch_like import TorchAdapter

class CrashingAdapter(TorchAdapter):
    """Dies in the middle of the second scenario of each worker process ({how})."""
    runs = 0

    def begin(self):
        type(self).runs += 1
        super().begin()

    def leaf(self, *args, **kwargs):
        if type(self).runs == 2:
            {how}
        return super().leaf(*args, **kwargs)
'''


def _crashing_spec(tmp_path, monkeypatch, how: str, **kw) -> WorkerSpec:
    (tmp_path / "crashing_adapter.py").write_text(textwrap.dedent(CRASHING.format(how=how)))
    monkeypatch.syspath_prepend(str(tmp_path))      # the worker inherits sys.path
    return WorkerSpec("torch", module="flowgrad.torch", adapter="crashing_adapter:CrashingAdapter", **kw)


@pytest.mark.parametrize("how, expected", [("os.abort()", "killed by SIGABRT"),
                                           ("os._exit(3)", "exited with status 3")])
def test_crashing_worker_costs_one_cell(tmp_path, monkeypatch, how, expected):
    spec = _crashing_spec(tmp_path, monkeypatch, how)
    result = run(["torch"], scenarios(), worker_specs={"torch": spec}, use_recordings=False)
    statuses = {sid: row["torch"].status for sid, row in result.cells.items()}
    assert statuses == {IDS[0]: BASELINE, IDS[1]: ERROR, IDS[2]: BASELINE}   # a fresh worker took the rest
    note = result.cells[IDS[1]]["torch"].note
    assert expected in note and "\n" not in note
    assert result.exit_code == 1


def test_hanging_worker_times_out(tmp_path, monkeypatch):
    spec = _crashing_spec(tmp_path, monkeypatch, "import time; time.sleep(600)", timeout_s=3)
    result = run(["torch"], scenarios(), worker_specs={"torch": spec}, use_recordings=False)
    assert result.cells[IDS[1]]["torch"].status == ERROR
    assert "timed out after 3 s" in result.cells[IDS[1]]["torch"].note
    assert result.cells[IDS[2]]["torch"].status == BASELINE


def test_framework_not_installed_is_reported_not_failed(monkeypatch):
    monkeypatch.setattr(adapters, "is_installed", lambda name: name != "paddle")
    import conformance.runner as runner_module
    monkeypatch.setattr(runner_module.adapters, "is_installed", lambda name: name != "paddle")
    result = run(["flowgrad.torch", "paddle"], scenarios())
    states = {s.name: s.state for s in result.impls}
    assert states["paddle"] == "not installed"
    assert result.exit_code == 0
    assert all("paddle" not in row for row in result.cells.values())


def test_missing_facade_is_unavailable_not_failed():
    result = run(["flowgrad.oneflow", "flowgrad.torch"], scenarios())
    state = {s.name: s for s in result.impls}["flowgrad.oneflow"]
    if adapters.is_installed("flowgrad.oneflow"):
        pytest.skip("flowgrad.oneflow exists here")
    assert state.state == "not installed" and not state.ran
    assert result.exit_code == 0


def test_unknown_implementation_is_refused():
    with pytest.raises(adapters.UnknownImplementation, match="unknown implementation 'nope'"):
        run(["nope"], scenarios())
