"""Special functions of the op table: lgamma, digamma, polygamma, xlogy, erfinv, igamma (the
regularized lower incomplete gamma function), and logaddexp / logaddexp2 (log of a sum of two
exponentials, computed without overflow).

The arrays are computed in float64 on the tensor's own namespace (no SciPy needed) and cast back to
the input's float dtype (trigamma as PyTorch computes it, see `_trigamma_array`): each by its recurrence in unit steps up to
x >= 15 (lgamma(x) = lgamma(x + 1) - log x, psi(n)(x) = psi(n)(x + 1) - (-1)^n n! / x^(n+1)), then its
asymptotic series with the Bernoulli numbers B2 .. B20 (Stirling's for lgamma); lgamma and digamma take
the reflection formula below 1/2. erfinv starts from Giles' single-precision polynomials and
takes four Newton steps on erf (on log erfc in the tails). Their gradients are the next function of the family, so every order is differentiable.
igamma sums Cephes' power series below max(1, a) and its continued fraction above, each until it
converges to float64 precision (PyTorch's asymptotic series for large a is less accurate near x = a:
the two differ there by up to about 2e-9, relative); as in PyTorch it is differentiable in x only.
"""
from __future__ import annotations

import math

import numpy as np

from .. import backend
from ..tensor import Tensor
from ._args import binary_arrays, int_argument, reraise_broadcast
from ._declare import _grad_enabled, derivative
from .elementwise import _conj, _erf_array, _unary, exp, log, pow, where

__all__ = ["lgamma", "digamma", "polygamma", "xlogy", "erfinv", "igamma", "logaddexp", "logaddexp2"]

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


def _trigamma_array(xp, d):
    """PyTorch's trigamma, step for step in the input's precision (float32 below it): the reflection
    pi^2 / sin^2(pi x) below 1/2 (so a pole gives the large finite value sin's rounding leaves), six
    unit steps, then four terms of the asymptotic series."""
    dt = d.dtype if d.dtype in (np.float32, np.float64) else np.dtype(np.float32)
    x = d.astype(dt)
    one, pi = dt.type(1), dt.type(math.pi)
    reflect = x < dt.type(0.5)
    sin_pi_x = xp.sin(pi * x)
    result = xp.where(reflect, -(pi * pi) / (sin_pi_x * sin_pi_x), dt.type(0))
    x = xp.where(reflect, one - x, x)
    for _ in range(6):
        result = result + one / (x * x)
        x = x + one
    ixx = one / (x * x)
    tail = one / dt.type(6) - ixx * (one / dt.type(30) - ixx * (one / dt.type(42)))
    result = result + (one + one / (dt.type(2) * x) + ixx * tail) / x
    return xp.where(reflect, -result, result).astype(d.dtype, copy=False)


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
    # PyTorch's Hurwitz zeta: inf at -inf (a pole, as 0, -1, ...), NaN at inf (its tail term is 0 * inf)
    out = xp.where(xp.isinf(x), xp.where(x < 0, (-1) ** (n + 1) * math.inf, math.nan), out)
    return out.astype(d.dtype, copy=False)


def _polygamma_grad(grad, self, n):
    return grad * polygamma(n + 1, self)


PolygammaBackward0 = derivative("PolygammaBackward0", keep="n", self=_polygamma_grad)


def polygamma(n: int, x: Tensor) -> Tensor:
    """The n-th derivative of digamma (n = 0 is digamma itself), recorded as PolygammaBackward0."""
    n = int_argument(n, x.policy)
    if n < 0:
        raise x.policy.errors.polygamma_negative_n()
    d = x._data
    if d.dtype.kind == "c":
        raise x.policy.errors.not_implemented_for(op="digamma" if n == 0 else "trigamma" if n == 1 else "polygamma",
                                                  dtype_scalar=d.dtype)
    if d.dtype.kind not in "fV":
        d = d.astype(backend.default_float())
    xp = backend.namespace(d)
    with backend.quiet(xp):
        r = (_digamma_array(xp, d) if n == 0 else _trigamma_array(xp, d) if n == 1
             else _polygamma_array(xp, n, d))
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
    t = ta if ta is not None and tb is None else tb if ta is None else None
    # two tensors: their promoted dtype; a tensor and a number: the tensor's float dtype
    out = cls._make(xp.asarray(r).astype(a.dtype if t is None else t._data.dtype if t._data.dtype.kind in "fV" else
                                         backend.default_float(), copy=False))
    if _grad_enabled():
        if ta is not None and tb is not None and (ta._requires_grad or tb._requires_grad):
            XlogyBackward0.record((ta, tb), out)
        elif tb is None and ta._requires_grad:
            XlogyBackward2.record((ta,), out, y)
        elif ta is None and tb._requires_grad:
            XlogyBackward1.record((tb,), out, x)
    return out


LogaddexpBackward0 = derivative("LogaddexpBackward0", complex=True,
                                self=lambda grad, self, other: grad / _conj(1 + exp(other - self)),
                                other=lambda grad, self, other: grad / _conj(1 + exp(self - other)))
Logaddexp2Backward0 = derivative("Logaddexp2Backward0",
                                 self=lambda grad, self, other: grad / (1 + pow(2, other - self)),
                                 other=lambda grad, self, other: grad / (1 + pow(2, self - other)))


def _complex_log1p(xp, z):
    """log(1 + z) as PyTorch's complex log1p computes it (accurate for small |z|)."""
    x, y = z.real, z.imag
    theta = xp.arctan2(y, x + 1)
    r = x * (2 + x) + y * y
    small = xp.abs(z) < 0.5
    re = xp.where(small, xp.where(r == 0, x, 0.5 * xp.log1p(r)), xp.log(xp.hypot(x + 1, y)))
    return _pack(xp, re, theta, z.dtype)


def _pack(xp, re, im, dtype):
    out = xp.empty(re.shape, dtype=dtype)
    out.real, out.imag = re, im
    return out


def complex_log_add_exp(xp, x, y):
    """log(e^x + e^y) of complex arrays as PyTorch computes it: ordered by real part, NaN taking over,
    -inf + -inf the smaller operand, +inf + +inf summed directly, else log1p(e^(min - max)) + max."""
    x, y = xp.broadcast_arrays(xp.asarray(x), xp.asarray(y))
    xnan = xp.isnan(x.real) | xp.isnan(x.imag)
    ynan = xp.isnan(y.real) | xp.isnan(y.imag)
    x_low = x.real < y.real
    lo, hi = xp.where(x_low, x, y), xp.where(x_low, y, x)
    lo = xp.where(ynan, y, xp.where(xnan, x, lo))
    hi = xp.where(ynan, y, xp.where(xnan, x, hi))
    out = _complex_log1p(xp, xp.exp(lo - hi)) + hi
    both_inf = xp.isinf(lo.real) & (lo.real == hi.real)
    out = xp.where(both_inf, xp.where(lo.real < 0, lo, xp.log(xp.exp(lo) + xp.exp(hi))), out)
    return xp.where(xp.isnan(lo.real) | xp.isnan(lo.imag), xp.asarray(complex(math.nan, math.nan), dtype=out.dtype), out)


def _log_add(name: str, ufunc: str, node, x, y) -> Tensor:
    """log(e^x + e^y) (base 2 for logaddexp2) of two tensors (not numbers: a facade's argument check
    words that refusal) of a floating dtype."""
    x._data, y._data  # noqa: B018  (a number has no array: refused here)
    cls, a, b, ta, tb = binary_arrays(x, y)
    if a.dtype.kind not in "fVc" or (a.dtype.kind == "c" and name != "logaddexp"):
        raise cls.policy.errors.not_implemented_for(op=f"{name}_cpu", dtype_scalar=a.dtype)
    xp = backend.namespace(a)
    with backend.quiet(xp):
        try:
            out = cls._make(complex_log_add_exp(xp, a, b) if a.dtype.kind == "c" else getattr(xp, ufunc)(a, b))
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


# ------------------------------------------------------------------ the regularized lower incomplete gamma

_EPS64 = float(np.finfo(np.float64).eps)
_BIG, _BIG_INV = 4.503599627370496e15, 2.22044604925031308085e-16
_MAX_TERMS = 2000


def _igamma_series(xp, a, x, log_front):
    """P(a, x) by its power series (x below max(1, a))."""
    r, c, total = a.copy(), xp.ones_like(a), xp.ones_like(a)
    live = xp.ones(a.shape, dtype=bool)
    for _ in range(_MAX_TERMS):
        r = r + 1
        c = xp.where(live, c * x / r, 0.0)
        total = total + c
        live = live & (c / total > _EPS64)
        if not bool(live.any()):
            break
    return total * xp.exp(log_front) / a


def _igammac_fraction(xp, a, x, log_front):
    """Q(a, x) = 1 - P(a, x) by its continued fraction (x above max(1, a))."""
    y, z, c = 1 - a, x + (1 - a) + 1, xp.zeros_like(a)
    pkm2, qkm2, pkm1, qkm1 = xp.ones_like(a), x.copy(), x + 1, z * x
    ans = pkm1 / qkm1
    live = xp.ones(a.shape, dtype=bool)
    for _ in range(_MAX_TERMS):
        c, y, z = c + 1, y + 1, z + 2
        yc = y * c
        pk, qk = pkm1 * z - pkm2 * yc, qkm1 * z - qkm2 * yc
        nonzero = qk != 0
        r = xp.where(nonzero, pk / xp.where(nonzero, qk, 1.0), ans)
        t = xp.where(nonzero, xp.abs((ans - r) / xp.where(r == 0, 1.0, r)), 1.0)
        ans = xp.where(live, r, ans)
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        big = xp.abs(pk) > _BIG
        pkm2, pkm1, qkm2, qkm1 = (xp.where(big, v * _BIG_INV, v) for v in (pkm2, pkm1, qkm2, qkm1))
        live = live & (t > _EPS64)
        if not bool(live.any()):
            break
    return ans * xp.exp(log_front)


def _igamma_array(xp, a, x):
    a, x = xp.broadcast_arrays(a.astype(np.float64), x.astype(np.float64))
    out = xp.full(a.shape, math.nan)
    regular = (a > 0) & (x > 0) & xp.isfinite(a) & xp.isfinite(x)
    out = xp.where((a >= 0) & (x == 0) & ~xp.isnan(a), 0.0, out)
    out = xp.where((a == 0) & (x > 0), 1.0, out)
    out = xp.where((a > 0) & xp.isinf(x) & (x > 0) & xp.isfinite(a), 1.0, out)
    out = xp.where(xp.isinf(a) & (a > 0) & (x >= 0) & xp.isfinite(x), 0.0, out)
    if bool(regular.any()):
        ar, xr = a[regular], x[regular]
        log_front = ar * xp.log(xr) - xr - _lgamma_array(xp, ar)
        by_fraction = (xr > 1) & (xr > ar)
        value = xp.empty_like(ar)
        if bool(by_fraction.any()):
            f = by_fraction
            value[f] = 1 - _igammac_fraction(xp, ar[f], xr[f], log_front[f])
        if bool((~by_fraction).any()):
            s = ~by_fraction
            value[s] = _igamma_series(xp, ar[s], xr[s], log_front[s])
        out[regular] = value
    return out


def _igamma_other_grad(grad, self, other):
    """d P(a, x) / d x: the Gamma(a, 1) density at x."""
    return grad * exp((self - 1) * log(other) - other - lgamma(self))


def _igamma_self_grad(grad, self, other):
    raise grad.policy.errors.derivative_not_implemented_for(op="igamma: input")


IgammaBackward0 = derivative("IgammaBackward0", self=_igamma_self_grad, other=_igamma_other_grad)


def igamma(a, x) -> Tensor:
    """The regularized lower incomplete gamma function P(a, x) (PyTorch's igamma / special.gammainc),
    differentiable in x; its derivative in a raises, as PyTorch's does."""
    cls, d_a, d_x, ta, tx = binary_arrays(a, x, float_result=True)
    t = ta if ta is not None else tx
    xp = backend.namespace(t._data)
    dtype = t._data.dtype if t._data.dtype.kind == "f" else backend.default_float()
    with backend.quiet(xp):
        try:
            r = _igamma_array(xp, xp.asarray(d_a), xp.asarray(d_x))
        except ValueError as exc:
            reraise_broadcast(exc, cls, d_a, d_x)
    out = cls._make(r.astype(dtype))
    if _grad_enabled() and any(v is not None and v._requires_grad for v in (ta, tx)):
        IgammaBackward0.record((ta, tx), out)
    return out
