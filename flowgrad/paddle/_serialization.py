"""paddle.save / paddle.load in flowgrad's own format (see flowgrad.serialization): tensors, state
dicts (a Layer's or an optimizer's, LR_Scheduler included), numbers, strings, NumPy arrays and
containers of them. As paddle's, every tensor loads as a plain Tensor with `stop_gradient=True`;
paddle's `load` unpickles what `save` pickled, and so does this one."""
from __future__ import annotations

import io as _io
import os
import warnings

from .. import serialization as _ser
from ._tensor import Tensor

_SAVE_CONFIGS = ("use_binary_format", "pickle_protocol", "safetensors")
_LOAD_CONFIGS = ("model_filename", "params_filename", "keep_name_table", "return_numpy", "safetensors")


def _check_configs(configs: dict, supported: tuple, api: str) -> None:
    for key in configs:
        if key not in supported:
            raise ValueError(f"The additional config ({key}) of `{api}` is not supported.")
        if configs[key] not in (None, False):  # the defaults: paddle's binary, numpy and safetensors forms are not built
            raise NotImplementedError(f"flowgrad's {api} does not support the config {key}={configs[key]!r}")


def save(obj, path, protocol: int = 4, **configs) -> None:
    if isinstance(path, (str, os.PathLike)):
        path = os.fspath(path)
        if os.path.basename(path) == "":
            raise ValueError("The input path MUST be format of dirname/filename [dirname\\filename in Windows "
                             "system], but received filename is empty string.")
        if os.path.dirname(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
    elif not isinstance(path, _io.BytesIO):
        raise ValueError(f"only supports saving objects to file and `BytesIO`, but got {type(path)}")
    _check_configs(configs, _SAVE_CONFIGS, "paddle.save")
    if isinstance(obj, dict) and not obj:
        warnings.warn("The input state dict is empty, no need to save.")
    if not isinstance(protocol, int):
        raise ValueError(f"The 'protocol' MUST be `int`, but received {type(protocol)}")
    if not 1 < protocol < 5:
        raise ValueError(f"Expected 1<'protocol'<5, but received protocol={protocol}")
    _ser.save(obj, path)


def _loaded_tensor(t, requires_grad: bool = False) -> Tensor:
    return t


def load(path, **configs):
    if isinstance(path, (str, os.PathLike)) and not os.path.exists(path):
        raise ValueError(f"The ``path`` ({os.fspath(path)}) to load model not exists.")
    _check_configs(configs, _LOAD_CONFIGS, "paddle.load")
    obj = _ser.load(path, weights_only=False, tensor_cls=Tensor, param_cls=_loaded_tensor)
    return _stop_gradients(obj)


def _stop_gradients(obj):
    """Every loaded tensor stops gradients, as paddle's loaded tensors do."""
    if isinstance(obj, Tensor):
        obj._requires_grad = False
    elif isinstance(obj, dict):
        for v in obj.values():
            _stop_gradients(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _stop_gradients(v)
    return obj


__all__ = ["save", "load"]
