"""paddle.nn.MultiHeadAttention, TransformerEncoderLayer and TransformerEncoder: paddle's sub-layers (`q_proj`,
`k_proj`, `v_proj`, `out_proj` Linears with `[in, out]` weights; `self_attn`, `linear1/2`,
`norm1/2`, `dropout/1/2`), batch-first inputs and masks (bool or int: True / 1 keeps a position;
float: added to the scores), over the neutral scaled-dot-product attention. A `Cache` (from
`gen_cache(key)`) grows by each call's keys and values (incremental decoding); a `StaticCache`
(`gen_cache(key, value, type=StaticCache)`) holds fixed ones. A TransformerEncoder stacks its
layer and `num_layers - 1` new layers of the same configuration (paddle builds them afresh from the
layer's `_config`, so they start from their own initial weights)."""
from __future__ import annotations

import collections

from .. import _creation
from .. import _ops as P
from . import functional as F
from .layer import Layer
from .layers import Dropout, LayerList, LayerNorm, Linear


def _additive_mask(mask, dtype):
    """paddle's reading of a mask: bool / int masks become (mask - 1) * 1e9; float ones are added."""
    if mask is None or mask.dtype == dtype:
        return mask
    if mask.dtype.name == "bool" or "int" in mask.dtype.name:
        return (P.cast(mask, dtype) - 1.0) * 1e9
    return P.cast(mask, dtype)


class MultiHeadAttention(Layer):
    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

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

    def compute_kv(self, key, value) -> tuple:
        """The keys and values projected and split into heads: `[batch, heads, length, head_dim]`."""
        return self._heads(self.k_proj(key)), self._heads(self.v_proj(value))

    def gen_cache(self, key, value=None, type=Cache):
        """A StaticCache of `key` / `value` projected; a Cache of `key` and `value` as given, or (no
        `value`) an empty one of length 0 for `key`'s batch."""
        if type == MultiHeadAttention.StaticCache:
            return self.StaticCache(*self.compute_kv(key, value))
        if value is None:
            empty = _creation.full([key.shape[0], self.num_heads, 0, self.head_dim], 0, key.dtype)
            return self.Cache(empty, empty)
        return self.Cache(key, value)

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        key = query if key is None else key
        value = query if value is None else value
        q = self._heads(self.q_proj(query))
        k, v = (cache.k, cache.v) if isinstance(cache, self.StaticCache) else self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            k, v = P.concat([cache.k, k], axis=2), P.concat([cache.v, v], axis=2)
            cache = self.Cache(k, v)
        scores = P.matmul(q * self.head_dim ** -0.5, k, transpose_y=True)
        mask = _additive_mask(attn_mask, scores.dtype)
        if mask is not None:
            scores = scores + mask
        weights = F.softmax(scores)
        if self.dropout:
            weights = F.dropout(weights, self.dropout, training=self.training, mode="upscale_in_train")
        out = P.transpose(P.matmul(weights, v), [0, 2, 1, 3])
        out = self.out_proj(P.reshape(out, [0, 0, self.embed_dim]))
        outs = [out] + ([weights] if self.need_weights else []) + ([cache] if cache is not None else [])
        return out if len(outs) == 1 else tuple(outs)


class TransformerEncoderLayer(Layer):
    """Self-attention then a feed-forward block, each with a residual and LayerNorm (before the
    block with `normalize_before=True`, else after)."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float = 0.1,
                 activation: str = "relu", attn_dropout=None, act_dropout=None, normalize_before: bool = False,
                 weight_attr=None, bias_attr=None, layer_norm_eps: float = 1e-05) -> None:
        self._config = {"d_model": d_model, "nhead": nhead, "dim_feedforward": dim_feedforward, "dropout": dropout,
                        "activation": activation, "attn_dropout": attn_dropout, "act_dropout": act_dropout,
                        "normalize_before": normalize_before, "weight_attr": weight_attr, "bias_attr": bias_attr,
                        "layer_norm_eps": layer_norm_eps}
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
        src_mask = _additive_mask(src_mask, src.dtype)
        residual = src
        if self.normalize_before:
            src = self.norm1(src)
        if cache is None:
            attended = self.self_attn(src, src, src, src_mask)
        else:
            attended, cache = self.self_attn(src, src, src, src_mask, cache)
        src = residual + self.dropout1(attended)
        if not self.normalize_before:
            src = self.norm1(src)
        residual = src
        if self.normalize_before:
            src = self.norm2(src)
        src = residual + self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(src)))))
        if not self.normalize_before:
            src = self.norm2(src)
        return src if cache is None else (src, cache)

    def gen_cache(self, src):
        """An empty incremental Cache of the self-attention for `src`'s batch."""
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


class TransformerEncoder(Layer):
    """`encoder_layer` and `num_layers - 1` layers built from its configuration, then an optional norm."""

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int, norm=None) -> None:
        super().__init__()
        self.layers = LayerList([encoder_layer if i == 0 else type(encoder_layer)(**encoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src, src_mask=None, cache=None):
        src_mask = _additive_mask(src_mask, src.dtype)
        output, new_caches = src, []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, src_mask=src_mask)
            else:
                output, new_cache = layer(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src) -> list:
        """One empty incremental Cache per layer, for `src`'s batch."""
        return [layer.gen_cache(src) for layer in self.layers]


__all__ = ["MultiHeadAttention", "TransformerEncoderLayer", "TransformerEncoder"]
