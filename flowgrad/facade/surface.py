"""More of the torch family's tensor surface, composed from the op table: sorting (with
`<facade>.return_types`), addcmul / addcdiv / lerp, roll, nan_to_num, meshgrid, tensordot,
fmod / frac, and tensor properties (stride, nbytes, ...).

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
from ..nn import functional as _F
from ..ops import tie_order
from . import cuda_memory
from .argcheck import is_long, typename
from .argtypes import parser_words
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
    types_ = {n: _return_type(module, n) for n in ("sort", "topk", "kthvalue", "cummax", "cummin", "max", "min",
                                                    "median")}
    types_["histogram"] = _return_type(module, "histogram", ("hist", "bin_edges"))
    return types_


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
    k = ops.int_argument(k, input.policy, sym=True)
    d = input._data
    if d.dtype.kind == "c":
        raise input.policy.errors.sort_complex(op="topk")
    if d.dtype == np.bool_:
        raise input.policy.errors.topk_bool()
    n = d.shape[ops.normalize_dim(dim, d.ndim)] if d.ndim else 1
    if not 0 <= k <= n:
        raise input.policy.errors.topk_range()
    values, idx = sort(input, dim, descending=largest)
    if input._data.ndim == 0:
        return type(input)._return_types["topk"](values, idx)
    tied = tie_order.topk_indices(d, idx._data, k, ops.normalize_dim(dim, d.ndim), largest, sorted)
    if tied is not None:                     # PyTorch's kernel leaves another of the tied indices
        idx = input._new(tied)
        return type(input)._return_types["topk"](ops.gather(input, dim, idx), idx)
    return type(input)._return_types["topk"](ops.narrow(values, dim, 0, k), ops.narrow(idx, dim, 0, k))


def kthvalue(input, k, dim=-1, keepdim=False):
    k = ops.int_argument(k, input.policy, sym=True)
    _no_complex_kernel(input, "kthvalue_cpu")
    if input._data.dtype == np.bool_:
        raise input.policy.errors.not_implemented_for(op="kthvalue_cpu", dtype_scalar=input._data.dtype)
    d = input._data
    axis = ops.normalize_dim(dim, d.ndim)
    if not 1 <= k <= (d.shape[axis] if d.ndim else 1):
        raise input.policy.errors.kthvalue_range(dim=axis)
    values, idx = sort(input, dim)
    if d.ndim == 0:
        return type(input)._return_types["kthvalue"](values, idx)
    tied = tie_order.kthvalue_indices(d, idx._data, k, axis)
    if tied is None:
        v, i = ops.narrow(values, dim, k - 1, 1), ops.narrow(idx, dim, k - 1, 1)
    else:                                    # PyTorch's quickselect leaves another of the tied indices
        i = input._new(tied)
        v = ops.gather(input, dim, i)
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
    d = input._data.dtype
    if not isinstance(end, Tensor):
        raise input.policy.errors.argument_type_at(fn="lerp", argument="end", position=2, expected="Tensor",
                                                   type=typename(end))
    for argument, t in (("end", end), ("weight", weight)):     # (no promotion; a 0-d weight excepted)
        if isinstance(t, Tensor) and t._data.dtype != d and (argument == "end" or t._data.ndim):
            raise input.policy.errors.lerp_dtype(want_ctype=d, argument=argument, got_ctype=t._data.dtype)
    if d.kind not in "fcV":
        raise input.policy.errors.not_implemented_for(
            op="lerp_kernel_tensor" if isinstance(weight, Tensor) else "lerp_kernel_scalar", dtype_scalar=d)
    return input + weight * (end - input)


def _bound_kernel(input, bound, kernel: str) -> None:
    """clamp_min / clamp_max by a tensor run PyTorch's maximum / minimum kernel, which refuses complex."""
    if isinstance(bound, Tensor):
        for t in (input, bound):
            _no_complex_kernel(t, kernel)


def clamp_min(input, min):
    _bound_kernel(input, min, "maximum_cpu")
    return ops.clamp(input, min=min)


def clamp_max(input, max):
    _bound_kernel(input, max, "minimum_cpu")
    return ops.clamp(input, max=max)


def logit(input, eps=None):
    _no_complex_kernel(input, "logit_cpu")
    if input._data.dtype.kind not in "fV":    # (integers and bools in the default float dtype)
        input = ops.cast(input, backend.default_float())
    return ops.logit(input, eps)


def deg2rad(input):
    if input._data.dtype.kind == "c":
        raise input.policy.errors.angle_unit_complex(op="deg2rad")
    return input * (math.pi / 180)


def rad2deg(input):
    if input._data.dtype.kind == "c":
        raise input.policy.errors.angle_unit_complex(op="rad2deg")
    return input * (180 / math.pi)


def frac(input):
    if input._data.dtype.kind not in "fV":
        raise input.policy.errors.not_implemented_for(op="frac_cpu", dtype_scalar=input._data.dtype)
    return input - ops.trunc(input)


def signbit(input):
    if input._data.dtype.kind == "c":
        raise input.policy.errors.signbit_complex()
    return input._new(backend.namespace(input._data).signbit(input._data))


def square_(input):
    if input._data.dtype == np.bool_:   # (a bool squared promotes to int64, which no bool can hold)
        raise input.policy.errors.result_type_cast(result_scalar=np.dtype(np.int64), want_scalar=input._data.dtype)
    return ops.indexing.inplace(input, lambda x: x * x)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    nan = 0.0 if nan is None else nan
    d = input._data
    xp = backend.namespace(d)
    if d.dtype.kind == "c":   # (the real and imaginary parts replaced apart, not differentiable)
        if ops.recording(input):
            raise input.policy.errors.complex_autograd(op="nan_to_num")
        return input._new(xp.nan_to_num(d, nan=nan, posinf=posinf, neginf=neginf))
    if d.dtype.kind not in "fV":
        return input.clone()
    if d.dtype.kind == "V":      # NumPy leaves bfloat16 as it is: replaced in float32, bfloat16's limits
        top = float(backend.finfo(d.dtype).max)
        fill = xp.nan_to_num(d.astype(np.float32), nan=nan, posinf=top if posinf is None else posinf,
                             neginf=-top if neginf is None else neginf).astype(d.dtype)
    else:
        fill = xp.nan_to_num(d, nan=nan, posinf=posinf, neginf=neginf)
    return ops.where(input._new(xp.isfinite(d)), input, input._new(fill))


def _float_power_dtype(input, exponent):
    def wide_kind(v):
        return v._data.dtype.kind == "c" if isinstance(v, Tensor) else isinstance(v, complex)
    return np.complex128 if wide_kind(input) or wide_kind(exponent) else np.float64


def float_power(input, exponent):
    """input ** exponent in float64, or complex128 where either is complex (either may be a number)."""
    wide = _float_power_dtype(input, exponent)
    number = complex if wide is np.complex128 else float

    def widened(v):
        return ops.cast(v, wide) if isinstance(v, Tensor) else number(v)
    return ops.pow(widened(input), widened(exponent))


def float_power_(self, exponent):
    """float_power in place: only into the dtype the result has (float64, complex128)."""
    wide = np.dtype(_float_power_dtype(self, exponent))
    if self._data.dtype != wide:
        raise self.policy.errors.float_power_inplace(self_scalar=self._data.dtype, want_scalar=wide)
    return ops.indexing.inplace(self, float_power, exponent)


def _hardshrink(self, lambd=0.5):
    return _F.hardshrink(self, lambd)


def heaviside(input, values):
    d, v = input._data, values._data
    if d.dtype.kind == "c":
        raise input.policy.errors.heaviside_complex()
    if d.dtype != v.dtype:
        raise input.policy.errors.heaviside_dtypes()
    _check_broadcast(input, values)
    return input._new(backend.namespace(d).heaviside(d, v).astype(d.dtype))


def _check_broadcast(a, b) -> None:
    """The facade's error where two tensors' shapes do not broadcast."""
    err = ops.broadcast_error(a._data.shape, b._data.shape, a.policy)
    if err is not None:
        raise err


def _bitwise(name):
    def fn(input, other=None):   # (other=None: bitwise_not)
        if not isinstance(input, Tensor) and isinstance(other, Tensor):   # (a number first: they commute)
            input, other = other, input
        d = input._data
        xp = backend.namespace(d)
        if isinstance(other, Tensor):
            _check_broadcast(input, other)
        elif other is not None and not isinstance(other, (int, float, complex, np.number, np.bool_)):
            raise parser_words(input.policy.errors.argument_type_at(
                fn=name, argument="other", position=2, expected="Tensor", type=typename(other)), "other")
        for t in (input, other):
            if isinstance(t, Tensor) and t._data.dtype.kind in "fcV":
                raise input.policy.errors.not_implemented_for(op=f"{name}_cpu", dtype_scalar=t._data.dtype)
        if isinstance(other, (float, complex)):      # (the result would be of the number's kind)
            raise input.policy.errors.not_implemented_for(
                op=f"{name}_cpu", dtype_scalar=backend.default_complex() if isinstance(other, complex) else
                backend.default_float())
        if other is None:
            return input._new(getattr(xp, name)(d))
        o = other._data if isinstance(other, Tensor) else other
        return input._new(getattr(xp, name)(d, o))
    fn.__name__ = name
    return fn


bitwise_and, bitwise_or, bitwise_xor = _bitwise("bitwise_and"), _bitwise("bitwise_or"), _bitwise("bitwise_xor")


def _shift(name: str, ufunc: str, kernel: str):
    """A bit shift: NumPy's, whose shifts past the width give PyTorch's 0 (left) and sign (right)."""
    def fn(input, other):
        if not isinstance(input, Tensor):
            input = other._new(backend.namespace(other._data).asarray(input))
        if isinstance(other, Tensor):
            _check_broadcast(input, other)
        for t in (input, other):
            kind = t._data.dtype.kind if isinstance(t, Tensor) else "c" if isinstance(t, complex) else \
                "f" if isinstance(t, float) else "i"
            if kind in "fcV":
                dt = t._data.dtype if isinstance(t, Tensor) else backend.default_complex() if kind == "c" else \
                    backend.default_float()
                raise input.policy.errors.not_implemented_for(op=kernel, dtype_scalar=dt)
        o = other._data if isinstance(other, Tensor) else other
        return input._new(getattr(backend.namespace(input._data), ufunc)(input._data, o))
    fn.__name__ = fn.__qualname__ = name
    return fn


bitwise_left_shift = _shift("bitwise_left_shift", "left_shift", "lshift_cpu")
bitwise_right_shift = _shift("bitwise_right_shift", "right_shift", "rshift_cpu")


def inner(input, other):
    """The products of input's and other's last dims summed (a product with a 0-d tensor)."""
    a, b = input._data, other._data
    if not a.ndim or not b.ndim:
        return ops.mul(input, other)
    if a.dtype != b.dtype:
        raise input.policy.errors.inner_dtypes()
    if a.shape[-1] != b.shape[-1]:
        raise input.policy.errors.inner_sizes(a=list(a.shape), b=list(b.shape))
    return tensordot(input, other, ([-1], [-1]))


def vdot(input, other):
    """The dot product of two vectors, the first conjugated."""
    return ops.dot(ops.conj(input) if input._data.dtype.kind == "c" else input, other)


def masked_scatter(input, mask, source):
    """input (broadcast with mask) with the positions where mask holds filled, in order, from source's
    elements."""
    policy = input.policy
    if mask._data.dtype != np.bool_:
        raise policy.errors.masked_scatter_mask(dtype_scalar=mask._data.dtype)
    if source._data.dtype != input._data.dtype:
        raise policy.errors.masked_scatter_dtypes(self_scalar=input._data.dtype, source_scalar=source._data.dtype)
    _check_broadcast(input, mask)
    shape = np.broadcast_shapes(input._data.shape, mask._data.shape)
    xp = backend.namespace(mask._data)
    m = xp.broadcast_to(mask._data, shape)
    count = int(m.sum())
    if source._data.size < count:
        raise policy.errors.masked_scatter_source()
    values = ops.narrow(ops.reshape(source, (-1,)), 0, 0, count)
    return ops.indexing.index_put(ops.expand(input, shape) if input._data.shape != shape else input,
                                  mask._new(m), values)
_bitwise_not = _bitwise("bitwise_not")


def bitwise_not(input):
    return _bitwise_not(input)


def _binary_bitwise(fn):
    def op(input, other):
        return fn(input, other)
    op.__name__ = op.__qualname__ = fn.__name__
    return op


bitwise_and, bitwise_or, bitwise_xor = (_binary_bitwise(f) for f in (bitwise_and, bitwise_or, bitwise_xor))


# --------------------------------------------------------------------------------- shape helpers

def roll(input, shifts, dims=None):
    if dims is None:
        flat = ops.reshape(input, (-1,))
        return ops.reshape(roll(flat, shifts, 0), input._data.shape)
    shifts = ops.shape.parse_shape((shifts,), input.policy)
    dims = ops.shape.parse_shape((dims,), input.policy)
    out = input
    for s, d in zip(shifts, dims):
        n = input._data.shape[d]
        if n:
            idx = (np.arange(n) - s) % n
            out = ops.index_select(out, d, input._new(idx.astype(np.int64)))
    return out


def diff(input, n=1, dim=-1, prepend=None, append=None):
    d = input._data
    policy = input.policy
    if d.ndim == 0:
        raise policy.errors.diff_0d()
    n = ops.int_argument(n, policy)
    if n < 0:
        raise policy.errors.diff_order(n=n)
    dim = ops.normalize_dim(dim, d.ndim)
    for other in (prepend, append):
        if other is not None:
            o = other._data
            if o.ndim != d.ndim:
                raise policy.errors.diff_other_ndim()
            for i, (a, b) in enumerate(zip(d.shape, o.shape)):
                if i != dim and a != b:
                    raise policy.errors.diff_other_shape(dim=i, size=a, other=b)
    x = input
    if prepend is not None:
        x = ops.cat([prepend, x], dim)
    if append is not None:
        x = ops.cat([x, append], dim)
    for _ in range(n):
        size = x._data.shape[dim]
        if size == 0:
            break
        later, earlier = ops.narrow(x, dim, 1, size - 1), ops.narrow(x, dim, 0, size - 1)
        x = ops.logical_xor(later, earlier) if x._data.dtype.kind == "b" else later - earlier
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
    if not tensors:
        raise policy.errors.meshgrid_empty()
    if any(t._data.dtype != tensors[0]._data.dtype for t in tensors):
        raise policy.errors.meshgrid_dtype()
    for t in tensors:
        if t._data.ndim > 1:
            raise policy.errors.meshgrid_dims(tensor=t)
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
    policy = a.policy
    na, nb = a._data.ndim, b._data.ndim
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise policy.errors.tensordot_negative(dims=dims)
        if dims > na or dims > nb:
            raise policy.errors.tensordot_too_many(dims=dims)
        da, db = list(range(na - dims, na)), list(range(dims))
        shown = list(range(-dims, 0))
    else:
        da, db = ([dims[0]] if isinstance(dims[0], int) else list(dims[0]),
                  [dims[1]] if isinstance(dims[1], int) else list(dims[1]))
        if len(da) != len(db):
            raise policy.errors.tensordot_lists()
        shown = da
    for i, j, k in zip(da, db, shown):
        sa, sb = a._data.shape[ops.normalize_dim(i, na)], b._data.shape[ops.normalize_dim(j, nb)]
        if sa != sb:
            raise policy.errors.tensordot_sizes(a=sa, a_dim=k, b=sb, b_dim=j)
    da = [ops.normalize_dim(d, na) for d in da]
    db = [ops.normalize_dim(d, nb) for d in db]
    fa = [d for d in range(na) if d not in da]
    fb = [d for d in range(nb) if d not in db]
    k = int(np.prod([a._data.shape[d] for d in da]))
    a2 = ops.reshape(ops.permute(a, fa + da), (-1, k))
    b2 = ops.reshape(ops.permute(b, db + fb), (k, -1))
    return ops.reshape(ops.matmul(a2, b2), tuple(a._data.shape[d] for d in fa) + tuple(b._data.shape[d] for d in fb))


def diag(x, diagonal=0):
    """The diagonal of a matrix, or the matrix with vector `x` on its main diagonal."""
    d = x._data
    if d.ndim not in (1, 2):
        raise x.policy.errors.diag_dims(ndim=d.ndim)
    diagonal = ops.int_argument(diagonal, x.policy)
    if d.ndim == 1:
        if diagonal:
            raise x.policy.errors.diag_vector_offset()
        return x._new(backend.namespace(d).eye(d.shape[0], dtype=d.dtype)) * x
    k = np.arange(max(0, min(d.shape[0], d.shape[1] - diagonal) if diagonal >= 0 else
                      min(d.shape[0] + diagonal, d.shape[1])))
    rows, cols = (k, k + diagonal) if diagonal >= 0 else (k - diagonal, k)
    return ops.getitem(x, (rows, cols))


def trace(input):
    if input._data.dtype == np.bool_:
        raise input.policy.errors.not_implemented_for(op="trace", dtype_scalar=input._data.dtype)
    if input._data.ndim != 2:
        raise input.policy.errors.trace_dims(ndim=input._data.ndim)
    return ops.sum(diag(input))


def bincount(input, weights=None, minlength=0):
    if input._data.dtype.kind not in "iu":
        raise input.policy.errors.not_implemented_for(op="bincount_cpu", dtype_scalar=input._data.dtype)
    if minlength < 0:
        raise input.policy.errors.bincount_minlength()
    d = input._host()
    if d.ndim == 1 and not d.size:     # (PyTorch's early return: int64 zeros, whatever the weights)
        return input._new(np.zeros(minlength, np.int64))
    if d.ndim != 1 or d.min() < 0:
        raise input.policy.errors.bincount_input()
    if weights is None:
        return input._new(np.bincount(d, None, minlength).astype(np.int64))
    w = weights._host()
    if w.ndim != 1 or w.shape[0] != d.shape[0]:
        raise input.policy.errors.bincount_weights()
    # PyTorch sums float32 weights in float32, any other dtype in float64 (complex: the real part)
    res = np.bincount(d, w.real.astype(np.float64), minlength)
    return input._new(res.astype(np.float32) if w.dtype == np.float32 else res)


# ------------------------------------------------------------------------------- properties

def is_contiguous(self, memory_format=None) -> bool:
    if not hasattr(self._data, "flags"):
        return True
    name = ops.memory_format_name(self, memory_format, "is_contiguous")
    return ops.in_memory_format(self._data, None if name == "preserve_format" else name)


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


def share_memory_(self):
    """The tensor itself: a NumPy array is already in memory other processes can be handed."""
    return self


def pin_memory(self, device=None):
    """A copy in page-locked host memory (CuPy's), as PyTorch's; without a CUDA device PyTorch's
    error, as a CPU build of PyTorch raises. The deprecated `device` (a device, its name, or an
    accelerator's index) warns as PyTorch's does; a CPU device is no accelerator to pin for."""
    if device is not None and not is_long(device):
        if not isinstance(device, (str, backend.Device)):
            raise parser_words(self.policy.errors.argument_type(fn="pin_memory", argument="device",
                                                                expected="torch.device", type=typename(device)),
                               "device")
        device = backend.Device(device)
        for method in ("pin_memory", "is_pinned"):    # PyTorch's pin_memory asks is_pinned(device) first
            warnings.warn(self.policy.errors.pin_memory_device_deprecated(method=method), stacklevel=2)
        if device.type == "cpu":
            raise self.policy.errors.pin_memory_cpu_device()
    if not cuda_memory.available() or self.device.type != "cpu":
        raise self.policy.errors.accelerator_unavailable()
    import cupyx
    pinned = cupyx.empty_pinned(self._data.shape, self._data.dtype)
    pinned[...] = self._data
    return self._new(pinned)


def _H(self):
    if self._data.ndim > 2:
        raise self.policy.errors.tensor_H_ndim(ndim=self._data.ndim)
    return ops.conj(ops.t(self) if self._data.ndim == 2 else self)


def _adjoint(self, name: str = "adjoint()"):
    if self._data.ndim == 0:     # (PyTorch's deprecated 0-d case: the conjugate)
        warnings.warn(self.policy.errors.tensor_adjoint_0d(name="adjoint()" if name == "adjoint()" else "Tensor.mH"),
                      stacklevel=3)
        return ops.conj(self)
    if self._data.ndim < 2:
        raise self.policy.errors.tensor_adjoint_ndim(name=name, ndim=self._data.ndim)
    return ops.conj(ops.transpose(self, -2, -1))


def adjoint(input):
    """The conjugate transpose of the last two dims (a matrix or a batch of them)."""
    return _adjoint(input)


def _mH(self):
    return _adjoint(self, "mH")


def ravel(input):
    """The elements as one dim: a view of a contiguous tensor, else of a contiguous copy."""
    return ops.view(ops.contiguous(input), (-1,))


def fliplr(input):
    """The columns (dim 1) reversed."""
    if input._data.ndim < 2:
        raise input.policy.errors.flip_lr_ud_dims(ndim=2)
    return ops.flip(input, (1,))


def flipud(input):
    """The rows (dim 0) reversed."""
    if input._data.ndim < 1:
        raise input.policy.errors.flip_lr_ud_dims(ndim=1)
    return ops.flip(input, (0,))


def positive(input):
    """`input` itself (`+x`), refused for bools as PyTorch does."""
    if input._data.dtype.kind == "b":
        raise input.policy.errors.positive_bool()
    return input


def _is_same_size(self, other) -> bool:
    return self._data.shape == other._data.shape


def _is_signed(self) -> bool:
    return self._data.dtype.kind in "ifc"


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    _check_close(input, other)
    return bool(np.allclose(np.asarray(input._host()), np.asarray(other._host()), rtol, atol, equal_nan))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    _check_close(input, other)
    return input._new(backend.namespace(input._data).isclose(input._data, other._data, rtol, atol, equal_nan))


def _check_close(input, other) -> None:
    """PyTorch's errors for isclose / allclose of two dtypes or of shapes that do not broadcast."""
    if input._data.dtype != other._data.dtype:
        raise input.policy.errors.isclose_dtypes(self_scalar=input._data.dtype, other_scalar=other._data.dtype)
    _check_broadcast(input, other)


def equal(input, other) -> bool:
    return input._data.shape == other._data.shape and bool((input._data == other._data).all())


def _diag_method(self, diagonal=0):
    return diag(self, diagonal)


def _inplace(fn):
    def method(self, *args, **kwargs):
        return ops.indexing.inplace(self, fn, *args, **kwargs)
    method.__name__ = fn.__name__ + "_"
    return method


FUNCTIONS = {
    "sort": sort, "argsort": argsort, "topk": topk, "kthvalue": kthvalue, "msort": msort, "addcmul": addcmul,
    "addcdiv": addcdiv, "lerp": lerp, "clamp_min": clamp_min, "clamp_max": clamp_max, "hypot": ops.elementwise.hypot,
    "logit": logit, "deg2rad": deg2rad, "rad2deg": rad2deg, "fmod": ops.elementwise.fmod, "frac": frac, "sgn": ops.sgn,
    "signbit": signbit, "nan_to_num": nan_to_num, "nansum": ops.reduction.nansum, "float_power": float_power,
    "heaviside": heaviside, "roll": roll, "diff": diff, "moveaxis": moveaxis, "meshgrid": meshgrid,
    "tensordot": tensordot, "trace": trace, "adjoint": adjoint, "ravel": ravel, "fliplr": fliplr, "flipud": flipud,
    "positive": positive, "arctan2": ops.atan2, "fix": ops.trunc,
    "bincount": bincount, "diag": diag, "allclose": allclose, "isclose": isclose, "equal": equal,
    "bitwise_and": bitwise_and,
    "bitwise_or": bitwise_or, "bitwise_xor": bitwise_xor, "bitwise_not": bitwise_not,
    "bitwise_left_shift": bitwise_left_shift, "bitwise_right_shift": bitwise_right_shift, "inner": inner,
    "vdot": vdot, "ger": ops.outer, "unflatten": ops.unflatten, "masked_scatter": masked_scatter,
}

_METHOD_FUNCS = ("sort", "argsort", "topk", "kthvalue", "msort", "addcmul", "addcdiv", "lerp", "clamp_min",
                 "clamp_max", "hypot", "logit",
                 "deg2rad", "rad2deg", "fmod", "frac", "sgn", "signbit", "nan_to_num", "nansum", "float_power",
                 "heaviside", "roll", "diff", "moveaxis", "trace", "bincount", "bitwise_and", "bitwise_or",
                 "bitwise_xor", "bitwise_not", "adjoint", "ravel", "fliplr", "flipud", "positive", "arctan2", "fix",
                 "bitwise_left_shift", "bitwise_right_shift", "inner", "vdot", "ger", "masked_scatter")

METHODS = {name: FUNCTIONS[name] for name in _METHOD_FUNCS}
METHODS.update({
    "addcmul_": _inplace(addcmul), "addcdiv_": _inplace(addcdiv), "masked_scatter_": _inplace(masked_scatter), "lerp_": _inplace(lerp), "square_": square_,
    "nan_to_num_": _inplace(nan_to_num), "absolute": ops.abs, "absolute_": Tensor.abs_,
    "is_contiguous": is_contiguous, "stride": stride, "data_ptr": data_ptr, "nbytes": property(_nbytes),
    "itemsize": property(_itemsize), "is_complex": _is_complex, "pin_memory": pin_memory,
    "share_memory_": share_memory_, "H": property(_H), "allclose": allclose, "isclose": isclose,
    "equal": equal, "diag": _diag_method, "mH": property(_mH), "is_same_size": _is_same_size,
    "is_signed": _is_signed, "ndimension": lambda self: self._data.ndim, "arctan2_": _inplace(ops.atan2),
    "atan2_": _inplace(ops.atan2), "hypot_": _inplace(ops.elementwise.hypot),
    "fmod_": _inplace(ops.elementwise.fmod), "fix_": _inplace(ops.trunc), "trunc_": _inplace(ops.trunc),
    "negative_": _inplace(ops.neg), "float_power_": float_power_, "hardshrink": _hardshrink,
})


# torch.sort / argsort / topk return torch.return_types named tuples: these replace simpler versions
OVERRIDE = ("sort", "argsort", "topk")
# ops whose (values, indices) result becomes a named tuple
NAMED_RESULTS = ("max", "min", "median", "cummax", "cummin", "histogram")


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
