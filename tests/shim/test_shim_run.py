"""`flowgrad run` and compat/: real scripts, run as `python SCRIPT` would run them, with their
framework imports answered by flowgrad."""
from __future__ import annotations

import fnmatch
import subprocess
import sys
import tomllib

import pytest

from shim_helpers import (COMPAT, EXAMPLES, HAVE_ONEFLOW_FACADE, HAVE_REAL_TORCH, ROOT, env, flowgrad, ok, plain_copy,
                          python)

ALL_EXAMPLES = sorted(EXAMPLES.glob("*.py"))


def _start(args, **kw):
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


@pytest.mark.parametrize("example", ALL_EXAMPLES, ids=lambda p: p.stem)
def test_examples_run_unchanged_under_flowgrad_run_and_compat(example, tmp_path):
    """Plain copies (no line naming flowgrad) print what the example prints on flowgrad by default."""
    plain = plain_copy(example, tmp_path)
    runs = {
        "example": _start([sys.executable, str(example)], env=env()),
        "flowgrad run": _start([sys.executable, "-m", "flowgrad", "run", str(plain)], env=env()),
        "compat": _start([sys.executable, str(plain)], env=env(compat=True)),
    }
    out = {}
    for name, proc in runs.items():
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, f"{name}: {stderr}"
        out[name] = stdout
    assert out["example"].strip()
    assert out["flowgrad run"] == out["example"] == out["compat"]


PROBE = """\
import json, os, sys
print(json.dumps({"argv": sys.argv, "name": __name__, "path0": sys.path[0], "file": __file__,
                  "package": __package__, "spec": __spec__ and (__spec__.name, __spec__.origin),
                  "loader": type(__loader__).__name__,
                  "main": sys.modules["__main__"].__dict__ is globals(), "doc": __doc__}))
"""


def test_a_script_sees_what_python_script_would_show_it(tmp_path):
    (tmp_path / "sub").mkdir()
    script = tmp_path / "sub" / "probe.py"      # not in the working directory: sys.path[0] is the script's
    script.write_text('"""doc"""\n' + PROBE)
    want = subprocess.run([sys.executable, "sub/probe.py", "a", "--b"], capture_output=True, text=True, cwd=tmp_path,
                          env=env())
    got = flowgrad("run", "sub/probe.py", "a", "--b", cwd=tmp_path)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout


def test_a_module_sees_what_python_m_would_show_it(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "mod.py").write_text(PROBE)
    want = subprocess.run([sys.executable, "-m", "pkg.mod", "x", "-v"], capture_output=True, text=True, cwd=tmp_path,
                          env=env())
    got = flowgrad("run", "-m", "pkg.mod", "x", "-v", cwd=tmp_path)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout


def test_exit_status_and_tracebacks_are_pythons(tmp_path):
    (tmp_path / "exits.py").write_text("import sys\nprint('bye')\nsys.exit(3)\n")
    (tmp_path / "message.py").write_text("raise SystemExit('stopped: no data')\n")
    (tmp_path / "fails.py").write_text("import torch\n\ndef f(x):\n    return x / 0\n\nf(torch.ones(1).item())\n")
    (tmp_path / "syntax.py").write_text("x = 1\ndef (\n")
    for script in ("exits.py", "message.py", "fails.py", "syntax.py"):
        got = flowgrad("run", script, cwd=tmp_path)
        if script == "fails.py":      # python itself would import real torch (or fail): compare the shape only
            assert got.returncode == 1
            lines = got.stderr.splitlines()
            assert lines[0] == "Traceback (most recent call last):"
            assert lines[1] == f'  File "{tmp_path / script}", line 6, in <module>'
            assert "flowgrad" not in got.stderr.replace(str(tmp_path), "")
            assert lines[-1] == "ZeroDivisionError: float division by zero"
            continue
        want = subprocess.run([sys.executable, script], capture_output=True, text=True, cwd=tmp_path, env=env())
        assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr), script


def test_the_imports_are_aliased_by_default_and_as_chooses(tmp_path):
    script = tmp_path / "which.py"
    script.write_text("import importlib.util\nimport paddle\nspec = importlib.util.find_spec('torch')\n"
                      "print(paddle.__name__, spec is not None and 'flowgrad' in (spec.origin or ''))\n")
    assert flowgrad("run", script).stdout == "flowgrad.paddle True\n"
    assert flowgrad("run", "--as", "paddle", script).stdout == "flowgrad.paddle False\n"
    assert flowgrad("run", "--as=torch,paddle", script).stdout == "flowgrad.paddle True\n"
    off = flowgrad("run", script, FLOWGRAD_SHIM="0")
    assert "flowgrad.paddle" not in off.stdout     # real paddle, or a ModuleNotFoundError without it


def test_report_lists_what_the_run_asked_for_and_flowgrad_lacks(tmp_path):
    script = tmp_path / "gaps.py"
    script.write_text(
        "import torch\n"
        "x = torch.ones(2)\n"
        "if hasattr(torch, 'export'):\n"
        "    model = torch.export.export(x)\n"
        "for _ in range(3):\n"
        "    try:\n"
        "        import torch._dynamo\n"
        "    except ImportError:\n"
        "        pass\n"
        "try:\n"
        "    x.refine_names('n')\n"
        "except AttributeError:\n"
        "    pass\n"
        "print(x.sum().item())\n")
    res = flowgrad("run", "--report", "gaps.py", cwd=tmp_path)
    assert res.returncode == 0 and res.stdout == "2.0\n"
    assert res.stderr.splitlines() == [
        "flowgrad run --report (aliased: torch, oneflow, paddle): 3 framework APIs the run asked for are missing from flowgrad",
        "   uses  API                        kind              first place",
        "      3  torch._dynamo              module            gaps.py:7",
        "      1  torch.Tensor.refine_names  tensor attribute  gaps.py:11",
        "      1  torch.export               attribute         gaps.py:3",
    ]
    clean = tmp_path / "clean.py"
    clean.write_text("import torch\nprint(torch.ones(1).item())\n")
    res = flowgrad("run", "--report", "--as", "torch", "clean.py", cwd=tmp_path)
    assert res.stderr == ("flowgrad run --report (aliased: torch): flowgrad provided every framework API the run "
                          "asked for\n")


@pytest.mark.parametrize("args, status, message", [
    (["run", "no_such_script.py"], 2, "flowgrad run: can't open file '{cwd}/no_such_script.py': [Errno 2] No such "
                                      "file or directory"),
    (["run", "--as", "jax", "x.py"], 2, "flowgrad run: unknown framework 'jax' in --as (choose from torch, oneflow, "
                                        "paddle)"),
    (["run"], 2, "flowgrad run: error: give a script to run, or -m MODULE (see `flowgrad run --help`)"),
    (["run", "--bogus", "x.py"], 2, "flowgrad run: error: unrecognized arguments: --bogus (see `flowgrad run "
                                    "--help`)"),
    (["run", "-m", "no_such_pkg.mod"], 1, "flowgrad run: Error while finding module specification for "
                                          "'no_such_pkg.mod' (ModuleNotFoundError: No module named 'no_such_pkg')"),
    (["frobnicate"], 2, "flowgrad: unknown command 'frobnicate' (choose from {commands})"),
])
def test_bad_input_is_one_line_and_a_non_zero_exit(args, status, message, tmp_path):
    res = flowgrad(*args, cwd=tmp_path)
    assert res.returncode == status
    from flowgrad.cli import COMMANDS
    assert res.stderr.splitlines()[0] == message.format(cwd=tmp_path, commands=", ".join(COMMANDS))
    assert "Traceback" not in res.stderr


@pytest.mark.skipif(HAVE_ONEFLOW_FACADE, reason="flowgrad.oneflow exists")
def test_run_as_oneflow_without_its_facade_is_refused(tmp_path):
    res = flowgrad("run", "--as", "oneflow", "x.py", cwd=tmp_path)
    assert (res.returncode, res.stderr) == (2, "flowgrad run: flowgrad's oneflow facade (flowgrad.oneflow) is not "
                                               "available in this flowgrad\n")


def test_version_and_help_on_every_command():
    from flowgrad import __version__
    assert flowgrad("--version").stdout == f"flowgrad {__version__}\n"
    top = flowgrad("--help")
    assert top.returncode == 0 and all(cmd in top.stdout for cmd in ("run", "check", "bench"))
    for cmd, text in (("run", "usage: flowgrad run"), ("check", "usage: flowgrad check"),
                      ("bench", "python -m benchmarks")):
        res = flowgrad(cmd, "--help")
        assert res.returncode == 0 and text in res.stdout, (cmd, res.stdout, res.stderr)


# ------------------------------------------------------------------------------------- compat/

def test_compat_answers_import_torch_with_the_same_finder():
    ok("""
        import sys
        import torch
        import torch.nn.functional as F
        from flowgrad import shim
        import flowgrad.torch
        assert torch is flowgrad.torch is sys.modules["torch"] and F is flowgrad.torch.nn.functional
        assert sys.meta_path[0] is shim._FINDER and shim.installed() == ("torch",)
        try:
            import torch._dynamo
        except ModuleNotFoundError as e:
            assert type(e) is shim.FlowgradModuleNotFoundError
    """, compat=True)


@pytest.mark.skipif(HAVE_ONEFLOW_FACADE, reason="flowgrad.oneflow exists")
def test_compat_oneflow_without_its_facade_is_a_module_not_found_error():
    out = ok("""
        try:
            import oneflow
        except ImportError as e:
            assert isinstance(e, ModuleNotFoundError) and e.name == "oneflow"
            print(e)
    """, compat=True)
    assert out.strip() == ("No module named 'oneflow': cannot alias 'oneflow': flowgrad's oneflow facade "
                           "(flowgrad.oneflow) is not available in this flowgrad")


@pytest.mark.skipif(not HAVE_ONEFLOW_FACADE, reason="flowgrad.oneflow is not part of this flowgrad")
def test_compat_answers_import_oneflow_with_the_facade():
    out = ok("""
        import sys
        import oneflow as flow
        import oneflow.nn.functional as F
        from oneflow.utils.data import DataLoader
        from oneflow.autograd import Function
        import flowgrad.oneflow
        from flowgrad import shim
        assert flow is flowgrad.oneflow is sys.modules["oneflow"] and F is flowgrad.oneflow.nn.functional
        assert DataLoader is flowgrad.oneflow.utils.data.DataLoader and Function is flowgrad.oneflow.autograd.Function
        assert sys.meta_path[0] is shim._FINDER and shim.installed() == ("oneflow",)
        assert "torch" not in sys.modules and "flowgrad.torch" not in sys.modules
        x = flow.tensor([1., 2.], requires_grad=True)
        (x * x).sum().backward()
        print(x.grad)
    """, compat=True)
    assert out == "tensor([2., 4.], dtype=oneflow.float32)\n"


@pytest.mark.skipif(not HAVE_ONEFLOW_FACADE, reason="flowgrad.oneflow is not part of this flowgrad")
def test_run_as_oneflow_aliases_oneflow_only(tmp_path):
    script = tmp_path / "x.py"
    script.write_text("import sys\nimport oneflow as flow\n"
                      "print(flow.__name__, flow.ones(2).sum().item(), 'torch' in sys.modules)\n"
                      "import torch\n")
    res = flowgrad("run", "--as", "oneflow", str(script), cwd=tmp_path)
    assert res.stdout == "flowgrad.oneflow 2.0 False\n"
    both = flowgrad("run", "--as", "oneflow,torch", str(script), cwd=tmp_path)
    assert both.returncode == 0 and both.stdout == "flowgrad.oneflow 2.0 False\n"


@pytest.mark.skipif(not HAVE_REAL_TORCH, reason="real torch is not installed")
def test_compat_with_flowgrad_shim_0_loads_the_real_framework():
    out = ok("""
        import sys
        import torch
        print(torch.__file__)
        assert "flowgrad" not in torch.__version__ and torch.ones(2).sum().item() == 2.0
        assert not any(type(f).__name__ == "_Finder" for f in sys.meta_path)
    """, compat=True, FLOWGRAD_SHIM="0")
    assert str(COMPAT) not in out and "site-packages" in out


def test_compat_is_never_installed_by_pip():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    assert "flowgrad*" in include
    for package in ("compat", "compat.torch", "torch", "paddle", "oneflow"):
        assert not any(fnmatch.fnmatchcase(package, pattern) for pattern in include), package
    assert sorted(p.name for p in COMPAT.iterdir() if p.is_dir() and not p.name.startswith("__")) == \
        ["oneflow", "paddle", "torch"]


def test_the_runner_does_not_need_the_checkout_on_the_script_path(tmp_path):
    res = python("import sys; from flowgrad.cli import main; sys.exit(main(['run', 'x.py']))", cwd=tmp_path)
    assert res.returncode == 2 and "can't open file" in res.stderr
