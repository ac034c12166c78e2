"""A Jacobian matrix computed one row at a time, when indexing asks for the rows (paddle's
`paddle.autograd.jacobian` objects). Row k is the gradient of output element k with respect to the
input, taken with create_graph (so the matrix is differentiable) through the tensors' own policy;
an input the output does not reach gives a zero row. Rows are cached; arithmetic and comparisons,
and any tensor attribute, use the whole matrix."""
from __future__ import annotations

from .. import backend
from . import api
from .policy import policy_of


class LazyJacobian:
    """d ys / d xs for one input `xs`: `[M, N]` (M, N the sizes of 1-D or 0-D `ys`, `xs`; a 0-D
    side drops its axis from `shape`), or with `batched` `[B, M, N]` per row of a leading batch
    axis. `ys` may itself be a LazyJacobian (a Hessian is the Jacobian of a Jacobian)."""

    def __init__(self, ys, xs, batched: bool) -> None:
        from .. import ops
        if isinstance(ys, LazyJacobian):
            ys = ys._evaluate_all()
        ys_shape, xs_shape = tuple(ys._data.shape), tuple(xs._data.shape)
        self._xs, self._batched, self._ys_ndim = xs, batched, len(ys_shape)
        self._rows: dict = {}
        if batched:
            self._ys = ops.reshape(ys, (ys_shape[0], -1))
            self._inner = (xs_shape[0], self._ys._data.shape[1], int(xs._data.size // xs_shape[0]))
            self.shape = [xs_shape[0], *ys_shape[1:2], *xs_shape[1:2]]
        else:
            self._ys = ops.reshape(ys, (-1,))
            self._inner = (self._ys._data.shape[0], int(xs._data.size))
            self.shape = [*ys_shape[0:1], *xs_shape[0:1]]
        self._lazy = 1 if batched else 0   # the axis along which rows are computed

    # ------------------------------------------------------------------ rows
    def _row(self, k: int):
        from .. import ops
        if k in self._rows:
            return self._rows[k]
        y = self._ys[:, k] if self._batched else self._ys[k]
        xs = self._xs
        g = api.grad([y], [xs], None, None, True, allow_unused=True, policy=policy_of(xs))[0]
        if g is None:
            g = xs._new(backend.namespace(xs._data).zeros_like(xs._data))
            g._requires_grad = xs._requires_grad
        row = self._rows[k] = ops.reshape(g, (xs._data.shape[0], -1) if self._batched else (-1,))
        return row

    def _evaluate_all(self):
        from .. import ops
        return ops.reshape(self._row(0), ()) if len(self.shape) == 0 else self[:]

    # ------------------------------------------------------------------ indexing
    def __getitem__(self, index):
        from .. import ops
        policy = policy_of(self._xs)
        ndim = len(self.shape)
        if not self._batched:
            if ndim == 0:
                raise policy.errors.jacobian_index_0d()
            if ndim == 1:
                index = (0, index) if self._ys_ndim == 0 else (index, 0)
        elif ndim == 1:
            index = (index, 0, 0)
        elif ndim == 2:
            index = (index, slice(None)) if isinstance(index, slice) else \
                (index[0], 0, index[1]) if self._ys_ndim == 1 else (index[0], index[1], 0)
        full = self._full_index(index if isinstance(index, tuple) else (index,), policy)
        lazy = full[self._lazy]
        if isinstance(lazy, int):
            return self._row(lazy)[full[:self._lazy] + full[self._lazy + 1:]]
        rows = [self._row(k) for k in range(*lazy.indices(self._inner[self._lazy]))]
        out = ops.stack(rows, self._lazy)[full[:self._lazy] + (slice(None),) + full[self._lazy + 1:]]
        while out._data.ndim > ndim:
            out = ops.squeeze(out, -1)
        return out

    def _full_index(self, index: tuple, policy) -> tuple:
        """One int or slice per axis of the inner `[(B,) M, N]` matrix, negative ints wrapped."""
        if any(i is Ellipsis for i in index):
            raise policy.errors.jacobian_index_ellipsis()
        index = index + (slice(None),) * (len(self._inner) - len(index))
        out = []
        for i, size in zip(index, self._inner):
            if isinstance(i, int) and not isinstance(i, bool):
                out.append(i + size if i < 0 else i)
            elif isinstance(i, slice):
                out.append(i)
            else:
                raise policy.errors.jacobian_index_type(index=i)
        return tuple(out)

    def __getattr__(self, name: str):
        return getattr(self._evaluate_all(), name)

    __hash__ = object.__hash__


def _whole(op):
    def method(self, other):
        return op(self._evaluate_all(), other._evaluate_all() if isinstance(other, LazyJacobian) else other)
    return method


for _name, _op in (("__add__", lambda a, b: a + b), ("__sub__", lambda a, b: a - b), ("__mul__", lambda a, b: a * b),
                   ("__truediv__", lambda a, b: a / b), ("__pow__", lambda a, b: a ** b),
                   ("__mod__", lambda a, b: a % b), ("__floordiv__", lambda a, b: a // b),
                   ("__matmul__", lambda a, b: a @ b), ("__eq__", lambda a, b: a == b),
                   ("__ne__", lambda a, b: a != b), ("__lt__", lambda a, b: a < b), ("__le__", lambda a, b: a <= b),
                   ("__gt__", lambda a, b: a > b), ("__ge__", lambda a, b: a >= b)):
    setattr(LazyJacobian, _name, _whole(_op))
del _name, _op
