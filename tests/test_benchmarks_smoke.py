"""CI smoke test of the benchmarks: every workload's correctness check, at tiny sizes, for
every installed contender (flowgrad, real torch, MyGrad, HIPS autograd) against hand-written NumPy.
No timing: only that each contender computes NumPy's gradients (twice in a row, from the same step)."""
from __future__ import annotations

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from benchmarks import harness, suite  # noqa: E402

_LOADED = harness.load_contenders()
_INSTALLED = [n for n, c in _LOADED.items() if not c.missing]


@pytest.mark.parametrize("contender", _INSTALLED)
@pytest.mark.parametrize("workload", suite.WORKLOADS, ids=lambda w: w.name)
def test_gradients_match_hand_written_numpy(workload, contender):
    d = workload.data(**workload.sizes["tiny"])
    try:
        harness.check(workload, contender, d)
    except harness.Unsupported as e:
        pytest.skip(f"{contender} cannot express {workload.name}: {e}")
    except harness.NotAvailable as e:
        pytest.skip(str(e))


def test_memory_measurement_runs_for_flowgrad():
    w = next(w for w in suite.WORKLOADS if w.kind == "memory")
    value, method = w.measure("flowgrad", w.data(**w.sizes["tiny"]))
    assert method == "tracemalloc" and value > 0


def test_table_renders_from_a_tiny_run():
    from benchmarks import report
    names = ["numpy", "flowgrad"]
    contenders, cells, records = suite.run(only="chain,memory", names=names, scale="tiny", repeats=1,
                                           log=lambda m: None)
    assert records is not None
    info = report.machine(contenders, None, "tiny", 1)
    md = report.render_markdown(info, records, cells, names, "python -m benchmarks")
    assert "| chain | us/op |" in md and "graph memory at most 600 B/op" in md
    assert report.as_json(info, records, cells)["workloads"][0]["results"]["flowgrad"]["status"] == "ok"


def test_a_sectioned_workload_gets_its_own_heading_and_no_target():
    from benchmarks import report
    names = ["numpy", "flowgrad"]
    contenders, cells, records = suite.run(only="chain,lstm", names=names, scale="tiny", repeats=1,
                                           log=lambda m: None)
    info = report.machine(contenders, None, "tiny", 1)
    md = report.render_markdown(info, records, cells, names, "python -m benchmarks")
    results, rest = md.split("## Recurrent networks")
    assert "| chain | us/op |" in results and "| lstm |" not in results
    assert "| lstm | ms |" in rest.split("## Performance targets")[0]
    assert report.targets(report.sections(records)[0]) == report.targets([r for r in records if r["name"] == "chain"])
    assert "recurrent networks (no target):" in report.render_text(info, records, cells, names)


def test_a_wrong_gradient_fails_loudly():
    w = next(w for w in suite.WORKLOADS if w.name == "chain")
    d = w.data(**w.sizes["tiny"])

    class Wrong(type(w)):
        def build(self, contender, data):
            step = super().build(contender, data)
            if contender == "numpy":
                return step
            return lambda: [g * 1.01 for g in map(harness.to_numpy, step())]

    with pytest.raises(harness.CheckFailed, match="differs from NumPy's"):
        harness.check(Wrong(), "flowgrad", d)


def test_flowgrad_bench_runs_the_benchmark_cli(capfd):
    from flowgrad import cli
    assert cli.main(["bench", "--help"]) == 0
    assert "python -m benchmarks" in capfd.readouterr().out


def test_flowgrad_cli_refuses_an_unknown_command(capfd):
    from flowgrad import cli
    assert cli.main(["benchmark"]) == 2
    assert "unknown command 'benchmark'" in capfd.readouterr().err
