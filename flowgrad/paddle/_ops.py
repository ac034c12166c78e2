"""Paddle's op names and argument names (`axis`, `keepdim`, `perm`, `transpose_x`, ...) over
flowgrad's op table; each function is also bound as a paddle.Tensor method where paddle has one.
Arithmetic with a Python scalar records paddle's `scale` op, as paddle does."""
from __future__ import annotations

import builtins

import numpy as np

from .. import backend
from .. import ops as _ops
from ..ops import elementwise as E
from ..ops import indexing as I
from ..ops import linalg as L
from ..ops import reduction as R
from ..ops import shape as S
from ..tensor import Tensor as _CoreTensor


def _axes(axis):
    """A paddle axis argument (None, int, list/tuple, 0-D tensor) as flowgrad's dim."""
    if axis is None:
        return None
    if isinstance(axis, _CoreTensor):
        axis = axis.tolist()
    if isinstance(axis, (list, tuple)):
        return tuple(int(a) for a in axis) if axis else None
    return int(axis)


def _shape(shape) -> tuple:
    if isinstance(shape, _CoreTensor):
        return tuple(int(s) for s in shape.tolist())
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s.item()) if isinstance(s, _CoreTensor) else int(s) for s in shape)


def _tensor_like(x, like):
    return x if isinstance(x, _CoreTensor) else _ops.as_tensor_like(x, like)


# ------------------------------------------------------------------------------ arithmetic

def _scalar_for_scale(x, v) -> bool:
    """Paddle records `x op scalar` as its `scale` op when the result keeps x's dtype."""
    if type(v) is float:
        return x._data.dtype.kind == "f"
    return type(v) is int and x._data.dtype.kind in "fiu"


def add(x, y, name=None):
    if _scalar_for_scale(x, y):
        return E.scale(x, 1.0, y)
    return E.add(x, y)


def subtract(x, y, name=None):
    if _scalar_for_scale(x, y):
        return E.scale(x, 1.0, -y)
    return E.sub(x, y)


def multiply(x, y, name=None):
    if _scalar_for_scale(x, y):
        return E.scale(x, y, 0.0)
    return E.mul(x, y)


def divide(x, y, name=None):
    return E.div(x, y)


def _radd(self, other):
    return add(self, other)


def _rsub(self, other):
    if _scalar_for_scale(self, other):
        return E.scale(self, -1.0, other)
    return E.sub(other, self)


def _rmul(self, other):
    return multiply(self, other)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    if isinstance(scale, _CoreTensor):
        scale = scale.item()
    return E.scale(x, scale, bias, bias_after_scale)


def pow(x, y, name=None):
    return E.pow(x, y)


def square(x, name=None):
    return E.pow(x, 2)


def floor_divide(x, y, name=None):
    return E.floor_divide(x, y)


def remainder(x, y, name=None):
    return E.remainder(x, y)


mod = floor_mod = remainder


def _two_tensors(fn, x, y) -> None:
    for position, (argument, value) in enumerate((("x", x), ("y", y))):
        if not isinstance(value, _CoreTensor):
            raise ValueError(f"(InvalidArgument) {fn}(): argument '{argument}' (position {position}) must be Tensor, "
                             f"but got {type(value).__name__} (at /paddle/paddle/fluid/pybind/eager_utils.cc:1526)")


def maximum(x, y, name=None):
    _two_tensors("maximum", x, y)
    return E.maximum(x, y)


def minimum(x, y, name=None):
    _two_tensors("minimum", x, y)
    return E.minimum(x, y)


def atan2(x, y, name=None):
    return E.atan2(x, y)


def add_n(inputs, name=None):
    if isinstance(inputs, _CoreTensor):
        return inputs
    out = inputs[0]
    for t in inputs[1:]:
        out = E.add(out, t)
    return out


def _unary(fn):
    def op(x, name=None):
        return fn(x)
    op.__name__ = fn.__name__
    return op


exp, log, log2, log10, log1p, expm1 = (_unary(f) for f in (E.exp, E.log, E.log2, E.log10, E.log1p, E.expm1))
sqrt, rsqrt, abs, sin, cos, tan, tanh = (_unary(f) for f in (E.sqrt, E.rsqrt, E.abs, E.sin, E.cos, E.tan, E.tanh))
sigmoid, erf, sign, floor, ceil, trunc = (_unary(f) for f in (E.sigmoid, E.erf, E.sign, E.floor, E.ceil, E.trunc))
reciprocal, neg = _unary(E.reciprocal), _unary(E.neg)
isnan, isinf, isfinite, logical_not = (_unary(f) for f in (E.isnan, E.isinf, E.isfinite, E.logical_not))


def round(x, decimals=0, name=None):
    if decimals:
        return E.round(x * 10.0 ** decimals) / 10.0 ** decimals
    return E.round(x)


def clip(x, min=None, max=None, name=None):
    if isinstance(min, _CoreTensor):
        min = min.item()
    if isinstance(max, _CoreTensor):
        max = max.item()
    if min is None and max is None:
        return S.clone(x)
    return E.clamp(x, min, max)


def cast(x, dtype):
    """A new tensor, even to x's own dtype (`Tensor.astype` returns x then)."""
    return E.cast(x, dtype, copy=True)


def where(condition, x=None, y=None, name=None):
    if x is None and y is None:
        return nonzero(condition, as_tuple=True)
    if not isinstance(x, _CoreTensor) and isinstance(y, _CoreTensor):
        x = _tensor_like(x, y)
    if not isinstance(y, _CoreTensor) and isinstance(x, _CoreTensor):
        y = _tensor_like(y, x)
    return E.where(condition, x, y)


def _compare(fn):
    def op(x, y, name=None):
        return fn(x, y)
    return op


equal, not_equal = _compare(E.eq), _compare(E.ne)
less_than, less_equal, greater_than, greater_equal = _compare(E.lt), _compare(E.le), _compare(E.gt), _compare(E.ge)
logical_and, logical_or, logical_xor = _compare(E.logical_and), _compare(E.logical_or), _compare(E.logical_xor)


def equal_all(x, y, name=None):
    same = x._data.shape == y._data.shape and builtins.bool((x._data == y._data).all())
    return x._new(backend.namespace(x._data).asarray(same))


def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    xp = backend.namespace(x._data)
    return x._new(xp.asarray(builtins.bool(xp.allclose(x._data, y._data, rtol, atol, equal_nan))))


def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    return x._new(backend.namespace(x._data).isclose(x._data, y._data, rtol, atol, equal_nan))


# ------------------------------------------------------------------------------ reductions

def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    return R.sum(x, _axes(axis), keepdim, dtype)


def mean(x, axis=None, keepdim=False, name=None):
    return R.mean(x, _axes(axis), keepdim)


def max(x, axis=None, keepdim=False, name=None):
    axis = _axes(axis)
    return R.max(x) if axis is None and not keepdim else R.amax(x, axis if axis is not None else (), keepdim)


def min(x, axis=None, keepdim=False, name=None):
    axis = _axes(axis)
    return R.min(x) if axis is None and not keepdim else R.amin(x, axis if axis is not None else (), keepdim)


def amax(x, axis=None, keepdim=False, name=None):
    axis = _axes(axis)
    return R.amax(x, axis if axis is not None else (), keepdim)


def amin(x, axis=None, keepdim=False, name=None):
    axis = _axes(axis)
    return R.amin(x, axis if axis is not None else (), keepdim)


def prod(x, axis=None, keepdim=False, dtype=None, name=None):
    axis = _axes(axis)
    if isinstance(axis, tuple):
        out = x
        for a in builtins.sorted((a % x.ndim for a in axis), reverse=True):
            out = R.prod(out, a, keepdim, dtype)
        return out
    return R.prod(x, axis, keepdim, dtype)


def argmax(x, axis=None, keepdim=False, dtype="int64", name=None):
    return E.cast(R.argmax(x, _axes(axis), keepdim), dtype)


def argmin(x, axis=None, keepdim=False, dtype="int64", name=None):
    return E.cast(R.argmin(x, _axes(axis), keepdim), dtype)


def all(x, axis=None, keepdim=False, name=None):
    return R.all(x, _axes(axis), keepdim)


def any(x, axis=None, keepdim=False, name=None):
    return R.any(x, _axes(axis), keepdim)


def std(x, axis=None, unbiased=True, keepdim=False, name=None):
    return R.std(x, _axes(axis), unbiased, keepdim)


def var(x, axis=None, unbiased=True, keepdim=False, name=None):
    return R.var(x, _axes(axis), unbiased, keepdim)


def logsumexp(x, axis=None, keepdim=False, name=None):
    return R.logsumexp(x, _axes(axis), keepdim)


def cumsum(x, axis=None, dtype=None, name=None):
    if axis is None:
        return R.cumsum(S.flatten(x), 0, dtype)
    return R.cumsum(x, int(axis), dtype)


def norm(x, p="fro", axis=None, keepdim=False, name=None):
    return R.norm(x, p, _axes(axis), keepdim)


def count_nonzero(x, axis=None, keepdim=False, name=None):
    return R.count_nonzero(x, _axes(axis))


def numel(x, name=None):
    return x._new(backend.namespace(x._data).asarray(x._data.size, dtype=np.int64))


def shape(input):
    return input._new(backend.namespace(input._data).asarray(input._data.shape, dtype=np.int32))


# ------------------------------------------------------------------------------ shapes

def reshape(x, shape, name=None):
    dims = list(_shape(shape))
    for i, s in enumerate(dims):
        if s == 0:  # paddle: 0 copies the input's size at that position
            dims[i] = x._data.shape[i]
    return S.reshape(x, tuple(dims))


def transpose(x, perm, name=None):
    return S.permute(x, *perm)


def t(input, name=None):
    return S.t(input)


def unsqueeze(x, axis, name=None):
    axis = _axes(axis)
    if isinstance(axis, tuple):
        out = x
        for a in axis:
            out = S.unsqueeze(out, a if a >= 0 else a + out.ndim + 1)
        return out
    return S.unsqueeze(x, axis)


def squeeze(x, axis=None, name=None):
    axis = _axes(axis)
    if isinstance(axis, tuple):
        dims = builtins.sorted({a % builtins.max(x.ndim, 1) for a in axis}, reverse=True)
        out = x
        for a in dims:
            out = S.squeeze(out, a)
        return out
    return S.squeeze(x, axis)


def flatten(x, start_axis=0, stop_axis=-1, name=None):
    return S.flatten(x, start_axis, stop_axis)


def concat(x, axis=0, name=None):
    return S.cat(list(x), int(axis))


def stack(x, axis=0, name=None):
    return S.stack(list(x), int(axis))


def split(x, num_or_sections, axis=0, name=None):
    axis = int(axis)
    n = x._data.shape[axis]
    if isinstance(num_or_sections, int):
        if n % num_or_sections:
            raise ValueError(f"(InvalidArgument) The input's size along the split dimension must be evenly divisible "
                             f"by Attr(num_or_sections). But received Attr(num_or_sections) = {num_or_sections}, "
                             f"input(X)'s shape = {list(x._data.shape)}, Attr(dim) = {axis}.")
        return list(S.split(x, [n // num_or_sections] * num_or_sections, axis))
    sections = [int(s) for s in num_or_sections]
    if -1 in sections:
        sections[sections.index(-1)] = n - builtins.sum(s for s in sections if s != -1)
    return list(S.split(x, sections, axis))


def chunk(x, chunks, axis=0, name=None):
    return split(x, chunks, axis)


def unbind(input, axis=0):
    return list(S.unbind(input, axis))


def expand(x, shape, name=None):
    return S.expand(x, *_shape(shape))


def expand_as(x, y, name=None):
    return S.expand(x, *y._data.shape)


def broadcast_to(x, shape, name=None):
    return S.expand(x, *_shape(shape))


def tile(x, repeat_times, name=None):
    return S.tile(x, *_shape(repeat_times))


def flip(x, axis, name=None):
    axis = _axes(axis)
    return S.flip(x, axis if isinstance(axis, tuple) else (axis,))


def tril(x, diagonal=0, name=None):
    return S.tril(x, diagonal)


def triu(x, diagonal=0, name=None):
    return S.triu(x, diagonal)


def clone(x, name=None):
    return S.clone(x)


def assign(x, output=None):
    src = x if isinstance(x, _CoreTensor) else None
    if src is None:
        from ._creation import to_tensor
        src = to_tensor(x)
    if output is None:
        return S.clone(src)
    I.inplace(output, I.copy_from, src)
    return output


def _getitem(x, key):
    """x[key], with paddle's error for an integer index out of range."""
    parts = key if isinstance(key, tuple) else (key,)
    if builtins.all(isinstance(k, (int, slice)) and not isinstance(k, bool) for k in parts):
        for axis, k in enumerate(parts):
            if isinstance(k, int) and axis < x.ndim and not -x.shape[axis] <= k < x.shape[axis]:
                n = x.shape[axis]
                raise IndexError(f"(OutOfRange) The starting index {k} of slice is out of bounds in tensor {axis}-th "
                                 f"axis, it should be in the range of [{-n}, {n}). (at "
                                 "/paddle/paddle/fluid/pybind/slice_utils.h:405)\n")
    return I.getitem(x, key)


def gather(x, index, axis=None, name=None):
    return I.index_select(x, 0 if axis is None else int(axis), index.reshape([-1]) if index.ndim > 1 else index)


def index_select(x, index, axis=0, name=None):
    return I.index_select(x, int(axis), index)


def take_along_axis(arr, indices, axis, broadcast=True):
    return I.gather(arr, int(axis), indices)


def masked_fill(x, mask, value, name=None):
    return I.masked_fill(x, mask, value)


def masked_select(x, mask, name=None):
    return I.masked_select(x, mask)


def nonzero(x, as_tuple=False):
    return I.nonzero(x, as_tuple)


def sort(x, axis=-1, descending=False, stable=False, name=None):
    return R.sort(x, axis, descending).values


def argsort(x, axis=-1, descending=False, stable=False, name=None):
    return R.sort(x, axis, descending).indices


def topk(x, k, axis=None, largest=True, sorted=True, name=None):
    axis = -1 if axis is None else int(axis)
    values, idx = R.sort(x, axis, largest)
    return S.narrow(values, axis, 0, int(k)), S.narrow(idx, axis, 0, int(k))


# ------------------------------------------------------------------------------ linear algebra

def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    if transpose_x and x.ndim >= 2:
        x = S.transpose(x, -1, -2)
    if transpose_y and y.ndim >= 2:
        y = S.transpose(y, -1, -2)
    return L.matmul(x, y)


def mm(input, mat2, name=None):
    return L.matmul(input, mat2)


def bmm(x, y, name=None):
    return L.bmm(x, y)


def dot(x, y, name=None):
    if x.ndim == 2:
        return R.sum(E.mul(x, y), -1)
    return L.dot(x, y)


def mv(x, vec, name=None):
    return L.mv(x, vec)


def outer(x, y, name=None):
    return L.outer(x, y)


def einsum(equation, *operands):
    return _ops.einsum(equation, *operands)


def inplace_method(fn):
    """`fn` as a paddle in-place method (`x.scale_(2.0)`), through the core in-place mechanism."""
    def method(self, *args, **kwargs):
        return I.inplace(self, fn, *args, **kwargs)
    method.__name__ = fn.__name__ + "_"
    return method


# paddle.Tensor methods that differ from (or are missing in) the core's torch-style ones
METHODS = {
    "__getitem__": _getitem, "__add__": add, "__radd__": _radd, "__sub__": subtract, "__rsub__": _rsub, "__mul__": multiply,
    "__rmul__": _rmul, "add": add, "subtract": subtract, "multiply": multiply, "divide": divide, "pow": pow,
    "scale": scale, "cast": cast, "square": square, "floor_divide": floor_divide, "remainder": remainder, "mod": remainder,
    "maximum": maximum, "minimum": minimum, "clip": clip, "where": lambda self, x=None, y=None: where(self, x, y),
    "equal": equal, "not_equal": not_equal, "less_than": less_than, "less_equal": less_equal,
    "greater_than": greater_than, "greater_equal": greater_equal, "equal_all": equal_all, "allclose": allclose,
    "isclose": isclose, "logical_and": logical_and, "logical_or": logical_or, "logical_xor": logical_xor,
    "sum": sum, "mean": mean, "max": max, "min": min, "amax": amax, "amin": amin, "prod": prod, "argmax": argmax,
    "argmin": argmin, "all": all, "any": any, "std": std, "var": var, "logsumexp": logsumexp, "cumsum": cumsum,
    "norm": norm, "reshape": reshape, "transpose": transpose, "t": t, "unsqueeze": unsqueeze, "squeeze": squeeze,
    "flatten": flatten, "split": split, "chunk": chunk, "unbind": unbind, "expand": expand, "expand_as": expand_as,
    "broadcast_to": broadcast_to, "tile": tile, "flip": flip, "tril": tril, "triu": triu, "gather": gather,
    "index_select": index_select, "take_along_axis": take_along_axis, "masked_fill": masked_fill,
    "masked_select": masked_select, "nonzero": nonzero, "sort": sort, "argsort": argsort, "topk": topk,
    "matmul": matmul, "mm": mm, "bmm": bmm, "dot": dot, "mv": mv, "outer": outer, "round": round,
    "count_nonzero": count_nonzero, "dim": lambda self: self._data.ndim,
    "scale_": inplace_method(scale),
    "uniform_": lambda self, min=-1.0, max=1.0, seed=0, name=None: _uniform_(self, min, max),
}


def _uniform_(x, low, high):
    from .. import creation
    return I.inplace(x, lambda t: t._new(creation.uniform_like(t._data, low, high)))
