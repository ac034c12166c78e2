"""The same-program helper itself: it runs every framework and fails where they disagree."""
from __future__ import annotations

import pytest

from same_program import FRAMEWORKS, alike


def test_it_runs_each_framework_with_equal_inputs():
    res = alike(lambda fw, a: a * a, [1., 2.])
    assert list(res) == FRAMEWORKS and "flowgrad.oneflow" in res and "flowgrad.torch" in res
    for outs, grads in res.values():
        assert outs[0].tolist() == [1., 4.] and grads[0].tolist() == [2., 4.]


def test_it_fails_on_a_value_a_gradient_or_a_dtype_that_differs():
    with pytest.raises(AssertionError):
        alike(lambda fw, a: a * (2 if fw.__name__ == "flowgrad.oneflow" else 3), [1.])
    with pytest.raises(AssertionError):
        alike(lambda fw, a: a.detach() if fw.__name__ == "flowgrad.oneflow" else a * 1, [1.])
    with pytest.raises(AssertionError):
        alike(lambda fw, a: a.double() if fw.__name__ == "flowgrad.oneflow" else a, [1.])
