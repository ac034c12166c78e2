"""Argument handling shared by the ops: operands promoted PyTorch's way, scalars as tensors,
dims normalised, and the facade's errors for mixed facades, devices and shapes."""
from __future__ import annotations

import builtins as _builtins
import operator

import numpy as np

from .. import backend
from ..autograd.mode import _graph_tasks
from ..autograd.policy import TORCH
from ..tensor import Tensor

_SCALARS = (bool, int, float, complex)
NOT_OPERANDS = (type(None), str, bytes, list, tuple, dict, set)   # what no tensor operation takes as an operand
_HEAPTYPE = 1 << 9   # Py_TPFLAGS_HEAPTYPE: a class defined in Python


def typename(obj: object) -> str:
    """The type name PyTorch's argument checks print: a builtin's or a Python class's name (`int`,
    `Tensor`), an extension type's dotted name (`numpy.bool`, `numpy.ndarray`)."""
    cls = type(obj)
    if cls is backend.DType:        # (as the facade's framework names its dtype class: `torch.dtype`)
        return f"{obj.prefix}.dtype"
    if cls.__module__ == "builtins" or cls.__flags__ & _HEAPTYPE:
        return cls.__name__
    return f"{cls.__module__}.{cls.__qualname__}"


def as_tensor_like(x, like: Tensor) -> Tensor:
    """A Python scalar or array-like as a tensor on `like`'s device and facade."""
    if isinstance(x, Tensor):
        return x
    xp = backend.namespace(like._data)
    if isinstance(x, _SCALARS):
        dt = backend.result_type((), (like._data.dtype,), (type(x),), backend.default_float())
        return like._new(xp.asarray(x, dtype=dt))
    return like._new(xp.asarray(x))


def check_same(cls, a: Tensor, b: Tensor) -> None:
    """Refuse tensors of two facades or two devices in one op."""
    if type(b)._out_cls is not cls:
        raise cls.policy.errors.facade_mismatch(a=cls.__module__, b=type(b).__module__)
    if type(a._data) is not type(b._data) or (type(a._data) is not np.ndarray and a.device != b.device):
        raise cls.policy.errors.device_mismatch(a=_dev_str(b), b=_dev_str(a))


def _dev_str(t: Tensor) -> str:
    d = t.device
    return "cpu" if d.type == "cpu" else f"{d.type}:{d.index or 0}"


def binary_arrays(a, b, float_result: bool = False):
    """Promote two operands (at least one a Tensor) PyTorch's way.
    Returns (facade class, array-or-scalar a, array-or-scalar b, tensor-or-None a, tensor-or-None b)."""
    if isinstance(a, Tensor):
        if (type(b) is float or type(b) is int) and a._data.dtype.kind == "f":  # float tensor, Python number: no promotion
            return a._out_cls, a._data, b, a, None
        ta, cls = a, a._out_cls
        tb = b if isinstance(b, Tensor) else None
    else:
        ta, tb, cls = None, b, b._out_cls
    if ta is not None and tb is not None:
        if type(tb)._out_cls is not cls or type(ta._data) is not type(tb._data):
            check_same(cls, ta, tb)
        da, db = ta._data, tb._data
        dta, dtb = da.dtype, db.dtype
        if dta == dtb and not (float_result and dta.kind not in "fcV"):
            return cls, da, db, ta, tb
        if not cls.policy.mixed_kind_promotion and da.ndim and db.ndim and dta != dtb and \
                not (dta.kind == dtb.kind == "f" or "c" in (dta.kind, dtb.kind)) and not _graph_tasks.get():
            # a user's operands (backward formulas mix a float gradient with a mask freely)
            raise cls.policy.errors.promotion_kinds(x=dta, y=dtb)
        dims = tuple(d.dtype for d in (da, db) if d.ndim)
        zeros = tuple(d.dtype for d in (da, db) if not d.ndim)
        dt = backend.result_type(dims, zeros, (), backend.default_float())
        if float_result and dt.kind not in "fcV":
            dt = backend.default_float()
        return cls, (da if dta == dt else da.astype(dt)), (db if dtb == dt else db.astype(dt)), ta, tb
    t = ta if ta is not None else tb
    s = a if ta is None else b
    if not isinstance(s, _SCALARS):
        if isinstance(s, np.generic):
            s = s.item()
        elif isinstance(s, NOT_OPERANDS):
            raise cls.policy.errors.operand_type(type=typename(s))
        else:
            s = as_tensor_like(s, t)
            return binary_arrays(a if ta is not None else s, s if ta is not None else b, float_result)
    d = t._data
    k = d.dtype.kind
    if ((k == "f" and type(s) is not complex) or k == "c" or (type(s) is int and k in "iu") or type(s) is bool) \
            and not (float_result and k not in "fc"):
        dt = d.dtype
        if k in "iu" and type(s) is int:
            s = _wrapped(s, dt)
    else:
        dt = backend.result_type((d.dtype,) if d.ndim else (), () if d.ndim else (d.dtype,), (type(s),),
                                 backend.default_float())
        if float_result and dt.kind not in "fcV":
            dt = backend.default_float()
        d = d.astype(dt)
        if dt.kind == "V" and type(s) is not complex:   # bfloat16: the number as one (NumPy would widen)
            s = dt.type(s)
    if ta is not None:
        return cls, d, s, ta, None
    return cls, s, d, None, tb


_INT_BOUNDS: dict = {}


def _wrapped(s: int, dt) -> int:
    """A Python int operand of an integer tensor, wrapped into its dtype when it does not fit (as
    PyTorch computes `uint8_tensor + 300`; NumPy refuses it)."""
    bounds = _INT_BOUNDS.get(dt)
    if bounds is None:
        info = np.iinfo(dt)
        bounds = _INT_BOUNDS[dt] = (int(info.min), int(info.max))
    if bounds[0] <= s <= bounds[1]:
        return s
    return int(np.array(s & ((1 << (8 * dt.itemsize)) - 1), dtype=np.uint64).astype(dt))


_C_INT_NAMES = {"int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t", "uint8": "uint8_t"}


def check_fill_value(policy, value, dt):
    """`value` to write into a tensor of dtype `dt` (fill_, full, setitem, masked_fill), with
    PyTorch's errors for a Python int it does not fit: beyond int64 an OverflowError, else a
    RuntimeError naming the C type; an unsigned dtype takes negative values down to -max, wrapped.
    A complex number is refused for a real dtype unless its imaginary part is 0 (NumPy would drop it)."""
    if isinstance(value, (complex, np.complexfloating)) and dt.kind not in "cb":
        if value.imag == 0:
            return check_fill_value(policy, float(value.real), dt)
        if dt.kind in "fV":
            raise policy.errors.value_overflow_float(dtype_ctype=dt)
        raise policy.errors.value_overflow_c(name=_C_INT_NAMES.get(str(dt), str(dt)))
    if type(value) is not int or dt.kind not in "iu":
        return value
    if not -2 ** 63 <= value < 2 ** 64:
        raise policy.errors.int_too_big()
    info = np.iinfo(dt)
    if not (-int(info.max) if dt.kind == "u" else int(info.min)) <= value <= int(info.max) \
            and policy.values_fit_dtype:
        raise policy.errors.value_overflow_c(name=_C_INT_NAMES[str(dt)])
    return _wrapped(value, dt)


def broadcast_error(a_shape, b_shape, policy=None) -> Exception | None:
    """The facade's error for two shapes that do not broadcast (PyTorch's by default); None when
    they do."""
    xs, ys = tuple(a_shape), tuple(b_shape)
    n = _builtins.max(len(xs), len(ys))
    a, b = (1,) * (n - len(xs)) + xs, (1,) * (n - len(ys)) + ys
    for i in range(n - 1, -1, -1):
        if a[i] != b[i] and a[i] != 1 and b[i] != 1:
            return (policy or Tensor.policy).errors.broadcast(a=a[i], b=b[i], dim=i, x=list(xs), y=list(ys))
    return None


def reraise_broadcast(exc: ValueError, cls, x, y):
    """In `except ValueError` around an array op of facade `cls`: raise the facade's error when x
    and y (arrays or scalars) do not broadcast, else the original exception."""
    err = broadcast_error(getattr(x, "shape", ()), getattr(y, "shape", ()), cls.policy)
    if err is None:
        raise exc
    raise err from None


def float_array(t: Tensor, op: str):
    """The tensor's array, cast to the default float dtype when it is not floating (exp of an int
    tensor); a complex one is refused (`op` names the op not built for it)."""
    d = t._data
    if d.dtype.kind in "fV":
        return d
    if d.dtype.kind == "c":
        raise t.policy.errors.complex_unsupported(op=op)
    return d.astype(backend.default_float())


def normalize_dim(dim: int, ndim: int, policy=None) -> int:
    """`dim` in [0, ndim) (a 0-d tensor takes 0 and -1); `policy` words the error (PyTorch's by default)."""
    n = _builtins.max(ndim, 1)
    if not -n <= dim < n:
        raise (policy or TORCH).errors.dim_range(low=-n, high=n - 1, dim=dim)
    if dim.__class__ is not int:     # (a NumPy integer or a 0-d integer tensor; never a bool)
        return normalize_dim(_int_dim(dim, policy), ndim, policy)
    return dim % n


def _int_dim(dim, policy):
    a = dim._data if isinstance(dim, Tensor) else None
    if a is not None and a.ndim == 0 and a.dtype.kind in "iu":
        return int(a)
    if a is not None or isinstance(dim, (bool, np.bool_)):
        raise bool_dim(policy, typename(dim))
    return operator.index(dim)


def is_int_tensor(value, any_shape: bool = True) -> bool:
    """An integer tensor of one element (`any_shape`) or a 0-d one."""
    return (isinstance(value, Tensor) and value._data.dtype.kind in "iu" and
            (value._data.size == 1 if any_shape else value._data.ndim == 0))


def int_argument(value, policy=None, sym: bool = False) -> int:
    """An int argument as PyTorch's parser takes it (an int, a NumPy integer, a 0-d integer tensor;
    for its SymInt parameters (`sym`), an integer tensor of one element in any shape); a bool, a float
    or anything else raises a TypeError a facade's argument guard words."""
    if value.__class__ is int:
        return value
    if isinstance(value, np.integer) or is_int_tensor(value, sym):
        return int(value)
    err = (policy or TORCH).errors.int_type(type=typename(value))
    err.parser_refuses = ""
    raise err


def flag_argument(value, policy, fn: str, name: str, position: int | None = None, by_call: bool = False) -> bool:
    """A flag PyTorch's parser takes only as a bool (not None, an int or a tensor). Its TypeError
    names `position` where PyTorch's Python layer passes the flag on positionally (however the call
    gave it); `by_call` leaves the wording to a facade's argument guard, which names the position
    where the call gave one."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if position is not None:
        raise policy.errors.argument_type_at(fn=fn, argument=name, position=position, expected="bool",
                                             type=typename(value))
    err = policy.errors.argument_type(fn=fn, argument=name, expected="bool", type=typename(value))
    if by_call:
        err.parser_refuses = ""
    raise err


def tensor_argument(value, policy, fn: str, name: str, position: int) -> None:
    """PyTorch's parser's TypeError for a Tensor parameter given anything else."""
    if not isinstance(value, Tensor):
        raise policy.errors.argument_type_at(fn=fn, argument=name, position=position, expected="Tensor",
                                             type=typename(value))


def bool_dim(policy=None, type: str = "bool") -> TypeError:
    """The TypeError refusing a bool (or a tensor not a 0-d integer) for a dim, marked for a facade's
    argument guard to word as its framework's parser does (naming the argument)."""
    err = (policy or TORCH).errors.dims_type(type=type)
    err.parser_refuses = ""
    return err


def dim_ints(dim) -> tuple:
    """Dims given as a one-element integer tensor (or a sequence of them, where a bool after the first
    is an int to PyTorch's parser); anything else (a tensor of several, floats, strings, bools): PyTorch's
    TypeError."""
    items = dim if isinstance(dim, (tuple, list)) else (dim,)
    out = []
    for i, d in enumerate(items):
        a = d._data if isinstance(d, Tensor) else None
        if isinstance(d, bool) and i and items is dim:
            d = int(d)
        if isinstance(d, bool):
            raise bool_dim()
        if not (isinstance(d, (int, np.integer)) or (a is not None and a.size == 1 and a.dtype.kind in "iu")):
            raise TORCH.errors.dims_type(type=typename(d))
        out.append(int(a.reshape(-1)[0]) if a is not None else int(d))
    return tuple(out)


def normalize_dims(dim, ndim: int) -> tuple:
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (int, np.integer)) and dim.__class__ is not bool:
        dim = (int(dim),)
    elif not isinstance(dim, (tuple, list)) or not _builtins.all(isinstance(d, (int, np.integer)) and
                                                                        d.__class__ is not bool for d in dim):
        dim = dim_ints(dim)
    dims = tuple(_builtins.sorted(normalize_dim(int(d), ndim) for d in dim))
    return dims if ndim else ()  # a 0-d tensor accepts dim 0 / -1 and has nothing to reduce
