"""StudentT(df, loc, scale): a Normal divided by the root of a scaled Chi2 draw (so its rsample is
differentiable through the gamma draw, as PyTorch's is)."""
from __future__ import annotations

import math

from .. import ops
from . import constraints
from .distribution import Distribution
from .gamma import Chi2
from .utils import standard_normal


class StudentT(Distribution):
    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True
    _params = ("df", "loc", "scale")

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self.df, self.loc, self.scale = self._broadcast(df, loc, scale)
        self._chi2 = self._cls(Chi2)(self.df)
        Distribution.__init__(self, self.df._data.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(StudentT, _instance)
        new._chi2 = self._chi2.expand(batch_shape)
        return self._expand_params(StudentT, batch_shape, new)

    @property
    def mean(self):
        return ops.where(self.df <= 1, math.nan, self.loc)

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        df = self.df
        finite = ops.pow(self.scale, 2) * df / (df - 2)
        return ops.where(df > 2, finite, ops.where(df > 1, math.inf, math.nan))

    def rsample(self, sample_shape=()):
        X = standard_normal(self._extended_shape(sample_shape), self.df)
        Z = self._chi2.rsample(sample_shape)
        return self.loc + self.scale * (X * ops.rsqrt(Z / self.df))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        Z = (ops.log(self.scale) + 0.5 * ops.log(self.df) + 0.5 * math.log(math.pi) + ops.lgamma(0.5 * self.df)
             - ops.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * ops.log1p(y ** 2.0 / self.df) - Z

    def entropy(self):
        lbeta = ops.lgamma(0.5 * self.df) + math.lgamma(0.5) - ops.lgamma(0.5 * (self.df + 1))
        return (ops.log(self.scale) + 0.5 * (self.df + 1) * (ops.digamma(0.5 * (self.df + 1))
                                                            - ops.digamma(0.5 * self.df))
                + 0.5 * ops.log(self.df) + lbeta)
