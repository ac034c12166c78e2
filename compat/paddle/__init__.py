"""`import paddle` answered by flowgrad's paddle facade: `PYTHONPATH=compat python script.py`.

The same import hook as `flowgrad.shim.install("paddle")` (see `flowgrad.shim.compat_entry`); with
FLOWGRAD_SHIM=0 the real paddle loads instead. Never installed by pip, so it cannot shadow a real paddle.
"""
__flowgrad_compat__ = True

from flowgrad.shim import compat_entry

compat_entry(__name__, __file__)
