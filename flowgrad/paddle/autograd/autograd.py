"""paddle.autograd.jacobian and hessian: `Jacobian` / `Hessian` objects over flowgrad's
row-by-row `LazyJacobian` (`flowgrad/autograd/lazy_jacobian.py`), with paddle's argument checks.
Unused inputs give zero blocks; no `.grad` changes."""
from __future__ import annotations

from collections.abc import Sequence

from ...autograd.lazy_jacobian import LazyJacobian


class Jacobian(LazyJacobian):
    """The Jacobian of `ys` with respect to `xs`: `.shape` is a list, `J[i]`, `J[:, j]`, `J[:]`
    evaluate the rows they need; arithmetic and comparisons evaluate the whole matrix."""

    def __init__(self, ys, xs, is_batched: bool = False) -> None:
        low, high = (1, 2) if is_batched else (0, 1)
        for name, t in (("xs", xs), ("ys", ys)) if not is_batched else (("ys", ys), ("xs", xs)):
            if not low <= len(t.shape) <= high:
                raise ValueError(f"{name}.ndim should be {low} or {high} when is_batched={is_batched} but got "
                                 f"{len(t.shape)}")
        super().__init__(ys, xs, is_batched)


class Hessian(Jacobian):
    pass


def jacobian(ys, xs, batch_axis: int | None = None):
    """A Jacobian (or nested tuples of them for tuple `ys` / `xs`); `batch_axis` None or 0."""
    if batch_axis is not None and batch_axis != 0:
        raise ValueError(f"batch_axis should be None or 0, but got {batch_axis}.")
    batched = batch_axis is not None
    ys_seq, xs_seq = isinstance(ys, Sequence), isinstance(xs, Sequence)
    if ys_seq and xs_seq:
        return tuple(tuple(Jacobian(y, x, batched) for x in xs) for y in ys)
    if ys_seq:
        return tuple(Jacobian(y, xs, batched) for y in ys)
    if xs_seq:
        return tuple(Jacobian(ys, x, batched) for x in xs)
    return Jacobian(ys, xs, batched)


def hessian(ys, xs, batch_axis: int | None = None):
    """The Hessian of a one-element `ys` (per batch row with `batch_axis=0`)."""
    if batch_axis is None:
        if ys.numel() > 1:
            raise ValueError(f"Only support ys.numel()({ys.numel()})==1 when batch_axis is None.")
        ys = ys.reshape(())
    elif isinstance(batch_axis, int):
        if ys[0].numel() > 1:
            raise ValueError(f"Only support ys[0].numel()({ys.numel()})==1 when batch_axis is int")
        if batch_axis != 0:
            raise ValueError("Only support batch_axis=0 yet.")
        ys = ys.reshape((-1,))
    else:
        raise ValueError(f"batch_axis should be None or int, but got {type(batch_axis)}.")
    first = jacobian(ys, xs, batch_axis)
    if not isinstance(xs, Sequence):
        h = jacobian(first, xs, batch_axis)
        h.__class__ = Hessian
        return h
    h = tuple(jacobian(j, xs, batch_axis) for j in first)
    for row in h:
        for j in row:
            j.__class__ = Hessian
    return h
