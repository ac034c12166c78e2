"""paddle.nn's convolution, normalisation and pooling layers with paddle's constructor arguments,
parameter shapes, names, initialisers and reprs: Conv1D and Conv2D (`padding_mode` reflect /
replicate / circular pads first), Conv2DTranspose, BatchNorm1D/2D/3D (`_mean` / `_variance` as
non-trainable parameters), GroupNorm, the max / average pools (1-d, 2-d, 3-d) and adaptive pools;
the channels-last formats (NLC, NHWC, NDHWC) run the channels-first computation between two
transposes."""
from __future__ import annotations

import math
import warnings

from ...nn import functional as _F
from ...nn import layout
from . import functional as F
from . import initializer as I
from .layer import Layer, ParamAttr


def _ntuple(v, n: int) -> tuple:
    return (v,) * n if isinstance(v, int) else tuple(v)


def _conv_extra(layer) -> str:
    text = f"{layer._in_channels}, {layer._out_channels}, kernel_size={list(layer._kernel_size)}"
    if layer._stride != 1:
        text += f", stride={list(_ntuple(layer._stride, len(layer._kernel_size)))}"
    if layer._padding != 0:
        text += f", padding={layer._padding}"
    if layer._padding_mode != "zeros":
        text += f", padding_mode={layer._padding_mode}"
    if getattr(layer, "_output_padding", 0) != 0:
        text += f", output_padding={layer._output_padding}"
    if layer._dilation != 1:
        text += f", dilation={list(_ntuple(layer._dilation, len(layer._kernel_size)))}"
    if layer._groups != 1:
        text += f", groups={layer._groups}"
    return text + f", data_format={layer._data_format}"


class _ConvNd(Layer):
    """Paddle's convolution layers: weight `[out, in // groups, *k]` (transposed: `[in, out // groups,
    *k]`), Normal(0, sqrt(2 / (in * prod(k)))) weights (transposed: XavierUniform), zero biases."""

    _dims = 2
    _transposed = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 dilation=1, groups: int = 1, padding_mode: str = "zeros", weight_attr=None, bias_attr=None,
                 data_format: str = "NCHW") -> None:
        super().__init__()
        if data_format not in ("NCHW", "NCL", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError("data_format must be one of {'NCHW', 'NCL', 'NCDHW', 'NLC', 'NHWC', 'NDHWC'}, but got "
                             f"data_format='{data_format}'")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError("padding_mode must be one of {'replicate', 'reflect', 'zeros', 'circular'}, but got "
                             f"padding_mode='{padding_mode}'")
        if padding_mode != "zeros" and not isinstance(padding, int):
            raise TypeError("when padding_mode in ['reflect', 'replicate', 'circular'], type of padding must be int")
        self._padding_mode = padding_mode
        k = _ntuple(kernel_size, self._dims)
        self._in_channels, self._out_channels, self._kernel_size = in_channels, out_channels, k
        self._stride, self._padding, self._dilation, self._groups = stride, padding, dilation, groups
        self._output_padding, self._data_format = output_padding, data_format
        if self._transposed:
            shape, init = [in_channels, out_channels // groups, *k], None
        else:
            shape = [out_channels, in_channels // groups, *k]
            init = I.Normal(0.0, math.sqrt(2.0 / (in_channels * math.prod(k))))
        self.weight = self.create_parameter(shape, weight_attr, default_initializer=init)
        self.bias = self.create_parameter([out_channels], bias_attr, is_bias=True)

    def _padded(self, x, last: bool):
        """`x` padded by `padding_mode` (then the convolution pads nothing) and the convolution's padding."""
        if self._padding_mode == "zeros":
            return x, self._padding
        pads = [self._padding] * (2 * self._dims)
        return layout.in_channels_first(_F.pad, x, last, pads, self._padding_mode), 0

    def extra_repr(self) -> str:
        return _conv_extra(self)


class Conv2D(_ConvNd):
    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, padding_mode: str = "zeros", weight_attr=None, bias_attr=None,
                 data_format: str = "NCHW") -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, 0, dilation, groups, padding_mode,
                         weight_attr, bias_attr, data_format)

    def forward(self, x):
        layout_ = "NHWC" if self._data_format == "NHWC" else "NCHW"  # paddle computes any other as NCHW
        x, padding = self._padded(x, layout_ == "NHWC")
        return F.conv2d(x, self.weight, self.bias, self._stride, padding, self._dilation, self._groups, layout_)


class Conv1D(_ConvNd):
    _dims = 1

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, padding_mode: str = "zeros", weight_attr=None, bias_attr=None,
                 data_format: str = "NCL") -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, 0, dilation, groups, padding_mode,
                         weight_attr, bias_attr, data_format)

    def forward(self, x):
        x, padding = self._padded(x, self._data_format == "NLC")
        return F.conv1d(x, self.weight, self.bias, self._stride, padding, self._dilation, self._groups,
                        self._data_format)


class Conv2DTranspose(_ConvNd):
    _transposed = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 dilation=1, groups: int = 1, weight_attr=None, bias_attr=None, data_format: str = "NCHW") -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, output_padding, dilation, groups,
                         "zeros", weight_attr, bias_attr, data_format)

    def forward(self, x, output_size=None):
        return F.conv2d_transpose(x, self.weight, self.bias, self._stride, self._padding, self._output_padding,
                                  self._dilation, self._groups, output_size, self._data_format)


class _BatchNormBase(Layer):
    """weight (ones), bias (zeros) and the running `_mean` (zeros) / `_variance` (ones), which are
    parameters that stop gradients, as paddle's."""

    _default_format = "NCHW"
    _ndims: tuple = (4,)
    _formats = {"NCHW": "NCHW", "NHWC": "NHWC"}  # the formats each layer takes, as what forward computes
    _format_error = "expected NCHW or NHWC for data_format input"

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05, weight_attr=None,
                 bias_attr=None, data_format=None, use_global_stats=None, name=None) -> None:
        super().__init__()
        self._name = name
        data_format = data_format or self._default_format
        self._num_features, self._momentum, self._epsilon = num_features, momentum, epsilon
        self._data_format, self._use_global_stats = data_format, use_global_stats
        self.weight = self.create_parameter([num_features], weight_attr, default_initializer=I.Constant(1.0))
        self.bias = self.create_parameter([num_features], bias_attr, is_bias=True)
        stats = ParamAttr(trainable=False)
        self._mean = self.create_parameter([num_features], stats, default_initializer=I.Constant(0.0))
        self._variance = self.create_parameter([num_features], stats, default_initializer=I.Constant(1.0))

    def forward(self, input):
        if self._data_format not in self._formats:
            raise ValueError(self._format_error)
        self._data_format = self._formats[self._data_format]  # paddle's forward rewrites it (reprs show it)
        if input.ndim not in self._ndims:
            raise ValueError(f"expected {' or '.join(f'{n}D' for n in self._ndims)} input (got {input.ndim}D input)")
        if self.training:
            warnings.warn("When training, we now always track global mean and variance.")
        return F.batch_norm(input, self._mean, self._variance, self.weight, self.bias, self.training, self._momentum,
                            self._epsilon, self._data_format, self._use_global_stats)

    def extra_repr(self) -> str:
        text = f"num_features={self._num_features}, momentum={self._momentum}, epsilon={self._epsilon}"
        if self._data_format != "NCHW":
            text += f", data_format={self._data_format}"
        return text if self._name is None else text + f", name={self._name}"


class BatchNorm1D(_BatchNormBase):
    _default_format, _ndims = "NCL", (2, 3)
    _formats = {"NCHW": "NCHW", "NC": "NCHW", "NCL": "NCHW", "NHWC": "NHWC", "NLC": "NHWC"}
    _format_error = "expected NC , NCL, NLC or None for data_format input"


class BatchNorm2D(_BatchNormBase):
    pass


class BatchNorm3D(_BatchNormBase):
    _default_format, _ndims = "NCDHW", (5,)
    _formats = {"NCHW": "NCHW", "NCDHW": "NCHW", "NHWC": "NHWC", "NDHWC": "NHWC"}
    _format_error = "expected NCDHW, NDHWC or None for data_format input"


class GroupNorm(Layer):
    def __init__(self, num_groups: int, num_channels: int, epsilon: float = 1e-05, weight_attr=None, bias_attr=None,
                 data_format: str = "NCHW", name=None) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError("num_channels must be divisible by num_groups")
        self._num_groups, self._num_channels, self._epsilon = num_groups, num_channels, epsilon
        self._data_format = data_format
        self.weight = self.create_parameter([num_channels], weight_attr, default_initializer=I.Constant(1.0))
        self.bias = self.create_parameter([num_channels], bias_attr, is_bias=True)

    def forward(self, input):
        return F.group_norm(input, self._num_groups, self._epsilon, self.weight, self.bias, self._data_format)

    def extra_repr(self) -> str:
        return f"num_groups={self._num_groups}, num_channels={self._num_channels}, epsilon={self._epsilon}"


class _Pool(Layer):
    """paddle's pooling layers: the functional form's arguments kept as attributes (`ksize`,
    `stride`, `padding` and the `_keys` options), repr `kernel_size=..., stride=..., padding=...`."""

    _fn = staticmethod(F.max_pool2d)
    _keys: tuple = ()

    def __init__(self, kernel_size, stride=None, padding=0, **options) -> None:
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        for key in self._keys:
            setattr(self, key, options[key])

    def forward(self, x):
        return self._fn(x, self.ksize, self.stride, self.padding, **{k: getattr(self, k) for k in self._keys})

    def extra_repr(self) -> str:
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


class MaxPool1D(_Pool):
    _fn, _keys = staticmethod(F.max_pool1d), ("return_mask", "ceil_mode")

    def __init__(self, kernel_size, stride=None, padding=0, return_mask: bool = False, ceil_mode: bool = False,
                 name=None) -> None:
        super().__init__(kernel_size, stride, padding, return_mask=return_mask, ceil_mode=ceil_mode)


class MaxPool2D(_Pool):
    _fn, _keys = staticmethod(F.max_pool2d), ("return_mask", "ceil_mode", "data_format")

    def __init__(self, kernel_size, stride=None, padding=0, return_mask: bool = False, ceil_mode: bool = False,
                 data_format: str = "NCHW", name=None) -> None:
        super().__init__(kernel_size, stride, padding, return_mask=return_mask, ceil_mode=ceil_mode,
                         data_format=data_format)


class MaxPool3D(_Pool):
    _fn, _keys = staticmethod(F.max_pool3d), ("return_mask", "ceil_mode", "data_format")

    def __init__(self, kernel_size, stride=None, padding=0, return_mask: bool = False, ceil_mode: bool = False,
                 data_format: str = "NCDHW", name=None) -> None:
        super().__init__(kernel_size, stride, padding, return_mask=return_mask, ceil_mode=ceil_mode,
                         data_format=data_format)


class AvgPool1D(_Pool):
    _fn, _keys = staticmethod(F.avg_pool1d), ("exclusive", "ceil_mode")

    def __init__(self, kernel_size, stride=None, padding=0, exclusive: bool = True, ceil_mode: bool = False,
                 name=None) -> None:
        super().__init__(kernel_size, stride, padding, exclusive=exclusive, ceil_mode=ceil_mode)


class AvgPool2D(_Pool):
    _fn, _keys = staticmethod(F.avg_pool2d), ("ceil_mode", "exclusive", "divisor_override", "data_format")

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False, exclusive: bool = True,
                 divisor_override=None, data_format: str = "NCHW", name=None) -> None:
        super().__init__(kernel_size, stride, padding, ceil_mode=ceil_mode, exclusive=exclusive,
                         divisor_override=divisor_override, data_format=data_format)


class AvgPool3D(_Pool):
    _fn, _keys = staticmethod(F.avg_pool3d), ("ceil_mode", "exclusive", "divisor_override", "data_format")

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False, exclusive: bool = True,
                 divisor_override=None, data_format: str = "NCDHW", name=None) -> None:
        super().__init__(kernel_size, stride, padding, ceil_mode=ceil_mode, exclusive=exclusive,
                         divisor_override=divisor_override, data_format=data_format)


class _AdaptivePool(Layer):
    """paddle's adaptive pooling layers: `output_size` and the functional form's options."""

    _fn = staticmethod(F.adaptive_avg_pool2d)

    def __init__(self, output_size, **options) -> None:
        super().__init__()
        self._output_size, self._options = output_size, options

    def forward(self, x):
        return self._fn(x, self._output_size, **self._options)

    def extra_repr(self) -> str:
        mask = self._options.get("return_mask")
        return f"output_size={self._output_size}" + ("" if mask is None else f", return_mask={mask}")


class AdaptiveAvgPool1D(_AdaptivePool):
    _fn = staticmethod(F.adaptive_avg_pool1d)

    def __init__(self, output_size: int, name=None) -> None:
        super().__init__(output_size)


class AdaptiveAvgPool2D(_AdaptivePool):
    def __init__(self, output_size, data_format: str = "NCHW", name=None) -> None:
        super().__init__(output_size, data_format=data_format)


class AdaptiveAvgPool3D(_AdaptivePool):
    _fn = staticmethod(F.adaptive_avg_pool3d)

    def __init__(self, output_size, data_format: str = "NCDHW", name=None) -> None:
        super().__init__(output_size, data_format=data_format)


class AdaptiveMaxPool1D(_AdaptivePool):
    _fn = staticmethod(F.adaptive_max_pool1d)

    def __init__(self, output_size, return_mask: bool = False, name=None) -> None:
        super().__init__(output_size, return_mask=return_mask)


class AdaptiveMaxPool2D(_AdaptivePool):
    _fn = staticmethod(F.adaptive_max_pool2d)

    def __init__(self, output_size, return_mask: bool = False, name=None) -> None:
        super().__init__(output_size, return_mask=return_mask)


__all__ = ["Conv1D", "Conv2D", "Conv2DTranspose", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "GroupNorm", "MaxPool1D",
           "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D", "AdaptiveAvgPool1D", "AdaptiveAvgPool2D",
           "AdaptiveAvgPool3D", "AdaptiveMaxPool1D", "AdaptiveMaxPool2D"]
