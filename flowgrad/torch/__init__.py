"""flowgrad's PyTorch facade: `import flowgrad.torch as torch`.

PyTorch's names, signatures, defaults, messages and print format over flowgrad's one engine.
"""
from __future__ import annotations

import builtins as _builtins
import math as _math

import numpy as _np

from .. import backend as _backend
from .. import creation as _creation
from .. import ops as _ops
from ..autograd.mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad,
                             set_grad_enabled, is_anomaly_enabled, is_anomaly_check_nan_enabled)
from ..tensor import Tensor as _CoreTensor
from . import _print
from ._print import set_printoptions
from ._tensor import DTYPES as _DTYPES
from ._tensor import Size, Tensor, device, dtype

__version__ = "2.13.0+flowgrad"

# ---------------------------------------------------------------------------------- dtypes
float16 = half = _DTYPES[_np.dtype("float16")]
float32 = float = _DTYPES[_np.dtype("float32")]
float64 = double = _DTYPES[_np.dtype("float64")]
int8 = _DTYPES[_np.dtype("int8")]
int16 = short = _DTYPES[_np.dtype("int16")]
int32 = int = _DTYPES[_np.dtype("int32")]
int64 = long = _DTYPES[_np.dtype("int64")]
uint8 = _DTYPES[_np.dtype("uint8")]
bool = _DTYPES[_np.dtype("bool")]  # noqa: A001  (PyTorch's name)

_default_device = [None]


def set_default_dtype(d) -> None:
    _backend.set_default_float(d)


def get_default_dtype():
    return _DTYPES[_backend.default_float()]


def set_default_device(d) -> None:
    _default_device[0] = None if d is None else device(d)


def get_default_device():
    return _default_device[0] or device("cpu")


def is_tensor(obj) -> bool:
    return isinstance(obj, _CoreTensor)


def is_floating_point(t) -> bool:
    return t._data.dtype.kind == "f"


def numel(t) -> int:
    return t.numel()


# ------------------------------------------------------------------------------- factories

def _dev(d):
    d = d if d is not None else _default_device[0]
    return None if d is None else _backend.Device(d)


def _finish(arr, requires_grad):
    t = Tensor._make(arr)
    if requires_grad:
        if arr.dtype.kind != "f":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
    return t


def _size(size):
    return _ops.parse_shape(size) if size else ()


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    if isinstance(data, _CoreTensor):
        import warnings
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
    return _finish(_creation.array_from(data, dtype, _dev(device)), requires_grad)


def as_tensor(data, dtype=None, device=None):
    if isinstance(data, _CoreTensor) and (dtype is None or data.dtype == dtype) and device is None:
        return data
    if isinstance(data, _np.ndarray) and dtype is None and device is None and data.dtype in _backend.DTYPES:
        return Tensor._make(data)
    return _finish(_creation.array_from(data, dtype, _dev(device)), False)


asarray = as_tensor


def from_numpy(arr: _np.ndarray):
    if not isinstance(arr, _np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(arr).__name__})")
    if arr.dtype not in _backend.DTYPES:
        raise TypeError(f"can't convert np.ndarray of type numpy.{arr.dtype}. The only supported types are: float64, "
                        "float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, "
                        "uint8, and bool.")
    return Tensor._make(arr)


def from_dlpack(ext):
    """A tensor sharing memory with a DLPack producer (NumPy, CuPy, real torch, ...) or capsule."""
    from .. import dlpack
    return Tensor._make(dlpack.array_from_dlpack(ext))


def zeros(*size, dtype=None, device=None, requires_grad=False, out=None):
    return _finish(_creation.full(_size(size), 0, dtype or _backend.default_float(), _dev(device)), requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False, out=None):
    return _finish(_creation.full(_size(size), 1, dtype or _backend.default_float(), _dev(device)), requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False, **kw):
    return zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    if isinstance(fill_value, _CoreTensor):
        fill_value = fill_value.item()
    return _finish(_creation.full(_size((size,)) if not isinstance(size, _builtins.int) else (size,), fill_value,
                                  dtype, _dev(device)), requires_grad)


def _like(t, dtype, device):
    return (dtype if dtype is not None else t._data.dtype), (device if device is not None else t.device)


def zeros_like(t, dtype=None, device=None, requires_grad=False, **kw):
    dt, dv = _like(t, dtype, device)
    return _finish(_creation.full(t._data.shape, 0, dt, dv), requires_grad)


def ones_like(t, dtype=None, device=None, requires_grad=False, **kw):
    dt, dv = _like(t, dtype, device)
    return _finish(_creation.full(t._data.shape, 1, dt, dv), requires_grad)


def full_like(t, fill_value, dtype=None, device=None, requires_grad=False, **kw):
    dt, dv = _like(t, dtype, device)
    return _finish(_creation.full(t._data.shape, fill_value, dt, dv), requires_grad)


def empty_like(t, dtype=None, device=None, requires_grad=False, **kw):
    return zeros_like(t, dtype, device, requires_grad)


def rand_like(t, dtype=None, device=None, requires_grad=False, generator=None):
    dt, dv = _like(t, dtype, device)
    return _finish(_creation.rand(t._data.shape, dt, dv, generator), requires_grad)


def randn_like(t, dtype=None, device=None, requires_grad=False, generator=None):
    dt, dv = _like(t, dtype, device)
    return _finish(_creation.randn(t._data.shape, dt, dv, generator), requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False, out=None):
    return _finish(_creation.arange(start, end, step, dtype, _dev(device)), requires_grad)


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    return _finish(_creation.linspace(start, end, steps, dtype, _dev(device)), requires_grad)


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    return _finish(_creation.eye(n, m, dtype, _dev(device)), requires_grad)


# ---------------------------------------------------------------------------------- random
Generator = _creation.Generator
default_generator = _creation.default_generator


def manual_seed(seed):
    return default_generator.manual_seed(seed)


def seed() -> _builtins.int:
    return default_generator.seed()


def initial_seed() -> _builtins.int:
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(state) -> None:
    default_generator.set_state(state)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False):
    return _finish(_creation.rand(_size(size), dtype, _dev(device), generator), requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False):
    return _finish(_creation.randn(_size(size), dtype, _dev(device), generator), requires_grad)


def randint(low, high=None, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    if high is None or isinstance(high, (tuple, list)):
        low, high, size = 0, low, high if size is None else size
    return _finish(_creation.randint(low, high, size, dtype, _dev(device), generator), requires_grad)


def randperm(n, generator=None, dtype=None, device=None, requires_grad=False):
    return _finish(_creation.randperm(n, dtype, _dev(device), generator), requires_grad)


def normal(mean, std, size=None, generator=None):
    if isinstance(mean, _CoreTensor) or isinstance(std, _CoreTensor):
        shape = _np.broadcast_shapes(*(x._data.shape for x in (mean, std) if isinstance(x, _CoreTensor)))
        return mean + std * randn(shape, generator=generator)
    return randn(size, generator=generator) * std + mean


def bernoulli(p, generator=None):
    return Tensor._make((_creation.rand(p._data.shape, _np.float64, generator=generator) < p._data)
                        .astype(p._data.dtype))


def multinomial(probs, num_samples, replacement=False, generator=None):
    rng = _creation._gen(generator)
    p = _np.atleast_2d(probs._host()).astype(_np.float64)
    rows = [rng.choice(p.shape[1], num_samples, replace=replacement, p=row / row.sum()) for row in p]
    out = _np.stack(rows).astype(_np.int64)
    return Tensor._make(out if probs._data.ndim == 2 else out[0])


# ---------------------------------------------------------------------------------- ops
from ..ops import (abs, add, amax, amin, argmax, argmin, atan2, bmm, cat, ceil, chunk,  # noqa
                   clamp, clone, cos, cumsum, div, dot, einsum, eq, erf, exp, expand, expm1, flatten, flip, floor,
                   floor_divide, gather, ge, gt, index_select, isfinite, isinf, isnan, le, log, log1p, log2, log10,
                   log_softmax, logical_and, logical_not, logical_or, logical_xor, logsumexp, lt, masked_fill,
                   masked_select, matmul, maximum, mean, minimum, mm, movedim, mul, mv, narrow, ne, neg, nonzero,
                   norm, outer, permute, pow, prod, reciprocal, relu, remainder, repeat, reshape, round, rsqrt,
                   scatter, scatter_add, select, sigmoid, sign, sin, softmax, split, sqrt, squeeze, stack, std,
                   std_mean, sub, sum, t, take_along_dim, tan, tanh, tile, transpose, tril, triu, trunc, unbind,
                   unsqueeze, var, var_mean, where, count_nonzero, addmm, swapaxes, hstack, vstack, broadcast_to,
                   median)
from ..ops import max as _max, min as _min, all as _all, any as _any  # noqa: E402

max, min, all, any = _max, _min, _all, _any  # noqa: A001
concat = concatenate = cat
multiply, subtract, divide, true_divide, negative = mul, sub, div, div, neg
clip = clamp
square = lambda x: pow(x, 2)  # noqa: E731
absolute = abs
greater, less, greater_equal, less_equal, not_equal = gt, lt, ge, le, ne


def _with_out(fn):
    """PyTorch's `out=` keyword: results are copied into `out`, refused when autograd would need them."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        if is_grad_enabled() and _builtins.any(isinstance(a, _CoreTensor) and a._requires_grad
                                               for a in (*args, *kwargs.values(), out)):
            raise RuntimeError(f"{fn.__name__}(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        res = fn(*args, **kwargs)
        out._data = res._data.astype(out._data.dtype, copy=False) if res._data.shape != out._data.shape else out._data
        out._data[...] = res._data
        out._bump()
        return out
    return wrapper


for _name in ("add", "sub", "mul", "div", "pow", "matmul", "mm", "bmm", "exp", "log", "sin", "cos", "tanh",
              "sigmoid", "sqrt", "abs", "neg", "sum", "mean", "prod", "cat", "stack", "maximum", "minimum", "clamp",
              "where", "relu", "remainder", "floor_divide", "cumsum", "multiply", "subtract", "divide"):
    globals()[_name] = _with_out(globals()[_name])
del _name


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> _builtins.bool:
    return _builtins.bool(_np.allclose(_np.asarray(a._host()), _np.asarray(b._host()), rtol,
                                       atol, equal_nan))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return Tensor._make(_backend.namespace(a._data).isclose(a._data, b._data, rtol, atol, equal_nan))


def equal(a, b) -> _builtins.bool:
    return a._data.shape == b._data.shape and _builtins.bool((a._data == b._data).all())


def numel(x) -> _builtins.int:
    return x.numel()


def detach(x):
    return x.detach()


def diag(x, diagonal=0):
    """The diagonal of a matrix, or the matrix with vector `x` on its main diagonal."""
    d = x._data
    if d.ndim == 1:
        if diagonal:
            raise NotImplementedError("diag of a vector with a non-zero offset is not supported by flowgrad yet")
        return x._new(_backend.namespace(d).eye(d.shape[0], dtype=d.dtype)) * x
    k = _np.arange(_builtins.max(0, _builtins.min(d.shape[0], d.shape[1] - diagonal) if diagonal >= 0 else
                                 _builtins.min(d.shape[0] + diagonal, d.shape[1])))
    rows, cols = (k, k + diagonal) if diagonal >= 0 else (k - diagonal, k)
    return _ops.getitem(x, (rows, cols))


def cdist(a, b, p=2.0):
    diff = _ops.unsqueeze(a, -2) - _ops.unsqueeze(b, -3)
    return _ops.norm(diff, p, dim=-1)


def result_type(a, b):
    _, x, y, _, _ = _ops.binary_arrays(a, b)
    return _DTYPES[x.dtype if hasattr(x, "dtype") else y.dtype]


def promote_types(a, b):
    return _DTYPES[_backend.result_type((a.np, b.np), (), (), _backend.default_float())]


def can_cast(from_, to) -> _builtins.bool:
    return _np.can_cast(from_.np, to.np, "same_kind")


def is_inference(t) -> _builtins.bool:
    return t.is_inference()


# ---------------------------------------------------------------------------- submodules
from . import autograd  # noqa: E402
from . import cuda  # noqa: E402
from . import accelerator  # noqa: E402
from . import utils  # noqa: E402
from . import nn  # noqa: E402
from . import optim  # noqa: E402
from .serialization import load, save  # noqa: E402,F401
from . import _surface  # noqa: E402
_surface.bind(globals())
from .autograd import set_detect_anomaly, detect_anomaly  # noqa: E402,F401

e = _math.e
pi = _math.pi
inf = _math.inf
nan = _math.nan
