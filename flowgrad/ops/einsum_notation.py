"""einsum as PyTorch parses it (letters, one `...` per operand, an explicit or implicit output,
repeated labels as diagonals, size-1 dims broadcasting), composed from differentiable primitives:
each operand's diagonals are gathered, its dims aligned to one label order, the operands multiplied
by broadcasting and the labels absent from the output summed."""
from __future__ import annotations

import numpy as np

from .. import backend
from ..autograd.policy import policy_of
from . import shape as S

__all__ = ["einsum"]

ELLIPSIS = "..."


def _parse(policy, equation: str, start: int, stop: int, operand: int | None):
    """The subscripts of equation[start:stop] (one operand's, or the output's when `operand` is
    None): letters and at most one ELLIPSIS, each a list entry."""
    labels, i = [], start
    while i < stop:
        c = equation[i]
        if c == ".":
            if equation[i:i + 3] != ELLIPSIS:
                raise policy.errors.einsum_dot(operand=operand)
            if ELLIPSIS in labels:
                raise policy.errors.einsum_second_ellipsis(operand=operand)
            labels.append(ELLIPSIS)
            i += 3
            continue
        if c.isascii() and c.isalpha():
            labels.append(c)
        elif c != " ":
            raise policy.errors.einsum_invalid_subscript(index=i)
        i += 1
    return labels


def _split(policy, equation: str):
    arrow = equation.find("->")
    lhs_end = len(equation) if arrow < 0 else arrow
    inputs, start = [], 0
    for i in range(lhs_end + 1):
        if i == lhs_end or equation[i] == ",":
            inputs.append(_parse(policy, equation, start, i, len(inputs)))
            start = i + 1
    output = None if arrow < 0 else _parse(policy, equation, arrow + 2, len(equation), None)
    return inputs, output


def _diagonal(t, labels: list):
    """`t` with each label repeated in `labels` reduced to its diagonal (one dim, in the place of
    the label's first occurrence), and the labels left."""
    while True:
        repeated = next((c for i, c in enumerate(labels) if c in labels[:i]), None)
        if repeated is None:
            return t, labels
        where = [i for i, c in enumerate(labels) if c == repeated]
        rest = [i for i in range(len(labels)) if i not in where]
        ar = t._new(backend.namespace(t._data).arange(t._data.shape[where[0]], dtype=np.int64))
        diagonal = S.getitem(S.permute(t, where + rest), (ar,) * len(where))   # dims: the diagonal, then rest
        place = sum(1 for i in rest if i < where[0])
        t = S.movedim(diagonal, 0, place)
        labels = [labels[i] for i in rest[:place]] + [repeated] + [labels[i] for i in rest[place:]]


def _sublist_letter(policy, n) -> str:
    if n is Ellipsis:
        return ELLIPSIS
    if 0 <= n < 52:
        return chr(ord("A") + n) if n < 26 else chr(ord("a") + n - 26)
    raise policy.errors.einsum_sublist_range()


def _from_sublists(args: tuple):
    """einsum(op1, sublist1, op2, sublist2, ..., [output sublist]) as an equation and its operands
    (integers 0-25 are A-Z, 26-51 a-z, Ellipsis is ...)."""
    policy = policy_of(args)
    pairs = args[:len(args) - len(args) % 2]
    equation = ",".join("".join(_sublist_letter(policy, n) for n in sub) for sub in pairs[1::2])
    if len(args) % 2:
        equation += "->" + "".join(_sublist_letter(policy, n) for n in args[-1])
    return equation, pairs[::2]


def einsum(equation, *operands):
    """PyTorch's einsum(equation, *operands) (also with the operands as one list), or its sublist
    form einsum(op1, sublist1, op2, sublist2, ..., [output sublist])."""
    if not operands:
        raise policy_of(equation).errors.einsum_no_operands()
    if not isinstance(equation, str):
        equation, operands = _from_sublists((equation, *operands))
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    policy = policy_of(operands)
    if not operands:
        raise policy.errors.einsum_no_operands()
    inputs, output = _split(policy, equation)
    if len(inputs) != len(operands):
        raise policy.errors.einsum_operands(more="more" if len(operands) > len(inputs) else "fewer")
    # every operand's dims as labels: letters, and (ELLIPSIS, j) for the j-th dim its ellipsis covers,
    # counted from the right so that ellipses of different lengths broadcast
    expanded, ell_ndim = [], 0
    for k, (labels, t) in enumerate(zip(inputs, operands)):
        ndim, named = t._data.ndim, len([c for c in labels if c != ELLIPSIS])
        if ELLIPSIS in labels:
            if named > ndim:
                raise policy.errors.einsum_subscripts_more(given=named, ndim=ndim, index=k)
            cover = ndim - named
            ell_ndim = max(ell_ndim, cover)
            at = labels.index(ELLIPSIS)
            labels = labels[:at] + [(ELLIPSIS, cover - j) for j in range(cover)] + labels[at + 1:]
        elif named != ndim:
            raise policy.errors.einsum_subscripts(given=named, ndim=ndim, index=k)
        expanded.append(labels)
    counts: dict = {}
    for labels in expanded:
        for c in labels:
            if type(c) is str:
                counts[c] = counts.get(c, 0) + 1
    ellipsis_out = [(ELLIPSIS, ell_ndim - j) for j in range(ell_ndim)]
    if output is None:
        out_labels = ellipsis_out + sorted(c for c, n in counts.items() if n == 1)
    else:
        out_labels = []
        for c in output:
            if c == ELLIPSIS:
                out_labels += ellipsis_out
                continue
            if c in out_labels:
                raise policy.errors.einsum_output_repeated(label=c)
            if c not in counts:
                raise policy.errors.einsum_output_unknown(label=c)
            out_labels.append(c)
    dtype = operands[0]._data.dtype
    for t in operands[1:]:
        if t._data.dtype != dtype:
            raise policy.errors.expected_scalar_type(a_scalar=dtype, b_scalar=t._data.dtype)
    # sizes, broadcasting size-1 dims; each operand's diagonals taken
    sizes: dict = {}
    prepared = []
    for k, (labels, t) in enumerate(zip(expanded, operands)):
        for i, c in enumerate(labels):
            n = t._data.shape[i]
            first = labels.index(c)
            if first != i and t._data.shape[first] != n:
                raise policy.errors.einsum_diagonal_size(label=c, operand=k, size=n, other=t._data.shape[first])
            seen = sizes.get(c, 1)
            if n != 1 and seen != 1 and n != seen:
                if type(c) is str:
                    raise policy.errors.einsum_size(label=c, size=n, operand=k, seen=seen)
                own = [j for j, d in enumerate(labels) if type(d) is tuple].index(i)
                raise policy.errors.einsum_ellipsis_size(dim=own, operand=k, size=n, seen=seen)
            sizes[c] = max(seen, n) if n != 1 else seen
        prepared.append(_diagonal(t, labels))
    order = []
    for labels in [p[1] for p in prepared] + [out_labels]:
        for c in labels:
            if c not in order:
                order.append(c)
    aligned = []
    for t, labels in prepared:
        perm = [labels.index(c) for c in order if c in labels]
        p = S.permute(t, perm) if perm != list(range(len(perm))) else t
        aligned.append(S.reshape(p, tuple(t._data.shape[labels.index(c)] if c in labels else 1 for c in order)))
    prod = aligned[0]
    for t in aligned[1:]:
        prod = prod * t
    reduce = tuple(i for i, c in enumerate(order) if c not in out_labels)
    res = prod.sum(reduce) if reduce else prod
    kept = [c for c in order if c in out_labels]
    perm = [kept.index(c) for c in out_labels]
    if perm != list(range(len(perm))):
        res = S.permute(res, perm)
    target = tuple(sizes.get(c, 1) for c in out_labels)
    if res._data.shape != target:
        res = S.expand(res, target)
    return res

