"""einsum as PyTorch parses it (letters, one `...` per operand, an explicit or implicit output,
repeated labels as diagonals, size-1 dims broadcasting) and computes it, so that it records
PyTorch's nodes: each operand's diagonals taken as views, its dims unsqueezed and permuted to one
order (the output's labels, then the contracted ones), then the operands contracted pairwise from
the left, each pair as one batched matrix product (permute, reshape, bmm, view, permute), a label
summed as soon as no later operand has it."""
from __future__ import annotations

from ..autograd.policy import policy_of
from . import linalg as L
from . import reduction as R
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
    # sizes, broadcasting size-1 dims
    sizes: dict = {}
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
    # one dim order for every operand: the output's labels, the ellipsis where the output lacks it,
    # then the contracted letters (A-Z before a-z)
    order = list(out_labels)
    if output is not None and ELLIPSIS not in output:
        order += ellipsis_out
    order += sorted(c for c in counts if c not in out_labels)
    # how many operands have each label at a size other than 1 (a label is summed once only one has)
    counts_not_1 = dict.fromkeys(order, 0)
    aligned = []
    for labels, t in zip(expanded, operands):
        aligned.append(_align(t, labels, order, counts_not_1))
    return _contract(aligned, order, len(out_labels), counts_not_1)


def _align(t, labels: list, order: list, counts_not_1: dict):
    """Operand `t` (dims named by `labels`) with its repeated labels reduced to diagonals, its
    missing labels unsqueezed and its dims permuted to `order`."""
    at: dict = {}
    for c in labels:
        j = len(at)
        if c in at:
            t = S.movedim(S.diagonal(t, 0, at[c], j), -1, at[c])
            continue
        if t._data.shape[j] != 1:
            counts_not_1[c] += 1
        at[c] = j
    for c in order:
        if c not in at:
            at[c] = len(at)
            t = S.unsqueeze(t, at[c])
    return S.permute(t, [at[c] for c in order])


def _contract(ops: list, order: list, out_ndim: int, counts_not_1: dict):
    """The aligned operands contracted from the left; then the contracted dims (all of size 1 by
    then, or, for a single operand, summed) dropped."""
    single = len(ops) == 1
    while len(ops) > 1:
        a, b = ops.pop(0), ops.pop(0)
        sum_dims, a_sums, b_sums = [], [], []
        for dim in range(out_ndim, len(order)):
            c, na, nb = order[dim], a._data.shape[dim], b._data.shape[dim]
            if na != 1 and nb != 1:
                counts_not_1[c] -= 1
                if counts_not_1[c] == 1:
                    sum_dims.append(dim)
                    counts_not_1[c] = 0
            elif counts_not_1[c] == 1 and (na != 1 or nb != 1):
                (a_sums if na != 1 else b_sums).append(dim)
                counts_not_1[c] = 0
        if a_sums:
            a = R.sum(a, a_sums, keepdim=True)
        if b_sums:
            b = R.sum(b, b_sums, keepdim=True)
        ops.insert(0, _sum_product(a, b, sum_dims))
    res = ops[0]
    if len(order) == out_ndim:
        return res
    if single:
        return R.sum(res, list(range(out_ndim, len(order))))
    return S.view(res, res._data.shape[:out_ndim])


def _sum_product(left, right, sum_dims: list):
    """(left * right) summed over `sum_dims` (kept, of size 1) as one batched matrix product: the
    dims in both, only in left and only in right become bmm's batch, rows and columns."""
    if not sum_dims:
        return left * right
    ls, rs = left._data.shape, right._data.shape
    both, lo, ro = [], [], []
    for i in range(len(ls)):
        if i in sum_dims:
            continue
        if ls[i] != 1 and rs[i] != 1:
            both.append(i)
        elif ls[i] != 1:
            lo.append(i)
        else:
            ro.append(i)
    n_both, n_lo, n_ro, n_sum = (_numel(ls, both), _numel(ls, lo), _numel(rs, ro), _numel(ls, sum_dims))
    lperm, rperm = both + lo + sum_dims + ro, both + sum_dims + ro + lo
    a = S.strided_reshape(S.permute(left, lperm), (n_both, n_lo, n_sum))
    b = S.strided_reshape(S.permute(right, rperm), (n_both, n_sum, n_ro))
    out_shape = tuple(ls[d] for d in both + lo) + (1,) * len(sum_dims) + tuple(rs[d] for d in ro)
    res = S.view(L.bmm(a, b), out_shape)
    return S.permute(res, [lperm.index(d) for d in range(len(ls))])


def _numel(shape: tuple, dims: list) -> int:
    n = 1
    for d in dims:
        n *= shape[d]
    return n
