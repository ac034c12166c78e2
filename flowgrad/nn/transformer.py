"""Transformer, TransformerEncoder / TransformerDecoder and their layers, as PyTorch builds them.

Each layer is MultiheadAttention, Linear, Dropout and LayerNorm sub-layers (of the module's facade)
with PyTorch's names, so a real torch state dict loads as is; the forward is PyTorch's slow path
(post-norm or `norm_first`), so gradients come from the op table. PyTorch's fused inference paths
compute the same values with one visible difference, which is reproduced: a TransformerEncoder that
runs its nested-tensor path (evaluation, no gradients, batch_first, a left-aligned padding mask,
torch.backends.mha's fast path enabled) returns zeros at the padded positions before its final norm.
"""
from __future__ import annotations

import copy
import warnings
from typing import Callable

import numpy as np

from .. import backend, ops
from ..autograd import mode
from . import attention, init
from . import functional as F
from .attention import MultiheadAttention, _canonical_mask, _dtype
from .containers import ModuleList
from .layers import GELU, Dropout, LayerNorm, Linear, ReLU
from .module import Module


def _activation_fn(activation, module) -> Callable:
    """The activation function a layer keeps: a name's, or the one given, as the layer's facade presents it."""
    if isinstance(activation, str):
        if activation == "relu":
            activation = F.relu
        elif activation == "gelu":
            activation = F.gelu
        else:
            raise module._tensor_cls.policy.errors.transformer_activation(activation=activation)
    return module._function(activation)


def _neutral(fn):
    return getattr(fn, "__wrapped__", fn)


def _seq_len(src, batch_first: bool) -> int:
    shape = src._data.shape
    return shape[0] if len(shape) == 2 else shape[1 if batch_first else 0]


# the C++ names PyTorch gives integer types when -inf does not fit them
_INT_TYPES = {"int64": "int64_t", "int32": "int", "int16": "int16_t", "int8": "int8_t", "uint8": "uint8_t"}


def _causal_mask_array(xp, size: int, dtype, policy):
    """-inf above the diagonal, 0 elsewhere (True / False for bool)."""
    if dtype.kind in "iu":
        raise policy.errors.transformer_mask_overflow(ctype=_INT_TYPES[dtype.name])
    return xp.triu(xp.full((size, size), -xp.inf, dtype=dtype), 1)


def _detect_is_causal_mask(mask, is_causal, size) -> bool:
    """PyTorch's reading of `is_causal=None`: causal when the mask is exactly the square
    subsequent mask of the sequence length (in the mask's own dtype)."""
    if is_causal is not None or mask is None:
        return is_causal is True
    d = mask._data
    size = size if size is not None else d.shape[-2]
    causal = _causal_mask_array(backend.namespace(d), size, d.dtype, mask.policy)
    return d.shape == causal.shape and bool((d == causal).all())


class TransformerEncoderLayer(Module):
    """Self-attention and a feed-forward block, each with dropout, a residual and a LayerNorm
    (after the residual, or before the block with `norm_first`)."""

    __constants__ = ["norm_first"]

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation=F.relu, layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.self_attn = self._layer(MultiheadAttention)(d_model, nhead, dropout=dropout, bias=bias,
                                                         batch_first=batch_first, **factory)
        self.linear1 = self._layer(Linear)(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = self._layer(Dropout)(dropout)
        self.linear2 = self._layer(Linear)(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        self.norm1 = self._layer(LayerNorm)(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm2 = self._layer(LayerNorm)(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.dropout1 = self._layer(Dropout)(dropout)
        self.dropout2 = self._layer(Dropout)(dropout)
        activation = _activation_fn(activation, self)
        if _neutral(activation) is F.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif _neutral(activation) is F.gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "activation"):
            self.activation = self._function(F.relu)

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal: bool = False):
        src_key_padding_mask = _canonical_mask(src_key_padding_mask, "src_key_padding_mask", _dtype(src_mask),
                                               "src_mask", src._data.dtype)
        src_mask = _canonical_mask(src_mask, "src_mask", None, "", src._data.dtype, check_other=False)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal=is_causal)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal=is_causal))
        return self.norm2(x + self._ff_block(x))

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal: bool = False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False,
                           is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerDecoderLayer(Module):
    """Self-attention, attention over the encoder's memory and a feed-forward block, each with
    dropout, a residual and a LayerNorm (after the residual, or before the block with `norm_first`)."""

    __constants__ = ["norm_first"]

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation=F.relu, layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        mha = self._layer(MultiheadAttention)
        self.self_attn = mha(d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, **factory)
        self.multihead_attn = mha(d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, **factory)
        self.linear1 = self._layer(Linear)(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = self._layer(Dropout)(dropout)
        self.linear2 = self._layer(Linear)(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        self.norm1 = self._layer(LayerNorm)(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm2 = self._layer(LayerNorm)(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm3 = self._layer(LayerNorm)(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.dropout1 = self._layer(Dropout)(dropout)
        self.dropout2 = self._layer(Dropout)(dropout)
        self.dropout3 = self._layer(Dropout)(dropout)
        self.activation = _activation_fn(activation, self)

    def __setstate__(self, state):
        super().__setstate__(state)
        if "activation" not in state:
            self.activation = self._function(F.relu)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal: bool = False, memory_is_causal: bool = False):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal))
        return self.norm3(x + self._ff_block(x))

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal: bool = False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, is_causal=is_causal,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal: bool = False):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                is_causal=is_causal, need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        return self.dropout3(self.linear2(self.dropout(self.activation(self.linear1(x)))))


def _refuses_nested_tensor(layer, policy) -> bool:
    """Whether `layer` keeps a TransformerEncoder off PyTorch's nested-tensor path, warning why."""
    if not isinstance(layer, TransformerEncoderLayer):
        reason = "transformer_nested_layer_type"
    elif layer.norm_first:
        reason = "transformer_nested_norm_first"
    elif not layer.self_attn.batch_first:
        reason = "transformer_nested_batch_first"
    elif not layer.self_attn._qkv_same_embed_dim:
        reason = "transformer_nested_qkv_dim"
    elif layer.self_attn.in_proj_bias is None:
        reason = "transformer_nested_no_bias"
    elif not layer.activation_relu_or_gelu:
        reason = "transformer_nested_activation"
    elif layer.norm1.eps != layer.norm2.eps:
        reason = "transformer_nested_eps"
    elif layer.self_attn.num_heads % 2 == 1:
        reason = "transformer_nested_odd_heads"
    else:
        return False
    warnings.warn(policy.error(reason), stacklevel=3)
    return True


def _left_aligned(keep) -> bool:
    """Every row keeps a prefix of its positions."""
    return bool((keep[:, 1:] <= keep[:, :-1]).all()) if keep.shape[1] > 1 else True


class TransformerEncoder(Module):
    """`num_layers` copies of an encoder layer, then an optional norm."""

    __constants__ = ["norm"]

    def __init__(self, encoder_layer, num_layers: int, norm=None, enable_nested_tensor: bool = True,
                 mask_check: bool = True) -> None:
        super().__init__()
        self.layers = self._layer(ModuleList)([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        if enable_nested_tensor and _refuses_nested_tensor(encoder_layer, self._tensor_cls.policy):
            self.use_nested_tensor = False

    def _nested(self, src, mask, src_key_padding_mask) -> bool:
        """Whether PyTorch would run this call on nested tensors (so padded positions come out zero)."""
        first = self.layers[0]
        if not attention.FASTPATH["enabled"] or not getattr(self, "use_nested_tensor", False):
            return False
        if first.training or src._data.ndim != 3:
            return False
        if src_key_padding_mask is None or mask is not None:
            return False
        if getattr(self, "mask_check", True) and not _left_aligned(src_key_padding_mask._data == 0):
            return False
        attn = first.self_attn
        tensors = (src, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight, attn.out_proj.bias,
                   first.norm1.weight, first.norm1.bias, first.norm2.weight, first.norm2.bias, first.linear1.weight,
                   first.linear1.bias, first.linear2.weight, first.linear2.bias)
        return not (mode.is_grad_enabled() and any(t._requires_grad for t in tensors))

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        src_key_padding_mask = _canonical_mask(src_key_padding_mask, "src_key_padding_mask", _dtype(mask), "mask",
                                               src._data.dtype)
        mask = _canonical_mask(mask, "mask", None, "", src._data.dtype, check_other=False)
        padded = None
        if self._nested(src, mask, src_key_padding_mask):   # any nonzero entry pads its position out
            d = src_key_padding_mask._data
            padded = d != 0
            src_key_padding_mask = src_key_padding_mask._new(backend.namespace(d).where(padded, -np.inf, 0.0)
                                                             .astype(d.dtype))
        is_causal = _detect_is_causal_mask(mask, is_causal, _seq_len(src, self.layers[0].self_attn.batch_first))
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=is_causal, src_key_padding_mask=src_key_padding_mask)
        if padded is not None:
            output = ops.masked_fill(output, output._new(padded[..., None]), 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerDecoder(Module):
    """`num_layers` copies of a decoder layer, then an optional norm."""

    __constants__ = ["norm"]

    def __init__(self, decoder_layer, num_layers: int, norm=None) -> None:
        super().__init__()
        self.layers = self._layer(ModuleList)([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal: bool = False):
        seq_len = _seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask,
                           tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    """An encoder-decoder Transformer: TransformerEncoder and TransformerDecoder (or custom ones)."""

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6, num_decoder_layers: int = 6,
                 dim_feedforward: int = 2048, dropout: float = 0.1, activation=F.relu, custom_encoder=None,
                 custom_decoder=None, layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
                      bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = self._layer(TransformerEncoderLayer)(*layer_args, **factory)
            norm = self._layer(LayerNorm)(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.encoder = self._layer(TransformerEncoder)(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = self._layer(TransformerDecoderLayer)(*layer_args, **factory)
            norm = self._layer(LayerNorm)(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.decoder = self._layer(TransformerDecoder)(layer, num_decoder_layers, norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal: bool = False):
        policy = self._tensor_cls.policy
        sd, td = src._data, tgt._data
        if sd.ndim == 3 and sd.shape[0 if self.batch_first else 1] != td.shape[0 if self.batch_first else 1]:
            raise policy.errors.transformer_batch()
        if sd.shape[-1] != self.d_model or td.shape[-1] != self.d_model:
            raise policy.errors.transformer_features()
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                            memory_is_causal=memory_is_causal)

    @classmethod
    def generate_square_subsequent_mask(cls, sz: int, device=None, dtype=None):
        """A (sz, sz) mask of -inf above the diagonal and 0 elsewhere (True above the diagonal for bool)."""
        xp = cls._factory_xp(device)
        dt = backend.to_np_dtype(dtype) if dtype is not None else backend.default_float()
        return cls._tensor_cls._make(_causal_mask_array(xp, sz, dt, cls._tensor_cls.policy))

    def _reset_parameters(self) -> None:
        for p in self.parameters():
            if p._data.ndim > 1:
                init.xavier_uniform_(p)
