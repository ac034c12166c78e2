"""The facade kit: what turns a policy, a Tensor subclass, a naming table and a print style into
the module users import. A facade is then names, defaults, messages and print format.

- `naming`: dtype objects and aliases, Size, device types.
- `printing`: the torch family's print format, one `Printer` (options + style) per facade.
- `tensor`: the torch family's Tensor (metadata, `.grad` checks, conversions, factories).
- `creation`, `functions`, `surface`: the torch family's namespace, built for one facade.
- `autograd`: backward / grad / Function bound to a facade's policy and signatures.
- `data`, `nn`: the neutral data and layer modules presented under a facade's classes.

`populate_torch_family` fills a facade module's globals with all of the namespace parts.
"""
from __future__ import annotations

import types

from . import creation, functions, naming, surface


def adopt(namespace: dict, module: str) -> None:
    """Make the functions the kit built for a facade report the facade's module as their home."""
    for name, value in namespace.items():
        if isinstance(value, types.FunctionType) and value.__module__.startswith(__name__) and \
                "<locals>" in value.__qualname__:
            value.__module__ = module
            value.__qualname__ = name


def populate_torch_family(namespace: dict, module: str, Tensor: type, dtypes: dict,
                          methods_only: tuple = ()) -> None:
    """dtype names, creation functions, ops and the composed surface for a torch-family facade;
    `methods_only` names the ops the framework offers as Tensor methods alone (torch has `x.expand`,
    no `torch.expand`)."""
    built = {}
    built.update(naming.dtype_names(dtypes))
    created = creation.build(Tensor, dtypes, module)
    Tensor._factories = types.SimpleNamespace(**created)
    built.update(created)
    built.update(functions.build(Tensor, dtypes))
    adopt(built, module)
    namespace.update(built)
    surface.bind(namespace, Tensor, module.rsplit(".", 1)[-1])
    for name in methods_only:
        del namespace[name]
