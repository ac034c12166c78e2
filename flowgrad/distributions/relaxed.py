"""The Gumbel-softmax (concrete) relaxations: LogitRelaxedBernoulli and RelaxedBernoulli (its sigmoid),
ExpRelaxedCategorical and RelaxedOneHotCategorical (its exp), each with a `temperature`."""
from __future__ import annotations

from .. import ops
from . import constraints
from .discrete import Categorical, _BinaryProbs, _expand_probs_logits
from .distribution import Distribution
from .transformed import TransformedDistribution
from .transforms import ExpTransform, SigmoidTransform
from .utils import clamp_probs, full_like, uniform


class LogitRelaxedBernoulli(_BinaryProbs, Distribution):
    """The logit of a RelaxedBernoulli sample."""

    support = constraints.real

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self.temperature = temperature
        super().__init__(probs, logits, validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(LogitRelaxedBernoulli, _instance)
        new.temperature = self.temperature
        shape = tuple(batch_shape)
        _expand_probs_logits(self, new, shape)
        return self._finish_expand(new, shape)

    @property
    def param_shape(self):
        return self._tensor_cls._size(self._param._data.shape)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        probs = clamp_probs(ops.broadcast_to(self.probs, tuple(shape)))
        u = clamp_probs(uniform(shape, probs))
        return (ops.log(u) - ops.log1p(-u) + ops.log(probs) - ops.log1p(-probs)) / self.temperature

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = self._broadcast(self.logits, value)
        diff = logits - value * self.temperature
        return ops.log(self.temperature) + diff - 2 * ops.log1p(ops.exp(diff))


class RelaxedBernoulli(TransformedDistribution):
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        base = self._cls(LogitRelaxedBernoulli)(temperature, probs, logits)
        super().__init__(base, self._cls(SigmoidTransform)(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(RelaxedBernoulli, _instance))

    @property
    def temperature(self):
        return self.base_dist.temperature

    @property
    def logits(self):
        return self.base_dist.logits

    @property
    def probs(self):
        return self.base_dist.probs


class ExpRelaxedCategorical(Distribution):
    """The log of a RelaxedOneHotCategorical sample."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self._categorical = self._cls(Categorical)(probs, logits)
        self.temperature = temperature
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(ExpRelaxedCategorical, _instance)
        new.temperature = self.temperature
        new._categorical = self._categorical.expand(batch_shape)
        return self._finish_expand(new, tuple(batch_shape), self._event_shape)

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def probs(self):
        return self._categorical.probs

    def rsample(self, sample_shape=()):
        u = clamp_probs(uniform(self._extended_shape(sample_shape), self.logits))
        gumbels = -ops.log(-ops.log(u))
        scores = (self.logits + gumbels) / self.temperature
        return scores - ops.logsumexp(scores, -1, keepdim=True)

    def log_prob(self, value):
        k = self._categorical._num_events
        if self._validate_args:
            self._validate_sample(value)
        logits, value = self._broadcast(self.logits, value)
        t = self.temperature
        log_scale = ops.lgamma(full_like(t, float(k))) - ops.log(t) * (-(k - 1))
        score = logits - value * t
        score = ops.sum(score - ops.logsumexp(score, -1, keepdim=True), -1)
        return score + log_scale


class RelaxedOneHotCategorical(TransformedDistribution):
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        base = self._cls(ExpRelaxedCategorical)(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base, self._cls(ExpTransform)(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(RelaxedOneHotCategorical, _instance))

    @property
    def temperature(self):
        return self.base_dist.temperature

    @property
    def logits(self):
        return self.base_dist.logits

    @property
    def probs(self):
        return self.base_dist.probs
