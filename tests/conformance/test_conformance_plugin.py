"""The pytest plugin: the fw fixture, --fw, the expect_difference marker; and that loading it
imports no framework and leaves the project's own `fw` fixtures alone."""
from __future__ import annotations

import subprocess
import sys
import textwrap

from conformance_helpers import ROOT, env_with_root

TESTS = '''
import pytest

def test_square_grad(fw):
    x = fw.leaf([1., 2.])
    fw.backward(fw.sum(x * x))
    assert fw.to_numpy(fw.read_grad(x)).tolist() == [2., 4.]

@pytest.mark.expect_difference(fw="paddle", reason="paddle seeds non-scalar outputs with ones")
def test_nonscalar_needs_gradient(fw):
    x = fw.leaf([1., 2.])
    with pytest.raises(Exception):
        fw.backward(x * x)

@pytest.mark.expect_difference(fw="flowgrad.torch", reason="declared but not true")
def test_stale_expectation(fw):
    assert fw.sum(fw.leaf([1.])) is not None
'''


def _pytest(tmp_path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "test_user.py").write_text(textwrap.dedent(TESTS))
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "flowgrad.testing.plugin", "-q", "-rxXs",
                           "-p", "no:cacheprovider", *args, "test_user.py"],
                          capture_output=True, text=True, cwd=tmp_path, env=env_with_root(), timeout=300)


def test_fw_fixture_and_expect_difference(tmp_path):
    proc = _pytest(tmp_path, "--fw", "flowgrad.torch,flowgrad.paddle")
    out = proc.stdout
    assert "test_square_grad[flowgrad.torch] PASSED" in out or "3 passed" in out or "passed" in out
    assert "XFAIL test_user.py::test_nonscalar_needs_gradient[flowgrad.paddle]" in out
    assert "expected difference on flowgrad.paddle: paddle seeds non-scalar outputs with ones" in out
    # a declared difference that does not show is stale: XPASS(strict) fails the run
    assert "test_stale_expectation[flowgrad.torch]" in out and "XPASS(strict)" in out
    assert "deselected" in out
    assert proc.returncode == 1


def test_implementations_not_installed_are_skipped(tmp_path):
    proc = _pytest(tmp_path, "--fw", "flowgrad.oneflow,oneflow", "-k", "square")
    import importlib.util
    if importlib.util.find_spec("oneflow") is None:
        assert "oneflow: not installed" in proc.stdout
        assert proc.returncode == 0


def test_unknown_fw_is_a_usage_error(tmp_path):
    proc = _pytest(tmp_path, "--fw", "torch,nope")
    assert proc.returncode == 4
    assert "--fw: unknown implementation nope" in proc.stderr


def test_loading_the_plugin_imports_no_framework():
    code = ("import sys, flowgrad.testing.plugin; "
            "print(sorted(m for m in ('torch', 'paddle', 'oneflow', 'numpy', 'flowgrad.torch') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env_with_root(),
                          timeout=60)
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr


def test_project_fw_fixture_is_not_parametrized_by_the_plugin():
    counts = []
    for extra in ([], ["-p", "flowgrad.testing.plugin"]):
        proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", *extra,
                               "tests/test_ops_vs_torch.py"], capture_output=True, text=True, cwd=ROOT,
                              env=env_with_root(), timeout=300)
        counts.append(proc.stdout.strip().splitlines()[-1].split(" tests collected")[0])
    assert counts[0] == counts[1]
