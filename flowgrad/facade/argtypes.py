"""PyTorch's argument types, checked when a call has failed.

PyTorch's argument parser refuses a wrongly typed argument before computing (`torch.exp([1.])`,
`x.sum("a")`, `x.argmax(some_tensor)`: a TypeError naming the argument). flowgrad's ops take
their arguments as they are, so a wrong type surfaces later as whatever the array code raises.
`guard` wraps a facade's public function: the call runs unchecked, and only when it raises are the
arguments compared with the facade's table of expected types (parameter name -> kind); a
mistyped one replaces the failure by PyTorch's TypeError. Nothing is checked on a call that succeeds.

Where the facade lists a function's overloads (PyTorch's parser strings), a failed call that no
overload takes, and an argument a signature adapter refuses (`name~` in `signatures.py`, marked by
`parser_words`), get the parser's own error, chosen as it chooses: the one overload's TypeError where
the call's argument count fits only it, else its report of the call ("received an invalid combination
of arguments"). Without overloads a refused argument is worded from the table of kinds.

Kinds, as PyTorch's messages name them: "Tensor", "Number", "int", "float", "bool", "str",
"tuple of ints" (an int or a sequence of ints), "tuple of Tensors", "torch.dtype"; "a|b" takes either
(printed as the first); a trailing "?" also takes None.
"""
from __future__ import annotations

import functools
import inspect
import keyword
import linecache
import os
from typing import Callable

import numpy as np

from ..backend import Device
from ..messages.own import text
from ..parameters import names
from ..tensor import Tensor as _CoreTensor
from .argcheck import is_long, typename

_NUMBER = (int, float, complex, bool, np.number, np.bool_)
_NOT_NONE = ("torch.memory_format", "torch.Generator", "torch.layout")
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
    if kind == "int":     # (a 0-d integer tensor, not a bool one nor one of one element)
        return is_long(v) or (isinstance(v, Tensor) and v._data.ndim == 0 and v._data.dtype.kind in "iu"), None
    if kind == "bool":
        return isinstance(v, (bool, np.bool_)), None
    if kind == "str":
        return isinstance(v, str), None
    if kind == "torch.dtype":
        return isinstance(v, dtype_cls), None
    if kind == "torch.device":
        return isinstance(v, (str, Device)) or is_long(v), None
    if kind in _NOT_NONE:       # classes the kit does not know: only None is told apart
        return v is not None, None
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
        for i, e in enumerate(v):     # (PyTorch's parser reads a bool after the first element as an int)
            if not (is_long(e) or _one_element(e, Tensor, True) or (i and type(e) is bool)):
                return False, i
        return True, None
    raise ValueError(text("argtypes_unknown_kind", kind=kind))


def mistyped(name: str, sig: inspect.Signature, kinds: dict, args: tuple, kwargs: dict, policy, Tensor,
             dtype_cls, method: bool, refused: str | None = None) -> Exception | None:
    """PyTorch's TypeError for the first argument whose type its parameter's kind refuses, or
    None when every argument the table knows has the right type; the parameter `refused` takes no
    None whatever its kind."""
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
        if pname == refused:
            kind = kind.rstrip("?")
        if param.kind is param.VAR_POSITIONAL:
            # PyTorch's varargs: `x.permute(1, 0)` or `x.permute((1, 0))`, `meshgrid(a, b)` or `meshgrid([a, b])`
            if not value:
                continue
            if len(value) == 1 and (kind != "tuple of Tensors" or isinstance(value[0], (list, tuple))):
                value = value[0]
        if value is param.default and value is None:
            continue
        ok, pos = _fits(kind, value, Tensor, dtype_cls)
        if ok and pname == refused and kind == "tuple of ints" and not isinstance(value, (tuple, list)):
            ok = False      # (a lone int refused where only a sequence is taken: `name:ints` in signatures.py)
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


_KNOWN = ("Tensor", "Number", "int", "float", "bool", "str", "torch.dtype", "tuple of Tensors", "tuple of ints",
          "torch.memory_format", "torch.Generator", "torch.layout", "torch.device")
# the lines of PyTorch's report under an overload whose argument count fits the call
_BAD_TYPES = "      didn't match because some of the arguments have invalid types: "
_BAD_KEYWORDS = "      didn't match because some of the keywords were incorrect: "


def _reported(option: str) -> list[tuple[str, str]]:
    """(type, name) of each item of an overload string as PyTorch's report parses it: the last word
    is the name, so `bool keepdim = False` is of type `bool keepdim =` and `*` is an item."""
    items = []
    for item in option[1:-1].split(", "):
        cut = item.rfind(" ")
        items.append((item if cut < 0 else item[:cut], item[cut + 1:]))
    return items


def _reported_match(kind: str, value) -> bool:
    """Whether the report counts `value` as of the overload's type (by type name, as it does)."""
    accepted = {"float": ("float", "int", "long"), "int": ("int", "long")}.get(kind, (kind,))
    return typename(value) in accepted


def _described(value) -> str:
    if isinstance(value, (tuple, list)):
        inner = ", ".join(typename(e) for e in value)
        return f"{typename(value)} of " + (f"({inner}{',' if len(value) == 1 else ''})" if isinstance(value, tuple)
                                           else f"[{inner}]")
    return typename(value)


def _got(args: tuple, kwargs: dict) -> str:
    text_ = "".join(f"{typename(a)}, " for a in args) + "".join(f"{k}={typename(v)}, " for k, v in kwargs.items())
    return f"({text_[:-2] if args else text_})"


def _got_marked(items: list, args: tuple, kwargs: dict) -> str:
    """The call's types, those the overload's items refuse between `!`s."""
    values, out = list(args) + [kwargs.get(items[i][1]) if i < len(items) else None
                                for i in range(len(args), len(args) + len(kwargs))], ""
    for i, value in enumerate(values):
        mark = "" if i < len(items) and _reported_match(items[i][0], value) else "!"
        key = f"{items[i][1]}=" if i >= len(args) else ""
        out += f"{mark}{key}{_described(value)}{mark}, "
    return f"({out[:-2] if args else out})"


def _overload_signature(option: str) -> tuple[inspect.Signature, dict]:
    """An overload string as a signature and its parameters' kinds (those the kit knows)."""
    params, kinds, kw_only = [], {}, False
    for item in option[1:-1].split(", "):
        if item in ("*", ""):
            kw_only = kw_only or item == "*"
            continue
        decl, eq, default = item.partition(" = ")
        kind, _, pname = decl.rpartition(" ")
        pname += "_" if keyword.iskeyword(pname) else ""      # `from`, spelled `from_` in Python
        params.append(inspect.Parameter(pname, inspect.Parameter.KEYWORD_ONLY if kw_only else
                                        inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        default=(None if default == "None" else default) if eq else
                                        inspect.Parameter.empty))
        if kind in _KNOWN:
            kinds[pname] = kind + ("?" if default == "None" else "")
    return inspect.Signature(params), kinds


def _foreign(values, Tensor) -> bool:
    """Whether a tensor of another facade is among `values` (flowgrad's own error says so)."""
    return any(isinstance(v, _CoreTensor) and not isinstance(v, Tensor) for v in values)


def _taken(options: tuple, args: tuple, kwargs: dict, Tensor, dtype_cls) -> bool:
    """Whether an overload takes these arguments, as far as the kit knows their types."""
    for option in options:
        sig, kinds = _overload_signature(option)
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError:
            continue
        if all(kinds.get(k) is None or (v is None and sig.parameters[k].default is None) or
               _fits(kinds[k], v, Tensor, dtype_cls)[0] for k, v in bound.arguments.items()):
            return True
    return False


def parser_error(name: str, options: tuple, args: tuple, kwargs: dict, policy, Tensor, dtype_cls) -> Exception:
    """The TypeError PyTorch's parser raises for a call (`args` without self) that none of the
    overloads `options` takes: the one overload's own error where the call's argument count fits only
    it, else its report listing them all."""
    given = len(args) + len(kwargs)
    plausible = []
    for option in options:
        items = [i for i in option[1:-1].split(", ") if i not in ("*", "")]
        if len(items) - sum(" = " in i for i in items) <= given <= len(items):
            plausible.append(option)
    if len(plausible) == 1:
        sig, kinds = _overload_signature(plausible[0])
        err = mistyped(name, sig, kinds, args, kwargs, policy, Tensor, dtype_cls, False)
        if err is not None:
            return err
    if len(options) == 1:
        items = _reported(options[0])
        got = _got_marked(items, args, kwargs) if len(items) == given else _got(args, kwargs)
        return policy.errors.argument_combination_one(fn=name, got=got, option=options[0])
    lines = ""
    for option in options:
        items = _reported(option)
        lines += f" * {option}\n"
        if len(items) == given:
            names = [n for _, n in items[max(len(items) - len(kwargs), 0):]]
            unmatched = [k for k in kwargs if k not in names]
            lines += (_BAD_KEYWORDS + ", ".join(unmatched) if unmatched else
                      _BAD_TYPES + _got_marked(items, args, kwargs)) + "\n"
    return policy.errors.argument_combination(fn=name, got=_got(args, kwargs), options=lines)


def parser_words(err: Exception, argument: str) -> Exception:
    """`err` (a TypeError refusing `argument`: an explicit None, or an argument no overload takes
    beside the others given), marked for the guard to word as PyTorch's parser does."""
    err.parser_refuses = argument
    return err


def _deliberate(exc: BaseException) -> bool:
    """Whether `exc` comes from a `raise` statement of flowgrad's own code (not from a builtin or
    NumPy tripping over a value)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None or not tb.tb_frame.f_code.co_filename.startswith(_PACKAGE):
        return False
    return linecache.getline(tb.tb_frame.f_code.co_filename, tb.tb_lineno).lstrip().startswith("raise")


def _parameter_names(fn: Callable) -> tuple | None:
    """The names `inspect.signature(fn)` lists, in its order; None where there is no signature."""
    try:
        return names(fn)
    except (TypeError, ValueError):
        return None


def _unpack_error(name: str, unpacks: str, args: tuple, policy, Tensor) -> Exception | None:
    """PyTorch's error for an int list given as several positional arguments (`x.permute(0, 'a')`:
    its parser reads them as one where the first is an int) one of which is not an int (bools pass);
    None where every one is."""
    def int_like(v) -> bool:
        return isinstance(v, (int, np.integer)) or _one_element(v, Tensor, True)
    if len(args) < 2 or not int_like(args[0]):
        return None
    for pos, v in enumerate(args, start=1):
        if not int_like(v):
            return policy.errors.argument_unpack(fn=name, argument=unpacks, pos=pos, type=typename(v))
    return None


def guard(fn: Callable, name: str, kinds: dict, policy, Tensor, dtype_cls, method: bool = False,
          options: tuple = (), unpacks: str | None = None) -> Callable:
    """`fn`, raising PyTorch's TypeError in place of its own failure when an argument is mistyped or
    an explicit None refused (worded from `options`, PyTorch's overloads, where given); `fn` itself
    where no parameter has a kind in `kinds` and no overloads are given. `unpacks` names the int-list
    parameter PyTorch also takes as several positional ints."""
    names = _parameter_names(fn)
    if names is None:
        return fn
    if not any(n in kinds for n in (names[1:] if method else names)) and not options and unpacks is None:
        return fn
    sig = None      # inspected when a call first fails (importing flowgrad inspects nothing)

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        nonlocal sig
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            refused = getattr(exc, "parser_refuses", None)
            unpacked = unpacks and not kwargs and _unpack_error(name, unpacks, args[1:] if method else args,
                                                                 policy, Tensor)
            if unpacked:
                raise unpacked from None
            if options:     # PyTorch's overloads known: its parser's own error where none takes the call
                given = args[1:] if method else args
                if refused is None and (_taken(options, given, kwargs, Tensor, dtype_cls) or
                                        _foreign((*args, *kwargs.values()), Tensor)):
                    raise
                raise parser_error(name, options, given, kwargs, policy, Tensor, dtype_cls) from None
            if refused is None and isinstance(exc, TypeError) and _deliberate(exc):
                raise      # flowgrad's own TypeError already says what is wrong
            sig = sig or inspect.signature(fn)
            err = mistyped(name, sig, kinds, args, kwargs, policy, Tensor, dtype_cls, method, refused)
            if err is None:
                raise
            raise err from None

    checked.__guarded__ = fn
    return checked


def guard_all(namespace, names, kinds: dict, policy, Tensor, dtype_cls, method: bool = False,
              overrides: dict | None = None, overloads: dict | None = None, prefix: str = "",
              unpacking: dict | None = None) -> dict:
    """Guard each named function of `namespace` (a module's dict or a class), with `overrides`
    ("name.parameter" -> kind, None: unchecked) taking precedence for that function and `overloads`
    (name -> PyTorch's overload strings) wording its refused Nones, `unpacking` (name -> its int list
    taken as several positional ints) its unpacking errors; messages name a function
    `prefix + name` (PyTorch's parser calls `torch.linalg.det` `linalg_det`); a module's guarded
    functions are named as its own (so pickle finds them there). Returns {function: guarded}."""
    get = namespace.get if isinstance(namespace, dict) else (lambda n: getattr(namespace, n, None))
    put = namespace.__setitem__ if isinstance(namespace, dict) else (lambda n, v: setattr(namespace, n, v))
    home = namespace.get("__name__") if isinstance(namespace, dict) else None
    by_function = {}
    for key, kind in (overrides or {}).items():
        function, _, parameter = key.partition(".")
        by_function.setdefault(function, {})[parameter] = kind
    checked_kinds = {k: v for k, v in kinds.items() if v is not None}
    guarded = {}
    for n in names:
        fn = get(n)
        if fn is None or not callable(fn) or isinstance(fn, type) or hasattr(fn, "__guarded__"):
            continue
        own = by_function.get(n)
        table = checked_kinds
        if own:
            table = {**checked_kinds, **own}
            for k in [k for k, v in own.items() if v is None]:
                del table[k]
        new = guard(fn, prefix + n, table, policy, Tensor, dtype_cls, method, (overloads or {}).get(n, ()),
                    (unpacking or {}).get(n))
        if new is not fn:
            if home is not None:
                new.__module__, new.__qualname__ = home, n
            guarded[fn] = new
            put(n, new)
    return guarded
