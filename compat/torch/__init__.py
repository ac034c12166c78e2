"""`import torch` answered by flowgrad's torch facade: `PYTHONPATH=compat python script.py`.

The same import hook as `flowgrad.shim.install("torch")` (see `flowgrad.shim.compat_entry`); with
FLOWGRAD_SHIM=0 the real torch loads instead. Never installed by pip, so it cannot shadow a real torch.
"""
__flowgrad_compat__ = True

from flowgrad.shim import compat_entry

compat_entry(__name__, __file__)
