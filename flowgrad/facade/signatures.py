"""A framework's parameter names over the op table: generated adapters.

A facade names each function's parameters as its framework documents them (`torch.sum(input, dim,
keepdim, *, dtype, out)`) in a table of signature strings; `adapt` turns one entry into a plain
Python function with exactly that signature, generated from source (as `ops/_declare.py` does), that
forwards to the op positionally: one ordinary call, no keyword translation at call time. Where the
entry's names already are the op's, the op itself is used.

Grammar of an entry: Python parameter syntax (`a, b=1, *, c=None`), plus
- `name@op_name`: the parameter reaches the op's parameter `op_name` (otherwise parameters pair by
  name, then the rest in order); several may reach one (PyTorch's overloads, `max(input, dim)` and
  `max(input, other)`): at most one of them is given;
- `*name`: PyTorch's size-like varargs (`x.view(2, 3)`, `x.view((2, 3))`, `x.view(size=(2, 3))`);
  `*name=()` may be left out (another overload's keyword stands in: `x.view(dtype=...)`);
- `out=None`: PyTorch's `out=`; written into when the op supports it, refused with a clear error
  otherwise;
- `name=default!`: a parameter flowgrad has not built, whatever the op takes;
- `name~`: a parameter to which PyTorch's parser gives no None (its overloads differ by it: `max(input)`
  and `max(input, dim)`, or its type is not optional): an explicit None is refused with PyTorch's
  TypeError (worded by the facade's argument-type guard, `argtypes.py`); with `=None` it may still be
  left out, its default then being `LEFT_OUT` and the op getting None. With a bool default
  (`keepdim~=False`) anything but a bool is refused too, as PyTorch's parser refuses it;
- `name:bool`: a bool parameter whatever its default: anything but a bool or None is refused (None
  too with `~`: `unbiased~:bool=None`; `stable:bool=False` takes None, as PyTorch's `bool?`).
- `name:Tensor`: a parameter that takes a tensor only (`torch.eq(2, x)` is refused, where the op itself
  would take a number in either place); `name:ints`: a sequence of ints, not a lone int
  (`torch.flip(x, 0)` is refused, where `x.flip(0)` is PyTorch's size-like varargs).
A parameter that reaches no op parameter is one flowgrad has not built: only its default is accepted
and anything else raises `argument_unsupported` (never accepted and ignored). An op of the form
`(self, *args, **kwargs)` (an in-place method handing its arguments on) takes the positional ones
through `*args` and the keyword-only ones by keyword. Each adapter keeps its generated source in
`__source__`.
"""
from __future__ import annotations

import builtins
import inspect
import types
from typing import Callable

import numpy as np

from ..messages.own import text
from ..parameters import parameters, plain
from .argcheck import typename
from .argtypes import parser_words
from ..tensor import Tensor as _CoreTensor

_NO_DEFAULT = object()


class _LeftOut:
    """The default of a `name~=None` parameter: the argument left out, told apart from an explicit None."""
    __slots__ = ()

    def __repr__(self) -> str:
        return "<left out>"


LEFT_OUT = _LeftOut()


class _Param:
    __slots__ = ("name", "target", "default", "kw_only", "var", "unbuilt", "no_none", "boolean", "tensor", "ints")

    def __init__(self, name, target, default, kw_only, var, unbuilt, no_none=False, annotation=""):
        self.name, self.target, self.default, self.kw_only, self.var = name, target, default, kw_only, var
        self.unbuilt, self.no_none, self.tensor, self.ints = unbuilt, no_none, annotation == "Tensor", annotation == "ints"
        self.boolean = annotation == "bool" or (no_none and isinstance(default, builtins.bool))


_LITERALS: dict = {}     # a default's text -> its value (a table repeats a few literals many times)


def parse(spec: str) -> list[_Param]:
    """The parameters of a signature string."""
    params, kw_only = [], False
    for token in (t.strip() for t in spec.split(",")):
        if not token:
            continue
        if token == "*":
            kw_only = True
            continue
        var = token.startswith("*")
        unbuilt = token.endswith("!")
        token = token.lstrip("*").rstrip("!")
        head, eq, default = token.partition("=")
        head, _, annotation = head.partition(":")
        no_none = "~" in head
        name, _, target = head.replace("~", "").strip().partition("@")
        if not eq:
            value = _NO_DEFAULT
        elif default in _LITERALS:
            value = _LITERALS[default]
        else:
            value = eval(default, {"__builtins__": {}})     # literals only
            if not isinstance(value, (list, dict, set)):   # (a mutable default stays the entry's own)
                _LITERALS[default] = value
        params.append(_Param(name, target or None, value, kw_only, var, unbuilt, no_none, annotation.strip()))
        kw_only = kw_only or var
    return params


def _passes_through(op_params: list[inspect.Parameter]) -> bool:
    """`(*args, **kwargs)` or `(self, *args, **kwargs)`: a wrapper that hands everything on."""
    kinds = [q.kind for q in op_params]
    return kinds[-2:] == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD] and len(kinds) <= 3


def _pair(name: str, params: list[_Param], op_params: list[inspect.Parameter]) -> dict:
    """PyTorch parameter name -> the op's parameter it feeds ("**": handed on by keyword); a name
    left out reaches nothing (not built)."""
    named = {q.name: q for q in op_params if q.kind not in (q.VAR_KEYWORD, q.VAR_POSITIONAL)}
    paired, taken = {}, set()
    for p in params:
        if p.unbuilt or p.name == "out":
            continue
        target = p.target or (p.name if p.name in named else None)
        if target is not None:
            if target not in named:
                raise AssertionError(text("adapter_no_parameter", name=name, target=target))
            paired[p.name] = named[target]
            taken.add(target)
    free = [q for q in op_params if q.name not in taken and q.kind is not q.VAR_KEYWORD]
    through = _passes_through(op_params)
    for p in params:
        if p.name in paired or p.name == "out" or p.unbuilt or p.target is not None:
            continue
        if free and free[0].kind is free[0].VAR_POSITIONAL and (not p.kw_only or p.var):
            paired[p.name] = free[0]          # a varargs parameter takes every positional one
        elif free and free[0].kind is free[0].POSITIONAL_OR_KEYWORD and not p.kw_only:
            paired[p.name] = free.pop(0)
        elif through:
            paired[p.name] = "**"
    missing = [q.name for q in free if q.default is q.empty and q.kind is not q.VAR_POSITIONAL
               and q not in paired.values()]
    if missing:
        raise AssertionError(text("adapter_unfed", name=name, missing=missing))
    return paired


def _matches(params: list[_Param], op: Callable) -> bool:
    """Whether the op already has exactly this signature (names, kinds, defaults; no annotations)."""
    if plain(op):
        if op.__annotations__:
            return False
        theirs = parameters(op)
        if [(p.name, _kind(p)) for p in params] != [(q.name, q.kind) for q in theirs]:
            return False
        return [None if p.default is _NO_DEFAULT or p.var else repr(p.default) for p in params] == \
            [None if q.default is q.empty else repr(q.default) for q in theirs]
    try:
        return str(inspect.signature(op)) == str(_signature(params))
    except (TypeError, ValueError):
        return False


def _kind(p: _Param):
    return (inspect.Parameter.VAR_POSITIONAL if p.var else
            inspect.Parameter.KEYWORD_ONLY if p.kw_only else inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _signature(params: list[_Param]) -> inspect.Signature:
    return inspect.Signature([inspect.Parameter(p.name, _kind(p), default=inspect.Parameter.empty
                                                if p.default is _NO_DEFAULT or p.var else p.default) for p in params])


def _call(name: str, params: list[_Param], paired: dict, op_params: list[inspect.Parameter]):
    """The op's arguments: positional while the op's parameters are filled in order, then keywords;
    (arguments, the size-like varargs parameter feeding the op's varargs or None)."""
    feeds: dict = {}
    for p in params:
        if p.name in paired:
            feeds.setdefault(paired[p.name] if paired[p.name] == "**" else paired[p.name].name, []).append(p)
    positional, keywords, gap, var_feed = [], [], False, None
    for q in op_params:
        src = feeds.get(q.name, [])
        if q.kind is q.VAR_POSITIONAL:
            if src and gap:
                raise AssertionError(text("adapter_varargs_gap", name=name))
            for p in src:
                if p.var:
                    var_feed = p.name
                    positional.append("*_args")
                else:
                    positional.append(p.name)
            gap = True
        elif q.kind is q.VAR_KEYWORD:
            continue
        elif not src:
            gap = True
        else:
            # several PyTorch parameters for one op parameter (overloads: `max(input, dim)` and
            # `max(input, other)`): the one given, the last in the table first
            value = src[0].name
            for p in src[1:]:
                value = f"({p.name} if {p.name} is not None else {value})"
            if q.kind is q.KEYWORD_ONLY or gap:
                if q.kind is q.POSITIONAL_ONLY:
                    raise AssertionError(text("adapter_positional_gap", name=name, parameter=q.name))
                keywords.append(f"{q.name}={value}")
            else:
                positional.append(value)
    keywords += [f"{p.name}={p.name}" for p in feeds.get("**", [])]
    return positional + keywords, var_feed


def _overloaded(paired: dict) -> list[tuple[list[str], bool]]:
    """Groups of PyTorch parameters that feed one op parameter (at most one of each may be given),
    each with whether the op needs one of them (its parameter has no default)."""
    groups: dict = {}
    for torch_name, q in paired.items():
        if q != "**" and q.kind is not q.VAR_POSITIONAL:
            groups.setdefault(q.name, (q, []))[1].append(torch_name)
    return [(g, q.default is q.empty) for q, g in groups.values() if len(g) > 1]


def adapt(name: str, spec: str, op: Callable, policy, *, writes_out: bool = False) -> Callable:
    """`op` under the signature `spec` (see the module docstring); the op itself where they agree."""
    params = parse(spec)
    checked = (p.var or p.unbuilt or p.no_none or p.boolean or p.tensor or p.ints or p.name == "out" for p in params)
    if not any(checked) and _matches(params, op):
        return op
    op_params = parameters(op)
    paired = _pair(name, params, op_params)
    env = {**_ENV, "_op": op, "_policy": policy, "_NAME": name}
    head, checks, nones, star = [], [], [], False
    for i, p in enumerate(params):
        if p.var:
            head += ["*_args", f"{p.name}=None"]
            star = True
            continue
        if p.kw_only and not star:
            head.append("*")
            star = True
        if p.default is _NO_DEFAULT:
            head.append(p.name)
        else:
            env[f"_d{i}"] = p.default
            head.append(f"{p.name}=_LEFT_OUT" if p.no_none and p.default is None else f"{p.name}=_d{i}")
        if p.ints:
            nones.append(f"    if not isinstance({p.name}, (tuple, list)):\n        _not_ints(_policy, _NAME, {p.name!r}, {p.name})")
        if p.tensor:
            nones.append(f"    if not isinstance({p.name}, _Tensor):\n        _not_tensor(_policy, _NAME, {p.name!r}, {p.name})")
        if p.boolean:
            # a bool: True and False pass two identity tests (None a third where PyTorch takes it)
            left = (f"    if {p.name} is _LEFT_OUT:\n        {p.name} = None\n    el"
                    if p.no_none and p.default is None else "    ")
            none = "" if p.no_none else f" and {p.name} is not None"
            nones.append(f"{left}if {p.name} is not False and {p.name} is not True{none} and not _is_bool({p.name}):\n"
                         f"        _not_bool(_policy, _NAME, {p.name!r}, {p.name})")
        elif p.no_none:
            # an explicit None refused; a `~=None` parameter left out reaches the op as None
            refuse = f"        _none_given(_policy, _NAME, {p.name!r})"
            nones.append(f"    if {p.name} is _LEFT_OUT:\n        {p.name} = None\n    elif {p.name} is None:\n{refuse}"
                         if p.default is None else f"    if {p.name} is None:\n{refuse}")
        if p.name == "out" or p.name in paired:
            continue
        if p.default is _NO_DEFAULT:
            raise AssertionError(text("adapter_unreached", name=name, parameter=p.name))
        test = "is not" if p.default is None or isinstance(p.default, builtins.bool) else "!="
        checks.append(f"    if {p.name} {test} _d{i}:\n"
                      f"        _unsupported(_policy, _NAME, {p.name!r}, {p.name}, _d{i})")
    for group, needed in _overloaded(paired):
        given = " + ".join(f"({n} is not None)" for n in group)
        checks.append(f"    if {given} > 1:\n        _twice(_policy, _NAME, {group[-1]!r})")
        if needed:
            checks.append(f"    if {given} == 0:\n        _missing(_policy, _NAME, {group[0]!r})")
    args, var_feed = _call(name, params, paired, op_params)
    call = f"_op({', '.join(args)})"
    if var_feed is not None:
        # PyTorch's size-like varargs: given positionally (ints or one sequence) or by keyword
        optional = any(p.var and p.default is not _NO_DEFAULT for p in params)     # `*size=()`
        checks.insert(0, f"    if {var_feed} is not None:\n        if _args:\n"
                         f"            _twice(_policy, _NAME, {var_feed!r})\n        _args = ({var_feed},)\n" +
                         ("" if optional else f"    elif not _args:\n        _missing(_policy, _NAME, {var_feed!r})"))
    body = f"    return {call}\n"
    if any(p.name == "out" for p in params):
        inputs = "".join(f"{p.name}, " for p in params if not p.var and p.name != "out")
        checks.append(f"    if out is not None:\n        return write_out(_NAME, out, lambda: {call}, ({inputs}))"
                      if writes_out else "    if out is not None:\n        _no_out(_policy, _NAME)")
    fname = name if name.isidentifier() else "_adapter"
    src = f"def {fname}({', '.join(head)}):\n" + "".join(c + "\n" for c in nones + checks) + body
    fn = _compiled_when_called(src, fname, head, env)
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = getattr(op, "__module__", None)
    fn.__doc__ = getattr(op, "__doc__", None)
    fn.__source__ = src
    return fn


_TEMPLATES: dict = {}    # (positional, varargs, keyword-only) counts -> a stand-in's code object


def _compiled_when_called(src: str, fname: str, head: list, env: dict) -> Callable:
    """A function with exactly the signature of `src`'s (names, kinds, defaults: the code object of
    a shared template with the names put in) that compiles `src` on its first call and takes its
    code: importing a facade compiles none of its adapters."""
    positional, keyword, defaults, kwdefaults, varargs, star = [], [], [], {}, None, False
    for item in head:
        if item == "*":
            star = True
            continue
        if item.startswith("*"):
            varargs, star = item[1:], True
            continue
        pname, eq, default = item.partition("=")
        value = env[default] if eq and default != "None" else None     # `_d3`, `_LEFT_OUT` or None
        (keyword if star else positional).append(pname)
        if eq and star:
            kwdefaults[pname] = value
        elif eq:
            defaults.append(value)
    key = (len(positional), varargs is not None, len(keyword))
    template = _TEMPLATES.get(key)
    if template is None:
        names = [f"a{i}" for i in range(len(positional))] + (["*v"] if varargs else ["*"] * bool(keyword)) + \
            [f"k{i}" for i in range(len(keyword))]
        module = compile(f"def f({', '.join(names)}):\n    return _first_call(_self, locals())\n", "<signature stand-in>",
                         "exec")
        template = _TEMPLATES[key] = next(c for c in module.co_consts if isinstance(c, types.CodeType))
    code = template.replace(co_varnames=tuple(positional + keyword + ([varargs] if varargs else [])), co_name=fname,
                            co_qualname=fname)
    fn = types.FunctionType(code, env, fname, tuple(defaults) or None)
    fn.__kwdefaults__ = kwdefaults or None
    env["_self"] = fn
    fn.__source__ = src
    return fn


def _first_call(fn: Callable, given: dict):
    """Compile the adapter's source, give `fn` its code and run the call (every argument bound)."""
    code = fn.__code__
    n, k = code.co_argcount, code.co_kwonlyargcount
    names = code.co_varnames
    ns: dict = {}
    exec(compile(fn.__source__, f"<signature of {fn.__name__}>", "exec"), fn.__globals__, ns)
    fn.__code__ = ns[code.co_name].__code__
    args = [given[a] for a in names[:n]]
    if code.co_flags & inspect.CO_VARARGS:
        args += given[names[n + k]]
    return fn(*args, **{a: given[a] for a in names[n:n + k]})


def _unsupported(policy, name: str, argument: str, value, default) -> None:
    raise policy.errors.argument_unsupported(name=name, argument=argument, value=value, default=default)


def _twice(policy, name: str, argument: str) -> None:
    raise policy.errors.argument_given_twice(name=name, argument=argument)


def _missing(policy, name: str, argument: str) -> None:
    raise policy.errors.argument_missing(fn=name, argument=argument)


def _none_given(policy, name: str, argument: str) -> None:
    raise parser_words(policy.errors.argument_none(fn=name, argument=argument), argument)


def _is_bool(value) -> bool:
    return isinstance(value, np.bool_)


def _not_bool(policy, name: str, argument: str, value) -> None:
    raise parser_words(policy.errors.argument_type(fn=name, argument=argument, expected="bool",
                                                   type=typename(value)), argument)


def _not_tensor(policy, name: str, argument: str, value) -> None:
    raise parser_words(policy.errors.argument_type(fn=name, argument=argument, expected="Tensor",
                                                   type=typename(value)), argument)


def _not_ints(policy, name: str, argument: str, value) -> None:
    raise parser_words(policy.errors.argument_type(fn=name, argument=argument, expected="tuple of ints",
                                                   type=typename(value)), argument)


def _no_out(policy, name: str) -> None:
    raise policy.errors.out_unsupported(name=name)


# ops whose `out=` must already have the result's dtype (PyTorch's kernel checks it instead of casting)
OUT_OF_RESULT_DTYPE = frozenset(("logcumsumexp",))


def write_out(name: str, out, compute: Callable, inputs: tuple):
    """PyTorch's `out=`: the result copied into `out` (cast to its dtype, except for the ops of
    OUT_OF_RESULT_DTYPE), refused when autograd would need it."""
    from ..autograd.mode import is_grad_enabled
    if is_grad_enabled() and builtins.any(isinstance(a, _CoreTensor) and a._requires_grad for a in (*inputs, out)):
        raise out.policy.errors.out_requires_grad(name=name)
    res = compute()
    if name in OUT_OF_RESULT_DTYPE and res._data.dtype != out._data.dtype:
        raise out.policy.errors.out_dtype_exact(want_scalar=res._data.dtype, got_scalar=out._data.dtype)
    if res._data.shape != out._data.shape:
        out._data = res._data.astype(out._data.dtype, copy=True)
    else:
        out._data[...] = res._data
    out._bump()
    return out


# what every adapter's source may name besides its op, policy, name and defaults
_ENV = {"_unsupported": _unsupported, "_no_out": _no_out, "_twice": _twice, "_missing": _missing,
        "_none_given": _none_given, "_not_bool": _not_bool, "_is_bool": _is_bool, "_not_tensor": _not_tensor,
        "_Tensor": _CoreTensor, "_not_ints": _not_ints, "_LEFT_OUT": LEFT_OUT, "write_out": write_out,
        "_first_call": _first_call}


def apply(namespace: dict, Tensor: type, functions: dict, methods: dict, writes_out: frozenset) -> dict:
    """Replace each function of `namespace` and each method of `Tensor` named in the tables by its
    adapter (methods' first parameter is `self`); {function replaced: its adapter}."""
    policy, module, replaced = Tensor.policy, namespace["__name__"], {}
    for name, spec in functions.items():
        op = namespace[name]
        op = getattr(op, "_out_target", op)
        fn = adapt(name, spec, op, policy, writes_out=name in writes_out)
        if fn is not op:
            fn.__module__ = module
            replaced[namespace[name]] = fn
        namespace[name] = fn
    for name, spec in methods.items():
        op = getattr(Tensor, name)
        fn = adapt(name, "self, " + spec, op, policy)
        if fn is not op:
            fn.__module__, fn.__qualname__ = Tensor.__module__, f"{Tensor.__name__}.{name}"
        setattr(Tensor, name, fn)
    return replaced
