"""Elementwise primitives: arithmetic, unary math, comparisons, where, casts."""
from __future__ import annotations

import builtins
import math
import numbers

import numpy as np

from .. import backend, user_warning
from ..autograd.policy import policy_of
from ..tensor import Tensor
from ._args import NOT_OPERANDS as _NOT_OPERANDS, binary_arrays, check_same, reraise_broadcast, typename
from ._declare import _grad_enabled, derivative, identity, recording, variant

__all__ = ["logit", "add", "sub", "mul", "div", "pow", "maximum", "minimum", "where", "neg", "exp", "log", "sin", "cos",
           "tan", "tanh", "sigmoid", "relu", "abs", "sqrt", "rsqrt", "reciprocal", "log1p", "expm1", "log2",
           "log10", "erf", "sign", "round", "floor", "ceil", "trunc", "clamp", "cast", "copy_grad", "remainder",
           "floor_divide", "eq", "ne", "lt", "le", "gt", "ge", "logical_not", "logical_and", "logical_or",
           "logical_xor", "isnan", "isinf", "isfinite", "zeros_for", "atan2", "scale", "to_device", "conj",
           "conj_physical", "resolve_conj", "sgn", "refuse_complex", "refuse_dtype", "asin", "acos", "atan", "sinh", "cosh", "asinh",
           "acosh", "atanh"]


def _xp(x, y):
    """The namespace of a binary op's operands (one of them may be a Python scalar)."""
    return backend.namespace(y if isinstance(x, (bool, int, float)) else x)


# ------------------------------------------------------------------------- binary arithmetic
# Two kinds of node per operator where OneFlow names them apart: with two tensors, with a number.

AddBackward0 = derivative("AddBackward0", complex=True, oneflow="broadcast_addBackward", keep="alpha",
                          self=identity,
                          other=lambda grad, alpha: grad if alpha == 1 else grad * alpha.conjugate())
AddSameShape = variant(AddBackward0, oneflow="add_nBackward")
AddScalar = variant(AddBackward0, oneflow="scalar_addBackward")


def add(a, b, alpha=1):
    cls, x, y, ta, tb = binary_arrays(a, b)
    try:
        r = x + y if alpha == 1 else x + y * alpha
    except ValueError as e:
        reraise_broadcast(e, cls, x, y)
    out = cls._make(r)
    if _grad_enabled() and ((ta is not None and ta._requires_grad) or (tb is not None and tb._requires_grad)):
        node_cls = AddScalar if ta is None or tb is None else AddSameShape if x.shape == y.shape else AddBackward0
        node_cls.record((ta, tb), out, alpha)
    return out


SubBackward0 = derivative("SubBackward0", complex=True, paddle="SubtractGradNode", oneflow="broadcast_subBackward", keep="alpha",
                          self=identity,
                          other=lambda grad, alpha: -grad if alpha == 1 else grad * -alpha.conjugate())
SubScalar = variant(SubBackward0, paddle="SubtractGradNode", oneflow="scalar_subBackward")
RsubBackward1 = derivative("RsubBackward1", complex=True, paddle="ScaleGradNode", oneflow="scalar_subBackward",
                           self=lambda grad: -grad)


def _is_bool(v) -> bool:
    return type(v) is bool or (isinstance(v, Tensor) and v._data.dtype == np.bool_)


def sub(a, b, alpha=1):
    bools = _is_bool(a) + _is_bool(b)
    if bools:   # (PyTorch refuses a bool operand, tensor or number)
        policy = policy_of(a, b)
        if bools == 2 and isinstance(a, Tensor) and isinstance(b, Tensor):
            raise policy.errors.sub_bool()
        if not policy.one_bool_subtracts:
            raise policy.errors.sub_bool() if bools == 2 else policy.errors.sub_one_bool()
    cls, x, y, ta, tb = binary_arrays(a, b)
    try:
        r = x - y if alpha == 1 else x - y * alpha
    except ValueError as e:
        reraise_broadcast(e, cls, x, y)
    out = cls._make(r)
    if _grad_enabled() and ((ta is not None and ta._requires_grad) or (tb is not None and tb._requires_grad)):
        if ta is None:
            RsubBackward1.record((tb,), out)
        else:
            (SubScalar if tb is None else SubBackward0).record((ta, tb), out, alpha)
    return out


ScaleBackward0 = derivative("ScaleBackward0", keep="scale", self=lambda grad, scale: grad * scale)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True):
    """`x * scale + bias` (or `(x + bias) * scale`) in `x`'s dtype, recorded as one node: the op
    paddle records for arithmetic with a Python scalar."""
    d = x._data
    r = d * scale + bias if bias_after_scale else (d + bias) * scale
    out = x._out_cls._make(r.astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        ScaleBackward0.record((x,), out, scale)
    return out


MulBackward0 = derivative("MulBackward0", complex=True, paddle="MultiplyGradNode", oneflow="broadcast_mulBackward", operands=True,
                          self=lambda grad, other: grad * _conj(other),
                          other=lambda grad, self: grad * _conj(self))
MulScalar = variant(MulBackward0, paddle="MultiplyGradNode", oneflow="scalar_mulBackward")


def mul(a, b):
    cls, x, y, ta, tb = binary_arrays(a, b)
    try:
        r = x * y
    except ValueError as e:
        reraise_broadcast(e, cls, x, y)
    out = cls._make(r)
    if _grad_enabled() and ((ta is not None and ta._requires_grad) or (tb is not None and tb._requires_grad)):
        # each formula needs the *other* operand; a Python scalar is saved as itself
        if ta is None:
            MulScalar.record((None, tb), out, a, tb)
        elif tb is None:
            MulScalar.record((ta, None), out, ta, b)
        else:
            MulBackward0.record((ta, tb), out, ta, tb)
    return out


DivBackward0 = derivative("DivBackward0", complex=True, paddle="DivideGradNode", oneflow="broadcast_divBackward", operands=True,
                          self=lambda grad, other: grad / _conj(other),
                          other=lambda grad, self, other: -grad * _conj(self) / _conj(other * other))
DivScalar = variant(DivBackward0, paddle="DivideGradNode", oneflow="scalar_divBackward")


def _check_divisor(cls, x, y, kernel) -> None:
    """PyTorch's error for an integer division or remainder by zero (x, y: promoted operands), and
    its refusal of complex operands by `kernel`."""
    a = x if hasattr(x, "dtype") else y
    if a.dtype.kind == "c":
        raise cls.policy.errors.not_implemented_for(op=kernel, dtype_scalar=a.dtype)
    if a.dtype.kind in "iu" and (bool((y == 0).any()) if hasattr(y, "dtype") else y == 0):
        raise cls.policy.errors.zero_division()


def _trunc_divide(a, b):
    cls, x, y, ta, tb = binary_arrays(a, b)
    xp = _xp(x, y)
    _check_divisor(cls, x, y, "div_trunc_cpu")
    if (x if hasattr(x, "dtype") else y).dtype.kind not in "iu":
        with backend.quiet(xp):
            return cls._make(xp.trunc(xp.divide(x, y)))
    q = xp.floor_divide(x, y)
    return cls._make(q + ((xp.remainder(x, y) != 0) & ((xp.sign(x) * xp.sign(y)) < 0)))


# division with a rounding mode: piecewise constant, so zero gradients (PyTorch records the node)
DivBackward2 = derivative("DivBackward2", operands=True, keep="rounding_mode",
                          self=lambda grad, self, other, rounding_mode: grad * 0,
                          other=lambda grad, self, other, rounding_mode: grad * 0)


def div(a, b, rounding_mode=None):
    if rounding_mode is not None:
        if rounding_mode == "floor":
            out = floor_divide(a, b)
        elif rounding_mode == "trunc":
            out = _trunc_divide(a, b)
        else:
            raise policy_of(a, b).errors.div_rounding_mode(mode=rounding_mode)
        ta, tb = (a if isinstance(a, Tensor) else None), (b if isinstance(b, Tensor) else None)
        if recording(ta, tb) and out._data.dtype.kind in "fV":
            DivBackward2.record((ta, tb), out, a, b, rounding_mode)
        return out
    cls, x, y, ta, tb = binary_arrays(a, b, float_result=True)
    if ta is None:  # scalar / tensor is scalar * reciprocal(tensor), as PyTorch records it
        return mul(reciprocal(tb), a)
    try:
        if tb is None and y != 0:   # (a nonzero number: no inf/NaN made here, no warning to silence)
            r = x / y
        else:
            with backend.quiet(_xp(x, y)):
                r = x / y
    except ValueError as e:
        reraise_broadcast(e, cls, x, y)
    out = cls._make(r)
    if _grad_enabled() and ((ta is not None and ta._requires_grad) or (tb is not None and tb._requires_grad)):
        if tb is None:
            DivScalar.record((ta, None), out, ta, b)
        else:
            DivBackward0.record((ta, tb), out, ta, tb)
    return out


PowBackward0 = derivative(  # tensor ** number
    "PowBackward0", keep="exponent", complex=True,
    self=lambda grad, self, exponent: grad * 0 if exponent == 0 else
    grad * exponent.conjugate() * _conj(self ** (exponent - 1)))
def _exponent_grad_zero(base, exponent):
    """Where the gradient of base ** exponent by the exponent is 0 (PyTorch's mask): a zero base with
    a real, non-negative exponent."""
    e = exponent._data if isinstance(exponent, Tensor) else exponent
    real_nonneg = ((e.real >= 0) & (e.imag == 0)) if e.dtype.kind == "c" else e >= 0
    b = base._data if isinstance(base, Tensor) else base
    return exponent._new((b == 0) & real_nonneg)


def _pow_self_grad(grad, self, exponent):
    return where(exponent == 0, grad * 0, grad * _conj(exponent * self ** (exponent - 1)))


def _pow_exponent_grad(grad, self, exponent, result):
    if result._data.dtype.kind == "c" and self._data.dtype.kind != "c":   # (the base's log taken as complex)
        self = cast(self, result._data.dtype)
    return where(_exponent_grad_zero(self, exponent), grad * 0, grad * _conj(result * log(self)))


PowBackward1 = derivative(  # tensor ** tensor
    "PowBackward1", paddle="ElementwisePowGradNode", complex=True, self=_pow_self_grad, exponent=_pow_exponent_grad)


def _pow_number_base(grad, result, exponent, self):
    if self == 0:  # d/db 0**b: -inf where b < 0, 0 elsewhere (PyTorch's masking)
        return where(_exponent_grad_zero(self, exponent), grad * 0, grad * result * -math.inf)
    if result._data.dtype.kind == "c":
        return grad * _conj(result * complex(np.log(np.complex128(self))))
    return grad * result * float(np.log(np.float64(self)))


PowBackward2 = derivative("PowBackward2", paddle="ElementwisePowGradNode", complex=True, keep="self",  # number ** tensor
                          exponent=_pow_number_base)


def _int_power(xp, x, y):
    """Integer powers with PyTorch's results for negative exponents (NumPy refuses them): 1 for a
    base of 1, +-1 for -1 by the exponent's parity, 0 for any other base."""
    neg = y < 0
    if not neg.any():
        return x ** y
    r = x ** xp.where(neg, 0, y)
    one, minus_one = xp.asarray(x == 1), xp.asarray(x == -1)     # (x may be a Python number)
    return xp.where(neg, xp.where(one, 1, xp.where(minus_one, 1 - 2 * (y & 1), 0)), r).astype(r.dtype)


def _cpow_special_cases(xp, x, y, r):
    """PyTorch raises complex tensors to tensor powers by C's cpow, exp(y log x), everywhere; NumPy
    calls cpow too except at a zero base or exponent and at real integer exponents below 100 in size
    (multiplied out): those elements are recomputed as exp(y log x)."""
    y = xp.asarray(y, dtype=r.dtype)
    x = xp.asarray(x, dtype=r.dtype)
    n = y.real
    own = (x == 0) | (y == 0) | ((y.imag == 0) & (n == xp.trunc(n)) & (xp.abs(n) < 100))
    if not own.any():
        return r
    x, y = xp.broadcast_to(x, r.shape)[own], xp.broadcast_to(y, r.shape)[own]
    r[own] = xp.exp(y * xp.log(x))
    return r


def pow(a, b):
    cls, x, y, ta, tb = binary_arrays(a, b)
    if tb is None and type(y) is int and y < 0 and x.dtype.kind in "iu":
        raise cls.policy.errors.pow_negative_int()
    if type(y) is int and y >= 0:   # (x ** 2: no inf/NaN made here, no warning to silence)
        r = x ** y
    elif getattr(y, "dtype", None) is not None and y.dtype.kind in "iu":
        try:
            r = _int_power(_xp(x, y), x, y)
        except ValueError as e:
            reraise_broadcast(e, cls, x, y)
    else:
        with backend.quiet(_xp(x, y)):
            try:
                r = x ** y
            except ValueError as e:
                reraise_broadcast(e, cls, x, y)
            if tb is not None and r.dtype.kind == "c":
                r = _cpow_special_cases(_xp(x, y), x, y, r)
    out = cls._make(r)
    if not recording(ta, tb):
        return out
    if tb is None:
        PowBackward0.record((ta,), out, b)
    elif ta is None:
        PowBackward2.record((tb,), out, a)
    else:
        PowBackward1.record((ta, tb), out)
    return out


def _split_grad(grad, win, self, other):
    """The gradient of max/min: to the winning operand, halved between tied ones."""
    return grad * (win + (self == other) * 0.5)


MaximumBackward0 = derivative("MaximumBackward0",
                              self=lambda grad, self, other: _split_grad(grad, self > other, self, other),
                              other=lambda grad, self, other: _split_grad(grad, self < other, self, other))
MinimumBackward0 = derivative("MinimumBackward0",
                              self=lambda grad, self, other: _split_grad(grad, self < other, self, other),
                              other=lambda grad, self, other: _split_grad(grad, self > other, self, other))


def tensors_only(fn, a, b) -> None:
    """maximum / minimum / atan2 take two tensors in every framework (a number is refused, not
    broadcast: its gradient would have nowhere to go)."""
    for position, (argument, value) in enumerate((("input", a), ("other", b)), 1):
        if not isinstance(value, Tensor):
            raise policy_of(a, b).errors.argument_type_at(fn=fn, argument=argument, position=position,
                                                          expected="Tensor", type=typename(value))


def _extremum(node_cls, fn, a, b):
    tensors_only(fn, a, b)
    cls, x, y, ta, tb = binary_arrays(a, b)
    if (x if hasattr(x, "dtype") else y).dtype.kind == "c":
        raise cls.policy.errors.extremum_complex(op=fn)
    xp = _xp(x, y)
    try:
        out = cls._make(getattr(xp, fn)(x, y))
    except ValueError as e:
        reraise_broadcast(e, cls, x, y)
    if recording(ta, tb):
        node_cls.record((ta, tb), out)
    return out


def maximum(a, b):
    return _extremum(MaximumBackward0, "maximum", a, b)


def minimum(a, b):
    return _extremum(MinimumBackward0, "minimum", a, b)


RemainderBackward0 = derivative("RemainderBackward0", self=identity, other=None)


def remainder(a, b):
    cls, x, y, ta, tb = binary_arrays(a, b)
    xp = _xp(x, y)
    _check_divisor(cls, x, y, "remainder_cpu")
    with backend.quiet(xp):
        try:
            r = xp.remainder(x, y)
        except ValueError as e:
            reraise_broadcast(e, cls, x, y)
    out = cls._make(r)
    if recording(ta):
        RemainderBackward0.record((ta, None), out)
    return out


def _trunc_quotient(self, other):
    """trunc(self / other), a constant of the gradient (PyTorch's rounded division has a zero one)."""
    x, y = self._data, other._data
    with backend.quiet(backend.namespace(x)):
        return self._new(backend.namespace(x).trunc(x / y))


FmodBackward0 = derivative("FmodBackward0", self=identity)    # by a number
FmodBackward1 = derivative("FmodBackward1", self=identity,
                           other=lambda grad, self, other: -grad * _trunc_quotient(self, other))


def fmod(a, b):
    """The remainder of the division rounded towards zero (the dividend's sign)."""
    if not isinstance(a, Tensor):
        raise policy_of(a, b).errors.argument_type_at(fn="fmod", argument="input", position=1,
                                                      expected="Tensor", type=typename(a))
    cls, x, y, ta, tb = binary_arrays(a, b)
    _check_divisor(cls, x, y, "fmod_cpu")
    if x.dtype == np.bool_:
        raise cls.policy.errors.not_implemented_for(op="fmod_cpu", dtype_scalar=x.dtype)
    xp = _xp(x, y)
    with backend.quiet(xp):
        try:
            out = cls._make(xp.fmod(x, y))
        except ValueError as e:
            reraise_broadcast(e, cls, x, y)
    if recording(ta, tb):
        if tb is None:
            FmodBackward0.record((ta,), out)
        else:
            FmodBackward1.record((ta, tb), out)
    return out


def _no_derivative(grad, op):
    raise grad.policy.errors.derivative_not_implemented(op=op)


# an op PyTorch gives no derivative: its node raises in backward (floor division, scatter's reduce=)
NoDerivative = derivative("NotImplemented", keep="op", self=lambda grad, op: _no_derivative(grad, op),
                          other=lambda grad, op: _no_derivative(grad, op))
UnaryNoDerivative = derivative("NotImplemented", keep="op", self=lambda grad, op: _no_derivative(grad, op))


def _zeros_of(grad):
    return grad._new(backend.namespace(grad._data).zeros_like(grad._data))


# bernoulli(probabilities): PyTorch's gradient of a draw with respect to its probabilities is zero
BernoulliBackward0 = derivative("BernoulliBackward0", self=lambda grad: _zeros_of(grad))


# poisson(rates): a zero gradient, as PyTorch's
PoissonBackward0 = derivative("PoissonBackward0", self=lambda grad: _zeros_of(grad))


def record_poisson(rates, out):
    """`out`, drawn by poisson from `rates`, with PyTorch's node where `rates` requires grad."""
    if recording(rates):
        PoissonBackward0.record((rates,), out)
    return out


def record_bernoulli(probs, out, one_probability: bool):
    """`out`, drawn by bernoulli from `probs`, with PyTorch's node where `probs` requires grad: a zero
    gradient for bernoulli(probs), no derivative for bernoulli(probs, p)."""
    if recording(probs):
        if one_probability:
            UnaryNoDerivative.record((probs,), out, "aten::bernoulli")
        else:
            BernoulliBackward0.record((probs,), out)
    return out


def floor_divide(a, b):
    cls, x, y, ta, tb = binary_arrays(a, b)
    xp = _xp(x, y)
    _check_divisor(cls, x, y, "div_floor_cpu")
    with backend.quiet(xp):
        try:
            out = cls._make(xp.floor_divide(x, y))
        except ValueError as e:
            reraise_broadcast(e, cls, x, y)
    if recording(ta, tb):
        NoDerivative.record((ta, tb), out, "aten::floor_divide")
    return out


def _squared_norm(self, other):
    """self**2 + other**2, with 1 where both are zero (atan2's gradient is 0 there)."""
    d = self * self + other * other
    return where(d == 0, d + 1, d)


Atan2Backward0 = derivative("Atan2Backward0",
                            self=lambda grad, self, other: grad * other / _squared_norm(self, other),
                            other=lambda grad, self, other: -grad * self / _squared_norm(self, other))


def atan2(a, b):
    tensors_only("atan2", a, b)
    cls, x, y, ta, tb = binary_arrays(a, b, float_result=True)
    dt = (x if hasattr(x, "dtype") else y).dtype
    if dt.kind == "c":
        raise cls.policy.errors.not_implemented_for(op="atan2_cpu", dtype_scalar=dt)
    try:
        out = cls._make(backend.namespace(x).arctan2(x, y))
    except ValueError as e:
        reraise_broadcast(e, cls, x, y)
    if recording(ta, tb):
        Atan2Backward0.record((ta, tb), out)
    return out


HypotBackward0 = derivative("HypotBackward0",
                            self=lambda grad, self, result: grad * self / result,
                            other=lambda grad, other, result: grad * other / result)


def hypot(a, b):
    """sqrt(a**2 + b**2) without overflow, of two float tensors (PyTorch's kernel takes no other)."""
    tensors_only("hypot", a, b)
    cls, x, y, ta, tb = binary_arrays(a, b)
    if x.dtype.kind not in "fV":
        raise cls.policy.errors.not_implemented_for(op="hypot_cpu", dtype_scalar=x.dtype)
    xp = backend.namespace(x)
    with backend.quiet(xp):
        try:
            out = cls._make(xp.hypot(x, y))
        except ValueError as e:
            reraise_broadcast(e, cls, x, y)
    if recording(ta, tb):
        HypotBackward0.record((ta, tb), out)
    return out


# ------------------------------------------------------------------------------- where

WhereBackward0 = derivative("WhereBackward0", complex=True, save="condition",
                            self=lambda grad, condition: where(condition, grad, 0.0),
                            other=lambda grad, condition: where(condition, 0.0, grad))


def where(condition, a, b):
    c = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if c.dtype != np.bool_:
        if isinstance(condition, Tensor):
            raise condition.policy.errors.where_condition(dtype_scalar=c.dtype)
        c = c.astype(bool)
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        a = condition._new(backend.namespace(c).asarray(a, dtype=backend.default_float()))
    cls, x, y, ta, tb = binary_arrays(a, b)
    t = ta if ta is not None else tb
    if isinstance(condition, Tensor) and type(c) is not type(t._data):
        check_same(cls, t, condition)
    xp = backend.namespace(t._data)
    out = cls._make(xp.where(c, x, y))
    if recording(ta, tb):
        cond = condition if isinstance(condition, Tensor) else out._new(c)
        WhereBackward0.record((ta, tb), out, cond.detach())
    return out


# ------------------------------------------------------------------------------- unary

def _not_built_for_complex(policy, name, dtype):
    return policy.errors.complex_unsupported(op=name)


def _complex_inputs(policy, name, dtype):
    return policy.errors.complex_inputs(op=name)


def refuse_complex(x, kernel: str) -> None:
    """PyTorch's refusal of a complex tensor by its `kernel`, for ops not defined on complex numbers."""
    d = x._data
    if d.dtype.kind == "c":
        raise x.policy.errors.not_implemented_for(op=kernel, dtype_scalar=d.dtype)


def refuse_dtype(x, kernel: str, halves: bool = True, also: tuple = ()) -> None:
    """PyTorch's refusal of a dtype its CPU `kernel` has no code for: the kernel takes the floating
    dtypes (float16 and bfloat16 only with `halves`) and the dtypes named in `also`."""
    dt = x._data.dtype
    if (dt.kind in "fV" and (halves or dt.itemsize >= 4)) or dt.name in also:
        return
    raise x.policy.errors.not_implemented_for(op=kernel, dtype_scalar=dt)


def _no_complex_kernel(kernel):
    return lambda policy, name, dtype: policy.errors.not_implemented_for(op=kernel, dtype_scalar=dtype)


def _unary(name, node_cls, forward, float_out=True, quiet=False, bool_kernel=None, complex=_not_built_for_complex):
    """The forward of a one-input op: `forward(xp, array)`, recorded as `node_cls`; `quiet` for
    the ops that can make inf/NaN (silently, as PyTorch's); `bool_kernel`: the kernel PyTorch names
    refusing a bool tensor; `complex`: True when the forward and the formula are built for complex
    input, else the error refusing it `(policy, name, dtype)`."""
    if quiet:
        loud = forward

        def forward(xp, d):
            with backend.quiet(xp):
                return loud(xp, d)

    def op(x):
        d = x._data
        if d.dtype.kind != "f":
            if d.dtype.kind == "c":
                if complex is not True:
                    raise complex(x.policy, name, d.dtype)
            elif d.dtype.kind == "V":   # bfloat16: computed in float32, rounded once (PyTorch's kernels)
                out = x._out_cls._make(forward(backend.namespace(d), d.astype(np.float32)).astype(d.dtype))
                if _grad_enabled() and x._requires_grad:
                    node_cls.record((x,), out)
                return out
            elif bool_kernel is not None and d.dtype == np.bool_:
                raise x.policy.errors.not_implemented_for(op=bool_kernel, dtype_scalar=d.dtype)
            elif float_out:
                d = d.astype(backend.default_float())
        out = x._out_cls._make(forward(np if type(d) is np.ndarray else backend.namespace(d), d))
        if _grad_enabled() and x._requires_grad:
            node_cls.record((x,), out)   # (looked up per call: the class's compiled record replaces a stand-in)
        return out

    op.__name__ = op.__qualname__ = name
    op.node = node_cls
    return op


def _erf_array(xp, d, name="erf"):
    """erf (or erfc, by `name`) on the array's own device: SciPy / cupyx when present, else elementwise
    on the host."""
    if xp is not np and hasattr(xp, "cuda"):
        import cupyx.scipy.special
        return getattr(cupyx.scipy.special, name)(d)
    host = xp.asnumpy(d) if hasattr(xp, "asnumpy") else d
    try:
        import scipy.special
        r = getattr(scipy.special, name)(host).astype(host.dtype, copy=False)   # (float16 comes back float64)
    except ImportError:
        r = np.vectorize(getattr(math, name), otypes=[host.dtype])(host) if host.size else host.copy()
    return r if xp is np else xp.asarray(r)


def _sigmoid_array(xp, d):
    if d.dtype.kind == "c":   # (as PyTorch computes it: 1 / (1 + exp(-z)), overflowing silently)
        with backend.quiet(xp):
            return 1 / (1 + xp.exp(-d))
    # numerically stable in both tails
    e = xp.exp(-xp.abs(d))
    return xp.where(d >= 0, 1 / (1 + e), e / (1 + e)).astype(d.dtype, copy=False)


_LN2, _LN10 = math.log(2.0), math.log(10.0)

_neg = _unary("neg", derivative("NegBackward0", complex=True, paddle="ScaleGradNode", self=lambda grad: -grad),
              lambda xp, d: -d, float_out=False, complex=True)


def neg(x):
    if x._data.dtype == np.bool_:
        raise x.policy.errors.neg_bool()
    return _neg(x)


exp = _unary("exp", derivative("ExpBackward0", complex=True, self=lambda grad, result: grad * _conj(result)),
             lambda xp, d: xp.exp(d), quiet=True, complex=True)
log = _unary("log", derivative("LogBackward0", complex=True, self=lambda grad, self: grad / _conj(self)),
             lambda xp, d: xp.log(d), quiet=True, complex=True)
log2 = _unary("log2", derivative("Log2Backward0", complex=True,
                                 self=lambda grad, self: grad / _conj(self * _LN2)),
              lambda xp, d: xp.log2(d), quiet=True, complex=True)
log10 = _unary("log10", derivative("Log10Backward0", complex=True,
                                   self=lambda grad, self: grad / _conj(self * _LN10)),
               lambda xp, d: xp.log10(d), quiet=True, complex=True)
log1p = _unary("log1p", derivative("Log1PBackward0", complex=True, paddle="Log1pGradNode", oneflow="log1pBackward",
                                   self=lambda grad, self: grad / _conj(self + 1)),
               lambda xp, d: xp.log1p(d), quiet=True, complex=True)
expm1 = _unary("expm1", derivative("Expm1Backward0", complex=True,
                                   self=lambda grad, result: grad * _conj(result + 1)),
               lambda xp, d: xp.expm1(d), quiet=True, complex=True)
sin = _unary("sin", derivative("SinBackward0", complex=True, self=lambda grad, self: grad * _conj(cos(self))),
             lambda xp, d: xp.sin(d), complex=True)
cos = _unary("cos", derivative("CosBackward0", complex=True, self=lambda grad, self: grad * -_conj(sin(self))),
             lambda xp, d: xp.cos(d), complex=True)
tan = _unary("tan", derivative("TanBackward0", complex=True,
                               self=lambda grad, result: grad * _conj(result * result + 1)),
             lambda xp, d: xp.tan(d), quiet=True, complex=True)


def _acosh_grad(grad, self):
    """1 / sqrt(z^2 - 1) on real numbers; the principal branch's 1 / (sqrt(z + 1) sqrt(z - 1)) on complex
    ones (PyTorch's two formulas)."""
    if self._data.dtype.kind == "c":
        return grad * conj(rsqrt(self + 1) * rsqrt(self - 1))
    return grad * rsqrt(self * self - 1)


asin = _unary("asin", derivative("AsinBackward0", complex=True,
                                 self=lambda grad, self: grad * _conj(rsqrt(1 - self * self))),
              lambda xp, d: xp.arcsin(d), quiet=True, complex=True)
acos = _unary("acos", derivative("AcosBackward0", complex=True,
                                 self=lambda grad, self: grad * -_conj(rsqrt(1 - self * self))),
              lambda xp, d: xp.arccos(d), quiet=True, complex=True)
atan = _unary("atan", derivative("AtanBackward0", complex=True,
                                 self=lambda grad, self: grad / _conj(self * self + 1)),
              lambda xp, d: xp.arctan(d), quiet=True, complex=True)
sinh = _unary("sinh", derivative("SinhBackward0", complex=True, self=lambda grad, self: grad * _conj(cosh(self))),
              lambda xp, d: xp.sinh(d), quiet=True, complex=True)
cosh = _unary("cosh", derivative("CoshBackward0", complex=True, self=lambda grad, self: grad * _conj(sinh(self))),
              lambda xp, d: xp.cosh(d), quiet=True, complex=True)
asinh = _unary("asinh", derivative("AsinhBackward0", complex=True,
                                   self=lambda grad, self: grad * _conj(rsqrt(self * self + 1))),
               lambda xp, d: xp.arcsinh(d), quiet=True, complex=True)
acosh = _unary("acosh", derivative("AcoshBackward0", complex=True, self=_acosh_grad),
               lambda xp, d: xp.arccosh(d), quiet=True, complex=True)
atanh = _unary("atanh", derivative("AtanhBackward0", complex=True,
                                   self=lambda grad, self: grad / _conj(1 - self * self)),
               lambda xp, d: xp.arctanh(d), quiet=True, complex=True)

# The backward formulas of tanh, sigmoid and relu are primitives of their own (one array expression
# instead of three recorded ops per node), each with its own derivative, so create_graph works.
TanhBackwardBackward0 = derivative("TanhBackwardBackward0",
                                   grad_output=lambda grad, output: grad * (1 - output * output),
                                   output=lambda grad, grad_output, output: grad * grad_output * output * -2)
SigmoidBackwardBackward0 = derivative("SigmoidBackwardBackward0",
                                      grad_output=lambda grad, output: grad * output * (1 - output),
                                      output=lambda grad, grad_output, output: grad * grad_output * (1 - output * 2))
ThresholdBackwardBackward0 = derivative("ThresholdBackwardBackward0",
                                        grad_output=lambda grad, self: grad * (self <= 0).logical_not(), self=None)


def _fused_backward(node_cls, g, r, result):
    """Wrap `result`, the array a fused backward formula computed from g and r, recording
    `node_cls` when either input requires grad (create_graph)."""
    out = g._out_cls._make(result)
    if _grad_enabled() and (g._requires_grad or r._requires_grad):
        node_cls.record((g, r), out)
    return out


def tanh_backward(grad, result):
    """grad * (1 - result**2): the gradient through tanh given its result (its conjugate on complex
    tensors, composed so that it differentiates again)."""
    rd = result._data
    if rd.dtype.kind == "c":
        return grad * conj(1 - result * result)
    return _fused_backward(TanhBackwardBackward0, grad, result, grad._data * (1 - rd * rd))


def sigmoid_backward(grad, result):
    """grad * result * (1 - result): the gradient through sigmoid given its result (its conjugate on
    complex tensors, composed so that it differentiates again)."""
    rd = result._data
    if rd.dtype.kind == "c":
        return grad * conj(result * (1 - result))
    return _fused_backward(SigmoidBackwardBackward0, grad, result, grad._data * (rd * (1 - rd)))


def threshold_backward(grad, result):
    """grad where result <= 0 is false (a NaN result passes its gradient, as PyTorch's), else 0: the
    gradient through relu given its result."""
    rd, gd = result._data, grad._data
    mask = backend.namespace(rd).logical_not(rd <= 0)   # (as fast as rd > 0; a where on a scalar is not)
    return _fused_backward(ThresholdBackwardBackward0, grad, result, gd * mask if gd.dtype.kind in "fV" else
                           gd * mask.astype(gd.dtype))


tanh = _unary("tanh", derivative("TanhBackward0", complex=True, self=tanh_backward), lambda xp, d: xp.tanh(d),
              complex=True)
sigmoid = _unary("sigmoid", derivative("SigmoidBackward0", complex=True, self=sigmoid_backward), _sigmoid_array,
                 complex=True)
_relu = _unary("relu", derivative("ReluBackward0", self=threshold_backward), lambda xp, d: xp.maximum(d, 0),
               float_out=False, complex=lambda policy, name, dtype: policy.errors.clamp_complex())


def relu(x):
    if x._data.dtype == np.bool_:
        raise x.policy.errors.relu_bool()
    return _relu(x)


relu.node = _relu.node
_abs = _unary("abs", derivative("AbsBackward0", complex=True, self=lambda grad, self: grad * (
                  sgn(self) if self._data.dtype.kind == "c" else sign(self))),
              lambda xp, d: xp.abs(d), float_out=False, complex=True)


def abs(x):
    if x._data.dtype == np.bool_:
        raise x.policy.errors.not_implemented_for(op="abs_cpu", dtype_scalar=x._data.dtype)
    return _abs(x)


sqrt = _unary("sqrt", derivative("SqrtBackward0", complex=True, self=lambda grad, result: grad / (_conj(result) * 2)),
              lambda xp, d: xp.sqrt(d), quiet=True, complex=True)
rsqrt = _unary("rsqrt", derivative("RsqrtBackward0", complex=True,
                                   self=lambda grad, result: grad * _conj(result * result * result) * -0.5),
               lambda xp, d: 1 / xp.sqrt(d), quiet=True, complex=True)
reciprocal = _unary("reciprocal", derivative("ReciprocalBackward0", complex=True,
                                             self=lambda grad, result: grad * -_conj(result * result)),
                    lambda xp, d: 1 / d, quiet=True, complex=True)
erf = _unary("erf", derivative("ErfBackward0",
                               self=lambda grad, self: grad * (2 / math.sqrt(math.pi)) * exp(-(self * self))),
             _erf_array, complex=_no_complex_kernel("erf_vml_cpu"))


def _zero_grad(grad):  # piecewise-constant functions
    return grad * 0


SignBackward0 = derivative("SignBackward0", self=_zero_grad)


def _sign_array(x):
    d = x._data
    if d.dtype == np.bool_:
        return d.copy()
    xp = backend.namespace(d)
    r = xp.sign(d)
    if d.dtype.kind in "fV" and not x.policy.sign_keeps_nan:
        r = xp.nan_to_num(r, nan=0.0)
    return r


def sign(x):
    """-1, 0 or 1 by the sign of each element; 0 for NaN (a policy may keep NaN); bools unchanged."""
    if x._data.dtype.kind == "c":
        raise x.policy.errors.sign_complex()
    out = x._out_cls._make(_sign_array(x))
    if _grad_enabled() and x._requires_grad:
        SignBackward0.record((x,), out)
    return out


# ------------------------------------------------------------------------- complex numbers
# Gradients follow PyTorch's convention: for a real loss L of z = x + iy, the gradient is
# dL/dx + i dL/dy, so a holomorphic f passes `grad * conj(f'(z))` back (hence the `_conj` in the
# formulas of mul, div, exp, log, ...: the identity on real tensors and numbers, nothing recorded).

ConjBackward0 = derivative("ConjBackward0", complex=True, self=lambda grad: conj(grad))
ConjPhysicalBackward0 = derivative("ConjPhysicalBackward0", complex=True, self=lambda grad: conj_physical(grad))


def _conjugated(x, node_cls):
    d = x._data
    if d.dtype.kind != "c":
        return x
    out = x._out_cls._make(backend.namespace(d).conj(d))
    if _grad_enabled() and x._requires_grad:
        node_cls.record((x,), out)
    return out


def conj(x):
    """The complex conjugate (a real tensor itself, as in PyTorch). Computed into new memory: it is
    not PyTorch's lazy conjugate view, so `is_conj()` is False and writes into it stay its own."""
    return _conjugated(x, ConjBackward0)


def conj_physical(x):
    """The complex conjugate in new memory (a real tensor itself)."""
    return _conjugated(x, ConjPhysicalBackward0)


def resolve_conj(x):
    """`x` itself: flowgrad's conjugates are never lazy, so there is no conjugate bit to resolve."""
    if not isinstance(x, Tensor):
        raise policy_of(x).errors.argument_type_at(fn="resolve_conj", argument="input", position=1,
                                                   expected="Tensor", type=type(x).__name__)
    return x


def _conj(v):
    """conj of a formula's operand: a tensor or a Python number."""
    return conj(v) if isinstance(v, Tensor) else v.conjugate()


def _real_part(w):
    """Re(w) kept in w's complex dtype: (w + conj(w)) / 2."""
    return (w + conj(w)) * 0.5


def _sgn_grad(grad, self, result):
    """d sgn: (g - Re(g conj(sgn)) sgn) / |z|, 0 where z is 0; 0 for a real input."""
    if self._data.dtype.kind != "c":
        return grad * 0
    a = abs(self)
    return where(a == 0, grad * 0, (grad - _real_part(grad * conj(result)) * result) / a)


SgnBackward0 = derivative("SgnBackward0", complex=True, self=_sgn_grad)


def sgn(x):
    """z / |z| (0 at 0) for complex tensors; sign for real ones."""
    d = x._data
    if d.dtype.kind != "c":
        r = _sign_array(x)
    else:
        xp = backend.namespace(d)
        a = xp.abs(d)
        with backend.quiet(xp):
            r = xp.where(a == 0, 0, d / a).astype(d.dtype)
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        SgnBackward0.record((x,), out)
    return out


_round = _unary("round", derivative("RoundBackward0", self=_zero_grad), lambda xp, d: xp.round(d), float_out=False,
                bool_kernel="round_vml_cpu", complex=_no_complex_kernel("round_vml_cpu"))
floor = _unary("floor", derivative("FloorBackward0", self=_zero_grad), lambda xp, d: xp.floor(d), float_out=False,
               bool_kernel="floor_vml_cpu", complex=_complex_inputs)
ceil = _unary("ceil", derivative("CeilBackward0", self=_zero_grad), lambda xp, d: xp.ceil(d), float_out=False,
              bool_kernel="ceil_vml_cpu", complex=_complex_inputs)
trunc = _unary("trunc", derivative("TruncBackward0", self=_zero_grad), lambda xp, d: xp.trunc(d), float_out=False,
               bool_kernel="trunc_vml_cpu", complex=_complex_inputs)
RoundBackward1 = derivative("RoundBackward1", self=_zero_grad)


def round(x, decimals=0):
    """Round half to even; with `decimals`, at that decimal place (negative: left of the point),
    as PyTorch computes it in the tensor's dtype: rint(x * 10**decimals) / 10**decimals."""
    if decimals == 0:
        return _round(x)   # (an integer tensor as it is)
    d = x._data
    if d.dtype.kind not in "fV":
        raise x.policy.errors.not_implemented_for(op="round_cpu", dtype_scalar=d.dtype)
    xp = backend.namespace(d)
    scale = d.dtype.type(10.0 ** builtins.abs(decimals))
    with backend.quiet(xp):
        r = xp.rint(d * scale) / scale if decimals > 0 else xp.rint(d / scale) * scale
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        RoundBackward1.record((x,), out)
    return out


def _clamp_grad(grad, self, min, max):
    if min is not None and max is not None:
        return grad * ((self >= min) & (self <= max))
    if min is not None:
        return grad * (self >= min)
    return grad * (self <= max)


ClampBackward1 = derivative("ClampBackward1", paddle="ClipGradNode", keep="min max", self=_clamp_grad)


def _bound_type_error(x, *bounds) -> None:
    """A clamp bound that is neither a tensor, a number nor None (no overload takes it)."""
    for name, b in zip(("min", "max"), bounds):
        if b is not None and not isinstance(b, (Tensor, numbers.Number, np.bool_)):
            raise x.policy.errors.argument_type(fn="clamp", argument=name, expected="Tensor", type=typename(b))


def clamp(x, min=None, max=None):
    if isinstance(min, Tensor) != isinstance(max, Tensor) and min is not None and max is not None:
        _bound_type_error(x, min, max)
        bound = min if isinstance(min, Tensor) else max
        if bound._data.ndim:     # a number beside a tensor of dims: no overload takes them
            raise x.policy.errors.argument_type(fn="clamp", argument="min" if bound is min else "max",
                                                expected="Number", type="Tensor")
        # a 0-d tensor beside a number is read as a number, as PyTorch's parser reads it
        min, max = (b.item() if isinstance(b, Tensor) else b for b in (min, max))
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        if x._data.dtype.kind == "c":
            raise x.policy.errors.clamp_complex()
        for bound in (min, max):
            if isinstance(bound, Tensor) and bound._data.dtype.kind == "c":
                raise x.policy.errors.not_implemented_for(op="clamp_cpu", dtype_scalar=bound._data.dtype)
        out = x
        if min is not None:
            out = maximum(out, min)
        if max is not None:
            out = minimum(out, max)
        return out
    if min is None and max is None:
        raise x.policy.errors.clamp_no_bounds()
    _bound_type_error(x, min, max)
    if type(min) is complex or type(max) is complex:
        if any(type(b) is complex and b.imag for b in (min, max)):
            raise x.policy.errors.value_overflow_c(name="double")
        min, max = (b.real if type(b) is complex else b for b in (min, max))
    d = x._data
    xp = backend.namespace(d)
    if d.dtype.kind == "c":
        raise x.policy.errors.clamp_complex()
    if d.dtype.kind not in "fV" and (type(min) is float or type(max) is float):   # an int tensor, a float bound
        d = d.astype(backend.default_float())
    r = xp.clip(d, min, max)
    if r.dtype != d.dtype and d.dtype.kind in "fV":
        r = r.astype(d.dtype)
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        ClampBackward1.record((x,), out, min, max)
    return out


# ------------------------------------------------------------------------------- casts

ToCopyBackward0 = derivative("ToCopyBackward0", complex=True, paddle="CastGradNode",
                             self=identity)  # the engine casts it back to the input's dtype


_COMPLEX_CAST_WARNED: list = []    # PyTorch gives this warning once per process


def complex_to_real(policy, d, dt):
    """A complex array converted toward the real dtype `dt` as PyTorch converts it: to bool by
    being nonzero, to any other dtype by its real part, with PyTorch's warning (once per process)."""
    if dt == np.bool_:
        return d != 0
    if not _COMPLEX_CAST_WARNED:
        _COMPLEX_CAST_WARNED.append(True)
        user_warning.warn(policy.errors.complex_cast_discards())
    return d.real


def cast(x: Tensor, dtype, copy: bool = False) -> Tensor:
    """`x` converted to `dtype` (a NumPy dtype or any dtype spelling); differentiable into floats.
    To its own dtype: `x` itself, or with `copy` a new tensor (paddle's cast)."""
    dt = backend.to_np_dtype(dtype)
    d = x._data
    if d.dtype == dt and not copy:
        return x
    if d.dtype.kind == "c" and dt.kind != "c":
        d = complex_to_real(x.policy, d, dt)
    elif dt.kind == "V" and type(d) is not np.ndarray:
        raise x.policy.errors.bfloat16_device(device=x.device.type)
    out = x._out_cls._make(d.astype(dt, copy=True))
    if _grad_enabled() and x._requires_grad and (dt.kind in "fcV" or x.policy.allow_int_grads):
        ToCopyBackward0.record((x,), out)
    return out


CopyBackwards = derivative("CopyBackwards", complex=True, paddle="AssignGradNode", self=identity)


def copy_grad(g: Tensor) -> Tensor:
    """A recorded copy of a gradient (`.grad` under create_graph shows `grad_fn=<CopyBackwards>`)."""
    out = g._out_cls._make(g._data.copy())
    if _grad_enabled() and g._requires_grad:
        CopyBackwards.record((g,), out)
    return out


def zeros_for(like: Tensor, shape, dtype) -> Tensor:
    """Zeros of `shape`/`dtype` on `like`'s device and facade (materialised missing gradients)."""
    return like._new(backend.namespace(like._data).zeros(shape, dtype=dtype))


ToDeviceBackward = derivative("ToCopyBackward0", complex=True, keep="src", self=lambda grad, src: to_device(grad, src))


def to_device(x: Tensor, device) -> Tensor:
    """`x` on `device` (differentiable; gradients go back to the source device)."""
    device = backend.Device(device)
    src = x.device
    if src == device or (device.type == src.type and device.index is None):
        return x
    out = x._out_cls._make(backend.to_device(x._data, device))
    if _grad_enabled() and x._requires_grad:
        ToDeviceBackward.record((x,), out, src)
    return out


# ------------------------------------------------------------------------ comparisons, logic

def _compare(ufunc_name):
    def op(a, b):
        cls, x, y, ta, tb = binary_arrays(a, b)
        xp = _xp(x, y)
        try:
            return cls._make(getattr(xp, ufunc_name)(x, y))
        except ValueError as e:
            reraise_broadcast(e, cls, x, y)
    op.__name__ = ufunc_name
    return op


def _order(ufunc_name, kernel):
    """A comparison by order: refused for complex operands, as PyTorch's `kernel` refuses them."""
    def op(a, b):
        cls, x, y, ta, tb = binary_arrays(a, b)
        dt = (x if hasattr(x, "dtype") else y).dtype
        if dt.kind == "c":
            raise cls.policy.errors.not_implemented_for(op=kernel, dtype_scalar=dt)
        try:
            return cls._make(getattr(_xp(x, y), ufunc_name)(x, y))
        except ValueError as e:
            reraise_broadcast(e, cls, x, y)
    op.__name__ = ufunc_name
    return op


eq, ne = _compare("equal"), _compare("not_equal")
lt, le, gt, ge = _order("less", "lt_cpu"), _order("less_equal", "le_cpu"), _order("greater", "gt_cpu"), \
    _order("greater_equal", "ge_cpu")
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




def _equality(fn):
    """`==` / `!=`: with what is no operand (None, a string, a list), Python's identity comparison
    (PyTorch's operators return NotImplemented there: `t == None` is False)."""
    def op(self, other):
        if isinstance(other, _NOT_OPERANDS):
            return NotImplemented
        return fn(self, other)
    return op


METHODS = {
    "__add__": add, "__radd__": _r(add), "__sub__": sub, "__rsub__": _r(sub), "__mul__": mul, "__rmul__": _r(mul),
    "__truediv__": div, "__rtruediv__": _r(div), "__pow__": pow, "__rpow__": _r(pow), "__neg__": neg,
    "__abs__": abs, "__floordiv__": floor_divide, "__rfloordiv__": _r(floor_divide), "__mod__": remainder,
    "__rmod__": _r(remainder), "__eq__": _equality(eq), "__ne__": _equality(ne), "__lt__": lt, "__le__": le,
    "__gt__": gt, "__ge__": ge,
    "__and__": _bit_and, "__or__": _bit_or, "__xor__": _bit_xor, "__rand__": _r(_bit_and),
    "__ror__": _r(_bit_or), "__rxor__": _r(_bit_xor), "__invert__": _invert,
    "add": add, "sub": sub, "subtract": sub, "mul": mul, "multiply": mul, "div": div, "divide": div,
    "true_divide": div, "pow": pow, "maximum": maximum, "minimum": minimum, "neg": neg, "negative": neg, "exp": exp,
    "log": log, "log2": log2, "log10": log10, "log1p": log1p, "expm1": expm1, "sin": sin, "cos": cos, "tan": tan,
    "asin": asin, "arcsin": asin, "acos": acos, "arccos": acos, "atan": atan, "arctan": atan, "sinh": sinh,
    "cosh": cosh, "asinh": asinh, "arcsinh": asinh, "acosh": acosh, "arccosh": acosh, "atanh": atanh,
    "arctanh": atanh,
    "tanh": tanh, "sigmoid": sigmoid, "relu": relu, "abs": abs, "sqrt": sqrt, "rsqrt": rsqrt,
    "reciprocal": reciprocal, "erf": erf, "sign": sign, "round": round, "floor": floor, "ceil": ceil,
    "trunc": trunc, "clamp": clamp, "clip": clamp, "remainder": remainder, "floor_divide": floor_divide,
    "atan2": atan2, "eq": eq, "ne": ne, "lt": lt, "le": le, "gt": gt, "ge": ge, "greater": gt, "less": lt,
    "not_equal": ne, "greater_equal": ge, "less_equal": le,
    "logical_not": logical_not, "logical_and": logical_and, "logical_or": logical_or, "logical_xor": logical_xor,
    "isnan": isnan, "isinf": isinf, "isfinite": isfinite,
    "where": lambda self, condition, other: where(condition, self, other),
    "square": lambda self: pow(self, 2),
}


def _logit_grad(grad, self, eps):
    if eps is None:   # NaN outside [0, 1]
        return where((self < 0) | (self > 1), float("nan"), grad / (self * (1 - self)))
    return where((self >= eps) & (self <= 1 - eps), grad / (self * (1 - self)), grad * 0)   # 0 where clamped


LogitBackward0 = derivative("LogitBackward0", keep="eps", self=_logit_grad)


def logit(x, eps=None):
    """log(z / (1 - z)), z = x clamped to [eps, 1 - eps] when eps is given; float tensors only."""
    d = x._data
    xp = backend.namespace(d)
    work = d.astype(np.float32) if d.dtype.kind == "V" else d   # bfloat16: in float32, rounded once
    z = work if eps is None else xp.clip(work, eps, 1 - eps)
    with backend.quiet(xp):
        r = xp.log(z / (1 - z))
    out = x._out_cls._make(r.astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        LogitBackward0.record((x,), out, eps)
    return out
