"""A short program that reproduces one cell on its own: the scenario's code, run on one
implementation, printing what it observes next to what the reference observed."""
from __future__ import annotations

import re

from .compare import Diff, describe
from .scenario import Scenario

def scenario_code(sc: Scenario) -> str:
    """The scenario's function source without its @scenario decorator."""
    src = sc.source
    m = re.search(r"^def \w+\(", src, re.M)
    return src[m.start():] if m else src


def function_name(sc: Scenario) -> str:
    m = re.search(r"^def (\w+)\(", sc.source, re.M)
    return m.group(1) if m else sc.name


def reproducer(sc: Scenario, impl: str, reference_label: str, diffs: list[Diff]) -> str:
    """Python source that runs `sc` on `impl` and prints the observed values."""
    module = getattr(sc.fn, "__module__", None) or ""
    module = module if module.startswith("conformance.") else None
    lines = [f"# {sc.id}: {sc.checks}", f"# {impl} differs from {reference_label}:"]
    for d in diffs[:6]:
        lines.append(f"#   {d.key}: {impl} {describe(d.observed, 100)}")
        lines.append(f"#   {' ' * len(d.key)}  {reference_label} {describe(d.reference, 100)}")
    lines += ["import json", "from conformance.adapters import load",
              "from conformance.observe import observe_function"]
    if module:
        lines.append(f"from {module} import *  # the scenario module's helpers")
    lines += ["", scenario_code(sc).rstrip(), "",
              f"fw = load({impl!r})",
              f"print(json.dumps(observe_function({function_name(sc)}, fw, needs={tuple(sorted(sc.needs))!r}), indent=1))"]
    return "\n".join(lines) + "\n"
