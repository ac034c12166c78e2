"""Random draws differentiated implicitly, as PyTorch differentiates them: a Gamma(alpha) draw x
gets d x / d alpha = -(d cdf(x; alpha) / d alpha) / pdf(x; alpha), and a Dirichlet draw the
corresponding Beta gradient. Neither has a closed form; PyTorch evaluates them with fixed
approximations (a series for small x, a saddle-point expansion for large alpha, rational fits
elsewhere), which flowgrad evaluates the same way, so rsample gradients agree with PyTorch's to
rounding, approximation error included. The approximations themselves have no derivative (a double
backward through them raises, as PyTorch's does)."""
from __future__ import annotations

import numpy as np

from .. import backend, creation
from ..tensor import Tensor
from ._declare import _grad_enabled, derivative
from .reduction import sum as _sum
from .shape import broadcast_to
from .special import _digamma_array

__all__ = ["standard_gamma", "standard_gamma_grad", "sample_dirichlet", "dirichlet_grad"]

# PyTorch compares with these single-precision literals
_F32_0_8, _F32_0_9, _F32_1_1 = (float(np.float32(v)) for v in (0.8, 0.9, 1.1))
_F32_0_5, _F32_2_5, _F32_0_75 = 0.5, 2.5, 0.75

# coefficients of the rational fit of the gamma gradient in u = log(x / alpha), v = log(alpha):
# rows are the u**0, u**1, u**2 parts of 8 coefficients (4 of p, 4 of q, each a cubic in v)
_GAMMA_UV = np.array([
    [0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084],
    [0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915, -0.00058392623],
    [0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326, 0.00085092367,
     -1.5247877e-07]])

# coefficients of the rational correction of the Beta gradient: [p or q][power of u][power of a][power of b]
_BETA_C = np.array([
    [[[1.003668233, -0.01061107488, -0.0657888334, 0.01201642863],
      [0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033],
      [-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013]],
     [[0.221950385, -0.3187676331, 0.01799915743, 0.01074823814],
      [-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057],
      [0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05]],
     [[-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565],
      [0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181],
      [0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05]]],
    [[[1, -0.02924021934, -0.04438342661, 0.007285809825],
      [0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521],
      [-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149]],
     [[0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273],
      [0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956],
      [-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05]],
     [[0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05],
      [0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05],
      [-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06]]]])


def _horner(coefficients, z):
    out = coefficients[-1]
    for c in coefficients[-2::-1]:
        out = c + z * out
    return out


def gamma_grad_array(xp, alpha, x):
    """-(d cdf / d alpha) / pdf at Gamma(alpha) draws x, elementwise, computed in float64 and
    returned in alpha's dtype."""
    a, x = alpha.astype(np.float64), x.astype(np.float64)
    # small x: a five-term series of the cdf and of its derivative in alpha
    numer, denom = xp.ones_like(x), a.copy()
    series1, series2 = 1 / denom, 1 / (denom * denom)
    for i in range(1, 6):
        numer = numer * (-x / i)
        denom = denom + 1
        series1 = series1 + numer / denom
        series2 = series2 + numer / (denom * denom)
    pow_x_alpha = x ** a
    pdf = x ** (a - 1) * xp.exp(-x)
    cdf = pow_x_alpha * series1
    cdf_alpha = (xp.log(x) - _digamma_array(xp, a)) * cdf - pow_x_alpha * series2
    small = -cdf_alpha / pdf
    small = xp.where(xp.isnan(small), 0.0, small)
    # large alpha: a saddle-point expansion, with its own form near x = alpha
    near = (1 + 24 * a * (1 + 12 * a)) * (1440 * (a * a) + 6 * x * (53 - 120 * x) - 65 * x * x / a
                                         + a * (107 + 3600 * x)) / (1244160 * (a * a) * (a * a))
    root = xp.sqrt(8 * a)
    term2 = root / (a - x)
    term3 = (x - a - a * xp.log(x / a)) ** -1.5
    term23 = xp.where(x < a, term2 - term3, term2 + term3)
    term1 = xp.log(x / a) * term23 - xp.sqrt(2 / a) * (a + x) / ((a - x) * (a - x))
    stirling = 1 + 1 / (12 * a) * (1 + 1 / (24 * a))
    far = -stirling * (x * term1) / root
    large = xp.where((_F32_0_9 * a <= x) & (x <= _F32_1_1 * a), near, far)
    # elsewhere: a rational fit
    u, v = xp.log(x / a), xp.log(a)
    coef = [c0 + u * (c1 + u * c2) for c0, c1, c2 in zip(*_GAMMA_UV)]
    rational = xp.exp(_horner(coef[:4], v) / _horner(coef[4:], v))
    out = xp.where(x < _F32_0_8, small, xp.where(a > 8.0, large, rational))
    return out.astype(alpha.dtype)


def _digamma_as(xp, v):
    """digamma computed in float64, returned in v's dtype."""
    return _digamma_array(xp, v.astype(np.float64)).astype(v.dtype)


def _beta_grad_alpha_small(xp, x, alpha, beta):
    """d x / d alpha of a Beta(alpha, beta) draw x near 0 (a Taylor series), in x's precision."""
    factor = _digamma_as(xp, alpha) - _digamma_as(xp, alpha + beta) - xp.log(x)
    numer = xp.ones_like(x)
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer = numer * ((i - beta) * x / i)
        denom = alpha + i
        series = series + numer / denom * (factor + 1 / denom)
    result = x * (1 - x) ** -beta * series
    return xp.where(xp.isnan(result), 0.0, result)


def _beta_grad_beta_small(xp, x, alpha, beta):
    """d x / d beta of a Beta(alpha, beta) draw x near 0 (a Taylor series), in x's precision."""
    factor = _digamma_as(xp, alpha + beta) - _digamma_as(xp, beta)
    numer, betas, dbetas = xp.ones_like(x), xp.ones_like(x), xp.zeros_like(x)
    series = factor / alpha
    for i in range(1, 9):
        numer = numer * (-x / i)
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series = series + numer / (alpha + i) * (dbetas + factor * betas)
    result = -(1 - x) ** (1 - beta) * series
    return xp.where(xp.isnan(result), 0.0, result)


def _beta_grad_alpha_mid(xp, x, alpha, beta):
    """d x / d alpha of a Beta(alpha, beta) draw for large alpha and beta (a saddle-point expansion,
    in float64)."""
    total = alpha + beta
    mean = alpha / total
    std = xp.sqrt(alpha * beta / (total + 1)) / total
    bb = beta * beta
    poly = 47 * x * bb * bb + alpha * (
        (43 + 20 * (16 + 27 * beta) * x) * bb * beta + alpha * (
            3 * (59 + 180 * beta - 90 * x) * bb + alpha * (
                (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (8 * (1 - x) * (135 * beta - 11)))))
    prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
    prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
    near = prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / xp.sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha)) * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * bb
    axbx = alpha * (x - 1) + beta * x
    term1 = term1_num / (xp.sqrt(2 * alpha / beta) * total ** 1.5 * axbx * axbx)
    term2 = 0.5 * xp.log(alpha / (total * x))
    term3 = xp.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4 = (beta * xp.log(beta / (total * (1 - x))) + alpha * xp.log(alpha / (total * x))) ** -1.5
    far = stirling * prefactor * (term1 + term2 * (term3 + xp.where(x < mean, term4, -term4)))
    return xp.where((mean - 0.1 * std <= x) & (x <= mean + 0.1 * std), near, far)


def dirichlet_grad_array(xp, x, alpha, total):
    """-(d cdf / d alpha) / pdf / (1 - x) of Beta(alpha, total - alpha) draws x, elementwise: what a
    Dirichlet draw's gradient is made of. The series run in x's precision, the rest in float64."""
    beta = total - alpha
    x64, alpha64, total64 = (v.astype(np.float64) for v in (x, alpha, total))
    beta64 = total64 - alpha64
    boundary = total * x * (1 - x)
    with backend.quiet(xp):
        near_0 = _beta_grad_alpha_small(xp, x, alpha, beta)
        near_1 = -_beta_grad_beta_small(xp, 1 - x, beta, alpha)
        mid = _beta_grad_alpha_mid(xp, x64, alpha64, beta64)
        u = xp.log(x64)
        a = xp.log(alpha64) - u
        b = xp.log(total64) - a
        p = q = 0.0
        for i, pu in enumerate((1.0, u, u * u)):
            for j, pa in enumerate((1.0, a, a * a)):
                p = p + pu * pa * _horner(_BETA_C[0, i, j], b)
                q = q + pu * pa * _horner(_BETA_C[1, i, j], b)
        approx = x64 * (_digamma_array(xp, total64) - _digamma_array(xp, alpha64)) / beta64
        rational = p / q * approx
    out = xp.where((x <= _F32_0_5) & (boundary < _F32_2_5), near_0,
                   xp.where((x >= _F32_0_5) & (boundary < _F32_0_75), near_1,
                            xp.where((alpha > 6) & (beta > 6), mid, rational)))
    return out.astype(x.dtype)


def _not_differentiable(grad, op):
    raise grad.policy.errors.random_grad_not_differentiable(op=op)


StandardGammaGradBackward0 = derivative("StandardGammaGradBackward0", keep="op",
                                        self=lambda grad, op: _not_differentiable(grad, op),
                                        output=lambda grad, op: _not_differentiable(grad, op))
DirichletGradBackward0 = derivative("DirichletGradBackward0", keep="op",
                                    x=lambda grad, op: _not_differentiable(grad, op),
                                    alpha=lambda grad, op: _not_differentiable(grad, op),
                                    total=lambda grad, op: _not_differentiable(grad, op))


def standard_gamma_grad(alpha: Tensor, x: Tensor) -> Tensor:
    """d x / d alpha of Gamma(alpha) draws x (PyTorch's approximation; not itself differentiable)."""
    xp = backend.namespace(alpha._data)
    with backend.quiet(xp):
        out = alpha._out_cls._make(gamma_grad_array(xp, alpha._data, x._data))
    if _grad_enabled() and (alpha._requires_grad or x._requires_grad):
        StandardGammaGradBackward0.record((alpha, x), out, "_standard_gamma_grad")
    return out


def dirichlet_grad(x: Tensor, alpha: Tensor, total: Tensor) -> Tensor:
    """The Beta gradients a Dirichlet draw's gradient is made of (not itself differentiable)."""
    out = x._out_cls._make(dirichlet_grad_array(backend.namespace(x._data), x._data, alpha._data, total._data))
    if _grad_enabled() and (x._requires_grad or alpha._requires_grad or total._requires_grad):
        DirichletGradBackward0.record((x, alpha, total), out, "_dirichlet_grad")
    return out


StandardGammaBackward0 = derivative("StandardGammaBackward0",
                                    self=lambda grad, self, result: grad * standard_gamma_grad(self, result))


def _dirichlet_backward(grad, self, result):
    total = broadcast_to(_sum(self, -1, keepdim=True), self._data.shape)
    return dirichlet_grad(result, self, total) * (grad - _sum(result * grad, -1, keepdim=True))


DirichletBackward = derivative("_DirichletBackward", self=_dirichlet_backward)


def standard_gamma(alpha: Tensor) -> Tensor:
    """Gamma(alpha, 1) draws, one per element, differentiable in alpha (StandardGammaBackward0)."""
    out = alpha._out_cls._make(creation.standard_gamma_like(alpha._data))
    if _grad_enabled() and alpha._requires_grad:
        StandardGammaBackward0.record((alpha,), out)
    return out


def sample_dirichlet(concentration: Tensor) -> Tensor:
    """Dirichlet(concentration) draws over the last dim (normalised gamma draws kept off 0),
    differentiable in the concentration (_DirichletBackward)."""
    d = concentration._data
    xp = backend.namespace(d)
    g = xp.maximum(creation.standard_gamma_like(d), np.finfo(d.dtype).tiny)
    out = concentration._out_cls._make(g / g.sum(-1, keepdims=True))
    if _grad_enabled() and concentration._requires_grad:
        DirichletBackward.record((concentration,), out)
    return out
