"""Which index PyTorch's CPU kernels return among tied values: topk runs libstdc++'s
`std::nth_element` (then `std::sort` of the first k - 1) or, where k * 64 <= n, `std::partial_sort`
over (value, index) pairs; kthvalue runs PyTorch's own median-of-three quickselect. Neither is
stable, so the index a tie gives is the one these algorithms leave, and only running them tells it.
The ops call these per row, and only for rows whose result a tie reaches (a row's values are a
Python list; NaN orders above every number, as in PyTorch)."""
from __future__ import annotations

import numpy as np

from .. import backend

__all__ = ["topk_indices", "kthvalue_indices", "topk_row", "kthvalue_row", "sort_row"]


def _keys(values, largest: bool) -> list:
    """Sort keys under which `a < b` is PyTorch's comparator (NaN first when largest, last else)."""
    if largest:
        return [(0, 0) if v != v else (1, -v) for v in values]
    return [(1, 0) if v != v else (0, v) for v in values]


class _Std:
    """libstdc++'s selection and sorting algorithms over a list of [key, index] pairs."""

    def __init__(self, q: list) -> None:
        self.q = q

    def less(self, i: int, j: int) -> bool:
        return self.q[i][0] < self.q[j][0]

    def swap(self, i: int, j: int) -> None:
        q = self.q
        q[i], q[j] = q[j], q[i]

    def median_to_first(self, result: int, a: int, b: int, c: int) -> None:
        less = self.less
        if less(a, b):
            pick = b if less(b, c) else c if less(a, c) else a
        else:
            pick = a if less(a, c) else c if less(b, c) else b
        self.swap(result, pick)

    def partition_pivot(self, first: int, last: int) -> int:
        self.median_to_first(first, first + 1, first + (last - first) // 2, last - 1)
        q, pivot, lo, hi = self.q, self.q[first][0], first + 1, last
        while True:
            while q[lo][0] < pivot:
                lo += 1
            hi -= 1
            while pivot < q[hi][0]:
                hi -= 1
            if not lo < hi:
                return lo
            self.swap(lo, hi)
            lo += 1

    def insertion_sort(self, first: int, last: int, guarded: bool = True) -> None:
        q = self.q
        for i in range(first + 1 if guarded else first, last):
            val = q[i]
            if guarded and val[0] < q[first][0]:
                q[first + 1:i + 1] = q[first:i]
                q[first] = val
                continue
            j = i
            while val[0] < q[j - 1][0]:
                q[j] = q[j - 1]
                j -= 1
            q[j] = val

    def adjust_heap(self, first: int, hole: int, length: int, val) -> None:
        q, top, child = self.q, hole, hole
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if q[first + child][0] < q[first + child - 1][0]:
                child -= 1
            q[first + hole] = q[first + child]
            hole = child
        if length % 2 == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            q[first + hole] = q[first + child - 1]
            hole = child - 1
        parent = (hole - 1) // 2
        while hole > top and q[first + parent][0] < val[0]:
            q[first + hole] = q[first + parent]
            hole = parent
            parent = (hole - 1) // 2
        q[first + hole] = val

    def pop_heap(self, first: int, last: int, result: int) -> None:
        val = self.q[result]
        self.q[result] = self.q[first]
        self.adjust_heap(first, 0, last - first, val)

    def heap_select(self, first: int, middle: int, last: int) -> None:
        length = middle - first
        if length >= 2:
            for parent in range((length - 2) // 2, -1, -1):
                self.adjust_heap(first, parent, length, self.q[first + parent])
        for i in range(middle, last):
            if self.q[i][0] < self.q[first][0]:
                self.pop_heap(first, middle, i)

    def sort_heap(self, first: int, last: int) -> None:
        while last - first > 1:
            last -= 1
            self.pop_heap(first, last, last)

    def partial_sort(self, first: int, middle: int, last: int) -> None:
        self.heap_select(first, middle, last)
        self.sort_heap(first, middle)

    def nth_element(self, first: int, nth: int, last: int) -> None:
        if first == last or nth == last:
            return
        depth = 2 * ((last - first).bit_length() - 1)
        while last - first > 3:
            if depth == 0:
                self.heap_select(first, nth + 1, last)
                self.swap(first, nth)
                return
            depth -= 1
            cut = self.partition_pivot(first, last)
            if cut <= nth:
                first = cut
            else:
                last = cut
        self.insertion_sort(first, last)

    def sort(self, first: int, last: int, depth: int | None = None) -> None:
        """std::sort; `depth`: introsort's levels before heapsort (by default 2 * log2(n))."""
        if first == last:
            return
        self.introsort(first, last, 2 * ((last - first).bit_length() - 1) if depth is None else depth)
        if last - first > 16:
            self.insertion_sort(first, first + 16)
            self.insertion_sort(first + 16, last, guarded=False)
        else:
            self.insertion_sort(first, last)

    def introsort(self, first: int, last: int, depth: int) -> None:
        parts = [(first, last, depth)]           # the two sides of a cut are disjoint: any order
        while parts:
            first, last, depth = parts.pop()
            while last - first > 16:
                if depth == 0:
                    self.partial_sort(first, last, last)
                    break
                depth -= 1
                cut = self.partition_pivot(first, last)
                parts.append((cut, last, depth))
                last = cut


def sort_row(values: list, largest: bool, depth: int | None = None) -> list:
    """The indices PyTorch's CPU sort (libstdc++'s std::sort, not stable) orders one row by."""
    std = _Std([[key, i] for i, key in enumerate(_keys(values, largest))])
    std.sort(0, len(values), depth)
    return [p[1] for p in std.q]


def topk_row(values: list, k: int, largest: bool, sorted: bool) -> list:
    """The indices PyTorch's CPU topk returns for one row."""
    if k == 0:
        return []
    std = _Std([[key, i] for i, key in enumerate(_keys(values, largest))])
    n = len(values)
    if k * 64 <= n:
        std.partial_sort(0, k, n)
    else:
        std.nth_element(0, k - 1, n)
        if sorted:
            std.sort(0, k - 1)
    return [p[1] for p in std.q[:k]]


def kthvalue_row(values: list, k: int) -> int:
    """The index PyTorch's CPU kthvalue (its quickselect, NaN above every number) returns for one row."""
    keys = _keys(values, largest=False)
    idx = list(range(len(values)))

    def swap(i: int, j: int) -> None:
        keys[i], keys[j] = keys[j], keys[i]
        idx[i], idx[j] = idx[j], idx[i]

    k -= 1
    lo, hi = 0, len(values) - 1
    while hi > lo:
        if hi == lo + 1:
            if keys[hi] < keys[lo]:
                swap(lo, hi)
            break
        swap(lo + (hi - lo) // 2, lo + 1)
        if keys[hi] < keys[lo + 1]:
            swap(lo + 1, hi)
        if keys[hi] < keys[lo]:
            swap(lo, hi)
        if keys[lo] < keys[lo + 1]:
            swap(lo + 1, lo)
        i, j, piv = lo + 1, hi, keys[lo]
        while True:
            i += 1
            while keys[i] < piv:
                i += 1
            j -= 1
            while piv < keys[j]:
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return idx[k]


def _rows(d, order, axis: int):
    """(values, stable ascending/descending order, sorted values), each moved to (rows, n)."""
    xp = backend.namespace(d)
    n = d.shape[axis]
    vals = xp.moveaxis(d, axis, -1).reshape(-1, n)
    order = xp.moveaxis(order, axis, -1).reshape(-1, n)
    s = xp.take_along_axis(vals, order, axis=1)
    same = s[:, :-1] == s[:, 1:]
    if d.dtype.kind in "fV":
        nan = xp.isnan(s)
        same = same | (nan[:, :-1] & nan[:, 1:])
    if d.dtype.kind == "V":
        vals = vals.astype(np.float64)
    return vals, order, same


def _back(xp, out, d, axis: int):
    return xp.moveaxis(out.reshape(xp.moveaxis(d, axis, -1).shape[:-1] + out.shape[-1:]), -1, axis)


def topk_indices(d, order, k: int, axis: int, largest: bool, sorted: bool):
    """PyTorch's topk indices along `axis` of array d, given its stable sort `order` (descending when
    largest), or None where they are order's first k."""
    xp, n = backend.namespace(d), d.shape[axis]
    if d.ndim == 0 or k == 0 or n == 0:
        return None
    vals, order, same = _rows(d, order, axis)
    if sorted or k * 64 <= n:
        rows = xp.nonzero(same[:, :k].any(axis=1))[0].tolist()
    else:
        rows = range(vals.shape[0])           # nth_element's arrangement, ties or not
    if not rows:
        return None
    out = order[:, :k].copy()
    for r in rows:
        out[r] = xp.asarray(topk_row(vals[r].tolist(), k, largest, sorted))
    return _back(xp, out, d, axis)


def kthvalue_indices(d, order, k: int, axis: int):
    """PyTorch's kthvalue index along `axis` (kept as a dim of one), given d's stable ascending sort
    `order`, or None where it is order's k-th."""
    xp, n = backend.namespace(d), d.shape[axis]
    if d.ndim == 0 or n == 1:
        return None
    vals, order, same = _rows(d, order, axis)
    rows = xp.nonzero(same[:, max(k - 2, 0):k].any(axis=1))[0].tolist()
    if not rows:
        return None
    out = order[:, k - 1:k].copy()
    for r in rows:
        out[r, 0] = kthvalue_row(vals[r].tolist(), k)
    return _back(xp, out, d, axis)
