"""Framework-neutral neural-network building blocks: Module, Parameter, layers, losses, the
functional forms, weight initialisation and gradient utilities. Facades (flowgrad.torch.nn, the
paddle facade) wrap these with their own class names and tensor classes."""
from __future__ import annotations

from . import functional, init, rnn_utils, utils  # noqa: F401
from .attention import MultiheadAttention, NonDynamicallyQuantizableLinear
from .containers import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, Fold, Unfold
from .embedding_bag import EmbeddingBag
from .layers import (CELU, ELU, GELU, GLU, SELU, Hardshrink, RReLU, Softshrink, Threshold, BatchNorm1d, BatchNorm2d, BatchNorm3d, Bilinear, ChannelShuffle, DataParallel,
                     Dropout, Embedding, Flatten, Hardsigmoid, Hardswish, Hardtanh, Identity, LayerNorm, LeakyReLU,
                     Linear, LogSigmoid, LogSoftmax, Mish, PixelShuffle, PixelUnshuffle, PReLU, ReLU, ReLU6, Sigmoid,
                     SiLU, Softmax, Softmin, Softplus, Softsign, Tanh, Unflatten)
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss, MSELoss, NLLLoss,
                   SmoothL1Loss)
from .module import Module
from .norm import GroupNorm, InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, LocalResponseNorm
from .padding import (CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d, ConstantPad3d,
                      ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
                      ReplicationPad3d, ZeroPad1d, ZeroPad2d, ZeroPad3d)
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool1d, AdaptiveMaxPool2d,
                      AdaptiveMaxPool3d, AvgPool1d, AvgPool2d, AvgPool3d, LPPool1d, LPPool2d, LPPool3d, MaxPool1d,
                      MaxPool2d, MaxPool3d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d)
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .transformer import (Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
                          TransformerEncoderLayer)
from .parameter import Parameter
from .parametrizations import _Orthogonal, _SpectralNorm, _WeightNorm
from .parametrize import ParametrizationList

# Layers that other layers build but that PyTorch does not name in torch.nn: a facade derives a
# class for each (Module._layer finds it) without presenting it.
INNER_MODULE_CLASSES = {"NonDynamicallyQuantizableLinear": NonDynamicallyQuantizableLinear,
                        "ParametrizationList": ParametrizationList, "_WeightNorm": _WeightNorm,
                        "_SpectralNorm": _SpectralNorm, "_Orthogonal": _Orthogonal}
# Every other Module subclass defined here, by name: a facade derives its own class for each.
MODULE_CLASSES = {name: obj for name, obj in dict(globals()).items()
                  if isinstance(obj, type) and issubclass(obj, Module) and obj is not Module
                  and name not in INNER_MODULE_CLASSES}
