"""StudentT(df, loc, scale) and FisherSnedecor(df1, df2): a Normal over the root of a scaled Chi2
draw, and a ratio of scaled Chi2 draws (so their rsample is differentiable through the gamma draws,
as PyTorch's is)."""
from __future__ import annotations

import math

import numpy as np

from .. import ops
from . import constraints
from ..tensor import Tensor
from .distribution import Distribution
from .gamma import Chi2, Gamma
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


class FisherSnedecor(Distribution):
    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True
    _params = ("df1", "df2")

    def __init__(self, df1, df2, validate_args=None):
        self.df1, self.df2 = self._broadcast(df1, df2)
        self._gamma1 = self._cls(Gamma)(self.df1 * 0.5, self.df1)
        self._gamma2 = self._cls(Gamma)(self.df2 * 0.5, self.df2)
        numbers_only = not any(isinstance(v, Tensor) for v in (df1, df2))
        Distribution.__init__(self, () if numbers_only else self.df1._data.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(FisherSnedecor, _instance)
        new._gamma1 = self._gamma1.expand(batch_shape)
        new._gamma2 = self._gamma2.expand(batch_shape)
        return self._expand_params(FisherSnedecor, batch_shape, new)

    @property
    def mean(self):
        df2 = ops.where(self.df2 <= 2, math.nan, self.df2)
        return df2 / (df2 - 2)

    @property
    def mode(self):
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        return ops.where(self.df1 <= 2, math.nan, mode)

    @property
    def variance(self):
        df2 = ops.where(self.df2 <= 4, math.nan, self.df2)
        return 2 * ops.pow(df2, 2) * (self.df1 + df2 - 2) / (self.df1 * ops.pow(df2 - 2, 2) * (df2 - 4))

    def rsample(self, sample_shape=()):
        shape = tuple(self._extended_shape(sample_shape))
        X1 = ops.reshape(self._gamma1.rsample(sample_shape), shape)
        X2 = ops.reshape(self._gamma2.rsample(sample_shape), shape)
        tiny = float(np.finfo(X2._data.dtype).tiny)
        return ops.clamp(X1 / ops.clamp(X2, min=tiny), min=tiny)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        ct1, ct2, ct3 = self.df1 * 0.5, self.df2 * 0.5, self.df1 / self.df2
        t1 = ops.lgamma(ct1 + ct2) - ops.lgamma(ct1) - ops.lgamma(ct2)
        t2 = ct1 * ops.log(ct3) + (ct1 - 1) * ops.log(value)
        return t1 + t2 - (ct1 + ct2) * ops.log1p(ct3 * value)
