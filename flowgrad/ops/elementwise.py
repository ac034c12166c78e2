"""Elementwise primitives: arithmetic, unary math, comparisons, where, casts."""
from __future__ import annotations

import math

import numpy as np

from .. import backend
from ..autograd.graph import FREED, Node, SavedTensor, saved_fields
from ..tensor import Tensor
from . import _grad_enabled, binary_arrays, make_node, recording, reraise_broadcast, save, save_output

__all__ = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "where", "neg", "exp", "log", "sin", "cos",
           "tan", "tanh", "sigmoid", "relu", "abs", "sqrt", "rsqrt", "reciprocal", "log1p", "expm1", "log2",
           "log10", "erf", "sign", "round", "floor", "ceil", "trunc", "clamp", "cast", "copy_grad", "remainder",
           "floor_divide", "eq", "ne", "lt", "le", "gt", "ge", "logical_not", "logical_and", "logical_or",
           "logical_xor", "isnan", "isinf", "isfinite", "zeros_for", "atan2", "scale"]


def _xp(x, y):
    """The namespace of a binary op's operands (one of them may be a Python scalar)."""
    return backend.namespace(y if isinstance(x, (bool, int, float)) else x)


# ------------------------------------------------------------------------- binary arithmetic

@saved_fields(alpha="alpha")
class AddBackward0(Node):
    __slots__ = ("alpha",)

    def backward(self, g):
        return g, (g if self.alpha == 1 else g * self.alpha)


@saved_fields(alpha="alpha")
class SubBackward0(Node):
    __slots__ = ("alpha",)

    def backward(self, g):
        if self.next_edges[1] is None:   # the subtrahend needs no gradient: skip the negation
            return g, None
        return g, (-g if self.alpha == 1 else g * -self.alpha)


class RsubBackward1(Node):
    __slots__ = ()

    def backward(self, g):
        return (-g,)


def add(a, b, alpha=1):
    cls, x, y, ta, tb = binary_arrays(a, b)
    try:
        r = x + y if alpha == 1 else x + y * alpha
    except ValueError as e:
        reraise_broadcast(e, cls, x, y)
    out = cls._make(r)
    if _grad_enabled() and ((ta is not None and ta._requires_grad) or (tb is not None and tb._requires_grad)):
        make_node(AddBackward0, (ta, tb), out).alpha = alpha
    return out


def sub(a, b, alpha=1):
    cls, x, y, ta, tb = binary_arrays(a, b)
    if getattr(x, "dtype", None) == np.bool_ and getattr(y, "dtype", None) == np.bool_:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    try:
        r = x - y if alpha == 1 else x - y * alpha
    except ValueError as e:
        reraise_broadcast(e, cls, x, y)
    out = cls._make(r)
    if _grad_enabled() and ((ta is not None and ta._requires_grad) or (tb is not None and tb._requires_grad)):
        if ta is None:
            make_node(RsubBackward1, (tb,), out)
        else:
            make_node(SubBackward0, (ta, tb), out).alpha = alpha
    return out


class ScaleBackward0(Node):
    __slots__ = ("scale",)

    def backward(self, g):
        return (g * self.scale,)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True):
    """`x * scale + bias` (or `(x + bias) * scale`) in `x`'s dtype, recorded as one node: the op
    paddle records for arithmetic with a Python scalar."""
    d = x._data
    r = d * scale + bias if bias_after_scale else (d + bias) * scale
    out = x._out_cls._make(r.astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        make_node(ScaleBackward0, (x,), out).scale = scale
    return out


@saved_fields("self", "other")
class MulBackward0(Node):
    __slots__ = ()

    def backward(self, g):
        a, b = self.unpack()
        na, nb = self.next_edges
        return (g * b if na is not None else None), (g * a if nb is not None else None)


def mul(a, b):
    cls, x, y, ta, tb = binary_arrays(a, b)
    try:
        r = x * y
    except ValueError as e:
        reraise_broadcast(e, cls, x, y)
    out = cls._make(r)
    if _grad_enabled() and ((ta is not None and ta._requires_grad) or (tb is not None and tb._requires_grad)):
        ra = ta is not None and ta._requires_grad
        rb = tb is not None and tb._requires_grad
        # each formula needs the *other* operand; a Python scalar is saved as itself
        sa = (save(ta) if ta is not None else a) if rb else None
        sb = (save(tb) if tb is not None else b) if ra else None
        make_node(MulBackward0, (ta, tb), out, (sa, sb))
    return out


@saved_fields("self", "other")
class DivBackward0(Node):
    __slots__ = ()

    def backward(self, g):
        a, b = self.unpack()
        na, nb = self.next_edges
        ga = g / b if na is not None else None
        gb = -g * a / (b * b) if nb is not None else None
        return ga, gb


def div(a, b, rounding_mode=None):
    if rounding_mode is not None:
        if rounding_mode == "floor":
            return floor_divide(a, b)
        if rounding_mode == "trunc":
            return trunc(div(a, b)).detach()
        raise ValueError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                         f"'{rounding_mode}'")
    cls, x, y, ta, tb = binary_arrays(a, b, float_result=True)
    if ta is None:  # scalar / tensor is scalar * reciprocal(tensor), as PyTorch records it
        return mul(reciprocal(tb), a)
    try:
        r = x / y
    except ValueError as e:
        reraise_broadcast(e, cls, x, y)
    out = cls._make(r)
    if _grad_enabled() and ((ta is not None and ta._requires_grad) or (tb is not None and tb._requires_grad)):
        rb = tb is not None and tb._requires_grad
        sa = save(ta) if rb else None
        sb = save(tb) if tb is not None else b
        make_node(DivBackward0, (ta, tb), out, (sa, sb))
    return out


@saved_fields("self", exponent="exponent")
class PowBackward0(Node):  # tensor ** scalar
    __slots__ = ("exponent",)

    def backward(self, g):
        (a,) = self.unpack()
        e = self.exponent
        if e == 0:
            return (g * 0,)
        return (g * e * a ** (e - 1),)


@saved_fields("self", "exponent", "result")
class PowBackward1(Node):  # tensor ** tensor
    __slots__ = ()

    def backward(self, g):
        a, b, r = self.unpack()
        na, nb = self.next_edges
        ga = gb = None
        if na is not None:
            ga = where(b == 0, g * 0, g * b * a ** (b - 1))
        if nb is not None:
            gb = where((a == 0) & (b >= 0), g * 0, g * r * log(a))
        return ga, gb


@saved_fields("result", "exponent", self="base")
class PowBackward2(Node):  # scalar ** tensor
    __slots__ = ("base",)

    def backward(self, g):
        r, b = self.unpack()
        if self.base == 0:  # d/db 0**b: -inf where b < 0, 0 elsewhere (PyTorch's masking)
            return (where(b >= 0, g * 0, g * r * -math.inf),)
        return (g * r * float(np.log(np.float64(self.base))),)


def pow(a, b):
    cls, x, y, ta, tb = binary_arrays(a, b)
    if tb is None and not isinstance(y, np.ndarray) and isinstance(x, np.ndarray) and x.dtype.kind in "iu" \
            and isinstance(y, int) and y < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    out = cls._make(x ** y)
    if not recording(ta, tb):
        return out
    if tb is None:
        make_node(PowBackward0, (ta,), out, (save(ta),)).exponent = b
    elif ta is None:
        make_node(PowBackward2, (tb,), out, (save_output(out), save(tb))).base = a
    else:
        node = make_node(PowBackward1, (ta, tb), out)
        node._saved = (save(ta), save(tb), save_output(out))
    return out


@saved_fields("self", "other")
class MaximumBackward0(Node):
    __slots__ = ()
    _pick = staticmethod(lambda a, b: a > b)

    def backward(self, g):
        a, b = self.unpack()
        win = self._pick(a, b)
        tie = (a == b) * 0.5
        ga = g * (win + tie)
        return ga, g - ga


class MinimumBackward0(MaximumBackward0):
    __slots__ = ()
    _pick = staticmethod(lambda a, b: a < b)


def _extremum(node_cls, fn, a, b):
    cls, x, y, ta, tb = binary_arrays(a if isinstance(a, Tensor) else a, b)
    xp = _xp(x, y)
    out = cls._make(getattr(xp, fn)(x, y))
    if recording(ta, tb):
        make_node(node_cls, (ta, tb), out, (save(ta), save(tb)))
    return out


def maximum(a, b):
    return _extremum(MaximumBackward0, "maximum", a, b)


def minimum(a, b):
    return _extremum(MinimumBackward0, "minimum", a, b)


class RemainderBackward0(Node):
    __slots__ = ()

    def backward(self, g):
        return g, None


def remainder(a, b):
    cls, x, y, ta, tb = binary_arrays(a, b)
    xp = _xp(x, y)
    out = cls._make(xp.remainder(x, y))
    if recording(ta):
        make_node(RemainderBackward0, (ta, None), out)
    return out


def floor_divide(a, b):
    cls, x, y, ta, tb = binary_arrays(a, b)
    xp = _xp(x, y)
    return cls._make(xp.floor_divide(x, y))


@saved_fields("self", "other")
class Atan2Backward0(Node):
    __slots__ = ()

    def backward(self, g):
        a, b = self.unpack()
        denom = a * a + b * b
        denom = where(denom == 0, denom + 1, denom)
        return g * b / denom, -g * a / denom


def atan2(a, b):
    cls, x, y, ta, tb = binary_arrays(a, b, float_result=True)
    out = cls._make(backend.namespace(x).arctan2(x, y))
    if recording(ta, tb):
        make_node(Atan2Backward0, (ta, tb), out, (save(ta), save(tb)))
    return out


# ------------------------------------------------------------------------------- where

@saved_fields("condition")
class WhereBackward0(Node):
    __slots__ = ()

    def backward(self, g):
        (c,) = self.unpack()
        na, nb = self.next_edges
        z = g * 0
        return (where(c, g, z) if na is not None else None), (where(c, z, g) if nb is not None else None)


def where(condition, a, b):
    c = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if c.dtype != np.bool_:
        c = c.astype(bool)
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        a = condition._new(backend.namespace(c).asarray(a, dtype=backend.default_float()))
    cls, x, y, ta, tb = binary_arrays(a, b)
    t = ta if ta is not None else tb
    if isinstance(condition, Tensor) and type(c) is not type(t._data):
        from . import check_same
        check_same(cls, t, condition)
    xp = backend.namespace(t._data)
    out = cls._make(xp.where(c, x, y))
    if recording(ta, tb):
        cond = condition if isinstance(condition, Tensor) else out._new(c)
        make_node(WhereBackward0, (ta, tb), out, (cond.detach(),))
    return out


# ------------------------------------------------------------------------------- unary

class _Unary(Node):
    """A one-input op whose formula reads the saved input (`saves_result` False) or result."""

    __slots__ = ()
    saves = "input"

    def backward(self, g):
        saved = self._saved
        if saved is None:
            return (self.formula(g, None),)
        if saved is FREED:
            self.unpack()     # raises the second-backward error
        return (self.formula(g, saved[0].unpack(self)),)


def _declare_unary(name, node_name, forward, formula, saves="input", float_out=True):
    node_cls = type(node_name, (_Unary,), {"__slots__": (), "saves": saves, "formula": staticmethod(formula)})
    node_cls = saved_fields({"input": "self", "result": "result"}.get(saves))(node_cls)
    save_input, save_result = saves == "input", saves == "result"

    def op(x):
        d = x._data
        if float_out and d.dtype.kind != "f":
            d = d.astype(backend.default_float())
        out = x._out_cls._make(forward(np if type(d) is np.ndarray else backend.namespace(d), d))
        if _grad_enabled() and x._requires_grad:
            make_node(node_cls, (x,), out, (SavedTensor(out, True),) if save_result else
                      (save(x),) if save_input else None)
        return out

    op.__name__ = op.__qualname__ = name
    op.node = node_cls
    return op


def _erf_array(xp, d):
    """erf on the array's own device: SciPy / cupyx when present, else elementwise on the host."""
    if xp is not np and hasattr(xp, "cuda"):
        import cupyx.scipy.special
        return cupyx.scipy.special.erf(d)
    host = xp.asnumpy(d) if hasattr(xp, "asnumpy") else d
    try:
        from scipy.special import erf as sp_erf
        r = sp_erf(host)
    except ImportError:
        r = np.vectorize(math.erf, otypes=[host.dtype])(host) if host.size else host.copy()
    return r if xp is np else xp.asarray(r)


_LN2, _LN10 = math.log(2.0), math.log(10.0)

neg = _declare_unary("neg", "NegBackward0", lambda xp, d: -d, lambda g, _: -g, saves=None, float_out=False)
exp = _declare_unary("exp", "ExpBackward0", lambda xp, d: xp.exp(d), lambda g, r: g * r, "result")
log = _declare_unary("log", "LogBackward0", lambda xp, d: xp.log(d), lambda g, x: g / x)
log2 = _declare_unary("log2", "Log2Backward0", lambda xp, d: xp.log2(d), lambda g, x: g / (x * _LN2))
log10 = _declare_unary("log10", "Log10Backward0", lambda xp, d: xp.log10(d), lambda g, x: g / (x * _LN10))
log1p = _declare_unary("log1p", "Log1PBackward0", lambda xp, d: xp.log1p(d), lambda g, x: g / (x + 1))
expm1 = _declare_unary("expm1", "Expm1Backward0", lambda xp, d: xp.expm1(d), lambda g, r: g * (r + 1), "result")
sin = _declare_unary("sin", "SinBackward0", lambda xp, d: xp.sin(d), lambda g, x: g * cos(x))
cos = _declare_unary("cos", "CosBackward0", lambda xp, d: xp.cos(d), lambda g, x: g * -sin(x))
tan = _declare_unary("tan", "TanBackward0", lambda xp, d: xp.tan(d), lambda g, r: g * (r * r + 1), "result")
# --- the backward formulas of tanh, sigmoid and relu as primitives of their own (one array
# expression instead of three ops per node); each has its own derivative, so create_graph works.

class TanhBackwardBackward0(Node):
    __slots__ = ()

    def backward(self, gg):
        g, r = self.unpack()
        ng, nr = self.next_edges
        return (gg * (1 - r * r) if ng is not None else None), (gg * g * r * -2 if nr is not None else None)


class SigmoidBackwardBackward0(Node):
    __slots__ = ()

    def backward(self, gg):
        g, r = self.unpack()
        ng, nr = self.next_edges
        return (gg * r * (1 - r) if ng is not None else None), (gg * g * (1 - r * 2) if nr is not None else None)


class ThresholdBackwardBackward0(Node):
    __slots__ = ()

    def backward(self, gg):
        (r,) = self.unpack()
        return gg * (r > 0), None


def _fused_backward(node_cls, g, r, result, saves_g=True):
    """Wrap `result`, the array a fused backward formula computed from g and r, recording
    `node_cls` when either input requires grad (create_graph)."""
    out = g._out_cls._make(result)
    if _grad_enabled() and (g._requires_grad or r._requires_grad):
        make_node(node_cls, (g, r), out, (save(g), save(r)) if saves_g else (save(r),))
    return out


def tanh_backward(g, r):
    """g * (1 - r**2): the gradient through tanh given its result r."""
    rd = r._data
    return _fused_backward(TanhBackwardBackward0, g, r, g._data * (1 - rd * rd))


def sigmoid_backward(g, r):
    """g * r * (1 - r): the gradient through sigmoid given its result r."""
    rd = r._data
    return _fused_backward(SigmoidBackwardBackward0, g, r, g._data * (rd * (1 - rd)))


def threshold_backward(g, r):
    """g where r > 0, else 0: the gradient through relu given its result r."""
    gd, mask = g._data, r._data > 0
    return _fused_backward(ThresholdBackwardBackward0, g, r, gd * mask if gd.dtype.kind == "f" else
                           gd * mask.astype(gd.dtype), saves_g=False)


tanh = _declare_unary("tanh", "TanhBackward0", lambda xp, d: xp.tanh(d), tanh_backward, "result")
sigmoid = _declare_unary("sigmoid", "SigmoidBackward0", lambda xp, d: _sigmoid_array(xp, d),
                         sigmoid_backward, "result")
relu = _declare_unary("relu", "ReluBackward0", lambda xp, d: xp.maximum(d, 0) if d.dtype != np.bool_ else d,
                      threshold_backward, "result", float_out=False)
abs = _declare_unary("abs", "AbsBackward0", lambda xp, d: xp.abs(d), lambda g, x: g * sign(x), float_out=False)
sqrt = _declare_unary("sqrt", "SqrtBackward0", lambda xp, d: xp.sqrt(d), lambda g, r: g / (r * 2), "result")
rsqrt = _declare_unary("rsqrt", "RsqrtBackward0", lambda xp, d: 1 / xp.sqrt(d),
                       lambda g, r: g * (r * r * r) * -0.5, "result")
reciprocal = _declare_unary("reciprocal", "ReciprocalBackward0", lambda xp, d: 1 / d,
                            lambda g, r: g * -(r * r), "result")
erf = _declare_unary("erf", "ErfBackward0", _erf_array,
                     lambda g, x: g * (2 / math.sqrt(math.pi)) * exp(-(x * x)))
_zero_grad = lambda g, _: g * 0  # noqa: E731  piecewise-constant functions
sign = _declare_unary("sign", "SignBackward0", lambda xp, d: xp.sign(d), _zero_grad, None, float_out=False)
round = _declare_unary("round", "RoundBackward0", lambda xp, d: xp.round(d), _zero_grad, None, float_out=False)
floor = _declare_unary("floor", "FloorBackward0", lambda xp, d: xp.floor(d), _zero_grad, None, float_out=False)
ceil = _declare_unary("ceil", "CeilBackward0", lambda xp, d: xp.ceil(d), _zero_grad, None, float_out=False)
trunc = _declare_unary("trunc", "TruncBackward0", lambda xp, d: xp.trunc(d), _zero_grad, None, float_out=False)


def _sigmoid_array(xp, d):
    # numerically stable in both tails
    e = xp.exp(-xp.abs(d))
    return xp.where(d >= 0, 1 / (1 + e), e / (1 + e)).astype(d.dtype, copy=False)


@saved_fields("self", min="min", max="max")
class ClampBackward1(Node):
    __slots__ = ("min", "max")

    def backward(self, g):
        (x,) = self.unpack()
        if self.min is not None and self.max is not None:
            return (g * ((x >= self.min) & (x <= self.max)),)
        if self.min is not None:
            return (g * (x >= self.min),)
        return (g * (x <= self.max),)


def clamp(x, min=None, max=None):
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        out = x
        if min is not None:
            out = maximum(out, min)
        if max is not None:
            out = minimum(out, max)
        return out
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    d = x._data
    xp = backend.namespace(d)
    r = xp.clip(d, min, max)
    if r.dtype != d.dtype and d.dtype.kind == "f":
        r = r.astype(d.dtype)
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        node = make_node(ClampBackward1, (x,), out, (save(x),))
        node.min, node.max = min, max
    return out


# ------------------------------------------------------------------------------- casts

class ToCopyBackward0(Node):
    __slots__ = ()

    def backward(self, g):
        return (g,)  # the engine casts it back to the input's dtype


def cast(x: Tensor, dtype) -> Tensor:
    """`x` converted to `dtype` (a NumPy dtype or any dtype spelling); differentiable into floats."""
    dt = backend.to_np_dtype(dtype)
    if x._data.dtype == dt:
        return x
    out = x._out_cls._make(x._data.astype(dt))
    if _grad_enabled() and x._requires_grad and (dt.kind == "f" or x.policy.allow_int_grads):
        make_node(ToCopyBackward0, (x,), out)
    return out


class CopyBackwards(Node):
    __slots__ = ()

    def backward(self, g):
        return (g,)


def copy_grad(g: Tensor) -> Tensor:
    """A recorded copy of a gradient (`.grad` under create_graph shows `grad_fn=<CopyBackwards>`)."""
    out = g._out_cls._make(g._data.copy())
    if _grad_enabled() and g._requires_grad:
        make_node(CopyBackwards, (g,), out)
    return out


def zeros_for(like: Tensor, shape, dtype) -> Tensor:
    """Zeros of `shape`/`dtype` on `like`'s device and facade (materialised missing gradients)."""
    return like._new(backend.namespace(like._data).zeros(shape, dtype=dtype))


# ------------------------------------------------------------------------ comparisons, logic

def _compare(ufunc_name):
    def op(a, b):
        cls, x, y, ta, tb = binary_arrays(a, b)
        xp = _xp(x, y)
        return cls._make(getattr(xp, ufunc_name)(x, y))
    op.__name__ = ufunc_name
    return op


eq, ne = _compare("equal"), _compare("not_equal")
lt, le, gt, ge = _compare("less"), _compare("less_equal"), _compare("greater"), _compare("greater_equal")
logical_and, logical_or, logical_xor = _compare("logical_and"), _compare("logical_or"), _compare("logical_xor")
_bit_and, _bit_or, _bit_xor = _compare("bitwise_and"), _compare("bitwise_or"), _compare("bitwise_xor")


def logical_not(x):
    return x._out_cls._make(backend.namespace(x._data).logical_not(x._data))


def _invert(x):
    xp = backend.namespace(x._data)
    return x._out_cls._make(xp.logical_not(x._data) if x._data.dtype == np.bool_ else xp.invert(x._data))


def isnan(x):
    return x._out_cls._make(backend.namespace(x._data).isnan(x._data))


def isinf(x):
    return x._out_cls._make(backend.namespace(x._data).isinf(x._data))


def isfinite(x):
    return x._out_cls._make(backend.namespace(x._data).isfinite(x._data))


def _r(fn):
    return lambda self, other: fn(other, self)


METHODS = {
    "__add__": add, "__radd__": _r(add), "__sub__": sub, "__rsub__": _r(sub), "__mul__": mul, "__rmul__": _r(mul),
    "__truediv__": div, "__rtruediv__": _r(div), "__pow__": pow, "__rpow__": _r(pow), "__neg__": neg,
    "__abs__": abs, "__floordiv__": floor_divide, "__rfloordiv__": _r(floor_divide), "__mod__": remainder,
    "__rmod__": _r(remainder), "__eq__": eq, "__ne__": ne, "__lt__": lt, "__le__": le, "__gt__": gt, "__ge__": ge,
    "__and__": _bit_and, "__or__": _bit_or, "__xor__": _bit_xor, "__rand__": _r(_bit_and),
    "__ror__": _r(_bit_or), "__rxor__": _r(_bit_xor), "__invert__": _invert,
    "add": add, "sub": sub, "subtract": sub, "mul": mul, "multiply": mul, "div": div, "divide": div,
    "true_divide": div, "pow": pow, "maximum": maximum, "minimum": minimum, "neg": neg, "negative": neg, "exp": exp,
    "log": log, "log2": log2, "log10": log10, "log1p": log1p, "expm1": expm1, "sin": sin, "cos": cos, "tan": tan,
    "tanh": tanh, "sigmoid": sigmoid, "relu": relu, "abs": abs, "sqrt": sqrt, "rsqrt": rsqrt,
    "reciprocal": reciprocal, "erf": erf, "sign": sign, "round": round, "floor": floor, "ceil": ceil,
    "trunc": trunc, "clamp": clamp, "clip": clamp, "remainder": remainder, "floor_divide": floor_divide,
    "atan2": atan2, "eq": eq, "ne": ne, "lt": lt, "le": le, "gt": gt, "ge": ge, "greater": gt, "less": lt,
    "logical_not": logical_not, "logical_and": logical_and, "logical_or": logical_or, "logical_xor": logical_xor,
    "isnan": isnan, "isinf": isinf, "isfinite": isfinite,
    "where": lambda self, condition, other: where(condition, self, other),
    "square": lambda self: pow(self, 2),
}


class ToDeviceBackward(Node):
    __slots__ = ("src",)
    _name = "ToCopyBackward0"

    def backward(self, g):
        return (to_device(g, self.src),)


def to_device(x: Tensor, device) -> Tensor:
    """`x` on `device` (differentiable; gradients go back to the source device)."""
    device = backend.Device(device)
    src = x.device
    if src == device or (device.type == src.type and device.index is None):
        return x
    out = x._out_cls._make(backend.to_device(x._data, device))
    if _grad_enabled() and x._requires_grad:
        make_node(ToDeviceBackward, (x,), out).src = src
    return out


__all__.append("to_device")
