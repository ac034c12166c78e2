"""The message tables against the code that raises from them, read with `ast` (nothing runs but the
tables): every kind has an exception or warning class and a template; every raise site,
`policy.errors.kind(...)` or `policy.error(kind, ...)`, names its kind literally (or as a choice
between literals) and its facts by keyword; each kind it names exists, and its template formats with exactly the facts that site passes, under
every facade's policy that defines it; no kind is defined that nothing raises; a facade's table
overrides only kinds that exist, besides the few it declares its own (`OWN_KINDS`)."""
from __future__ import annotations

import ast
import collections
import importlib
import pathlib
import re
import string

import numpy as np
import pytest

from flowgrad.autograd.policy import TORCH
from flowgrad.messages import TORCH_MESSAGES

ROOT = pathlib.Path(__file__).resolve().parent.parent / "flowgrad"
# `policy.error`, `t.policy.error`, `(policy or Tensor.policy).error`, `_policy(x).error`, `TORCH.error`
_RECEIVER = re.compile(r"(policy\w*|TORCH|PADDLE|ONEFLOW)(\(.*\))?$")
Site = collections.namedtuple("Site", "where kinds facts")


def _facade_policies() -> dict:
    """name -> (policy, kinds only that facade raises) for each facade present."""
    out = {"torch": (TORCH, frozenset())}
    for name in ("paddle", "oneflow"):
        try:
            mod = importlib.import_module(f"flowgrad.{name}._policy")
        except ModuleNotFoundError:
            continue
        out[name] = (getattr(mod, name.upper()), getattr(mod, "OWN_KINDS", frozenset()))
    return out


FACADES = _facade_policies()


# kinds that travel in data to their raise site, where no reading of the code can name them: (file,
# name of the variable holding the kind) -> the kinds it can hold
DYNAMIC = {
    # a view's marker: (kind, name) of a custom Function's output (autograd/function.py), else an op's name
    ("flowgrad/ops/indexing.py", "kind"): {"fn_view_inplace", "multi_view_inplace"},
}


DYNAMIC_USED: set = set()


class _Package:
    """The package's syntax trees, with what resolving a kind needs: each node's innermost
    function, whether a function is a method, and every call by the name it calls."""

    def __init__(self):
        self.trees = {p.relative_to(ROOT.parent).as_posix(): ast.parse(p.read_text(), str(p))
                      for p in sorted(ROOT.rglob("*.py"))}
        self.owner, self.methods, self.calls = {}, set(), collections.defaultdict(list)
        for tree in self.trees.values():
            for n in ast.walk(tree):
                if isinstance(n, ast.ClassDef):
                    self.methods.update(id(f) for f in n.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)))
                elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    for inner in ast.walk(n):   # outer functions come first: inner ones overwrite
                        self.owner[id(inner)] = n
                elif isinstance(n, ast.Call):
                    f = n.func
                    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
                    if name:
                        self.calls[name].append(n)

    def kinds(self, node, fn) -> set | None:
        """The kinds an argument can be: a string literal, a conditional between such, a local name
        every assignment of which is such, or a parameter whose default and every argument passed
        for it are such; None when it is anything else."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, ast.IfExp):
            a, b = self.kinds(node.body, fn), self.kinds(node.orelse, fn)
            return None if a is None or b is None else a | b
        if not isinstance(node, ast.Name) or fn is None:
            return None
        values = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == node.id for t in n.targets)]
        if not values:
            values = self._passed(fn, node.id)
        if not values:
            return None
        found = [self.kinds(v, None) for v in values]
        return None if any(k is None for k in found) else set().union(*found)

    def _passed(self, fn, param: str) -> list:
        """The default of `fn`'s parameter `param` and what each call of a function of that name passes."""
        args = fn.args
        positional = [a.arg for a in args.posonlyargs + args.args]
        defaults = dict(zip(positional[len(positional) - len(args.defaults):], args.defaults))
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        if param not in positional and param not in defaults:
            return []
        out = [defaults[param]] if param in defaults else []
        for call in self.calls[fn.name]:
            passed = {k.arg: k.value for k in call.keywords}
            index = positional.index(param) if param in positional else -1
            if id(fn) in self.methods and isinstance(call.func, ast.Attribute):
                index -= 1   # self is the object the method is called on
            if param in passed:
                value = passed[param]
            elif 0 <= index < len(call.args):
                value = call.args[index]
            else:
                continue
            caller = self.owner.get(id(call))
            if not (isinstance(value, ast.Name) and caller is not None and caller.name == fn.name):
                out.append(value)   # (an override passing its own parameter on adds no kind)
        return out


def _sites() -> tuple[list[Site], list[str]]:
    """Every `<policy>.error(...)` call in the package, and the ones whose kind or facts are not literal."""
    pkg = _Package()
    sites, bad = [], []
    for rel, tree in pkg.trees.items():
        for call in ast.walk(tree):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
                continue
            where = f"{rel}:{call.lineno}"
            named = call.func.value   # `<policy>.errors.<kind>(**facts)`
            if isinstance(named, ast.Attribute) and named.attr == "errors" and _RECEIVER.search(
                    ast.unparse(named.value)):
                if call.args or any(k.arg is None for k in call.keywords):
                    bad.append(f"{where}: {ast.unparse(call)}")
                else:
                    sites.append(Site(where, {call.func.attr}, frozenset(k.arg for k in call.keywords)))
                continue
            if not (call.func.attr == "error" and _RECEIVER.search(ast.unparse(call.func.value))):
                continue
            fn = pkg.owner.get(id(call))
            if fn is not None and fn.name == "error":   # a policy's own error() passing a kind on
                continue
            arg = call.args[0] if call.args else None
            kinds = pkg.kinds(arg, fn) if arg is not None else None
            if kinds is None and isinstance(arg, ast.Name) and (rel, arg.id) in DYNAMIC:
                kinds = DYNAMIC[rel, arg.id]
                DYNAMIC_USED.add((rel, arg.id))
            if kinds is None or len(call.args) != 1 or any(k.arg is None for k in call.keywords):
                bad.append(f"{where}: {ast.unparse(call)}")
                continue
            sites.append(Site(where, kinds, frozenset(k.arg for k in call.keywords)))
    return sites, bad


SITES, NOT_LITERAL = _sites()
SITES_BY_KIND: dict[str, list[Site]] = collections.defaultdict(list)
for _site in SITES:
    for _kind in _site.kinds:
        SITES_BY_KIND[_kind].append(_site)


class _Fact:
    """Stands for any fact that is not a shape or a dtype: prints, formats and has any attribute."""

    def __getattr__(self, name):
        if name.startswith("__"):
            return None     # e.g. an exception's __traceback__
        return self

    def __format__(self, spec: str) -> str:
        return "<fact>"

    def __repr__(self) -> str:
        return "<fact>"


def _dummy(name: str):
    if name.endswith("_shape"):
        return (2, 3)
    if name.endswith(("_ctype", "_scalar")):
        return np.dtype("float32")
    return _Fact()


def _well_formed(entry) -> None:
    cls, template = entry
    assert isinstance(cls, type) and issubclass(cls, Exception), cls   # warnings are Exceptions too
    assert isinstance(template, str)
    list(string.Formatter().parse(template))   # raises on a stray brace


def test_raise_sites_name_kinds_and_facts_literally():
    assert not NOT_LITERAL, "kinds must be literal and facts passed by keyword:\n" + "\n".join(NOT_LITERAL)


def test_dynamic_kinds_still_needed():
    assert DYNAMIC_USED == set(DYNAMIC), f"no longer needed: {sorted(set(DYNAMIC) - DYNAMIC_USED)}"


def test_sites_found():
    """The scan sees the core's raises (a broken pattern would make every other test vacuous)."""
    assert len(SITES) > 150
    assert {"second_backward", "gradcheck_nondet", "seed_shape", "item_numel"} <= set(SITES_BY_KIND)


@pytest.mark.parametrize("kind", sorted(TORCH_MESSAGES))
def test_every_kind_has_a_class_and_a_template(kind):
    _well_formed(TORCH_MESSAGES[kind])


def test_every_raised_kind_is_defined():
    own = set().union(*(own for _, own in FACADES.values()))
    missing = sorted(f"{s.where}: {k}" for s in SITES for k in s.kinds if k not in TORCH_MESSAGES and k not in own)
    assert not missing, "kinds raised but defined nowhere:\n" + "\n".join(missing)


def test_every_defined_kind_is_raised():
    unused = sorted(set(TORCH_MESSAGES) - set(SITES_BY_KIND))
    assert not unused, f"kinds no code raises: {unused}"


@pytest.mark.parametrize("kind", sorted(SITES_BY_KIND))
def test_templates_format_with_the_facts_each_site_passes(kind):
    defined = 0
    for facade, (policy, _) in FACADES.items():
        if kind not in policy.messages:
            continue
        defined += 1
        cls, _template = policy.messages[kind]
        for site in SITES_BY_KIND[kind]:
            try:
                exc = policy.error(kind, **{name: _dummy(name) for name in site.facts})
            except (KeyError, AttributeError, IndexError, ValueError) as e:
                pytest.fail(f"{facade}'s {kind!r} does not format with the facts {sorted(site.facts)} that "
                            f"{site.where} passes: {e!r}")
            assert type(exc) is cls
    assert defined, f"{kind!r} is in no facade's table"


@pytest.mark.parametrize("facade", sorted(set(FACADES) - {"torch"}))
def test_facade_tables_override_only_existing_kinds(facade):
    policy, own = FACADES[facade]
    assert not own & set(TORCH_MESSAGES), "a facade's own kinds must not shadow shared ones"
    extra = set(policy.messages) - set(TORCH_MESSAGES)
    assert extra == set(own), f"{facade} defines kinds that do not exist: {sorted(extra - set(own))}"
    for kind, entry in policy.messages.items():
        _well_formed(entry)
    raised = set(SITES_BY_KIND)
    assert set(own) <= raised, f"{facade}'s own kinds that nothing raises: {sorted(set(own) - raised)}"
