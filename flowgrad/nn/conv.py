"""Convolution layers: Conv1d/2d/3d and ConvTranspose1d/2d/3d (PyTorch's constructors, attributes,
initialisation and `extra_repr` over one N-d base), and Unfold / Fold."""
from __future__ import annotations

import math

from . import functional as F
from . import init
from .functional_conv import transposed_size
from .module import Module


def _ntuple(v, n: int) -> tuple:
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


class _ConvNd(Module):
    _spatial = 2

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride, padding, dilation, transposed: bool,
                 output_padding, groups: int, bias: bool, padding_mode: str, device=None, dtype=None) -> None:
        super().__init__()
        policy = self._tensor_cls.policy
        if groups <= 0:
            raise policy.errors.nn_conv_groups()
        if in_channels % groups != 0:
            raise policy.errors.nn_conv_in_groups()
        if out_channels % groups != 0:
            raise policy.errors.nn_conv_out_groups()
        valid_padding = {"valid", "same"}
        if isinstance(padding, str):
            if padding not in valid_padding:
                raise policy.errors.nn_conv_padding_string(padding=padding, valid=valid_padding)
            if padding == "same" and any(s != 1 for s in stride):
                raise policy.errors.nn_conv_same_strided()
        valid_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_modes:
            raise policy.errors.nn_conv_padding_mode(modes=valid_modes, mode=padding_mode)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        if isinstance(padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total = d * (k - 1)
                    left = total // 2
                    self._reversed_padding_repeated_twice[2 * i] = left
                    self._reversed_padding_repeated_twice[2 * i + 1] = total - left
        else:
            self._reversed_padding_repeated_twice = tuple(p for p in reversed(padding) for _ in range(2))
        shape = (in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)
        self.weight = self._new_parameter(shape + tuple(kernel_size), dtype, device)
        if bias:
            self.bias = self._new_parameter((out_channels,), dtype, device)
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class _Conv(_ConvNd):
    """Conv1d / Conv2d / Conv3d: a padding mode other than 'zeros' pads the input first."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None) -> None:
        n = self._spatial
        padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        super().__init__(in_channels, out_channels, _ntuple(kernel_size, n), _ntuple(stride, n), padding,
                         _ntuple(dilation, n), False, (0,) * n, groups, bias, padding_mode, device, dtype)

    def _conv_forward(self, input, weight, bias):
        conv = getattr(F, f"conv{self._spatial}d")
        if self.padding_mode != "zeros":
            return conv(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), weight, bias,
                        self.stride, 0, self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_Conv):
    _spatial = 1


class Conv2d(_Conv):
    _spatial = 2


class Conv3d(_Conv):
    _spatial = 3


class _ConvTransposeNd(_ConvNd):
    """ConvTranspose1d / 2d / 3d; `forward(input, output_size)` picks the output padding that gives
    the requested size."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None,
                 dtype=None) -> None:
        if padding_mode != "zeros":
            raise self._tensor_cls.policy.errors.conv_transpose_padding_mode(name=type(self).__name__)
        n = self._spatial
        super().__init__(in_channels, out_channels, _ntuple(kernel_size, n), _ntuple(stride, n),
                         _ntuple(padding, n), _ntuple(dilation, n), True, _ntuple(output_padding, n), groups, bias,
                         padding_mode, device, dtype)

    def _output_padding(self, input, output_size) -> tuple:
        if output_size is None:
            return self.output_padding
        n = self._spatial
        shape = tuple(input.shape)
        lead = 2 if len(shape) == n + 2 else 1
        if len(output_size) == lead + n:
            output_size = output_size[lead:]
        if len(output_size) != n:
            raise self._tensor_cls.policy.errors.conv_transpose_output_size_len(dims=n, ndim=len(shape),
                                                full=lead + n, got=len(output_size))
        low = transposed_size(shape[lead:], self.kernel_size, self.stride, self.padding, self.dilation)
        high = [low[i] + self.stride[i] - 1 for i in range(n)]
        if any(not low[i] <= output_size[i] <= high[i] for i in range(n)):
            raise self._tensor_cls.policy.errors.conv_transpose_output_size_range(size=output_size, low=low,
                                                high=high, input_shape=shape[2:])
        return tuple(output_size[i] - low[i] for i in range(n))

    def forward(self, input, output_size=None):
        conv = getattr(F, f"conv_transpose{self._spatial}d")
        return conv(input, self.weight, self.bias, self.stride, self.padding, self._output_padding(input, output_size),
                    self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    _spatial = 1


class ConvTranspose2d(_ConvTransposeNd):
    _spatial = 2


class ConvTranspose3d(_ConvTransposeNd):
    _spatial = 3


class Unfold(Module):
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")


class Fold(Module):
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")
