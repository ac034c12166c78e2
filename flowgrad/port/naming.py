"""Which API of one facade answers an API of another, derived from the facades themselves.

Every facade function ends in the one op table (or the neutral nn / optim / autograd / creation
modules): `torch.sum` is an adapter over `ops.reduction.sum`, `paddle.sum` calls it with `axis`
where torch says `dim`, `paddle.optimizer.Momentum.__init__` calls the neutral `SGD.__init__` with
`lr=learning_rate`. `Facade.entry(path)` reads that from the facade's own code (the adapter's
generated source, or the function's source with its globals and closure): the core callable it
reaches (its *key*) and which of its parameters feeds which parameter of the core callable. Two
APIs with the same key are the same operation, and their parameters pair through the core's, so a
name added to a facade is ported by construction. `table.py` adds what the code cannot say
(module renames, `requires_grad` -> `stop_gradient`, `zero_grad` -> `clear_grad`).
"""
from __future__ import annotations

import ast
import builtins
import functools
import importlib
import inspect
import textwrap
import types
from dataclasses import dataclass, field
from typing import Any

from .. import shim
from . import table

#: Modules whose callables are facade code (analysed), not core ones (keys).
_FACADE_PACKAGES = tuple(shim.FACADES.values()) + ("flowgrad.facade",)
#: Core modules that are plumbing (devices, dtypes, argument checks), never an operation.
_PLUMBING = ("flowgrad.backend", "flowgrad.facade")


def is_core(obj: object) -> bool:
    """Whether `obj` is one of the core's callables (op table, neutral nn / optim / autograd, ...)."""
    mod = getattr(obj, "__module__", None) or ""
    return mod.startswith("flowgrad.") and not any(mod == p or mod.startswith(p + ".")
                                                   for p in _FACADE_PACKAGES + _PLUMBING)


def _unwrap(obj: object) -> object:
    for _ in range(8):
        inner = getattr(obj, "_out_target", None) or getattr(obj, "__wrapped__", None) or getattr(obj, "__func__", None)
        if inner is None or inner is obj:
            break
        obj = inner
    return obj


@dataclass
class Entry:
    """One facade API: its object, its parameters, the core callable it reaches (`key`, None when
    its code reaches none) and `feeds`: its parameter -> (core parameter, tuple index or None)."""
    path: str
    obj: Any
    params: list[inspect.Parameter]
    key: Any = None
    feeds: dict[str, tuple[str, int | None]] = field(default_factory=dict)
    keys: list = field(default_factory=list)     # every core callable a branch returns (key first)

    def same_operation(self, other: "Entry") -> bool:
        """Whether both reach a common core callable (or either reaches none: names decide)."""
        if self.key is None or other.key is None:
            return True
        return any(a is b or a == b for a in self.keys for b in other.keys)

    def param(self, name: str) -> inspect.Parameter | None:
        return next((p for p in self.params if p.name == name), None)

    def accepts(self, name: str) -> bool:
        return self.param(name) is not None or any(p.kind is p.VAR_KEYWORD for p in self.params)

    def fed_by(self, core_param: str) -> list[tuple[str, int | None]]:
        """This API's parameters feeding `core_param` (with the tuple index they take)."""
        return [(name, feed[1]) for name, feed in self.feeds.items() if feed[0] == core_param]


def _signature_params(obj: object, is_method: bool) -> list[inspect.Parameter]:
    target = obj.__init__ if isinstance(obj, type) else obj
    try:
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return []
    if (isinstance(obj, type) and params and params[0].name in ("self", "cls")) or (is_method and params):
        params = params[1:]
    return params


def _source_of(fn: Any) -> tuple[ast.FunctionDef, dict] | None:
    """The function's definition and the names its body can see."""
    src = getattr(fn, "__source__", None)
    try:
        src = src or textwrap.dedent(inspect.getsource(fn))
        tree = ast.parse(src)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    node = next((n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if node is None:
        return None
    env = dict(vars(builtins))
    env.update(getattr(fn, "__globals__", {}))
    package = getattr(fn, "__module__", "") or ""
    for imp in (n for n in ast.walk(node) if isinstance(n, ast.ImportFrom)):   # imports inside the function
        try:
            base = importlib.import_module("." * imp.level + (imp.module or ""), package.rpartition(".")[0]
                                           if imp.level else None)
        except ImportError:
            continue
        for alias in imp.names:
            env[alias.asname or alias.name] = getattr(base, alias.name, None)
    code = getattr(fn, "__code__", None)
    if code is not None and fn.__closure__:
        for name, cell in zip(code.co_freevars, fn.__closure__):
            try:
                env[name] = cell.cell_contents
            except ValueError:
                pass
    return node, env


def _resolve(expr: ast.expr, env: dict, owner: type | None) -> Any:
    if isinstance(expr, ast.Name):
        return env.get(expr.id)
    if isinstance(expr, ast.Attribute):
        if isinstance(expr.value, ast.Call) and isinstance(expr.value.func, ast.Name) and expr.value.func.id == "super" \
                and owner is not None:
            base = next((c for c in owner.__mro__[1:] if expr.attr in vars(c)), None)
            return vars(base)[expr.attr] if base is not None else None
        base = _resolve(expr.value, env, owner)
        if base is None:
            return None
        try:
            return inspect.getattr_static(base, expr.attr) if isinstance(base, type) else getattr(base, expr.attr)
        except AttributeError:
            return None
    return None


def _core_target(callee: Any) -> tuple[Any, Any] | None:
    """(key, callable whose signature names the core's parameters) for a core callee, else None."""
    if isinstance(callee, (staticmethod, classmethod)):
        callee = callee.__func__
    if isinstance(callee, type):
        return (callee, callee.__init__) if is_core(callee) else None
    fn = _unwrap(callee)
    name = getattr(fn, "__name__", "")
    if not callable(fn) or not is_core(fn) or name.startswith("_") and name != "__init__":
        return None   # a private helper (`Tensor._make`) is plumbing, not the operation
    if name == "__init__":
        owner = _owner_class(fn)
        return (owner, fn) if owner is not None else None
    bound = getattr(callee, "__self__", None) is not None and not isinstance(callee, types.BuiltinFunctionType)
    return fn, (callee if bound else fn)


def _owner_class(fn: Any) -> type | None:
    mod = importlib.import_module(fn.__module__)
    obj: Any = mod
    for part in fn.__qualname__.split(".")[:-1]:
        obj = getattr(obj, part, None)
    return obj if isinstance(obj, type) else None


def _first_param(expr: ast.expr, params: set[str], local: dict[str, ast.expr], depth: int = 0) -> str | None:
    """The first of the function's parameters `expr` reads, through the locals assigned before."""
    for n in ast.walk(expr):
        if isinstance(n, ast.Name):
            if n.id in params:
                return n.id
            if n.id in local and depth < 3:
                found = _first_param(local[n.id], params, local, depth + 1)
                if found is not None:
                    return found
    return None


def _locals(node: ast.AST) -> dict[str, ast.expr]:
    """name -> the expression first assigned to it in the function."""
    out: dict[str, ast.expr] = {}
    for n in ast.walk(node):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            out.setdefault(n.targets[0].id, n.value)
    return out


def _feeds(call: ast.Call, core_fn: Any, params: set[str],
           local: dict[str, ast.expr] | None = None) -> dict[str, tuple[str, int | None]]:
    try:
        core_params = [p for p in inspect.signature(core_fn).parameters.values()]
    except (TypeError, ValueError):
        return {}
    if getattr(core_fn, "__name__", "") == "__init__" and core_params and core_params[0].name == "self":
        core_params = core_params[1:]
        if call.args and isinstance(call.args[0], ast.Name) and call.args[0].id == "self" and \
                not isinstance(call.func, ast.Attribute) or _explicit_self(call):
            call = ast.Call(func=call.func, args=call.args[1:], keywords=call.keywords)
    feeds: dict[str, tuple[str, int | None]] = {}

    def feed(target: str, expr: ast.expr) -> None:
        if isinstance(expr, ast.Tuple) and all(isinstance(e, ast.Name) and e.id in params for e in expr.elts):
            for i, e in enumerate(expr.elts):
                feeds.setdefault(e.id, (target, i))
            return
        name = _first_param(expr, params, local or {})
        if name is not None:
            feeds.setdefault(name, (target, None))

    positional = [p for p in core_params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    var = next((p for p in core_params if p.kind is p.VAR_POSITIONAL), None)
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            if var is not None:
                feed(var.name, arg.value)
            break
        if i < len(positional):
            feed(positional[i].name, arg)
        elif var is not None:
            feed(var.name, arg)
    for kw in call.keywords:
        if kw.arg is not None:
            feed(kw.arg, kw.value)
    return feeds


def _explicit_self(call: ast.Call) -> bool:
    """`Base.__init__(self, ...)`: the first argument is self."""
    return isinstance(call.func, ast.Attribute) and call.func.attr == "__init__" and \
        not (isinstance(call.func.value, ast.Call)) and bool(call.args) and \
        isinstance(call.args[0], ast.Name) and call.args[0].id == "self"


def analyse(obj: Any, is_method: bool = False, depth: int = 0) -> tuple[Any, dict[str, tuple[str, int | None]]]:
    """(key, feeds) of a facade callable or class; (None, {}) where its code reaches no core callable.
    A call to another facade function is followed (a few levels) and the feeds composed."""
    owner = None
    if isinstance(obj, type):
        init = inspect.getattr_static(obj, "__init__", None)
        target = _core_target(obj) if is_core(obj) else None
        if target is None and init is not None and is_core(init):
            base = next(c for c in obj.__mro__ if "__init__" in vars(c))
            target = (base, init)
        if target is not None:
            names = {p.name for p in _signature_params(obj, False)}
            return target[0], {n: (n, None) for n in names}
        fn, owner = init, obj
    else:
        fn = _unwrap(obj)
        target = _core_target(fn)
        if target is not None:
            return target[0], {p.name: (p.name, None) for p in _signature_params(fn, is_method)}
    found = _source_of(fn) if fn is not None else None
    if found is None:
        return None, {}
    node, env = found
    params = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
    params |= {a.arg for a in (node.args.vararg, node.args.kwarg) if a is not None}
    params -= {"self", "cls"}
    local = _locals(node)
    found = [_reached(ret.value, env, owner, params, local, depth) for ret in ast.walk(node)
             if owner is None and isinstance(ret, ast.Return) and ret.value is not None]
    found = [f for f in found if f is not None] or [_reached(node, env, owner, params, local, depth)]
    return found[0] if found[0] is not None else (None, {})


def analyse_all(obj: Any, is_method: bool = False) -> list[Any]:
    """Every core callable a facade function returns the result of (one per branch: paddle's `add`
    is `scale` for a Python scalar, `add` otherwise)."""
    fn = _unwrap(obj)
    found = _source_of(fn) if not isinstance(obj, type) and fn is not None else None
    if found is None:
        return []
    node, env = found
    params = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
    local = _locals(node)
    keys = [_reached(ret.value, env, None, params, local, 0) for ret in ast.walk(node)
            if isinstance(ret, ast.Return) and ret.value is not None]
    return [k[0] for k in keys if k is not None]


def _forwarded(call: ast.Call, callee: Any, env: dict, owner: type | None) -> tuple[ast.Call, Any]:
    """A core helper applying a core callable it is given (`layout.in_channels_first(F.conv2d, x,
    last, w, ...)` calls `fn(x, *args)`) stands for the call it makes: `F.conv2d(x, w, ...)`."""
    if not (call.args and is_core(_unwrap(callee))) or isinstance(callee, type):
        return call, callee
    applied = _resolve(call.args[0], env, owner)
    found = _source_of(_unwrap(callee)) if _core_target(applied) is not None else None
    if found is None:
        return call, callee
    node = found[0]
    names = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    star = node.args.vararg.arg if node.args.vararg else None
    bound = dict(zip(names, call.args))
    for inner in ast.walk(node):
        if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == names[0]):
            continue
        args: list[ast.expr] = []
        for arg in inner.args:
            if isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Name) and arg.value.id == star:
                args.extend(call.args[len(names):])
            elif isinstance(arg, ast.Name) and arg.id in bound:
                args.append(bound[arg.id])
            else:
                break
        else:
            return ast.Call(func=call.args[0], args=args, keywords=call.keywords), applied
    return call, callee


def _reached(root: ast.AST, env: dict, owner: type | None, params: set[str], local: dict, depth: int):
    """(key, feeds) of the core call an expression (or body) makes: a call applied to one of the
    function's parameters first (paddle's argmax is `cast(argmax(x, ...))`), else the outermost."""
    raised = {id(n) for r in ast.walk(root) if isinstance(r, ast.Raise) for n in ast.walk(r)}
    calls = [n for n in ast.walk(root) if isinstance(n, ast.Call) and (n.args or n.keywords) and id(n) not in raised]
    calls.sort(key=lambda c: not (c.args and isinstance(c.args[0], ast.Name) and c.args[0].id in params))
    for call in calls:
        callee = _resolve(call.func, env, owner)
        call, callee = _forwarded(call, callee, env, owner)
        target = _core_target(callee)
        if target is not None:
            return target[0], _feeds(call, target[1], params, local)
    for call in calls:    # then through the facade's own helpers
        callee = _resolve(call.func, env, owner)
        if depth < 3 and callable(callee) and not isinstance(callee, type) and \
                getattr(callee, "__module__", "").startswith(_FACADE_PACKAGES):
            key, inner = analyse(callee, False, depth + 1)
            if key is not None:
                outer = _feeds(call, callee, params, local)
                return key, {mine: inner[via] for mine, (via, _) in outer.items() if via in inner}
    return None


class Facade:
    """One facade's public API as port sees it, loaded lazily (flowgrad check's way: importlib)."""

    def __init__(self, framework: str):
        self.framework = framework
        self.module = importlib.import_module(shim.FACADES[framework])
        self._entries: dict[str, Entry | None] = {}
        self._index: dict[Any, list[str]] | None = None

    def lookup(self, path: str) -> Any:
        """The facade's object for a dotted path below the framework (`nn.Linear`), or None."""
        obj: Any = self.module
        for part in path.split("."):
            try:
                obj = getattr(obj, part)
            except AttributeError:
                if not isinstance(obj, types.ModuleType):
                    return None
                try:
                    obj = importlib.import_module(f"{obj.__name__}.{part}")
                except ImportError:
                    return None
        return obj

    def entry(self, path: str) -> Entry | None:
        """`path` is `nn.Linear` for a module attribute, `Tensor.sum` for a Tensor method."""
        if path not in self._entries:
            obj = self.lookup(path)
            if obj is None or isinstance(obj, types.ModuleType):
                self._entries[path] = None
            else:
                is_method = path.startswith("Tensor.") or "." in path and isinstance(self.lookup(path.rpartition(".")[0]),
                                                                                     type)
                key, feeds = analyse(obj, is_method) if callable(obj) else (_data_key(obj), {})
                params = _signature_params(obj, is_method) if callable(obj) else []
                names = {p.name for p in params}
                feeds = {k: v for k, v in feeds.items() if k in names}
                keys = [key] + [k for k in (analyse_all(obj, is_method) if callable(obj) else []) if k is not key]
                self._entries[path] = Entry(path, obj, params, key, feeds, keys if key is not None else [])
        return self._entries[path]

    def is_module(self, path: str) -> bool:
        return isinstance(self.lookup(path), types.ModuleType)

    def index(self) -> dict[Any, list[str]]:
        """key -> the paths reaching it, over the namespaces scripts use (see `table.NAMESPACES`)."""
        if self._index is None:
            self._index = {}
            for ns in table.NAMESPACES[self.framework]:
                holder = self.lookup(ns) if ns else self.module
                if holder is None:
                    continue
                for name in sorted(dir(holder)):
                    if name.startswith("_"):
                        continue
                    path = f"{ns}.{name}" if ns else name
                    try:
                        e = self.entry(path)
                    except Exception:   # noqa: BLE001  (a facade attribute that fails to analyse ports by name only)
                        e = None
                    for key in e.keys if e is not None else ():
                        self._index.setdefault(_hashable(key), []).append(path)
        return self._index

    def with_key(self, key: Any) -> list[str]:
        return self.index().get(_hashable(key), []) if key is not None else []


def _data_key(obj: Any) -> Any:
    """A dtype is the same dtype in every facade (its NumPy dtype)."""
    np_dtype = getattr(obj, "np", None) or getattr(obj, "numpy_dtype", None)
    return ("dtype", str(np_dtype)) if np_dtype is not None else None


def _hashable(key: Any) -> Any:
    try:
        hash(key)
        return key
    except TypeError:
        return id(key)


@functools.lru_cache(maxsize=None)
def facade(framework: str) -> Facade:
    return Facade(framework)
