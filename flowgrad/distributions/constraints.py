"""Constraints on distribution parameters and values (PyTorch's `torch.distributions.constraints`):
`check(value)` gives a bool tensor over the batch (an event is valid when all its elements are), and
each prints as PyTorch's does (`GreaterThan(lower_bound=0.0)`)."""
from __future__ import annotations

from .. import backend, ops
from ..ops import linalg_decomp
from ..autograd.policy import TORCH
from ..tensor import Tensor

__all__ = ["Constraint", "MixtureSameFamilyConstraint", "boolean", "dependent", "dependent_property", "greater_than", "greater_than_eq",
           "independent", "integer_interval", "interval", "half_open_interval", "is_dependent", "less_than",
           "lower_cholesky", "lower_triangular", "nonnegative", "nonnegative_integer", "positive",
           "positive_definite", "positive_integer", "real", "real_vector", "simplex", "symmetric", "unit_interval"]


def _all_last(t: Tensor, n: int) -> Tensor:
    """All over the last n dims (n >= 1)."""
    for _ in range(n):
        t = ops.all(t, -1)
    return t


class Constraint:
    """A region of a space; `event_dim` is how many rightmost dims make one event."""

    is_discrete = False
    event_dim = 0

    def check(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def __repr__(self) -> str:
        return type(self).__name__[1:] + "()"


class _Dependent(Constraint):
    """A constraint whose support depends on other parameters: never checked."""

    def __init__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        self._is_discrete, self._event_dim = is_discrete, event_dim

    @property
    def is_discrete(self) -> bool:
        if self._is_discrete is NotImplemented:
            raise TORCH.errors.dist_dependent_static(attribute="is_discrete")
        return self._is_discrete

    @property
    def event_dim(self) -> int:
        if self._event_dim is NotImplemented:
            raise TORCH.errors.dist_dependent_static(attribute="event_dim")
        return self._event_dim

    def __call__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented) -> "_Dependent":
        return _Dependent(is_discrete=self._is_discrete if is_discrete is NotImplemented else is_discrete,
                          event_dim=self._event_dim if event_dim is NotImplemented else event_dim)

    def check(self, value):
        raise TORCH.errors.dist_dependent_check()


def is_dependent(constraint) -> bool:
    return isinstance(constraint, _Dependent)


class _DependentProperty(property, _Dependent):
    """A property that is also a dependent constraint (a distribution's support given by its
    parameters)."""

    def __init__(self, fn=None, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        property.__init__(self, fn)
        _Dependent.__init__(self, is_discrete=is_discrete, event_dim=event_dim)

    def __call__(self, fn):
        return _DependentProperty(fn, is_discrete=self._is_discrete, event_dim=self._event_dim)


class _IndependentConstraint(Constraint):
    """A base constraint whose rightmost `reinterpreted_batch_ndims` dims form one event."""

    def __init__(self, base_constraint: Constraint, reinterpreted_batch_ndims: int):
        self.base_constraint, self.reinterpreted_batch_ndims = base_constraint, reinterpreted_batch_ndims

    @property
    def is_discrete(self) -> bool:
        return self.base_constraint.is_discrete

    @property
    def event_dim(self) -> int:
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value):
        result = self.base_constraint.check(value)
        if result._data.ndim < self.reinterpreted_batch_ndims:
            raise value.policy.errors.dist_independent_ndim(ndim=self.reinterpreted_batch_ndims,
                                                            got=result._data.ndim)
        return _all_last(result, self.reinterpreted_batch_ndims)

    def __repr__(self) -> str:
        return f"{type(self).__name__[1:]}({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return ops.logical_or(value == 0, value == 1)


class _IntegerInterval(Constraint):
    is_discrete = True

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        return ops.logical_and(ops.logical_and(ops.remainder(value, 1) == 0, self.lower_bound <= value),
                               value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"{type(self).__name__[1:]}(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _IntegerGreaterThan(Constraint):
    is_discrete = True

    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return ops.logical_and(ops.remainder(value, 1) == 0, value >= self.lower_bound)

    def __repr__(self) -> str:
        return f"{type(self).__name__[1:]}(lower_bound={self.lower_bound})"


class _Real(Constraint):
    def check(self, value):
        return value == value   # everything but NaN


class _GreaterThan(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound < value

    def __repr__(self) -> str:
        return f"{type(self).__name__[1:]}(lower_bound={self.lower_bound})"


class _GreaterThanEq(_GreaterThan):
    def check(self, value):
        return self.lower_bound <= value


class _LessThan(Constraint):
    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return value < self.upper_bound

    def __repr__(self) -> str:
        return f"{type(self).__name__[1:]}(upper_bound={self.upper_bound})"


class _Interval(Constraint):
    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        return ops.logical_and(self.lower_bound <= value, value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"{type(self).__name__[1:]}(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _HalfOpenInterval(_Interval):
    def check(self, value):
        return ops.logical_and(self.lower_bound <= value, value < self.upper_bound)


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        total = ops.sum(value, -1)
        return ops.logical_and(ops.all(value >= 0, -1), ops.abs(total - 1) < 1e-6)


class _Multinomial(Constraint):
    """Nonnegative counts over the last dim summing to at most `upper_bound`."""

    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, x):
        return ops.logical_and(ops.all(x >= 0, -1), ops.sum(x, -1) <= self.upper_bound)


class _OneHot(Constraint):
    is_discrete = True
    event_dim = 1

    def check(self, value):
        is_boolean = ops.logical_or(value == 0, value == 1)
        return ops.logical_and(ops.all(is_boolean, -1), ops.sum(value, -1) == 1)


class MixtureSameFamilyConstraint(Constraint):
    """A component distribution's support, checked with the mixture's component dim put back."""

    def __init__(self, base_constraint: Constraint):
        self.base_constraint = base_constraint

    @property
    def is_discrete(self) -> bool:
        return self.base_constraint.is_discrete

    @property
    def event_dim(self) -> int:
        return self.base_constraint.event_dim

    def check(self, value):
        result = self.base_constraint.check(ops.unsqueeze(value, -1 - self.event_dim))
        ndim = value._data.ndim
        if ndim < self.event_dim:
            raise value.policy.errors.dist_independent_ndim(ndim=self.event_dim, got=ndim)
        keep = ndim - self.event_dim
        return ops.all(ops.reshape(result, result._data.shape[:keep] + (-1,)), -1)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_constraint!r})"


class _LowerTriangular(Constraint):
    event_dim = 2

    def check(self, value):
        return _all_last(ops.tril(value) == value, 2)


class _LowerCholesky(Constraint):
    event_dim = 2

    def check(self, value):
        lower = _all_last(ops.tril(value) == value, 2)
        positive_diagonal = ops.all(linalg_decomp.diagonal(value, 0, -2, -1) > 0, -1)
        return ops.logical_and(lower, positive_diagonal)


class _Symmetric(Constraint):
    event_dim = 2

    def check(self, value):
        d = value._data
        xp = backend.namespace(d)
        if d.shape[-1] != d.shape[-2]:
            return value._new(xp.zeros(d.shape[:-2], dtype=bool))
        return value._new(xp.isclose(d, xp.swapaxes(d, -1, -2), atol=1e-6).all(-1).all(-1))


class _PositiveDefinite(_Symmetric):
    def check(self, value):
        symmetric = super().check(value)
        d = value._data
        if not d.size or d.shape[-1] != d.shape[-2]:
            return symmetric
        xp = backend.namespace(d)
        flat = d.reshape((-1,) + d.shape[-2:])
        ok = xp.asarray([bool(xp.all(xp.linalg.eigvalsh(xp.tril(m) + xp.tril(m, -1).T) > 0)) for m in flat])
        return ops.logical_and(symmetric, value._new(ok.reshape(d.shape[:-2])))


dependent = _Dependent()
dependent_property = _DependentProperty
independent = _IndependentConstraint
boolean = _Boolean()
nonnegative_integer = _IntegerGreaterThan(0)
positive_integer = _IntegerGreaterThan(1)
integer_interval = _IntegerInterval
real = _Real()
real_vector = independent(real, 1)
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
unit_interval = _Interval(0.0, 1.0)
interval = _Interval
half_open_interval = _HalfOpenInterval
simplex = _Simplex()
multinomial = _Multinomial
one_hot = _OneHot()
lower_triangular = _LowerTriangular()
lower_cholesky = _LowerCholesky()
symmetric = _Symmetric()
positive_definite = _PositiveDefinite()
