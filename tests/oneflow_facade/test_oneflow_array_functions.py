"""The torch-family array functions OneFlow also has (addmm, baddbmm, cross, quantile, tensor_split,
hann_window), as one program on flowgrad.oneflow, flowgrad.torch and real torch; and the torch
functions OneFlow's namespace lacks stay out of it."""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad.oneflow as flow
from same_program import alike

R = np.random.default_rng(11)
M33, B233 = R.normal(size=(3, 3)), R.normal(size=(2, 3, 3))


@pytest.mark.parametrize("program", [
    lambda fw, m, b: fw.addmm(m, m, m.t(), beta=0.5, alpha=2),
    lambda fw, m, b: fw.baddbmm(b, b, b, alpha=-1) + m,
    lambda fw, m, b: fw.cross(b, b.flip(2), dim=-1),
    lambda fw, m, b: fw.quantile(m, 0.25, dim=1),
    lambda fw, m, b: fw.tensor_split(b, 2, 1),
    lambda fw, m, b: fw.hann_window(5) * m[0, 0],
], ids=["addmm", "baddbmm", "cross", "quantile", "tensor_split", "hann_window"])
def test_same_as_torch(program):
    alike(program, M33, B233)


def test_cross_defaults_to_the_last_dim():
    alike(lambda fw, a, b: fw.linalg.cross(a, b) if fw is not flow else fw.cross(a, b), B233, B233[::-1])


@pytest.mark.parametrize("name", ["addbmm", "gcd", "rot90", "block_diag", "isin", "trapezoid", "vander",
                                  "kaiser_window"])
def test_functions_oneflow_lacks_are_absent(name):
    assert not hasattr(flow, name)
