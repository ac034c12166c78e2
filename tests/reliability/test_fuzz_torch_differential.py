"""Differential fuzzing of flowgrad.torch against real PyTorch.

Hypothesis draws random expression graphs (fuzz_graphs.programs: leaves of mutually broadcastable
shapes from 0-d to 4-d, float32 and float64, some requiring grad; ops from the whole op table;
an engine option: retain_graph twice, create_graph with a second-order gradient, `inputs=` subsets,
`autograd.grad` with allow_unused, hooks that scale gradients, several roots). Each program runs
under flowgrad.torch and under real torch; every forward value, dtype, requires_grad flag and
gradient must agree. Real torch in float64 is the oracle that rejects numerically unsafe examples
(overflow, a kink within rounding error) and bounds the float32 error.

Skipped cleanly without torch. FLOWGRAD_FUZZ_SELFTEST=1 runs real torch against itself (must pass).
"""
from __future__ import annotations

import pytest
from hypothesis import given, note, settings

from fuzz_graphs import ALL_OPS, compare, admissible, programs, run_torch
from reliability_config import RELIABILITY, SELFTEST, fuzz_examples

real = pytest.importorskip("torch", reason="real torch is the oracle of the differential fuzzing")


@pytest.fixture
def fg(request):
    """The module under test: flowgrad.torch (on FLOWGRAD_TEST_DEVICE, through tests/conftest.py's
    `ftorch`), or real torch under FLOWGRAD_FUZZ_SELFTEST=1."""
    if SELFTEST:
        return real
    return request.getfixturevalue("ftorch")


def _check(fg, prog):
    note(repr(prog))
    real.set_grad_enabled(True)
    oracle = run_torch(real, prog, "float64", margins=True)
    admissible(oracle, prog.dtype)
    ref = oracle if prog.dtype == "float64" else run_torch(real, prog)
    got = run_torch(fg, prog)
    compare(got, ref, oracle, prog.dtype)


@settings(parent=RELIABILITY, max_examples=fuzz_examples(200))
@given(prog=programs())
def test_random_graphs_match_torch(fg, prog):
    """Short random programs (1-7 ops) over every op and every engine option."""
    _check(fg, prog)


@settings(parent=RELIABILITY, max_examples=fuzz_examples(40))
@given(prog=programs(max_ops=24))
def test_long_random_graphs_match_torch(fg, prog):
    """Longer programs (up to 24 ops): deeper chains, more sharing of intermediate tensors."""
    _check(fg, prog)


_ELEMENTWISE = tuple(op for op in ALL_OPS if op in {
    "neg", "exp", "log", "sin", "cos", "tanh", "sigmoid", "relu", "abs", "sqrt", "clamp", "pow_scalar",
    "scalar_binary", "add", "sub", "mul", "div", "maximum", "minimum", "pow_tensor", "where", "expand", "sum"})


@settings(parent=RELIABILITY, max_examples=fuzz_examples(60))
@given(prog=programs(ops=_ELEMENTWISE, options=("plain", "create_graph", "hooks")))
def test_broadcasting_graphs_match_torch(fg, prog):
    """Elementwise ops over broadcast shapes only: where broadcasting is undone, and where
    second-order formulas meet broadcasting."""
    _check(fg, prog)


# ------------------------------------------------------------------------------------------------
# The fuzzer's findings, minimised: each case is one graph at a singular or 0-d corner with the
# gradient real torch gives (the `torch` fixture runs them on both frameworks).

def _grad_of(torch, f, value):
    import warnings

    x = torch.tensor(value, dtype=torch.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f(torch, x).sum().backward()
    return x.grad.tolist()


FOUND = {
    "max over dim 0 of a 0-d tensor": (lambda T, x: T.max(x, 0).values, 1.5, 1.0),
    "min over dim -1 of a 0-d tensor, keepdim": (lambda T, x: T.min(x, -1, keepdim=True).values, 1.5, 1.0),
    "cumsum of a 0-d tensor": (lambda T, x: T.cumsum(x, 0), 1.5, 1.0),
    "std of one element (correction=0) is 0: gradient 0": (lambda T, x: T.std(x, correction=0), [0.7], [0.0]),
    "std of a constant vector: gradient 0": (lambda T, x: T.std(x), [1.0, 1.0], [0.0, 0.0]),
    "std of a 0-d tensor: gradient 0": (lambda T, x: T.std(x, correction=0), 0.7, 0.0),
    "var of one element with correction=1 is NaN, and so is its gradient": (lambda T, x: T.var(x), [1.0], [None]),
}


@pytest.mark.parametrize("case", list(FOUND))
def test_corner_cases_found_by_fuzzing(torch, case):
    f, value, expected = FOUND[case]
    got = _grad_of(torch, f, value)
    if expected == [None]:
        assert len(got) == 1 and got[0] != got[0], got       # NaN
    else:
        assert got == expected
