"""Array namespaces by device (NumPy for cpu, CuPy for cuda), devices, dtypes and type promotion.

Everything the core does to an array goes through `namespace(array)`, so the same code runs on
NumPy and CuPy. CuPy is imported lazily, the first time a cuda device is asked for.
"""
from __future__ import annotations

import contextlib

import numpy as np

try:   # bfloat16 as a NumPy dtype (the optional `flowgrad[bfloat16]`)
    import ml_dtypes as _ml_dtypes
except ImportError:  # pragma: no cover - depends on the installation
    _ml_dtypes = None

from .autograd.policy import TORCH  # devices and dtypes belong to no facade: PyTorch's words

ndarray = np.ndarray

# --------------------------------------------------------------------------------------- devices


class Device:
    """A device: `Device("cpu")`, `Device("cuda", 0)`, `Device("cuda:1")`."""

    __slots__ = ("type", "index")

    def __init__(self, type: "str | Device", index: int | None = None):
        if isinstance(type, Device):
            type, index = type.type, type.index if index is None else index
        elif not isinstance(type, str):
            raise TORCH.errors.device_arg_type(arg=type)
        if ":" in type:
            type, _, idx = type.partition(":")
            index = int(idx)
        if type not in _BACKENDS:
            raise TORCH.errors.device_type_unknown(types=", ".join(sorted(_BACKENDS)), type=type)
        self.type = type
        self.index = index

    def __eq__(self, other):
        if isinstance(other, str):
            other = Device(other)
        return isinstance(other, Device) and self.type == other.type and self.index == other.index

    def __hash__(self):
        return hash((self.type, self.index))

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"


CPU = Device.__new__(Device)
CPU.type, CPU.index = "cpu", None


class _Backend:
    """How to reach one kind of device: its array namespace and array type."""

    def __init__(self, name, loader, array_type_of):
        self.name = name
        self._loader = loader
        self._array_type_of = array_type_of
        self._xp = None

    @property
    def xp(self):
        if self._xp is None:
            self._xp = self._loader()
            _ARRAY_TYPES[self._array_type_of(self._xp)] = self
        return self._xp


def _load_cupy():
    try:
        import cupy
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise TORCH.errors.cuda_needs_cupy() from exc
    return cupy


_BACKENDS: dict[str, _Backend] = {
    "cpu": _Backend("cpu", lambda: np, lambda xp: xp.ndarray),
    "cuda": _Backend("cuda", _load_cupy, lambda xp: xp.ndarray),
}
_ARRAY_TYPES: dict[type, _Backend] = {np.ndarray: _BACKENDS["cpu"]}
_BACKENDS["cpu"]._xp = np


def register_backend(name: str, loader, array_type_of) -> None:
    """Add a device kind (the test suite registers a NumPy-backed fake device this way)."""
    _BACKENDS[name] = _Backend(name, loader, array_type_of)


def namespace(array) -> object:
    """The array namespace (module) that owns `array`."""
    t = type(array)
    if t is np.ndarray:
        return np
    b = _ARRAY_TYPES.get(t)
    if b is None:
        for typ, be in _ARRAY_TYPES.items():
            if isinstance(array, typ):
                b = be
                break
        else:
            return np
    return b.xp


def device_of(array) -> Device:
    t = type(array)
    if t is np.ndarray:
        return CPU
    b = _ARRAY_TYPES.get(t)
    if b is None:
        for typ, be in _ARRAY_TYPES.items():
            if isinstance(array, typ):
                b = be
                break
        else:
            return CPU
    if b.name == "cuda":
        return Device("cuda", int(array.device.id))
    return Device(b.name, 0 if b.name != "cpu" else None)


def xp_for(device: "Device | str | None"):
    """The namespace of a device (loading CuPy on first use)."""
    if device is None:
        return np
    if isinstance(device, str):
        device = Device(device)
    return _BACKENDS[device.type].xp


def xp_for_dtype(device: "Device | str | None", dtype: np.dtype):
    """The namespace that makes arrays of `dtype` on `device`: bfloat16 lives on the cpu only."""
    if dtype == BFLOAT16 and device is not None and Device(device).type != "cpu":
        raise TORCH.errors.bfloat16_device(device=Device(device).type)
    return xp_for(device)


def to_device(array, device: Device):
    """Copy `array` to `device` (no copy when it is already there)."""
    if device_of(array) == device:
        return array
    src = namespace(array)
    host = src.asnumpy(array) if hasattr(src, "asnumpy") else np.asarray(array)
    if device.type == "cpu":
        return host
    if host.dtype == BFLOAT16:
        raise TORCH.errors.bfloat16_device(device=device.type)
    xp = xp_for(device)
    if device.type == "cuda":
        with xp.cuda.Device(device.index or 0):
            return xp.asarray(host)
    return xp.asarray(host)


_NULL = contextlib.nullcontext()


# ------------------------------------------------------------------ what NumPy has and CuPy lacks

def writeable(array) -> bool:
    """Whether writing into `array` is allowed: NumPy's flag; where arrays have none (CuPy), whether
    no two of its elements share memory (a broadcast view has a zero stride over a longer axis)."""
    flag = getattr(array.flags, "writeable", None)
    if flag is not None:
        return bool(flag)
    return all(step or n <= 1 for step, n in zip(array.strides, array.shape))


def open_grid(xp, shape: tuple, skip: int | None = None) -> list:
    """`indices(shape, sparse=True)` (CuPy's has no sparse form): per axis an arange shaped to
    broadcast; None at axis `skip` (which the caller fills)."""
    n = len(shape)
    return [None if i == skip else xp.arange(k).reshape((1,) * i + (k,) + (1,) * (n - i - 1))
            for i, k in enumerate(shape)]


def ufunc_at(xp, ufunc: str, target, index: tuple, values) -> None:
    """`xp.<ufunc>.at(target, index, values)`: in place, repeated positions combining. CuPy lacks it
    for some ufuncs (multiply); there each pass writes one occurrence of every repeated position."""
    fn = getattr(xp, ufunc)
    try:
        fn.at(target, index, values)
        return
    except NotImplementedError:
        pass
    *where, vals = xp.broadcast_arrays(*index, xp.asarray(values, dtype=target.dtype))
    lin, vals = xp.ravel_multi_index(tuple(where), target.shape).ravel(), vals.ravel()
    work = xp.ascontiguousarray(target)
    flat = work.reshape(-1)
    while lin.size:
        places, first = xp.unique(lin, return_index=True)
        flat[places] = fn(flat[places], vals[first])
        rest = xp.ones(lin.size, dtype=bool)
        rest[first] = False
        lin, vals = lin[rest], vals[rest]
    if work is not target:
        target[...] = work


def running(xp, ufunc: str, a, axis: int):
    """`xp.<ufunc>.accumulate(a, axis=axis)` of an associative ufunc (maximum, minimum, logaddexp).
    CuPy has no accumulate for them; there a scan by doubling strides computes the same (NaN
    propagates as in the ufunc; logaddexp's sums may round differently in the last place)."""
    fn = getattr(xp, ufunc)
    try:
        return fn.accumulate(a, axis=axis)
    except NotImplementedError:
        pass
    out = xp.moveaxis(a, axis, 0).copy()
    k = 1
    while k < out.shape[0]:
        out[k:] = fn(out[k:], out[:-k])
        k *= 2
    return xp.ascontiguousarray(xp.moveaxis(out, 0, axis))


def broadcast(a, shape: tuple):
    """`xp.broadcast_to(a, shape)` (a read-only view). (Building the zero-stride view directly and
    setting it read-only measured ~2% faster on the MLP step but kept memory growing by a few bytes a
    step over a long training loop: NumPy's own broadcast_to is used.)"""
    return namespace(a).broadcast_to(a, shape)


def quiet(xp):
    """A context in which the namespace's floating-point warnings (division by zero, invalid,
    overflow) stay silent, as PyTorch's kernels are: wraps only the ops that can make inf/NaN."""
    if xp is np and _np_errors is not None:
        return _NumpyQuiet()
    errstate = getattr(xp, "errstate", None)
    return _NULL if errstate is None else errstate(all="ignore")


try:    # NumPy's error state is a context variable: set it directly, as np.errstate does
    from numpy._core._ufunc_config import _extobj_contextvar as _np_errors
    from numpy._core.umath import _make_extobj
except ImportError:   # another NumPy layout: np.errstate
    _np_errors = None
_quiet_of = [None, None]   # the last error state seen and its all-ignoring form (most calls see one)


class _NumpyQuiet:
    """`np.errstate(all="ignore")`, made once per error state instead of once per use."""

    __slots__ = ("token",)

    def __enter__(self):
        now = _np_errors.get()
        last = _quiet_of
        if last[0] is not now:
            last = [now, _make_extobj(all="ignore")]
            _quiet_of[:] = last
        self.token = _np_errors.set(last[1])

    def __exit__(self, *exc):
        _np_errors.reset(self.token)


# ---------------------------------------------------------------------------------------- dtypes


class DType:
    """A flowgrad dtype: a name and the NumPy dtype that stores it (None for bfloat16 where the
    optional ml_dtypes package that provides it is not installed)."""

    __slots__ = ("name", "np", "is_floating_point", "is_signed", "itemsize", "prefix")

    def __init__(self, name: str, np_dtype, prefix: str = "flowgrad"):
        self.name = name
        if np_dtype is None:   # bfloat16 without ml_dtypes: named, not storable
            self.np, self.is_floating_point, self.is_signed, self.itemsize = None, True, True, 2
        else:
            self.np = np.dtype(np_dtype)
            self.is_floating_point = is_float(self.np)
            self.is_signed = self.is_floating_point or self.np.kind in "ic"
            self.itemsize = self.np.itemsize
        self.prefix = prefix

    @property
    def is_complex(self) -> bool:
        return self.np.kind == "c"

    def __repr__(self):
        return f"{self.prefix}.{self.name}"

    def __eq__(self, other):
        if isinstance(other, DType):
            return self.np == other.np if self.np is not None else self.name == other.name
        return NotImplemented

    def __hash__(self):
        return hash(self.np if self.np is not None else self.name)

    def __reduce__(self):
        return (DType, (self.name, self.np.str if self.np is not None and self.np.kind != "V" else
                        self.np, self.prefix))


BFLOAT16 = np.dtype(_ml_dtypes.bfloat16) if _ml_dtypes is not None else None


def is_float(dt: np.dtype) -> bool:
    """Whether a NumPy dtype is a floating one: NumPy's kind "f", or ml_dtypes' bfloat16 (kind "V")."""
    return dt.kind == "f" or (dt.kind == "V" and dt == BFLOAT16)


def opmath(d):
    """The array an op computes on: a bfloat16 one in float32, as PyTorch's kernels compute bfloat16
    (the op rounds its result back to bfloat16 once); any other array as it is."""
    return d.astype(np.float32) if d.dtype.kind == "V" else d   # ("V": bfloat16, the only such dtype stored)


def finfo(dt: np.dtype):
    """The machine limits of a floating dtype (ml_dtypes' for bfloat16)."""
    return _ml_dtypes.finfo(dt) if dt == BFLOAT16 else np.finfo(dt)


class _Unstorable:
    """The key of bfloat16 in a dtype table where ml_dtypes is missing (no NumPy dtype to key it by)."""
    name = "bfloat16"


REAL_DTYPE_NAMES = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool")
DTYPE_NAMES = REAL_DTYPE_NAMES[:3] + ("bfloat16", "complex64", "complex128") + REAL_DTYPE_NAMES[3:]


def dtype_table(prefix: str, names: tuple = DTYPE_NAMES) -> dict[np.dtype, DType]:
    """One DType per supported NumPy dtype, printed with `prefix` (each facade has its own; the
    facades not yet checked against their framework's complex numbers and bfloat16 take
    `REAL_DTYPE_NAMES`)."""
    return {(np.dtype(n) if n != "bfloat16" else BFLOAT16 or _Unstorable()):
            DType(n, n if n != "bfloat16" else BFLOAT16, prefix) for n in names}


DTYPES = dtype_table("flowgrad")
_BY_NAME = {d.name: d for d in DTYPES.values()}
_ALIASES = {"float": "float32", "double": "float64", "half": "float16", "long": "int64", "int": "int32",
            "short": "int16", "bool_": "bool", "cfloat": "complex64", "cdouble": "complex128"}


def to_np_dtype(dtype) -> np.dtype | None:
    """Accept a DType, a NumPy dtype/type, or a name; return the NumPy dtype (None stays None)."""
    if dtype is None:
        return None
    if isinstance(dtype, DType):
        if dtype.np is None:
            raise TORCH.errors.bfloat16_needs_ml_dtypes()
        return dtype.np
    if isinstance(dtype, str):
        name = _ALIASES.get(dtype, dtype)
        if name not in _BY_NAME:
            raise TORCH.errors.dtype_invalid(dtype=dtype)
        return to_np_dtype(_BY_NAME[name])
    if dtype is float:
        return np.dtype(np.float64)
    if dtype is int:
        return np.dtype(np.int64)
    if dtype is bool:
        return np.dtype(np.bool_)
    if dtype is complex:
        return np.dtype(np.complex128)
    d = np.dtype(dtype)
    if d not in DTYPES:
        raise TORCH.errors.dtype_unsupported(dtype=d)
    return d


_default_float = [np.dtype(np.float32)]


def default_float() -> np.dtype:
    """The dtype of floating tensors made from Python floats (float32 unless changed)."""
    return _default_float[0]


def default_complex() -> np.dtype:
    """The dtype of complex tensors made from Python complex numbers: the default float's complex."""
    return np.dtype(np.complex128) if _default_float[0] == np.float64 else np.dtype(np.complex64)


def set_default_float(dtype) -> None:
    d = to_np_dtype(dtype)
    if d == BFLOAT16:
        raise TORCH.errors.default_dtype_bfloat16()
    if d.kind != "f":
        raise TORCH.errors.default_dtype_not_float()
    _default_float[0] = d


# ---------------------------------------------------------------------------- type promotion
# PyTorch's rules: categories bool < integer < floating < complex. Tensors of dim > 0, 0-dim tensors
# and Python scalars are promoted within each group, then the groups combine by category, the
# higher one winning, except that a complex winner takes the precision of a floating dim>0 result
# (float64 tensor + complex64 0-dim -> complex128); Python scalars are bool, int64, the default
# float and the default complex.

_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3, "V": 2}   # ("V": bfloat16, the one such dtype)


def category(dt: np.dtype) -> int:
    """PyTorch's promotion category of a dtype: bool 0, integer 1, floating 2, complex 3 (a result
    of a higher category is not cast into a lower one)."""
    return _CATEGORY[dt.kind]


_PY_SCALAR_DTYPE = {bool: np.dtype(np.bool_), int: np.dtype(np.int64)}
_promote_cache: dict = {}


def result_type(dims: tuple, zerodims: tuple, scalars: tuple, default_float: np.dtype) -> np.dtype:
    """Promoted dtype of an op over tensors (`dims`: dtypes of dim>0 tensors, `zerodims`: of 0-dim
    tensors) and Python `scalars` (their types)."""
    key = (dims, zerodims, scalars, default_float)
    r = _promote_cache.get(key)
    if r is not None:
        return r
    wrapped = tuple(_PY_SCALAR_DTYPE[s] if s in _PY_SCALAR_DTYPE else
                    _complex_of(default_float) if s is complex else default_float for s in scalars)
    r = _combine(_promote_all(dims), _combine(_promote_all(zerodims), _promote_all(wrapped)))
    _promote_cache[key] = r
    return r


def _complex_of(d: np.dtype) -> np.dtype:
    return np.dtype(np.complex128) if d == np.float64 else np.dtype(np.complex64)


def _combine(higher, lower):
    """PyTorch's combination of two groups' results (None: an empty group)."""
    if higher is None or lower is None:
        return lower if higher is None else higher
    ch, cl = _CATEGORY[higher.kind], _CATEGORY[lower.kind]
    if ch == 3:
        return higher
    if cl == 3:
        return _complex_of(higher) if ch == 2 else lower
    if ch == 2:
        return higher
    if ch == 0 or cl == 2:
        return _promote(higher, lower)
    return higher


def _promote(a: np.dtype, b: np.dtype) -> np.dtype:
    """PyTorch's promote_types: within a category (and float with complex) NumPy's rule, across
    categories the higher one's dtype (int64 with float16 is float16, int64 with complex64 complex64)."""
    ca, cb = _CATEGORY[a.kind], _CATEGORY[b.kind]
    if ca == cb or ca + cb == 5:
        if a != b and BFLOAT16 in (a, b):   # bfloat16 with any other float: through float32
            return np.promote_types(a if a != BFLOAT16 else np.float32, b if b != BFLOAT16 else np.float32)
        return np.promote_types(a, b)
    return a if ca > cb else b


def _promote_all(dtypes: tuple):
    r = None
    for d in dtypes:
        r = d if r is None else _promote(r, d)
    return r
