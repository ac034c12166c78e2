"""More of paddle's ops under its names and arguments: atan, lerp, kron, diag, meshgrid, roll,
gather_nd, scatter, unique. Differentiable ones are compositions of the op table (and of the
facade kit's torch-family compositions)."""
from __future__ import annotations

import numpy as np

from .. import backend
from .. import ops as _ops
from ..facade import surface as _kit
from ..ops import indexing as I


def atan(x, name=None):
    return _ops.atan(x)


def lerp(x, y, weight, name=None):
    """x + weight * (y - x)."""
    return _kit.lerp(x, y, weight)


def kron(x, y, name=None):
    return _ops.kron(x, y, strided=False)


def diag(x, offset: int = 0, padding_value=0, name=None):
    """A vector's square matrix with the vector on diagonal `offset` (elsewhere `padding_value`), or a
    matrix's diagonal `offset`."""
    if x.ndim != 1:
        return _kit.diag(x, offset)
    m = x.shape[0]
    n = m + abs(offset)
    d = x._data
    rows = np.zeros((n, m), dtype=d.dtype)
    cols = np.zeros((m, n), dtype=d.dtype)
    rows[np.arange(m) + max(0, -offset), np.arange(m)] = 1
    cols[np.arange(m), np.arange(m) + max(0, offset)] = 1
    place = (lambda a: x._new(backend.to_device(a, x.device)) if x.device.type != "cpu" else x._new(a))
    out = _ops.matmul(_ops.matmul(place(rows), _ops.unsqueeze(x, 1) * place(np.eye(m, dtype=d.dtype))), place(cols))
    if padding_value:
        out = out + place((padding_value * (1 - rows @ cols)).astype(d.dtype))
    return out


def meshgrid(*args, name=None):
    """Grids of every 1-D input, indexed 'ij'."""
    return list(_kit.meshgrid(*args, indexing="ij"))


def roll(x, shifts, axis=None, name=None):
    return _kit.roll(x, shifts, axis)


def gather_nd(x, index, name=None):
    """x[index[..., 0], ..., index[..., k-1]]: out has shape index.shape[:-1] + x.shape[k:]."""
    idx = index._host()
    return _ops.getitem(x, tuple(idx[..., i] for i in range(idx.shape[-1])))


def scatter(x, index, updates, overwrite: bool = True, name=None):
    """x with rows `index` replaced by `updates`' rows (the last wins for a repeated index), or with
    `overwrite=False` set to the sum of every update they receive."""
    idx = index._host().reshape(-1)
    full = np.broadcast_to(idx.reshape((-1,) + (1,) * (x.ndim - 1)), tuple(updates.shape)).astype(np.int64)
    where = updates._new(full)
    if overwrite:
        return I.scatter(x, 0, where, updates)
    cleared = I.scatter(x, 0, where, value=0.0)
    return I.scatter_add(cleared, 0, where, updates)


def unique(x, return_index: bool = False, return_inverse: bool = False, return_counts: bool = False, axis=None,
           dtype="int64", name=None):
    """The sorted unique values (of the flattened x, or slices along `axis`), then as asked the
    first index of each, the inverse indices and the counts, as `dtype`."""
    d = x._host()
    res = np.unique(d if axis is not None else d.reshape(-1), return_index=True, return_inverse=True,
                    return_counts=True, axis=axis)
    kind = np.dtype(backend.to_np_dtype(dtype))
    out = [x._new(res[0])]
    for wanted, arr in zip((return_index, return_inverse, return_counts), res[1:]):
        if wanted:
            out.append(x._new(np.asarray(arr).reshape(-1).astype(kind)))
    return out[0] if len(out) == 1 else tuple(out)


METHODS = {"atan": atan, "lerp": lerp, "kron": kron, "diag": diag, "roll": roll, "gather_nd": gather_nd,
           "scatter": scatter, "unique": unique}
