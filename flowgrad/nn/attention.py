"""Multi-head attention: `multi_head_attention_forward` (PyTorch's functional form) and the
`MultiheadAttention` layer.

Parameters, their names, shapes and initialisation are PyTorch's (`in_proj_weight` or, when kdim /
vdim differ from embed_dim, `q_proj_weight` / `k_proj_weight` / `v_proj_weight`; `in_proj_bias`;
`out_proj`; `bias_k` / `bias_v`), so a real torch state dict loads as is. The forward follows
PyTorch's slow path step by step, composed from the op table (linear, matmul, softmax,
scaled_dot_product_attention, ...): with `need_weights` the weights come from an explicit softmax,
without them the heads go through `scaled_dot_product_attention`. PyTorch's inference fast path
computes the same values and has no counterpart here.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from .. import backend, ops
from . import functional as F
from . import init
from .layers import Linear
from .module import Module


# PyTorch's torch.backends.mha switch of its fused inference paths: of what they do differently, only
# the nested-tensor encoder's zeros at padded positions show (nn/transformer.py follows the switch).
FASTPATH = {"enabled": True}


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear under the name PyTorch gives MultiheadAttention's output projection."""


def _canonical_mask(mask, mask_name: str, other_dtype, other_name: str, target_dtype, check_other: bool = True):
    """A bool mask (True: not allowed to attend) as an additive float mask in `target_dtype`; a
    float mask unchanged; anything else refused. Warns when the two masks' dtypes differ."""
    if mask is None:
        return None
    d = mask._data
    if d.dtype != np.bool_ and d.dtype.kind not in "fV":
        raise mask.policy.errors.mha_mask_type(name=mask_name)
    if check_other and other_dtype is not None and d.dtype != other_dtype:
        warnings.warn(mask.policy.errors.mha_mask_mismatch(name=mask_name, other=other_name), stacklevel=2)
    if d.dtype == np.bool_:
        xp = backend.namespace(d)
        return mask._new(xp.where(d, -xp.inf, 0.0).astype(target_dtype))
    return mask


def _dtype(t):
    return None if t is None else t._data.dtype


def _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads: int) -> bool:
    """PyTorch's checks of the inputs' ranks; True for a batched (3-D) query."""
    policy = query.policy
    qn, kn, vn = query._data.ndim, key._data.ndim, value._data.ndim
    if qn not in (2, 3):
        raise policy.errors.mha_query_dims(ndim=qn)
    batched = qn == 3
    rank = "batched (3-D)" if batched else "unbatched (2-D)"
    if kn != qn or vn != qn:
        raise policy.errors.mha_kv_dims(rank=rank, want=qn, key=kn, value=vn)
    if key_padding_mask is not None and key_padding_mask._data.ndim != qn - 1:
        raise policy.errors.mha_key_padding_mask_dims(rank=rank, want=qn - 1, ndim=key_padding_mask._data.ndim)
    if attn_mask is not None:
        md = attn_mask._data
        if md.ndim not in (2, 3):
            raise policy.errors.mha_attn_mask_dims(rank=rank, ndim=md.ndim)
        if not batched and md.ndim == 3:
            want = (num_heads, query._data.shape[0], key._data.shape[0])
            if md.shape != want:
                raise policy.errors.mha_unbatched_attn_mask_shape(want=want, got_shape=md.shape)
    return batched


def _in_projection_packed(q, k, v, w, b):
    """q, k, v projected by the packed (3E, E) weight: one linear for self-attention, two for
    encoder-decoder attention (key is value), three otherwise, as PyTorch splits them."""
    e = q._data.shape[-1]
    if k is v:
        if q is k:
            return ops.chunk(F.linear(q, w, b), 3, -1)
        w_q, w_kv = ops.split(w, [e, 2 * e])
        b_q, b_kv = (None, None) if b is None else ops.split(b, [e, 2 * e])
        return (F.linear(q, w_q, b_q), *ops.chunk(F.linear(k, w_kv, b_kv), 2, -1))
    ws = ops.chunk(w, 3)
    bs = (None,) * 3 if b is None else ops.chunk(b, 3)
    return tuple(F.linear(x, wx, bx) for x, wx, bx in zip((q, k, v), ws, bs))


def _in_projection(q, k, v, w_q, w_k, w_v, b_q, b_k, b_v):
    """q, k, v projected by separate weights, their shapes checked as PyTorch checks them."""
    eq, ek, ev = q._data.shape[-1], k._data.shape[-1], v._data.shape[-1]
    policy = q.policy
    for which, w, want in (("query", w_q, (eq, eq)), ("key", w_k, (eq, ek)), ("value", w_v, (eq, ev))):
        if w._data.shape != want:
            raise policy.errors.mha_proj_weight_shape(which=which, want=want, got_shape=w._data.shape)
    for which, b in (("query", b_q), ("key", b_k), ("value", b_v)):
        if b is not None and b._data.shape != (eq,):
            raise policy.errors.mha_proj_bias_shape(which=which, want=(eq,), got_shape=b._data.shape)
    return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


def _zeros(like, shape: tuple):
    d = like._data
    return like._new(backend.namespace(d).zeros(shape, dtype=d.dtype))


def multi_head_attention_forward(query, key, value, embed_dim_to_check: int, num_heads: int, in_proj_weight,
                                 in_proj_bias, bias_k, bias_v, add_zero_attn: bool, dropout_p: float,
                                 out_proj_weight, out_proj_bias, training: bool = True, key_padding_mask=None,
                                 need_weights: bool = True, attn_mask=None, use_separate_proj_weight: bool = False,
                                 q_proj_weight=None, k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights: bool = True, is_causal: bool = False):
    """Multi-head attention of (L, N, E) queries over (S, N, E) keys and values (or unbatched
    (L, E) / (S, E)): returns the (L, N, E) output and, with `need_weights`, the attention weights
    (N, L, S), or (N, num_heads, L, S) without `average_attn_weights`."""
    policy = query.policy
    batched = _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = ops.unsqueeze(query, 1), ops.unsqueeze(key, 1), ops.unsqueeze(value, 1)
        if key_padding_mask is not None:
            key_padding_mask = ops.unsqueeze(key_padding_mask, 0)
    tgt_len, bsz, embed_dim = query._data.shape
    src_len = key._data.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _dtype(attn_mask), "attn_mask",
                                       query._data.dtype)
    if is_causal and attn_mask is None:
        raise policy.errors.mha_causal_needs_mask()
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None   # scaled_dot_product_attention applies the causal mask itself
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query._data.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False   # the merged mask is no longer causal
    if embed_dim != embed_dim_to_check:
        raise policy.errors.mha_embed_dim(want=embed_dim_to_check, got=embed_dim)
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise policy.errors.mha_embed_dim_heads(embed_dim=embed_dim, num_heads=num_heads)
    if use_separate_proj_weight:
        if key._data.shape[:2] != value._data.shape[:2]:
            raise policy.errors.mha_key_value_dims(key_shape=key._data.shape[:2], value_shape=value._data.shape[:2])
    elif key._data.shape != value._data.shape:
        raise policy.errors.mha_key_value_shape(key_shape=key._data.shape, value_shape=value._data.shape)

    # in-projection
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise policy.errors.mha_no_in_proj_weight()
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise policy.errors.mha_no_proj_weight(name=name)
        biases = (None,) * 3 if in_proj_bias is None else ops.chunk(in_proj_bias, 3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, *biases)

    # the attention mask as (1 or N * num_heads, L, S)
    if attn_mask is not None:
        shape = attn_mask._data.shape
        if attn_mask._data.ndim == 2:
            if shape != (tgt_len, src_len):
                raise policy.errors.mha_attn_mask_shape(ndim=2, got_shape=shape, want=(tgt_len, src_len))
            attn_mask = ops.unsqueeze(attn_mask, 0)
        elif shape != (bsz * num_heads, tgt_len, src_len):
            raise policy.errors.mha_attn_mask_shape(ndim=3, got_shape=shape,
                               want=(bsz * num_heads, tgt_len, src_len))

    # a learned key and value appended to the sequence
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise policy.errors.mha_bias_static(which="key")
        if static_v is not None:
            raise policy.errors.mha_bias_static(which="value")
        k = ops.cat([k, ops.expand(bias_k, 1, bsz, embed_dim)])
        v = ops.cat([v, ops.expand(bias_v, 1, bsz, embed_dim)])
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))
    elif bias_k is not None or bias_v is not None:
        raise policy.errors.mha_bias_pair(given="bias_k" if bias_k is not None else "bias_v",
                           missing="bias_v" if bias_k is not None else "bias_k")

    # heads into the batch: (N * num_heads, length, head_dim)
    q = ops.transpose(ops.reshape(q, (tgt_len, bsz * num_heads, head_dim)), 0, 1)
    k = _heads(k, static_k, "static_k", bsz * num_heads, head_dim)
    v = _heads(v, static_v, "static_v", bsz * num_heads, head_dim)

    if add_zero_attn:
        zeros = (bsz * num_heads, 1, head_dim)
        k = ops.cat([k, _zeros(k, zeros)], 1)
        v = ops.cat([v, _zeros(v, zeros)], 1)
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))
    src_len = k._data.shape[1]

    # the key padding mask merged into the attention mask
    if key_padding_mask is not None:
        for dim, want in ((0, bsz), (1, src_len)):
            got = key_padding_mask._data.shape[dim]
            if got != want:
                raise policy.errors.mha_key_padding_mask_shape(dim=dim, want=want, got=got)
        key_padding_mask = ops.expand(ops.reshape(key_padding_mask, (bsz, 1, 1, src_len)), -1, num_heads, -1, -1)
        key_padding_mask = ops.reshape(key_padding_mask, (bsz * num_heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0

    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(head_dim))
        weights = ops.matmul(q_scaled, ops.transpose(k, -2, -1))
        if attn_mask is not None:
            weights = attn_mask + weights
        weights = ops.softmax(weights, -1)
        if dropout_p > 0.0:
            weights = F.dropout(weights, p=dropout_p)
        out = ops.reshape(ops.transpose(ops.matmul(weights, v), 0, 1), (tgt_len * bsz, embed_dim))
        out = ops.reshape(F.linear(out, out_proj_weight, out_proj_bias), (tgt_len, bsz, -1))
        weights = ops.reshape(weights, (bsz, num_heads, tgt_len, src_len))
        if average_attn_weights:
            weights = ops.mean(weights, 1)
        if not batched:
            out, weights = ops.squeeze(out, 1), ops.squeeze(weights, 0)
        return out, weights

    if attn_mask is not None:
        if attn_mask._data.shape[0] == 1 and attn_mask._data.ndim == 3:
            attn_mask = ops.unsqueeze(attn_mask, 0)
        else:
            attn_mask = ops.reshape(attn_mask, (bsz, num_heads, -1, src_len))
    q = ops.reshape(q, (bsz, num_heads, tgt_len, head_dim))
    k = ops.reshape(k, (bsz, num_heads, src_len, head_dim))
    v = ops.reshape(v, (bsz, num_heads, src_len, head_dim))
    out = F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = ops.reshape(ops.permute(out, (2, 0, 1, 3)), (bsz * tgt_len, embed_dim))
    out = ops.reshape(F.linear(out, out_proj_weight, out_proj_bias), (tgt_len, bsz, -1))
    return (out if batched else ops.squeeze(out, 1)), None


def _heads(x, static, name: str, batch_heads: int, head_dim: int):
    """(length, N, E) -> (N * num_heads, length, head_dim), or the given static tensor, checked."""
    if static is None:
        return ops.transpose(ops.reshape(x, (x._data.shape[0], batch_heads, head_dim)), 0, 1)
    for dim, want in ((0, batch_heads), (2, head_dim)):
        got = static._data.shape[dim]
        if got != want:
            raise static.policy.errors.mha_static_size(name=name, dim=dim, want=want, got=got)
    return static


class MultiheadAttention(Module):
    """Attention over `num_heads` heads of embed_dim // num_heads features each."""

    __constants__ = ["batch_first"]

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim=None, vdim=None,
                 batch_first: bool = False, device=None, dtype=None) -> None:
        policy = self._tensor_cls.policy
        if embed_dim <= 0 or num_heads <= 0:
            raise policy.errors.mha_sizes_positive(embed_dim=embed_dim, num_heads=num_heads)
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise policy.errors.mha_embed_dim_divisible()
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = self._new_parameter((embed_dim, embed_dim), dtype, device)
            self.k_proj_weight = self._new_parameter((embed_dim, self.kdim), dtype, device)
            self.v_proj_weight = self._new_parameter((embed_dim, self.vdim), dtype, device)
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = self._new_parameter((3 * embed_dim, embed_dim), dtype, device)
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = self._new_parameter((3 * embed_dim,), dtype, device)
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = self._layer(NonDynamicallyQuantizableLinear)(embed_dim, embed_dim, bias=bias, device=device,
                                                                     dtype=dtype)
        if add_bias_kv:
            self.bias_k = self._new_parameter((1, 1, embed_dim), dtype, device)
            self.bias_v = self._new_parameter((1, 1, embed_dim), dtype, device)
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def __setstate__(self, state):
        state.setdefault("_qkv_same_embed_dim", True)   # checkpoints of PyTorch 1.1
        super().__setstate__(state)

    def forward(self, query, key, value, key_padding_mask=None, need_weights: bool = True, attn_mask=None,
                average_attn_weights: bool = True, is_causal: bool = False):
        batched = query._data.ndim == 3
        key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _dtype(attn_mask), "attn_mask",
                                           query._data.dtype)
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query._data.dtype, check_other=False)
        if self.batch_first and batched:   # keep `is` between query, key and value: it picks the projection
            if key is value:
                if query is key:
                    query = key = value = ops.transpose(query, 1, 0)
                else:
                    query, key = (ops.transpose(x, 1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (ops.transpose(x, 1, 0) for x in (query, key, value))
        separate = {} if self._qkv_same_embed_dim else dict(
            use_separate_proj_weight=True, q_proj_weight=self.q_proj_weight, k_proj_weight=self.k_proj_weight,
            v_proj_weight=self.v_proj_weight)
        out, weights = multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias, self.bias_k,
            self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias,
            training=self.training, key_padding_mask=key_padding_mask, need_weights=need_weights,
            attn_mask=attn_mask, average_attn_weights=average_attn_weights, is_causal=is_causal, **separate)
        if self.batch_first and batched:
            out = ops.transpose(out, 1, 0)
        return out, weights

    def merge_masks(self, attn_mask, key_padding_mask, query):
        """The masks of a batch_first self-attention as one, with PyTorch's mask type: the key padding
        mask alone is type 1; with an attn_mask, (N, num_heads, L, L) and type 2; neither: (None, None)."""
        merged, mask_type = key_padding_mask, (None if key_padding_mask is None else 1)
        if attn_mask is not None:
            batch, seq_len, _ = query._data.shape
            mask_type = 2
            if attn_mask._data.ndim == 3:
                merged = ops.reshape(attn_mask, (batch, -1, seq_len, seq_len))
            else:
                merged = ops.expand(ops.reshape(attn_mask, (1, 1, seq_len, seq_len)), batch, self.num_heads, -1, -1)
            if key_padding_mask is not None:
                padding = ops.reshape(key_padding_mask, (batch, 1, 1, seq_len))
                merged = merged + ops.expand(padding, -1, self.num_heads, -1, -1)
        return merged, mask_type
