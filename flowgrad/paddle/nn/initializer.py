"""paddle.nn.initializer: callables that fill a parameter in place (`Constant(0.5)(param)`) through
flowgrad's nn.init, drawn from its seeded generator. Fans follow paddle's convention: for a 2-D
weight `[in, out]`, fan_in is `shape[0]`; for a conv weight `[out, in, kh, kw]`, fan_in is
`in * kh * kw`; a 1-D one has both equal to its size."""
from __future__ import annotations

import math

import numpy as np

from ...nn import init


def _fans(shape) -> tuple[int, int]:
    if len(shape) <= 2:
        return (shape[0], shape[-1]) if shape else (1, 1)
    receptive = int(np.prod(shape[2:]))
    return shape[1] * receptive, shape[0] * receptive


class Initializer:
    """Base class: `init(param)` fills `param` and returns it."""

    def __call__(self, param, block=None):
        self._fill(param)
        return param


class Constant(Initializer):
    def __init__(self, value: float = 0.0) -> None:
        self.value = value

    def _fill(self, param):
        init.constant_(param, self.value)


class Normal(Initializer):
    def __init__(self, mean: float = 0.0, std: float = 1.0, name=None) -> None:
        self.mean, self.std = mean, std

    def _fill(self, param):
        init.normal_(param, self.mean, self.std)


class TruncatedNormal(Initializer):
    """Normal(mean, std) redrawn outside [a, b]."""

    def __init__(self, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0, name=None) -> None:
        self.mean, self.std, self.a, self.b = mean, std, a, b

    def _fill(self, param):
        init.trunc_normal_(param, self.mean, self.std, self.a, self.b)


class Uniform(Initializer):
    def __init__(self, low: float = -1.0, high: float = 1.0, name=None) -> None:
        self.low, self.high = low, high

    def _fill(self, param):
        init.uniform_(param, self.low, self.high)


class XavierUniform(Initializer):
    def __init__(self, fan_in=None, fan_out=None, gain: float = 1.0, name=None) -> None:
        self.fan_in, self.fan_out, self.gain = fan_in, fan_out, gain

    def _fan_sum(self, param) -> float:
        fi, fo = _fans(param._data.shape)
        return (self.fan_in or fi) + (self.fan_out or fo)

    def _fill(self, param):
        limit = self.gain * math.sqrt(6.0 / self._fan_sum(param))
        init.uniform_(param, -limit, limit)


class XavierNormal(XavierUniform):
    def _fill(self, param):
        init.normal_(param, 0.0, self.gain * math.sqrt(2.0 / self._fan_sum(param)))


class KaimingUniform(Initializer):
    def __init__(self, fan_in=None, negative_slope: float = 0.0, nonlinearity: str = "relu", name=None) -> None:
        self.fan_in, self.negative_slope, self.nonlinearity = fan_in, negative_slope, nonlinearity

    def _std(self, param) -> float:
        gain = init.calculate_gain(self.nonlinearity, self.negative_slope)
        return gain / math.sqrt(self.fan_in or _fans(param._data.shape)[0])

    def _fill(self, param):
        limit = math.sqrt(3.0) * self._std(param)
        init.uniform_(param, -limit, limit)


class KaimingNormal(KaimingUniform):
    def _fill(self, param):
        init.normal_(param, 0.0, self._std(param))


class Assign(Initializer):
    def __init__(self, value, name=None) -> None:
        self.value = value

    def _fill(self, param):
        v = self.value
        arr = v._host() if hasattr(v, "_host") else np.asarray(v)
        if arr.shape != param._data.shape:  # paddle gives the parameter the value's shape
            raise NotImplementedError(f"flowgrad's Assign initializer needs a value of the parameter's shape "
                                      f"{list(param._data.shape)}, got {list(arr.shape)}")
        param.set_value(arr)
