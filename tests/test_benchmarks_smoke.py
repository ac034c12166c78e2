"""CI smoke test of the benchmarks: every workload's correctness check, at tiny sizes, for
every installed contender (flowgrad, real torch, MyGrad, HIPS autograd) against hand-written NumPy.
No timing: only that each contender computes NumPy's gradients (twice in a row, from the same step)."""
from __future__ import annotations

import pathlib
import statistics
import sys

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from benchmarks import harness, suite  # noqa: E402

_LOADED = harness.load_contenders()
_INSTALLED = [n for n, c in _LOADED.items() if not c.missing]


@pytest.mark.parametrize("contender", _INSTALLED)
@pytest.mark.parametrize("workload", suite.WORKLOADS, ids=lambda w: w.name)
def test_gradients_match_hand_written_numpy(workload, contender):
    if workload.unavailable():
        pytest.skip(workload.unavailable())
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
    assert "| chain | us/op |" in md and "graph memory at most 450 B/op" in md
    assert report.as_json(info, records, cells)["workloads"][0]["results"]["flowgrad"]["status"] == "ok"


def test_a_sectioned_workload_gets_its_own_heading_and_no_target():
    from benchmarks import report
    names = ["numpy", "flowgrad"]
    contenders, cells, records = suite.run(only="chain,lstm,transformer", names=names, scale="tiny", repeats=1,
                                           log=lambda m: None)
    info = report.machine(contenders, None, "tiny", 1)
    md = report.render_markdown(info, records, cells, names, "python -m benchmarks")
    results, rest = md.split("## Recurrent networks")
    assert "| chain | us/op |" in results and "| lstm |" not in results and "| transformer |" not in results
    recurrent, attention = rest.split("## Attention")
    assert "| lstm | ms |" in recurrent and "| transformer |" not in recurrent
    assert "| transformer | ms |" in attention.split("## Performance targets")[0]
    assert report.targets(report.sections(records)[0]) == report.targets([r for r in records if r["name"] == "chain"])
    text = report.render_text(info, records, cells, names)
    assert "recurrent networks (no target):" in text and "attention (no target):" in text


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


def test_compare_reads_the_recorded_tables():
    from benchmarks import compare
    text = (pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "RESULTS.md").read_text()
    recorded, command = compare.read_recorded(text)
    assert command.startswith("python -m benchmarks")
    for workload in suite.ORDER:
        if f"| {workload} |" in text:
            row = recorded[workload]["flowgrad"]
            assert row["value"] > 0 and row["x_numpy"] > 0, workload
    assert set(recorded["chain"]) >= {"numpy", "flowgrad"}


def _record(name, flowgrad, torch, kind="time"):
    f, t = statistics.median(flowgrad), statistics.median(torch)
    return {"name": name, "kind": kind, "results": {
        "flowgrad": {"value": f, "x_torch": f / t, "samples": flowgrad},
        "torch": {"value": t, "x_torch": 1.0, "samples": torch}}}


def test_compare_says_which_ratios_moved_beyond_their_noise():
    from benchmarks import compare
    steady = [1.0, 1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 1.01, 0.99, 1.0]
    records = [_record("chain", [2 * v for v in steady], steady),        # 2.0x torch now
               _record("mlp-f64", [0.9 * v for v in steady], steady),    # 0.9x torch now
               _record("hvp", [1.3 * v for v in steady], steady)]        # unchanged
    recorded = {"chain": {"flowgrad": {"x_torch": 1.0}}, "mlp-f64": {"flowgrad": {"x_torch": 1.2}},
                "hvp": {"flowgrad": {"x_torch": 1.3}}}
    rows = {r["workload"]: r for r in compare.compare(records, recorded)}
    assert [rows[w]["verdict"] for w in ("chain", "mlp-f64", "hvp")] == ["slower", "faster", "within noise"]
    assert rows["chain"]["change"] == pytest.approx(1.0)
    assert 0 < rows["hvp"]["noise"] < 0.05
    text = compare.render(list(rows.values()), "RESULTS.md", None)
    assert "2 of 3 ratios moved: chain x torch slower, mlp-f64 x torch faster" in text


def test_compare_noise_grows_with_the_spread_and_warns_on_other_settings():
    from benchmarks import compare
    base = [1.0] * 20
    tight = compare.ratio_noise([1.0, 1.01] * 10, base)
    loose = compare.ratio_noise([0.5, 1.5] * 10, base)
    assert tight < 0.02 < loose
    assert compare.ratio_noise([1.0, 1.0], [1.0, 1.0]) == float("inf")    # too few repetitions to say
    assert compare.settings_note("python -m benchmarks --threads 1 --clock cpu", ["--clock", "cpu", "--threads", "1"]) is None
    note = compare.settings_note("python -m benchmarks --threads 1 --clock cpu", ["--quick", "--threads=1"])
    assert "--clock cpu --threads 1" in note and "--quick --threads 1" in note


def test_gpu_workloads_stay_out_of_a_cpu_run_and_say_why_when_named():
    from benchmarks import gpu
    if not gpu.cuda_missing():
        pytest.skip("a CUDA device is present: the GPU workload runs")
    assert "mlp-cuda" not in [w.name for w in suite.select(None)]
    assert [w.name for w in suite.select("mlp")] == ["mlp-f64", "mlp-f32"]
    names = ["numpy", "flowgrad"]
    contenders, cells, records = suite.run(only="mlp-cuda", names=names, scale="tiny", repeats=1, log=lambda m: None)
    assert {c["status"] for c in cells["mlp-cuda"].values()} == {"not available"}
    assert "value" not in records[0]["results"]["flowgrad"]


def test_a_device_workload_keeps_its_tensors_on_the_device():
    """The GPU MLP's own code, on flowgrad's second (fake) device where no GPU exists."""
    from benchmarks import gpu, mlp
    from flowgrad.testing import fake_device
    fake_device.register()

    class OnFake(gpu.MLPCuda):
        device = "fake"
        torchlike = mlp.MLP.torchlike

        def unavailable(self):
            return ""

        def impl_numpy(self, d):
            return mlp.hand_written_step(np, d["x"], d["y"], d["params"])

    w = OnFake()
    d = w.data(**w.sizes["tiny"])
    harness.check(w, "flowgrad", d)
    assert {g.device.type for g in w.build("flowgrad", d)()} == {"fake"}


def _doc(sections: dict[str, str], table: str) -> str:
    out = "# flowgrad benchmark results\n\nRegenerated by `cmd`.\n\n## Machine\n\n- cpu\n\n## Results\n\n" + table + "\n\n"
    out += "".join(f"## {h}\n\n{t}\n\n" for h, t in sections.items())
    return out + "## Performance targets for flowgrad\n\n| t |\n\n## Reference figures\n\nref\n"


def test_results_keep_sections_that_a_run_did_not_measure():
    from benchmarks.report import merge_results
    recorded = _doc({"Recurrent networks": "old lstm", "GPU": "H100 figures"}, "old main")
    # a CPU run of the main table and the LSTM: the GPU section is kept, the LSTM one replaced
    merged = merge_results(recorded, _doc({"Recurrent networks": "new lstm"}, "new main"), main_measured=True)
    assert "new main" in merged and "old main" not in merged
    assert "new lstm" in merged and "old lstm" not in merged
    assert merged.index("## GPU") < merged.index("## Performance targets") and "H100 figures" in merged
    # a GPU-only run: the recorded main table and LSTM stay, the GPU section is replaced
    merged = merge_results(recorded, _doc({"GPU": "H200 figures"}, ""), main_measured=False)
    assert "old main" in merged and "old lstm" in merged and "H200 figures" in merged and "H100" not in merged
    assert merged.count("## ") == recorded.count("## ")


def test_import_time_is_measured_per_facade_in_fresh_interpreters():
    from benchmarks import report
    names = ["numpy", "flowgrad"]
    contenders, cells, records = suite.run(only="import", names=names, scale="tiny", repeats=1, log=lambda m: None)
    flow = records[0]["results"]["flowgrad"]
    assert flow["status"] == "ok" and set(flow["facades"]) == {"flowgrad.torch", "flowgrad.oneflow", "flowgrad.paddle"}
    assert 0 < flow["value"] == flow["facades"]["flowgrad.torch"] < 60
    label, shown, verdict = next(t for t in report.targets(records) if t[0].startswith("import of each facade"))
    assert shown.endswith(" s") and verdict in ("met", "NOT met")
