"""PyTorch's memory layouts where they decide whether a result can be viewed: the strides of an output
its TensorIterator allocates (dims ordered by the inputs' strides, as `reorder_dimensions` sorts them)
and `computeStride`, the rule by which `view` reshapes without copying. Strides are in elements, in
PyTorch's terms (a facade's tensors keep NumPy's strides, which are PyTorch's for every view)."""
from __future__ import annotations

import math

__all__ = ["output_strides", "view_strides", "strides_of", "dense_strides_in_order"]


def strides_of(a) -> tuple:
    """An array's strides in elements."""
    return tuple(s // a.itemsize for s in a.strides) if hasattr(a, "strides") else (1,) * a.ndim


def _contiguous(shape, strides) -> bool:
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1 and stride != expected:
            return False
        expected *= size
    return True


def output_strides(shape: tuple, operands: list) -> tuple:
    """The strides of the output a TensorIterator allocates for inputs given as (shape, strides)
    broadcast to `shape`: C order where every input is contiguous of that shape, else the dims sorted
    by the inputs' strides (the first input deciding, ties to the next, then the smaller size first)."""
    nd = len(shape)
    if nd <= 1 or all(tuple(s) == tuple(shape) and _contiguous(s, st) for s, st in operands):
        return _c_strides(shape)
    aligned = []
    for s, st in operands:
        pad = nd - len(s)
        aligned.append([0 if (i < pad or s[i - pad] == 1) and shape[i] != 1 else st[i - pad] for i in range(nd)])

    def should_swap(d0: int, d1: int) -> int:
        for st in aligned:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    return tuple(dense_strides_in_order(shape, should_swap))


def dense_strides_in_order(shape, should_swap, empty_as_one: bool = False) -> list:
    """Dense strides with the dims ordered, fastest first, by PyTorch's insertion sort under
    `should_swap(d0, d1)` (> 0: d0 goes after d1; < 0: stop; 0: leave the tie), starting from C order;
    `empty_as_one`: a size-0 dim steps as if of size 1 (infer_dense_strides)."""
    nd = len(shape)
    perm = list(range(nd - 1, -1, -1))
    for i in range(1, nd):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    out, step = [0] * nd, 1
    for d in perm:
        out[d] = step
        step *= shape[d] if shape[d] or not empty_as_one else 1
    return out


def _c_strides(shape) -> tuple:
    out, step = [0] * len(shape), 1
    for d in range(len(shape) - 1, -1, -1):
        out[d] = step
        step *= shape[d]
    return tuple(out)


def view_strides(shape: tuple, strides: tuple, new_shape: tuple):
    """The strides of a view of (shape, strides) as `new_shape` by PyTorch's computeStride, or None
    where no view can express it (view raises; reshape copies)."""
    if not shape:
        return _c_strides(new_shape)
    if math.prod(shape) == 0:
        return _c_strides(new_shape)
    new = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base = strides[-1]
    tensor_numel = view_numel = 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != tensor_numel * chunk_base):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new[view_d] = view_numel * chunk_base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                chunk_base = strides[d - 1]
                tensor_numel = view_numel = 1
    return tuple(new) if view_d == -1 else None
