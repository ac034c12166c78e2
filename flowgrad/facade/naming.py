"""A facade's naming table for the things every framework has under its own name: dtype objects
(with the aliases `float`, `double`, `long`, ...), the Size type and the device type."""
from __future__ import annotations

import operator
import re

from .. import backend
from ..autograd.policy import TORCH, Policy
from ..ops.shape import MemoryFormat

# the torch family's dtype aliases (PyTorch and OneFlow spell them alike)
DTYPE_ALIASES = {"float16": ("half",), "float32": ("float",), "float64": ("double",), "int16": ("short",),
                 "int32": ("int",), "int64": ("long",), "complex64": ("cfloat",), "complex128": ("cdouble",)}


def dtype_names(dtypes: dict, aliases: dict = DTYPE_ALIASES) -> dict:
    """Module attributes for a facade's dtype objects: `float32`, `float`, ... -> dtype."""
    names = {}
    for np_dtype, obj in dtypes.items():
        names[np_dtype.name] = obj
        for alias in aliases.get(np_dtype.name, ()):
            names[alias] = obj
    return names


def memory_formats(module: str, shown: str) -> dict:
    """The facade's `memory_format` class and its four instances (`contiguous_format`,
    `channels_last`, `channels_last_3d`, `preserve_format`), printing as `<shown>.channels_last`."""
    cls = type("memory_format", (MemoryFormat,), {"__slots__": (), "__module__": module})
    return {"memory_format": cls, **{n: cls(n, shown) for n in ("contiguous_format", "channels_last",
                                                                "channels_last_3d", "preserve_format")}}


def make_size(module: str, home: str, policy: Policy) -> type:
    """The torch family's Size: a tuple printing as `<module>.Size([2, 3])`, slices and sums stay
    Sizes; `home` is the module that defines it (for pickling); `policy` words its errors."""

    class Size(tuple):
        __slots__ = ()

        def __repr__(self):
            return f"{module}.Size([{', '.join(map(str, self))}])"

        __str__ = __repr__

        def numel(self) -> int:
            n = 1
            for s in self:
                n *= s
            return n

        def __getitem__(self, item):
            r = tuple.__getitem__(self, item)
            return Size(r) if isinstance(item, slice) else r

        def __add__(self, other):
            if not isinstance(other, tuple):
                raise policy.errors.size_concat_type(type=type(other).__name__, module=module)
            return Size(tuple(self) + tuple(other))

        def __radd__(self, other):
            if not isinstance(other, tuple):
                return NotImplemented
            return Size(tuple(other) + tuple(self))

        def __mul__(self, n):
            return Size(tuple.__mul__(self, n))

        __rmul__ = __mul__

    Size.__module__ = home
    Size.__qualname__ = "Size"
    return Size


def make_device(module: str, home: str, default_index: int | None = None) -> type:
    """A facade's device type defined in module `home`; `default_index` fills a missing index
    (OneFlow prints `index=0`)."""

    def __init__(self, type, index=None):
        backend.Device.__init__(self, type, index)
        if self.index is None:
            self.index = default_index

    attrs = {"__slots__": (), "__module__": home, "__doc__": f"{module}.device."}
    if default_index is not None:
        attrs["__init__"] = __init__
    return type("device", (backend.Device,), attrs)


_VERSION = re.compile(r"(\d+(?:\.\d+)*)(?:(a|b|rc)(\d+))?(?:\.post(\d+))?(?:\.dev\d+)?(?:\+([0-9A-Za-z.]+))?")
_PRE_RANK = {"a": 0, "b": 1, "rc": 2, None: 3}


def _version_key(value) -> tuple:
    if isinstance(value, (tuple, list)):
        value = ".".join(str(v) for v in value)
    match = _VERSION.fullmatch(str(value).strip())
    if match is None:
        raise TORCH.errors.version_invalid(value=value)
    release, pre, pre_n, post, local = match.groups()
    nums = tuple(int(p) for p in release.split("."))
    while len(nums) > 1 and nums[-1] == 0:   # 2.13 == 2.13.0
        nums = nums[:-1]
    return nums, _PRE_RANK[pre], int(pre_n or 0), int(post or -1), () if local is None else (1, local)


class Version(str):
    """A facade's `__version__`: a string that compares as a version, with strings or tuples
    (`torch.__version__ >= (2, 0)`, `>= "2.1"`), a local part (`+flowgrad`) ranking above the release."""

    def _cmp(name, op):
        def compare(self, other):
            try:
                key = _version_key(other) if isinstance(other, (str, tuple, list)) else None
            except ValueError:   # not a version: compared as text, as PyTorch's TorchVersion does
                key = None
            return getattr(str, name)(self, other) if key is None else op(_version_key(self), key)
        return compare

    __eq__ = _cmp("__eq__", operator.eq)
    __ne__ = _cmp("__ne__", operator.ne)
    __lt__ = _cmp("__lt__", operator.lt)
    __le__ = _cmp("__le__", operator.le)
    __gt__ = _cmp("__gt__", operator.gt)
    __ge__ = _cmp("__ge__", operator.ge)
    __hash__ = str.__hash__
    del _cmp
