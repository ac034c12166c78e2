"""A facade package's heavier submodules loaded on first use, as `torch.nn` is reached after a plain
`import torch` (PEP 562): importing the facade loads only what its own namespace needs.

`attach(namespace, modules, names)` gives the package a module-level `__getattr__` that imports a
submodule named in `modules` (or the submodule holding a name of `names`) when the attribute is first
asked for and binds it in the namespace (later lookups are plain dictionary hits), and a `__dir__`
that lists them before they are loaded. `import package.sub` keeps working as it always does.
"""
from __future__ import annotations

import importlib
import sys
from typing import Callable

from ..messages.own import text


def attach(namespace: dict, modules: tuple, names: dict | None = None,
           bind: Callable | None = None) -> None:
    """Load each submodule of `modules` on its first use, and each name of `names` (name -> the
    submodule that holds it) from its submodule; `bind(name, value)` may replace a loaded name's value
    (a facade's argument guard) before it is bound."""
    package, names = namespace["__name__"], dict(names or {})
    lazy = frozenset(modules) | frozenset(names)

    def __getattr__(name: str):
        if name in modules:
            value = importlib.import_module(f"{package}.{name}")
        elif name in names:
            value = getattr(importlib.import_module(f"{package}.{names[name]}"), name)
            if bind is not None:
                value = bind(name, value)
        else:
            raise AttributeError(text("module_no_attribute", module=package, name=name), name=name,
                                 obj=sys.modules.get(package))
        namespace[name] = value
        return value

    def __dir__() -> list:
        return sorted(lazy | namespace.keys())

    namespace["__getattr__"], namespace["__dir__"] = __getattr__, __dir__
