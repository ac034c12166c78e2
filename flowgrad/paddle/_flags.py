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


def _parse(key: str, value):
    """`value` (from set_flags or the environment) in the type of the flag's default."""
    default = _FLAGS[key]
    if isinstance(default, bool):
        return value.strip().lower() in ("1", "true") if isinstance(value, str) else bool(value)
    return type(default)(value)


def _apply(key: str) -> None:
    if key == "FLAGS_call_stack_level":
        mode.set_forward_traces(_FLAGS[key] == 3)


def set_flags(flags: dict) -> None:
    if not isinstance(flags, dict):
        raise TypeError("flags in set_flags should be a dict")
    for key, value in flags.items():
        if key not in _FLAGS:
            raise ValueError(f"Flag {key} cannot set its value through this function.")
        _FLAGS[key] = _parse(key, value)
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
        _FLAGS[_key] = _parse(_key, os.environ[_key])
        _apply(_key)
del _key
