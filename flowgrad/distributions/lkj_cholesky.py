"""LKJCholesky(dim, concentration): the LKJ distribution over Cholesky factors of dim x dim
correlation matrices, sampled by the onion method (Beta draws and directions on the sphere)."""
from __future__ import annotations

import math

import numpy as np

from .. import backend, ops
from ..autograd import mode
from ..ops import linalg_decomp
from . import constraints
from .distribution import Distribution
from .gamma import Beta
from .utils import mvlgamma, standard_normal


class LKJCholesky(Distribution):
    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim: int, concentration=1.0, validate_args=None):
        if dim < 2:
            raise self._tensor_cls.policy.errors.dist_lkj_dim(dim=dim)
        self.dim = dim
        (self.concentration,) = self._broadcast(concentration)
        c = self.concentration
        marginal_conc = c + 0.5 * (dim - 2)
        xp = backend.namespace(c._data)
        offset = c._new(xp.concatenate([xp.zeros(1), xp.arange(dim - 1)]).astype(c._data.dtype))
        self._beta = self._cls(Beta)(offset + 0.5, ops.unsqueeze(marginal_conc, -1) - 0.5 * offset)
        super().__init__(c._data.shape, (dim, dim), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(LKJCholesky, _instance)
        shape = tuple(batch_shape)
        new.dim = self.dim
        new.concentration = ops.broadcast_to(self.concentration, shape)
        new._beta = self._beta.expand(shape + (self.dim,))
        return self._finish_expand(new, shape, self._event_shape)

    def sample(self, sample_shape=()):
        with mode._GradModeGuard(False):
            y = ops.unsqueeze(self._beta.sample(sample_shape), -1)
            u_normal = ops.tril(standard_normal(self._extended_shape(sample_shape), y), -1)
            norm = ops.sqrt(ops.sum(u_normal * u_normal, -1, keepdim=True))
            u_hypersphere = u_normal / norm
            d = u_hypersphere._data.copy()
            d[..., 0, :] = 0.0            # (the first row's direction is 0 / 0: it has no free entries)
            w = ops.sqrt(y) * u_hypersphere._new(d)
            tiny = float(np.finfo(w._data.dtype).tiny)
            diag = ops.sqrt(ops.clamp(1 - ops.sum(w ** 2, -1), min=tiny))
            return w + linalg_decomp._diag_embed(diag)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diag_elems = linalg_decomp.diagonal(value, 0, -1, -2)[..., 1:]
        d = self.concentration._data
        order = self.concentration._new(backend.namespace(d).arange(2, self.dim + 1).astype(np.int64))
        order = 2 * ops.unsqueeze(self.concentration - 1, -1) + self.dim - order
        unnormalized = ops.sum(order * ops.log(diag_elems), -1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        normalize = 0.5 * dm1 * math.log(math.pi) + mvlgamma(alpha - 0.5, dm1) - ops.lgamma(alpha) * dm1
        return unnormalized - normalize
