"""paddle.set_flags / get_flags. FLAGS_call_stack_level=3 (from the environment at import, or set
at run time) makes every node created from then on record the Python stack of its forward call,
which `dump_backward_graph_path` writes into `*_call_stack.log`."""
from __future__ import annotations

import os
from typing import Sequence

from ..autograd import mode

_FLAGS: dict = {
    "FLAGS_call_stack_level": 1,
    "FLAGS_cudnn_deterministic": False,
    "FLAGS_embedding_deterministic": 0,
    "FLAGS_check_nan_inf": False,
}


def _apply(name: str) -> None:
    if name == "FLAGS_call_stack_level":
        mode.set_forward_traces(int(_FLAGS[name]) == 3)


def set_flags(flags: dict) -> None:
    if not isinstance(flags, dict):
        raise TypeError("flags in set_flags should be a dict")
    for key, value in flags.items():
        if key not in _FLAGS:
            raise ValueError(f"Flag {key} cannot set its value through this function.")
        _FLAGS[key] = type(_FLAGS[key])(value)
        _apply(key)


def get_flags(flags: str | Sequence[str]) -> dict:
    if isinstance(flags, str):
        flags = [flags]
    elif not isinstance(flags, (list, tuple)):
        raise TypeError("Flags in get_flags should be a list, tuple or string.")
    out = {}
    for key in flags:
        if key not in _FLAGS:
            raise ValueError(f"Flag {key} cannot get its value through this function.")
        out[key] = _FLAGS[key]
    return out


for _key in _FLAGS:
    if _key in os.environ:
        _FLAGS[_key] = type(_FLAGS[_key])(os.environ[_key]) if not isinstance(_FLAGS[_key], bool) else \
            os.environ[_key].lower() in ("1", "true")
        _apply(_key)
del _key
