"""Primitives behind nn layers and losses that PyTorch records as one node each: linear
(AddmmBackward0), embedding, and the mse / nll / binary-cross-entropy losses.

Each forward runs on arrays through the tensor's namespace in one pass; each derivative formula
is flowgrad tensor code, so `create_graph=True` differentiates through them again. Fusing them
saves the nodes a composition would record (the MLP training step is overhead-sensitive) and gives
`loss.grad_fn` PyTorch's name.
"""
from __future__ import annotations

import numpy as np

from .. import backend, user_warning
from ._args import broadcast_error, check_same, normalize_dim
from ._declare import _grad_enabled, derivative, recording, variant
from . import elementwise as E
from . import indexing as I
from . import linalg as L
from . import reduction as R
from . import shape as S

__all__ = ["linear", "embedding", "mse_loss", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
           "reduce_loss", "REDUCTIONS"]

REDUCTIONS = ("none", "mean", "sum")
def _same_facade(a, b) -> None:
    if type(b)._out_cls is not a._out_cls or type(a._data) is not type(b._data):
        check_same(a._out_cls, a, b)


def _not_differentiable(fn_name: str, arg_name: str, t) -> None:
    if t is not None and t._requires_grad and _grad_enabled():
        raise t.policy.errors.not_differentiable(fn=fn_name, arg=arg_name)


def reduce_loss(x, reduction: str):
    """Apply a loss reduction ('none' | 'mean' | 'sum') with the tensor ops (recorded as usual)."""
    if reduction == "mean":
        return R.mean(x)
    if reduction == "sum":
        return R.sum(x)
    if reduction == "none":
        return x
    raise x.policy.errors.nn_reduction_invalid(reduction=reduction)


def _reduce_array(xp, a, reduction):
    if reduction == "mean":
        return xp.mean(a) if a.size else xp.asarray(np.nan, dtype=a.dtype)
    if reduction == "sum":
        return xp.sum(a)
    return a


# ------------------------------------------------------------------------------------ linear

def _rows(t):
    """`t` as a matrix: its batch dimensions flattened into rows."""
    return t if t._data.ndim == 2 else S.reshape(t, (-1, t._data.shape[-1]))


# d(x @ w.T + b): gx = g @ conj(w), gw = g.T @ conj(x) (batch dims flattened), gb = sum of g over rows
_linear = dict(input=lambda grad, weight: L.matmul(grad, E.conj(weight)),
               weight=lambda grad, input: L.matmul(S.t(_rows(grad)), _rows(E.conj(input))))
AddmmBackward0 = derivative("AddmmBackward0", complex=True, **_linear, bias=lambda grad: R.sum(_rows(grad), 0))
LinearMm = derivative("MmBackward0", complex=True, paddle="MatmulGradNode", **_linear)  # without a bias
# PyTorch's names for linear on 1-D and batched inputs with a bias, on batched inputs without one,
# and on a 1-D input without one
LinearView = variant(AddmmBackward0, "ViewBackward0", paddle="ReshapeGradNode")
LinearUnsafeView = variant(LinearMm, "UnsafeViewBackward0", paddle="ReshapeGradNode")
LinearSqueeze = variant(LinearMm, "SqueezeBackward4")


def _shape_mismatch(policy, d, wd):
    rows = int(np.prod(d.shape[:-1])) if d.ndim > 1 else 1
    return policy.errors.mm_shapes(a=f"{rows}x{d.shape[-1]}", b=f"{wd.shape[1]}x{wd.shape[0]}")


def linear(x, weight, bias=None):
    """`x @ weight.T + bias` as one recorded node (PyTorch's F.linear)."""
    d, wd = x._data, weight._data
    if wd.ndim != 2 or d.ndim == 0:   # not one GEMM: composed
        out = L.matmul(x, S.t(weight) if wd.ndim == 2 else weight)
        return out if bias is None else out + bias
    _same_facade(x, weight)
    if d.shape[-1] != wd.shape[1]:
        raise _shape_mismatch(x.policy, d, wd)
    if d.dtype != wd.dtype:
        if bias is not None:
            raise x.policy.errors.linear_dtype(a_scalar=d.dtype, b_scalar=wd.dtype)
        raise x.policy.errors.mm_dtype(a_ctype=d.dtype, b_ctype=wd.dtype)
    xp = backend.namespace(d)
    out = xp.matmul(d, wd.T)   # (bfloat16's product is float32: the bias added there, then rounded once)
    if bias is not None:
        _same_facade(x, bias)
        bd = bias._data
        if bd.dtype != d.dtype:
            raise x.policy.errors.addmm_bias_dtype(a_scalar=bd.dtype, b_scalar=d.dtype)
        out += bd
    if d.dtype.kind == "V":
        out = out.astype(d.dtype)
    res = x._out_cls._make(out)
    if _grad_enabled() and (x._requires_grad or weight._requires_grad or
                                (bias is not None and bias._requires_grad)):
        if d.ndim == 2:
            node_cls = AddmmBackward0 if bias is not None else LinearMm
        elif bias is not None:
            node_cls = LinearView
        else:
            node_cls = LinearSqueeze if d.ndim == 1 else LinearUnsafeView
        node_cls.record((x, weight, bias) if bias is not None else (x, weight), res)
    return res


# ---------------------------------------------------------------------------------- embedding

def _embedding_grad(grad, num_weights, indices, padding_idx, scale_grad_by_freq):
    """Rows of the gradient added into a zero table at the looked-up indices (padding rows get none);
    with `scale_grad_by_freq`, each row divided by how often its index occurs in the batch."""
    keep = None
    if padding_idx is not None:
        keep = (indices != padding_idx)[..., None].astype(grad._data.dtype)
    if scale_grad_by_freq:
        xp = backend.namespace(indices)
        counts = xp.bincount(indices.reshape(-1), minlength=num_weights)
        scale = (1.0 / counts[indices])[..., None].astype(grad._data.dtype)
        keep = scale if keep is None else keep * scale
    if keep is not None:
        grad = E.mul(grad, grad._new(keep))
    return I.index_into_zeros(grad, (num_weights, grad._data.shape[-1]), (indices,))


EmbeddingBackward0 = derivative("EmbeddingBackward0", keep="num_weights indices padding_idx scale_grad_by_freq",
                                weight=_embedding_grad)


def embedding(indices, weight, padding_idx=None, scale_grad_by_freq=False):
    idx = indices._data
    policy = indices.policy
    if idx.dtype.kind not in "iu":
        raise policy.errors.embedding_indices_dtype(type=policy.type_name(idx.dtype))
    wd = weight._data
    n = wd.shape[0]
    if idx.size and (int(idx.max()) >= n or int(idx.min()) < 0):
        raise policy.errors.index_out_of_range()
    out = weight._out_cls._make(wd[idx])
    if _grad_enabled() and weight._requires_grad:
        EmbeddingBackward0.record((weight,), out, n, idx, None if padding_idx is None else padding_idx % n,
                                  bool(scale_grad_by_freq))
    return out


# ---------------------------------------------------------------------------------------- mse

def _mse_grad(grad, self, target, reduction, n):
    return E.mul(E.sub(self, target), grad * (2.0 / n if reduction == "mean" else 2.0))


MseLossBackward0 = derivative("MseLossBackward0", keep="reduction n", self=_mse_grad,
                              target=lambda grad, self, target, reduction, n: E.neg(
                                  _mse_grad(grad, self, target, reduction, n)))


def _size_warning(x, t):
    user_warning.warn(x.policy.errors.target_size_warning(target_shape=t._data.shape, input_shape=x._data.shape))


def _pointwise_pair(x, t):
    """Arrays of `x` and `t` promoted to one floating dtype, with PyTorch's size warning/error."""
    _same_facade(x, t)
    if x._data.shape != t._data.shape:
        err = broadcast_error(x._data.shape, t._data.shape, x.policy)
        _size_warning(x, t)
        if err is not None:
            raise err
    d, td = x._data, t._data
    if d.dtype != td.dtype:
        dt = backend.result_type(tuple(a.dtype for a in (d, td) if a.ndim),
                                 tuple(a.dtype for a in (d, td) if not a.ndim), (), backend.default_float())
        if dt.kind not in "fV":
            raise x.policy.errors.result_type_cast(result_scalar=np.dtype(np.float32), want_scalar=dt)
        d, td = d.astype(dt, copy=False), td.astype(dt, copy=False)
    elif d.dtype.kind not in "fV":
        raise x.policy.errors.not_implemented_for(op="mse_cpu", dtype_scalar=d.dtype)
    return d, td


def mse_loss(x, t, reduction="mean"):
    if reduction not in REDUCTIONS:
        raise x.policy.errors.nn_reduction_invalid(reduction=reduction)
    d, td = _pointwise_pair(x, t)
    xp = backend.namespace(d)
    diff = d - td
    sq = diff * diff
    out = x._out_cls._make(_reduce_array(xp, sq, reduction))
    if _grad_enabled() and (x._requires_grad or t._requires_grad):
        MseLossBackward0.record((x, t), out, reduction, max(sq.size, 1))
    return out


# ---------------------------------------------------------------------------------------- nll

def _nll_grad(grad, in_shape, index, coef):
    """-w[t] * grad / total_weight scattered into zeros at the target class of each sample."""
    axis = 1 if len(in_shape) > 1 else 0
    if grad._data.ndim:  # reduction 'none': grad has the target's shape
        src = E.mul(S.unsqueeze(grad, axis), grad._new(coef))
    else:
        src = E.mul(grad._new(coef), grad)
    return I.scatter_into_zeros(in_shape, axis, grad._new(index), src)


NllLossBackward0 = derivative("NllLossBackward0", keep="in_shape index coef", self=_nll_grad)


def _check_nll_args(x, target, weight):
    """PyTorch's checks, in PyTorch's order (shapes, then the target dtype, then the weight)."""
    d, td = x._data, target._data
    policy = x.policy
    if d.ndim < 1:
        raise policy.errors.nll_input_dims(ndim=d.ndim)
    if d.ndim != 1 and d.shape[0] != (td.shape[0] if td.ndim else 0):
        raise policy.errors.nll_batch_size(input=d.shape[0], target=td.shape[0] if td.ndim else 0)
    if d.ndim == 1:
        if td.ndim > 1:
            raise policy.errors.nll_multi_target()
        if td.ndim == 1 and td.shape[0] != 1:
            raise policy.errors.nll_1d_target(size=td.shape[0])
    elif d.ndim == 2:
        if td.ndim > 1:
            raise policy.errors.nll_multi_target()
    elif d.ndim == 3:
        if td.shape != (d.shape[0], d.shape[2]):
            raise policy.errors.nll_target_size(want=[d.shape[0], d.shape[2]], got=list(td.shape))
    elif td.shape[1:] != d.shape[2:]:
        raise policy.errors.nll_size_mismatch(input=list(d.shape), target=list(td.shape))
    if td.dtype not in (np.int64, np.uint8):
        raise policy.errors.nll_target_dtype(dtype_scalar=td.dtype)
    c = d.shape[1] if d.ndim > 1 else d.shape[0]
    if weight is not None and weight._data.shape != (c,):
        raise policy.errors.nll_weight_shape(classes=c, shape=list(weight._data.shape))
    if d.dtype.kind not in "fV" and not policy.ints_cast_to_float:
        raise policy.errors.not_implemented_for(op="nll_loss2d_forward_out_frame" if d.ndim >= 3 else
                                                "nll_loss_out_frame", dtype_scalar=d.dtype)
    if weight is not None and weight._data.dtype != d.dtype:
        raise policy.errors.expected_scalar_type(a_scalar=d.dtype, b_scalar=weight._data.dtype)
    return c


def nll_loss(x, target, weight=None, ignore_index=-100, reduction="mean"):
    """Negative log-likelihood of class-index targets; `x` is (C,), (N, C) or (N, C, d1, ...)."""
    if reduction not in REDUCTIONS:
        raise x.policy.errors.nn_reduction_invalid(reduction=reduction)
    c = _check_nll_args(x, target, weight)
    _not_differentiable("nll_loss_forward", "weight", weight)
    d = x._data
    xp = backend.namespace(d)
    t = target._data.astype(np.int64, copy=False)
    if d.ndim == 1 and t.ndim == 1:  # (C,) input with a one-element target: a batch of one
        out = nll_loss(S.unsqueeze(x, 0), target, weight, ignore_index, reduction)
        return S.squeeze(out, 0) if reduction == "none" else out
    ignored = t == ignore_index
    bad = (t < 0) | (t >= c)
    bad &= ~ignored
    if bad.any():
        raise x.policy.errors.nll_target_bounds(target=int(t[bad].reshape(-1)[0]))
    safe = xp.where(ignored, 0, t)
    axis = 1 if d.ndim > 1 else 0
    index = xp.expand_dims(safe, axis)
    picked = xp.take_along_axis(d, index, axis=axis).squeeze(axis) if d.ndim > 1 else d[safe]
    w = weight._data.astype(d.dtype, copy=False)[safe] if weight is not None else xp.ones(safe.shape, d.dtype)
    w = xp.where(ignored, xp.zeros((), d.dtype), w)
    losses = -picked * w
    if reduction == "none":
        out_arr, coef = losses, -w
    elif reduction == "sum":
        out_arr, coef = xp.sum(losses), -w
    else:
        total = xp.sum(w)
        out_arr, coef = xp.sum(losses) / total, -w / total
    out = x._out_cls._make(xp.asarray(out_arr, dtype=d.dtype))
    if _grad_enabled() and x._requires_grad:
        NllLossBackward0.record((x,), out, d.shape, index, xp.expand_dims(coef, axis).astype(d.dtype, copy=False))
    return out


# ---------------------------------------------------------------------------- binary cross-entropy

def _bce_self_grad(grad, self, target, weight, reduction, n):
    if reduction == "mean":
        grad = grad / n
    gx = E.div(E.mul(grad, E.sub(self, target)), E.clamp(E.mul(self, 1 - self), min=1e-12))
    return gx if weight is None else E.mul(gx, weight)


def _bce_target_grad(grad, self, weight, reduction, n):
    """d/dt of -(t log x + (1-t) log(1-x)) = log(1-x) - log(x)."""
    if reduction == "mean":
        grad = grad / n
    gt = E.mul(grad, E.sub(E.clamp(E.log(1 - self), min=-100), E.clamp(E.log(self), min=-100)))
    return gt if weight is None else E.mul(gt, weight)


BinaryCrossEntropyBackward0 = derivative("BinaryCrossEntropyBackward0", save="weight", keep="reduction n",
                                         self=_bce_self_grad, target=_bce_target_grad)


def _bce_check(x, t, weight, name):
    if x._data.shape != t._data.shape:
        raise x.policy.errors.bce_target_size(target_shape=t._data.shape, input_shape=x._data.shape)
    _same_facade(x, t)
    if t._data.dtype != x._data.dtype:
        raise x.policy.errors.found_dtype(got_scalar=t._data.dtype, want_scalar=x._data.dtype)


def _complex_into_real(x, t, dtype) -> None:
    """PyTorch's error for a complex `t` combined in place into a real array of `dtype`."""
    if t is not None and t._data.dtype.kind == "c" and dtype.kind != "c":
        raise x.policy.errors.result_type_cast(
            result_scalar=backend.result_type((dtype, t._data.dtype), (), (), backend.default_float()),
            want_scalar=dtype)


def binary_cross_entropy(x, target, weight=None, reduction="mean"):
    if reduction not in REDUCTIONS:
        raise x.policy.errors.nn_reduction_invalid(reduction=reduction)
    _bce_check(x, target, weight, "binary_cross_entropy")
    _not_differentiable("binary_cross_entropy", "weight", weight)
    d, td = x._data, target._data
    xp = backend.namespace(d)
    for t, is_input in ((d, True), (td, False)):    # (NaN is out of range too)
        if t.size and not (float(t.min()) >= 0 and float(t.max()) <= 1):
            raise x.policy.error("bce_input_range" if is_input else "bce_target_range")
    _complex_into_real(x, weight, d.dtype)
    with backend.quiet(xp):
        logx = xp.maximum(xp.log(d), -100)
        log1mx = xp.maximum(xp.log(1 - d), -100)
    losses = -(td * logx + (1 - td) * log1mx)
    if weight is not None:
        losses = losses * weight._data
    out = x._out_cls._make(xp.asarray(_reduce_array(xp, losses, reduction), dtype=d.dtype))
    if _grad_enabled() and (x._requires_grad or target._requires_grad):
        BinaryCrossEntropyBackward0.record((x, target), out, weight, reduction, max(d.size, 1))
    return out


def _weighted(grad, weight, reduction, n):
    if reduction == "mean":
        grad = grad / n
    return grad if weight is None else E.mul(grad, weight)


def _bce_logits_self_grad(grad, self, target, weight, pos_weight, reduction, n):
    """With lw = 1 + (pos_weight - 1) * t: d/dx = lw * sigmoid(x) - pos_weight * t, times the weight."""
    grad = _weighted(grad, weight, reduction, n)
    if pos_weight is None:
        return E.mul(grad, E.sub(E.sigmoid(self), target))
    lw = E.add(E.mul(E.sub(pos_weight, 1), target), 1)
    return E.mul(grad, E.sub(E.mul(lw, E.sigmoid(self)), E.mul(pos_weight, target)))


def _bce_logits_target_grad(grad, self, weight, pos_weight, reduction, n):
    """d/dt = -x - (pos_weight - 1) * log_sigmoid(x)."""
    grad = _weighted(grad, weight, reduction, n)
    if pos_weight is None:
        return E.mul(grad, E.neg(self))
    logsig = E.neg(E.add(E.clamp(E.neg(self), min=0), E.log1p(E.exp(E.neg(E.abs(self))))))
    return E.mul(grad, E.sub(E.neg(self), E.mul(E.sub(pos_weight, 1), logsig)))


BinaryCrossEntropyWithLogitsBackward0 = derivative(
    "BinaryCrossEntropyWithLogitsBackward0", operands=True, save="weight pos_weight", keep="reduction n",
    self=_bce_logits_self_grad, target=_bce_logits_target_grad)


def binary_cross_entropy_with_logits(x, target, weight=None, reduction="mean", pos_weight=None):
    if reduction not in REDUCTIONS:
        raise x.policy.errors.nn_reduction_invalid(reduction=reduction)
    if x._data.shape != target._data.shape:
        raise x.policy.errors.bce_logits_target_size(target_shape=target._data.shape, input_shape=x._data.shape)
    _same_facade(x, target)
    _not_differentiable("binary_cross_entropy_with_logits", "weight", weight)
    _not_differentiable("binary_cross_entropy_with_logits", "pos_weight", pos_weight)
    d, td = x._data, target._data
    # PyTorch computes `(1 - target).mul_(input)`, in place: the loss has the target's dtype
    if td.dtype.kind == "b":
        raise x.policy.errors.sub_bool()
    if d.dtype.kind not in "fV":
        raise x.policy.errors.not_implemented_for(op="log_sigmoid_cpu", dtype_scalar=d.dtype)
    if td.dtype.kind in "iu":
        raise x.policy.errors.result_type_cast(result_scalar=d.dtype, want_scalar=td.dtype)
    out_dtype = td.dtype
    if pos_weight is not None:      # (PyTorch weighs the target in place, in pos_weight's dtype)
        _complex_into_real(x, target, pos_weight._data.dtype)
        _complex_into_real(x, pos_weight, out_dtype)
    _complex_into_real(x, weight, out_dtype)
    if td.dtype != d.dtype:
        td = td.astype(backend.result_type((d.dtype, td.dtype), (), (), backend.default_float()))
        d = d.astype(td.real.dtype)
    xp = backend.namespace(d)
    log_sig = -(xp.maximum(-d, 0) + xp.log1p(xp.exp(-xp.abs(d))))
    if pos_weight is None:
        losses = (1 - td) * d - log_sig
    else:
        lw = (pos_weight._data - 1) * td + 1
        losses = (1 - td) * d - lw * log_sig
    if weight is not None:
        losses = losses * weight._data
    out = x._out_cls._make(xp.asarray(_reduce_array(xp, losses, reduction), dtype=out_dtype))
    if _grad_enabled() and (x._requires_grad or target._requires_grad):
        t_saved = target if td is target._data else target._new(td)   # the target in the computing dtype
        BinaryCrossEntropyWithLogitsBackward0.record((x, target), out, x, t_saved, weight, pos_weight, reduction,
                                                     max(d.size, 1))
    return out


# -------------------------------------------------------------------------------- activations

_SQRT1_2 = 0.7071067811865476
_INV_SQRT_2PI = 0.3989422804014327
_TANH_K = 0.7978845608028654  # sqrt(2 / pi)


def _gelu_array(xp, d):
    w = _wide(d)
    return (0.5 * w * (1 + E._erf_array(xp, w * _SQRT1_2))).astype(d.dtype, copy=False)


def _gelu_formula(grad, self):
    x = self
    return grad * (E.erf(x * _SQRT1_2) * 0.5 + 0.5 + x * E.exp(x * x * -0.5) * _INV_SQRT_2PI)


def _gelu_tanh_array(xp, d):
    w = _wide(d)
    return (0.5 * w * (1 + xp.tanh(_TANH_K * (w + 0.044715 * w * w * w)))).astype(d.dtype, copy=False)


def _gelu_tanh_formula(grad, self):
    x = self
    t = E.tanh((x + x * x * x * 0.044715) * _TANH_K)
    return grad * ((t + 1) * 0.5 + x * (1 - t * t) * (x * x * (3 * 0.044715) + 1) * (0.5 * _TANH_K))


def _silu_formula(grad, self):
    s = E.sigmoid(self)
    return grad * (s * (self * (1 - s) + 1))


gelu = E._unary("gelu", derivative("GeluBackward0", self=_gelu_formula), _gelu_array)
gelu_tanh = E._unary("gelu", derivative("GeluBackward0", self=_gelu_tanh_formula), _gelu_tanh_array)
silu = E._unary("silu", derivative("SiluBackward0", complex="silu", self=_silu_formula),
                lambda xp, d: d * E._sigmoid_array(xp, d), complex=True)

LeakyReluBackward0 = derivative("LeakyReluBackward0", keep="negative_slope",
                                self=lambda grad, self, negative_slope: E.where(self > 0, grad, grad * negative_slope))


def _real_scalars(x, *values, double: bool = False) -> None:
    """PyTorch's error for a complex number as a real activation's parameter (converted to x's C
    type, or to a double where the kernel takes one)."""
    if any(isinstance(v, complex) for v in values):
        if double:
            raise x.policy.errors.value_overflow_c(name="double")
        raise x.policy.errors.value_overflow_float(dtype_ctype=x._data.dtype)


def leaky_relu(x, negative_slope=0.01):
    E.refuse_complex(x, "leaky_relu_cpu")
    _real_scalars(x, negative_slope)
    d = x._data
    xp = backend.namespace(d)
    out = x._out_cls._make(xp.where(d > 0, d, d * negative_slope).astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        LeakyReluBackward0.record((x,), out, negative_slope)
    return out


def _hardtanh_grad(grad, self, min_val, max_val):
    # the bounds pass nothing, a NaN passes the gradient, as PyTorch's hardtanh_backward
    return E.where((self <= min_val) | (self >= max_val), grad * 0, grad)


HardtanhBackward0 = derivative("HardtanhBackward0", keep="min_val max_val", self=_hardtanh_grad)


def hardtanh(x, min_val, max_val):
    """clamp's values; the gradient passes strictly inside (min_val, max_val) and at a NaN, as
    PyTorch's hardtanh / relu6. Integer tensors go through clamp (no gradient)."""
    d = x._data
    if d.dtype.kind not in "fV":
        return E.clamp(x, min_val, max_val)
    out = x._out_cls._make(backend.namespace(d).clip(d, min_val, max_val).astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        HardtanhBackward0.record((x,), out, min_val, max_val)
    return out


def _hardsigmoid_grad(grad, self):
    # PyTorch scales by 1/6 rounded to float32, in every dtype; its hardsigmoid_backward has no
    # derivative (a node that raises in backward)
    g, x = grad.detach(), self.detach()
    out = E.where((x > -3) & (x < 3), g * float(np.float32(1.0) / np.float32(6.0)), g * 0)
    if recording(grad, self):
        E.NoDerivative.record((grad, self), out, "aten::hardsigmoid_backward")
    return out


def _hardswish_grad(grad, self):
    # zero at and below -3, x / 3 + 1/2 strictly inside, the gradient itself at and above 3 and at NaN
    return E.where(self <= -3, grad * 0, E.where(self < 3, grad * (self / 3 + 0.5), grad))


hardsigmoid = E._unary("hardsigmoid", derivative("HardsigmoidBackward0", self=_hardsigmoid_grad),
                       lambda xp, d: xp.minimum(xp.maximum(d + 3, 0), 6) / 6, quiet=True)
hardswish = E._unary("hardswish", derivative("HardswishBackward0", self=_hardswish_grad),
                     lambda xp, d: d * xp.minimum(xp.maximum(d + 3, 0), 6) / 6, quiet=True)


def _wide(d):
    """The array PyTorch's activation kernels compute a half or bfloat16 one on: float32, where its
    scalars (lambda, threshold, slopes) are compared and applied before one rounding back."""
    return d.astype(np.float32) if d.dtype.itemsize == 2 and d.dtype.kind in "fV" else d


def _wide_t(t):
    """`t` for a comparison with a scalar, in the precision `_wide` computes (a mask: no graph)."""
    return t._new(_wide(t._data)) if t._data.dtype.itemsize == 2 else t


def _elu_grad(grad, self, alpha, scale, input_scale):
    # the x <= 0 side at 0; a NaN passes the gradient times scale, as PyTorch's elu_backward
    neg = E.exp(E.clamp(self, max=0) * input_scale) * (alpha * scale * input_scale)
    return E.where(self <= 0, grad * neg, grad * scale)


def _elu_result_grad(grad, result, alpha, scale, input_scale):
    # the in-place forms save the result: (result + alpha * scale) * input_scale below zero
    if alpha < 0:      # (the result no longer tells the sides apart)
        raise grad.policy.errors.elu_inplace_negative_slope()
    return E.where(result <= 0, grad * ((result + alpha * scale) * input_scale), grad * scale)


EluBackward0 = derivative("EluBackward0", keep="alpha scale input_scale", self=_elu_grad)
EluBackward1 = derivative("EluBackward1", keep="alpha scale input_scale", self=_elu_result_grad)


def _celu_input_scale(alpha):
    return 1.0 / float(np.float32(alpha))   # PyTorch's celu formulas take 1 / alpha.toFloat()


CeluBackward0 = derivative("CeluBackward0", keep="alpha",
                           self=lambda grad, self, alpha: _elu_grad(grad, self, alpha, 1.0, _celu_input_scale(alpha)))
CeluBackward1 = derivative("CeluBackward1", keep="alpha", self=lambda grad, result, alpha: _elu_result_grad(
    grad, result, alpha, 1.0, _celu_input_scale(alpha)))

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _elu_array(x, alpha, scale, input_scale):
    d = x._data
    xp = backend.namespace(d)
    w = _wide(d)
    neg = (alpha * scale) * xp.expm1(xp.minimum(w, 0) * input_scale)
    return x._out_cls._make(xp.where(w > 0, w * scale, neg).astype(d.dtype, copy=False))


def elu(x, alpha=1.0, scale=1.0, input_scale=1.0, saves_result=False):
    """PyTorch's elu kernel, which selu (scale, alpha fixed) shares; `saves_result` records the
    in-place form's node (EluBackward1), whose formula reads the result."""
    E.refuse_complex(x, "elu_cpu")
    _real_scalars(x, alpha)
    out = _elu_array(x, alpha, scale, input_scale)
    if _grad_enabled() and x._requires_grad:
        (EluBackward1 if saves_result else EluBackward0).record((x,), out, alpha, scale, input_scale)
    return out


def celu(x, alpha=1.0, saves_result=False):
    """elu with input_scale 1 / alpha, recorded as PyTorch's CeluBackward0 (CeluBackward1 in place)."""
    E.refuse_complex(x, "elu_cpu")
    _real_scalars(x, alpha, double=True)
    if alpha == 0:
        raise x.policy.errors.celu_zero_alpha()
    out = _elu_array(x, alpha, 1.0, 1.0 / alpha)
    if _grad_enabled() and x._requires_grad:
        (CeluBackward1 if saves_result else CeluBackward0).record((x,), out, alpha)
    return out


def _shrink_grad(grad, self, lambd):
    # zero on the closed band [-lambd, lambd], as PyTorch's hardshrink / softshrink backward
    # (compared in self's own dtype, lambda rounded to it, as PyTorch's shrink_backward)
    return E.where((self >= -lambd) & (self <= lambd), grad * 0, grad)


HardshrinkBackward0 = derivative("HardshrinkBackward0", keep="lambd", self=_shrink_grad)
SoftshrinkBackward0 = derivative("SoftshrinkBackward0", keep="lambd", self=_shrink_grad)


def hardshrink(x, lambd=0.5):
    d = x._data
    xp = backend.namespace(d)
    # (compared in x's own dtype, lambda rounded to it, as PyTorch's kernel; softshrink's is float32)
    if abs(lambd) > float(backend.finfo(d.dtype).max) and abs(lambd) != float("inf"):
        raise x.policy.errors.value_overflow_float(dtype_ctype=d.dtype)
    lam = d.dtype.type(lambd)
    out = x._out_cls._make(xp.where((d >= -lam) & (d <= lam), 0, d).astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        HardshrinkBackward0.record((x,), out, lambd)
    return out


def softshrink(x, lambd=0.5):
    d = x._data
    xp = backend.namespace(d)
    top = float(backend.finfo(d.dtype).max)
    if not 0 <= lambd <= top:
        raise x.policy.errors.softshrink_lambda(max_value=top, lambd_value=lambd, dtype_scalar=d.dtype)
    w = _wide(d)
    res = xp.where(w > lambd, w - lambd, xp.where(w < -lambd, w + lambd, w * 0))
    out = x._out_cls._make(res.astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        SoftshrinkBackward0.record((x,), out, lambd)
    return out


ThresholdBackward0 = derivative("ThresholdBackward0", keep="threshold",
                                self=lambda grad, self, threshold: E.where(_wide_t(self) <= threshold, grad * 0, grad))
ThresholdBackward1 = variant(ThresholdBackward0, "ThresholdBackward1")   # in place, on a copy of self as PyTorch's


def threshold(x, threshold, value, saves_result=False):
    """`value` where x <= threshold, else x (a NaN stays); integer tensors compare with the
    threshold cast to their dtype, as PyTorch's kernel."""
    d = x._data
    xp = backend.namespace(d)
    _real_scalars(x, threshold, value)
    if d.dtype.kind in "iu":
        threshold, value = int(threshold), int(value)
    out = x._out_cls._make(xp.where(_wide(d) <= threshold, xp.asarray(value).astype(d.dtype), d).astype(d.dtype,
                                                                                                    copy=False))
    if _grad_enabled() and x._requires_grad:
        (ThresholdBackward1 if saves_result else ThresholdBackward0).record((x,), out, threshold)
    return out


def _rrelu_grad(grad, self, lower, upper, training):
    return E.where(self > 0, grad, grad * ((lower + upper) / 2))


def _rrelu_result_grad(grad, result, lower, upper, training):
    return E.where(result > 0, grad, grad * ((lower + upper) / 2))


RreluWithNoiseBackward0 = derivative("RreluWithNoiseBackward0", keep="lower upper training", self=_rrelu_grad)
RreluWithNoiseBackward1 = derivative("RreluWithNoiseBackward1", keep="lower upper training", self=_rrelu_result_grad)
# training: the gradient is scaled by the drawn slopes (1 where x > 0), as PyTorch's rrelu_with_noise_backward
RreluNoiseBackward0 = derivative("RreluWithNoiseBackward0", save="noise", keep="lower upper training",
                                 self=lambda grad, noise, lower, upper, training: grad * noise)
RreluNoiseBackward1 = variant(RreluNoiseBackward0, "RreluWithNoiseBackward1")


def rrelu(x, lower, upper, uniform=None, saves_result=False):
    """rrelu: outside training (`uniform` None) leaky_relu with slope (lower + upper) / 2, recorded as
    PyTorch's RreluWithNoiseBackward0 (RreluWithNoiseBackward1 in place); in training each x <= 0
    takes the slope lower + (upper - lower) * u of its draw u in [0, 1) (`uniform`, x's shape)."""
    E.refuse_complex(x, "leaky_relu_cpu")
    d = x._data
    xp = backend.namespace(d)
    if uniform is None:
        w = _wide(d)
        out = x._out_cls._make(xp.where(w > 0, w, w * ((lower + upper) / 2)).astype(d.dtype, copy=False))
        if _grad_enabled() and x._requires_grad:
            (RreluWithNoiseBackward1 if saves_result else RreluWithNoiseBackward0).record((x,), out, lower, upper,
                                                                                          False)
        return out
    noise = xp.where(d > 0, 1, lower + (upper - lower) * uniform).astype(d.dtype, copy=False)
    out = x._out_cls._make((d * noise).astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad and upper - lower > 1e-6:
        (RreluNoiseBackward1 if saves_result else RreluNoiseBackward0).record((x,), out, x._new(noise), lower,
                                                                              upper, True)
    elif _grad_enabled() and x._requires_grad:   # (PyTorch's formula falls back to the mean slope)
        (RreluWithNoiseBackward1 if saves_result else RreluWithNoiseBackward0).record((x,), out, lower, upper, True)
    return out


def _glu_grad(grad, self, dim):
    a, b = S.chunk(self, 2, dim)
    s = E.sigmoid(b)
    return S.cat([grad * s, grad * a * s * (1 - s)], dim)


GluBackward0 = derivative("GluBackward0", keep="dim", self=_glu_grad)


def glu(x, dim=-1):
    """a * sigmoid(b) of the two halves of `dim`."""
    d = x._data
    if d.ndim == 0:
        raise x.policy.errors.glu_scalar()
    dim = normalize_dim(dim, d.ndim, x.policy)
    if d.shape[dim] % 2:
        raise x.policy.errors.glu_odd(dim=dim, size=d.shape[dim])
    xp = backend.namespace(d)
    a, b = xp.split(d, 2, axis=dim)
    a, b = _wide(a), _wide(b)
    out = x._out_cls._make((a * E._sigmoid_array(xp, b)).astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        GluBackward0.record((x,), out, dim)
    return out


def _softplus_grad(grad, self, beta, threshold):
    bx = self * beta
    return E.where(bx > threshold, grad, grad * E.sigmoid(bx))


SoftplusBackward0 = derivative("SoftplusBackward0", keep="beta threshold", self=_softplus_grad)


def softplus(x, beta=1.0, threshold=20.0):
    E.refuse_complex(x, "softplus_cpu")
    _real_scalars(x, beta, threshold)
    d = x._data
    xp = backend.namespace(d)
    w = _wide(d)
    bd = w * beta
    linear = bd > threshold     # (false everywhere for a NaN threshold)
    soft = xp.log1p(xp.exp(xp.where(linear, 0, bd))) / beta
    out = x._out_cls._make(xp.where(linear, w, soft).astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        SoftplusBackward0.record((x,), out, beta, threshold)
    return out


__all__ += ["gelu", "gelu_tanh", "silu", "leaky_relu", "elu", "celu", "hardshrink", "softshrink", "threshold",
            "rrelu", "glu", "softplus"]
