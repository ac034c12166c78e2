"""`flowgrad conformance` as a user runs it: exit codes, bad input, JSON schema, the HTML page."""
from __future__ import annotations

import html.parser
import json
import os
import re

from conformance_helpers import run_cli

FACADES = "flowgrad.torch,flowgrad.oneflow,flowgrad.paddle"


def _no_traceback(proc) -> None:
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout


def test_unknown_implementation():
    proc = run_cli("--impl", "flowgrad.torch,nope")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "flowgrad conformance: unknown implementation 'nope'; choose from flowgrad.torch, flowgrad.oneflow, "
        "flowgrad.paddle, torch, oneflow, paddle"]
    _no_traceback(proc)


def test_unwritable_html_path(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    proc = run_cli("--impl", "flowgrad.torch", "--html", str(blocker / "report.html"))
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "--html" in proc.stderr and "does not exist" in proc.stderr
    proc = run_cli("--impl", "flowgrad.torch", "--html", str(tmp_path))
    assert proc.returncode == 2 and "is a directory" in proc.stderr
    _no_traceback(proc)


def test_only_matching_nothing():
    proc = run_cli("--only", "no_such_scenario_anywhere")
    assert proc.returncode == 2 and "matches no scenario" in proc.stderr
    _no_traceback(proc)


def test_list():
    proc = run_cli("--list", "--only", "retain_graph.")
    assert proc.returncode == 0
    assert "retain_graph.twice_saved" in proc.stdout
    assert re.search(r"^\d+ scenarios$", proc.stdout, re.M)


def test_default_run_passes_and_is_quiet_when_piped():
    """CI's conformance job: where FLOWGRAD_CONFORMANCE_OUT names a folder, this run (the default one)
    also writes its reports there, conformance.json and conformance.html."""
    folder = os.environ.get("FLOWGRAD_CONFORMANCE_OUT")
    reports = ("--json", os.path.join(folder, "conformance.json"),
               "--html", os.path.join(folder, "conformance.html")) if folder else ()
    proc = run_cli(*reports)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "scenario group" in proc.stdout and "flowgrad.paddle" in proc.stdout
    assert proc.stdout.strip().splitlines()[-1].startswith("PASS: ")
    assert "\r" not in proc.stderr and "[#" not in proc.stderr      # no progress bar on a pipe
    _no_traceback(proc)


def test_default_facade_run_is_fast():
    """The facades alone (a machine with nothing else installed) take well under 30 s on 2 cores."""
    import time
    t0 = time.monotonic()
    proc = run_cli("--impl", FACADES, "--no-details")
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert time.monotonic() - t0 < 30


def test_json_records_versions_platform_and_commit(tmp_path):
    out = tmp_path / "r.json"
    proc = run_cli("--impl", FACADES, "--only", "backward_args.,numeric.add", "--json", str(out))
    assert proc.returncode == 0, proc.stdout[-2000:]
    data = json.loads(out.read_text())
    assert data["schema"] == "flowgrad-conformance/1"
    meta = data["meta"]
    for key in ("flowgrad_version", "flowgrad_commit", "python", "numpy", "platform", "started", "seconds",
                "baseline", "implementations"):
        assert key in meta
    assert re.fullmatch(r"[0-9a-f]{40}(-dirty)?|unknown", meta["flowgrad_commit"])
    impls = {i["name"]: i for i in data["implementations"]}
    assert impls["flowgrad.torch"]["version"].startswith("2.13.0")
    assert impls["flowgrad.oneflow"]["state"] in ("ran", "not installed", "unavailable")
    assert data["summary"]["exit_code"] == 0 and data["summary"]["scenarios"] == len(data["scenarios"])
    sc = next(s for s in data["scenarios"] if s["id"] == "backward_args.nonscalar_implicit")
    assert {"id", "group", "checks", "needs", "digest", "expectations", "baseline", "cells"} <= set(sc)
    assert sc["expectations"][0]["family"] in ("paddle", "oneflow") and sc["expectations"][0]["doc"].startswith("https://")
    cell = sc["cells"]["flowgrad.paddle"]
    assert cell["status"] == "expected difference"
    assert cell["observation"]["status"] == "ok" and "x.grad" in cell["observation"]["values"]


class _Page(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def test_html_report_is_self_contained_with_matrix_and_cells(tmp_path):
    out = tmp_path / "report.html"
    proc = run_cli("--impl", "flowgrad.torch,flowgrad.paddle", "--only", "retain_graph.,grad_api.basic",
                   "--html", str(out))
    assert proc.returncode == 0, proc.stdout[-2000:]
    page = _Page()
    page.feed(out.read_text())
    tags = [t for t, _ in page.tags]
    text = "".join(page.text)
    # no external assets: no scripts, stylesheets, images or frames fetched from anywhere
    assert not [a for t, a in page.tags if t in ("script", "link", "img", "iframe")]
    assert "matrix" in [a.get("class") for t, a in page.tags if t == "table"]
    assert "retain_graph and freeing (15)" in text and "autograd.grad options (1)" in text
    # one expandable cell per scenario and implementation, plus one per matrix cell
    rows = [a["id"] for t, a in page.tags if t == "tr" and "id" in a]
    assert len(rows) == 16 and "retain_graph.twice_saved" in rows
    assert tags.count("details") == 16 * 2 + 2 * 2
    assert "paddle reports freed TensorWrappers (SystemError)" in text     # the expectation's reason
    assert "def twice_saved(fw):" in text                                   # the scenario's code
    assert "PASS:" in text
