"""Weight initialisation (PyTorch's nn.init): fill a tensor in place, outside autograd.

Each function writes into the tensor's array, bumps its version counter and returns the tensor,
like PyTorch's `with torch.no_grad(): tensor.uniform_(...)`. Random numbers come from the given
generator or the default one (seeded by `manual_seed`).
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from .. import backend, creation
from ..autograd.policy import TORCH
from ..tensor import Tensor

__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_", "zeros_", "eye_",
           "dirac_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "orthogonal_",
           "sparse_"]


def _fill(tensor: Tensor, host) -> Tensor:
    """Write `host` (a NumPy array or scalar) into the tensor in place and bump its version."""
    d = tensor._data
    if isinstance(host, np.ndarray) and backend.namespace(d) is not np:
        host = backend.to_device(host, tensor.device)
    d[...] = host
    tensor._bump()
    return tensor


def _rng(generator):
    return creation._gen(generator)


def _no_op(tensor) -> bool:
    if tensor._data.size == 0:
        warnings.warn(tensor.policy.errors.nn_init_zero_element(), stacklevel=3)
        return True
    return False


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended gain for `nonlinearity` (PyTorch's table)."""
    return _gain(nonlinearity, param, TORCH)


def _gain(nonlinearity: str, param, policy) -> float:
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            negative_slope = param
        else:
            raise policy.errors.nn_init_negative_slope(param=param)
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise policy.errors.nn_init_nonlinearity(nonlinearity=nonlinearity)


def _calculate_fan_in_and_fan_out(tensor) -> tuple[int, int]:
    shape = tensor._data.shape
    if len(shape) < 2:
        raise tensor.policy.errors.nn_init_fan_dims()
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return shape[1] * receptive, shape[0] * receptive


def _calculate_correct_fan(tensor, mode: str) -> int:
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise tensor.policy.errors.nn_init_fan_mode(mode=mode, valid=valid_modes)
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a: float = 0.0, b: float = 1.0, generator=None):
    return _fill(tensor, creation.uniform_like(tensor._data, a, b, generator))


def normal_(tensor, mean: float = 0.0, std: float = 1.0, generator=None):
    return _fill(tensor, creation.normal_like(tensor._data, mean, std, generator))


def trunc_normal_(tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0, generator=None):
    """Normal(mean, std) restricted to [a, b] (resampling what falls outside)."""
    rng = _rng(generator)
    shape = tensor._data.shape
    out = rng.standard_normal(shape) * std + mean
    bad = (out < a) | (out > b)
    while bad.any():
        out[bad] = rng.standard_normal(int(bad.sum())) * std + mean
        bad = (out < a) | (out > b)
    return _fill(tensor, out)


def constant_(tensor, val: float):
    return _fill(tensor, val)


def ones_(tensor):
    return _fill(tensor, 1)


def zeros_(tensor):
    return _fill(tensor, 0)


def eye_(tensor):
    if tensor._data.ndim != 2:
        raise tensor.policy.errors.nn_init_dims(dims="2")
    return _fill(tensor, np.eye(*tensor._data.shape))


def dirac_(tensor, groups: int = 1):
    shape = tensor._data.shape
    if len(shape) not in (3, 4, 5):
        raise tensor.policy.errors.nn_init_dims(dims="3, 4, or 5")
    if shape[0] % groups != 0:
        raise tensor.policy.errors.nn_init_dirac_groups()
    out_per_group = shape[0] // groups
    min_dim = min(out_per_group, shape[1])
    host = np.zeros(shape)
    centre = tuple(s // 2 for s in shape[2:])
    for g in range(groups):
        for d in range(min_dim):
            host[(g * out_per_group + d, d) + centre] = 1
    return _fill(tensor, host)


def xavier_uniform_(tensor, gain: float = 1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain: float = 1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                     generator=None):
    if _no_op(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = _gain(nonlinearity, a, tensor.policy) / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    generator=None):
    if _no_op(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = _gain(nonlinearity, a, tensor.policy) / math.sqrt(fan)
    return normal_(tensor, 0.0, std, generator)


def orthogonal_(tensor, gain: float = 1, generator=None):
    shape = tensor._data.shape
    if len(shape) < 2:
        raise tensor.policy.errors.nn_init_dims(dims="2 or more")
    if tensor._data.size == 0:
        return tensor
    rows = shape[0]
    cols = tensor._data.size // rows
    flat = _rng(generator).standard_normal((rows, cols))
    if rows < cols:
        flat = flat.T
    q, r = np.linalg.qr(flat)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return _fill(tensor, (q * gain).reshape(shape))


def sparse_(tensor, sparsity: float, std: float = 0.01, generator=None):
    if tensor._data.ndim != 2:
        raise tensor.policy.errors.nn_init_dims(dims="2")
    rows, cols = tensor._data.shape
    rng = _rng(generator)
    host = rng.standard_normal((rows, cols)) * std
    zeros = int(math.ceil(sparsity * rows))
    for c in range(cols):
        host[rng.permutation(rows)[:zeros], c] = 0
    return _fill(tensor, host)


# PyTorch's deprecated aliases without the trailing underscore
uniform, normal, constant = uniform_, normal_, constant_
xavier_uniform, xavier_normal = xavier_uniform_, xavier_normal_
kaiming_uniform, kaiming_normal = kaiming_uniform_, kaiming_normal_
orthogonal = orthogonal_
