import pytest

pytest.importorskip("libcst", reason="flowgrad port needs libcst: pip install 'flowgrad[port]' (or pip install libcst)")
