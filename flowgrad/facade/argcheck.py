"""How the torch family's C++ argument checks name what they got, for the messages that quote it."""
from __future__ import annotations

import numpy as np

_HEAPTYPE = 1 << 9   # Py_TPFLAGS_HEAPTYPE: a class defined in Python


def typename(obj: object) -> str:
    """The type name PyTorch's argument checks print: a builtin's or a Python class's name (`int`,
    `Tensor`), an extension type's dotted name (`numpy.bool`, `numpy.ndarray`)."""
    cls = type(obj)
    if cls.__module__ == "builtins" or cls.__flags__ & _HEAPTYPE:
        return cls.__name__
    return f"{cls.__module__}.{cls.__qualname__}"


def is_long(obj: object) -> bool:
    """What PyTorch's C++ takes for an int: a Python or NumPy integer, never a bool."""
    return isinstance(obj, (int, np.integer)) and not isinstance(obj, (bool, np.bool_))


def place(cls: type, home: str, name: str | None = None) -> type:
    """Name a class the kit built inside a function as the facade module `home` defines it, methods
    included, so Python's own argument errors read `autocast.__init__()`, not `build.<locals>...`."""
    cls.__module__, cls.__name__ = home, name or cls.__name__
    cls.__qualname__ = cls.__name__
    for attr, value in vars(cls).items():
        fn = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
        if callable(fn) and hasattr(fn, "__qualname__") and "<locals>" in fn.__qualname__:
            fn.__qualname__ = f"{cls.__qualname__}.{attr}"
    return cls
