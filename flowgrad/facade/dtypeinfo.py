"""`finfo` / `iinfo` (the numerical limits of a dtype, printed as PyTorch prints them) and the dtype
predicates `is_complex` / `is_floating_point`, built for one facade: its dtypes, module name and
policy. A dtype object of the facade, or Python's `float` / `int` / `bool` / `complex` (which PyTorch
reads as float64 / int64 / bool / complex128, whose finfo is float64's), is accepted."""
from __future__ import annotations

import builtins

import numpy as np

from .. import backend
from ..tensor import Tensor as _CoreTensor
from .argcheck import place, typename

_PYTHON_TYPES = {builtins.float: np.dtype(np.float64), builtins.int: np.dtype(np.int64),
                 builtins.bool: np.dtype(np.bool_), builtins.complex: np.dtype(np.complex128)}


def _g(x) -> str:
    """C++'s default stream format of a double (6 significant digits), as finfo / iinfo print."""
    return f"{float(x):g}"


def build(home: str, dtypes: dict, policy) -> dict:
    """finfo, iinfo, is_complex and is_floating_point for the facade module `home` (its dtype table)."""
    module = home.rpartition(".")[2]   # the name messages use: torch.finfo()

    def _np_dtype(fn: str, args: tuple, kwargs: dict):
        if len(args) + len(kwargs) > 1 or (kwargs and "type" not in kwargs):
            raise policy.errors.dtypeinfo_arity(fn=fn, given=len(args) + len(kwargs))
        if not args and not kwargs:
            return None
        value = args[0] if args else kwargs["type"]
        if isinstance(value, backend.DType):
            return value.np
        if isinstance(value, type) and value in _PYTHON_TYPES:
            return _PYTHON_TYPES[value]
        raise policy.errors.dtypeinfo_arg_type(fn=fn, module=module, type=typename(value))

    class _Info:
        __slots__ = ()
        _fields: tuple = ()

        def __setattr__(self, name, value):
            raise policy.errors.dtypeinfo_readonly(name=name, module=module, fn=type(self).__name__)

        def __eq__(self, other):
            return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self._fields)

        __hash__ = None

        def __repr__(self):
            body = ", ".join(f"{f}={self._show(f)}" for f in self._fields)
            return f"{type(self).__name__}({body})"

        __str__ = __repr__

        def __reduce__(self):
            raise policy.errors.dtypeinfo_pickle(module=module, fn=type(self).__name__)

    class finfo(_Info):
        """Machine limits of a floating point dtype (the default dtype when none is given)."""

        __slots__ = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")
        _fields = ("resolution", "min", "max", "eps", "smallest_normal", "tiny", "dtype")

        def __init__(self, *args, **kwargs):
            dt = _np_dtype("finfo", args, kwargs)
            dt = backend.default_float() if dt is None else dt
            if dt.kind == "c":   # a complex dtype's limits are its real part's
                dt = np.dtype(np.float64 if dt.itemsize == 16 else np.float32)
            if dt.kind not in "fV":
                raise policy.errors.finfo_not_float(module=module)
            info = backend.finfo(dt)
            values = {"bits": int(info.bits), "eps": float(info.eps), "max": float(info.max), "min": float(info.min),
                      "tiny": float(info.tiny), "smallest_normal": float(info.smallest_normal),
                      "resolution": 10.0 ** -int(info.precision), "dtype": dtypes[dt].name}
            for name, value in values.items():
                object.__setattr__(self, name, value)

        def _show(self, field):
            value = getattr(self, field)
            return value if field == "dtype" else _g(value)

    class iinfo(_Info):
        """Machine limits of an integer dtype."""

        __slots__ = ("bits", "max", "min", "dtype")
        _fields = ("min", "max", "dtype")

        def __init__(self, *args, **kwargs):
            dt = _np_dtype("iinfo", args, kwargs)
            if dt is None:
                raise policy.errors.dtypeinfo_missing(fn="iinfo")
            if dt.kind == "b":
                raise policy.errors.iinfo_bool(module=module)
            if dt.kind not in "iu":
                raise policy.errors.iinfo_not_int(module=module)
            info = np.iinfo(dt)
            for name, value in {"bits": int(info.bits), "max": int(info.max), "min": int(info.min),
                                "dtype": dtypes[dt].name}.items():
                object.__setattr__(self, name, value)

        def _show(self, field):
            value = getattr(self, field)
            return value if field == "dtype" else _g(value)

    place(finfo, home)
    place(iinfo, home)

    def _tensor_arg(fn: str, input):
        if not isinstance(input, _CoreTensor):
            raise policy.errors.predicate_not_tensor(fn=fn, type=typename(input))
        return input._data.dtype

    def is_complex(input) -> builtins.bool:
        """Whether `input`'s dtype is complex."""
        return _tensor_arg("is_complex", input).kind == "c"

    def is_floating_point(input) -> builtins.bool:
        """Whether `input`'s dtype is a floating point dtype."""
        return _tensor_arg("is_floating_point", input).kind in "fV"

    return {"finfo": finfo, "iinfo": iinfo, "is_complex": is_complex, "is_floating_point": is_floating_point}
