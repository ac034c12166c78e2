"""A function's parameters as `inspect.signature` lists them, read off the code object of a plain
function: what inspect would find, at a small part of its cost (importing flowgrad reads the
parameters of hundreds of formulas, ops and facade functions). Anything else (a wrapper, a builtin,
an object with `__signature__`) goes to inspect."""
from __future__ import annotations

import inspect
import types
from typing import Callable


class Parameter:
    """What is read of a parameter: `inspect.Parameter`'s name, kind and default (`empty` if none)."""
    __slots__ = ("name", "kind", "default")
    POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD = inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD
    VAR_POSITIONAL, KEYWORD_ONLY = inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.KEYWORD_ONLY
    VAR_KEYWORD, empty = inspect.Parameter.VAR_KEYWORD, inspect.Parameter.empty

    def __init__(self, name: str, kind, default):
        self.name, self.kind, self.default = name, kind, default


def plain(fn: Callable) -> bool:
    """A plain function, whose signature is its code object's (nothing wrapped, no `__signature__`)."""
    return type(fn) is types.FunctionType and not hasattr(fn, "__wrapped__") and not hasattr(fn, "__signature__")


def _layout(code) -> tuple:
    """(positional names, *varargs name or None, keyword-only names, **kwargs name or None)."""
    n, k, flags, names = code.co_argcount, code.co_kwonlyargcount, code.co_flags, code.co_varnames
    star = names[n + k] if flags & inspect.CO_VARARGS else None
    stars = names[n + k + (star is not None)] if flags & inspect.CO_VARKEYWORDS else None
    return names[:n], star, names[n:n + k], stars


def names(fn: Callable) -> tuple:
    """The parameter names, in `inspect.signature`'s order; raises as inspect does where there is none."""
    if not plain(fn):
        return tuple(inspect.signature(fn).parameters)
    positional, star, keyword, stars = _layout(fn.__code__)
    return positional + ((star,) if star else ()) + keyword + ((stars,) if stars else ())


def parameters(fn: Callable) -> list:
    """The parameters (name, kind, default), in `inspect.signature`'s order; raises as inspect does
    where there is no signature."""
    if not plain(fn):
        return list(inspect.signature(fn).parameters.values())
    code, P = fn.__code__, Parameter
    positional, star, keyword, stars = _layout(code)
    defaults, kwdefaults = fn.__defaults__ or (), fn.__kwdefaults__ or {}
    first = len(positional) - len(defaults)
    out = [P(name, P.POSITIONAL_ONLY if i < code.co_posonlyargcount else P.POSITIONAL_OR_KEYWORD,
             defaults[i - first] if i >= first else P.empty) for i, name in enumerate(positional)]
    if star is not None:
        out.append(P(star, P.VAR_POSITIONAL, P.empty))
    out += [P(name, P.KEYWORD_ONLY, kwdefaults.get(name, P.empty)) for name in keyword]
    if stars is not None:
        out.append(P(stars, P.VAR_KEYWORD, P.empty))
    return out
