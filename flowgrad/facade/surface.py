"""More of the torch family's tensor surface, composed from the op table: sorting (with
`<facade>.return_types`), addcmul / addcdiv / lerp, roll, unique, nan_to_num, meshgrid, tensordot,
hyperbolic and inverse trigonometric functions, fmod / frac, and tensor properties (stride,
nbytes, ...).

`bind(namespace)` adds each function to a facade's namespace and each method to its Tensor,
skipping names that already exist (a core implementation always wins).
"""
from __future__ import annotations

import functools
import math
import sys
import types
import warnings
from collections import namedtuple

import numpy as np

from .. import backend
from .. import ops
from ..tensor import Tensor


# ------------------------------------------------------------------------------ return types

def _return_type(module: str, name: str, fields=("values", "indices")):
    base = namedtuple(name, fields)

    def __repr__(self):
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
        return f"{module}.return_types.{name}(\n{body})"

    return type(name, (base,), {"__slots__": (), "__repr__": __repr__, "__str__": __repr__,
                                "__module__": f"{module}.return_types"})


def _return_types(module: str) -> dict:
    return {n: _return_type(module, n) for n in ("sort", "topk", "kthvalue", "cummax", "cummin", "max", "min",
                                                  "median")}


def _named_result(name: str, fn):
    """`max` / `min` / `median` over a dim: the op's (values, indices) pair as the facade's named tuple."""

    @functools.wraps(fn)
    def wrapper(input, *args, **kwargs):
        out = fn(input, *args, **kwargs)
        return type(input)._return_types[name](*out) if isinstance(out, tuple) else out
    return wrapper


def sort(input, dim=-1, descending=False, stable=False):
    return type(input)._return_types["sort"](*ops.sort(input, dim, descending))


def argsort(input, dim=-1, descending=False, stable=False):
    return sort(input, dim, descending, stable).indices


def _no_complex_kernel(input, kernel: str) -> None:
    """PyTorch's refusal of a complex input by its `kernel` (a composition here)."""
    d = input._data
    if d.dtype.kind == "c":
        raise input.policy.errors.not_implemented_for(op=kernel, dtype_scalar=d.dtype)


def topk(input, k, dim=-1, largest=True, sorted=True):
    d = input._data
    if d.dtype.kind == "c":
        raise input.policy.errors.sort_complex(op="topk")
    n = d.shape[ops.normalize_dim(dim, d.ndim)] if d.ndim else 1
    if not 0 <= k <= n:
        raise input.policy.errors.topk_range()
    values, idx = sort(input, dim, descending=largest)
    if input._data.ndim == 0:
        return type(input)._return_types["topk"](values, idx)
    return type(input)._return_types["topk"](ops.narrow(values, dim, 0, k), ops.narrow(idx, dim, 0, k))


def kthvalue(input, k, dim=-1, keepdim=False):
    _no_complex_kernel(input, "kthvalue_cpu")
    d = input._data
    axis = ops.normalize_dim(dim, d.ndim)
    if not 1 <= k <= (d.shape[axis] if d.ndim else 1):
        raise input.policy.errors.kthvalue_range(dim=axis)
    values, idx = sort(input, dim)
    if d.ndim == 0:
        return type(input)._return_types["kthvalue"](values, idx)
    v, i = ops.narrow(values, dim, k - 1, 1), ops.narrow(idx, dim, k - 1, 1)
    if not keepdim:
        v, i = ops.squeeze(v, dim), ops.squeeze(i, dim)
    return type(input)._return_types["kthvalue"](v, i)


def msort(input):
    return sort(input, 0).values


# ------------------------------------------------------------------------- pointwise compositions

def addcmul(input, tensor1, tensor2, *, value=1):
    return input + value * tensor1 * tensor2 if value != 1 else input + tensor1 * tensor2


def addcdiv(input, tensor1, tensor2, *, value=1):
    return input + value * (tensor1 / tensor2) if value != 1 else input + tensor1 / tensor2


def lerp(input, end, weight):
    return input + weight * (end - input)


def clamp_min(input, min):
    return ops.clamp(input, min=min)


def clamp_max(input, max):
    return ops.clamp(input, max=max)


def sinh(input):
    return (ops.exp(input) - ops.exp(-input)) * 0.5


def cosh(input):
    return (ops.exp(input) + ops.exp(-input)) * 0.5


def atan(input):
    d = input._data
    return ops.atan2(input, input._new(backend.namespace(d).ones_like(d)))


def asin(input):
    return ops.atan2(input, ops.sqrt(1 - input * input))


def acos(input):
    return ops.atan2(ops.sqrt(1 - input * input), input)


def hypot(input, other):
    _no_complex_kernel(input, "hypot_cpu")
    return ops.sqrt(input * input + other * other)


def logit(input, eps=None):
    _no_complex_kernel(input, "logit_cpu")
    x = input if eps is None else ops.clamp(input, eps, 1 - eps)
    return ops.log(x / (1 - x))


def deg2rad(input):
    if input._data.dtype.kind == "c":
        raise input.policy.errors.angle_unit_complex(op="deg2rad")
    return input * (math.pi / 180)


def rad2deg(input):
    if input._data.dtype.kind == "c":
        raise input.policy.errors.angle_unit_complex(op="rad2deg")
    return input * (180 / math.pi)


def fmod(input, other):
    _no_complex_kernel(input, "fmod_cpu")
    d = input._data
    if d.dtype.kind == "f":
        return input - ops.trunc(input / other) * other
    o = other._data if isinstance(other, Tensor) else other
    if (o.dtype.kind in "iub" and bool((o == 0).any())) if hasattr(o, "dtype") else (type(o) is int and o == 0):
        raise input.policy.errors.zero_division()
    xp = backend.namespace(d)
    with backend.quiet(xp):
        return input._new(xp.fmod(d, o))


def frac(input):
    return input - ops.trunc(input)


def signbit(input):
    if input._data.dtype.kind == "c":
        raise input.policy.errors.signbit_complex()
    return input._new(backend.namespace(input._data).signbit(input._data))


def square_(input):
    return ops.indexing.inplace(input, lambda x: x * x)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    d = input._data
    xp = backend.namespace(d)
    if d.dtype.kind == "c":
        raise input.policy.errors.complex_unsupported(op="nan_to_num")
    if d.dtype.kind != "f":
        return input.clone()
    fill = xp.nan_to_num(d, nan=nan, posinf=posinf, neginf=neginf)
    return ops.where(input._new(xp.isfinite(d)), input, input._new(fill))


def nansum(input, dim=None, keepdim=False):
    if input._data.dtype.kind == "c":
        raise input.policy.errors.nansum_complex()
    return ops.sum(nan_to_num(input, 0.0, math.inf, -math.inf) if input._data.dtype.kind == "f" else input,
                   dim, keepdim)


def float_power(input, exponent):
    return ops.pow(input.double(), exponent.double() if isinstance(exponent, Tensor) else float(exponent))


def heaviside(input, values):
    d = input._data
    if d.dtype.kind == "c":
        raise input.policy.errors.heaviside_complex()
    return input._new(backend.namespace(d).heaviside(d, values._data).astype(d.dtype))


def _bitwise(name):
    def fn(input, other=None):
        d = input._data
        xp = backend.namespace(d)
        if d.dtype.kind in "fc":
            raise input.policy.errors.not_implemented_for(op=f"{name}_cpu", dtype_scalar=d.dtype)
        if other is None:
            return input._new(getattr(xp, name)(d))
        o = other._data if isinstance(other, Tensor) else other
        return input._new(getattr(xp, name)(d, o))
    fn.__name__ = name
    return fn


bitwise_and, bitwise_or, bitwise_xor = _bitwise("bitwise_and"), _bitwise("bitwise_or"), _bitwise("bitwise_xor")
bitwise_not = _bitwise("bitwise_not")


# --------------------------------------------------------------------------------- shape helpers

def roll(input, shifts, dims=None):
    if dims is None:
        flat = ops.reshape(input, (-1,))
        return ops.reshape(roll(flat, shifts, 0), input._data.shape)
    if isinstance(shifts, int):
        shifts = (shifts,)
    if isinstance(dims, int):
        dims = (dims,)
    out = input
    for s, d in zip(shifts, dims):
        n = input._data.shape[d]
        if n:
            idx = (np.arange(n) - s) % n
            out = ops.index_select(out, d, input._new(idx.astype(np.int64)))
    return out


def diff(input, n=1, dim=-1, prepend=None, append=None):
    x = input
    if prepend is not None:
        x = ops.cat([prepend, x], dim)
    if append is not None:
        x = ops.cat([x, append], dim)
    for _ in range(n):
        size = x._data.shape[dim]
        x = ops.narrow(x, dim, 1, size - 1) - ops.narrow(x, dim, 0, size - 1)
    return x


def moveaxis(input, source, destination):
    return ops.movedim(input, source, destination)


def meshgrid(*tensors, indexing=None):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    policy = (tensors[0] if tensors else Tensor).policy
    if indexing is None:
        warning = policy.errors.meshgrid_indexing_default()
        warnings.warn(str(warning), type(warning), stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise policy.errors.meshgrid_indexing(indexing=indexing)
    ts = list(tensors)
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(t._data.size for t in ts)
    out = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = -1
        out.append(ops.expand(ops.reshape(t, tuple(view)), shape))
    if swap:
        out[0], out[1] = out[1], out[0]
    return tuple(out)


def tensordot(a, b, dims=2):
    if isinstance(dims, int):
        da = list(range(a._data.ndim - dims, a._data.ndim))
        db = list(range(dims))
    else:
        da, db = ([dims[0]] if isinstance(dims[0], int) else list(dims[0]),
                  [dims[1]] if isinstance(dims[1], int) else list(dims[1]))
    da = [d % a._data.ndim for d in da]
    db = [d % b._data.ndim for d in db]
    fa = [d for d in range(a._data.ndim) if d not in da]
    fb = [d for d in range(b._data.ndim) if d not in db]
    k = int(np.prod([a._data.shape[d] for d in da]))
    a2 = ops.reshape(ops.permute(a, fa + da), (-1, k))
    b2 = ops.reshape(ops.permute(b, db + fb), (k, -1))
    return ops.reshape(ops.matmul(a2, b2), tuple(a._data.shape[d] for d in fa) + tuple(b._data.shape[d] for d in fb))


def diag(x, diagonal=0):
    """The diagonal of a matrix, or the matrix with vector `x` on its main diagonal."""
    d = x._data
    if d.ndim not in (1, 2):
        raise x.policy.errors.diag_dims(ndim=d.ndim)
    if d.ndim == 1:
        if diagonal:
            raise x.policy.errors.diag_vector_offset()
        return x._new(backend.namespace(d).eye(d.shape[0], dtype=d.dtype)) * x
    k = np.arange(max(0, min(d.shape[0], d.shape[1] - diagonal) if diagonal >= 0 else
                      min(d.shape[0] + diagonal, d.shape[1])))
    rows, cols = (k, k + diagonal) if diagonal >= 0 else (k - diagonal, k)
    return ops.getitem(x, (rows, cols))


def cdist(a, b, p=2.0):
    diff = ops.unsqueeze(a, -2) - ops.unsqueeze(b, -3)
    return ops.norm(diff, p, dim=-1)


def trace(input):
    if input._data.ndim != 2:
        raise input.policy.errors.trace_dims(ndim=input._data.ndim)
    return ops.sum(diag(input))


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    _no_complex_kernel(input, "unique")
    d = input._host()
    res = np.unique(d if dim is None else d, return_inverse=return_inverse, return_counts=return_counts,
                    axis=dim)
    if not (return_inverse or return_counts):
        return input._new(backend.to_device(res, input.device) if input.device.type != "cpu" else res)
    res = list(res)
    out = [input._new(res[0])]
    pos = 1
    if return_inverse:
        out.append(input._new(res[pos].reshape(d.shape if dim is None else -1).astype(np.int64)))
        pos += 1
    if return_counts:
        out.append(input._new(res[pos].astype(np.int64)))
    return tuple(out)


def bincount(input, weights=None, minlength=0):
    d = input._host()
    w = None if weights is None else weights._host()
    res = np.bincount(d, w, minlength)
    return input._new(res if weights is not None else res.astype(np.int64))


# ------------------------------------------------------------------------------- properties

def is_contiguous(self, memory_format=None) -> bool:
    return bool(self._data.flags.c_contiguous) if hasattr(self._data, "flags") else True


def stride(self, dim=None):
    st = tuple(s // self._data.itemsize for s in self._data.strides)
    return st if dim is None else st[ops.normalize_dim(dim, self._data.ndim)]


def data_ptr(self) -> int:
    d = self._data
    return int(d.__array_interface__["data"][0]) if hasattr(d, "__array_interface__") else int(d.data.ptr)


def _nbytes(self) -> int:
    return int(self._data.nbytes)


def _itemsize(self) -> int:
    return int(self._data.itemsize)


def _is_complex(self) -> bool:
    return self._data.dtype.kind == "c"


def _returns_self(self, *args, **kwargs):
    return self


def _H(self):
    if self._data.ndim > 2:
        raise self.policy.errors.tensor_H_ndim(ndim=self._data.ndim)
    return ops.conj(ops.t(self) if self._data.ndim == 2 else self)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    return bool(np.allclose(np.asarray(input._host()), np.asarray(other._host()), rtol, atol, equal_nan))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return input._new(backend.namespace(input._data).isclose(input._data, other._data, rtol, atol, equal_nan))


def equal(input, other) -> bool:
    return input._data.shape == other._data.shape and bool((input._data == other._data).all())


def _diag_method(self, diagonal=0):
    return diag(self, diagonal)


def _addmm(self, mat1, mat2, *, beta=1, alpha=1):
    return ops.addmm(self, mat1, mat2, beta=beta, alpha=alpha)


def _inplace(fn):
    def method(self, *args, **kwargs):
        return ops.indexing.inplace(self, fn, *args, **kwargs)
    method.__name__ = fn.__name__ + "_"
    return method


FUNCTIONS = {
    "sort": sort, "argsort": argsort, "topk": topk, "kthvalue": kthvalue, "msort": msort, "addcmul": addcmul,
    "addcdiv": addcdiv, "lerp": lerp, "clamp_min": clamp_min, "clamp_max": clamp_max, "sinh": sinh, "cosh": cosh,
    "atan": atan, "arctan": atan, "asin": asin, "arcsin": asin, "acos": acos, "arccos": acos, "hypot": hypot,
    "logit": logit, "deg2rad": deg2rad, "rad2deg": rad2deg, "fmod": fmod, "frac": frac, "sgn": ops.sgn,
    "signbit": signbit, "nan_to_num": nan_to_num, "nansum": nansum, "float_power": float_power,
    "heaviside": heaviside, "roll": roll, "diff": diff, "moveaxis": moveaxis, "meshgrid": meshgrid,
    "tensordot": tensordot, "trace": trace, "unique": unique,
    "bincount": bincount, "diag": diag, "cdist": cdist, "allclose": allclose, "isclose": isclose, "equal": equal,
    "bitwise_and": bitwise_and,
    "bitwise_or": bitwise_or, "bitwise_xor": bitwise_xor, "bitwise_not": bitwise_not,
}

_METHOD_FUNCS = ("sort", "argsort", "topk", "kthvalue", "msort", "addcmul", "addcdiv", "lerp", "clamp_min",
                 "clamp_max", "sinh", "cosh", "atan", "arctan", "asin", "arcsin", "acos", "arccos", "hypot", "logit",
                 "deg2rad", "rad2deg", "fmod", "frac", "sgn", "signbit", "nan_to_num", "nansum", "float_power",
                 "heaviside", "roll", "diff", "moveaxis", "trace", "unique", "bincount", "bitwise_and", "bitwise_or",
                 "bitwise_xor", "bitwise_not")

METHODS = {name: FUNCTIONS[name] for name in _METHOD_FUNCS}
METHODS.update({
    "addcmul_": _inplace(addcmul), "addcdiv_": _inplace(addcdiv), "lerp_": _inplace(lerp), "square_": square_,
    "nan_to_num_": _inplace(nan_to_num), "absolute": ops.abs, "absolute_": _inplace(ops.abs),
    "is_contiguous": is_contiguous, "stride": stride, "data_ptr": data_ptr, "nbytes": property(_nbytes),
    "itemsize": property(_itemsize), "is_complex": _is_complex, "pin_memory": _returns_self,
    "share_memory_": _returns_self, "H": property(_H), "allclose": allclose, "isclose": isclose,
    "equal": equal, "diag": _diag_method, "addmm": _addmm,
})


# torch.sort / argsort / topk return torch.return_types named tuples: these replace simpler versions
OVERRIDE = ("sort", "argsort", "topk")
# ops whose (values, indices) result becomes a named tuple
NAMED_RESULTS = ("max", "min", "median")


def bind(namespace: dict, Tensor: type, module: str) -> None:
    """Add the functions to a facade's namespace and the methods to its Tensor where missing;
    `<module>.return_types` holds the named tuples sort / topk / ... return."""
    for name, fn in FUNCTIONS.items():
        if name not in namespace or name in OVERRIDE:
            namespace[name] = fn
    for name, fn in METHODS.items():
        if not hasattr(Tensor, name) or name in OVERRIDE:
            setattr(Tensor, name, fn)
    for name in NAMED_RESULTS:
        namespace[name] = _named_result(name, namespace[name])
        setattr(Tensor, name, _named_result(name, getattr(Tensor, name)))
    Tensor._return_types = _return_types(module)
    if "return_types" not in namespace:   # a real submodule, so `import torch.return_types` works
        mod = types.ModuleType(f"{namespace['__name__']}.return_types",
                               "The named tuples that functions returning (values, indices) give.")
        mod.__dict__.update(Tensor._return_types)
        namespace["return_types"] = sys.modules[mod.__name__] = mod
