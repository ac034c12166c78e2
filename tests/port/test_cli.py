"""`flowgrad port` on the command line: output, bad input, exit status."""
from __future__ import annotations

import json

import pytest

from flowgrad.cli import main

from .conftest import NEEDS_LIBCST, requires_libcst


SCRIPT = "import torch\nx = torch.ones(3, requires_grad=True)\ny = (x * x).sum()\ny.backward()\nprint(x.grad)\n"


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(SCRIPT)
    return path


@requires_libcst
def test_prints_the_port_and_a_summary(script, capsys):
    assert main(["port", str(script), "--from", "torch", "--to", "paddle"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("import paddle\nx = paddle.ones([3]).requires_grad_()\n")
    assert err.startswith("flowgrad port torch -> paddle: 100.0% converted (")
    assert "translated:" in err


@requires_libcst
def test_writes_the_output_and_refuses_to_overwrite(script, tmp_path, capsys):
    out = tmp_path / "train_paddle.py"
    assert main(["port", str(script), "--from", "torch", "--to", "paddle", "-o", str(out)]) == 0
    assert out.read_text().startswith("import paddle\n")
    out.write_text("keep me")
    assert main(["port", str(script), "--from", "torch", "--to", "paddle", "-o", str(out)]) == 2
    assert capsys.readouterr().err.strip() == f"flowgrad port: {out} exists: refusing to overwrite it (pass --force)"
    assert out.read_text() == "keep me"
    assert main(["port", str(script), "--from", "torch", "--to", "paddle", "-o", str(out), "--force"]) == 0
    assert out.read_text().startswith("import paddle\n")


@requires_libcst
def test_diff(script, capsys):
    assert main(["port", str(script), "--from", "torch", "--to", "oneflow", "--diff"]) == 0
    out = capsys.readouterr().out
    assert "\n-import torch\n" in out and "\n+import oneflow\n" in out


@requires_libcst
def test_json(script, capsys):
    assert main(["port", str(script), "--from", "torch", "--to", "paddle", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["port"]["from"] == "torch" and report["port"]["convert_rate"] == 100.0
    assert {"api": "torch.ones", "count": 1} in report["port"]["translated"]


@requires_libcst
def test_file_that_does_not_parse(tmp_path, capsys):
    bad = tmp_path / "bad.py"
    bad.write_text("import torch\nx = torch.ones(3\n")
    out = tmp_path / "out.py"
    assert main(["port", str(bad), "--from", "torch", "--to", "paddle", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"flowgrad port: {bad}:") and "does not parse" in err and "(nothing written)" in err
    assert not out.exists()


def test_same_framework_and_unknown_framework(script, capsys):
    assert main(["port", str(script), "--from", "torch", "--to", "torch"]) == 2
    assert capsys.readouterr().err.strip() == "flowgrad port: --from and --to are both torch: nothing to port"
    assert main(["port", str(script), "--from", "torch", "--to", "jax"]) == 2
    assert "unknown framework 'jax'" in capsys.readouterr().err


def test_missing_script(tmp_path, capsys):
    assert main(["port", str(tmp_path / "none.py"), "--from", "torch", "--to", "paddle"]) == 2
    assert "No such file or directory" in capsys.readouterr().err


def test_registered_in_the_command_list(capsys):
    assert main(["--help"]) == 0
    assert "  port " in capsys.readouterr().out


@requires_libcst
def test_verify_equivalent_and_json(tmp_path, capsys):
    path = tmp_path / "fit.py"
    path.write_text("import torch\nw = torch.tensor([0.5, -0.5], requires_grad=True)\nx = torch.linspace(0, 1, 8)\n"
                    "opt = torch.optim.SGD([w], lr=0.1)\nfor step in range(3):\n    opt.zero_grad()\n"
                    "    loss = ((w[0] * x + w[1] - x) ** 2).sum()\n    loss.backward()\n    opt.step()\nprint(w)\n")
    out = tmp_path / "fit_paddle.py"
    assert main(["port", str(path), "--from", "torch", "--to", "paddle", "-o", str(out), "--verify", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["verify"]["equivalent"] is True and report["verify"]["steps"] == 3
    assert report["verify"]["message"].startswith("equivalent for 3 steps (")


@requires_libcst
def test_verify_failure_names_the_side(tmp_path, capsys):
    path = tmp_path / "planted.py"
    path.write_text("import paddle\nx = paddle.to_tensor([1.0, 2.0], stop_gradient=False)\n(x * 2).backward()\n")
    assert main(["port", str(path), "--from", "paddle", "--to", "torch", "-o", str(tmp_path / "out.py"),
                 "--verify"]) == 1
    captured = capsys.readouterr()
    assert "the ported script failed under --verify (torch facade):\nTraceback" in captured.err
    assert "grad can be implicitly created only for scalar outputs" in captured.err
    assert "flagged:\n    line 3: backward() without a gradient" in captured.out


def test_without_libcst_says_how_to_install(script, monkeypatch, capsys):
    import sys
    monkeypatch.setitem(sys.modules, "libcst", None)     # `import libcst` raises ImportError
    for name in ("flowgrad.port.translate", "flowgrad.port.summary"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    assert main(["port", str(script), "--from", "torch", "--to", "paddle"]) == 2
    assert capsys.readouterr().err.strip() == f"flowgrad port: {NEEDS_LIBCST}"
