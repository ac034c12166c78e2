"""What a backward pass ran, for graph dumps (paddle's `dump_backward_graph_path`): the graph
reachable from the roots before the run, and the nodes and gradient edges of the run itself.
Both walks are iterative, like every other walk over the graph."""
from __future__ import annotations

from collections import deque
from typing import Iterable

from .. import backend
from .graph import Node


class BackwardRecord:
    """An observer for `run_backward`: each node in the order it was first seen, and each
    gradient sent along an edge, in the order sent."""

    __slots__ = ("nodes", "edges")

    def __init__(self):
        self.nodes: dict[Node, bool] = {}  # node -> first seen leaving the ready queue (else as a successor)
        self.edges: list[tuple] = []       # (node, next_node, shape, dtype, device) of each gradient sent

    def popped(self, node: Node) -> None:
        self.nodes.setdefault(node, True)

    def passed(self, node: Node, next_node: Node, grad) -> None:
        self.nodes.setdefault(next_node, False)
        d = grad._data
        self.edges.append((node, next_node, d.shape, d.dtype, backend.device_of(d)))


def reachable(roots: Iterable[Node]) -> tuple[list[Node], list[tuple[Node, Node, int]]]:
    """Breadth-first from `roots`: every reachable node in the order first seen, and every edge as
    `(node, next_node, output_nr)` in visit order."""
    order: list[Node] = []
    edges: list[tuple[Node, Node, int]] = []
    seen: set[Node] = set()
    queue: deque[Node] = deque()
    for node in roots:
        if node not in seen:
            seen.add(node)
            order.append(node)
            queue.append(node)
    while queue:
        node = queue.popleft()
        for e in node.next_edges:
            if e is None:
                continue
            nxt, nr = e
            edges.append((node, nxt, nr))
            if nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
                queue.append(nxt)
    return order, edges
