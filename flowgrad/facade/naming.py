"""A facade's naming table for the things every framework has under its own name: dtype objects
(with the aliases `float`, `double`, `long`, ...), the Size type and the device type."""
from __future__ import annotations

from .. import backend
from ..autograd.policy import Policy

# the torch family's dtype aliases (PyTorch and OneFlow spell them alike)
DTYPE_ALIASES = {"float16": ("half",), "float32": ("float",), "float64": ("double",), "int16": ("short",),
                 "int32": ("int",), "int64": ("long",)}


def dtype_names(dtypes: dict, aliases: dict = DTYPE_ALIASES) -> dict:
    """Module attributes for a facade's dtype objects: `float32`, `float`, ... -> dtype."""
    names = {}
    for np_dtype, obj in dtypes.items():
        names[np_dtype.name] = obj
        for alias in aliases.get(np_dtype.name, ()):
            names[alias] = obj
    return names


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
                raise policy.error("size_concat_type", type=type(other).__name__, module=module)
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
