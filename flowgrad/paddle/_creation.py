"""paddle.to_tensor and the creation functions: paddle's signatures (`shape` as a list, `dtype`
strings, `place`), every created tensor a leaf with stop_gradient=True unless asked otherwise."""
from __future__ import annotations

import numpy as np

from .. import backend, creation
from ..tensor import Tensor as _CoreTensor
from ._ops import _shape
from ._tensor import Tensor, generated_name, to_device


def _finish(arr, stop_gradient: bool = True) -> Tensor:
    t = Tensor._make(arr)
    t._requires_grad = not stop_gradient
    return t


def _float(dtype):
    return backend.default_float() if dtype is None else dtype


def to_tensor(data, dtype=None, place=None, stop_gradient: bool = True) -> Tensor:
    """A new leaf tensor from Python data, a NumPy array or a tensor (copied, keeping its name)."""
    t = _finish(creation.array_from(data, dtype, to_device(place), policy=Tensor.policy), stop_gradient)
    t.name = data.name if isinstance(data, Tensor) else generated_name("generated_tensor")
    return t


def get_default_dtype() -> str:
    return str(backend.default_float())


def set_default_dtype(d) -> None:
    backend.set_default_float(d)


def ones(shape, dtype=None, name=None) -> Tensor:
    return _finish(creation.full(_shape(shape), 1, _float(dtype)))


def zeros(shape, dtype=None, name=None) -> Tensor:
    return _finish(creation.full(_shape(shape), 0, _float(dtype)))


def empty(shape, dtype=None, name=None) -> Tensor:
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None, name=None) -> Tensor:
    if isinstance(fill_value, _CoreTensor):
        fill_value = fill_value.item()
    return _finish(creation.full(_shape(shape), fill_value, _float(dtype)))


def _like(x, dtype):
    return x._data.dtype if dtype is None else dtype


def ones_like(x, dtype=None, name=None) -> Tensor:
    return _finish(creation.full(x._data.shape, 1, _like(x, dtype), x.device))


def zeros_like(x, dtype=None, name=None) -> Tensor:
    return _finish(creation.full(x._data.shape, 0, _like(x, dtype), x.device))


def empty_like(x, dtype=None, name=None) -> Tensor:
    return zeros_like(x, dtype)


def full_like(x, fill_value, dtype=None, name=None) -> Tensor:
    return _finish(creation.full(x._data.shape, fill_value, _like(x, dtype), x.device))


def arange(start=0, end=None, step=1, dtype=None, name=None) -> Tensor:
    return _finish(creation.arange(start, end, step, dtype, policy=Tensor.policy))


def linspace(start, stop, num, dtype=None, name=None) -> Tensor:
    return _finish(creation.linspace(start, stop, int(num), dtype))


def eye(num_rows, num_columns=None, dtype=None, name=None) -> Tensor:
    return _finish(creation.eye(num_rows, num_columns, dtype))


# ------------------------------------------------------------------------------ random

def seed(seed: int) -> creation.Generator:
    """Seed flowgrad's generator (the numbers differ from paddle's; the seeding contract holds)."""
    return creation.default_generator.manual_seed(seed)


def rand(shape, dtype=None, name=None) -> Tensor:
    return _finish(creation.rand(_shape(shape), dtype))


def randn(shape, dtype=None, name=None) -> Tensor:
    return _finish(creation.randn(_shape(shape), dtype))


standard_normal = randn


def uniform(shape, dtype=None, min=-1.0, max=1.0, seed=0, name=None) -> Tensor:
    arr = creation.uniform_like(np.empty(_shape(shape), dtype=backend.to_np_dtype(_float(dtype))), min, max)
    return _finish(arr)


def normal(mean=0.0, std=1.0, shape=None, name=None) -> Tensor:
    if isinstance(mean, _CoreTensor) or isinstance(std, _CoreTensor):
        like = mean if isinstance(mean, _CoreTensor) else std
        return mean + std * randn(like.shape, like.dtype)
    return _finish(creation.normal_like(np.empty(_shape(shape), dtype=backend.default_float()), mean, std))


def randint(low=0, high=None, shape=(1,), dtype=None, name=None) -> Tensor:
    if high is None:
        low, high = 0, low
    return _finish(creation.randint(low, high, _shape(shape), dtype))


def randperm(n, dtype="int64", name=None) -> Tensor:
    return _finish(creation.randperm(n, dtype))
