"""paddle.nn.initializer: callables that fill a parameter in place (`Constant(0.5)(param)`),
drawn from flowgrad's seeded generator. Fans follow paddle's convention: for a 2-D weight
`[in, out]`, fan_in is `shape[0]`; for a conv weight `[out, in, kh, kw]`, fan_in is
`in * kh * kw`."""
from __future__ import annotations

import math

import numpy as np

from ... import creation
from ...autograd import mode


def _fans(shape) -> tuple[int, int]:
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[2:]))
    return shape[1] * receptive, shape[0] * receptive


class Initializer:
    """Base class: `init(param)` fills `param` without recording and returns it."""

    def _values(self, shape, dtype) -> np.ndarray:
        raise NotImplementedError

    def __call__(self, param, block=None):
        with mode._GradModeGuard(False):
            values = self._values(param._data.shape, param._data.dtype).astype(param._data.dtype, copy=False)
            param.set_value(values)
        return param


class Constant(Initializer):
    def __init__(self, value: float = 0.0) -> None:
        self.value = value

    def _values(self, shape, dtype):
        return np.full(shape, self.value, dtype=dtype)


class Normal(Initializer):
    def __init__(self, mean: float = 0.0, std: float = 1.0, name=None) -> None:
        self.mean, self.std = mean, std

    def _values(self, shape, dtype):
        return creation.default_generator.rng.normal(self.mean, self.std, shape)


class TruncatedNormal(Initializer):
    def __init__(self, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0, name=None) -> None:
        self.mean, self.std, self.a, self.b = mean, std, a, b

    def _values(self, shape, dtype):
        rng = creation.default_generator.rng
        out = rng.normal(self.mean, self.std, shape)
        lo, hi = self.mean + self.a * self.std, self.mean + self.b * self.std
        bad = (out < lo) | (out > hi)
        while bad.any():
            out[bad] = rng.normal(self.mean, self.std, int(bad.sum()))
            bad = (out < lo) | (out > hi)
        return out


class Uniform(Initializer):
    def __init__(self, low: float = -1.0, high: float = 1.0, name=None) -> None:
        self.low, self.high = low, high

    def _values(self, shape, dtype):
        return creation.default_generator.rng.uniform(self.low, self.high, shape)


class XavierUniform(Initializer):
    def __init__(self, fan_in=None, fan_out=None, gain: float = 1.0, name=None) -> None:
        self.fan_in, self.fan_out, self.gain = fan_in, fan_out, gain

    def _values(self, shape, dtype):
        fi, fo = _fans(shape)
        fi, fo = self.fan_in or fi, self.fan_out or fo
        limit = self.gain * math.sqrt(6.0 / (fi + fo))
        return creation.default_generator.rng.uniform(-limit, limit, shape)


class XavierNormal(XavierUniform):
    def _values(self, shape, dtype):
        fi, fo = _fans(shape)
        fi, fo = self.fan_in or fi, self.fan_out or fo
        return creation.default_generator.rng.normal(0.0, self.gain * math.sqrt(2.0 / (fi + fo)), shape)


class KaimingUniform(Initializer):
    def __init__(self, fan_in=None, negative_slope: float = 0.0, nonlinearity: str = "relu", name=None) -> None:
        self.fan_in, self.negative_slope, self.nonlinearity = fan_in, negative_slope, nonlinearity

    def _gain(self) -> float:
        if self.nonlinearity == "leaky_relu":
            return math.sqrt(2.0 / (1 + self.negative_slope ** 2))
        return math.sqrt(2.0) if self.nonlinearity == "relu" else 1.0

    def _values(self, shape, dtype):
        fi = self.fan_in or _fans(shape)[0]
        limit = self._gain() * math.sqrt(3.0 / fi)
        return creation.default_generator.rng.uniform(-limit, limit, shape)


class KaimingNormal(KaimingUniform):
    def _values(self, shape, dtype):
        fi = self.fan_in or _fans(shape)[0]
        return creation.default_generator.rng.normal(0.0, self._gain() / math.sqrt(fi), shape)


class Assign(Initializer):
    def __init__(self, value, name=None) -> None:
        self.value = value

    def _values(self, shape, dtype):
        v = self.value
        arr = v._host() if hasattr(v, "_host") else np.asarray(v)
        return arr.reshape(shape)
