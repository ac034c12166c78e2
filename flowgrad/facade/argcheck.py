"""How the torch family's C++ argument checks name what they got, for the messages that quote it."""
from __future__ import annotations

import numpy as np

from ..ops._args import typename  # noqa: F401  (the kit's messages quote types the same way)


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
