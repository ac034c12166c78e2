"""Nested containers of leaves (tuples, lists, named tuples, dicts), as the function transforms take
and return them: `flatten(tree)` gives the leaves in order and a `TreeSpec`, `unflatten(leaves, spec)`
rebuilds the tree; a spec prints as PyTorch's pytree specs do (`TreeSpec(tuple, None, [*,\\n  *])`, or
`(*, *)` by `pretty`)."""
from __future__ import annotations

from typing import Any


class TreeSpec:
    """A container's type, its context (a dict's keys, a named tuple's class) and its children's specs;
    a leaf is `LEAF`."""

    __slots__ = ("type", "context", "children")

    def __init__(self, type_: type | None, context=None, children: tuple = ()):
        self.type, self.context, self.children = type_, context, tuple(children)

    @property
    def is_leaf(self) -> bool:
        return self.type is None

    @property
    def num_leaves(self) -> int:
        count, stack = 0, [self]
        while stack:
            spec = stack.pop()
            if spec.is_leaf:
                count += 1
            else:
                stack.extend(spec.children)
        return count

    def __eq__(self, other) -> bool:
        return (isinstance(other, TreeSpec) and self.type is other.type and self.context == other.context
                and self.children == other.children)

    def __hash__(self) -> int:
        return hash((self.type, len(self.children)))

    def __repr__(self, indent: int = 0) -> str:
        if self.is_leaf:
            return "*"
        context = self.context
        kind = "namedtuple" if isinstance(self.context, type) else self.type.__name__
        inner = ""
        if self.children:
            indent += 2
            inner = self.children[0].__repr__(indent) + ("," if len(self.children) > 1 else "")
            inner += ",".join("\n" + " " * indent + child.__repr__(indent) for child in self.children[1:])
        return f"TreeSpec({kind}, {context}, [{inner}])"

    def pretty(self) -> str:
        """The spec as the tree it describes, leaves as `*`: `(*, [*, *])`, `{'a': *}`."""
        if self.is_leaf:
            return "*"
        parts = [c.pretty() for c in self.children]
        if self.type is dict:
            return "{" + ", ".join(f"{k!r}: {p}" for k, p in zip(self.context, parts)) + "}"
        if self.type is list:
            return "[" + ", ".join(parts) + "]"
        if isinstance(self.context, type):
            fields = ", ".join(f"{f}={p}" for f, p in zip(self.context._fields, parts))
            return f"{self.context.__name__}({fields})"
        return "(" + ", ".join(parts) + (",)" if len(parts) == 1 else ")")


LEAF = TreeSpec(None)


def _is_namedtuple(obj) -> bool:
    return isinstance(obj, tuple) and hasattr(type(obj), "_fields")


def _node(tree) -> tuple[TreeSpec, list] | None:
    """(spec without children, children) of a container, None for a leaf."""
    if _is_namedtuple(tree):
        return TreeSpec(tuple, type(tree)), list(tree)
    if type(tree) in (tuple, list):
        return TreeSpec(type(tree)), list(tree)
    if type(tree) is dict:
        return TreeSpec(dict, list(tree)), list(tree.values())
    return None


def flatten(tree) -> tuple[list, TreeSpec]:
    """The leaves of `tree` from left to right, and its spec."""
    leaves: list = []
    root: list = [None]
    # (subtree, list that receives its spec, index in it); children are visited left to right
    stack = [(tree, root, 0)]
    while stack:
        sub, holder, i = stack.pop()
        found = _node(sub)
        if found is None:
            holder[i] = LEAF
            leaves.append(sub)
            continue
        spec, children = found
        slots = [None] * len(children)
        holder[i] = (spec, slots)
        stack.extend((child, slots, j) for j, child in reversed(list(enumerate(children))))
    return leaves, _freeze(root[0])


def _freeze(built) -> TreeSpec:
    """The nested (spec, child slots) pairs flatten built, as immutable specs (bottom-up, no recursion)."""
    order, stack = [], [built]
    while stack:
        item = stack.pop()
        order.append(item)
        if isinstance(item, tuple):
            stack.extend(item[1])
    frozen: dict[int, TreeSpec] = {}
    for item in reversed(order):
        if isinstance(item, tuple):
            spec, slots = item
            frozen[id(item)] = TreeSpec(spec.type, spec.context,
                                        [s if isinstance(s, TreeSpec) else frozen[id(s)] for s in slots])
    return built if isinstance(built, TreeSpec) else frozen[id(built)]


def _build(spec: TreeSpec, children: list):
    if spec.type is dict:
        return dict(zip(spec.context, children))
    if isinstance(spec.context, type):
        return spec.context(*children)
    return spec.type(children)


def unflatten(leaves, spec: TreeSpec) -> Any:
    """The tree of `spec` with `leaves` in order (the inverse of flatten)."""
    order, stack = [], [spec]
    while stack:                       # pre-order: leaves in the order flatten gave them
        s = stack.pop()
        order.append(s)
        if not s.is_leaf:
            stack.extend(reversed(s.children))
    it = iter(leaves)
    values = [next(it) if s.is_leaf else None for s in order]
    built: list = []
    for s, value in zip(reversed(order), reversed(values)):   # children are built before their parent
        if s.is_leaf:
            built.append(value)
        else:
            built.append(_build(s, [built.pop() for _ in s.children]))
    return built[0]


def broadcast_prefix(prefix, spec: TreeSpec) -> list | None:
    """One entry of `prefix` per leaf of `spec`, where `prefix` is a tree whose leaves stand for whole
    subtrees (vmap's in_dims / out_dims); None where the structures do not match."""
    out: list = []
    stack = [(prefix, spec)]
    while stack:
        p, s = stack.pop()
        found = _node(p)
        if found is None:
            out.extend([p] * s.num_leaves)
            continue
        p_spec, children = found
        if s.is_leaf or p_spec.type is not s.type or p_spec.context != s.context or len(children) != len(s.children):
            return None
        stack.extend(reversed(list(zip(children, s.children))))
    return out


def tree_map(fn, tree):
    leaves, spec = flatten(tree)
    return unflatten([fn(leaf) for leaf in leaves], spec)
