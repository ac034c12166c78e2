"""paddle.nn.MultiHeadAttention and TransformerEncoderLayer: paddle's sub-layers (`q_proj`,
`k_proj`, `v_proj`, `out_proj` Linears with `[in, out]` weights; `self_attn`, `linear1/2`,
`norm1/2`, `dropout/1/2`), batch-first inputs and masks (bool or int: True / 1 keeps a position;
float: added to the scores), over the neutral scaled-dot-product attention."""
from __future__ import annotations

from .. import _ops as P
from . import functional as F
from .layer import Layer
from .layers import Dropout, LayerNorm, Linear


def _additive_mask(mask, dtype):
    """paddle's reading of a mask: bool / int masks become (mask - 1) * 1e9; float ones are added."""
    if mask is None or mask.dtype == dtype:
        return mask
    if mask.dtype.name == "bool" or "int" in mask.dtype.name:
        return (P.cast(mask, dtype) - 1.0) * 1e9
    return P.cast(mask, dtype)


def _no_cache(cache, layer: str) -> None:
    if cache is not None:
        raise NotImplementedError(f"flowgrad's paddle {layer} does not support cache")


class MultiHeadAttention(Layer):
    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, kdim=None, vdim=None,
                 need_weights: bool = False, weight_attr=None, bias_attr=None) -> None:
        super().__init__()
        if not embed_dim > 0:
            raise AssertionError(f"Expected embed_dim to be greater than 0, but received {embed_dim}")
        if not num_heads > 0:
            raise AssertionError(f"Expected num_heads to be greater than 0, but received {num_heads}")
        self.embed_dim, self.num_heads, self.dropout, self.need_weights = embed_dim, num_heads, dropout, need_weights
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _heads(self, x):
        return P.transpose(P.reshape(x, [0, 0, self.num_heads, self.head_dim]), [0, 2, 1, 3])

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        _no_cache(cache, "MultiHeadAttention")
        key = query if key is None else key
        value = query if value is None else value
        q, k, v = self._heads(self.q_proj(query)), self._heads(self.k_proj(key)), self._heads(self.v_proj(value))
        scores = P.matmul(q * self.head_dim ** -0.5, k, transpose_y=True)
        mask = _additive_mask(attn_mask, scores.dtype)
        if mask is not None:
            scores = scores + mask
        weights = F.softmax(scores)
        if self.dropout:
            weights = F.dropout(weights, self.dropout, training=self.training, mode="upscale_in_train")
        out = P.transpose(P.matmul(weights, v), [0, 2, 1, 3])
        out = self.out_proj(P.reshape(out, [0, 0, self.embed_dim]))
        return (out, weights) if self.need_weights else out


class TransformerEncoderLayer(Layer):
    """Self-attention then a feed-forward block, each with a residual and LayerNorm (before the
    block with `normalize_before=True`, else after)."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float = 0.1,
                 activation: str = "relu", attn_dropout=None, act_dropout=None, normalize_before: bool = False,
                 weight_attr=None, bias_attr=None, layer_norm_eps: float = 1e-05) -> None:
        super().__init__()
        for value, text in ((d_model, "d_model"), (nhead, "nhead")):
            if not value > 0:
                raise AssertionError(f"Expected {text} to be greater than 0, but received {value}")
        if not dim_feedforward > 0:
            raise AssertionError(f"Expected dim_feedforward to be greater than 0, but received {dim_feedforward}")
        if isinstance(weight_attr, (list, tuple)) or isinstance(bias_attr, (list, tuple)):
            raise NotImplementedError("flowgrad's paddle TransformerEncoderLayer takes one weight_attr / bias_attr "
                                      "for all its sub-layers")
        self.normalize_before = normalize_before
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=dropout if attn_dropout is None else attn_dropout,
                                            weight_attr=weight_attr, bias_attr=bias_attr)
        self.linear1 = Linear(d_model, dim_feedforward, weight_attr, bias_attr=bias_attr)
        self.dropout = Dropout(dropout if act_dropout is None else act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attr, bias_attr=bias_attr)
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.activation = getattr(F, activation)

    def forward(self, src, src_mask=None, cache=None):
        _no_cache(cache, "TransformerEncoderLayer")
        src_mask = _additive_mask(src_mask, src.dtype)
        residual = src
        if self.normalize_before:
            src = self.norm1(src)
        src = residual + self.dropout1(self.self_attn(src, src, src, src_mask))
        if not self.normalize_before:
            src = self.norm1(src)
        residual = src
        if self.normalize_before:
            src = self.norm2(src)
        src = residual + self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(src)))))
        if not self.normalize_before:
            src = self.norm2(src)
        return src


__all__ = ["MultiHeadAttention", "TransformerEncoderLayer"]
