"""Find every use of a framework's API in one Python file, without running it (ast).

A use is a place the source names an API: a module attribute through any import alias or
assignment (`torch.nn.Linear`, `nn.Linear` after `from torch import nn` or `nn = torch.nn`), a name
imported from the framework, each keyword argument of a call to an API (`torch.zeros(dtype=)`), an
attribute or method of a tensor (`torch.Tensor.sum`), a method called on an instance of a framework
class (`torch.optim.SGD.step`), and, in their own bucket, methods named like a Tensor method called on
a receiver whose type is unknown (`torch.Tensor.sum?`). The bare top-level module (`torch`) is not a use.

Types are inferred per scope, flow-insensitively: a name is a tensor when every binding of it (an
assignment of None aside) is one of: a factory call (FACTORIES), arithmetic with a tensor, a
subscript of a tensor, an in-place method (`x.add_(...)`), a tensor attribute in TENSOR_ATTRIBUTES,
a parameter annotated `torch.Tensor`.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from typing import NamedTuple, Protocol


class Use(NamedTuple):
    api: str         # "torch.nn.Linear", "torch.zeros(dtype=)", "torch.Tensor.sum", "torch.Tensor.sum?"
    framework: str   # "torch"
    kind: str        # "api" | "keyword" | "tensor" | "method" | "unresolved"
    path: str
    line: int
    col: int         # 1-based, in characters
    receiver: str | None = None   # scan's raw output only: the class of a method's instance ("method" and
    #                               its keywords), or the frameworks imported ("unresolved", api = the name)


class Facts(Protocol):
    def tensor_has(self, framework: str, name: str) -> bool: ...
    def is_class(self, api: str) -> bool: ...


def resolve(uses: list[Use], facts: Facts) -> list[Use]:
    """Finish scan's raw uses with what only the facades know: a method of an instance counts when its
    class really is a class; a call on an untyped receiver is an unresolved Tensor method when the
    first framework the file imports has a Tensor method of that name."""
    out = []
    for u in uses:
        if u.receiver is None:
            out.append(u)
        elif u.kind == "unresolved":
            fw = next((f for f in u.receiver.split(",") if facts.tensor_has(f, u.api)), None)
            if fw is not None:
                out.append(u._replace(api=f"{fw}.Tensor.{u.api}?", framework=fw, receiver=None))
        elif facts.is_class(u.receiver):
            out.append(u._replace(receiver=None))
    return out


_CREATION = ("tensor", "as_tensor", "asarray", "from_numpy", "from_dlpack", "zeros", "ones", "empty", "full",
             "zeros_like", "ones_like", "empty_like", "full_like", "rand", "randn", "randint", "randperm",
             "rand_like", "randn_like", "randint_like", "arange", "linspace", "logspace", "eye", "normal", "cat",
             "stack", "Tensor", "nn.Parameter", "nn.parameter.Parameter")
#: Calls whose result is a tensor of that framework.
FACTORIES: dict[str, frozenset[str]] = {
    "torch": frozenset(f"torch.{n}" for n in _CREATION),
    "oneflow": frozenset(f"oneflow.{n}" for n in _CREATION),
    "paddle": frozenset(f"paddle.{n}" for n in (
        "to_tensor", "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like", "rand",
        "randn", "randint", "randperm", "arange", "linspace", "eye", "uniform", "normal", "standard_normal",
        "create_parameter", "concat", "stack", "Tensor")),
}
#: Tensor attributes that are tensors themselves.
TENSOR_ATTRIBUTES = frozenset({"T", "mT", "H", "data", "grad", "real", "imag"})

_IGNORE = re.compile(r"#\s*flowgrad:\s*ignore\b")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)
_OPAQUE_RECEIVERS = ("self", "cls")
_PENDING = object()


class _Scope:
    __slots__ = ("lookup_parent", "is_class", "bindings", "globals", "memo", "module")

    def __init__(self, parent: _Scope | None, is_class: bool):
        self.is_class = is_class
        self.lookup_parent = parent.lookup_parent if parent is not None and parent.is_class else parent
        self.module = parent.module or parent if parent is not None else None   # None: this is the module
        self.bindings: dict[str, list] = {}
        self.globals: set[str] = set()
        self.memo: dict[str, object] = {}

    def bind(self, name: str, value) -> None:
        self.bindings.setdefault(name, []).append(value)


def ignored_lines(source: str) -> set[int]:
    """Lines carrying a `# flowgrad: ignore` comment."""
    if "flowgrad:" not in source:
        return set()
    lines = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT and _IGNORE.search(tok.string):
                lines.add(tok.start[0])
    except (tokenize.TokenError, SyntaxError):
        pass
    return lines


def scan(tree: ast.Module, source: str, path: str, frameworks: frozenset[str]) -> list[Use]:
    """Every use of the frameworks' APIs in one parsed file, minus lines marked `# flowgrad: ignore`,
    from the syntax alone (finish them with `resolve`)."""
    scanner = _Scanner(source, path, frameworks)
    scanner.collect(tree)
    if not scanner.imported:
        return []
    scanner.visit_body(tree.body, scanner.scopes[tree])
    skip = ignored_lines(source)
    return [u for u in scanner.uses if u.line not in skip] if skip else scanner.uses


class _Scanner:
    def __init__(self, source: str, path: str, frameworks: frozenset[str]):
        self.path, self.frameworks = path, frameworks
        self.lines = None if source.isascii() else source.splitlines()
        self.uses: list[Use] = []
        self.scopes: dict[ast.AST, _Scope] = {}
        self.stack: list[tuple[ast.AST, _Scope]] = []
        self.imported: list[str] = []     # frameworks imported in this file, in order

    # ------------------------------------------------------------------ pass 1: bindings per scope
    def collect(self, tree: ast.Module) -> None:
        """Bindings of every def / class scope, from the statements alone (lambdas and comprehensions
        get their scopes when pass 2 reaches them; `:=` targets are not tracked)."""
        self._collect_body(tree.body, self.scopes.setdefault(tree, _Scope(None, False)))

    def _collect_body(self, body: list, scope: _Scope) -> None:
        for stmt in body:
            t = type(stmt)
            if t is ast.FunctionDef or t is ast.AsyncFunctionDef or t is ast.ClassDef:
                self._collect_body(stmt.body, self._open(stmt, scope))
                continue
            self._bind(stmt, scope)
            for name in ("body", "orelse", "finalbody"):
                sub = getattr(stmt, name, None)
                if sub:
                    self._collect_body(sub, scope)
            if t is ast.Try or t.__name__ == "TryStar":
                for handler in stmt.handlers:
                    if handler.name:
                        scope.bind(handler.name, None)
                    self._collect_body(handler.body, scope)
            elif t is ast.With or t is ast.AsyncWith:
                for item in stmt.items:
                    if item.optional_vars is not None:
                        self._bind_target(item.optional_vars, scope, None)
            elif t is ast.Match:
                for case in stmt.cases:
                    for node in ast.walk(case.pattern):
                        name = getattr(node, "name", None) or getattr(node, "rest", None)
                        if name:
                            scope.bind(name, None)
                    self._collect_body(case.body, scope)

    def _open(self, node: ast.AST, scope: _Scope) -> _Scope:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope.bind(node.name, None)
        inner = self.scopes[node] = _Scope(scope, isinstance(node, ast.ClassDef))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = node.args
            for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs):
                inner.bind(arg.arg, ("annotation", arg.annotation) if arg.annotation is not None else None)
            for arg in (a.vararg, a.kwarg):
                if arg is not None:
                    inner.bind(arg.arg, None)
        elif not isinstance(node, ast.ClassDef):
            for gen in node.generators:
                self._bind_target(gen.target, inner, None)
        return inner

    def _bind(self, node: ast.AST, scope: _Scope) -> None:
        t = type(node)
        if t is ast.Assign:
            for target in node.targets:
                self._bind_target(target, scope, node.value)
        elif t is ast.AnnAssign:
            if node.value is not None:
                self._bind_target(node.target, scope, node.value)
        elif t is ast.AugAssign:
            if isinstance(node.target, ast.Name):
                scope.bind(node.target.id, ast.BinOp(node.target, node.op, node.value))
        elif t is ast.Import:
            for alias in node.names:
                top = alias.name.partition(".")[0]
                if top in self.frameworks:
                    self._imported(top)
                    if alias.asname:
                        scope.bind(alias.asname, ("api", alias.name))
                    else:
                        scope.bind(top, ("api", top))
                else:
                    scope.bind(alias.asname or top, None)
        elif t is ast.ImportFrom:
            top = (node.module or "").partition(".")[0]
            framework = node.level == 0 and top in self.frameworks
            if framework:
                self._imported(top)
            for alias in node.names:
                if alias.name != "*":
                    api = ("api", f"{node.module}.{alias.name}") if framework else None
                    scope.bind(alias.asname or alias.name, api)
        elif t is ast.For or t is ast.AsyncFor:
            self._bind_target(node.target, scope, None)
        elif t is ast.Global:
            scope.globals.update(node.names)

    def _imported(self, top: str) -> None:
        if top not in self.imported:
            self.imported.append(top)

    def _bind_target(self, target: ast.AST, scope: _Scope, value) -> None:
        if isinstance(target, ast.Name):
            scope.bind(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self._bind_target(elt, scope, None)
        elif isinstance(target, ast.Starred):
            self._bind_target(target.value, scope, None)

    # -------------------------------------------------------------------------- type inference
    def name_kind(self, name: str, scope: _Scope):
        """("api", path) | ("tensor", fw) | ("instance", path) | None, for a Name read in `scope`."""
        s = scope
        while s is not None:
            if name in s.globals:
                s = s.module or s
                if name not in s.bindings:
                    return None
            if name in s.bindings:
                return self._binding_kind(name, s)
            s = s.lookup_parent
        return None

    def _binding_kind(self, name: str, scope: _Scope):
        memo = scope.memo.get(name, None)
        if memo is _PENDING:
            return _PENDING
        if name in scope.memo:
            return memo
        scope.memo[name] = _PENDING
        result = None
        for value in scope.bindings[name]:
            if value is None:
                result = None
                break
            if type(value) is ast.Constant and value.value is None:
                continue          # `torch = None` beside `import torch`, `x = None` before `x = torch.zeros(3)`
            if type(value) is tuple:
                kind = (value if value[0] == "api" else self._annotation_kind(value[1], scope))
            else:
                kind = self.kind(value, scope)
            if kind is _PENDING:
                continue
            if kind is None or (result is not None and kind != result):
                result = None
                break
            result = kind
        scope.memo[name] = result
        return result

    def _annotation_kind(self, annotation: ast.AST, scope: _Scope):
        k = self.kind(annotation, scope)
        if k is not None and k is not _PENDING and k[0] == "api":
            top, _, rest = k[1].partition(".")
            if rest == "Tensor":
                return ("tensor", top)
        return None

    def kind(self, node: ast.AST, scope: _Scope):
        t = type(node)
        if t is ast.Name:
            return self.name_kind(node.id, scope)
        if t is ast.Attribute:
            base = self.kind(node.value, scope)
            if base is None or base is _PENDING:
                return base
            if base[0] == "api":
                return ("api", f"{base[1]}.{node.attr}")
            if base[0] == "tensor" and node.attr in TENSOR_ATTRIBUTES:
                return base
            return None
        if t is ast.Call:
            func = node.func
            if type(func) is ast.Attribute and func.attr.endswith("_") and not _dunder(func.attr):
                recv = self.kind(func.value, scope)       # an in-place method returns its tensor
                if recv is _PENDING or (recv is not None and recv[0] == "tensor"):
                    return recv
            f = self.kind(func, scope)
            if f is None or f is _PENDING:
                return f
            if f[0] == "api":
                top = f[1].partition(".")[0]
                if f[1] in FACTORIES.get(top, ()):
                    return ("tensor", top)
                if f[1].rpartition(".")[2][:1].isupper():
                    return ("instance", f[1])
                return None
            return None
        if t is ast.BinOp:
            left = self.kind(node.left, scope)
            if left is not None and left is not _PENDING and left[0] == "tensor":
                return left
            right = self.kind(node.right, scope)
            if right is not None and right is not _PENDING and right[0] == "tensor" and \
                    type(node.left) is ast.Constant and isinstance(node.left.value, (int, float, complex)):
                return right
            return _PENDING if _PENDING in (left, right) else None
        if t is ast.UnaryOp:
            if type(node.op) is ast.Not:
                return None
            k = self.kind(node.operand, scope)
            return k if k is _PENDING or (k is not None and k[0] == "tensor") else None
        if t is ast.Subscript:
            k = self.kind(node.value, scope)
            return k if k is _PENDING or (k is not None and k[0] == "tensor") else None
        return None

    # ----------------------------------------------------------------------- pass 2: the uses
    def _add(self, api: str, framework: str, kind: str, line: int, col: int, receiver: str | None = None) -> None:
        if self.lines is not None and line <= len(self.lines):
            col = len(self.lines[line - 1].encode("utf-8")[:col].decode("utf-8", "replace"))
        self.uses.append(Use(api, framework, kind, self.path, line, col + 1, receiver))

    def visit_body(self, body: list, scope: _Scope) -> None:
        """Walk the statements (iteratively: the order of uses does not matter, they are sorted later)."""
        stack = self.stack
        stack += [(node, scope) for node in body]
        pop, push, handlers, fields_of = stack.pop, stack.append, _HANDLERS, _CHILD_FIELDS
        while stack:
            node, scope = pop()
            t = type(node)
            handler = handlers.get(t)
            if handler is not None:
                handler(self, node, scope)
                continue
            fields = fields_of.get(t)
            if fields is None:
                fields = fields_of[t] = tuple(f for f in t._fields if f != "ctx")
            for name in fields:
                child = getattr(node, name, None)
                if type(child) is list:
                    for item in child:
                        if isinstance(item, ast.AST):
                            push((item, scope))
                elif isinstance(child, ast.AST):
                    push((child, scope))

    def visit(self, node: ast.AST, scope: _Scope) -> None:
        """Queue a node for the walk."""
        self.stack.append((node, scope))

    def _visit_scope(self, node, scope: _Scope) -> None:
        inner = self.scopes.get(node) or self._open(node, scope)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for dec in node.decorator_list:
                self.visit(dec, scope)
            if isinstance(node, ast.ClassDef):
                for base in (*node.bases, *node.keywords):
                    self.visit(base, scope)
            else:
                self._visit_arguments(node.args, scope)
                if node.returns is not None:
                    self.visit(node.returns, scope)
            self.stack += [(stmt, inner) for stmt in node.body]
        elif isinstance(node, ast.Lambda):
            self._visit_arguments(node.args, scope)
            self.visit(node.body, inner)
        else:
            gens = node.generators
            self.visit(gens[0].iter, scope)           # the first iterable is evaluated outside
            for i, gen in enumerate(gens):
                if i:
                    self.visit(gen.iter, inner)
                for cond in gen.ifs:
                    self.visit(cond, inner)
            for part in ((node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,)):
                self.visit(part, inner)

    def _visit_arguments(self, args: ast.arguments, scope: _Scope) -> None:
        for default in (*args.defaults, *(d for d in args.kw_defaults if d is not None)):
            self.visit(default, scope)
        for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
            if arg is not None and arg.annotation is not None:
                self.visit(arg.annotation, scope)

    def _visit_import(self, node: ast.Import, scope: _Scope) -> None:
        for alias in node.names:
            top, dot, _ = alias.name.partition(".")
            if dot and top in self.frameworks:
                self._add(alias.name, top, "api", alias.lineno, alias.col_offset)

    def _visit_import_from(self, node: ast.ImportFrom, scope: _Scope) -> None:
        top = (node.module or "").partition(".")[0]
        if node.level or top not in self.frameworks:
            return
        for alias in node.names:
            if alias.name != "*":
                self._add(f"{node.module}.{alias.name}", top, "api", alias.lineno, alias.col_offset)

    def _visit_name(self, node: ast.Name, scope: _Scope) -> None:
        if type(node.ctx) is not ast.Load:
            return
        k = self.name_kind(node.id, scope)
        if k is not None and k is not _PENDING and k[0] == "api" and "." in k[1]:
            self._add(k[1], k[1].partition(".")[0], "api", node.lineno, node.col_offset)

    def _visit_attribute(self, node: ast.Attribute, scope: _Scope) -> None:
        if type(node.ctx) is not ast.Load:
            self.visit(node.value, scope)
            return
        base = self.kind(node.value, scope)
        if base is not None and base is not _PENDING:
            if base[0] == "api":
                self._add(f"{base[1]}.{node.attr}", base[1].partition(".")[0], "api", node.lineno, node.col_offset)
                if _is_chain(node.value):
                    return
            elif base[0] == "tensor":
                line, col = _attr_position(node)
                self._add(f"{base[1]}.Tensor.{node.attr}", base[1], "tensor", line, col)
        self.visit(node.value, scope)

    def _visit_call(self, node: ast.Call, scope: _Scope) -> None:
        func = node.func
        api = framework = receiver = None
        if type(func) is ast.Attribute:
            recv = self.kind(func.value, scope)
            if recv is None or recv is _PENDING:
                self._unresolved(func)
            elif recv[0] == "api":
                api, framework = f"{recv[1]}.{func.attr}", recv[1].partition(".")[0]
            elif recv[0] == "tensor":
                api, framework = f"{recv[1]}.Tensor.{func.attr}", recv[1]
            elif recv[0] == "instance" and not _dunder(func.attr):
                api, framework, receiver = f"{recv[1]}.{func.attr}", recv[1].partition(".")[0], recv[1]
                line, col = _attr_position(func)
                self._add(api, framework, "method", line, col, receiver)
        elif type(func) is ast.Name:
            k = self.name_kind(func.id, scope)
            if k is not None and k is not _PENDING and k[0] == "api" and "." in k[1]:
                api, framework = k[1], k[1].partition(".")[0]
        if api is not None:
            for kw in node.keywords:
                if kw.arg is not None:
                    self._add(f"{api}({kw.arg}=)", framework, "keyword", kw.lineno, kw.col_offset, receiver)
        self.visit(func, scope)
        for arg in node.args:
            self.visit(arg, scope)
        for kw in node.keywords:
            self.visit(kw.value, scope)

    def _unresolved(self, func: ast.Attribute) -> None:
        name = func.attr
        if _dunder(name) or (type(func.value) is ast.Name and func.value.id in _OPAQUE_RECEIVERS) or \
                type(func.value) in (ast.Constant, ast.JoinedStr, ast.List, ast.Dict, ast.Set, ast.Tuple):
            return
        line, col = _attr_position(func)
        self._add(name, self.imported[0], "unresolved", line, col, ",".join(self.imported))


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _is_chain(node: ast.AST) -> bool:
    while type(node) is ast.Attribute:
        node = node.value
    return type(node) is ast.Name


def _attr_position(node: ast.Attribute) -> tuple[int, int]:
    """Where the attribute's name starts (`.sum` in `x.sum()`), on one-line attributes."""
    if node.end_lineno is not None and node.end_col_offset is not None:
        return node.end_lineno, node.end_col_offset - len(node.attr.encode("utf-8"))
    return node.lineno, node.col_offset


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {ast.Constant: ()}

_HANDLERS = {
    ast.Import: _Scanner._visit_import,
    ast.ImportFrom: _Scanner._visit_import_from,
    ast.Name: _Scanner._visit_name,
    ast.Attribute: _Scanner._visit_attribute,
    ast.Call: _Scanner._visit_call,
    **{t: _Scanner._visit_scope for t in _SCOPES},
}
