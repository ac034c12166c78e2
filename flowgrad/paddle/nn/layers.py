"""paddle.nn layers: Linear (weight `[in, out]`, XavierUniform weights, zero biases), the
activations, Dropout, Flatten, Embedding, LayerNorm, the containers and the losses, with
paddle's constructor arguments and reprs."""
from __future__ import annotations

import collections
import math

from ... import nn as _nn
from .. import _ops as P
from . import functional as F
from . import initializer as I
from .layer import Layer


class Linear(Layer):
    """y = x @ weight + bias, weight of shape [in_features, out_features]."""

    def __init__(self, in_features: int, out_features: int, weight_attr=None, bias_attr=None, name=None) -> None:
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = self.create_parameter([in_features, out_features], weight_attr)
        self.bias = self.create_parameter([out_features], bias_attr, is_bias=True)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, dtype={self._dtype}"


def _activation(cls_name: str, fn, **defaults):
    """A layer class applying `fn(x, **args)`, constructed with `defaults`' names (plus `name`)."""

    def __init__(self, *args, name=None, **kwargs):
        Layer.__init__(self)
        values = dict(defaults)
        values.update(zip(defaults, args))
        values.update(kwargs)
        self._args = values

    def forward(self, x):
        return fn(x, **self._args)

    def extra_repr(self):
        return ", ".join(f"{k}={v}" for k, v in self._args.items())

    return type(cls_name, (Layer,), {"__init__": __init__, "forward": forward, "extra_repr": extra_repr,
                                     "__module__": __name__})


ReLU = _activation("ReLU", F.relu)
ReLU6 = _activation("ReLU6", F.relu6)
Sigmoid = _activation("Sigmoid", F.sigmoid)
Tanh = _activation("Tanh", F.tanh)
SiLU = _activation("SiLU", F.silu)
Swish = _activation("Swish", F.silu)
Mish = _activation("Mish", F.mish)
Softsign = _activation("Softsign", F.softsign)
Hardswish = _activation("Hardswish", F.hardswish)
LogSigmoid = _activation("LogSigmoid", F.log_sigmoid)
Tanhshrink = _activation("Tanhshrink", F.tanhshrink)
GELU = _activation("GELU", F.gelu, approximate=False)
LeakyReLU = _activation("LeakyReLU", F.leaky_relu, negative_slope=0.01)
ELU = _activation("ELU", F.elu, alpha=1.0)
Softplus = _activation("Softplus", F.softplus, beta=1, threshold=20)
Hardtanh = _activation("Hardtanh", F.hardtanh, min=-1.0, max=1.0)
Hardsigmoid = _activation("Hardsigmoid", F.hardsigmoid)
Softmax = _activation("Softmax", F.softmax, axis=-1)
LogSoftmax = _activation("LogSoftmax", F.log_softmax, axis=-1)


class Identity(Layer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input):
        return input


class Dropout(Layer):
    def __init__(self, p: float = 0.5, axis=None, mode: str = "upscale_in_train", name=None) -> None:
        super().__init__()
        self.p, self.axis, self.mode = p, axis, mode

    def forward(self, input):
        return F.dropout(input, self.p, self.axis, self.training, self.mode)

    def extra_repr(self) -> str:
        return f"p={self.p}, axis={self.axis}, mode={self.mode}, inplace=False"


class Flatten(Layer):
    def __init__(self, start_axis: int = 1, stop_axis: int = -1) -> None:
        super().__init__()
        self.start_axis, self.stop_axis = start_axis, stop_axis

    def forward(self, input):
        return P.flatten(input, self.start_axis, self.stop_axis)


class Embedding(Layer):
    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx=None, sparse: bool = False,
                 weight_attr=None, name=None) -> None:
        super().__init__()
        self._num_embeddings, self._embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None and padding_idx < 0:
            padding_idx += num_embeddings
        self._padding_idx = padding_idx
        self.weight = self.create_parameter([num_embeddings, embedding_dim], weight_attr)
        if padding_idx is not None:
            self.weight._data[padding_idx] = 0

    def forward(self, x):
        return F.embedding(x, self.weight, self._padding_idx)

    def extra_repr(self) -> str:
        return f"{self._num_embeddings}, {self._embedding_dim}"


class LayerNorm(Layer):
    def __init__(self, normalized_shape, epsilon: float = 1e-05, weight_attr=None, bias_attr=None, name=None) -> None:
        super().__init__()
        self._normalized_shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
        self._epsilon = epsilon
        size = [math.prod(self._normalized_shape)]  # paddle keeps the affine parameters flat
        self.weight = self.create_parameter(size, weight_attr, default_initializer=I.Constant(1.0))
        self.bias = self.create_parameter(size, bias_attr, is_bias=True)

    def forward(self, input):
        return F.layer_norm(input, self._normalized_shape, self.weight, self.bias, self._epsilon)

    def extra_repr(self) -> str:
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


# ------------------------------------------------------------------------------ containers

class Sequential(Layer, _nn.Sequential):
    """Layers applied in order: `Sequential(l1, l2)` or `Sequential(('name', l1), ...)`."""

    def __init__(self, *layers) -> None:
        if layers and all(isinstance(x, (tuple, list)) and len(x) == 2 for x in layers):
            layers = (collections.OrderedDict(layers),)
        _nn.Sequential.__init__(self, *layers)


class LayerList(Layer, _nn.ModuleList):
    def __init__(self, sublayers=None) -> None:
        _nn.ModuleList.__init__(self, sublayers)


class LayerDict(Layer, _nn.ModuleDict):
    def __init__(self, sublayers=None) -> None:
        _nn.ModuleDict.__init__(self, sublayers)


class ParameterList(Layer, _nn.ParameterList):
    def __init__(self, parameters=None) -> None:
        _nn.ParameterList.__init__(self, parameters)


# ------------------------------------------------------------------------------ losses

class _Loss(Layer):
    def __init__(self, reduction: str = "mean", name=None) -> None:
        super().__init__()
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"The value of 'reduction' in {type(self).__name__} should be 'sum', 'mean' or 'none', "
                             f"but received {reduction}, which is not allowed.")
        self.reduction = reduction


class MSELoss(_Loss):
    def forward(self, input, label):
        return F.mse_loss(input, label, self.reduction)


class L1Loss(_Loss):
    def forward(self, input, label):
        return F.l1_loss(input, label, self.reduction)


class SmoothL1Loss(_Loss):
    def __init__(self, reduction: str = "mean", delta: float = 1.0, name=None) -> None:
        super().__init__(reduction)
        self.delta = delta

    def forward(self, input, label):
        return F.smooth_l1_loss(input, label, self.reduction, self.delta)


class KLDivLoss(_Loss):
    def forward(self, input, label):
        return F.kl_div(input, label, self.reduction)


class NLLLoss(_Loss):
    def __init__(self, weight=None, ignore_index: int = -100, reduction: str = "mean", name=None) -> None:
        super().__init__(reduction)
        self._weight, self._ignore_index = weight, ignore_index

    def forward(self, input, label):
        return F.nll_loss(input, label, self._weight, self._ignore_index, self.reduction)


class CrossEntropyLoss(_Loss):
    def __init__(self, weight=None, ignore_index: int = -100, reduction: str = "mean", soft_label: bool = False,
                 axis: int = -1, use_softmax: bool = True, label_smoothing: float = 0.0, name=None) -> None:
        super().__init__(reduction)
        self._weight, self._ignore_index, self._soft_label = weight, ignore_index, soft_label
        self._axis, self._use_softmax, self._label_smoothing = axis, use_softmax, label_smoothing

    def forward(self, input, label):
        return F.cross_entropy(input, label, self._weight, self._ignore_index, self.reduction, self._soft_label,
                               self._axis, self._use_softmax, self._label_smoothing)


class BCELoss(_Loss):
    def __init__(self, weight=None, reduction: str = "mean", name=None) -> None:
        super().__init__(reduction)
        self._weight = weight

    def forward(self, input, label):
        return F.binary_cross_entropy(input, label, self._weight, self.reduction)


class BCEWithLogitsLoss(_Loss):
    def __init__(self, weight=None, reduction: str = "mean", pos_weight=None, name=None) -> None:
        super().__init__(reduction)
        self._weight, self._pos_weight = weight, pos_weight

    def forward(self, logit, label):
        return F.binary_cross_entropy_with_logits(logit, label, self._weight, self.reduction, self._pos_weight)
