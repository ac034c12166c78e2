"""A malformed op row is refused when it is declared, with a message naming what is wrong."""
from __future__ import annotations

import pytest

from flowgrad.ops._declare import derivative


def test_a_formula_naming_an_undeclared_value_is_refused():
    with pytest.raises(TypeError, match=r"XBackward0: the formula for 'self' names \['bogus'\], which the row "
                                        r"does not declare"):
        derivative("XBackward0", self=lambda grad, bogus: grad)


@pytest.mark.parametrize("op", ["tanh", "exp", "mul", "sum", "relu"])
def test_a_node_compiles_its_record_and_backward_once(op, monkeypatch):
    """The table compiles a node's `record` and `backward` on first use; every later call, through
    the op or a reference kept to the stand-in, runs the compiled functions without compiling."""
    import flowgrad.torch as torch
    from flowgrad.ops import _declare

    def run():
        x = torch.tensor([0.5, -0.25], dtype=torch.float64, requires_grad=True)
        y = getattr(torch, op)(x, x) if op == "mul" else getattr(torch, op)(x)
        y.sum().backward()
        return x.grad.tolist()

    first = run()

    def refuse(*args):
        raise AssertionError("compiled again")
    monkeypatch.setattr(_declare, "_compile", refuse)
    assert run() == first
