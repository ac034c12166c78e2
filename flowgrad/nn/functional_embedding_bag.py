"""F.embedding_bag: the looked-up rows of each bag summed, averaged or maxed, as compositions (one
row gather, then a bag-assignment matrix product for 'sum' / 'mean' or a padded gather and a max
for 'max'). Entries equal to `padding_idx` take no part; an empty bag gives zeros."""
from __future__ import annotations

import numpy as np

from .. import backend, ops

__all__ = ["embedding_bag"]


def _renorm(weight, rows, max_norm, norm_type):
    """Rescale, in place and outside autograd, the looked-up rows whose norm exceeds max_norm."""
    d = weight._data
    xp = backend.namespace(d)
    rows = xp.unique(rows)
    norms = xp.sum(xp.abs(d[rows]) ** norm_type, axis=1) ** (1.0 / norm_type)
    scale = xp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    d[rows] *= scale[:, None].astype(d.dtype)
    weight._bump()


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type: float = 2, scale_grad_by_freq: bool = False,
                  mode: str = "mean", sparse: bool = False, per_sample_weights=None, include_last_offset: bool = False,
                  padding_idx=None):
    policy = weight.policy
    if per_sample_weights is not None and input._data.shape != per_sample_weights._data.shape:
        raise policy.errors.embedding_bag_weights_shape(weights_shape=per_sample_weights._data.shape,
                           input_shape=input._data.shape)
    if weight._data.ndim != 2:
        raise policy.errors.embedding_bag_weight_dim(ndim=weight._data.ndim)
    idx = input._data
    psw = per_sample_weights
    if idx.ndim == 2:
        if offsets is not None:
            raise policy.errors.embedding_bag_2d_offsets(type_name=str(type(offsets)))
        starts = np.arange(0, idx.size, idx.shape[1]) if idx.shape[1] else np.zeros(idx.shape[0], dtype=np.int64)
        idx = idx.reshape(-1)
        include_last_offset = False
        if psw is not None:
            psw = ops.reshape(psw, (-1,))
    elif idx.ndim == 1:
        if offsets is None:
            raise policy.errors.embedding_bag_offsets_none()
        if offsets._data.ndim != 1:
            raise policy.errors.embedding_bag_offsets_dim()
        starts = backend.to_device(offsets._data, backend.CPU).astype(np.int64)
    else:
        raise policy.errors.embedding_bag_input_dim(ndim=idx.ndim)
    if mode == "max":
        if scale_grad_by_freq:
            raise policy.errors.embedding_bag_max_freq()
        if sparse:
            raise policy.errors.embedding_bag_max_sparse()
    elif mode not in ("sum", "mean"):
        raise policy.errors.embedding_bag_mode()
    if max_norm is not None:
        _renorm(weight, idx, max_norm, norm_type)
    if psw is not None and mode != "sum":
        raise policy.errors.embedding_bag_weights_mode(mode=mode)
    if scale_grad_by_freq or sparse:
        raise policy.errors.embedding_bag_not_built(what="scale_grad_by_freq" if scale_grad_by_freq else "sparse")
    for name, t in (("indices", input), ("offsets", offsets)):
        if t is not None and t._data.dtype.kind not in "iu":
            raise policy.errors.embedding_bag_index_dtype(arg=1 if name == "indices" else 2, name=name,
                               type_name=policy.type_name(t._data.dtype))
    wd = weight._data.dtype
    if wd.kind == "c":
        raise policy.errors.embedding_bag_weight_complex(dtype_scalar=wd)
    if wd.kind not in "fV":
        raise policy.errors.embedding_bag_weight_dtype(type_name=policy.type_name(wd))
    n = weight._data.shape[0]
    if padding_idx is not None:
        if not -n <= padding_idx < n:
            raise policy.errors.embedding_bag_padding_idx(low=-n, high=n - 1, got=padding_idx)
        padding_idx %= n
    total = idx.shape[0]
    if starts.size and starts[0] != 0:
        raise policy.errors.embedding_bag_first_offset(got=int(starts[0]))
    if starts.size and starts[-1] > total:
        raise policy.errors.embedding_bag_last_offset(length=total, got=int(starts[-1]))
    host_idx = backend.to_device(idx, backend.CPU).astype(np.int64)
    if include_last_offset:      # the extra offset closes no bag: the last bag runs to the end, as in ATen
        starts = starts[:-1]
    ends = np.append(starts[1:], total)
    keep = np.ones(total, dtype=bool) if padding_idx is None else host_idx != padding_idx
    bag_of = np.searchsorted(ends, np.arange(total), side="right")
    dim = weight._data.shape[1]
    xp = backend.namespace(weight._data)
    if mode in ("sum", "mean"):
        m = np.zeros((len(starts), total), dtype=weight._data.dtype)
        valid = keep & (bag_of < len(starts))
        m[bag_of[valid], np.arange(total)[valid]] = 1
        if mode == "mean":
            counts = m.sum(axis=1, keepdims=True)
            m = m / np.maximum(counts, 1)
        rows = ops.index_select(weight, 0, input._new(xp.asarray(host_idx)))
        if psw is not None:
            rows = rows * ops.unsqueeze(psw, 1)
        return ops.matmul(input._new(xp.asarray(m)), rows)
    # max: each bag's kept entries, padded to the longest by repeating its first; empty bags give zeros
    members = [np.flatnonzero(keep[s:e]) + s for s, e in zip(starts, ends)]
    width = max((len(b) for b in members), default=0)
    if width == 0:     # every bag empty: zeros, still a function of the weight
        none = ops.index_select(weight, 0, input._new(xp.zeros(0, dtype=np.int64)))
        return ops.matmul(input._new(xp.zeros((len(starts), 0), dtype=weight._data.dtype)), none)
    table = np.array([list(b) + [b[0] if len(b) else 0] * (width - len(b)) for b in members], dtype=np.int64)
    rows = ops.index_select(weight, 0, input._new(xp.asarray(host_idx[table.reshape(-1)])))
    values, _ = ops.max(ops.reshape(rows, (len(starts), width, dim)), 1)
    empty = np.array([len(b) == 0 for b in members])
    if empty.any():
        values = ops.where(input._new(xp.asarray(empty[:, None])), values * 0, values)
    return values
