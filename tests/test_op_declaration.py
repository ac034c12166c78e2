"""A malformed op row is refused when it is declared, with a message naming what is wrong."""
from __future__ import annotations

import pytest

from flowgrad.ops._declare import derivative


def test_a_formula_naming_an_undeclared_value_is_refused():
    with pytest.raises(TypeError, match=r"XBackward0: the formula for 'self' names \['bogus'\], which the row "
                                        r"does not declare"):
        derivative("XBackward0", self=lambda grad, bogus: grad)
