"""The neutral `flowgrad.data` presented under a facade's tensor class: a DataLoader collating
into the facade's tensors and the collate functions."""
from __future__ import annotations

from .. import data as _data
from . import cuda_memory


def build(module: str, Tensor: type) -> dict:
    """`DataLoader`, `default_collate` and `default_convert` for the facade module named `module`."""
    collate, convert = _data.make_collation(Tensor)
    loader = type("DataLoader", (_data.DataLoader,), {
        "__doc__": _data.DataLoader.__doc__, "__module__": module, "__qualname__": "DataLoader",
        "_collate": staticmethod(collate), "_convert": staticmethod(convert), "_tensor_cls": Tensor,
        "_can_pin": staticmethod(cuda_memory.available)})
    return {"DataLoader": loader, "default_collate": collate, "default_convert": convert}
