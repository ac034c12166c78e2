import importlib.util

import pytest

#: Why the tests that translate skip without libcst (the optional `port` extra).
NEEDS_LIBCST = "flowgrad port needs libcst: pip install 'flowgrad[port]' (or pip install libcst)"
requires_libcst = pytest.mark.skipif(importlib.util.find_spec("libcst") is None, reason=NEEDS_LIBCST)
