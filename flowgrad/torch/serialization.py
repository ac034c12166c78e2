"""torch.save / torch.load for the torch facade, in flowgrad's own format (see flowgrad.serialization):
tensors, state dicts and containers of them; no pickled code is run unless `weights_only=False`."""
from __future__ import annotations

from .. import serialization as _ser
from ._tensor import Tensor


def save(obj, f, pickle_module=None, pickle_protocol: int = 2, _use_new_zipfile_serialization: bool = True,
         _disable_byteorder_record: bool = False) -> None:
    _ser.save(obj, f)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    from .nn import Parameter
    return _ser.load(f, map_location, weights_only=weights_only, tensor_cls=Tensor, param_cls=Parameter)


__all__ = ["save", "load"]
