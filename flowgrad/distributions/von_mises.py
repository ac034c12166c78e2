"""VonMises(loc, concentration): the circular normal on [-pi, pi). log_prob uses PyTorch's polynomial
approximations of the modified Bessel functions I0 and I1; samples come from the Best-Fisher
rejection sampler, computed in float64."""
from __future__ import annotations

import math

import numpy as np

from .. import backend, creation, ops
from ..autograd import mode
from . import constraints
from .distribution import Distribution
from .utils import lazy_property

# polynomial coefficients of I0 and I1 below and above x = 3.75
_COEF_SMALL = ([1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2],
               [0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3])
_COEF_LARGE = ([0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2, -0.2057706e-1, 0.2635537e-1,
                -0.1647633e-1, 0.392377e-2],
               [0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1, 0.2282967e-1, -0.2895312e-1,
                0.1787654e-1, -0.420059e-2])


def _eval_poly(y, coefficients):
    result = coefficients[-1]
    for c in coefficients[-2::-1]:
        result = c + y * result
    return result


def log_modified_bessel(x, order: int = 0):
    """log I_order(x) for order 0 or 1 (PyTorch's approximation)."""
    y = x / 3.75
    small = _eval_poly(y * y, _COEF_SMALL[order])
    if order == 1:
        small = ops.abs(x) * small
    large = x - 0.5 * ops.log(x) + ops.log(_eval_poly(3.75 / x, _COEF_LARGE[order]))
    return ops.where(x < 3.75, ops.log(small), large)


def _rejection_sample(xp, loc, concentration, proposal_r, shape):
    """Draws on [-pi, pi) by Best and Fisher's rejection scheme (arrays, float64)."""
    x = xp.zeros(shape)
    done = xp.zeros(shape, dtype=bool)
    like = xp.empty((3,) + tuple(shape))
    while not bool(done.all()):
        u1, u2, u3 = creation.uniform_like(like, 0.0, 1.0)
        z = xp.cos(math.pi * u1)
        f = (1 + proposal_r * z) / (proposal_r + z)
        c = concentration * (proposal_r - f)
        with backend.quiet(xp):
            accept = ((c * (2 - c) - u2) > 0) | (xp.log(c / u2) + 1 - c >= 0)
        x = xp.where(accept, xp.sign(u3 - 0.5) * xp.arccos(f), x)
        done = done | accept
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


class VonMises(Distribution):
    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False
    _params = ("loc", "concentration")

    def __init__(self, loc, concentration, validate_args=None):
        self.loc, self.concentration = self._broadcast(loc, concentration)
        Distribution.__init__(self, self.loc._data.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = tuple(batch_shape)
        return type(self)(ops.broadcast_to(self.loc, shape), ops.broadcast_to(self.concentration, shape),
                          validate_args=self.__dict__.get("_validate_args"))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (self.concentration * ops.cos(value - self.loc) - math.log(2 * math.pi)
                - log_modified_bessel(self.concentration, order=0))

    @lazy_property
    def _proposal_r(self):
        kappa = self.concentration._data.astype(np.float64)
        xp = backend.namespace(kappa)
        with backend.quiet(xp):
            tau = 1 + xp.sqrt(1 + 4 * kappa ** 2)
            rho = (tau - xp.sqrt(2 * tau)) / (2 * kappa)
            r = (1 + rho ** 2) / (2 * rho)
        return xp.where(kappa < 1e-5, 1 / kappa + kappa, r)

    def sample(self, sample_shape=()):
        shape = tuple(self._extended_shape(sample_shape))
        with mode._GradModeGuard(False):
            loc = self.loc._data.astype(np.float64)
            xp = backend.namespace(loc)
            kappa = self.concentration._data.astype(np.float64)
            out = _rejection_sample(xp, xp.broadcast_to(loc, shape), xp.broadcast_to(kappa, shape),
                                    xp.broadcast_to(self._proposal_r, shape), shape)
            return self.loc._new(out.astype(self.loc._data.dtype))

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @lazy_property
    def variance(self):
        return 1 - ops.exp(log_modified_bessel(self.concentration, order=1)
                           - log_modified_bessel(self.concentration, order=0))
