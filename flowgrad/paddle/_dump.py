"""`dump_backward_graph_path=DIR`: per backward/grad call, three files named like paddle's,
`<YYYY-MM-DD_HH:MM:SS.ffffff>_backward_graph.dot`, `..._ref_forward_graph.dot` and
`..._call_stack.log`, in the DOT layout of paddle's `inference/analysis/dot.h`.

The backward graph is what the engine ran (grey for a node leaving the ready queue, teal for a
leaf accumulator first reached as a successor), each edge labelled with the gradient it carried;
the reference forward graph is everything reachable from the roots, edges reversed and labelled
with the forward tensor's meta. Node ids come from one process-wide counter.
"""
from __future__ import annotations

import datetime
import itertools
import os

from ..autograd.graph import AccumulateGrad
from ..autograd.record import reachable
from ._policy import node_name
from ._tensor import Place

_GREY = ('style="rounded,filled,bold" shape="box" color="#999999" fontcolor="#ffffff" width="1.3" height="0.84" '
         'fontname="Arial"')
_TEAL = 'shape="box" style="rounded,filled,bold" fontname="Arial" color="#148b97" fontcolor="#ffffff"'
_NOTE = ("Note : If you want to see the call stack information of each Node, please make sure "
         "FLAGS_call_stack_level=3 is set at runtime.\n")
_node_counter = itertools.count()
_last_stamp = [None]


def check_and_create_dir(path) -> None:
    """paddle.utils.download.check_and_create_dir."""
    if path is None:
        return
    if not isinstance(path, str):
        raise AssertionError("path must be string type")
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise NotADirectoryError(f" path:'{path}' must be directory ")
    else:
        try:
            os.makedirs(path)
        except Exception as e:
            raise OSError(f"Create '{path}' failed : {e}")


def _ptr(node) -> str:
    return f"0x{id(node):x}"


def _dims(shape) -> str:
    return ", ".join(map(str, shape))


def _build(lines: dict, edges: list) -> str:
    # paddle keeps nodes in an unordered_map; newest-first is what it usually prints
    body = [f"\t{nid}[label=\"{label}\" {attrs}]\n" for nid, (label, attrs) in reversed(lines.items())]
    body += [f"\t{a}->{b}[label=\"{label}\"]\n" for a, b, label in edges]
    return "digraph G {\n" + "".join(body) + "} // end G"


def _stamp() -> str:
    now = datetime.datetime.now()
    if _last_stamp[0] is not None and now <= _last_stamp[0]:
        now = _last_stamp[0] + datetime.timedelta(microseconds=1)  # never overwrite an earlier dump
    _last_stamp[0] = now
    return now.strftime("%Y-%m-%d_%H:%M:%S.%f")


def write(path: str, roots: list, record) -> None:
    """Write the three files for one backward pass from `roots` (nodes), given the BackwardRecord
    the engine filled (possibly cut short by an error)."""
    nodes, fwd_edges = reachable(roots)
    starts = set(roots)
    ids: dict = {}

    def nid(node) -> str:
        i = ids.get(node)
        if i is None:
            i = ids[node] = f"node_{next(_node_counter)}"
        return i

    fwd_lines: dict = {}
    stacks = []
    for n in nodes:
        name = node_name(n)
        leaf = type(n) is AccumulateGrad
        fwd_lines[nid(n)] = (f"{'Node' if leaf else name.replace('GradNode', '')}\\nGradNode: {_ptr(n)}",
                             _TEAL if leaf and n not in starts else _GREY)
        trace = "".join(n._trace) if n._trace else ""
        stacks.append(f"GradNodeBase {name} ptr : {_ptr(n)} call stack: \n{trace}\n")
    fwd = [(nid(nxt), nid(n), f"{nxt.out_meta[nr][1]} [{_dims(nxt.out_meta[nr][0])}]") for n, nxt, nr in fwd_edges]

    bwd_lines: dict = {}
    for n, popped in record.nodes.items():
        bwd_lines[nid(n)] = (f"{node_name(n)}\\nPtr: {_ptr(n)}",
                             _TEAL if not popped and type(n) is AccumulateGrad else _GREY)
    bwd = [(nid(a), nid(b), f"{Place(device)}\\n{dt}[{_dims(shape)}]") for a, b, shape, dt, device in record.edges]

    prefix = os.path.join(path, _stamp())
    for suffix, text in (("_ref_forward_graph.dot", _build(fwd_lines, fwd)),
                         ("_call_stack.log", _NOTE + "".join(reversed(stacks))),
                         ("_backward_graph.dot", _build(bwd_lines, bwd))):
        with open(prefix + suffix, "w") as f:
            f.write(text)
