"""biject_to / transform_to (PyTorch's constraint registry): the transform from unconstrained reals
onto a constraint's region, looked up by the constraint's type. `registries(classes)` builds the pair
from a facade's transform classes (the neutral pair comes from the neutral ones)."""
from __future__ import annotations

import numbers

from ..autograd.policy import TORCH
from . import constraints
from . import transforms as _transforms


class ConstraintRegistry:
    """Constraint type -> factory(constraint) giving a Transform."""

    def __init__(self) -> None:
        self._registry: dict = {}

    def register(self, constraint, factory=None):
        """Register `factory` for a constraint subclass (or the type of an instance); a decorator
        without `factory`."""
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        if isinstance(constraint, constraints.Constraint):
            constraint = type(constraint)
        if not isinstance(constraint, type) or not issubclass(constraint, constraints.Constraint):
            raise TORCH.errors.constraint_register_type(constraint=constraint)
        self._registry[constraint] = factory
        return factory

    def __call__(self, constraint):
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            raise TORCH.errors.constraint_no_transform(name=type(constraint).__name__) from None
        return factory(constraint)


def registries(T) -> tuple[ConstraintRegistry, ConstraintRegistry]:
    """(biject_to, transform_to) whose transforms are the classes of `T` (a module or namespace
    holding the transform classes and `identity_transform`)."""
    biject_to, transform_to = ConstraintRegistry(), ConstraintRegistry()
    both = (biject_to, transform_to)

    def on(registry_list, kinds, factory):
        for registry in registry_list:
            for kind in kinds:
                registry.register(kind, factory)

    on(both, [constraints.real], lambda c: T.identity_transform)
    on([biject_to], [constraints.independent],
       lambda c: T.IndependentTransform(biject_to(c.base_constraint), c.reinterpreted_batch_ndims))
    on([transform_to], [constraints.independent],
       lambda c: T.IndependentTransform(transform_to(c.base_constraint), c.reinterpreted_batch_ndims))
    # (positive and nonnegative share their types with greater_than and greater_than_eq: the later
    # registration is the one that holds, as in PyTorch)
    on(both, [constraints.greater_than, constraints.greater_than_eq],
       lambda c: T.ComposeTransform([T.ExpTransform(), T.AffineTransform(c.lower_bound, 1)]))
    on(both, [constraints.less_than],
       lambda c: T.ComposeTransform([T.ExpTransform(), T.AffineTransform(c.upper_bound, -1)]))

    def interval(c):
        lower_is_0 = isinstance(c.lower_bound, numbers.Number) and c.lower_bound == 0
        upper_is_1 = isinstance(c.upper_bound, numbers.Number) and c.upper_bound == 1
        if lower_is_0 and upper_is_1:
            return T.SigmoidTransform()
        return T.ComposeTransform([T.SigmoidTransform(),
                                   T.AffineTransform(c.lower_bound, c.upper_bound - c.lower_bound)])

    on(both, [constraints.interval, constraints.half_open_interval], interval)
    on([biject_to], [constraints.simplex], lambda c: T.StickBreakingTransform())
    on([transform_to], [constraints.simplex], lambda c: T.SoftmaxTransform())
    on([transform_to], [constraints.lower_cholesky], lambda c: T.LowerCholeskyTransform())
    on([transform_to], [constraints.positive_definite], lambda c: T.PositiveDefiniteTransform())
    return biject_to, transform_to


biject_to, transform_to = registries(_transforms)
