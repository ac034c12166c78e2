"""Scenarios: small autograd programs written once against the adapter, and their registry.

    @scenario("retain_graph", "a second backward through a graph that was freed",
              expect=[Expect("paddle", "...", doc=..., outcome={"second": Raises("SystemError", "...")})])
    def backward_twice(fw):
        x = fw.leaf([1., 2.])
        y = (x * x).sum()
        fw.backward(y)
        fw.attempt("second", fw.backward, y)
        return {"x.grad": fw.read_grad(x)}

The function returns the values to compare (tensors, numbers, strings, flags, lists of them); its
`fw.step` / `fw.attempt` outcomes are compared too.
"""
from __future__ import annotations

import hashlib
import importlib
import inspect
import pkgutil
import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from .adapters.base import FEATURES
from .expect import Expect

GROUPS: dict[str, str] = {
    "backward_args": "backward argument rules",
    "retain_graph": "retain_graph and freeing",
    "higher_order": "create_graph and higher order",
    "inputs": "inputs= of backward",
    "accumulation": "accumulation into .grad",
    "grad_api": "autograd.grad options",
    "tensor_hooks": "tensor hooks",
    "node_hooks": "node and post-accumulate hooks",
    "retained_grads": "retained gradients",
    "custom_function": "custom functions",
    "grad_mode": "grad modes",
    "inplace": "in-place ops and versions",
    "saved_hooks": "saved-tensor hooks",
    "graph_dump": "graph dumps and introspection",
    "numeric": "numeric gradients under broadcasting",
}


@dataclass(frozen=True)
class Scenario:
    """One check: `fn(fw)` observed on every implementation and compared."""

    id: str
    group: str
    checks: str
    fn: Callable[[Any], Any] = field(compare=False, repr=False)
    expect: tuple[Expect, ...] = ()
    needs: frozenset = frozenset()
    source: str = field(default="", compare=False, repr=False)

    @property
    def name(self) -> str:
        return self.id.split(".", 1)[1]

    @property
    def digest(self) -> str:
        """A short hash of the scenario's code (recorded references are only valid for it)."""
        return hashlib.sha256(self.source.encode()).hexdigest()[:12]

    def expectation_for(self, family: str, version: str) -> Expect | None:
        for exp in self.expect:
            if exp.applies_to(family, version):
                return exp
        return None


_REGISTRY: dict[str, Scenario] = {}


def _source_of(fn: Callable) -> str:
    try:
        lines = inspect.getsource(fn)
    except (OSError, TypeError):
        return f"# source of {fn.__qualname__} unavailable\n"
    return textwrap.dedent(lines)


def register(group: str, name: str, checks: str, fn: Callable, *, expect: Sequence[Expect] = (),
             needs: Iterable[str] = (), source: str | None = None) -> Scenario:
    """Add one scenario (the decorator and generated tables both come here)."""
    if group not in GROUPS:
        raise ValueError(f"unknown scenario group {group!r}")
    unknown = set(needs) - set(FEATURES)
    if unknown:
        raise ValueError(f"scenario {group}.{name}: unknown features {sorted(unknown)}")
    sid = f"{group}.{name}"
    if sid in _REGISTRY:
        raise ValueError(f"scenario {sid} registered twice")
    families = [e.family for e in expect]
    if len(families) != len(set(families)) and not all(e.versions for e in expect):
        raise ValueError(f"scenario {sid}: two expectations for one family need version ranges")
    sc = Scenario(sid, group, checks, fn, tuple(expect), frozenset(needs),
                  source if source is not None else _source_of(fn))
    _REGISTRY[sid] = sc
    return sc


def scenario(group: str, checks: str, *, expect: Sequence[Expect] = (), needs: Iterable[str] = (),
             name: str | None = None) -> Callable[[Callable], Callable]:
    """Decorator form of `register`; the function's name is the scenario's name."""
    def deco(fn: Callable) -> Callable:
        register(group, name or fn.__name__, checks, fn, expect=expect, needs=needs)
        return fn
    return deco


def load_all() -> list[Scenario]:
    """Import every module of `conformance.scenarios` and return the scenarios in group order."""
    from . import scenarios as package
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        importlib.import_module(f"{package.__name__}.{info.name}")
    order = {g: i for i, g in enumerate(GROUPS)}
    return sorted(_REGISTRY.values(), key=lambda s: order[s.group])


def by_id(sid: str) -> Scenario:
    load_all()
    return _REGISTRY[sid]


def select(scenarios: Iterable[Scenario], pattern: str | None) -> list[Scenario]:
    """Scenarios whose id matches `pattern` (a shell-style glob if it has wildcards, else a
    substring of the id); comma-separated patterns are alternatives."""
    import fnmatch
    items = list(scenarios)
    if not pattern:
        return items
    parts = [p.strip() for p in pattern.split(",") if p.strip()]

    def hit(sid: str) -> bool:
        for p in parts:
            if any(c in p for c in "*?["):
                if fnmatch.fnmatchcase(sid, p):
                    return True
            elif p in sid:
                return True
        return False
    return [s for s in items if hit(s.id)]
