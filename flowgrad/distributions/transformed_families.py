"""The families PyTorch defines as transformed distributions: LogNormal (exp of a Normal),
LogisticNormal (stick-breaking of a Normal), HalfNormal and HalfCauchy (|x|), Gumbel (double log of
a Uniform), Weibull and Pareto (of an Exponential), Kumaraswamy (of a Uniform). Each keeps PyTorch's
own formulas for its moments and entropy."""
from __future__ import annotations

import math
import numbers

import numpy as np

from .. import ops
from . import constraints
from .continuous import Exponential, Uniform
from .normal import Cauchy, Normal
from .transformed import TransformedDistribution
from .transforms import AbsTransform, AffineTransform, ExpTransform, PowerTransform, StickBreakingTransform
from .utils import euler_constant, full_like


class _LocScaleOfNormal(TransformedDistribution):
    """loc and scale are the base Normal's."""

    @property
    def loc(self):
        return self.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.scale


class LogNormal(_LocScaleOfNormal):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        base = self._cls(Normal)(loc, scale, validate_args=validate_args)
        super().__init__(base, self._cls(ExpTransform)(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(LogNormal, _instance))

    @property
    def mean(self):
        return ops.exp(self.loc + ops.pow(self.scale, 2) / 2)

    @property
    def mode(self):
        return ops.exp(self.loc - ops.pow(self.scale, 2))

    @property
    def variance(self):
        scale_sq = ops.pow(self.scale, 2)
        return ops.expm1(scale_sq) * ops.exp(2 * self.loc + scale_sq)

    def entropy(self):
        return self.base_dist.entropy() + self.loc


class LogisticNormal(TransformedDistribution):
    """The stick-breaking image of a Normal over vectors (one dimension fewer than the simplex)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        base = self._cls(Normal)(loc, scale, validate_args=validate_args)
        if not base.batch_shape:
            base = base.expand([1])
        super().__init__(base, self._cls(StickBreakingTransform)(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(LogisticNormal, _instance))

    @property
    def loc(self):
        return self.base_dist.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.base_dist.scale


class _Folded(TransformedDistribution):
    """|x| of a distribution symmetric about 0 (HalfNormal, HalfCauchy): twice its density on x >= 0."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, base, validate_args=None):
        super().__init__(base, self._cls(AbsTransform)(), validate_args=validate_args)

    @property
    def scale(self):
        return self.base_dist.scale

    @property
    def mode(self):
        return full_like(self.scale, 0.0)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return ops.where(value >= 0, self.base_dist.log_prob(value) + math.log(2), -math.inf)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)


class HalfNormal(_Folded):
    def __init__(self, scale, validate_args=None):
        super().__init__(self._cls(Normal)(0, scale, validate_args=False), validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(HalfNormal, _instance))

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self):
        return ops.pow(self.scale, 2) * (1 - 2 / math.pi)


class HalfCauchy(_Folded):
    def __init__(self, scale, validate_args=None):
        super().__init__(self._cls(Cauchy)(0, scale, validate_args=False), validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(HalfCauchy, _instance))

    @property
    def mean(self):
        return full_like(self.scale, math.inf, self._extended_shape())

    @property
    def variance(self):
        return self.base_dist.variance


class Gumbel(TransformedDistribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = self._broadcast(loc, scale)
        finfo = np.finfo(self.loc._data.dtype)
        low, high = float(finfo.tiny), float(1 - finfo.eps)
        if isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number):
            base = self._cls(Uniform)(low, high, validate_args=validate_args)
        else:
            base = self._cls(Uniform)(full_like(self.loc, low), full_like(self.loc, high), validate_args=validate_args)
        Exp, Affine = self._cls(ExpTransform), self._cls(AffineTransform)
        transforms = [Exp().inv, Affine(loc=0, scale=-full_like(self.scale, 1.0)), Exp().inv,
                      Affine(loc=loc, scale=-self.scale)]
        super().__init__(base, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Gumbel, _instance)
        new.loc = ops.broadcast_to(self.loc, tuple(batch_shape))
        new.scale = ops.broadcast_to(self.scale, tuple(batch_shape))
        return super().expand(batch_shape, _instance=new)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (self.loc - value) / self.scale
        return (y - ops.exp(y)) - ops.log(self.scale)

    @property
    def mean(self):
        return self.loc + self.scale * euler_constant

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return (math.pi / math.sqrt(6)) * self.scale

    @property
    def variance(self):
        return ops.pow(self.stddev, 2)

    def entropy(self):
        return ops.log(self.scale) + (1 + euler_constant)


class Weibull(TransformedDistribution):
    arg_constraints = {"scale": constraints.positive, "concentration": constraints.positive}
    support = constraints.positive

    def __init__(self, scale, concentration, validate_args=None):
        self.scale, self.concentration = self._broadcast(scale, concentration)
        self.concentration_reciprocal = ops.reciprocal(self.concentration)
        base = self._cls(Exponential)(full_like(self.scale, 1.0), validate_args=validate_args)
        super().__init__(base, self._weibull_transforms(), validate_args=validate_args)

    def _weibull_transforms(self) -> list:
        return [self._cls(PowerTransform)(exponent=self.concentration_reciprocal),
                self._cls(AffineTransform)(loc=0, scale=self.scale)]

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Weibull, _instance)
        shape = tuple(batch_shape)
        new.scale = ops.broadcast_to(self.scale, shape)
        new.concentration = ops.broadcast_to(self.concentration, shape)
        new.concentration_reciprocal = ops.reciprocal(new.concentration)
        TransformedDistribution.__init__(new, self.base_dist.expand(shape), new._weibull_transforms(),
                                         validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        return self.scale * ops.exp(ops.lgamma(1 + self.concentration_reciprocal))

    @property
    def mode(self):
        return self.scale * ops.pow((self.concentration - 1) / self.concentration, ops.reciprocal(self.concentration))

    @property
    def variance(self):
        return ops.pow(self.scale, 2) * (ops.exp(ops.lgamma(1 + 2 * self.concentration_reciprocal))
                                         - ops.exp(2 * ops.lgamma(1 + self.concentration_reciprocal)))

    def entropy(self):
        return (euler_constant * (1 - self.concentration_reciprocal)
                + ops.log(self.scale * self.concentration_reciprocal) + 1)


class Pareto(TransformedDistribution):
    arg_constraints = {"alpha": constraints.positive, "scale": constraints.positive}

    def __init__(self, scale, alpha, validate_args=None):
        self.scale, self.alpha = self._broadcast(scale, alpha)
        base = self._cls(Exponential)(self.alpha, validate_args=validate_args)
        transforms = [self._cls(ExpTransform)(), self._cls(AffineTransform)(loc=0, scale=self.scale)]
        super().__init__(base, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Pareto, _instance)
        new.scale = ops.broadcast_to(self.scale, tuple(batch_shape))
        new.alpha = ops.broadcast_to(self.alpha, tuple(batch_shape))
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self):
        a = ops.clamp(self.alpha, min=1)
        return a * self.scale / (a - 1)

    @property
    def mode(self):
        return self.scale

    @property
    def variance(self):
        a = ops.clamp(self.alpha, min=2)
        return ops.pow(self.scale, 2) * a / (ops.pow(a - 1, 2) * (a - 2))

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        return constraints.greater_than_eq(self.scale)

    def entropy(self):
        return ops.log(self.scale / self.alpha) + (1 + ops.reciprocal(self.alpha))


def _kumaraswamy_moment(a, b, n: int):
    arg1 = 1 + n / a
    return b * ops.exp(ops.lgamma(arg1) + ops.lgamma(b) - ops.lgamma(arg1 + b))


class Kumaraswamy(TransformedDistribution):
    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        self.concentration1, self.concentration0 = self._broadcast(concentration1, concentration0)
        c0 = self.concentration0
        base = self._cls(Uniform)(full_like(c0, 0.0), full_like(c0, 1.0), validate_args=validate_args)
        Power, Affine = self._cls(PowerTransform), self._cls(AffineTransform)
        transforms = [Power(exponent=ops.reciprocal(c0)), Affine(loc=1.0, scale=-1.0),
                      Power(exponent=ops.reciprocal(self.concentration1))]
        super().__init__(base, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Kumaraswamy, _instance)
        new.concentration1 = ops.broadcast_to(self.concentration1, tuple(batch_shape))
        new.concentration0 = ops.broadcast_to(self.concentration0, tuple(batch_shape))
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self):
        return _kumaraswamy_moment(self.concentration1, self.concentration0, 1)

    @property
    def mode(self):
        c1, c0 = self.concentration1, self.concentration0
        log_mode = ops.reciprocal(c0) * ops.log1p(-c0) - ops.log1p(-c0 * c1)
        return ops.exp(ops.where(ops.logical_or(c0 < 1, c1 < 1), math.nan, log_mode))

    @property
    def variance(self):
        return _kumaraswamy_moment(self.concentration1, self.concentration0, 2) - ops.pow(self.mean, 2)

    def entropy(self):
        t1 = 1 - ops.reciprocal(self.concentration1)
        t0 = 1 - ops.reciprocal(self.concentration0)
        H0 = ops.digamma(self.concentration0 + 1) + euler_constant
        return t0 + t1 * H0 - ops.log(self.concentration1) - ops.log(self.concentration0)
