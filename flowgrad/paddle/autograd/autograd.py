"""paddle.autograd.jacobian and hessian: lazy matrices evaluated row by row with
`paddle.grad(..., create_graph=True, allow_unused=True)` when indexed, rows cached (the structure of
paddle's `autograd/autograd.py`). Unused inputs give zero blocks; no `.grad` changes."""
from __future__ import annotations

from collections.abc import Sequence

from ...tensor import Tensor as _CoreTensor


def _paddle():
    from ... import paddle
    return paddle


def _as_tensors(xs):
    if isinstance(xs, _CoreTensor):
        return xs
    if isinstance(xs, Sequence):
        return tuple(xs)
    return xs


class Jacobian:
    """The Jacobian of `ys` with respect to `xs`: `.shape` is a list, `J[i]`, `J[:, j]`, `J[:]`
    evaluate the rows they need; arithmetic and comparisons evaluate the whole matrix."""

    def __init__(self, ys, xs, is_batched: bool = False) -> None:
        if not is_batched:
            if not 0 <= len(xs.shape) <= 1:
                raise ValueError(f"xs.ndim should be 0 or 1 when is_batched=False but got {len(xs.shape)}")
            if not 0 <= len(ys.shape) <= 1:
                raise ValueError(f"ys.ndim should be 0 or 1 when is_batched=False but got {len(ys.shape)}")
            self._jacobian = _JacobianNoBatch(ys, xs)
        else:
            if not 1 <= len(ys.shape) <= 2:
                raise ValueError(f"ys.ndim should be 1 or 2 when is_batched=True but got {len(ys.shape)}")
            if not 1 <= len(xs.shape) <= 2:
                raise ValueError(f"xs.ndim should be 1 or 2 when is_batched=True but got {len(xs.shape)}")
            self._jacobian = _JacobianBatchFirst(ys, xs)

    @property
    def shape(self) -> list:
        return self._jacobian.shape

    def __getitem__(self, indexes):
        return self._jacobian[indexes]

    def __getattr__(self, name: str):
        if name == "_evaluate_all":
            return self._jacobian._evaluate_all
        return getattr(self._jacobian._evaluate_all(), name)


def _binary(op):
    def method(self, other):
        rhs = other._evaluate_all() if isinstance(other, Jacobian) else other
        return op(self._evaluate_all(), rhs)
    return method


for _name, _op in (("__add__", lambda a, b: a + b), ("__sub__", lambda a, b: a - b), ("__mul__", lambda a, b: a * b),
                   ("__truediv__", lambda a, b: a / b), ("__div__", lambda a, b: a / b),
                   ("__pow__", lambda a, b: a ** b), ("__mod__", lambda a, b: a % b),
                   ("__floordiv__", lambda a, b: a // b), ("__matmul__", lambda a, b: a @ b),
                   ("__eq__", lambda a, b: a == b), ("__ne__", lambda a, b: a != b), ("__lt__", lambda a, b: a < b),
                   ("__le__", lambda a, b: a <= b), ("__gt__", lambda a, b: a > b), ("__ge__", lambda a, b: a >= b)):
    setattr(Jacobian, _name, _binary(_op))
del _name, _op
Jacobian.__hash__ = object.__hash__


class Hessian(Jacobian):
    pass


class _Jacobian:
    """Row-lazy evaluation along `_lazy_axis`, with a per-row cache."""

    is_batched = False

    def __init__(self, ys, xs):
        self.original_xs_shape = xs.shape
        self.original_ys_shape = ys.shape
        self._xs = xs
        self._ys = ys
        if len(self._ys.shape) == 0 and not self.is_batched:
            self._ys = self._ys.reshape([-1])
        if len(self._ys.shape) == 1 and self.is_batched:
            self._ys = self._ys.reshape([-1, 1])
        self._flatten_xs = self._flatten(_as_tensors(self._xs))
        self._flatten_ys = self._flatten(_as_tensors(self._ys))
        self._cache = {}

    def _lazy_indexes(self, indexes):
        idx = indexes[self._lazy_axis]
        return (idx,) if isinstance(idx, int) else tuple(range(idx.start, idx.stop, idx.step))

    def _shifted_indexes(self, indexes, lazy_axis_size=0):
        idx = indexes[self._lazy_axis]
        shifted = 0 if isinstance(idx, int) else slice(0, lazy_axis_size, 1)
        return (*indexes[:self._lazy_axis], shifted, *indexes[self._lazy_axis + 1:])

    def __getitem__(self, indexes):
        if not self.is_batched:
            if len(self.shape) == 0:
                raise IndexError("0-D tensor can not be indexed.")
            if len(self.shape) == 1:
                indexes = (0, indexes) if len(self.original_ys_shape) == 0 else (indexes, 0)
        elif len(self.shape) == 1:
            indexes = (indexes, 0, 0)
        elif len(self.shape) == 2:
            if isinstance(indexes, slice):
                indexes = (indexes, slice(None, None, None))
            else:
                indexes = ((indexes[0], 0, indexes[1]) if len(self.original_ys_shape) == 1
                           else (indexes[0], indexes[1], 0))
        indexes = _multi_index(indexes, self.inner_shape)
        if isinstance(indexes[self._lazy_axis], int):
            other = indexes[:self._lazy_axis] + indexes[self._lazy_axis + 1:]
            return self._cached_evaluate(indexes[self._lazy_axis])[other]
        lazy = self._lazy_indexes(indexes)
        shape = list(self.inner_shape)
        shape[self._lazy_axis] = len(lazy)
        part = _paddle().concat([self._cached_evaluate(i) for i in lazy], axis=self._lazy_axis).reshape(shape)
        result = part[self._shifted_indexes(indexes, len(lazy))]
        for _ in range(len(result.shape) - len(self.shape)):
            result = result.squeeze(-1)
        return result

    def _cached_evaluate(self, k):
        if k is None:
            return self._cached_evaluate(0).reshape([])
        v = self._cache.get(k)
        if v is None:
            v = self._cache[k] = self._evaluate(k)
        return v

    def _evaluate_all(self):
        return self._cached_evaluate(None) if len(self.shape) == 0 else self[:]


class _JacobianNoBatch(_Jacobian):
    _lazy_axis = 0

    def __init__(self, ys, xs):
        super().__init__(ys, xs)
        self.inner_shape = [*self._flatten_ys.shape[0:1], *self._flatten_xs.shape[0:1]]
        self.shape = [*self.original_ys_shape[0:1], *self.original_xs_shape[0:1]]

    def _flatten(self, xs):
        if not isinstance(xs, Sequence):
            return xs.reshape((-1,))
        return _paddle().concat(tuple(x.reshape((-1,)) for x in xs))

    def _evaluate(self, row):
        return self._flatten(_grad_for_jacobian(self._flatten_ys[row], self._xs))


class _JacobianBatchFirst(_Jacobian):
    _lazy_axis = 1
    is_batched = True

    def __init__(self, ys, xs):
        super().__init__(ys, xs)
        self.inner_shape = [*self._flatten_xs.shape[0:1], *self._flatten_ys.shape[1:2], *self._flatten_xs.shape[1:2]]
        self.shape = [*self._flatten_xs.shape[0:1], *self.original_ys_shape[1:2], *self.original_xs_shape[1:2]]

    def _flatten(self, xs):
        if not isinstance(xs, Sequence):
            return xs.reshape((xs.shape[0], -1))
        return _paddle().concat(tuple(x.reshape((x.shape[0], -1)) for x in _as_tensors(xs)), 1)

    def _evaluate(self, row):
        return self._flatten(_grad_for_jacobian(self._flatten_ys[:, row], self._xs))


def _multi_index(indexes, shape):
    indexes = indexes if isinstance(indexes, Sequence) else (indexes,)
    if any(i is Ellipsis for i in indexes):
        raise IndexError("Ellipsis index currently is not supported.")
    indexes = indexes + (slice(0, None, None),) * (len(shape) - len(indexes))
    out = []
    for i, index in enumerate(indexes):
        if isinstance(index, slice):
            index = slice(index.start or 0, index.stop or shape[i], index.step or 1)
            out.append(slice(index.start + shape[i] if index.start < 0 else index.start,
                             index.stop + shape[i] if index.stop < 0 else index.stop, index.step))
        elif isinstance(index, int):
            out.append(index + shape[i] if index < 0 else index)
        else:
            raise TypeError(f"Not supported index type {index}.")
    return tuple(out)


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


def _zeros_for_none(grads, refs):
    paddle = _paddle()
    if grads is None:
        z = paddle.zeros_like(refs)
        z.stop_gradient = refs.stop_gradient
        return z
    if isinstance(grads, Sequence):
        return tuple(_zeros_for_none(g, refs[i]) for i, g in enumerate(grads))
    return grads


def _grad_for_jacobian(ys, xs, v=None):
    grads = _paddle().grad(ys, xs, v, create_graph=True, allow_unused=True)
    if isinstance(xs, _CoreTensor) and isinstance(grads, Sequence) and len(grads) > 0:
        grads = grads[0]
    return _zeros_for_none(grads, xs)
