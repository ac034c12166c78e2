"""paddle.nn for the paddle facade: Layer, the layers and losses, functional, initializer and
gradient clipping, over flowgrad's framework-neutral nn."""
from __future__ import annotations

from . import functional, initializer, utils  # noqa: F401
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from .layer import Layer, Parameter, ParamAttr
from .rnn import GRU, LSTM, RNN, BiRNN, GRUCell, LSTMCell, SimpleRNN, SimpleRNNCell
from .transformer import MultiHeadAttention, TransformerEncoder, TransformerEncoderLayer
from .spatial import (AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D, AdaptiveMaxPool1D, AdaptiveMaxPool2D,
                      AvgPool1D, AvgPool2D, AvgPool3D, BatchNorm1D, BatchNorm2D, BatchNorm3D, Conv1D, Conv2D,
                      Conv2DTranspose, GroupNorm, MaxPool1D, MaxPool2D, MaxPool3D)
from .layers import (ELU, GELU, BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, Dropout, Embedding, Flatten,
                     Hardsigmoid, Hardswish, Hardtanh, Identity, KLDivLoss, L1Loss, LayerDict, LayerList, LayerNorm,
                     LeakyReLU, Linear, LogSigmoid, LogSoftmax, Mish, MSELoss, NLLLoss, ParameterList, ReLU, ReLU6,
                     Sequential, Sigmoid, SiLU, SmoothL1Loss, Softmax, Softplus, Softsign, Swish, Tanh, Tanhshrink)

__all__ = ["Layer", "Parameter", "ParamAttr", "functional", "initializer", "ClipGradByGlobalNorm", "ClipGradByNorm",
           "ClipGradByValue", "Linear", "ReLU", "ReLU6", "Sigmoid", "Tanh", "SiLU", "Swish", "Mish", "Softsign",
           "Hardswish", "LogSigmoid", "Tanhshrink", "GELU", "LeakyReLU", "ELU", "Softplus", "Hardtanh", "Hardsigmoid",
           "Softmax", "LogSoftmax", "Identity", "Dropout", "Flatten", "Embedding", "LayerNorm", "Conv2D", "Conv1D", "Conv2DTranspose",
           "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "GroupNorm", "MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D",
           "AvgPool2D", "AvgPool3D", "AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveMaxPool1D",
           "AdaptiveMaxPool2D",
           "SimpleRNN", "LSTM", "GRU", "SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "BiRNN", "MultiHeadAttention",
           "TransformerEncoderLayer", "TransformerEncoder", "Sequential",
           "LayerList", "LayerDict", "ParameterList", "MSELoss", "L1Loss", "SmoothL1Loss", "KLDivLoss", "NLLLoss",
           "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss"]
