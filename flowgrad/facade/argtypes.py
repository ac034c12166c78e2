"""PyTorch's argument types, checked when a call has failed.

PyTorch's argument parser refuses a wrongly typed argument before computing (`torch.exp([1.])`,
`x.sum("a")`, `x.argmax(some_tensor)`: a TypeError naming the argument). flowgrad's ops take
their arguments as they are, so a wrong type surfaces later as whatever the array code raises.
`guard` wraps a facade's public function: the call runs unchecked, and only when it raises are the
arguments compared with the facade's table of expected types (parameter name -> kind); a
mistyped one replaces the failure by PyTorch's TypeError. Nothing is checked on a call that succeeds.

Kinds, as PyTorch's messages name them: "Tensor", "Number", "int", "float", "bool", "str",
"tuple of ints" (an int or a sequence of ints), "tuple of Tensors", "torch.dtype"; "a|b" takes either
(printed as the first); a trailing "?" also takes None.
"""
from __future__ import annotations

import functools
import inspect
import linecache
import os
from typing import Callable

import numpy as np

from ..messages.own import text
from .argcheck import is_long, typename

_NUMBER = (int, float, complex, bool, np.number, np.bool_)
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _one_element(v, Tensor, integral: bool) -> bool:
    return isinstance(v, Tensor) and v._data.size == 1 and (not integral or v._data.dtype.kind in "iub")


def _fits(kind: str, v, Tensor, dtype_cls) -> tuple[bool, int | None]:
    """(whether `v` is of `kind`, the position of the first wrong element of a sequence or None)."""
    if kind.endswith("?"):
        if v is None:
            return True, None
        kind = kind[:-1]
    if "|" in kind and kind != "Tensor|Number":
        return any(_fits(k, v, Tensor, dtype_cls)[0] for k in kind.split("|")), None
    if kind == "Tensor":
        return isinstance(v, Tensor), None
    if kind == "Tensor|Number":   # (a Tensor, or a Python or NumPy number)
        return isinstance(v, (Tensor, _NUMBER)), None
    if kind in ("Number", "float"):
        return isinstance(v, _NUMBER) or _one_element(v, Tensor, False), None
    if kind == "int":
        return is_long(v) or _one_element(v, Tensor, True), None
    if kind == "bool":
        return isinstance(v, (bool, np.bool_)), None
    if kind == "str":
        return isinstance(v, str), None
    if kind == "torch.dtype":
        return isinstance(v, dtype_cls), None
    if kind == "tuple of Tensors":
        if not isinstance(v, (tuple, list)):
            return False, None
        wrong = [i for i, e in enumerate(v) if not isinstance(e, Tensor)]
        return not wrong, (wrong[0] if wrong else None)
    if kind == "tuple of ints":
        if is_long(v) or _one_element(v, Tensor, True):
            return True, None
        if not isinstance(v, (tuple, list)):
            return False, None
        for i, e in enumerate(v):
            if not (is_long(e) or _one_element(e, Tensor, True)):
                return False, i
        return True, None
    raise ValueError(text("argtypes_unknown_kind", kind=kind))


def mistyped(name: str, sig: inspect.Signature, kinds: dict, args: tuple, kwargs: dict, policy, Tensor,
             dtype_cls, method: bool) -> Exception | None:
    """PyTorch's TypeError for the first argument whose type its parameter's kind refuses, or
    None when every argument the table knows has the right type."""
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        return None
    positional = list(sig.parameters)
    for pname, value in bound.arguments.items():
        param = sig.parameters[pname]
        if pname == "_args":   # a generated adapter's size-like varargs, named by the keyword after it
            pname = positional[positional.index(pname) + 1]
        kind = kinds.get(pname)
        if kind is None or param.kind is param.VAR_KEYWORD:
            continue
        if param.kind is param.VAR_POSITIONAL:
            # PyTorch's varargs: `x.permute(1, 0)` or `x.permute((1, 0))`, `meshgrid(a, b)` or `meshgrid([a, b])`
            if not value:
                continue
            if len(value) == 1 and (kind != "tuple of Tensors" or isinstance(value[0], (list, tuple))):
                value = value[0]
        if value is param.default and value is None:
            continue
        ok, pos = _fits(kind, value, Tensor, dtype_cls)
        if ok:
            continue
        expected = kind.rstrip("?").split("|")[0]
        index = positional.index(param.name)
        if pname in kwargs or index >= len(args):
            position = None
        else:
            position = index if method else index + 1
        if pos is not None:
            if position is None:
                return policy.errors.argument_element(fn=name, argument=pname, expected=expected,
                                                      type=typename(value[pos]), pos=pos)
            return policy.errors.argument_element_at(fn=name, argument=pname, position=position, expected=expected,
                                                     type=typename(value[pos]), pos=pos)
        if position is None:
            return policy.errors.argument_type(fn=name, argument=pname, expected=expected, type=typename(value))
        return policy.errors.argument_type_at(fn=name, argument=pname, position=position, expected=expected,
                                              type=typename(value))
    return None


def _deliberate(exc: BaseException) -> bool:
    """Whether `exc` comes from a `raise` statement of flowgrad's own code (not from a builtin or
    NumPy tripping over a value)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None or not tb.tb_frame.f_code.co_filename.startswith(_PACKAGE):
        return False
    return linecache.getline(tb.tb_frame.f_code.co_filename, tb.tb_lineno).lstrip().startswith("raise")


def guard(fn: Callable, name: str, kinds: dict, policy, Tensor, dtype_cls, method: bool = False) -> Callable:
    """`fn`, raising PyTorch's TypeError in place of its own failure when an argument is mistyped;
    `fn` itself where no parameter has a kind in `kinds`."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return fn
    names = list(sig.parameters)[1:] if method else list(sig.parameters)
    if not any(n in kinds for n in names):
        return fn

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            if isinstance(exc, TypeError) and _deliberate(exc):
                raise      # flowgrad's own TypeError already says what is wrong
            err = mistyped(name, sig, kinds, args, kwargs, policy, Tensor, dtype_cls, method)
            if err is None:
                raise
            raise err from None

    checked.__guarded__ = fn
    return checked


def guard_all(namespace, names, kinds: dict, policy, Tensor, dtype_cls, method: bool = False,
              overrides: dict | None = None) -> dict:
    """Guard each named function of `namespace` (a module's dict or a class), with `overrides`
    ("name.parameter" -> kind, None: unchecked) taking precedence for that function; a module's
    guarded functions are named as its own (so pickle finds them there). Returns {function: guarded}."""
    get = namespace.get if isinstance(namespace, dict) else (lambda n: getattr(namespace, n, None))
    put = namespace.__setitem__ if isinstance(namespace, dict) else (lambda n, v: setattr(namespace, n, v))
    home = namespace.get("__name__") if isinstance(namespace, dict) else None
    overrides = overrides or {}
    guarded = {}
    for n in names:
        fn = get(n)
        if fn is None or not callable(fn) or isinstance(fn, type) or hasattr(fn, "__guarded__"):
            continue
        own = {k.split(".", 1)[1]: v for k, v in overrides.items() if k.split(".", 1)[0] == n}
        table = {k: v for k, v in {**kinds, **own}.items() if v is not None}
        new = guard(fn, n, table, policy, Tensor, dtype_cls, method)
        if new is not fn:
            if home is not None:
                new.__module__, new.__qualname__ = home, n
            guarded[fn] = new
            put(n, new)
    return guarded
