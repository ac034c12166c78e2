"""torch.utils for the torch facade. Only `hooks` loads eagerly; any other submodule (utils.data,
...) loads on first attribute access, so this file never needs editing when one is added."""
from __future__ import annotations

import importlib

from . import hooks  # noqa: F401


def __getattr__(name: str):
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
