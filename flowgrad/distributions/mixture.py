"""MixtureSameFamily(mixture_distribution, component_distribution): a Categorical choosing among
the rightmost batch dim of one component distribution."""
from __future__ import annotations

from .. import backend, ops
from ..autograd import mode
from . import constraints
from .discrete import Categorical
from .distribution import Distribution


class MixtureSameFamily(Distribution):
    arg_constraints: dict = {}
    has_rsample = False

    def __init__(self, mixture_distribution, component_distribution, validate_args=None):
        policy = self._tensor_cls.policy
        self._mixture_distribution = mixture_distribution
        self._component_distribution = component_distribution
        if not isinstance(mixture_distribution, Categorical):
            raise policy.errors.dist_mixture_type()
        if not isinstance(component_distribution, Distribution):
            raise policy.errors.dist_component_type()
        mdbs = mixture_distribution.batch_shape
        cdbs = self._tensor_cls._size(tuple(component_distribution.batch_shape)[:-1])
        for a, b in zip(reversed(tuple(mdbs)), reversed(tuple(cdbs))):
            if a != 1 and b != 1 and a != b:
                raise policy.errors.dist_mixture_batch(mixture=mdbs, component=cdbs)
        km = mixture_distribution.logits._data.shape[-1]
        kc = component_distribution.batch_shape[-1]
        if km != kc:
            raise policy.errors.dist_mixture_count(km=km, kc=kc)
        self._num_component = km
        self._event_ndims = len(component_distribution.event_shape)
        super().__init__(cdbs, component_distribution.event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = tuple(batch_shape)
        new = self._get_checked_instance(MixtureSameFamily, _instance)
        new._component_distribution = self._component_distribution.expand(shape + (self._num_component,))
        new._mixture_distribution = self._mixture_distribution.expand(shape)
        new._num_component = self._num_component
        new._event_ndims = self._event_ndims
        return self._finish_expand(new, shape, new._component_distribution.event_shape)

    @constraints.dependent_property
    def support(self):
        return constraints.MixtureSameFamilyConstraint(self._component_distribution.support)

    @property
    def mixture_distribution(self):
        return self._mixture_distribution

    @property
    def component_distribution(self):
        return self._component_distribution

    @property
    def mean(self):
        probs = self._pad_mixture_dimensions(self.mixture_distribution.probs)
        return ops.sum(probs * self.component_distribution.mean, -1 - self._event_ndims)

    @property
    def variance(self):
        probs = self._pad_mixture_dimensions(self.mixture_distribution.probs)
        mean_cond_var = ops.sum(probs * self.component_distribution.variance, -1 - self._event_ndims)
        var_cond_mean = ops.sum(probs * ops.pow(self.component_distribution.mean - self._pad(self.mean), 2.0),
                                -1 - self._event_ndims)
        return mean_cond_var + var_cond_mean

    def cdf(self, x):
        cdf_x = self.component_distribution.cdf(self._pad(x))
        return ops.sum(cdf_x * self.mixture_distribution.probs, -1)

    def log_prob(self, x):
        if self._validate_args:
            self._validate_sample(x)
        log_prob_x = self.component_distribution.log_prob(self._pad(x))
        log_mix_prob = ops.log_softmax(self.mixture_distribution.logits, -1)
        return ops.logsumexp(log_prob_x + log_mix_prob, -1)

    def sample(self, sample_shape=()):
        with mode._GradModeGuard(False):
            gather_dim = len(tuple(sample_shape)) + len(self._batch_shape)
            mix = self.mixture_distribution.sample(sample_shape)._data
            comp = self.component_distribution.sample(sample_shape)
            index = mix.reshape(mix.shape + (1,) * (len(self._event_shape) + 1))
            xp = backend.namespace(index)
            index = xp.broadcast_to(index, mix.shape + (1,) + tuple(self._event_shape))
            picked = xp.take_along_axis(comp._data, index, gather_dim)
            return comp._new(xp.squeeze(picked, gather_dim))

    def _pad(self, x):
        return ops.unsqueeze(x, -1 - self._event_ndims)

    def _pad_mixture_dimensions(self, x):
        dist_batch_ndims = len(self._batch_shape)
        cat_batch_ndims = len(self.mixture_distribution.batch_shape)
        pad_ndims = 0 if cat_batch_ndims == 1 else dist_batch_ndims - cat_batch_ndims
        xs = x._data.shape
        return ops.reshape(x, xs[:-1] + (1,) * pad_ndims + xs[-1:] + (1,) * self._event_ndims)

    def __repr__(self) -> str:
        return f"MixtureSameFamily(\n  {self.mixture_distribution},\n  {self.component_distribution})"
