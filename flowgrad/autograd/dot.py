"""The backward graph as Graphviz DOT text, and as SVG/PNG when Graphviz's `dot` is installed.

`to_dot(loss)` walks the graph from the tensors' grad_fn nodes (iteratively: a 100,000-node chain
is fine) and draws one box per node with its name and the shapes of what it saved, one box per
leaf (AccumulateGrad) with the parameter's name when `params` names it, and one ellipse per
output tensor. Arrows point the way the forward pass went, from an input's node to the node that
consumed it, as torchviz draws them.
"""
from __future__ import annotations

import shutil
import subprocess
from typing import Iterable, Mapping

from .graph import AccumulateGrad, SavedTensor
from .policy import policy_of
from ..tensor import Tensor

__all__ = ["to_dot", "render"]

_OUTPUT_STYLE = 'shape=ellipse, style=filled, fillcolor="darkolivegreen1"'
_LEAF_STYLE = 'style=filled, fillcolor="lightblue"'


def to_dot(tensor_or_tensors, params: Mapping[str, Tensor] | None = None, *, graph_name: str = "backward") -> str:
    """DOT text of the backward graph of one tensor or several. `params` maps names to leaf
    tensors (e.g. `dict(model.named_parameters())`) so their boxes carry those names."""
    tensors = [tensor_or_tensors] if isinstance(tensor_or_tensors, Tensor) else list(tensor_or_tensors)
    names = {id(t): name for name, t in (params or {}).items()}
    ids: dict = {}
    lines = [f"digraph {graph_name} {{",
             '  graph [rankdir=TB];',
             '  node [shape=box, fontname="monospace", fontsize=10];']

    def node_id(node) -> str:
        key = ids.get(node)
        if key is None:
            key = ids[node] = f"n{len(ids)}"
        return key

    stack = []
    for k, t in enumerate(tensors):
        out_id = f"out{k}"
        label = [names.get(id(t), "output"), _shape(t._data.shape)]
        lines.append(f"  {out_id} [label={_quote(label)}, {_OUTPUT_STYLE}];")
        root = _root_node(t)
        if root is not None:
            first = root not in ids
            lines.append(f"  {node_id(root)} -> {out_id};")
            if first:
                stack.append(root)
    seen = set(stack)
    while stack:
        node = stack.pop()
        nid = node_id(node)
        lines.append(f"  {nid} [label={_quote(_label(node, names))}"
                     f"{', ' + _LEAF_STYLE if type(node) is AccumulateGrad else ''}];")
        for edge in node.next_edges:
            if edge is None:
                continue
            nxt = edge[0]
            lines.append(f"  {node_id(nxt)} -> {nid};")
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    lines.append("}")
    return "\n".join(lines) + "\n"


def render(tensor_or_tensors, params: Mapping[str, Tensor] | None = None, *, format: str = "svg",
           filename: str | None = None):
    """Render the backward graph with Graphviz: the SVG/PNG bytes, or, with `filename`, write
    them there and return the filename."""
    tensors = [tensor_or_tensors] if isinstance(tensor_or_tensors, Tensor) else list(tensor_or_tensors)
    policy = policy_of(tensors)
    if format not in ("svg", "png"):
        raise policy.errors.dot_format(format=format)
    exe = shutil.which("dot")
    if exe is None:
        raise policy.errors.dot_not_found()
    text = to_dot(tensors, params)
    proc = subprocess.run([exe, f"-T{format}"], input=text.encode(), capture_output=True, check=False)
    if proc.returncode != 0:
        raise policy.errors.dot_failed(code=proc.returncode, stderr=proc.stderr.decode(errors="replace").strip())
    if filename is None:
        return proc.stdout
    with open(filename, "wb") as f:
        f.write(proc.stdout)
    return filename


# ------------------------------------------------------------------------------- helpers

def _root_node(t: Tensor):
    if t._grad_fn is not None:
        return t._grad_fn
    if t._requires_grad:
        return t._grad_accumulator()
    return None


def _label(node, names: dict) -> list:
    if type(node) is AccumulateGrad:
        var = node.variable
        return [names.get(id(var), "leaf"), _shape(var._data.shape)]
    lines = [node.name().rsplit("::", 1)[-1]]
    lines.extend(_saved_lines(node))
    return lines


def _saved_lines(node) -> Iterable[str]:
    """One line per saved tensor: its name when the node class declares it, and its shape."""
    saved = node._saved if type(node._saved) is tuple else ()
    names = getattr(type(node), "_saved_names", ())
    fn_saved = getattr(node, "_fn_saved", None)       # a custom Function's save_for_backward
    if fn_saved:
        saved, names = fn_saved, ()
    for i, s in enumerate(saved):
        if type(s) is not SavedTensor:
            continue
        name = names[i] if i < len(names) and names[i] else f"saved[{i}]"
        shape = s.tensor._data.shape if s.tensor is not None else s._data.shape if s._data is not None else None
        yield f"{name}: {_shape(shape) if shape is not None else '(packed)'}"


def _shape(shape) -> str:
    return str(tuple(int(s) for s in shape))


def _quote(lines: list) -> str:
    text = "\\n".join(str(line).replace("\\", "\\\\").replace('"', '\\"') for line in lines)
    return f'"{text}"'
