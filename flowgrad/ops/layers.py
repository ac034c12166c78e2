"""Primitives behind nn layers and losses that PyTorch records as one node each: linear
(AddmmBackward0), embedding, and the mse / nll / binary-cross-entropy losses.

Each forward runs on arrays through the tensor's namespace in one pass; each derivative formula
is flowgrad tensor code, so `create_graph=True` differentiates through them again. Fusing them
saves the nodes a composition would record (the MLP training step is overhead-sensitive) and gives
`loss.grad_fn` PyTorch's name.
"""
from __future__ import annotations

import numpy as np

from .. import backend
from ..autograd.graph import Node
from . import _grad_enabled, broadcast_error, check_same, make_node, save
from . import elementwise as E
from . import indexing as I
from . import linalg as L
from . import reduction as R
from . import shape as S

__all__ = ["linear", "embedding", "mse_loss", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
           "reduce_loss", "REDUCTIONS"]

REDUCTIONS = ("none", "mean", "sum")
_DTYPE_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
                "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half"}


def _dtype_name(dt) -> str:
    return _DTYPE_NAMES.get(str(dt), str(dt))


def _same_facade(a, b) -> None:
    if type(b)._out_cls is not a._out_cls or type(a._data) is not type(b._data):
        check_same(a._out_cls, a, b)


def _not_differentiable(fn_name: str, arg_name: str, t) -> None:
    if t is not None and t._requires_grad and _grad_enabled():
        raise RuntimeError(f"The function '{fn_name}' is not differentiable with respect to argument '{arg_name}'. "
                           "This input cannot have requires_grad True.")


def reduce_loss(x, reduction: str):
    """Apply a loss reduction ('none' | 'mean' | 'sum') with the tensor ops (recorded as usual)."""
    if reduction == "mean":
        return R.mean(x)
    if reduction == "sum":
        return R.sum(x)
    if reduction == "none":
        return x
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _reduce_array(xp, a, reduction):
    if reduction == "mean":
        return xp.mean(a) if a.size else xp.asarray(np.nan, dtype=a.dtype)
    if reduction == "sum":
        return xp.sum(a)
    return a


# ------------------------------------------------------------------------------------ linear

class AddmmBackward0(Node):
    """d(x @ w.T + b): gx = g @ w, gw = g.T @ x (batch dims flattened), gb = sum of g over rows."""

    __slots__ = ()

    def backward(self, g):
        x, w = self.unpack()
        edges = self.next_edges
        gx = L.matmul(g, w) if edges[0] is not None else None
        gw = gb = None
        if edges[1] is not None or (len(edges) > 2 and edges[2] is not None):
            g2 = g if g._data.ndim == 2 else S.reshape(g, (-1, g._data.shape[-1]))
            if edges[1] is not None:
                x2 = x if x._data.ndim == 2 else S.reshape(x, (-1, x._data.shape[-1]))
                gw = L.matmul(S.t(g2), x2)
            if len(edges) > 2 and edges[2] is not None:
                gb = R.sum(g2, 0)
        return (gx, gw, gb) if len(edges) > 2 else (gx, gw)


class MmBackward0(AddmmBackward0):
    __slots__ = ()


class ViewBackward0(AddmmBackward0):  # PyTorch's name for linear on 1-D and batched inputs with a bias
    __slots__ = ()


class UnsafeViewBackward0(AddmmBackward0):  # ... and on batched inputs without one
    __slots__ = ()


class SqueezeBackward4(AddmmBackward0):  # ... and on a 1-D input without one
    __slots__ = ()


def _shape_mismatch(d, wd):
    rows = int(np.prod(d.shape[:-1])) if d.ndim > 1 else 1
    return RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{d.shape[-1]} and "
                        f"{wd.shape[1]}x{wd.shape[0]})")


def linear(x, weight, bias=None):
    """`x @ weight.T + bias` as one recorded node (PyTorch's F.linear)."""
    d, wd = x._data, weight._data
    if wd.ndim != 2 or d.ndim == 0 or d.dtype.kind != "f":
        return L.linear(x, weight, bias)
    _same_facade(x, weight)
    if d.shape[-1] != wd.shape[1]:
        raise _shape_mismatch(d, wd)
    if d.dtype != wd.dtype:
        if bias is not None:
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_dtype_name(d.dtype)} and "
                               f"{_dtype_name(wd.dtype)}")
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_C_NAMES.get(str(d.dtype))} != "
                           f"{_C_NAMES.get(str(wd.dtype))}")
    xp = backend.namespace(d)
    out = xp.matmul(d, wd.T)
    if bias is not None:
        _same_facade(x, bias)
        bd = bias._data
        if bd.dtype != d.dtype:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got {_dtype_name(bd.dtype)} and "
                               f"{_dtype_name(d.dtype)}")
        out += bd
    res = x._out_cls._make(out)
    if _grad_enabled() and (x._requires_grad or weight._requires_grad or
                                (bias is not None and bias._requires_grad)):
        if d.ndim == 2:
            node_cls = AddmmBackward0 if bias is not None else MmBackward0
        elif bias is not None:
            node_cls = ViewBackward0
        else:
            node_cls = SqueezeBackward4 if d.ndim == 1 else UnsafeViewBackward0
        inputs = (x, weight, bias) if bias is not None else (x, weight)
        make_node(node_cls, inputs, res, (save(x) if weight._requires_grad else None,
                                          save(weight) if x._requires_grad else None))
    return res


# ---------------------------------------------------------------------------------- embedding

class EmbeddingBackward0(Node):
    """Rows of the gradient added into a zero table at the looked-up indices (padding rows get none)."""

    __slots__ = ("num_weights", "indices", "padding_idx")

    def backward(self, g):
        idx = self.indices
        if self.padding_idx is not None:
            keep = (idx != self.padding_idx)[..., None].astype(g._data.dtype)
            g = E.mul(g, g._new(keep))
        shape = (self.num_weights, g._data.shape[-1])
        return (I.index_into_zeros(g, shape, (idx,)),)


def embedding(indices, weight, padding_idx=None):
    idx = indices._data
    if idx.dtype.kind not in "iu":
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {indices.policy.type_name(idx.dtype)} instead (while checking "
                           "arguments for embedding)")
    wd = weight._data
    n = wd.shape[0]
    if idx.size and (int(idx.max()) >= n or int(idx.min()) < 0):
        raise IndexError("index out of range in self")
    out = weight._out_cls._make(wd[idx])
    if _grad_enabled() and weight._requires_grad:
        node = make_node(EmbeddingBackward0, (weight,), out)
        node.num_weights, node.indices = n, idx
        node.padding_idx = None if padding_idx is None else padding_idx % n
    return out


# ---------------------------------------------------------------------------------------- mse

class MseLossBackward0(Node):
    __slots__ = ("reduction", "n")

    def backward(self, g):
        x, t = self.unpack()
        scale = 2.0 / self.n if self.reduction == "mean" else 2.0
        gx = E.mul(E.sub(x, t), g * scale)
        nx, nt = self.next_edges
        return (gx if nx is not None else None), (E.neg(gx) if nt is not None else None)


def _size_warning(x, t):
    import warnings
    p = x.policy
    warnings.warn(f"Using a target size ({p.size_str(t._data.shape)}) that is different to the input size "
                  f"({p.size_str(x._data.shape)}). This will likely lead to incorrect results due to broadcasting. "
                  "Please ensure they have the same size.", UserWarning, stacklevel=4)


def _pointwise_pair(x, t):
    """Arrays of `x` and `t` promoted to one floating dtype, with PyTorch's size warning/error."""
    _same_facade(x, t)
    if x._data.shape != t._data.shape:
        err = broadcast_error(x._data.shape, t._data.shape)
        _size_warning(x, t)
        if err is not None:
            raise err
    d, td = x._data, t._data
    if d.dtype != td.dtype:
        dt = backend.result_type(tuple(a.dtype for a in (d, td) if a.ndim),
                                 tuple(a.dtype for a in (d, td) if not a.ndim), (), backend.default_float())
        if dt.kind != "f":
            raise RuntimeError(f"result type Float can't be cast to the desired output type {_dtype_name(dt)}")
        d, td = d.astype(dt, copy=False), td.astype(dt, copy=False)
    elif d.dtype.kind != "f":
        raise RuntimeError(f"\"mse_cpu\" not implemented for '{_dtype_name(d.dtype)}'")
    return d, td


def mse_loss(x, t, reduction="mean"):
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    d, td = _pointwise_pair(x, t)
    xp = backend.namespace(d)
    diff = d - td
    sq = diff * diff
    out = x._out_cls._make(_reduce_array(xp, sq, reduction))
    if _grad_enabled() and (x._requires_grad or t._requires_grad):
        node = make_node(MseLossBackward0, (x, t), out, (save(x), save(t)))
        node.reduction, node.n = reduction, max(sq.size, 1)
    return out


# ---------------------------------------------------------------------------------------- nll

class NllLossBackward0(Node):
    """-w[t] * g / total_weight scattered into zeros at the target class of each sample."""

    __slots__ = ("in_shape", "index", "coef")

    def backward(self, g):
        if g._data.ndim:  # reduction 'none': g has the target's shape
            src = E.mul(S.unsqueeze(g, 1 if len(self.in_shape) > 1 else 0), g._new(self.coef))
        else:
            src = E.mul(g._new(self.coef), g)
        return (I.scatter_into_zeros(self.in_shape, 1 if len(self.in_shape) > 1 else 0, g._new(self.index), src),)


def _check_nll_args(x, target, weight):
    """PyTorch's checks, in PyTorch's order (shapes, then the target dtype, then the weight)."""
    d, td = x._data, target._data
    if d.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {d.ndim})")
    if d.ndim != 1 and d.shape[0] != (td.shape[0] if td.ndim else 0):
        raise ValueError(f"Expected input batch_size ({d.shape[0]}) to match target batch_size "
                         f"({td.shape[0] if td.ndim else 0}).")
    if d.ndim == 1:
        if td.ndim > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        if td.ndim == 1 and td.shape[0] != 1:
            raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {td.shape[0]}")
    elif d.ndim == 2:
        if td.ndim > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    elif d.ndim == 3:
        if td.shape != (d.shape[0], d.shape[2]):
            raise RuntimeError(f"Expected target size [{d.shape[0]}, {d.shape[2]}], got "
                               f"[{', '.join(map(str, td.shape))}]")
    elif td.shape[1:] != d.shape[2:]:
        raise RuntimeError(f"size mismatch (got input: [{', '.join(map(str, d.shape))}] , target: "
                           f"[{', '.join(map(str, td.shape))}]")
    if td.dtype not in (np.int64, np.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_dtype_name(td.dtype)}")
    c = d.shape[1] if d.ndim > 1 else d.shape[0]
    if weight is not None and weight._data.shape != (c,):
        raise RuntimeError(f"weight tensor should be defined either for all {c} classes or no classes but got weight "
                           f"tensor of shape: [{', '.join(map(str, weight._data.shape))}]")
    return c


def nll_loss(x, target, weight=None, ignore_index=-100, reduction="mean"):
    """Negative log-likelihood of class-index targets; `x` is (C,), (N, C) or (N, C, d1, ...)."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
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
        raise IndexError(f"Target {int(t[bad].reshape(-1)[0])} is out of bounds.")
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
        node = make_node(NllLossBackward0, (x,), out)
        node.in_shape, node.index = d.shape, index
        node.coef = xp.expand_dims(coef, axis).astype(d.dtype, copy=False)
    return out


# ---------------------------------------------------------------------------- binary cross-entropy

class BinaryCrossEntropyBackward0(Node):
    __slots__ = ("reduction", "n")

    def backward(self, g):
        x, t, w = self.unpack()
        if self.reduction == "mean":
            g = g / self.n
        eps = 1e-12
        denom = E.clamp(E.mul(x, 1 - x), min=eps)
        nx, nt = self.next_edges
        gx = gt = None
        if nx is not None:
            gx = E.div(E.mul(g, E.sub(x, t)), denom)
            if w is not None:
                gx = E.mul(gx, w)
        if nt is not None:  # d/dt of -(t log x + (1-t) log(1-x)) = log(1-x) - log(x)
            gt = E.mul(g, E.sub(E.clamp(E.log(1 - x), min=-100), E.clamp(E.log(x), min=-100)))
            if w is not None:
                gt = E.mul(gt, w)
        return gx, gt


def _bce_check(x, t, weight, name):
    if x._data.shape != t._data.shape:
        p = x.policy
        raise ValueError(f"Using a target size ({p.size_str(t._data.shape)}) that is different to the input size "
                         f"({p.size_str(x._data.shape)}) is deprecated. Please ensure they have the same size.")
    _same_facade(x, t)
    if t._data.dtype != x._data.dtype:
        raise RuntimeError(f"Found dtype {_dtype_name(t._data.dtype)} but expected {_dtype_name(x._data.dtype)}")


def binary_cross_entropy(x, target, weight=None, reduction="mean"):
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    _bce_check(x, target, weight, "binary_cross_entropy")
    _not_differentiable("binary_cross_entropy", "weight", weight)
    d, td = x._data, target._data
    xp = backend.namespace(d)
    if d.size and (float(d.min()) < 0 or float(d.max()) > 1):
        raise RuntimeError("all elements of input should be between 0 and 1")
    with np.errstate(divide="ignore"):
        logx = xp.maximum(xp.log(d), -100)
        log1mx = xp.maximum(xp.log(1 - d), -100)
    losses = -(td * logx + (1 - td) * log1mx)
    if weight is not None:
        losses = losses * weight._data
    out = x._out_cls._make(xp.asarray(_reduce_array(xp, losses, reduction), dtype=d.dtype))
    if _grad_enabled() and (x._requires_grad or target._requires_grad):
        node = make_node(BinaryCrossEntropyBackward0, (x, target), out,
                         (save(x), save(target), save(weight) if weight is not None else None))
        node.reduction, node.n = reduction, max(d.size, 1)
    return out


class BinaryCrossEntropyWithLogitsBackward0(Node):
    """With lw = 1 + (pos_weight - 1) * t: d/dx = lw * sigmoid(x) - pos_weight * t, times the weight."""

    __slots__ = ("reduction", "n")

    def backward(self, g):
        x, t, w, pw = self.unpack()
        if self.reduction == "mean":
            g = g / self.n
        if w is not None:
            g = E.mul(g, w)
        nx, nt = self.next_edges
        gx = gt = None
        if nx is not None:
            if pw is None:
                gx = E.mul(g, E.sub(E.sigmoid(x), t))
            else:
                lw = E.add(E.mul(E.sub(pw, 1), t), 1)
                gx = E.mul(g, E.sub(E.mul(lw, E.sigmoid(x)), E.mul(pw, t)))
        if nt is not None:  # d/dt = -x - (pos_weight - 1) * log_sigmoid(x)
            if pw is None:
                gt = E.mul(g, E.neg(x))
            else:
                logsig = E.neg(E.add(E.clamp(E.neg(x), min=0), E.log1p(E.exp(E.neg(E.abs(x))))))
                gt = E.mul(g, E.sub(E.neg(x), E.mul(E.sub(pw, 1), logsig)))
        return gx, gt


def binary_cross_entropy_with_logits(x, target, weight=None, reduction="mean", pos_weight=None):
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if x._data.shape != target._data.shape:
        p = x.policy
        raise ValueError(f"Target size ({p.size_str(target._data.shape)}) must be the same as input size "
                         f"({p.size_str(x._data.shape)})")
    _same_facade(x, target)
    _not_differentiable("binary_cross_entropy_with_logits", "weight", weight)
    _not_differentiable("binary_cross_entropy_with_logits", "pos_weight", pos_weight)
    d, td = x._data, target._data
    if td.dtype != d.dtype:
        if d.dtype.kind != "f":
            raise RuntimeError(f"result type Float can't be cast to the desired output type {_dtype_name(d.dtype)}")
        td = td.astype(d.dtype)
    xp = backend.namespace(d)
    log_sig = -(xp.maximum(-d, 0) + xp.log1p(xp.exp(-xp.abs(d))))
    if pos_weight is None:
        losses = (1 - td) * d - log_sig
    else:
        lw = (pos_weight._data - 1) * td + 1
        losses = (1 - td) * d - lw * log_sig
    if weight is not None:
        losses = losses * weight._data
    out = x._out_cls._make(xp.asarray(_reduce_array(xp, losses, reduction), dtype=d.dtype))
    if _grad_enabled() and (x._requires_grad or target._requires_grad):
        t_saved = target if td is target._data else target._new(td)
        node = make_node(BinaryCrossEntropyWithLogitsBackward0, (x, target), out,
                         (save(x), save(t_saved), save(weight) if weight is not None else None,
                          save(pos_weight) if pos_weight is not None else None))
        node.reduction, node.n = reduction, max(d.size, 1)
    return out


# -------------------------------------------------------------------------------- activations

_SQRT1_2 = 0.7071067811865476
_INV_SQRT_2PI = 0.3989422804014327
_TANH_K = 0.7978845608028654  # sqrt(2 / pi)


def _gelu_array(xp, d):
    return (0.5 * d * (1 + E._erf_array(xp, d * _SQRT1_2))).astype(d.dtype, copy=False)


def _gelu_formula(g, x):
    return g * (E.erf(x * _SQRT1_2) * 0.5 + 0.5 + x * E.exp(x * x * -0.5) * _INV_SQRT_2PI)


def _gelu_tanh_array(xp, d):
    return (0.5 * d * (1 + xp.tanh(_TANH_K * (d + 0.044715 * d * d * d)))).astype(d.dtype, copy=False)


def _gelu_tanh_formula(g, x):
    t = E.tanh((x + x * x * x * 0.044715) * _TANH_K)
    return g * ((t + 1) * 0.5 + x * (1 - t * t) * (x * x * (3 * 0.044715) + 1) * (0.5 * _TANH_K))


def _silu_formula(g, x):
    s = E.sigmoid(x)
    return g * (s * (x * (1 - s) + 1))


gelu = E._declare_unary("gelu", "GeluBackward0", _gelu_array, _gelu_formula)
gelu_tanh = E._declare_unary("gelu", "GeluBackward0", _gelu_tanh_array, _gelu_tanh_formula)
silu = E._declare_unary("silu", "SiluBackward0", lambda xp, d: d * E._sigmoid_array(xp, d), _silu_formula)


class LeakyReluBackward0(Node):
    __slots__ = ("negative_slope",)

    def backward(self, g):
        (x,) = self.unpack()
        return (E.where(x > 0, g, g * self.negative_slope),)


def leaky_relu(x, negative_slope=0.01):
    d = x._data
    xp = backend.namespace(d)
    out = x._out_cls._make(xp.where(d > 0, d, d * negative_slope).astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        make_node(LeakyReluBackward0, (x,), out, (save(x),)).negative_slope = negative_slope
    return out


class EluBackward0(Node):
    __slots__ = ("alpha",)

    def backward(self, g):
        (x,) = self.unpack()
        return (E.where(x > 0, g, g * (E.exp(E.clamp(x, max=0)) * self.alpha)),)


def elu(x, alpha=1.0):
    d = x._data
    xp = backend.namespace(d)
    out = x._out_cls._make(xp.where(d > 0, d, alpha * xp.expm1(xp.minimum(d, 0))).astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        make_node(EluBackward0, (x,), out, (save(x),)).alpha = alpha
    return out


class SoftplusBackward0(Node):
    __slots__ = ("beta", "threshold")

    def backward(self, g):
        (x,) = self.unpack()
        bx = x * self.beta
        return (E.where(bx > self.threshold, g, g * E.sigmoid(bx)),)


def softplus(x, beta=1.0, threshold=20.0):
    d = x._data
    xp = backend.namespace(d)
    bd = d * beta
    soft = xp.log1p(xp.exp(xp.minimum(bd, threshold))) / beta
    out = x._out_cls._make(xp.where(bd > threshold, d, soft).astype(d.dtype, copy=False))
    if _grad_enabled() and x._requires_grad:
        node = make_node(SoftplusBackward0, (x,), out, (save(x),))
        node.beta, node.threshold = beta, threshold
    return out


__all__ += ["gelu", "gelu_tanh", "silu", "leaky_relu", "elu", "softplus"]
