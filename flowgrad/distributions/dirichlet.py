"""Dirichlet(concentration), and the formulas Beta shares with it (a Beta is a Dirichlet over two
events). Samples are normalised gamma draws, differentiated implicitly as PyTorch does
(flowgrad/ops/random_grads.py)."""
from __future__ import annotations

from .. import backend, ops
from . import constraints
from .distribution import ExponentialFamily


def dirichlet_log_prob(concentration, value):
    return (ops.sum(ops.xlogy(concentration - 1.0, value), -1) + ops.lgamma(ops.sum(concentration, -1))
            - ops.sum(ops.lgamma(concentration), -1))


def dirichlet_entropy(concentration):
    k = concentration._data.shape[-1]
    a0 = ops.sum(concentration, -1)
    return (ops.sum(ops.lgamma(concentration), -1) - ops.lgamma(a0) - (k - a0) * ops.digamma(a0)
            - ops.sum((concentration - 1.0) * ops.digamma(concentration), -1))


def check_concentration(dist, value) -> None:
    """Dirichlet's argument check (Beta makes it too, naming the Dirichlet as PyTorch's does)."""
    constraint = Dirichlet.arg_constraints["concentration"]
    if not bool(ops.all(constraint.check(value))._data):
        raise dist._policy.errors.dist_param_constraint(
            param="concentration", type=type(value).__name__, shape=tuple(value._data.shape),
            dist=f"Dirichlet(concentration: {dist._tensor_cls._size(value._data.shape)})",
            constraint=repr(constraint), value=value)


class Dirichlet(ExponentialFamily):
    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration._data.ndim < 1:
            raise self._tensor_cls.policy.errors.dist_param_ndim(param="concentration")
        self.concentration = concentration
        shape = concentration._data.shape
        super().__init__(shape[:-1], shape[-1:], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Dirichlet, _instance)
        shape = tuple(batch_shape)
        new.concentration = ops.broadcast_to(self.concentration, shape + tuple(self._event_shape))
        return self._finish_expand(new, shape, self._event_shape)

    def rsample(self, sample_shape=()):
        return ops.sample_dirichlet(ops.broadcast_to(self.concentration, tuple(self._extended_shape(sample_shape))))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return dirichlet_log_prob(self.concentration, value)

    @property
    def mean(self):
        return self.concentration / ops.sum(self.concentration, -1, keepdim=True)

    @property
    def mode(self):
        c = self.concentration
        concm1 = ops.clamp(c - 1, min=0)
        mode_ = concm1 / ops.sum(concm1, -1, keepdim=True)
        all_below_one = ops.unsqueeze(ops.all(c < 1, -1), -1)
        d = c._data
        xp = backend.namespace(d)
        one_hot = c._new((xp.arange(d.shape[-1]) == d.argmax(-1)[..., None]).astype(d.dtype))
        return ops.where(all_below_one, one_hot, mode_)

    @property
    def variance(self):
        con0 = ops.sum(self.concentration, -1, keepdim=True)
        return self.concentration * (con0 - self.concentration) / (ops.pow(con0, 2) * (con0 + 1))

    def entropy(self):
        return dirichlet_entropy(self.concentration)

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return ops.sum(ops.lgamma(x), -1) - ops.lgamma(ops.sum(x, -1))
