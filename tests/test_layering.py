"""The package's layers point one way: facades -> nn / optim / data -> autograd + ops -> tensor ->
backend. Read with `ast` (nothing is imported): no import cycle among modules at import time, no
core module importing a facade, and the facade kit used only by facades."""
from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent / "flowgrad"
FACADES = ("torch", "paddle", "oneflow")
# modules outside the layers: the command line, the import shim and test helpers drive facades
DRIVERS = ("flowgrad.cli", "flowgrad.shim", "flowgrad.__main__", "flowgrad.testing", "flowgrad.check",
           "flowgrad.run")


def _modules() -> dict[str, tuple[pathlib.Path, bool]]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts.pop()
        out[".".join(parts)] = (path, is_pkg)
    return out


MODULES = _modules()


def _import_time_nodes(body: list):
    """Statements that run when the module is imported (function bodies do not)."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        yield node
        for field in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from _import_time_nodes(inner)


def _targets(mod: str, is_pkg: bool, node) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.startswith("flowgrad")]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = mod.split(".") if is_pkg else mod.split(".")[:-1]
            base = base[:len(base) - (node.level - 1)]
            name = ".".join(base + ([node.module] if node.module else []))
        else:
            name = node.module or ""
        if not name.startswith("flowgrad"):
            return []
        return [f"{name}.{a.name}" if f"{name}.{a.name}" in MODULES else name for a in node.names]
    return []


def _graph(import_time_only: bool) -> dict[str, set[str]]:
    graph = {}
    for mod, (path, is_pkg) in MODULES.items():
        tree = ast.parse(path.read_text())
        nodes = _import_time_nodes(tree.body) if import_time_only else ast.walk(tree)
        graph[mod] = {t for n in nodes for t in _targets(mod, is_pkg, n) if t in MODULES and t != mod}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (iterative Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def _facade(mod: str) -> str | None:
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in FACADES else None


def _core(mod: str) -> bool:
    return _facade(mod) is None and not mod.startswith(DRIVERS)


def test_the_checker_finds_a_planted_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_at_import_time():
    assert _cycles(_graph(import_time_only=True)) == []


def test_no_core_module_imports_a_facade():
    bad = [f"{m} -> {t}" for m, ts in _graph(import_time_only=False).items() if _core(m)
           for t in ts if _facade(t) is not None]
    assert bad == []


@pytest.mark.parametrize("layer", ["flowgrad.backend", "flowgrad.tensor", "flowgrad.autograd", "flowgrad.ops",
                                   "flowgrad.nn", "flowgrad.optim", "flowgrad.data"])
def test_core_layers_do_not_reach_the_facade_kit(layer):
    graph = _graph(import_time_only=False)
    bad = [f"{m} -> {t}" for m, ts in graph.items() if m == layer or m.startswith(layer + ".")
           for t in ts if t == "flowgrad.facade" or t.startswith("flowgrad.facade.")]
    assert bad == []


def test_facades_do_not_import_each_other():
    bad = [f"{m} -> {t}" for m, ts in _graph(import_time_only=False).items() if _facade(m)
           for t in ts if _facade(t) not in (None, _facade(m))]
    assert bad == []
