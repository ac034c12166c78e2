"""`flowgrad check`: framework API uses found without running the code, each asked of the facade."""
from __future__ import annotations

import functools
import json
import os
import pty
import shutil
import subprocess
import sys
import textwrap

import pytest

from shim_helpers import DATA, EXAMPLES, ROOT, env, flowgrad

from flowgrad import check
from flowgrad._check.support import Support, accepts

PLANTED = DATA / "planted.py"
PLANTED_REL = os.path.relpath(PLANTED, ROOT)


def _check_code(tmp_path, code: str, frameworks=check.FRAMEWORKS, **kw) -> check.Result:
    path = tmp_path / "snippet.py"
    path.write_text(textwrap.dedent(code))
    return check.check_paths([str(path)], frameworks, **kw)


def _counts(result: check.Result) -> dict[str, tuple[str, int]]:
    return {r.api: (r.status, r.count) for r in result.rows}


# ------------------------------------------------------------------------------ exact figures

def test_the_examples_are_fully_covered():
    res = flowgrad("check", "examples", "--json", cwd=ROOT)
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert report["files"] == len(list((ROOT / "examples").glob("*.py"))) == 13 and report["errors"] == []
    assert report["coverage"] == {"apis": {"covered": 167, "total": 167, "percent": 100.0},
                                  "uses": {"covered": 369, "total": 369, "percent": 100.0}}
    assert report["counts"] == {"unsupported": 0, "differs": 4, "supported": 163, "unresolved": 38}
    rows = {r["api"]: r for r in report["apis"]}
    assert [(r["api"], r["count"]) for r in report["apis"][:4]] == [
        ("torch.manual_seed", 3), ("torch.load", 1), ("torch.nn.Dropout", 1), ("torch.save", 1)]
    assert rows["torch.tensor"]["count"] == 38 and rows["torch.tensor"]["places"][0] == {
        "path": "examples/char_lstm.py", "line": 64, "col": 21}
    assert rows["torch.nn.utils.rnn.pack_padded_sequence(enforce_sorted=)"]["status"] == "supported"
    assert rows["paddle.to_tensor"]["count"] == 7 and rows["torch.Tensor.item"]["status"] == "supported"
    assert rows["torch.Tensor.item?"]["status"] == "unresolved"


def test_the_planted_file_table_and_figure():
    res = flowgrad("check", PLANTED_REL, cwd=ROOT)
    assert res.returncode == 1, res.stderr
    lines = res.stdout.splitlines()
    p = PLANTED_REL
    assert lines[:8] == [
        "status        uses  API                                      first places",
        f"unsupported      1  torch.Tensor.refine_names                {p}:10",
        f"unsupported      1  torch.distributed                        {p}:4",
        f"unsupported      1  torch.distributed.init_process_group     {p}:8",
        f"unsupported      1  torch.jit.freeze                         {p}:11",
        f"unsupported      1  torch.nn.Linear.planted_method           {p}:14",
        f"unsupported      1  torch.zeros(names=)                      {p}:9",
        f"differs          1  torch.manual_seed                        {p}:7",
    ]
    assert f"supported        2  torch.nn.Linear                          {p}:5, {p}:12" in lines
    assert f"unresolved       1  torch.Tensor.mean?                       {p}:21" in lines
    assert "torch.jit.trace" not in res.stdout                         # its line says `# flowgrad: ignore`
    assert lines[-5:-3] == ["known to differ:", "  torch.manual_seed: " + check.known_differences("torch")[
        "torch.manual_seed"]]
    assert lines[-3:] == [
        "unresolved: 2 calls of 2 Tensor method names on receivers of unknown type (not counted below)",
        "checked 1 file: 6 unsupported APIs",
        "coverage: 18 of 24 APIs (75.0%), 19 of 25 uses (76.0%)",
    ]


def test_the_planted_file_parsable():
    res = flowgrad("check", PLANTED_REL, "--format", "parsable", cwd=ROOT)
    assert res.returncode == 1
    p = PLANTED_REL
    assert [line.split(" (")[0] for line in res.stdout.splitlines()] == [
        f"{p}:4:8: unsupported: torch.distributed",
        f"{p}:7:1: differs: torch.manual_seed",
        f"{p}:8:1: unsupported: torch.distributed.init_process_group",
        f"{p}:9:41: unsupported: torch.zeros(names=)",
        f"{p}:10:7: unsupported: torch.Tensor.refine_names",
        f"{p}:11:12: unsupported: torch.jit.freeze",
        f"{p}:14:7: unsupported: torch.nn.Linear.planted_method",
    ]


def test_fail_under_gates_on_coverage_by_use():
    assert flowgrad("check", PLANTED_REL, "--fail-under", "76", cwd=ROOT).returncode == 0
    assert flowgrad("check", PLANTED_REL, "--fail-under", "76.5", cwd=ROOT).returncode == 1
    assert flowgrad("check", "examples", "--fail-under", "100", cwd=ROOT).returncode == 0


def test_json_is_stable_and_versioned():
    report = json.loads(flowgrad("check", PLANTED_REL, "--json", cwd=ROOT).stdout)
    assert list(report) == ["schema", "version", "flowgrad_version", "frameworks", "missing_facades", "files",
                            "errors", "coverage", "counts", "apis"]
    assert (report["schema"], report["version"], report["frameworks"]) == ("flowgrad-check", 1,
                                                                          ["torch", "oneflow", "paddle"])
    assert report["apis"][0] == {
        "api": "torch.Tensor.refine_names", "framework": "torch", "kind": "tensor", "status": "unsupported",
        "reason": "flowgrad's torch.Tensor has no 'refine_names'", "count": 1,
        "places": [{"path": PLANTED_REL, "line": 10, "col": 7}]}
    assert {r["kind"] for r in report["apis"]} == {"api", "keyword", "tensor", "method", "unresolved"}
    assert report["coverage"]["uses"] == {"covered": 19, "total": 25, "percent": 76.0}


# ------------------------------------------------------------------------------ what counts as a use

def test_every_import_alias_and_assignment_reaches_the_same_api(tmp_path):
    res = _check_code(tmp_path, """
        import torch as t
        import torch.nn.functional as F
        from torch import nn as layers
        from torch.nn import ReLU
        act = t.nn.functional
        relu = t.nn.functional.relu
        F.relu(t.ones(1)); layers.functional.relu(t.ones(1)); act.relu(t.ones(1)); relu(t.ones(1)); ReLU()
    """, ["torch"])
    counts = _counts(res)
    assert counts["torch.nn.functional.relu"] == ("supported", 5)    # F., layers.functional., act., relu =, relu()
    assert counts["torch.nn.functional"] == ("supported", 2)         # the import and `act = ...`
    assert counts["torch.nn.ReLU"] == ("supported", 2)               # the from-import and the call
    assert counts["torch.ones"] == ("supported", 4) and "torch" not in counts


def test_scopes_shadowing_and_tensor_typing(tmp_path):
    res = _check_code(tmp_path, """
        import torch

        def shadowed(torch):
            return torch.no_such_thing()          # a parameter named torch: not the framework

        def typed(x: torch.Tensor, y):
            x.no_such_method()                    # annotated: a tensor
            y.no_such_method()                    # unknown receiver, and no Tensor method has that name
            y.sum()                               # unknown receiver named like a Tensor method: unresolved

        a = torch.zeros(2)
        b = 2 * a + 1
        c = b[0]
        d = a.add_(1)
        e = a.sum()                               # a method result: not typed, no guessing
        b.no_such_b(); c.no_such_c(); d.no_such_d(); e.no_such_e()
        a.grad.no_such_grad()
        class Net(torch.nn.Module):
            def forward(self, x):
                return self.norm(x)               # self is never taken for a tensor
    """, ["torch"])
    counts = _counts(res)
    unsupported = {api for api, (status, _) in counts.items() if status == "unsupported"}
    assert unsupported == {"torch.Tensor.no_such_method", "torch.Tensor.no_such_b", "torch.Tensor.no_such_c",
                           "torch.Tensor.no_such_d", "torch.Tensor.no_such_grad"}
    assert counts["torch.Tensor.sum?"] == ("unresolved", 1) and counts["torch.Tensor.sum"] == ("supported", 1)
    assert "torch.Tensor.norm?" not in counts and counts["torch.nn.Module"] == ("supported", 1)


def test_an_optional_import_and_a_none_placeholder_keep_their_type(tmp_path):
    res = _check_code(tmp_path, """
        try:
            import torch
        except ImportError:
            torch = None
        best = None
        for step in range(3):
            best = torch.zeros(2)
        best.no_such_method()
        other = 0
        other = torch.zeros(2)
        other.no_such_other()                     # bound to an int too: not a tensor
    """, ["torch"])
    counts = _counts(res)
    assert counts["torch.zeros"] == ("supported", 2)
    assert counts["torch.Tensor.no_such_method"] == ("unsupported", 1) and "torch.Tensor.no_such_other" not in counts


def test_keywords_are_asked_of_the_signature(tmp_path):
    res = _check_code(tmp_path, """
        import torch
        torch.nn.Linear(2, 3, bias=False, no_such_kw=1)
        torch.add(torch.ones(1), 1, out=None, alpha=2, no_such_kw=3)
        torch.empty(2, memory_format=None)
        torch.no_such_fn(some_kw=1)
        torch.ones(1).sum(dim=0, no_such_kw=True)
        opts = {}
        torch.zeros(2, **opts)
    """, ["torch"])
    counts = _counts(res)
    assert counts["torch.nn.Linear(bias=)"][0] == "supported"
    assert counts["torch.nn.Linear(no_such_kw=)"][0] == "unsupported"
    assert counts["torch.add(out=)"][0] == counts["torch.add(alpha=)"][0] == "supported"   # through functools.wraps
    assert counts["torch.add(no_such_kw=)"][0] == "unsupported"
    assert counts["torch.empty(memory_format=)"][0] == "supported"                       # **kwargs accepts it
    assert counts["torch.no_such_fn"][0] == "unsupported" and "torch.no_such_fn(some_kw=)" not in counts
    assert counts["torch.Tensor.sum(dim=)"][0] == "supported"
    assert counts["torch.Tensor.sum(no_such_kw=)"][0] == "unsupported"


def test_accepts_follows_wrappers_and_var_keywords():
    def inner(a, *, b=1):
        return a

    @functools.wraps(inner)
    def wrapper(*args, out=None, **kwargs):
        return inner(*args, **kwargs)

    assert accepts(wrapper, "out") and accepts(wrapper, "b") and accepts(wrapper, "a")
    assert accepts(wrapper, "c") is False
    assert accepts(lambda *a, **k: None, "anything") and accepts(len, "x") in (None, False)
    assert accepts(lambda a, /: a, "a") is False


def test_paddle_uses_and_frameworks_chosen_with_as(tmp_path):
    code = """
        import paddle
        import torch
        x = paddle.to_tensor([1.0], stop_gradient=False)
        x.clear_grad(); x.no_such_method()
        paddle.no_such_fn()
        torch.no_such_fn()
    """
    both = _counts(_check_code(tmp_path, code))
    assert both["paddle.Tensor.clear_grad"] == ("supported", 1)
    assert both["paddle.to_tensor(stop_gradient=)"] == ("supported", 1)
    assert both["paddle.Tensor.no_such_method"][0] == both["torch.no_such_fn"][0] == "unsupported"
    only = _counts(_check_code(tmp_path, code, ["paddle"]))
    assert not [api for api in only if api.startswith("torch")]


def test_oneflow_uses_are_asked_of_the_oneflow_facade(tmp_path):
    code = """
        import oneflow as flow
        x = flow.tensor([1.0], requires_grad=True)
        flow.autograd.backward(x * 2, None)
        flow.manual_seed(0)
        x.no_such_method()
        flow.no_such_fn()
    """
    rows = _counts(_check_code(tmp_path, code, ["oneflow"]))
    assert rows["oneflow.autograd.backward"] == ("supported", 1)
    assert rows["oneflow.tensor(requires_grad=)"] == ("supported", 1)
    assert rows["oneflow.manual_seed"][0] == "differs"
    assert rows["oneflow.no_such_fn"][0] == rows["oneflow.Tensor.no_such_method"][0] == "unsupported"


def test_known_differences_hook_feeds_the_differs_bucket(tmp_path):
    assert "torch.save" in check.known_differences("torch")
    assert check.known_differences("jax") == {}
    support = Support(differences=lambda fw: {"torch.zeros": "planted reason", "torch.ones(dtype=)": "kw reason"})
    res = _check_code(tmp_path, "import torch\ntorch.zeros(1); torch.ones(1, dtype=None); torch.ones(2)\n",
                      ["torch"], support=support)
    rows = {r.api: r for r in res.rows}
    assert (rows["torch.zeros"].status, rows["torch.zeros"].reason) == ("differs", "planted reason")
    assert (rows["torch.ones(dtype=)"].status, rows["torch.ones(dtype=)"].reason) == ("differs", "kw reason")
    assert rows["torch.ones"].status == "supported"
    assert res.coverage().apis_covered == res.coverage().apis_total == 3


def test_an_absent_facade_makes_its_apis_unsupported(tmp_path):
    if check.shim.available("oneflow"):
        pytest.skip("flowgrad.oneflow exists")
    res = _check_code(tmp_path, "import oneflow as flow\nflow.zeros(2)\n")
    assert res.missing_facades == ("oneflow",)
    assert _counts(res)["oneflow.zeros"] == ("unsupported", 1)
    assert res.rows[0].reason == "flowgrad has no oneflow facade"


# ------------------------------------------------------------------------------ bad input

def test_a_syntax_error_is_reported_with_its_line_and_the_rest_is_checked(tmp_path):
    shutil.copy(PLANTED, tmp_path / "planted.py")
    (tmp_path / "broken.py").write_text("import torch\n\ndef f(:\n    pass\n")
    res = flowgrad("check", ".", cwd=tmp_path)
    assert res.returncode == 2
    assert res.stderr == ("flowgrad check: broken.py:3: syntax error: invalid syntax (not checked; the other files "
                          "were)\n")
    assert "torch.distributed.init_process_group" in res.stdout
    assert "checked 2 files: 6 unsupported APIs, 1 file not checked" in res.stdout


@pytest.mark.parametrize("args, message", [
    (["no_such_dir"], "flowgrad check: no such file or directory: 'no_such_dir'"),
    (["empty"], "flowgrad check: no Python files in 'empty'"),
    (["--as", "jax", "."], "flowgrad check: unknown framework 'jax' (choose from torch, oneflow, paddle)"),
    (["--as", ",", "."], "flowgrad check: unknown framework '' (choose from torch, oneflow, paddle)"),
    ([], "flowgrad check: error: the following arguments are required: PATH (see `flowgrad check --help`)"),
    (["--fail-under", "120", "."], "flowgrad check: error: argument --fail-under: 120 is not between 0 and 100 (see "
                                   "`flowgrad check --help`)"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "ok.py").write_text("import torch\n")
    res = flowgrad("check", *args, cwd=tmp_path)
    assert (res.returncode, res.stderr) == (2, message + "\n")
    assert res.stdout == ""


# ------------------------------------------------------------------------------ long runs

def _tree(root, copies: int) -> None:
    for i in range(copies):
        d = root / f"pkg{i}"
        d.mkdir()
        for example in EXAMPLES.glob("*.py"):
            shutil.copy(example, d / example.name)


def test_a_progress_bar_on_a_terminal_and_silence_when_piped(tmp_path):
    _tree(tmp_path, 12)      # 12 copies of the examples
    files = 12 * len(list(EXAMPLES.glob("*.py")))
    piped = flowgrad("check", ".", cwd=tmp_path)
    assert piped.returncode == 0 and piped.stderr == ""
    primary, secondary = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "flowgrad", "check", "."], cwd=tmp_path, env=env(),
                            stdout=subprocess.PIPE, stderr=secondary)
    os.close(secondary)
    stdout, _ = proc.communicate(timeout=300)
    chunks = []
    while True:
        try:
            data = os.read(primary, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(primary)
    tty = b"".join(chunks).decode()
    assert proc.returncode == 0 and stdout.decode() == piped.stdout
    assert "flowgrad check [" in tty and f"{files}/{files} files" in tty and tty.endswith("\r\x1b[K")


def test_a_large_tree_checked_in_worker_processes_gives_the_same_report(tmp_path):
    _tree(tmp_path, 21)      # 21 copies of the examples: above the parallel threshold
    big = json.loads(flowgrad("check", ".", "--json", cwd=tmp_path).stdout)
    one = json.loads(flowgrad("check", "pkg0", "--json", cwd=tmp_path).stdout)
    assert big["files"] == 21 * len(list(EXAMPLES.glob("*.py")))
    assert big["coverage"]["uses"]["total"] == 21 * one["coverage"]["uses"]["total"]
    assert [r["api"] for r in big["apis"]] == [r["api"] for r in one["apis"]]
