"""Import aliasing: `import torch` (or `oneflow`, `paddle`) answered by flowgrad's facade.

    from flowgrad import shim
    shim.install("torch")          # `import torch` is now flowgrad.torch, the same module object
    with shim.enabled("paddle"):   # scoped
        import paddle
    shim.uninstall()               # sys.modules and sys.meta_path as they were

One meta-path finder serves every alias. `torch.X` resolves to `flowgrad.torch.X` when the facade
provides that submodule, and loads only when imported; `importlib.util.find_spec` answers None for a
submodule the facade lacks, while importing it raises `FlowgradModuleNotFoundError`. While aliased,
the facade's modules raise `FlowgradAttributeError` for a missing attribute. Both name flowgrad and
record what was asked for (`missing()`), which `flowgrad run --report` prints.

A real framework already imported is never mixed with a facade: `install` refuses (`ShimError`).
`FLOWGRAD_SHIM=0` in the environment turns aliasing off: `install` does nothing.
"""
from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import threading
import types
from dataclasses import dataclass
from typing import Iterator

FACADES: dict[str, str] = {"torch": "flowgrad.torch", "oneflow": "flowgrad.oneflow", "paddle": "flowgrad.paddle"}
ENV = "FLOWGRAD_SHIM"

_FLOWGRAD_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_IMPORTLIB_DIR = os.path.dirname(os.path.abspath(importlib.__file__)) + os.sep
_LOCK = threading.RLock()


class ShimError(RuntimeError):
    """An alias cannot be installed: the real framework is already imported."""


class FacadeUnavailableError(ModuleNotFoundError):
    """The facade asked for is not part of this flowgrad (e.g. `flowgrad.oneflow` before it exists)."""


class FlowgradModuleNotFoundError(ModuleNotFoundError):
    """An aliased framework's submodule that flowgrad's facade does not provide."""


class FlowgradAttributeError(AttributeError):
    """An aliased framework's attribute that flowgrad's facade does not provide."""


@dataclass
class Missing:
    """A framework API the process asked for and flowgrad lacks: `api` (e.g. "torch.compile"), `kind`
    ("module", "attribute" or "tensor attribute"), how often, and the first place (path:line)."""
    api: str
    kind: str
    count: int
    first: str


def disabled() -> bool:
    """True when FLOWGRAD_SHIM is 0 (or false / off / no): aliasing is off for this run."""
    return os.environ.get(ENV, "").strip().lower() in ("0", "false", "off", "no")


def available(name: str) -> bool:
    """Whether this flowgrad has the facade for framework `name` ("torch", "oneflow", "paddle")."""
    _check_name(name)
    try:
        return importlib.util.find_spec(FACADES[name]) is not None
    except (ImportError, ValueError):
        return False


def installed() -> tuple[str, ...]:
    """The framework names aliased now."""
    return tuple(_FINDER.aliases)


def install(*names: str, watch_tensors: bool = False) -> tuple[str, ...]:
    """Alias each framework name to its facade (all available facades when none is named) and return
    the names newly aliased. Raises ValueError for an unknown name, FacadeUnavailableError when the
    facade is missing, ShimError when the real framework is already imported. Does nothing when
    FLOWGRAD_SHIM=0. `watch_tensors` also records missing attributes of the facades' Tensor classes
    (for `flowgrad run --report`) until `uninstall`."""
    if disabled():
        return ()
    for name in names:
        _check_name(name)
    with _LOCK:
        wanted = names or tuple(n for n in FACADES if available(n))
        new = tuple(dict.fromkeys(n for n in wanted if n not in _FINDER.aliases))
        for name in new:
            if not available(name):
                raise FacadeUnavailableError(f"cannot alias {name!r}: flowgrad's {name} facade ({FACADES[name]}) "
                                             "is not available in this flowgrad", name=FACADES[name])
            _refuse_real(name)
        _FINDER.watch_tensors = _FINDER.watch_tensors or watch_tensors
        for name in new:
            _FINDER.aliases[name] = FACADES[name]
        if _FINDER.aliases and _FINDER not in sys.meta_path:
            sys.meta_path.insert(0, _FINDER)
        return new


def uninstall(*names: str) -> None:
    """Remove the aliases named (all when none is): their `sys.modules` entries go, the facades' modules
    get their own class back, and the finder leaves `sys.meta_path` once no alias is left. Modules
    already imported under an alias keep working; a later `import torch` finds whatever sys.path has."""
    with _LOCK:
        for name in names or tuple(_FINDER.aliases):
            _check_name(name)
            facade = _FINDER.aliases.pop(name, None)
            if facade is None:
                continue
            for key, mod in list(sys.modules.items()):
                if (key == name or key.startswith(name + ".")) and _under(mod, "flowgrad"):
                    del sys.modules[key]
            _FINDER.restore_classes(facade)
        if not _FINDER.aliases:
            _FINDER.watch_tensors = False
            with contextlib.suppress(ValueError):
                sys.meta_path.remove(_FINDER)


@contextlib.contextmanager
def enabled(*names: str, watch_tensors: bool = False) -> Iterator[tuple[str, ...]]:
    """`with shim.enabled("torch"):` aliases for the block, then removes only what it added."""
    added = install(*names, watch_tensors=watch_tensors)
    try:
        yield added
    finally:
        if added:
            uninstall(*added)


def missing() -> list[Missing]:
    """What this process asked of an aliased framework that flowgrad lacks, most frequent first."""
    with _LOCK:
        return sorted((Missing(**vars(m)) for m in _MISSING.values()), key=lambda m: (-m.count, m.api))


def clear_missing() -> None:
    """Forget what `missing()` has recorded."""
    with _LOCK:
        _MISSING.clear()


def compat_entry(name: str, compat_file: str) -> None:
    """The body of `compat/<name>/__init__.py`: alias `name` with the same finder as `install` and put
    the facade in `sys.modules[name]`, so the running `import` returns the facade itself. With
    FLOWGRAD_SHIM=0 it loads the real framework from the rest of sys.path instead."""
    if disabled():
        _load_real(name, compat_file)
        return
    try:
        install(name)
    except FacadeUnavailableError as exc:
        raise FacadeUnavailableError(f"No module named {name!r}: {exc}", name=name) from None
    sys.modules[name] = importlib.import_module(FACADES[name])
    _FINDER.after_load(name)


# --------------------------------------------------------------------------------- internals

_MISSING: dict[str, Missing] = {}


def _check_name(name: str) -> None:
    if name not in FACADES:
        raise ValueError(f"unknown framework {name!r}: flowgrad's shim aliases {', '.join(FACADES)}")


def _under(mod: object, prefix: str) -> bool:
    """Whether `mod` is the module named `prefix` or one of its submodules."""
    modname = getattr(mod, "__name__", None)
    return isinstance(modname, str) and (modname == prefix or modname.startswith(prefix + "."))


def _refuse_real(name: str) -> None:
    facade = FACADES[name]
    keys = [name] + sorted(k for k in list(sys.modules) if k.startswith(name + "."))
    for key in keys:
        mod = sys.modules.get(key)
        if mod is not None and not _under(mod, "flowgrad") and not getattr(mod, "__flowgrad_compat__", False):
            where = getattr(mod, "__file__", None) or "a module not from flowgrad"
            raise ShimError(f"cannot alias {name!r} to {facade}: the real {name} is already imported ({key} from "
                            f"{where}); flowgrad never mixes it with its facade in one process. Alias before anything "
                            f"imports {name}, or set {ENV}=0 to use the real {name}.")


def _load_real(name: str, compat_file: str) -> None:
    """FLOWGRAD_SHIM=0 under compat/: import the real framework, skipping the compat directory."""
    compat_root = os.path.dirname(os.path.dirname(os.path.abspath(compat_file)))
    search = [p for p in sys.path if os.path.abspath(p or os.curdir) != compat_root]
    spec = importlib.machinery.PathFinder.find_spec(name, search)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r} ({ENV}=0 turned flowgrad's compat/{name} off and no "
                                  f"real {name} is installed)", name=name)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise


def _framework(modname: str) -> str:
    return next((n for n, f in FACADES.items() if modname == f or modname.startswith(f + ".")), modname)


def _alias_name(modname: str) -> str:
    """flowgrad.torch.nn -> torch.nn (the name users import it by)."""
    name = _framework(modname)
    return name + modname[len(FACADES[name]):] if name in FACADES else modname


def _location(frame: types.FrameType | None) -> str | None:
    """path:line of the first frame outside importlib; None when that frame is flowgrad's own code."""
    while frame is not None:
        path = frame.f_code.co_filename
        if not (path.startswith("<frozen importlib") or path.startswith(_IMPORTLIB_DIR)):
            return None if path.startswith(_FLOWGRAD_DIR) else f"{path}:{frame.f_lineno}"
        frame = frame.f_back
    return "?"


def _record(kind: str, api: str, frame: types.FrameType | None) -> None:
    where = _location(frame)
    if where is None:
        return
    with _LOCK:
        m = _MISSING.get(api)
        if m is None:
            _MISSING[api] = Missing(api, kind, 1, where)
        else:
            m.count += 1


def _from_import_statement() -> bool:
    """True when find_spec runs for an import (import statement, importlib.import_module), False for
    a probe such as importlib.util.find_spec, which must get None for a module that is not there."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib"):
        if frame.f_code.co_name == "_find_and_load_unlocked":
            return True
        frame = frame.f_back
    return False


def _submodule(target: str) -> types.ModuleType | None:
    """The facade's module `target` if it is loaded: in sys.modules, or a public attribute of its
    loaded parent that is one of flowgrad's modules (a facade may re-export another's, as
    `oneflow.nn` could be `flowgrad.torch.nn`; `torch._np`, NumPy, is not a submodule)."""
    mod = sys.modules.get(target)
    if mod is not None:
        return mod
    parent, _, child = target.rpartition(".")
    attr = getattr(sys.modules.get(parent), "__dict__", {}).get(child)
    if isinstance(attr, types.ModuleType) and (attr.__name__ == target or (
            not child.startswith("_") and _under(attr, "flowgrad"))):
        return attr
    return None


def _target_spec(target: str) -> importlib.machinery.ModuleSpec | None:
    mod = _submodule(target)
    if mod is not None:
        return getattr(mod, "__spec__", None) or importlib.machinery.ModuleSpec(target, None)
    try:
        return importlib.util.find_spec(target)
    except (ImportError, ValueError):
        return None


class _FacadeModule(types.ModuleType):
    """The class a facade's modules wear while aliased: a missing attribute names flowgrad."""

    def __getattr__(self, name: str):
        modname = types.ModuleType.__getattribute__(self, "__name__")
        alias = _alias_name(modname)
        if not (name.startswith("__") and name.endswith("__")):
            _record("attribute", f"{alias}.{name}", sys._getframe(1))
        raise FlowgradAttributeError(f"module {alias!r} has no attribute {name!r}: flowgrad's "
                                     f"{_framework(modname)} facade ({modname}) does not provide it",
                                     name=name, obj=self)


class _Loader(importlib.abc.Loader):
    """Loads an alias by putting the facade's own module in its sys.modules slot."""

    def __init__(self, alias: str, target: str):
        self.alias, self.target = alias, target

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        target = _submodule(self.target)
        if target is None:
            target = importlib.import_module(self.target)
        sys.modules[module.__spec__.name] = target   # the import statement returns what sys.modules holds
        _FINDER.after_load(self.alias)


class _Finder(importlib.abc.MetaPathFinder):
    """The one meta-path finder: `torch[.X]` -> `flowgrad.torch[.X]` for every aliased name."""

    def __init__(self):
        self.aliases: dict[str, str] = {}
        self.watch_tensors = False
        self._swapped: dict[str, list[types.ModuleType]] = {}
        self._watched: dict[type, object] = {}

    def find_spec(self, fullname, path=None, target=None):
        alias, _, rest = fullname.partition(".")
        facade = self.aliases.get(alias)
        if facade is None:
            return None
        target_name = facade + ("." + rest if rest else "")
        target_spec = _target_spec(target_name)
        if target_spec is None:
            _record("module", fullname, sys._getframe(1))
            if _from_import_statement():
                raise FlowgradModuleNotFoundError(f"No module named {fullname!r}: flowgrad's {alias} facade "
                                                  f"({facade}) does not provide it", name=fullname)
            return None
        is_pkg = target_spec.submodule_search_locations is not None
        spec = importlib.machinery.ModuleSpec(fullname, _Loader(alias, target_name), origin=target_spec.origin,
                                              is_package=is_pkg)
        if is_pkg:
            spec.submodule_search_locations = list(target_spec.submodule_search_locations)
        return spec

    def after_load(self, alias: str) -> None:
        """Register every loaded module of the facade under the alias too (as `import torch` loads
        torch.nn), and give each the flowgrad-naming class."""
        facade = self.aliases.get(alias)
        if facade is None:
            return
        with _LOCK:
            swapped = self._swapped.setdefault(facade, [])
            for key, mod in list(sys.modules.items()):
                if not (key == facade or key.startswith(facade + ".")) or not isinstance(mod, types.ModuleType):
                    continue
                sys.modules.setdefault(alias + key[len(facade):], mod)
                if type(mod) is types.ModuleType:
                    mod.__class__ = _FacadeModule
                    swapped.append(mod)
                    self._watch_lazy(mod, alias)
            if self.watch_tensors:
                self._watch_tensor(sys.modules.get(facade))

    def _watch_lazy(self, mod: types.ModuleType, alias: str) -> None:
        """A facade module that loads its submodules on first use (a module-level `__getattr__`): what it
        loads is registered under the alias too, as `after_load` registers what is loaded already."""
        own = mod.__dict__.get("__getattr__")
        if own is None or hasattr(own, "__shim_own__"):
            return

        def __getattr__(name: str):
            value = own(name)
            self.after_load(alias)
            return value

        __getattr__.__shim_own__ = own
        mod.__getattr__ = __getattr__

    def restore_classes(self, facade: str) -> None:
        for mod in self._swapped.pop(facade, []):
            if type(mod) is _FacadeModule:
                mod.__class__ = types.ModuleType
            own = getattr(mod.__dict__.get("__getattr__"), "__shim_own__", None)
            if own is not None:
                mod.__getattr__ = own
        for cls in [c for c in self._watched if _framework(c.__module__) == _framework(facade)]:
            own = self._watched.pop(cls)
            if own is None:
                delattr(cls, "__getattr__")
            else:
                cls.__getattr__ = own

    def _watch_tensor(self, facade_mod: types.ModuleType | None) -> None:
        cls = getattr(facade_mod, "__dict__", {}).get("Tensor")
        if not isinstance(cls, type) or cls in self._watched:
            return
        own = cls.__dict__.get("__getattr__")
        fallback = getattr(cls, "__getattr__", None)
        framework = _framework(facade_mod.__name__)

        def __getattr__(self, name: str):
            if fallback is not None:
                try:
                    return fallback(self, name)
                except AttributeError:
                    pass
            if not (name.startswith("__") and name.endswith("__")):
                _record("tensor attribute", f"{framework}.Tensor.{name}", sys._getframe(1))
            raise FlowgradAttributeError(f"{type(self).__name__!r} object has no attribute {name!r}: flowgrad's "
                                         f"{framework} facade does not provide it", name=name, obj=self)

        self._watched[cls] = own
        cls.__getattr__ = __getattr__


_FINDER = _Finder()
