"""A warning an op gives is attributed to the user's line, as PyTorch's are, whatever flowgrad frames
(signature adapters, argument guards) lie between the call and the op."""
import subprocess
import sys
import warnings

import pytest

CALLS = {
    "uint8 index": lambda t: t.arange(4.)[t.tensor([1, 0, 1, 0], dtype=t.uint8)],
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


ONCE_PER_PROCESS = {
    "scatter": ("t.zeros(3).scatter(0, t.tensor([0, 1, 0]), t.ones(3), reduce='add')",
                "The reduce argument of torch.scatter"),
    "complex copied into real": ("t.zeros(2).copy_(t.ones(2, dtype=t.complex64))",
                                 "Casting complex values to real discards the imaginary part"),
    "complex cast by to()": ("t.tensor([1 + 1j]).to(t.float32)", "Casting complex values to real discards the imaginary part"),
}


@pytest.mark.parametrize("module", ["torch", "flowgrad.torch"])
@pytest.mark.parametrize("case", list(ONCE_PER_PROCESS))
def test_once_per_process_warning_points_at_the_callers_line(module, case):
    """Warnings PyTorch gives once per process: a fresh one shows where the first lands, and that a
    second call gives none."""
    pytest.importorskip(module)
    call, words = ONCE_PER_PROCESS[case]
    script = f"import warnings, {module} as t\nwarnings.simplefilter('always')\n{call}\n{call}\n"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stderr.startswith(f"<string>:3: UserWarning: {words}"), run.stderr
    assert run.stderr.count("UserWarning") == 1, run.stderr
