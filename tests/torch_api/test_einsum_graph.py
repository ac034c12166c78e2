"""einsum as PyTorch computes it (operands aligned, then contracted pairwise from the left by bmm)
and the diagonal view it takes of repeated labels, against real torch: the recorded graph node by
node, values, gradients, diagonal's view semantics and errors. flowgrad's einsum never uses
opt_einsum, so real torch runs with it disabled (PyTorch's order where opt_einsum is absent)."""
from __future__ import annotations

import contextlib

import numpy as np
import pytest

import flowgrad.torch as ftorch
from tensor_op_parity import same, same_error

real_torch = pytest.importorskip("torch")


def _graph(root) -> list:
    """The node names reachable from `root`, breadth first."""
    out, seen, queue = [], set(), [root]
    while queue:
        node = queue.pop(0)
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        out.append(node.name())
        queue += [n for n, _ in node.next_functions]
    return out


@contextlib.contextmanager
def _left_to_right(T):
    if T is not real_torch:
        yield
        return
    before = T.backends.opt_einsum.enabled
    T.backends.opt_einsum.enabled = False
    try:
        yield
    finally:
        T.backends.opt_einsum.enabled = before


EQUATIONS = [
    ("ij,jk->ik", (2, 3), (3, 4)), ("bij,bjk->bik", (5, 2, 3), (5, 3, 4)), ("i,i->", (3,), (3,)),
    ("i,j->ij", (3,), (4,)), ("ii->i", (3, 3)), ("ij->", (3, 3)), ("ij", (2, 3)), ("ij,ij->ij", (2, 3), (2, 3)),
    ("...ij,...jk->...ik", (2, 2, 3), (3, 4)), ("ij,jk,kl->il", (2, 3), (3, 4), (4, 5)),
    ("bn,anm,bm->ba", (2, 3), (4, 3, 5), (2, 5)), ("ii,ij->j", (3, 3), (3, 4)), ("ij,j->i", (2, 3), (1,)),
    ("i,i,i->i", (3,), (3,), (3,)), ("iij->ji", (3, 3, 2)), ("Ab,bA->", (2, 3), (3, 2)),
    ("ij,jk->", (0, 3), (3, 4)), ("abc,cd,de->abe", (2, 3, 4), (4, 5), (5, 6)), ("ij,ik->jk", (3, 2), (3, 4)),
]


@pytest.mark.parametrize("equation, shapes", [(e[0], e[1:]) for e in EQUATIONS], ids=[e[0] for e in EQUATIONS])
def test_einsum_records_torchs_graph(equation, shapes):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in shapes]
    graphs = []
    for T in (ftorch, real_torch):
        with _left_to_right(T):
            y = T.einsum(equation, *[T.tensor(a, requires_grad=True) for a in arrays])
        graphs.append(_graph(y.grad_fn))
    assert graphs[0] == graphs[1]
    same(lambda T, *xs: T.einsum(equation, *xs), *arrays)


def test_three_operand_contraction_matches_torch_on_noncontiguous_operands():
    a = np.arange(24.0).reshape(2, 3, 4) / 7
    b = np.arange(20.0).reshape(4, 5) / 9 - 1
    same(lambda T, x, y: T.einsum("bij,bjk,bkl->bil", x, x.transpose(1, 2), y[:3].expand(2, 3, 5)), a, b)


D = np.arange(24.0).reshape(2, 3, 4) / 5 - 2


@pytest.mark.parametrize("fn", [
    lambda T, x: x.diagonal(),
    lambda T, x: T.diagonal(x, 1, 1, 2),
    lambda T, x: T.diagonal(x, -1, 2, 0),
    lambda T, x: x.diagonal(offset=5, dim1=-1, dim2=-2),
    lambda T, x: T.linalg.diagonal(x, offset=-1),
    lambda T, x: x[0].t().diagonal(1),
], ids=["default", "offset", "negative_offset_swapped", "empty", "linalg", "transposed"])
def test_diagonal(fn):
    same(fn, D)


def test_diagonal_is_a_view(torch):
    x = torch.zeros(3, 4)
    d = x.diagonal(1)
    d.fill_(2.0)
    assert x.tolist() == [[0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 2]]
    assert d._base is x and d._version == x._version == 1


def test_diagonal_backward_saves_torchs_values(torch):
    x = torch.ones(2, 3, 4, dtype=torch.float64, requires_grad=True)
    node = x.diagonal(1, 2, 0).grad_fn
    assert node.name() == "DiagonalBackward0"
    assert (tuple(node._saved_self_sym_sizes), node._saved_offset, node._saved_dim1, node._saved_dim2) == ((2, 3, 4), 1, 2, 0)
    g, = torch.autograd.grad((x.diagonal() ** 2).sum(), x, create_graph=True)
    assert g.grad_fn.name() == "DiagonalBackwardBackward0"


@pytest.mark.parametrize("fn", [
    lambda T, x: x.diagonal(0, 1, 1),
    lambda T, x: x.diagonal(0, 0, 3),
    lambda T, x: x[0, 0, 0].diagonal(),
], ids=["same_dims", "dim_range", "0d"])
def test_diagonal_errors(fn):
    same_error(fn, D)
