"""Linear weights a script names statically. paddle keeps a Linear weight as [in, out] where torch
and OneFlow keep [out, in]; where the port can tell an expression is a Linear layer's weight, it
reads the weight's values through `.T` and transposes what it copies in (translate.Rewriter).
`parameter_groups` reads a model's parameters in PyTorch's layout (table.PARAMETER_LAYOUTS) for
`--verify`."""
from __future__ import annotations

import ast
from dataclasses import dataclass

import numpy as np

from . import table

#: The layer whose weight paddle lays out transposed, in every framework's nn.
LINEAR = "Linear"


def transposes(source: str, target: str) -> bool:
    """Whether a Linear weight's layout differs between the two frameworks."""
    return (source == "paddle") != (target == "paddle")


def norm(code: str) -> str | None:
    """One spelling of an expression (`model[ 0 ]` and `model[0]` alike), None if it is none."""
    try:
        return ast.unparse(ast.parse(code.strip(), mode="eval"))
    except SyntaxError:
        return None


def linear_weights(tree: ast.Module, foreign: set[str]) -> set[str]:
    """The expressions (normalised) that are a Linear layer's weight: `lin.weight` for
    `lin = nn.Linear(...)`, `model[i].weight` for a Sequential built with a Linear at place i, a name
    bound to such a layer, `self.fc.weight` for a Linear every class assigning `self.fc` gives it, and
    `m.fc.weight` for `m` an instance of such a class. A name bound more than once to different
    things is none of them."""
    layers: dict[str, set[bool]] = {}       # expression -> whether each binding is a Linear
    attrs: dict[str, set[bool]] = {}        # self.<attr> -> the same, over every class
    classes: dict[str, set[str]] = {}       # class -> its Linear attributes
    sequences: dict[str, list[bool]] = {}   # name -> Linear or not at each place of its Sequential

    def is_linear(expr: ast.expr) -> bool:
        if isinstance(expr, ast.Call):
            func = expr.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            root = func
            while isinstance(root, ast.Attribute):
                root = root.value
            return name == LINEAR and getattr(root, "id", None) not in foreign
        key = ast.unparse(expr)
        if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) and \
                isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, int):
            places = sequences.get(expr.value.id, [])
            return -len(places) <= expr.slice.value < len(places) and places[expr.slice.value]
        return layers.get(key) == {True}

    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        mine = set()
        for n in ast.walk(cls):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                        attrs.setdefault(t.attr, set()).add(is_linear(n.value))
                        mine.add(t.attr)
        classes[cls.name] = mine
    linear_attrs = {a for a, seen in attrs.items() if seen == {True}}
    for n in ast.walk(tree):
        if not isinstance(n, ast.Assign):
            continue
        for t in n.targets:
            if not isinstance(t, ast.Name):
                continue
            value = n.value
            if isinstance(value, ast.Call) and isinstance(value.func, (ast.Attribute, ast.Name)) and \
                    getattr(value.func, "attr", getattr(value.func, "id", None)) == "Sequential":
                sequences[t.id] = [is_linear(a) for a in value.args]
            layers.setdefault(t.id, set()).add(is_linear(value))
    found = {f"{k}.weight" for k, v in layers.items() if v == {True}}
    found |= {f"self.{a}.weight" for a in linear_attrs}
    found |= {f"{name}[{i}].weight" for name, places in sequences.items() for i, p in enumerate(places) if p}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name) \
                and n.value.func.id in classes:
            found |= {f"{t.id}.{a}.weight" for t in n.targets if isinstance(t, ast.Name)
                      for a in classes[n.value.func.id] & linear_attrs}
    return found


@dataclass(frozen=True, eq=False)
class Group:
    """Parameters of one layer that make one parameter in PyTorch's layout (table.PARAMETER_LAYOUTS)."""
    name: str                   # the parameter's name in PyTorch's layout (`in_proj_weight`)
    layer: str                  # the layer's class name
    parts: tuple                # the layer's own parameters it is made of, in order
    transposed: bool            # whether each part is kept transposed

    def join(self, arrays: list[np.ndarray]) -> np.ndarray:
        """The parts' arrays (a gradient each) as the one array of PyTorch's layout."""
        return np.concatenate([a.T if self.transposed else a for a in arrays], axis=0)

    def split(self, array: np.ndarray) -> list[np.ndarray]:
        """`join`'s inverse: a value in PyTorch's layout as the parts' values (weights copied across)."""
        pieces = np.split(array, np.cumsum([p.shape[-1 if self.transposed else 0] for p in self.parts])[:-1])
        return [np.ascontiguousarray(a.T) if self.transposed else a for a in pieces]


def layer_layouts(framework: str, facade) -> list[tuple[type, dict]]:
    """The facade's classes of the layers table.PARAMETER_LAYOUTS names, with their layout, outermost first."""
    found = []
    for row in table.PARAMETER_LAYOUTS:
        path, layout = row[framework]
        cls = facade
        for part in path.split("."):
            cls = getattr(cls, part, None)
        if isinstance(cls, type):
            found.append((cls, layout))
    return found


def parameter_groups(layers: list, layouts: list[tuple[type, dict]]) -> dict[int, Group]:
    """id of each parameter of `layers` (modules) that a layer of `layouts` lays out as known -> its
    Group. An outer layer claims its parameters first; a layout whose parts are not all there (a layer
    built without bias, torch's attention with separate q / k / v weights) leaves them unclaimed."""
    claimed: dict[int, Group] = {}
    for cls, layout in layouts:
        for layer in (m for m in layers if isinstance(m, cls)):
            params = dict(layer.named_parameters())
            for name, (parts, transposed) in layout.items():
                found = tuple(params.get(p) for p in parts)
                if any(p is None or id(p) in claimed for p in found):
                    continue
                group = Group(name, type(layer).__name__, found, transposed)
                claimed.update((id(p), group) for p in found)
    return claimed
