"""Special functions of the op table: lgamma, digamma, polygamma, xlogy, erfinv, and logaddexp /
logaddexp2 (log of a sum of two exponentials, computed without overflow).

The arrays are computed in float64 on the tensor's own namespace (no SciPy needed) and cast back to
the input's float dtype: each by its recurrence in unit steps up to
x >= 15 (lgamma(x) = lgamma(x + 1) - log x, psi(n)(x) = psi(n)(x + 1) - (-1)^n n! / x^(n+1)), then its
asymptotic series with the Bernoulli numbers B2 .. B20 (Stirling's for lgamma); lgamma and digamma take
the reflection formula below 1/2. erfinv starts from Giles' single-precision polynomials and
takes four Newton steps on erf (on log erfc in the tails). Their gradients are the next function of the family, so every order is differentiable.
"""
from __future__ import annotations

import math

import numpy as np

from .. import backend
from ..tensor import Tensor
from ._args import binary_arrays, reraise_broadcast
from ._declare import _grad_enabled, derivative
from .elementwise import _erf_array, _unary, exp, log, pow, where

__all__ = ["lgamma", "digamma", "polygamma", "xlogy", "erfinv", "logaddexp", "logaddexp2"]

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
# B2, B4, ..., B20
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510, 43867 / 798,
              -174611 / 330)
_ASYMPTOTIC_FROM = 15.0


def _shift_up(xp, z, term, start):
    """z moved up in unit steps to the asymptotic range: (z + m, the steps' terms combined from `start`
    by term(acc, z) at each z passed)."""
    acc = start
    for _ in range(_shift_count(xp, z)):
        low = z < _ASYMPTOTIC_FROM
        acc = xp.where(low, term(acc, z), acc)
        z = xp.where(low, z + 1, z)
    return z, acc


def _lgamma_array(xp, d):
    x = d.astype(np.float64)
    reflect = x < 0.5
    z = xp.where(reflect, 1 - x, x)                           # z >= 1/2
    z, prod = _shift_up(xp, z, lambda acc, z: acc * z, xp.ones_like(z))
    inv2, power = 1 / (z * z), 1 / z
    series = xp.zeros_like(z)
    for k, b in enumerate(_BERNOULLI, start=1):
        series = series + b / (2 * k * (2 * k - 1)) * power
        power = power * inv2
    lg = (z - 0.5) * xp.log(z) - z + _HALF_LOG_2PI + series - xp.log(prod)
    out = xp.where(reflect, xp.log(math.pi / xp.abs(xp.sin(math.pi * x))) - lg, lg)
    out = xp.where(reflect & (x == xp.floor(x)), math.inf, out)      # the poles: 0, -1, -2, ...
    out = xp.where(xp.isinf(x), math.inf, out)
    return out.astype(d.dtype, copy=False)


def _shift_count(xp, x) -> int:
    """How many unit steps bring the smallest finite element of x to the asymptotic range."""
    finite = x[xp.isfinite(x)]
    low = float(finite.min()) if finite.size else _ASYMPTOTIC_FROM
    return max(0, math.ceil(_ASYMPTOTIC_FROM - low))


def _digamma_array(xp, d):
    x = d.astype(np.float64)
    reflect = x < 0.5
    z = xp.where(reflect, 1 - x, x)                           # z >= 1/2
    z, acc = _shift_up(xp, z, lambda acc, z: acc + 1 / z, xp.zeros_like(z))
    inv2 = 1 / (z * z)
    series, power = xp.zeros_like(z), xp.ones_like(z)
    for k, b in enumerate(_BERNOULLI, start=1):
        power = power * inv2
        series = series + b / (2 * k) * power
    psi = xp.log(z) - 0.5 / z - series - acc
    out = xp.where(reflect, psi - math.pi / xp.tan(math.pi * x), psi)
    out = xp.where(reflect & (x < 0) & (x == xp.floor(x)), math.nan, out)   # the poles -1, -2, ...
    out = xp.where(x == 0, xp.copysign(math.inf, -x), out)                  # -inf at +0, inf at -0
    out = xp.where(xp.isposinf(x), math.inf, out)
    return out.astype(d.dtype, copy=False)


def _polygamma_array(xp, n: int, d):
    """psi(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for n >= 1."""
    x = d.astype(np.float64)
    with backend.quiet(xp):
        z, acc = _shift_up(xp, x, lambda acc, z: acc + z ** -(n + 1), xp.zeros_like(x))
        fact = math.factorial(n)
        series = math.factorial(n - 1) / z ** n + fact / (2 * z ** (n + 1))
        for k, b in enumerate(_BERNOULLI, start=1):
            series = series + b * math.factorial(2 * k + n - 1) / math.factorial(2 * k) / z ** (2 * k + n)
        out = (series + fact * acc) * (-1) ** (n + 1)
    return out.astype(d.dtype, copy=False)


def _polygamma_grad(grad, self, n):
    return grad * polygamma(n + 1, self)


PolygammaBackward0 = derivative("PolygammaBackward0", keep="n", self=_polygamma_grad)


def polygamma(n: int, x: Tensor) -> Tensor:
    """The n-th derivative of digamma (n = 0 is digamma itself), recorded as PolygammaBackward0."""
    if n < 0:
        raise x.policy.errors.polygamma_negative_n()
    d = x._data
    if d.dtype.kind not in "fV":
        d = d.astype(backend.default_float())
    xp = backend.namespace(d)
    with backend.quiet(xp):
        r = _digamma_array(xp, d) if n == 0 else _polygamma_array(xp, n, d)
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        PolygammaBackward0.record((x,), out, n)
    return out


digamma = _unary("digamma", derivative("DigammaBackward0", self=lambda grad, self: grad * polygamma(1, self)),
                 _digamma_array, quiet=True)
lgamma = _unary("lgamma", derivative("LgammaBackward0", self=lambda grad, self: grad * digamma(self)),
                _lgamma_array, quiet=True)


def _xlogy_self_grad(grad, self, other):
    """d/dx x log y = log y where x != 0, else 0 (PyTorch's xlogy(x != 0, y))."""
    if not isinstance(other, Tensor):     # a Python number (XlogyBackward2)
        other = math.log(other) if other > 0 else (-math.inf if other == 0 else math.nan)
        return grad * where(self != 0, other, 0.0)
    return grad * where(self != 0, log(other), 0.0)


def _xlogy_other_grad(grad, self, other):
    return grad * self / other


XlogyBackward0 = derivative("XlogyBackward0", self=_xlogy_self_grad, other=_xlogy_other_grad)
XlogyBackward1 = derivative("XlogyBackward1", keep="self", other=_xlogy_other_grad)
XlogyBackward2 = derivative("XlogyBackward2", keep="other", self=_xlogy_self_grad)


def xlogy(x, y) -> Tensor:
    """x * log(y), 0 where x is 0 (unless y is NaN); x or y may be a Python number (the node is then
    XlogyBackward1 or XlogyBackward2, as in PyTorch)."""
    cls, a, b, ta, tb = binary_arrays(x, y, float_result=True)
    xp = backend.namespace(a if ta is not None else b)
    dt = xp.result_type(a, b)
    if dt.kind == "c":
        raise (ta if ta is not None else tb).policy.errors.not_implemented_for(op="xlogy_cpu", dtype_scalar=dt)
    with backend.quiet(xp):
        try:
            r = xp.where((xp.asarray(a) == 0) & ~xp.isnan(b), 0.0, a * xp.log(b))
        except ValueError as exc:
            reraise_broadcast(exc, cls, a, b)
    t = ta if ta is not None else tb
    out = cls._make(xp.asarray(r).astype(t._data.dtype if t._data.dtype.kind in "fV" else
                                         backend.default_float(), copy=False))
    if _grad_enabled():
        if ta is not None and tb is not None and (ta._requires_grad or tb._requires_grad):
            XlogyBackward0.record((ta, tb), out)
        elif tb is None and ta._requires_grad:
            XlogyBackward2.record((ta,), out, y)
        elif ta is None and tb._requires_grad:
            XlogyBackward1.record((tb,), out, x)
    return out


LogaddexpBackward0 = derivative("LogaddexpBackward0",
                                self=lambda grad, self, other: grad / (1 + exp(other - self)),
                                other=lambda grad, self, other: grad / (1 + exp(self - other)))
Logaddexp2Backward0 = derivative("Logaddexp2Backward0",
                                 self=lambda grad, self, other: grad / (1 + pow(2, other - self)),
                                 other=lambda grad, self, other: grad / (1 + pow(2, self - other)))


def _log_add(name: str, ufunc: str, node, x, y) -> Tensor:
    """log(e^x + e^y) (base 2 for logaddexp2) of two tensors (not numbers: a facade's argument check
    words that refusal) of a floating dtype."""
    x._data, y._data  # noqa: B018  (a number has no array: refused here)
    cls, a, b, ta, tb = binary_arrays(x, y)
    if a.dtype.kind == "c" and name == "logaddexp":     # PyTorch's logaddexp takes complex numbers
        raise cls.policy.errors.complex_unsupported(op=name)
    if a.dtype.kind not in "fV":
        raise cls.policy.errors.not_implemented_for(op=f"{name}_cpu", dtype_scalar=a.dtype)
    xp = backend.namespace(a)
    with backend.quiet(xp):
        try:
            out = cls._make(getattr(xp, ufunc)(a, b))
        except ValueError as exc:
            reraise_broadcast(exc, cls, a, b)
    if _grad_enabled() and (ta._requires_grad or tb._requires_grad):
        node.record((ta, tb), out)
    return out


def logaddexp(input, other) -> Tensor:
    """log(exp(input) + exp(other)), elementwise with broadcasting."""
    return _log_add("logaddexp", "logaddexp", LogaddexpBackward0, input, other)


def logaddexp2(input, other) -> Tensor:
    """log2(2**input + 2**other), elementwise with broadcasting."""
    return _log_add("logaddexp2", "logaddexp2", Logaddexp2Backward0, input, other)


# Giles' single-precision approximation of erfinv (central and tail polynomials), refined by Newton steps
_ERFINV_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                   -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                0.00943887047, 1.00167406, 2.83297682)
_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def _horner(coefficients, w):
    p = w * 0 + coefficients[0]
    for c in coefficients[1:]:
        p = c + p * w
    return p


def _erfinv_array(xp, d):
    x = d.astype(np.float64)
    inside = xp.abs(x) < 1
    xs = xp.where(inside, x, 0.0)
    w = -xp.log((1 - xs) * (1 + xs))
    central = _horner(_ERFINV_CENTRAL, w - 2.5)
    tail = _horner(_ERFINV_TAIL, xp.sqrt(w) - 3)
    y = xp.where(w < 5, central, tail) * xs
    a = xp.abs(xs)
    for _ in range(4):   # Newton on erf(y) = x; in the tails on log erfc(|y|) = log(1 - |x|), nearly linear there
        slope = _TWO_OVER_SQRT_PI * xp.exp(-y * y)
        central_step = (_erf_array(xp, y) - xs) / slope
        tail = _erf_array(xp, xp.abs(y), "erfc")
        tail_step = -xp.sign(y) * (xp.log(tail) - xp.log(1 - a)) * tail / slope
        y = y - xp.where(a > 0.5, tail_step, central_step)
    out = xp.where(inside, y, xp.where(xp.abs(x) == 1, xp.copysign(math.inf, x), math.nan))
    return out.astype(d.dtype, copy=False)


erfinv = _unary("erfinv", derivative("ErfinvBackward0",
                                     self=lambda grad, result: grad * (0.5 * math.sqrt(math.pi)) * exp(result * result)),
                _erfinv_array, quiet=True)


def _polygamma_method(self: Tensor, n: int) -> Tensor:
    return polygamma(n, self)


METHODS = {"lgamma": lgamma, "digamma": digamma, "polygamma": _polygamma_method, "xlogy": xlogy, "erfinv": erfinv,
           "logaddexp": logaddexp, "logaddexp2": logaddexp2}
