"""A warning an op gives is attributed to the user's line, as PyTorch's are, whatever flowgrad frames
(signature adapters, argument guards) lie between the call and the op."""
import subprocess
import sys
import warnings

import pytest

CALLS = {
    "uint8 index": lambda t: t.arange(4.)[t.tensor([1, 0, 1, 0], dtype=t.uint8)],
    "complex copied into real": lambda t: t.zeros(2).copy_(t.ones(2, dtype=t.complex64)),
    "mse_loss target size": lambda t: t.nn.functional.mse_loss(t.ones(3), t.ones(3, 1)),
}


@pytest.mark.parametrize("case", list(CALLS))
def test_warning_points_at_the_callers_line(torch, case):
    call = CALLS[case]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call(torch)
    assert caught, case
    assert {(w.filename, w.lineno) for w in caught} == {(__file__, call.__code__.co_firstlineno)}


@pytest.mark.parametrize("module", ["torch", "flowgrad.torch"])
def test_once_per_process_warning_points_at_the_callers_line(module):
    """scatter's reduce= deprecation is given once per process: a fresh one shows where it lands."""
    pytest.importorskip(module)
    script = (f"import warnings, {module} as t\nwarnings.simplefilter('always')\n"
              "t.zeros(3).scatter(0, t.tensor([0, 1, 0]), t.ones(3), reduce='add')\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stderr.startswith("<string>:3: UserWarning: The reduce argument of torch.scatter"), run.stderr
