"""paddle.set_flags / get_flags. FLAGS_call_stack_level=3 (from the environment at import, or set
at run time) makes every node created from then on record the Python stack of its forward call,
which `dump_backward_graph_path` writes into `*_call_stack.log`. The engine already sums gradients
in one fixed order (FLAGS_sort_sum_gradient) and needs no in-place add budget
(FLAGS_max_inplace_grad_add); the values flowgrad does not build are refused."""
from __future__ import annotations

import os
from typing import Sequence

from ..autograd import mode

_FLAGS: dict = {
    "FLAGS_call_stack_level": 1,
    "FLAGS_cudnn_deterministic": False,
    "FLAGS_embedding_deterministic": 0,
    "FLAGS_check_nan_inf": False,
    "FLAGS_check_nan_inf_level": 0,
    "FLAGS_sort_sum_gradient": False,
    "FLAGS_max_inplace_grad_add": 0,
    "FLAGS_prim_backward": False,
    "FLAGS_use_stride_kernel": True,
}
# values flowgrad does not build: NaN/Inf checks of every op, copying views, decomposed backward graphs
_UNBUILT = {("FLAGS_check_nan_inf", True), ("FLAGS_use_stride_kernel", False), ("FLAGS_prim_backward", True)}


def _parse(key: str, value):
    """`value` (from set_flags or the environment) in the type of the flag's default."""
    default = _FLAGS[key]
    if isinstance(default, bool):
        return value.strip().lower() in ("1", "true") if isinstance(value, str) else bool(value)
    return type(default)(value)


def _set(key: str, value) -> None:
    if (key, value) in _UNBUILT:
        raise NotImplementedError(f"flowgrad's paddle facade does not support {key}={value}")
    _FLAGS[key] = value
    if key == "FLAGS_call_stack_level":
        mode.set_forward_traces(value == 3)


def set_flags(flags: dict) -> None:
    if not isinstance(flags, dict):
        raise TypeError("flags in set_flags should be a dict")
    for key, value in flags.items():
        if key not in _FLAGS:
            raise ValueError(f"Flag {key} cannot set its value through this function.")
        number = (int, float, type(None)) if type(_FLAGS[key]) is bool else int  # as pybind11 converts
        if not isinstance(value, number):
            raise RuntimeError(f"Unable to cast Python instance of type {type(value)} to C++ type '?' (#define "
                               "PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug mode for details)")
        _set(key, type(_FLAGS[key])(value))


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
        _set(_key, _parse(_key, os.environ[_key]))
del _key
