"""MultivariateNormal(loc, covariance_matrix | precision_matrix | scale_tril), held as the Cholesky
factor of its covariance as PyTorch holds it."""
from __future__ import annotations

import math

import numpy as np

from .. import backend, ops
from ..ops import linalg_decomp
from . import constraints
from .distribution import Distribution
from .utils import lazy_property, standard_normal


def batch_mv(bmat, bvec):
    return ops.squeeze(ops.matmul(bmat, ops.unsqueeze(bvec, -1)), -1)


def batch_mahalanobis(L, x):
    """x^T (L L^T)^-1 x over the batch: |L^-1 x|^2 by a triangular solve."""
    n = x._data.shape[-1]
    batch = np.broadcast_shapes(L._data.shape[:-2], x._data.shape[:-1])
    Lb = ops.broadcast_to(L, batch + (n, n))
    xb = ops.broadcast_to(x, batch + (n,))
    y = ops.squeeze(linalg_decomp.solve_triangular(Lb, ops.unsqueeze(xb, -1), upper=False), -1)
    return ops.sum(ops.pow(y, 2), -1)


def _eye(like, n):
    d = like._data
    return like._new(backend.namespace(d).eye(n, dtype=d.dtype))


def precision_to_scale_tril(P):
    """The lower Cholesky factor of P^-1, PyTorch's way (a Cholesky of P's reversal, then a solve)."""
    Lf = linalg_decomp.linalg_cholesky(ops.flip(P, (-2, -1)))
    L_inv = ops.transpose(ops.flip(Lf, (-2, -1)), -2, -1)
    Id = ops.broadcast_to(_eye(P, P._data.shape[-1]), P._data.shape)
    return linalg_decomp.solve_triangular(L_inv, Id, upper=False)


class ScaleTrilMatrices:
    """`scale_tril` and `covariance_matrix` of a distribution held as the Cholesky factor
    `_unbroadcasted_scale_tril`, broadcast to its `_matrix_shape()`."""

    @lazy_property
    def scale_tril(self):
        return ops.broadcast_to(self._unbroadcasted_scale_tril, self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return ops.broadcast_to(ops.matmul(L, ops.transpose(L, -2, -1)), self._matrix_shape())


class MultivariateNormal(ScaleTrilMatrices, Distribution):
    arg_constraints = {"loc": constraints.real_vector, "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite, "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        policy = self._tensor_cls.policy
        if loc._data.ndim < 1:
            raise policy.errors.dist_mvn_loc_ndim()
        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise policy.errors.dist_mvn_one_of()
        name, matrix = next((n, m) for n, m in (("scale_tril", scale_tril), ("covariance_matrix", covariance_matrix),
                                                 ("precision_matrix", precision_matrix)) if m is not None)
        if matrix._data.ndim < 2:
            raise policy.errors.dist_mvn_matrix_ndim(name=name + (" matrix" if name == "scale_tril" else ""))
        batch = np.broadcast_shapes(matrix._data.shape[:-2], loc._data.shape[:-1])
        n = loc._data.shape[-1]
        setattr(self, name, ops.broadcast_to(matrix, batch + (n, n)))
        self.loc = ops.broadcast_to(loc, batch + (n,))
        super().__init__(batch, (n,), validate_args=validate_args)
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = linalg_decomp.linalg_cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = precision_to_scale_tril(precision_matrix)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(MultivariateNormal, _instance)
        shape = tuple(batch_shape)
        n = self._event_shape[0]
        new.loc = ops.broadcast_to(self.loc, shape + (n,))
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, ops.broadcast_to(self.__dict__[name], shape + (n, n)))
        return self._finish_expand(new, shape, self._event_shape)

    def _matrix_shape(self) -> tuple:
        return tuple(self._batch_shape) + tuple(self._event_shape) * 2

    @lazy_property
    def precision_matrix(self):
        L = self._unbroadcasted_scale_tril
        return ops.broadcast_to(linalg_decomp.linalg_inv(ops.matmul(L, ops.transpose(L, -2, -1))),
                                self._matrix_shape())

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return ops.broadcast_to(ops.sum(ops.pow(self._unbroadcasted_scale_tril, 2), -1),
                                tuple(self._batch_shape) + tuple(self._event_shape))

    def rsample(self, sample_shape=()):
        eps = standard_normal(self._extended_shape(sample_shape), self.loc)
        return self.loc + batch_mv(self._unbroadcasted_scale_tril, eps)

    def _half_log_det(self):
        return ops.sum(ops.log(linalg_decomp.diagonal(self._unbroadcasted_scale_tril, 0, -2, -1)), -1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        M = batch_mahalanobis(self._unbroadcasted_scale_tril, diff)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + M) - self._half_log_det()

    def entropy(self):
        H = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return H if not len(self._batch_shape) else ops.broadcast_to(H, tuple(self._batch_shape))
