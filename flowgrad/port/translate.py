"""Rewrite a script's uses of one framework's API into another's, keeping its comments and layout
(libcst). `port_source(code, "torch", "paddle")` returns the new code and what was translated or
left in place (each left use carries a `# flowgrad port: <why>` comment)."""
from __future__ import annotations

import ast
import collections
import inspect
import warnings
from dataclasses import dataclass, field
from typing import Any

with warnings.catch_warnings():   # libcst 1.0's metadata package warns about its own mypy_extensions use
    warnings.simplefilter("ignore", DeprecationWarning)
    import libcst as cst
    from libcst.metadata import PositionProvider

from ..messages.port import text
from . import helpers, layouts, semantics, table
from .naming import Entry, Facade, facade

COMMENT = "# flowgrad port: "
#: Reductions along a dim returning (values, indices) in torch and OneFlow, the values alone in paddle:
#: name -> the name of the one returning the indices; the fields of their named tuple.
_NAMED_TUPLES = {"max": "argmax", "min": "argmin"}
_FIELDS = frozenset({"values", "indices"})
#: Tensor methods of a weight that concern its graph, not its values.
_GRAPH_METHODS = frozenset({"register_hook", "retain_grad", "backward", "requires_grad_", "detach_"})
#: Tensor methods that keep their receiver's dtype and change only its shape.
_SHAPE_ONLY = frozenset({"unsqueeze", "squeeze", "reshape", "view", "flatten", "transpose", "permute", "t",
                         "expand", "contiguous", "clone", "detach"})


@dataclass
class Outcome:
    """What one port did: API -> count, for the APIs translated, left in place (with why) and the
    untyped receivers' methods assumed to be tensor methods and left."""
    translated: collections.Counter = field(default_factory=collections.Counter)
    left: collections.Counter = field(default_factory=collections.Counter)        # (api, why) -> count
    assumed: collections.Counter = field(default_factory=collections.Counter)     # (api, why) -> count
    flags: list = field(default_factory=list)                                      # (line, kind, why)
    added: collections.Counter = field(default_factory=collections.Counter)       # (api, helper) -> count

    def rate(self) -> float:
        done = sum(self.translated.values()) + sum(self.added.values())
        total = done + sum(self.left.values()) + sum(self.assumed.values())
        return 100.0 * done / total if total else 100.0


class Mapper:
    """API paths of the source framework -> the target's (relative paths: `nn.Linear`)."""

    def __init__(self, source: str, target: str):
        self.source, self.target = source, target
        self.src: Facade = facade(source)
        self.dst: Facade = facade(target)

    def module(self, path: str) -> str | None:
        for row in table.MODULES:
            s, t = row.get(self.source), row.get(self.target)
            if s is not None and (path == s or path.startswith(s + ".")):
                return None if t is None else t + path[len(s):]
        return path

    def path(self, path: str, keywords: frozenset[str] = frozenset()) -> tuple[str | None, str | None]:
        """(target path, None) or (None, why not)."""
        if path == "" or self.src.is_module(path):
            mapped = self.module(path)
            if mapped is None or (mapped and not self.dst.is_module(mapped)):
                return None, text("no_module", target=self.target, api=self._api(path))
            return mapped, None
        scheduler = self.scheduler(path)
        if scheduler is not None:
            return scheduler
        named = table.renamed(table.NAMES, self.source, self.target, path)
        if named != path:
            return (named, None) if named else (None, text("no_counterpart", target=self.target, api=self._api(path)))
        head, _, name = path.rpartition(".")
        same = (self.module(head) + "." if head else "") + name if self.module(head) is not None else None
        s = self.src.entry(path)
        if s is None:
            return None, None      # not an API of the source: nothing to port
        t = self.dst.entry(same) if same else None
        if t is None and same:
            same = self._case_insensitive(same)
            t = self.dst.entry(same) if same else None
        candidates = [c for c in self.dst.with_key(s.key) if not c.startswith("Tensor.")]
        if t is not None and s.same_operation(t) and not (t.key is None and s.key is not None and candidates):
            # (the same name reaching no core callable yields to the target's APIs reaching the source's:
            # paddle's elementwise `equal` is torch's `eq`, not torch's `equal`)
            candidates = list(dict.fromkeys([same, *candidates]))
        if candidates:
            return self.choose(s, candidates, keywords), None
        if t is not None:
            return None, text("other_meaning", target=self.target, api=f"{self.target}.{same}")
        return None, text("no_counterpart", target=self.target, api=self._api(path))

    def scheduler(self, path: str) -> tuple[str | None, str | None] | None:
        """A learning-rate scheduler's (target path, None) or (None, why); None for another API."""
        row = next((r for r in table.SCHEDULERS if r[self.source] == path), None)
        if row is None:
            return None
        if (self.source == "paddle") == (self.target == "paddle"):
            return row[self.target], None
        if self.source == "paddle":
            return None, text("scheduler_is_rate", api=self._api(path), source=self.source, target=self.target)
        return row[self.target], None

    def _case_insensitive(self, path: str) -> str | None:
        """The target's name that differs only in case (`nn.Conv2d` is paddle's `nn.Conv2D`)."""
        head, _, name = path.rpartition(".")
        holder = self.dst.lookup(head) if head else self.dst.module
        found = [n for n in dir(holder) if n.lower() == name.lower()] if holder is not None else []
        return (f"{head}.{found[0]}" if head else found[0]) if len(found) == 1 else None

    def method(self, name: str, keywords: frozenset[str] = frozenset()) -> tuple[str | None, str | None]:
        """A Tensor method's name in the target, or (None, why)."""
        s = self.src.entry("Tensor." + name)
        if s is None:
            return None, None
        t = self.dst.entry("Tensor." + name)
        if t is not None and callable(s.obj) and not callable(t.obj):
            return None, text("other_meaning", target=self.target, api=f"{self.target}.Tensor.{name}")
        candidates = [c for c in self.dst.with_key(s.key) if c.startswith("Tensor.")]
        if t is not None and s.same_operation(t):
            candidates = list(dict.fromkeys(["Tensor." + name, *candidates]))
        if candidates:
            return self.choose(s, candidates, keywords).partition(".")[2], None
        if t is not None:
            return None, text("other_meaning", target=self.target, api=f"{self.target}.Tensor.{name}")
        return None, text("no_counterpart", target=self.target, api=f"{self.source}.Tensor.{name}")

    def choose(self, s: Entry, candidates: list[str], keywords: frozenset[str]) -> str:
        """The candidate that can take every argument given, the one with the source's name first."""
        last = s.path.rpartition(".")[2]

        def score(path: str) -> tuple:
            t = self.dst.entry(path)
            fits = all(not s.feeds.get(k) or t.fed_by(s.feeds[k][0]) for k in keywords)
            kind = isinstance(t.obj, type) != isinstance(s.obj, type)
            return (not fits, kind, path.rpartition(".")[2] != last, len(path), path)
        return min(candidates, key=score)

    def _api(self, path: str) -> str:
        return f"{self.source}.{path}" if path else self.source


# ----------------------------------------------------------------------------- call arguments

def _literal(node: cst.BaseExpression) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(cst.Module([]).code_for_node(node))
    except (ValueError, SyntaxError, TypeError):
        return False, None


def _expr(value: Any) -> cst.BaseExpression:
    return cst.parse_expression(repr(value))


def _negate(node: cst.BaseExpression) -> cst.BaseExpression:
    ok, value = _literal(node)
    if ok and isinstance(value, bool):
        return cst.Name(str(not value))
    return cst.UnaryOperation(cst.Not(), node)


def map_arguments(mapper: Mapper, s: Entry, t: Entry, args: list[cst.Arg]) -> tuple[list[cst.Arg], list[str], list]:
    """The call's arguments for the target API, the source parameters it cannot take, and the
    keywords to apply as a Tensor method of the result (`requires_grad_`)."""
    if s.key is not None and s.key is t.key and [(p.name, p.kind, p.default) for p in s.params] == \
            [(p.name, p.kind, p.default) for p in t.params]:
        return args, [], []      # one core callable under one signature (torch / OneFlow's nn.LSTM)
    if _passes_through(t):
        return args, [], []      # `(*args, **kwargs)`: the target takes the call as written
    if _passes_through(s):
        return _keywords_only(mapper, t, args)
    given: list[tuple[str, cst.BaseExpression]] = []
    at: dict[str, int] = {}      # a positional argument's index
    positional = [p for p in s.params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    var = next((p for p in s.params if p.kind is p.VAR_POSITIONAL), None)
    extra: list[cst.BaseExpression] = []
    i = 0
    for a in args:
        if a.keyword is not None:
            given.append((a.keyword.value, a.value))
        elif a.star:
            return args, [], []     # *args / **kwargs: passed on as written
        elif i < len(positional):
            given.append((positional[i].name, a.value))
            at[positional[i].name] = i
            i += 1
        else:
            extra.append(a.value)
    if extra:
        if var is None:
            return args, [], []
        packed = cst.List([cst.Element(e) for e in extra])
        given.append((var.name, packed))
    out: dict[str, cst.BaseExpression] = {}
    keyword = {a.keyword.value for a in args if a.keyword is not None}
    after: list[tuple[str, cst.BaseExpression]] = []
    tuples: dict[str, dict[int, cst.BaseExpression]] = {}
    unmapped: list[str] = []
    for name, value in given:
        feed = s.feeds.get(name)
        renamed = _keyword_row(mapper, name) if t.param(name) is None else None
        if renamed is not None and t.accepts(renamed[0]):
            out[renamed[0]] = _negate(value) if renamed[1] else value
            continue
        if renamed is not None and mapper.dst.entry(f"Tensor.{name}_") is not None:
            after.append((name, value))     # paddle.ones has no stop_gradient: `.requires_grad_()` after
            continue
        targets = t.fed_by(feed[0]) if feed else []
        if feed and targets:
            if feed[1] is None and len(targets) == 1 and targets[0][1] is None:
                out[targets[0][0]] = value
            elif feed[1] is None and isinstance(value, (cst.Tuple, cst.List)) and \
                    len(value.elements) == len(targets) and all(ix is not None for _, ix in targets):
                for tname, ix in targets:
                    out[tname] = value.elements[ix].value
            elif feed[1] is not None and len(targets) == 1:
                tuples.setdefault(targets[0][0], {})[feed[1]] = value
            else:
                unmapped.append(name)
        elif t.param(name) is not None:
            out[name] = value      # the core does not say where it goes: the same name does
        elif _is_default(s, name, value):
            continue
        elif name in at and _free_positional(t, at[name], out, s):
            out[_free_positional(t, at[name], out, s)] = value   # same place, unknown to the core: as written
        else:
            unmapped.append(name)
            out[name] = value          # kept as written, with a comment
            keyword.add(name)
    for tname, parts in tuples.items():
        out[tname] = cst.Tuple([cst.Element(parts[k]) for k in sorted(parts)])
    named = {k for k, v in out.items() if any(v is value for n, value in given if n in keyword)}
    _pin_defaults(mapper, s, t, {n for n, _ in given}, out)
    named |= {k for k in out if k not in {n for n, _ in given} and not any(out[k] is v for _, v in given)}
    packed = {id(v) for n, v in given if var is not None and n == var.name}
    originals = {id(a.value): a for a in args}
    return _keep_layout(args, _arrange(t, out, named, packed), originals), unmapped, after


_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


def _bound(args, names: tuple[str, ...]) -> dict[str, cst.BaseExpression] | None:
    """A call's arguments by parameter name (positional ones in `names`' order); None where one is
    starred or unknown."""
    out: dict[str, cst.BaseExpression] = {}
    for i, arg in enumerate(args):
        if arg.star:
            return None
        name = arg.keyword.value if arg.keyword is not None else (names[i] if i < len(names) else None)
        if name not in names or name in out:
            return None
        out[name] = arg.value
    return out


def _passes_through(e: Entry) -> bool:
    kinds = {p.kind for p in e.params}
    return inspect.Parameter.VAR_POSITIONAL in kinds and inspect.Parameter.VAR_KEYWORD in kinds


def _keywords_only(mapper: Mapper, t: Entry, args: list[cst.Arg]) -> tuple[list[cst.Arg], list[str], list]:
    """A source API that takes `(*args, **kwargs)` says nothing of its parameters: positional
    arguments stay, keywords go by name or by a keyword row (torch's LSTM `batch_first=True` is
    paddle's `time_major=False`)."""
    out, unmapped = [], []
    for a in args:
        if a.keyword is None or t.accepts(a.keyword.value):
            out.append(a)
            continue
        row = _keyword_row(mapper, a.keyword.value)
        if row is not None and t.accepts(row[0]):
            out.append(a.with_changes(keyword=cst.Name(row[0]), value=_negate(a.value) if row[1] else a.value))
        else:
            out.append(a)
            unmapped.append(a.keyword.value)
    return out, unmapped, []


def _free_positional(t: Entry, index: int, out: dict, s: Entry) -> str | None:
    """The target's positional parameter at `index` when nothing else fills it and neither side
    says what it feeds (`nn.Flatten(0, 1)`: start_dim / start_axis)."""
    positional = [p for p in t.params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if index >= len(positional):
        return None
    p = positional[index]
    return p.name if p.name not in out and p.name not in t.feeds else None


def _keyword_row(mapper: Mapper, name: str) -> tuple[str, bool] | None:
    for row in table.KEYWORDS:
        src, dst = row.get(mapper.source), row.get(mapper.target)
        if src is not None and dst is not None and src[0] == name:
            return dst[0], src[1] != dst[1]
    return None


def _is_default(s: Entry, name: str, value: cst.BaseExpression) -> bool:
    p = s.param(name)
    ok, v = _literal(value)
    return p is not None and ok and p.default is not p.empty and v == p.default and type(v) is type(p.default)


def _pin_defaults(mapper: Mapper, s: Entry, t: Entry, given: set[str], out: dict) -> None:
    """Where the source's default of a parameter is not the target's for the same core parameter
    (or keyword row), write the source's default out: RMSprop's alpha=0.99 is paddle's rho=0.95,
    PyTorch's zero_grad(set_to_none=True) is OneFlow's zero_grad(set_to_none=False)."""
    for p in s.params:
        if p.name in given or p.default is p.empty or not isinstance(p.default, (int, float)):
            continue
        feed = s.feeds.get(p.name)
        row = _keyword_row(mapper, p.name) if t.param(p.name) is None else None
        if feed and feed[1] is None and len(t.fed_by(feed[0])) == 1 and t.fed_by(feed[0])[0][1] is None:
            name, value = t.fed_by(feed[0])[0][0], p.default
        elif row is not None:
            name, value = row[0], (not p.default) if row[1] else p.default
        elif not feed and t.param(p.name) is not None and isinstance(p.default, bool):
            name, value = p.name, p.default
        else:
            continue
        q = t.param(name)
        if q is not None and q.default not in (q.empty, None) and (q.default != value or type(q.default) is not
                                                                   type(value)) and name not in out:
            out[name] = _expr(value)


def _arrange(t: Entry, out: dict[str, cst.BaseExpression], named: set[str], packed: set[int]) -> list[cst.Arg]:
    """Positional while the target's parameters are filled in order (and were not given by keyword),
    keywords after. `packed`: the lists made of a varargs call's positional arguments
    (`zeros(2, 3)` -> shape=[2, 3]), spread again for a varargs target."""
    args: list[cst.Arg] = []
    rest = dict(out)
    for p in t.params:
        if p.kind is p.VAR_POSITIONAL:
            if p.name in rest:
                value = rest.pop(p.name)
                if id(value) in packed:
                    args += [cst.Arg(e.value) for e in value.elements]
                else:
                    args.append(cst.Arg(value))
            break
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) or p.name not in rest or p.name in named:
            break
        value = rest.pop(p.name)
        if id(value) in packed and len(value.elements) == 1 and not isinstance(
                value.elements[0].value, (cst.Integer, cst.Name, cst.BinaryOperation)):
            value = value.elements[0].value      # `zeros((2, 3))`: the sequence itself
        args.append(cst.Arg(value))
    for name, value in rest.items():
        args.append(cst.Arg(value, keyword=cst.Name(name), equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))))
    return _commas(args)


def _keep_layout(original: list[cst.Arg], new: list[cst.Arg], originals: dict[int, cst.Arg]) -> list[cst.Arg]:
    """The new arguments in the original's whitespace, comments and commas wherever an argument
    carries over (a call laid out one argument per line stays so)."""
    same = [(a.keyword.value if a.keyword else None, id(a.value)) for a in original]
    if same == [(a.keyword.value if a.keyword else None, id(a.value)) for a in new]:
        return original
    out = []
    for a in new:
        orig = originals.get(id(a.value))
        if orig is None:
            out.append(a)
            continue
        if a.keyword is None:
            out.append(orig.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT, value=a.value))
        else:
            equal = orig.equal if orig.keyword is not None else a.equal
            out.append(orig.with_changes(keyword=a.keyword, equal=equal, value=a.value))
    last_comma = original[-1].comma if original else cst.MaybeSentinel.DEFAULT
    for i, a in enumerate(out):
        if i == len(out) - 1:
            out[i] = a.with_changes(comma=last_comma)
        elif a.comma is cst.MaybeSentinel.DEFAULT:
            out[i] = a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return out


def _commas(args: list[cst.Arg]) -> list[cst.Arg]:
    out = []
    for i, a in enumerate(args):
        comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if i < len(args) - 1 else cst.MaybeSentinel.DEFAULT
        out.append(a.with_changes(comma=comma))
    return out


# ----------------------------------------------------------------------------- the rewrite

def dotted(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted(node.value)
        return f"{head}.{node.attr.value}" if head is not None else None
    return None


def _names(node: cst.CSTNode) -> list[cst.Name]:
    """The names an expression reads (not the attribute names after a dot)."""
    found: list[cst.Name] = []

    class _Collect(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.append(n)

        def visit_Attribute(self, n: cst.Attribute) -> bool:
            n.value.visit(self)
            return False

        def visit_Arg(self, n: cst.Arg) -> bool:
            n.value.visit(self)
            return False

    node.visit(_Collect())
    return found


class _Returns(cst.CSTVisitor):
    """The names each `return a, b` of one function gives (None for what is not a name), not counting
    its nested functions' returns."""

    def __init__(self, function: cst.FunctionDef):
        super().__init__()
        self.function, self.found = function, []

    def visit_FunctionDef(self, inner: cst.FunctionDef) -> bool:
        return inner is self.function

    def visit_Return(self, ret: cst.Return) -> None:
        values = ret.value.elements if isinstance(ret.value, cst.Tuple) else [ret.value]
        self.found.append([e.value.value if isinstance(getattr(e, "value", e), cst.Name) else None
                           for e in values if e is not None])


class _Bindings(cst.CSTVisitor):
    """Import aliases of the source framework (name -> relative path, "" for the framework itself),
    and the names bound to calls of its APIs or to instances of classes deriving from its classes."""

    def __init__(self, framework: str):
        self.framework = framework
        self.facade = facade(framework)
        self.aliases: dict[str, str] = {}
        self.renamed: dict[str, str] = {}   # a local name the port's imports bind under another name
        self.objects: dict[str, str] = {}   # a name assigned an API (`DataLoader = torch.utils.data.DataLoader`)
        self.foreign: set[str] = set()      # names other imports bind (`np`): their methods are not tensors'
        self.calls: dict[str, str] = {}     # variable -> dotted callee
        self.classes: dict[str, str] = {}   # user class -> dotted base
        self.functions_used = False         # whether a user class derives from autograd.Function
        self.returns: dict[str, list[str | None]] = {}     # user function -> the names its `return a, b` gives
        self._unpacked: list[tuple[list[str | None], str]] = []   # `a, b = f(...)`: (targets, f)

    def _rel(self, module: str) -> str | None:
        if module == self.framework:
            return ""
        if module.startswith(self.framework + "."):
            return module[len(self.framework) + 1:]
        return None

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            name = dotted(alias.name)
            rel = self._rel(name or "")
            if rel is None:
                self.foreign.add(alias.asname.name.value if alias.asname else (name or "").split(".")[0])
                continue
            if alias.asname is not None:
                self.aliases[alias.asname.name.value] = rel
            else:
                self.aliases[name.split(".")[0]] = ""
                self.renamed[self.framework] = ""   # `import torch` binds `torch`: the port binds `paddle`

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return
        rel = self._rel(dotted(node.module) or "")
        if rel is None:
            self.foreign |= {a.asname.name.value if a.asname else a.name.value for a in node.names}
            return
        for alias in node.names:
            local = alias.asname.name.value if alias.asname else alias.name.value
            self.aliases[local] = f"{rel}.{alias.name.value}" if rel else alias.name.value

    def visit_Assign(self, node: cst.Assign) -> None:
        if isinstance(node.value, cst.Attribute) and len(node.targets) == 1 and \
                isinstance(node.targets[0].target, cst.Name):
            path = _rel_of(self, dotted(node.value) or "")
            if path and self.facade.is_module(path):      # `nn = torch.nn`: another alias
                self.aliases[node.targets[0].target.value] = path
            elif path:    # `DataLoader = torch.utils.data.DataLoader`: the name calls that API
                self.objects[node.targets[0].target.value] = path
        if isinstance(node.value, cst.Call) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            if (dotted(node.value.func) or "").split(".")[0] in self.foreign:
                self.foreign.add(node.targets[0].target.value)     # `rng = np.random.default_rng(0)`
            callee = dotted(node.value.func)
            if callee is not None:
                self.calls[node.targets[0].target.value] = callee
        if isinstance(node.value, cst.Call) and isinstance(node.value.func, cst.Name) and len(node.targets) == 1 and \
                isinstance(node.targets[0].target, cst.Tuple):
            self._unpacked.append(([e.value.value if isinstance(e.value, cst.Name) else None
                                    for e in node.targets[0].target.elements], node.value.func.value))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        returns = _Returns(node)
        node.visit(returns)
        if len(returns.found) == 1:
            self.returns[node.name.value] = returns.found[0]

    def leave_Module(self, original: cst.Module) -> None:
        """`model, opt = make()` where `make` ends in `return model, opt`: the names are bound as the
        function's names are."""
        for targets, function in self._unpacked:
            given = self.returns.get(function)
            if given is None or len(given) != len(targets):
                continue
            for target, name in zip(targets, given):
                if target is not None and name in self.calls:
                    self.calls.setdefault(target, self.calls[name])

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        for base in node.bases:
            name = dotted(base.value)
            if name is not None:
                self.classes[node.name.value] = name
                break


class Rewriter(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, mapper: Mapper, bindings: _Bindings, outcome: Outcome, flags: dict[int, list[str]]):
        super().__init__()
        self.m, self.b, self.out, self.flags = mapper, bindings, outcome, flags
        self.chains: dict[int, str] = {}          # id(original Attribute/Name) -> source path
        self.notes: list[list[str]] = [[]]        # comments for the statement being rewritten
        self.roots = [a for a, p in bindings.aliases.items() if p == ""]
        self.assigned: str | None = None          # the name the statement being rewritten assigns
        self.then: list[cst.BaseSmallStatement] = []   # statements the port adds after it
        self.integer_tensors: set[str] = set()    # names bound to integer tensors made from literal values
        self.linear_weights: set[str] = set()     # Linear weights named statically, laid out transposed
        self._stores: set[int] = set()            # id() of the assignment targets (written, not read)
        self._fields: dict[int, str] = {}         # id(call) -> the field of its named tuple read
        self._one_field: set[int] = set()         # calls rewritten to give that field alone
        self._import_left: dict[int, collections.Counter] = {}   # id(ImportFrom) -> what it left
        self._rewritten_runs = 0                  # packed-sequence runs rewritten to sequence_length=
        self.helpers: dict[str, helpers.Helper] = {}   # the functions the port writes into the file

    # -- statements: comments above the line that needs them
    def visit_SimpleStatementLine(self, node) -> None:
        self._compound_visit(node)
        body = node.body[0] if len(node.body) == 1 else None
        self.assigned = body.targets[0].target.value if isinstance(body, cst.Assign) and len(body.targets) == 1 \
            and isinstance(body.targets[0].target, cst.Name) else None
        self.then: list[cst.BaseSmallStatement] = []
        self._left_before = collections.Counter(self.out.left)

    def leave_SimpleStatementLine(self, original, updated):
        if len(updated.body) == 1 and isinstance(updated.body[0], cst.ImportFrom):
            self._import_left[id(updated.body[0])] = self.out.left - self._left_before
        updated = self._annotate(updated)
        then, self.then = self.then, []
        if not then:
            return updated
        return cst.FlattenSentinel([updated, *(cst.SimpleStatementLine(body=[stmt]) for stmt in then)])

    def _compound_visit(self, node) -> None:
        line = self.get_metadata(PositionProvider, node).start.line
        self.notes.append(list(self.flags.pop(line, [])))

    def _compound_leave(self, original, updated):
        return self._annotate(updated)

    visit_For = visit_While = visit_If = visit_With = visit_FunctionDef = visit_ClassDef = _compound_visit
    leave_For = leave_While = leave_If = leave_With = leave_FunctionDef = leave_ClassDef = _compound_leave

    def _annotate(self, updated):
        notes = list(dict.fromkeys(self.notes.pop()))
        if not notes:
            return updated
        lines = [cst.EmptyLine(comment=cst.Comment(COMMENT + n)) for n in notes]
        return updated.with_changes(leading_lines=[*updated.leading_lines, *lines])

    def note(self, why: str) -> None:
        self.notes[-1].append(why)

    # -- imports
    def leave_Import(self, original, updated):
        names = []
        for before, alias in zip(original.names, updated.names):
            name = dotted(before.name)
            rel = self.b._rel(name or "")
            if rel is None:
                names.append(alias)
                continue
            target = self.m.module(rel)
            if target is None or (target and not self.m.dst.is_module(target)):
                self._left(self.m._api(rel), text("no_module", target=self.m.target, api=self.m._api(rel)))
                names.append(alias)
                continue
            self.out.translated[f"import {name}"] += 1
            names.append(alias.with_changes(name=cst.parse_expression(self.m.target + (f".{target}" if target else ""))))
        return updated.with_changes(names=names)

    def leave_ImportFrom(self, original, updated):
        if updated.relative or updated.module is None or isinstance(updated.names, cst.ImportStar):
            return updated
        rel = self.b._rel(dotted(updated.module) or "")
        if rel is None:
            return updated
        target_mod = self.m.module(rel)
        if target_mod is None or (target_mod and not self.m.dst.is_module(target_mod)):
            self._left(self.m._api(rel), text("no_module", target=self.m.target, api=self.m._api(rel)))
            return updated
        names = []
        for alias in updated.names:
            path = f"{rel}.{alias.name.value}" if rel else alias.name.value
            new, why = self.m.path(path)
            if new is None:
                if why:
                    self._left(self.m._api(path), why)
                names.append(alias)
                continue
            head, _, last = new.rpartition(".")
            if head != target_mod:
                self._left(self.m._api(path), text("moved", target=self.m.target, api=f"{self.m.target}.{new}"))
                names.append(alias)
                continue
            self.out.translated[self.m._api(path)] += 1
            local = alias.asname.name.value if alias.asname else alias.name.value
            asname = None if last == local else cst.AsName(name=cst.Name(local))
            names.append(alias.with_changes(name=cst.Name(last), asname=asname))
        module = cst.parse_expression(self.m.target + (f".{target_mod}" if target_mod else ""))
        return updated.with_changes(module=module, names=names)

    # -- attribute chains rooted at an alias
    def _source_path(self, node) -> str | None:
        name = dotted(node)
        if name is None:
            return None
        root, _, rest = name.partition(".")
        base = self.b.aliases.get(root)
        if base is None:
            return None
        return ".".join(p for p in (base, rest) if p)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if node.attr.value in _FIELDS and isinstance(node.value, cst.Call) and \
                isinstance(node.value.func, cst.Attribute) and node.value.func.attr.value in _NAMED_TUPLES and \
                self.m.target == "paddle" and self.m.source != "paddle":
            self._fields[id(node.value)] = node.attr.value
        path = self._source_path(node)
        if path is None:
            return True
        self.chains[id(node)] = path
        return False

    def leave_Attribute(self, original, updated):
        if id(original.value) in self._one_field:
            self._one_field.discard(id(original.value))
            return updated.value          # `x.max(dim=1).values` became `x.max(axis=1)`
        path = self.chains.get(id(original))
        if path is None:
            return self._attribute_of_object(updated)
        if self._pending_call == id(original):
            return updated     # the call renders it, knowing its keywords
        return self._render(original, path) or updated

    _pending_call: int | None = None

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and self._source_path(node.func) is not None:
            self._pending_call = id(node.func)

    def _render(self, original, path: str, keywords: frozenset[str] = frozenset()) -> cst.BaseExpression | None:
        api = self.m._api(path)
        new, why = self.m.path(path, keywords)
        if new is None:
            if why:
                self._left(api, why)
            return None
        root = dotted(original).split(".")[0]
        base = self.b.aliases[root]
        local = self.m.target if root in self.b.renamed else root
        base_t = self.m.module(base) if (base == "" or self.m.src.is_module(base)) else None
        if base_t is not None and (base_t == "" or new == base_t or new.startswith(base_t + ".")):
            rest = new[len(base_t):].lstrip(".") if base_t else new
            text_ = local + ("." + rest if rest else "")
        elif self.roots:
            text_ = f"{self.m.target if self.roots[0] in self.b.renamed else self.roots[0]}.{new}"
        else:
            self._left(api, text("no_root_import", target=self.m.target, api=f"{self.m.target}.{new}"))
            return None
        self.out.translated[api] += 1
        return cst.parse_expression(text_)

    def leave_Name(self, original, updated):
        if original.value in self.b.renamed and self.b.aliases.get(original.value) == "":
            return updated.with_changes(value=self.m.target)   # the bare module, passed around
        return updated

    # -- calls
    def leave_Call(self, original, updated):
        field = self._fields.pop(id(original), None)
        if field is not None:
            one = self._one_of_named_tuple(updated, field)
            if one is not None:
                self._one_field.add(id(original))
                self._pending_call = None
                return one
        func = original.func
        path = self._source_path(func)
        written = None if path is None else helpers.helper(self.m.source, self.m.target, path)
        if written is not None:
            self._pending_call = None
            self._write(written, self.m._api(path))
            return updated.with_changes(func=cst.Name(written.name))
        if path is not None and isinstance(func, cst.Attribute):
            self._pending_call = None
            keywords = frozenset(a.keyword.value for a in original.args if a.keyword is not None)
            scheduler = self.m.target == "paddle" and self.m.scheduler(path) is not None
            if scheduler and self._scheduler_optimizer(original) is None:
                api = self.m._api(path)
                self._left(api, text("scheduler_form", api=api, target=self.m.target))
                return updated
            rendered = self._render(func, path, keywords)
            if rendered is None:
                return updated
            updated = updated.with_changes(func=rendered)
            new, _ = self.m.path(path, keywords)
            if scheduler:
                return self._scheduler(updated, self.m.dst.entry(new), self.m._api(path))
            if path == "pow" and len(updated.args) == 2:
                updated = self._cast_exponent(updated, updated.args[0].value)
            return self._arguments(updated, self.m.src.entry(path), self.m.dst.entry(new), self.m._api(path))
        if path is None and isinstance(func, cst.Name):
            path = self.b.objects.get(func.value)
        if path is not None and isinstance(func, cst.Name):
            new, why = self.m.path(path)
            if new is None:
                if why:
                    self._left(self.m._api(path), why)
                return updated
            return self._arguments(updated, self.m.src.entry(path), self.m.dst.entry(new), self.m._api(path))
        shim_call = self._shim_call(updated)
        if shim_call is not None:
            return shim_call
        if isinstance(updated.func, cst.Attribute):
            return self._call_of_object(updated) or self._weight_method(self._method_call(original, updated))
        if isinstance(updated.func, cst.Name) and updated.func.value == "print":
            return updated.with_changes(args=[a.with_changes(value=self._read_weight(a.value)) for a in updated.args])
        return updated

    # -- packed sequences: paddle's RNNs take the lengths as sequence_length=
    def leave_IndentedBlock(self, original, updated):
        return updated.with_changes(body=self._sequence_lengths(list(updated.body)))

    def leave_Module(self, original, updated):
        module = self._unused_imports(updated.with_changes(body=self._sequence_lengths(list(updated.body))))
        return self._write_helpers(module)

    def _write_helpers(self, module: cst.Module) -> cst.Module:
        """The functions the port added, defined after the last import at the top level, each under
        a comment saying so."""
        if not self.helpers:
            return module
        body = list(module.body)
        at = max((i + 1 for i, stmt in enumerate(body) if isinstance(stmt, cst.SimpleStatementLine) and
                  isinstance(stmt.body[0], (cst.Import, cst.ImportFrom))), default=0)
        root = (self.m.target if self.roots[0] in self.b.renamed else self.roots[0]) if self.roots else None
        added = [] if root is not None else list(cst.parse_module(f"import {self.m.target}\n").body)
        apis = {name: api for api, name in sorted(self.out.added, reverse=True)}
        for name in sorted(self.helpers, key=lambda n: (n in apis, n)):     # what the others call first
            (function,) = cst.parse_module(self.helpers[name].code.replace("{root}", root or self.m.target)).body
            why = text(self.helpers[name].why, api=apis[name], target=self.m.target) if name in apis else \
                text("added_needed", target=self.m.target)
            comment = cst.Comment(COMMENT + why)
            added.append(function.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine(),
                                                              cst.EmptyLine(comment=comment)]))
        body[at:at] = added
        return module.with_changes(body=body)

    def _unused_imports(self, module: cst.Module) -> cst.Module:
        """A `from <source framework> import ...` left in place loses the names the port no longer
        uses (the packing functions rewritten away, the functions the port writes into the file), the
        statement too when none is left."""
        if not self._rewritten_runs and not self.helpers:
            return module
        used = {n.value for stmt in module.body if not (isinstance(stmt, cst.SimpleStatementLine) and
                                                      isinstance(stmt.body[0], cst.ImportFrom)) for n in _names(stmt)}
        used -= set(self.helpers)      # defined in the file now
        body = []
        for stmt in module.body:
            imp = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            if not isinstance(imp, cst.ImportFrom) or id(imp) not in self._import_left or \
                    isinstance(imp.names, cst.ImportStar):
                body.append(stmt)
                continue
            names = [a for a in imp.names if (a.asname.name.value if a.asname else a.name.value) in used]
            if names:
                names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                body.append(stmt.with_changes(body=[imp.with_changes(names=names)]) if len(names) < len(imp.names)
                            else stmt)
            else:
                self.out.left.subtract(self._import_left[id(imp)])
                self.out.left += collections.Counter()
        return module.with_changes(body=body)

    def _sequence_lengths(self, body: list) -> list:
        """`p = pack_padded_sequence(x, lengths, ...)`, `out, state = rnn(p, ...)`, `out, _ =
        pad_packed_sequence(out, ...)` -> `out, state = rnn(x, ..., sequence_length=lengths)` going to
        paddle, whose RNNs run a padded batch by its lengths (outputs past a length are zero, each
        final state is at its sequence's last step, as unpacking gives them)."""
        if self.m.target != "paddle" or self.m.source == "paddle":
            return body
        i = 0
        while i + 2 < len(body):
            run = self._packed_run(*body[i:i + 3])
            if run is not None:
                body[i:i + 3] = run
            i += 1
        return body

    def _assign(self, stmt) -> cst.Assign | None:
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign) \
                and len(stmt.body[0].targets) == 1 and isinstance(stmt.body[0].value, cst.Call):
            return stmt.body[0]
        return None

    def _packed_run(self, first, second, third) -> list | None:
        pack, run, unpack = self._assign(first), self._assign(second), self._assign(third)
        if pack is None or run is None or unpack is None or \
                self._source_path(pack.value.func) != "nn.utils.rnn.pack_padded_sequence" or \
                self._source_path(unpack.value.func) != "nn.utils.rnn.pad_packed_sequence":
            return None
        given = _bound(pack.value.args, ("input", "lengths", "batch_first", "enforce_sorted"))
        undone = _bound(unpack.value.args, ("sequence", "batch_first", "padding_value", "total_length"))
        packed, out = pack.targets[0].target, run.targets[0].target
        rnn_args = list(run.value.args)
        if given is None or undone is None or "input" not in given or "lengths" not in given or \
                not isinstance(packed, cst.Name) or not rnn_args or rnn_args[0].keyword is not None or \
                not rnn_args[0].value.deep_equals(packed) or \
                "sequence" not in undone or not undone["sequence"].deep_equals(
                    out.elements[0].value if isinstance(out, cst.Tuple) else out) or \
                _literal(undone.get("padding_value", cst.Integer("0"))) not in ((True, 0), (True, 0.0)):
            return None
        unpacked = unpack.targets[0].target
        if isinstance(unpacked, cst.Tuple) and len(unpacked.elements) == 2:
            result, lengths_name = unpacked.elements[0].value, unpacked.elements[1].value
        else:
            return None
        target = out.with_changes(elements=[out.elements[0].with_changes(value=result), *out.elements[1:]]) \
            if isinstance(out, cst.Tuple) else result
        lengths = given["lengths"]
        call = run.value.with_changes(args=_commas([rnn_args[0].with_changes(value=given["input"]), *rnn_args[1:],
                                                    cst.Arg(lengths, keyword=cst.Name("sequence_length"),
                                                            equal=_EQUAL)]))
        kept = [line for stmt in (first, second, third) for line in stmt.leading_lines
                if not (line.comment is not None and line.comment.value.startswith(COMMENT))]
        if "total_length" not in undone:
            kept.append(cst.EmptyLine(comment=cst.Comment(COMMENT + text("sequence_length_total"))))
        for api in ("pack_padded_sequence", "pad_packed_sequence"):
            key = next((k for k in self.out.left if k[0] == f"{self.m.source}.nn.utils.rnn.{api}"), None)
            if key is not None:
                self.out.left[key] -= 1
                self.out.left += collections.Counter()      # drops a count that reached zero
            self.out.translated[f"{self.m.source}.nn.utils.rnn.{api} (as sequence_length=)"] += 1
        self._rewritten_runs += 1
        stmts = [second.with_changes(body=[run.with_changes(targets=[run.targets[0].with_changes(target=target)],
                                                            value=call)], leading_lines=kept)]
        if not (isinstance(lengths_name, cst.Name) and lengths_name.value == "_"):
            stmts.append(cst.SimpleStatementLine(body=[cst.Assign(targets=[cst.AssignTarget(lengths_name)],
                                                                  value=lengths)]))
        return stmts

    # -- Linear weights, [out, in] in torch and OneFlow, [in, out] in paddle
    def _is_weight(self, node: cst.BaseExpression) -> bool:
        return bool(self.linear_weights) and layouts.norm(cst.Module([]).code_for_node(node)) in self.linear_weights

    def _read_weight(self, node: cst.BaseExpression) -> cst.BaseExpression:
        """A Linear weight whose values are read: the same values in the source's layout (`w.T`)."""
        if not self._is_weight(node):
            return node
        self.out.translated[f"{self.m.source}.nn.Linear.weight (read transposed)"] += 1
        return cst.Attribute(value=node, attr=cst.Name("T"))

    def _weight_method(self, call: cst.BaseExpression) -> cst.BaseExpression:
        """A method of a Linear weight: `copy_(v)` copies `v.T`; another in-place method keeps the
        weight (elementwise with numbers) or is flagged (with a tensor argument); any other method
        reads the weight's values transposed."""
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)):
            return call
        receiver, name = call.func.value, call.func.attr.value
        data = isinstance(receiver, cst.Attribute) and receiver.attr.value == "data" and self._is_weight(receiver.value)
        if not (data or self._is_weight(receiver)):
            return call
        if name == "copy_" and call.args:
            self.out.translated[f"{self.m.source}.nn.Linear.weight.copy_ (transposed)"] += 1
            value = call.args[0].value
            if not isinstance(value, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
                value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
            return call.with_changes(args=[call.args[0].with_changes(value=cst.Attribute(value=value, attr=cst.Name("T"))),
                                           *call.args[1:]])
        if name.endswith("_"):
            if any(not _literal(a.value)[0] for a in call.args):
                self.note(text("flag_linear_weight_inplace", api=name, paddle="paddle",
                               other=self.m.target if self.m.source == "paddle" else self.m.source))
            return call
        if name in _GRAPH_METHODS:
            return call
        self.out.translated[f"{self.m.source}.nn.Linear.weight (read transposed)"] += 1
        return call.with_changes(func=call.func.with_changes(value=cst.Attribute(value=receiver, attr=cst.Name("T"))))

    def visit_AssignTarget(self, node) -> None:
        self._stores.add(id(node.target))

    def visit_AugAssign(self, node) -> None:
        self._stores.add(id(node.target))

    def leave_Subscript(self, original, updated):
        if not self._is_weight(updated.value):
            return updated
        if id(original) in self._stores:
            self.note(text("flag_linear_weight_inplace", api="[...] =", paddle="paddle",
                           other=self.m.target if self.m.source == "paddle" else self.m.source))
            return updated
        return updated.with_changes(value=self._read_weight(updated.value))

    def _one_of_named_tuple(self, call: cst.Call, field: str) -> cst.Call | None:
        """`x.max(dim=1).values` / `.indices` -> `x.max(axis=1)` / `x.argmax(axis=1)` (the same for min):
        the target's reduction along an axis returns the values alone, its arg- form the indices.
        None where the call is not of that form (no dim, other arguments)."""
        method = self._source_path(call.func) is None
        receiver = call.func.value if method else (call.args[0].value if call.args else None)
        args = list(call.args if method else call.args[1:])
        named = {a.keyword.value: a.value for a in args if a.keyword is not None}
        places = [a.value for a in args if a.keyword is None]
        if receiver is None or any(a.star for a in args) or set(named) - {"dim", "keepdim"} or \
                len(places) + len(named) > 2 or (places and "dim" in named):
            return None
        dim = named.get("dim", places[0] if places else None)
        keepdim = named.get("keepdim", places[1] if len(places) > 1 else None)
        if dim is None:
            return None
        name = call.func.attr.value
        new = name if field == "values" else _NAMED_TUPLES[name]
        self.out.translated[f"{self.m.source}.Tensor.{name}(dim=).{field}"] += 1
        keywords = [("axis", dim)] + ([("keepdim", keepdim)] if keepdim is not None else [])
        return cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name(new)), args=_commas([
            cst.Arg(v, keyword=cst.Name(k), equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                                                  whitespace_after=cst.SimpleWhitespace("")))
            for k, v in keywords]))

    def _arguments(self, call: cst.Call, s: Entry | None, t: Entry | None, api: str) -> cst.Call:
        if s is None or t is None or not (s.params or t.params):
            return call
        call = self._layout(call, s, t, api)
        args, unmapped, after = map_arguments(self.m, s, t, list(call.args))
        for name in unmapped:
            self._left(f"{api}({name}=)", text("no_parameter", target=self.m.target, api=f"{self.m.target}.{t.path}",
                                               name=name))
        call = call.with_changes(args=[a.with_changes(value=self._dtype_spelling(a.value)) if a.keyword is not None
                                       and a.keyword.value == "dtype" else a for a in args])
        for name, value in after:
            ok, literal = _literal(value)
            method_args = [] if ok and literal is True else [cst.Arg(value)]
            call = cst.Call(func=cst.Attribute(value=call, attr=cst.Name(f"{name}_")), args=method_args)
        return call

    def _layout(self, call: cst.Call, s: Entry, t: Entry, api: str) -> cst.Call:
        """A layer the target builds in one layout only (paddle's batch-first attention): the
        source's argument saying that layout is dropped, added going the other way; another layout
        is left flagged."""
        fixed = table.LAYOUT_ONLY.get(self.m.target, {}).get(t.path)
        if fixed is not None and s.param(fixed[0]) is not None and t.param(fixed[0]) is None:
            name, value = fixed
            given = next((a for a in call.args if a.keyword is not None and a.keyword.value == name), None)
            if given is not None and _literal(given.value) == (True, value):
                args = [a for a in call.args if a is not given]
                if args and given is call.args[-1]:
                    args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                return call.with_changes(args=args)
            if given is None:
                self._left(f"{api}({name}=)", text("layout_only", api=f"{self.m.target}.{t.path}", name=name,
                                                   value=value, source=self.m.source, default=s.param(name).default))
            return call
        fixed = table.LAYOUT_ONLY.get(self.m.source, {}).get(s.path)
        if fixed is not None and t.param(fixed[0]) is not None and s.param(fixed[0]) is None:
            return call.with_changes(args=_commas([*call.args, cst.Arg(_expr(fixed[1]), keyword=cst.Name(fixed[0]), equal=cst.AssignEqual(
                whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))]))
        return call

    def _scheduler_optimizer(self, call: cst.Call) -> cst.BaseExpression | None:
        """The optimizer a scheduler is built on, where the port can restructure the statement."""
        first = call.args[0] if call.args else None
        if self.assigned is None or first is None or any(a.star for a in call.args) or \
                first.keyword is not None and first.keyword.value != "optimizer":
            return None
        return first.value

    def _scheduler(self, call: cst.Call, t: Entry, api: str) -> cst.Call:
        """`sched = StepLR(opt, 4, gamma=0.5)` -> `sched = StepDecay(opt.get_lr(), 4, gamma=0.5)`
        followed by `opt.set_lr_scheduler(sched)`: paddle's optimizer reads its rate from the schedule."""
        optimizer = self._scheduler_optimizer(call)
        args = [cst.Arg(cst.Call(func=cst.Attribute(value=optimizer, attr=cst.Name("get_lr"))))]
        for arg in call.args[1:]:
            if arg.keyword is not None:
                name = table.SCHEDULER_KEYWORDS.get(arg.keyword.value, arg.keyword.value)
                if not t.accepts(name):
                    self._left(f"{api}({arg.keyword.value}=)", text("no_parameter", target=self.m.target,
                                                                   api=f"{self.m.target}.{t.path}", name=name))
                arg = arg.with_changes(keyword=cst.Name(name))
            args.append(arg)
        self.then.append(cst.Expr(cst.Call(func=cst.Attribute(value=optimizer, attr=cst.Name("set_lr_scheduler")),
                                           args=[cst.Arg(cst.Name(self.assigned))])))
        return call.with_changes(args=_commas(args))

    def _dtype_spelling(self, value: cst.BaseExpression) -> cst.BaseExpression:
        """paddle's dtype strings (`dtype='float32'`) as the torch family's objects (`torch.float32`)."""
        ok, literal = _literal(value)
        if not (ok and isinstance(literal, str) and self.roots and self.m.target != "paddle"):
            return value
        entry = self.m.dst.entry(literal)
        if entry is None or not isinstance(entry.key, tuple) or entry.key[0] != "dtype":
            return value
        root = self.m.target if self.roots[0] in self.b.renamed else self.roots[0]
        return cst.parse_expression(f"{root}.{literal}")

    def _shim_call(self, call: cst.Call) -> cst.Call | None:
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in table.SHIM_CALLS and
                (dotted(func.value) or "").endswith("shim")):
            return None
        args = []
        for a in call.args:
            ok, value = _literal(a.value)
            if ok and value == self.m.source and isinstance(a.value, cst.SimpleString):
                quote = a.value.quote
                a = a.with_changes(value=cst.SimpleString(f"{a.value.prefix}{quote}{self.m.target}{quote}"))
                self.out.translated[f"shim.{func.attr.value}"] += 1
            args.append(a)
        return call.with_changes(args=args)

    def _foreign(self, receiver: cst.BaseExpression) -> bool:
        """Whether a receiver is built from other modules' values (NumPy's) and no framework API."""
        names = {n.value for n in _names(receiver)}
        return bool(names & self.b.foreign) and not names & set(self.b.aliases)

    def _receiver_class(self, receiver: cst.BaseExpression) -> tuple[str, str] | None:
        """(role, the framework class's path) of a name bound to an instance of a framework class (or
        of a user class deriving from one), else None."""
        name = dotted(receiver)
        callee = self.b.calls.get(name) if name is not None else None
        if callee is None:
            return None
        base = self.b.classes.get(callee, callee)
        path = self._source_path(cst.parse_expression(base))
        cls = self.m.src.lookup(path) if path is not None else None
        if not isinstance(cls, type):
            return None
        for role, where in table.ROLES.items():
            role_cls = self.m.src.lookup(where[self.m.source])
            if isinstance(role_cls, type) and issubclass(cls, role_cls):
                return role, path
        return "object", path

    def _method_call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        name = updated.func.attr.value
        if name.startswith("__"):
            return updated
        if self._foreign(original.func.value):
            return updated          # `np.linspace(...).reshape(64, 1)`: NumPy's, not a tensor's
        typed = self._receiver_class(original.func.value) or self._role_of_method(name)
        if typed is not None:
            role, path = typed
            written = helpers.method_helper(self.m.source, self.m.target, role, name)
            if written is not None:
                self._write(written, f"{self.m.source}.<{role}>.{name}")
                return updated.with_changes(func=cst.Name(written.name),
                                            args=[cst.Arg(updated.func.value), *updated.args])
            new = next((names[self.m.target] for row_role, names in table.METHODS if row_role == role and
                        names.get(self.m.source) == name and names.get(self.m.target)), name)
            where = table.ROLES.get(role, {})
            target_cls = where[self.m.target] if where.get(self.m.source) == path else self.m.path(path)[0]
            idiom = table.IDIOMS.get((self.m.source, self.m.target, f"<{role}>.{name}"))
            if idiom is not None and target_cls is not None and not updated.args:
                self.out.translated[f"{self.m.source}.<{role}>.{name}"] += 1
                return cst.parse_expression(idiom.format(receiver=cst.Module([]).code_for_node(updated.func.value)))
            s = self.m.src.entry(f"{path}.{name}")
            t = self.m.dst.entry(f"{target_cls}.{new}") if target_cls else None
            if s is None or t is None:
                return updated
            api = f"{self.m.source}.<{role}>.{name}"
            self.out.translated[api] += 1
            if new != name:
                updated = updated.with_changes(func=updated.func.with_changes(attr=cst.Name(new)))
            return self._arguments(updated, s, t, api)
        every_role = self._every_role(name)
        if every_role is not None:     # `opt2.load_state_dict(...)`, opt2 of unknown type: each role spells it alike
            self.out.translated[f"{self.m.source}.<object>.{name}"] += 1
            return updated.with_changes(func=updated.func.with_changes(attr=cst.Name(every_role)))
        keywords = frozenset(a.keyword.value for a in original.args if a.keyword is not None)
        api = f"{self.m.source}.Tensor.{name}"
        idiom = table.IDIOMS.get((self.m.source, self.m.target, name))
        if idiom is not None and self.roots:
            code = cst.Module([]).code_for_node
            root = self.m.target if self.roots[0] in self.b.renamed else self.roots[0]
            self.out.translated[api] += 1
            return cst.parse_expression(idiom.format(receiver=code(updated.func.value), root=root, args=", ".join(
                code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT, value=self._dtype_spelling(a.value)))
                for a in updated.args)))
        new, why = self.m.method(name, keywords)
        if new is None:
            if why:
                self.out.assumed[(api, why)] += 1
                self.note(text("assumed_tensor", why=why))
            return updated
        self.out.translated[api] += 1
        if new != name:
            updated = updated.with_changes(func=updated.func.with_changes(attr=cst.Name(new)))
        if name == "pow":
            updated = self._cast_exponent(updated, updated.func.value)
        return self._arguments(updated, self.m.src.entry("Tensor." + name), self.m.dst.entry("Tensor." + new), api)

    def _cast_exponent(self, call: cst.Call, base: cst.BaseExpression) -> cst.Call:
        """`x.pow(p)`, p an integer tensor, where the target refuses to promote across kinds:
        `x.pow(p.astype(x.dtype))` (the source's result dtype for a float x; for an integer x a no-op).
        The dtype is read from the name a chain of shape-only methods starts at (`x.unsqueeze(-1)`)."""
        exponent = call.args[-1] if call.args else None
        if exponent is None or exponent.keyword is not None or not isinstance(exponent.value, cst.Name) or \
                exponent.value.value not in self.integer_tensors or \
                not semantics.casts_integer_exponent(self.m.source, self.m.target):
            return call
        while isinstance(base, cst.Call) and isinstance(base.func, cst.Attribute) and \
                base.func.attr.value in _SHAPE_ONLY:
            base = base.func.value
        cast = cst.Call(func=cst.Attribute(value=exponent.value, attr=cst.Name("astype")),
                        args=[cst.Arg(cst.Attribute(value=base, attr=cst.Name("dtype")))])
        return call.with_changes(args=[*call.args[:-1], exponent.with_changes(value=cast)])

    def _role_of_method(self, name: str) -> tuple[str, str] | None:
        """(role, its class's path) where a method of a receiver of unknown type belongs to one class
        role only (`get_last_lr`: a scheduler's) and is no Tensor method."""
        if self.m.src.entry("Tensor." + name) is not None:
            return None
        found = [(role, where[self.m.source]) for role, where in table.ROLES.items()
                 if hasattr(self.m.src.lookup(where[self.m.source]), name)]
        if len(found) != 1:
            return None
        role = found[0][0]
        respelled = (self.m.source, self.m.target, f"<{role}>.{name}") in table.IDIOMS or any(
            r == role and names.get(self.m.source) == name and names.get(self.m.target) not in (None, name)
            for r, names in table.METHODS)
        return found[0] if respelled else None     # otherwise the call stays as written, as before

    def _every_role(self, name: str) -> str | None:
        """The target's name of a method that is no Tensor method of the source and that every class
        role (optimizer, module, scheduler) renames alike, else None."""
        if self.m.src.entry("Tensor." + name) is not None:
            return None
        rows = [(role, names[self.m.target]) for role, names in table.METHODS
                if names.get(self.m.source) == name and names.get(self.m.target)]
        targets = {new for _, new in rows}
        if {role for role, _ in rows} != set(table.ROLES) or len(targets) != 1:
            return None
        return targets.pop()

    def _attribute_of_object(self, updated: cst.Attribute) -> cst.BaseExpression:
        """`ctx.saved_tensors` in a custom Function -> the target's spelling; an attribute of a typed
        framework object that the target's class has not is read through the function the port writes
        for it (an optimizer's `state` in paddle), or left."""
        for role, names in table.METHODS:
            src, dst = names.get(self.m.source), names.get(self.m.target)
            if src and dst and src == updated.attr.value and dst.endswith("()") and self.b.functions_used:
                self.out.translated[f"{self.m.source}.<ctx>.{src}"] += 1
                return cst.Call(func=updated.with_changes(attr=cst.Name(dst[:-2])))
            if src == updated.attr.value and dst is None and role in table.ROLES:
                typed = self._receiver_class(updated.value)
                written = helpers.method_helper(self.m.source, self.m.target, role, src)
                if typed is not None and typed[0] == role and written is not None:
                    self._write(written, f"{self.m.source}.<{role}>.{src}")
                    return cst.Call(func=cst.Name(written.name), args=[cst.Arg(updated.value)])
                if typed is not None and typed[0] == role:
                    self._left(f"{self.m.source}.<{role}>.{src}", text(
                        "no_counterpart", target=self.m.target, api=f"{self.m.source}.<{role}>.{src}"))
        return updated

    def _call_of_object(self, updated: cst.Call) -> cst.BaseExpression | None:
        """`ctx.saved_tensor()` in a paddle PyLayer -> the target's attribute `ctx.saved_tensors`."""
        if updated.args or not isinstance(updated.func, cst.Attribute) or not self.b.functions_used:
            return None
        for _, names in table.METHODS:
            src, dst = names.get(self.m.source), names.get(self.m.target)
            if src == updated.func.attr.value + "()" and dst and not dst.endswith("()"):
                self.out.translated[f"{self.m.source}.<ctx>.{src}"] += 1
                return updated.func.with_changes(attr=cst.Name(dst))
        return None

    def _write(self, written: helpers.Helper, api: str) -> None:
        """Call `written` for `api`: the port defines it (and what it needs) in the file."""
        self.out.added[(api, written.name)] += 1
        for need in (written.name, *written.needs):
            self.helpers.setdefault(need, helpers.BY_NAME[need])

    def _left(self, api: str, why: str) -> None:
        self.out.left[(api, why)] += 1
        self.note(why)


def port_source(code: str, source: str, target: str) -> tuple[str, Outcome]:
    """(the ported code, what was translated / left). Raises libcst.ParserSyntaxError for code that
    does not parse."""
    module = cst.parse_module(code)
    bindings = _Bindings(source)
    module.visit(bindings)
    func_row = next(r for r in table.NAMES if r["torch"] == "autograd.Function")
    bindings.functions_used = any(
        (p := _rel_of(bindings, base)) is not None and p == func_row[source] for base in bindings.classes.values())
    outcome = Outcome()
    outcome.flags = semantics.find(code, source, target)
    by_line: dict[int, list[str]] = {}
    for line, _, why in outcome.flags:
        by_line.setdefault(line, []).append(why)
    mapper = Mapper(source, target)
    rewriter = Rewriter(mapper, bindings, outcome, by_line)
    tree = ast.parse(code)
    rewriter.integer_tensors = semantics.integer_tensors(tree, source)
    if layouts.transposes(source, target):
        rewriter.linear_weights = layouts.linear_weights(tree, set(bindings.foreign))
    new = cst.MetadataWrapper(module).visit(rewriter)
    return new.code, outcome


def _rel_of(bindings: _Bindings, name: str) -> str | None:
    root, _, rest = name.partition(".")
    base = bindings.aliases.get(root)
    return None if base is None else ".".join(p for p in (base, rest) if p)
