"""Padding layers: ReflectionPad, ReplicationPad, ZeroPad, ConstantPad and CircularPad in 1, 2 and 3
dims, with PyTorch's attributes (`padding` as a tuple of (before, after) pairs, last dim first) and
`extra_repr`."""
from __future__ import annotations

from . import functional as F
from .module import Module


def _ntuple(v, n: int) -> tuple:
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


class _PadNd(Module):
    _dims = 1
    _mode = "constant"

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = _ntuple(padding, 2 * self._dims)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(Module):
    _dims = 1

    def __init__(self, padding, value: float) -> None:
        super().__init__()
        self.value = value
        self.padding = _ntuple(padding, 2 * self._dims)

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    _mode = "circular"
    _expected = "2D or 3D"

    def forward(self, input):
        if input._data.ndim not in (self._dims + 1, self._dims + 2):
            raise self._tensor_cls.policy.errors.pad_circular_input_dim(dims=self._expected,
                                                ndim=input._data.ndim)
        return super().forward(input)


class ReflectionPad1d(_PadNd):
    _dims, _mode = 1, "reflect"


class ReflectionPad2d(_PadNd):
    _dims, _mode = 2, "reflect"


class ReflectionPad3d(_PadNd):
    _dims, _mode = 3, "reflect"


class ReplicationPad1d(_PadNd):
    _dims, _mode = 1, "replicate"


class ReplicationPad2d(_PadNd):
    _dims, _mode = 2, "replicate"


class ReplicationPad3d(_PadNd):
    _dims, _mode = 3, "replicate"


class CircularPad1d(_CircularPadNd):
    _dims, _expected = 1, "2D or 3D"


class CircularPad2d(_CircularPadNd):
    _dims, _expected = 2, "3D or 4D"


class CircularPad3d(_CircularPadNd):
    _dims, _expected = 3, "4D or 5D"


class ConstantPad1d(_ConstantPadNd):
    _dims = 1


class ConstantPad2d(_ConstantPadNd):
    _dims = 2


class ConstantPad3d(_ConstantPadNd):
    _dims = 3


class ZeroPad1d(_ZeroPadNd):
    _dims = 1


class ZeroPad2d(_ZeroPadNd):
    _dims = 2


class ZeroPad3d(_ZeroPadNd):
    _dims = 3
