"""Wishart(df, covariance_matrix | precision_matrix | scale_tril): distributions over positive-definite
matrices, held as the Cholesky factor of the scale matrix and sampled by Bartlett's decomposition
(differentiable through its Chi2 draws)."""
from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from .. import backend, ops
from ..ops import linalg_decomp
from . import constraints
from .distribution import ExponentialFamily
from .gamma import Chi2
from .multivariate_normal import ScaleTrilMatrices, precision_to_scale_tril
from .utils import lazy_property, mvdigamma, mvlgamma, standard_normal

_LOG_2 = math.log(2)


def _diag(m):
    return linalg_decomp.diagonal(m, 0, -2, -1)


def _cholesky_solve(B, L):
    """(L L^T)^-1 B, broadcasting the batch dims of B and L."""
    batch = np.broadcast_shapes(B._data.shape[:-2], L._data.shape[:-2])
    Lb = ops.broadcast_to(L, batch + L._data.shape[-2:])
    Y = linalg_decomp.solve_triangular(Lb, ops.broadcast_to(B, batch + B._data.shape[-2:]), upper=False)
    return linalg_decomp.solve_triangular(ops.transpose(Lb, -2, -1), Y, upper=True)


class Wishart(ScaleTrilMatrices, ExponentialFamily):
    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self):
        return {"covariance_matrix": constraints.positive_definite, "precision_matrix": constraints.positive_definite,
                "scale_tril": constraints.lower_cholesky, "df": constraints.greater_than(self.event_shape[-1] - 1)}

    def __init__(self, df, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        policy = self._tensor_cls.policy
        given = [(n, m) for n, m in (("covariance_matrix", covariance_matrix), ("precision_matrix", precision_matrix),
                                     ("scale_tril", scale_tril)) if m is not None]
        if len(given) != 1:
            raise policy.errors.dist_wishart_one_of()
        name, param = given[0]
        if param._data.ndim < 2:
            raise policy.errors.dist_mvn_matrix_ndim(name="scale_tril")
        d = param._data
        if isinstance(df, numbers.Number):
            batch = d.shape[:-2]
            self.df = param._new(backend.namespace(d).asarray(df, dtype=d.dtype))
        else:
            batch = np.broadcast_shapes(d.shape[:-2], df._data.shape)
            self.df = ops.broadcast_to(df, batch)
        p = d.shape[-1]
        if bool(ops.any(self.df <= p - 1)._data):
            raise policy.errors.dist_wishart_df(df=df, bound=p - 1)
        setattr(self, name, ops.broadcast_to(param, batch + d.shape[-2:]))
        if bool(ops.any(self.df < p)._data):
            warnings.warn(policy.errors.dist_wishart_low_df(), stacklevel=2)
        super().__init__(batch, d.shape[-2:], validate_args=validate_args)
        self._batch_dims = [-(x + 1) for x in range(len(self._batch_shape))]
        if name == "scale_tril":
            self._unbroadcasted_scale_tril = param
        elif name == "covariance_matrix":
            self._unbroadcasted_scale_tril = linalg_decomp.linalg_cholesky(param)
        else:
            self._unbroadcasted_scale_tril = precision_to_scale_tril(param)
        self._dist_chi2 = self._chi2_of(self.df, batch)

    def _chi2_of(self, df, batch):
        """Chi2(df - i) for i = 0 .. p - 1: the squares of Bartlett's diagonal."""
        p = self._event_shape[-1]
        L = self._unbroadcasted_scale_tril._data
        steps = self.df._new(backend.namespace(L).arange(p, dtype=L.dtype))
        return self._cls(Chi2)(df=ops.unsqueeze(df, -1) - ops.broadcast_to(steps, tuple(batch) + (p,)))

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Wishart, _instance)
        batch = tuple(batch_shape)
        cov_shape = batch + tuple(self._event_shape)
        new._unbroadcasted_scale_tril = ops.broadcast_to(self._unbroadcasted_scale_tril, cov_shape)
        new.df = ops.broadcast_to(self.df, batch)
        new._batch_dims = [-(x + 1) for x in range(len(batch))]
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, ops.broadcast_to(self.__dict__[name], cov_shape))
        new = self._finish_expand(new, batch, self._event_shape)
        new._dist_chi2 = new._chi2_of(new.df, batch)
        return new

    def _matrix_shape(self) -> tuple:
        return tuple(self._batch_shape) + tuple(self._event_shape)

    @lazy_property
    def precision_matrix(self):
        L = self._unbroadcasted_scale_tril
        identity = L._new(backend.namespace(L._data).eye(self._event_shape[-1], dtype=L._data.dtype))
        return ops.broadcast_to(_cholesky_solve(identity, L), self._matrix_shape())

    def _df_matrix(self, df):
        return ops.reshape(df, tuple(self._batch_shape) + (1, 1))

    @property
    def mean(self):
        return self._df_matrix(self.df) * self.covariance_matrix

    @property
    def mode(self):
        factor = self.df - self.covariance_matrix._data.shape[-1] - 1
        return self._df_matrix(ops.where(factor <= 0, math.nan, factor)) * self.covariance_matrix

    @property
    def variance(self):
        V = self.covariance_matrix
        diag_V = _diag(V)
        return self._df_matrix(self.df) * (ops.pow(V, 2) + ops.unsqueeze(diag_V, -1) * ops.unsqueeze(diag_V, -2))

    def _bartlett_sampling(self, sample_shape=()):
        root = ops.sqrt(self._dist_chi2.rsample(sample_shape))
        root = ops.clamp(root, min=float(np.finfo(root._data.dtype).eps))
        below = ops.tril(standard_normal(tuple(sample_shape) + self._matrix_shape(), root), -1)
        noise = linalg_decomp._diag_embed(root) + below
        chol = ops.matmul(self._unbroadcasted_scale_tril, noise)
        return ops.matmul(chol, ops.transpose(chol, -2, -1))

    def _singular(self, sample):
        """Which draws (over the sample shape) are not positive definite in some batch member."""
        bad = ops.logical_not(self.support.check(sample))
        return ops.any(bad, tuple(self._batch_dims)) if self._batch_dims else bad

    def rsample(self, sample_shape=(), max_try_correction=None):
        """Bartlett draws; draws that come out singular are drawn again, up to `max_try_correction`
        (10) times."""
        max_try_correction = 10 if max_try_correction is None else max_try_correction
        sample = self._bartlett_sampling(sample_shape)
        singular = self._singular(sample)
        if bool(ops.any(singular)._data):
            warnings.warn(self._policy.errors.dist_wishart_singular(), stacklevel=2)
            for _ in range(max_try_correction):
                mask = ops.reshape(singular, singular._data.shape + (1,) * (len(self._batch_shape) + 2))
                sample = ops.where(mask, self._bartlett_sampling(sample_shape), sample)
                singular = ops.logical_and(singular, self._singular(sample))
                if not bool(ops.any(singular)._data):
                    break
        return sample

    def _half_log_det_scale(self):
        p = self._event_shape[-1]
        return p * _LOG_2 / 2 + ops.sum(ops.log(_diag(self._unbroadcasted_scale_tril)), -1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        nu, p = self.df, self._event_shape[-1]
        logabsdet = linalg_decomp.linalg_slogdet(value)[1]
        trace = ops.sum(_diag(_cholesky_solve(value, self._unbroadcasted_scale_tril)), -1)
        return -nu * self._half_log_det_scale() - mvlgamma(nu / 2, p) + (nu - p - 1) / 2 * logabsdet - trace / 2

    def entropy(self):
        nu, p = self.df, self._event_shape[-1]
        half = nu / 2
        if not bool(ops.all(half > (p - 1) / 2)._data):
            raise self._policy.errors.dist_mvdigamma_domain()
        return ((p + 1) * self._half_log_det_scale() + mvlgamma(half, p) - (nu - p - 1) / 2 * mvdigamma(half, p)
                + nu * p / 2)

    @property
    def _natural_params(self):
        p = self._event_shape[-1]
        return -self.precision_matrix / 2, (self.df - p - 1) / 2

    def _log_normalizer(self, x, y):
        p = self._event_shape[-1]
        logabsdet = linalg_decomp.linalg_slogdet(-2 * x)[1]
        return (y + (p + 1) / 2) * (-logabsdet + _LOG_2 * p) + mvlgamma(y + (p + 1) / 2, p)
