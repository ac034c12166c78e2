"""LowRankMultivariateNormal(loc, cov_factor, cov_diag): covariance W W^T + diag(D), worked with
through the capacitance matrix I + W^T D^-1 W (Woodbury), as PyTorch does."""
from __future__ import annotations

import math

import numpy as np

from .. import ops
from ..ops import linalg_decomp
from . import constraints
from .distribution import Distribution
from .multivariate_normal import _eye, batch_mahalanobis, batch_mv
from .utils import lazy_property, standard_normal


def _mT(x):
    return ops.transpose(x, -2, -1)


def capacitance_tril(W, D):
    """The Cholesky factor of I + W^T D^-1 W."""
    K = ops.matmul(_mT(W) / ops.unsqueeze(D, -2), W)
    return linalg_decomp.linalg_cholesky(K + _eye(K, W._data.shape[-1]))


def lowrank_logdet(D, cap_tril):
    """log det(W W^T + D) by the matrix determinant lemma."""
    return 2 * ops.sum(ops.log(linalg_decomp.diagonal(cap_tril, 0, -2, -1)), -1) + ops.sum(ops.log(D), -1)


def lowrank_mahalanobis(W, D, x, cap_tril):
    """x^T (W W^T + D)^-1 x by the Woodbury identity."""
    Wt_Dinv_x = batch_mv(_mT(W) / ops.unsqueeze(D, -2), x)
    return ops.sum(ops.pow(x, 2) / D, -1) - batch_mahalanobis(cap_tril, Wt_Dinv_x)


class LowRankMultivariateNormal(Distribution):
    arg_constraints = {"loc": constraints.real_vector, "cov_factor": constraints.independent(constraints.real, 2),
                       "cov_diag": constraints.independent(constraints.positive, 1)}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, cov_factor, cov_diag, validate_args=None):
        policy = self._tensor_cls.policy
        size = self._tensor_cls._size
        if loc._data.ndim < 1:
            raise policy.errors.dist_mvn_loc_ndim()
        event = loc._data.shape[-1:]
        if cov_factor._data.ndim < 2:
            raise policy.errors.dist_lowrank_factor_ndim()
        if cov_factor._data.shape[-2:-1] != event:
            raise policy.errors.dist_lowrank_factor_shape(n=event[0])
        if cov_diag._data.shape[-1:] != event:
            raise policy.errors.dist_lowrank_diag_shape(shape=size(event))
        try:
            shape = np.broadcast_shapes(loc._data.shape + (1,), cov_factor._data.shape, cov_diag._data.shape + (1,))
        except ValueError:
            raise policy.errors.dist_lowrank_batch(loc=size(loc._data.shape), factor=size(cov_factor._data.shape),
                                            diag=size(cov_diag._data.shape)) from None
        self.cov_factor = ops.broadcast_to(cov_factor, shape)
        self.loc = ops.broadcast_to(loc, shape[:-1])
        self.cov_diag = ops.broadcast_to(cov_diag, shape[:-1])
        self._unbroadcasted_cov_factor = cov_factor
        self._unbroadcasted_cov_diag = cov_diag
        self._capacitance_tril = capacitance_tril(cov_factor, cov_diag)
        super().__init__(shape[:-2], event, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(LowRankMultivariateNormal, _instance)
        loc_shape = tuple(batch_shape) + tuple(self._event_shape)
        new.loc = ops.broadcast_to(self.loc, loc_shape)
        new.cov_diag = ops.broadcast_to(self.cov_diag, loc_shape)
        new.cov_factor = ops.broadcast_to(self.cov_factor, loc_shape + self.cov_factor._data.shape[-1:])
        new._unbroadcasted_cov_factor = self._unbroadcasted_cov_factor
        new._unbroadcasted_cov_diag = self._unbroadcasted_cov_diag
        new._capacitance_tril = self._capacitance_tril
        return self._finish_expand(new, tuple(batch_shape), self._event_shape)

    def _matrix_shape(self) -> tuple:
        return tuple(self._batch_shape) + tuple(self._event_shape) * 2

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @lazy_property
    def variance(self):
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        return ops.broadcast_to(ops.sum(ops.pow(W, 2), -1) + D, tuple(self._batch_shape) + tuple(self._event_shape))

    @lazy_property
    def scale_tril(self):
        n = self._event_shape[0]
        sqrt_d = ops.unsqueeze(ops.sqrt(self._unbroadcasted_cov_diag), -1)
        Dinvsqrt_W = self._unbroadcasted_cov_factor / sqrt_d
        K = ops.matmul(Dinvsqrt_W, _mT(Dinvsqrt_W)) + _eye(sqrt_d, n)
        return ops.broadcast_to(sqrt_d * linalg_decomp.linalg_cholesky(K), self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        W = self._unbroadcasted_cov_factor
        cov = ops.matmul(W, _mT(W)) + linalg_decomp._diag_embed(self._unbroadcasted_cov_diag)
        return ops.broadcast_to(cov, self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        Wt_Dinv = _mT(self._unbroadcasted_cov_factor) / ops.unsqueeze(self._unbroadcasted_cov_diag, -2)
        cap = self._capacitance_tril
        batch = np.broadcast_shapes(cap._data.shape[:-2], Wt_Dinv._data.shape[:-2])
        A = linalg_decomp.solve_triangular(ops.broadcast_to(cap, batch + cap._data.shape[-2:]),
                                           ops.broadcast_to(Wt_Dinv, batch + Wt_Dinv._data.shape[-2:]), upper=False)
        precision = linalg_decomp._diag_embed(ops.reciprocal(self._unbroadcasted_cov_diag)) - ops.matmul(_mT(A), A)
        return ops.broadcast_to(precision, self._matrix_shape())

    def rsample(self, sample_shape=()):
        shape = tuple(self._extended_shape(sample_shape))
        eps_W = standard_normal(shape[:-1] + self.cov_factor._data.shape[-1:], self.loc)
        eps_D = standard_normal(shape, self.loc)
        return (self.loc + batch_mv(self._unbroadcasted_cov_factor, eps_W)
                + ops.sqrt(self._unbroadcasted_cov_diag) * eps_D)

    def _log_det(self):
        return lowrank_logdet(self._unbroadcasted_cov_diag, self._capacitance_tril)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = lowrank_mahalanobis(self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag, value - self.loc,
                                self._capacitance_tril)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + self._log_det() + M)

    def entropy(self):
        H = 0.5 * (self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._log_det())
        return H if not len(self._batch_shape) else ops.broadcast_to(H, tuple(self._batch_shape))
