"""The functional forms of layers, activations and losses (PyTorch's torch.nn.functional).

Everything is composed from the op table (flowgrad.ops, including the fused layer/loss primitives
in ops.layers), so results keep the facade class of their inputs and every function is
differentiable to any order. Convolution, pooling, padding, normalisation and resampling forms
live in the functional_* modules beside this one and are re-exported here.
"""
from __future__ import annotations

import warnings

import numpy as np

from .. import backend, creation
from .. import ops
from ..ops._args import typename
from ..ops import activation as _activation
from ..ops import layers as _layers
from .functional_conv import *  # noqa: F401,F403
from .functional_conv import __all__ as _conv_all
from .functional_conv import _dims
from .functional_embedding_bag import embedding_bag  # noqa: F401
from .functional_norm import *  # noqa: F401,F403
from .functional_norm import __all__ as _norm_all
from .functional_norm import mixed_precision
from .functional_pad import pad  # noqa: F401
from .functional_pool import *  # noqa: F401,F403
from .functional_pool import __all__ as _pool_all
from .functional_pool import max_pool1d_with_indices, max_pool2d_with_indices, max_pool3d_with_indices  # noqa: F401
from .functional_resample import *  # noqa: F401,F403
from .functional_resample import __all__ as _resample_all

__all__ = [
    "relu", "relu_", "relu6", "leaky_relu", "leaky_relu_", "elu", "gelu", "silu", "mish", "sigmoid", "tanh",
    "softplus", "softsign", "hardtanh", "hardsigmoid", "hardswish", "logsigmoid", "tanhshrink", "softmax",
    "log_softmax", "softmin", "linear", "bilinear", "dropout", "embedding", "one_hot", "pad", "conv2d",
    "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "batch_norm", "layer_norm", "normalize",
    "cosine_similarity", "pairwise_distance", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
    "cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
    "unfold", "flatten", "elu_", "selu", "selu_", "celu", "celu_", "hardtanh_", "glu", "hardshrink", "softshrink",
    "threshold", "threshold_", "rrelu", "rrelu_",
]
__all__ += [name for name in _conv_all + _pool_all + _norm_all + _resample_all + ["prelu", "embedding_bag"]
            if name not in __all__]


def _legacy_reduction(size_average, reduce, reduction, policy):
    if size_average is None and reduce is None:
        return reduction
    reduction = _legacy_string(size_average, reduce)
    warnings.warn(policy.errors.nn_reduction_legacy(reduction=reduction), stacklevel=3)
    return reduction


def _legacy_string(size_average, reduce):
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if size_average and reduce:
        return "mean"
    return "sum" if reduce else "none"


# -------------------------------------------------------------------------------- activations

def relu(input, inplace: bool = False):
    return input.relu_() if inplace else ops.relu(input)


def relu_(input):
    return input.relu_()


def relu6(input, inplace: bool = False):
    return hardtanh(input, 0.0, 6.0, inplace)


def hardtanh(input, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False):
    if min_val > max_val:   # (compared first, as PyTorch's Python layer: its TypeError for what compares not)
        raise input.policy.errors.nn_hardtanh_bounds()
    bounds = []
    for position, name, bound in ((2, "min_val", min_val), (3, "max_val", max_val)):
        if isinstance(bound, Tensor) and bound._data.ndim == 0 and not bound._requires_grad:
            bound = bound.item()    # (PyTorch's parser takes a 0-d tensor without grad as a number)
        if not isinstance(bound, (int, float)):
            raise input.policy.errors.argument_type_at(fn="hardtanh", argument=name, position=position,
                                                       expected="Number", type=typename(bound))
        bounds.append(bound)
    min_val, max_val = bounds
    kind = input._data.dtype.kind
    if kind not in "fV":   # an integer tensor keeps its dtype: the bounds as integers
        if kind == "b":
            raise input.policy.errors.hardtanh_bool()
        min_val, max_val = int(min_val), int(max_val)
    if inplace:
        return ops.indexing.inplace(input, lambda x: _layers.hardtanh(x, min_val, max_val))
    return _layers.hardtanh(input, min_val, max_val)


def _floats_only(input, kernel: str, complex_ok: bool = False) -> None:
    """PyTorch's error for an activation of a bool or integer tensor (its kernels are float-only, or
    float and complex ones where `complex_ok`)."""
    if input._data.dtype.kind not in ("fcV" if complex_ok else "fV"):
        raise input.policy.errors.not_implemented_for(op=kernel, dtype_scalar=input._data.dtype)


def _inplace(input, out):
    return ops.indexing.inplace(input, lambda x: out)


def leaky_relu(input, negative_slope: float = 0.01, inplace: bool = False):
    _floats_only(input, "leaky_relu_cpu")
    if inplace:
        return ops.indexing.inplace(input, lambda x: _layers.leaky_relu(x, negative_slope))
    return _layers.leaky_relu(input, negative_slope)


def leaky_relu_(input, negative_slope: float = 0.01):
    return leaky_relu(input, negative_slope, True)


def prelu(input, weight):
    """max(0, x) + weight * min(0, x), one weight per channel (dim 1) or one for all."""
    d = input._data
    if weight._data.dtype != d.dtype:
        raise input.policy.errors.prelu_promotion(input_scalar=d.dtype, weight_scalar=weight._data.dtype)
    if d.dtype.kind not in "fV":
        raise input.policy.errors.not_implemented_for(op="prelu_cpu", dtype_scalar=d.dtype)
    count = weight._data.size
    if count != 1:
        if d.ndim == 0:
            raise input.policy.errors.prelu_zero_dim()
        channels = d.shape[1] if d.ndim >= 2 else 1
        if count != channels:
            raise input.policy.errors.prelu_channels(params=count, channels=channels)
    return _activation.prelu(input, weight)


def elu(input, alpha: float = 1.0, inplace: bool = False):
    _floats_only(input, "elu_cpu")
    if inplace:
        return ops.indexing.inplace(input, lambda x: _layers.elu(x, alpha, saves_result=True))
    return _layers.elu(input, alpha)


def elu_(input, alpha: float = 1.0):
    return elu(input, alpha, True)


def selu(input, inplace: bool = False):
    _floats_only(input, "elu_cpu")
    alpha, scale = _layers.SELU_ALPHA, _layers.SELU_SCALE
    if inplace:
        return ops.indexing.inplace(input, lambda x: _layers.elu(x, alpha, scale, saves_result=True))
    return _layers.elu(input, alpha, scale)


def selu_(input):
    return selu(input, True)


def celu(input, alpha: float = 1.0, inplace: bool = False):
    _floats_only(input, "elu_cpu")
    if inplace:
        return ops.indexing.inplace(input, lambda x: _layers.celu(x, alpha, saves_result=True))
    return _layers.celu(input, alpha)


def celu_(input, alpha: float = 1.0):
    return celu(input, alpha, True)


def hardtanh_(input, min_val: float = -1.0, max_val: float = 1.0):
    if min_val > max_val:       # (PyTorch checks the bounds' order in hardtanh only: clamp's order here)
        return ops.indexing.inplace(input, lambda x: ops.clamp(x, min_val, max_val))
    return hardtanh(input, min_val, max_val, True)


def glu(input, dim: int = -1):
    _floats_only(input, "glu_cpu")
    return _layers.glu(input, dim)


def hardshrink(input, lambd: float = 0.5):
    _floats_only(input, "hardshrink_cpu")
    return _layers.hardshrink(input, lambd)


def softshrink(input, lambd: float = 0.5):
    _floats_only(input, "softshrink_check")
    return _layers.softshrink(input, lambd)


def threshold(input, threshold: float, value: float, inplace: bool = False):
    for position, (name, number) in enumerate((("threshold", threshold), ("value", value)), 2):
        if number is None:
            raise input.policy.errors.argument_type_at(fn="threshold", argument=name, position=position,
                                                       expected="Number", type="NoneType")
    if input._data.dtype.kind in "bc":
        raise input.policy.errors.not_implemented_for(op="threshold_cpu", dtype_scalar=input._data.dtype)
    if inplace:
        return ops.indexing.inplace(input, lambda x: _layers.threshold(x, threshold, value, saves_result=True))
    return _layers.threshold(input, threshold, value)


_threshold = threshold   # threshold_'s parameter of the same name hides the function


def threshold_(input, threshold: float, value: float):
    return _threshold(input, threshold, value, True)


def rrelu(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False, inplace: bool = False):
    return rrelu_drawn(input, lower, upper, training, inplace)


def rrelu_drawn(input, lower: float, upper: float, training: bool, inplace: bool, generator=None):
    """rrelu whose training slopes are drawn from `generator` (None: the default one; PyTorch's own
    stream is not reproduced)."""
    _floats_only(input, "leaky_relu_cpu")
    if lower > upper:
        raise input.policy.errors.rrelu_bounds()
    uniform = None
    if training:
        d = input._data
        uniform = creation.rand(d.shape, d.dtype if d.dtype.kind == "f" else np.float32, generator=generator)
        if backend.namespace(d) is not np:
            uniform = backend.to_device(uniform, input.device)
    if inplace:
        return ops.indexing.inplace(input, lambda x: _layers.rrelu(x, lower, upper, uniform, saves_result=True))
    return _layers.rrelu(input, lower, upper, uniform)


def rrelu_(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False):
    return rrelu(input, lower, upper, training, True)


def gelu(input, *, approximate: str = "none"):
    _floats_only(input, "GeluKernelImpl")
    if approximate == "none":
        return _layers.gelu(input)
    if approximate == "tanh":
        return _layers.gelu_tanh(input)
    raise input.policy.errors.nn_gelu_approximate()


def silu(input, inplace: bool = False):
    _floats_only(input, "silu_cpu", complex_ok=True)
    if inplace:
        return ops.indexing.inplace(input, _layers.silu)
    return _layers.silu(input)


def mish(input, inplace: bool = False):
    _floats_only(input, "mish_cpu")
    out = input * ops.tanh(_layers.softplus(input))
    return _inplace(input, out) if inplace else out


def sigmoid(input):
    return ops.sigmoid(input)


def tanh(input):
    return ops.tanh(input)


def softplus(input, beta: float = 1.0, threshold: float = 20.0):
    _floats_only(input, "softplus_cpu")
    return _layers.softplus(input, beta, threshold)


def softsign(input):
    return input / (ops.abs(input) + 1)


def hardsigmoid(input, inplace: bool = False):
    _floats_only(input, "hardsigmoid_cpu")
    return ops.indexing.inplace(input, _layers.hardsigmoid) if inplace else _layers.hardsigmoid(input)


def hardswish(input, inplace: bool = False):
    _floats_only(input, "hardswish_cpu")
    return ops.indexing.inplace(input, _layers.hardswish) if inplace else _layers.hardswish(input)


def logsigmoid(input):
    _floats_only(input, "log_sigmoid_cpu")
    return -_layers.softplus(-input)


def tanhshrink(input):
    if input._data.dtype == np.bool_:
        raise input.policy.errors.sub_one_bool()
    return input - ops.tanh(input)


def _softmax_dim(name: str, input) -> int:
    warnings.warn(input.policy.errors.nn_softmax_implicit_dim(name=name), stacklevel=3)
    return 0 if input._data.ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel: int = 3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmax", input)
    return ops.softmax(input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel: int = 3, dtype=None):
    if dim is None:
        dim = _softmax_dim("log_softmax", input)
    return ops.log_softmax(input, dim, dtype)


def softmin(input, dim=None, _stacklevel: int = 3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmin", input)
    return ops.softmax(-input, dim, dtype)


# ---------------------------------------------------------------------------------- linear

def linear(input, weight, bias=None):
    return _layers.linear(input, weight, bias)


def bilinear(input1, input2, weight, bias=None):
    policy = input1.policy
    dts = [t._data.dtype for t in (input1, input2, weight, bias) if t is not None]
    if any(dt != dts[0] for dt in dts):
        if bias is None:
            raise policy.errors.nn_bilinear_dtypes(input1_ctype=dts[0], input2_ctype=dts[1], weight_ctype=dts[2])
        raise policy.errors.nn_bilinear_dtypes_bias(input1_ctype=dts[0], input2_ctype=dts[1], weight_ctype=dts[2],
                                                   bias_ctype=dts[3])
    if bias is not None:
        if not bias._data.ndim:
            raise policy.errors.nn_dim_of_scalar(dim=0)
        if bias._data.shape[0] != weight._data.shape[0]:
            raise policy.errors.nn_bilinear_bias(got=bias._data.shape[0], expected=weight._data.shape[0])
    out = ops.einsum("bi,oij,bj->bo", input1, weight, input2)
    return out if bias is None else out + bias


def dropout(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    policy = policy_of(input)
    if p < 0.0 or p > 1.0:
        raise policy.errors.nn_dropout_p(p=p)
    fn = "dropout_" if inplace else "dropout"
    ops.tensor_argument(input, policy, fn, "input", 1)
    ops.flag_argument(training, policy, fn, "train", 3)
    if p != p:     # (NaN passes PyTorch's Python check; its kernel refuses it)
        raise input.policy.errors.nn_dropout_p_nan(p=p)
    if not training or p == 0.0:
        return input
    d = input._data
    if d.dtype.kind not in "fV":   # the kept values are scaled by 1 / (1 - p): a float
        raise input.policy.errors.result_type_cast(result_scalar=backend.default_float(), want_scalar=d.dtype)
    if p == 1.0:
        mask = backend.namespace(d).zeros(d.shape, dtype=d.dtype)
    else:
        keep = creation.rand(d.shape, np.float64) >= p
        mask = (keep / (1.0 - p)).astype(d.dtype)
        if backend.namespace(d) is not np:
            mask = backend.to_device(mask, input.device)
    out = input * input._new(mask)
    return _inplace(input, out) if inplace else out


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False):
    if padding_idx is not None:
        n = weight._data.shape[0]
        if padding_idx > 0:
            if padding_idx >= n:
                raise weight.policy.errors.nn_padding_idx()
        elif padding_idx < 0:
            if padding_idx < -n:
                raise weight.policy.errors.nn_padding_idx()
            padding_idx += n
    if weight._data.ndim != 2:
        raise weight.policy.errors.nn_embedding_weight_dims()
    if sparse:   # flowgrad has no sparse tensors for the gradient
        raise weight.policy.errors.argument_unsupported(name="embedding", argument="sparse", value=sparse,
                                                        default=False)
    if max_norm is not None:
        _embedding_renorm(weight, input, max_norm, norm_type)
    return _layers.embedding(input, weight, padding_idx, scale_grad_by_freq)


def _embedding_renorm(weight, input, max_norm, norm_type):
    """Rescale, in place and outside autograd, the looked-up rows whose norm exceeds max_norm."""
    d = weight._data
    xp = backend.namespace(d)
    rows = xp.unique(input._data.reshape(-1))
    norms = xp.sum(xp.abs(d[rows]) ** norm_type, axis=1) ** (1.0 / norm_type)
    scale = xp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    d[rows] *= scale[:, None].astype(d.dtype)
    weight._bump()


def one_hot(tensor, num_classes: int = -1):
    d = tensor._data
    if d.dtype != np.int64:
        raise tensor.policy.errors.nn_one_hot_dtype()
    xp = backend.namespace(d)
    if num_classes == -1:
        if not d.size:
            raise tensor.policy.errors.nn_one_hot_empty()
        num_classes = int(d.max()) + 1
    if d.size and (int(d.min()) < 0):
        raise tensor.policy.errors.nn_one_hot_negative()
    if d.size and int(d.max()) >= num_classes:
        raise tensor.policy.errors.nn_one_hot_too_large()
    return tensor._new((d[..., None] == xp.arange(num_classes)).astype(np.int64))


def flatten(input, start_dim: int = 0, end_dim: int = -1):
    return ops.flatten(input, start_dim, end_dim)


# ---------------------------------------------------------------------------------- padding

# ---------------------------------------------------------------------------- normalisation

def batch_norm(input, running_mean, running_var, weight=None, bias=None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5, *, unbiased_running_var: bool = True):
    """`running_var` takes the batch's unbiased variance (PyTorch's), or with
    `unbiased_running_var=False` the biased one it normalised by (paddle's)."""
    ops.flag_argument(training, input.policy, "batch_norm", "training", 6)
    ops.refuse_complex(input, "batch_norm")
    d = input._data
    if d.dtype.kind not in "fV":
        raise input.policy.errors.not_implemented_for(op="batch_norm", dtype_scalar=d.dtype)
    if training and (running_mean is None) != (running_var is None):
        raise input.policy.errors.nn_batch_norm_running_pair()
    for name, t in (("running_mean", running_mean), ("running_var", running_var)):
        if not training and t is None:
            raise input.policy.errors.nn_batch_norm_running_eval(name=name)
    mixed = mixed_precision(input, weight, bias, running_mean, running_var)
    c = d.shape[1] if d.ndim > 1 else d.shape[0]
    dims = (0,) + tuple(range(2, d.ndim))
    bshape = (1, c) + (1,) * (d.ndim - 2)
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        if t is not None and t._data.size != c:
            raise input.policy.errors.nn_batch_norm_size(name=name, expected=c, got=t._data.size)
    if training:
        if d.size == 0:     # (PyTorch returns a copy and leaves the running statistics)
            return ops.clone(input)
        n = d.size // c
        if n == 1:
            raise input.policy.errors.nn_batch_norm_one_value(input_shape=d.shape)
        mean = ops.mean(input, dims, keepdim=True)
        centered = input - mean
        var = ops.mean(centered * centered, dims, keepdim=True)
        if running_mean is not None or running_var is not None:
            m = float(momentum)
            md, vd = mean._data.reshape(c), var._data.reshape(c)
            if running_mean is not None:
                rm = running_mean._data
                rm *= (1 - m)
                rm += (m * md).astype(rm.dtype, copy=False)
                running_mean._bump()
            if running_var is not None:
                rv = running_var._data
                rv *= (1 - m)
                rv += (m * vd * (n / (n - 1) if unbiased_running_var else 1)).astype(rv.dtype, copy=False)
                running_var._bump()
        out = centered * ops.rsqrt(var + eps)
    else:
        mean = ops.reshape(running_mean, bshape)
        inv = ops.rsqrt(ops.reshape(running_var, bshape) + eps)
        out = (input - mean) * inv
    if weight is not None:
        out = out * ops.reshape(weight, bshape)
    if bias is not None:
        out = out + ops.reshape(bias, bshape)
    return ops.cast(out, d.dtype) if mixed else out


def _int_list(value, policy, fn: str, name: str, position: int) -> tuple:
    """An int list as PyTorch's parser takes it: a Python int or a sequence of ints (a NumPy integer or
    an integer tensor of one element as an element; a bool only after the first)."""
    if type(value) is int:
        return (value,)
    if not isinstance(value, (tuple, list)):
        raise policy.errors.argument_type_at(fn=fn, argument=name, position=position, expected="tuple of ints",
                                             type=typename(value))
    for i, e in enumerate(value):
        if not (isinstance(e, (int, np.integer)) and (i or not isinstance(e, bool)) or ops.is_int_tensor(e)):
            raise policy.errors.argument_element_at(fn=fn, argument=name, position=position, expected="tuple of ints",
                                                    type=typename(e), pos=i)
    return tuple(int(e) for e in value)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps: float = 1e-5):
    if input._data.dtype.kind not in "fV":
        raise input.policy.errors.not_implemented_for(op="LayerNormKernelImpl", dtype_scalar=input._data.dtype)
    normalized_shape = _int_list(normalized_shape, input.policy, "layer_norm", "normalized_shape", 2)
    if not normalized_shape:
        raise input.policy.errors.nn_layer_norm_empty()
    d = input._data
    k = len(normalized_shape)
    if d.shape[d.ndim - k:] != normalized_shape or d.ndim < k:
        inner = ", ".join(map(str, normalized_shape))
        raise input.policy.errors.nn_layer_norm_shape(normalized=f"[{inner}]", inner=inner, size=_dims(d.shape))
    mixed = mixed_precision(input, weight, bias)
    dims = tuple(range(d.ndim - k, d.ndim))
    mean = ops.mean(input, dims, keepdim=True)
    centered = input - mean
    var = ops.mean(centered * centered, dims, keepdim=True)
    out = centered * ops.rsqrt(var + eps)
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    if mixed:
        out = ops.cast(out, d.dtype)
    return out


def normalize(input, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out=None):
    if isinstance(p, complex):
        raise input.policy.errors.nn_norm_order_complex()
    if out is not None:
        raise input.policy.errors.out_unsupported(name="normalize")
    denom = ops.clamp(ops.norm(input, p, dim, keepdim=True), min=eps)
    return input / ops.expand_as(denom, input)


def cosine_similarity(x1, x2, dim: int = 1, eps: float = 1e-8):
    ops.int_argument(dim, x1.policy)
    w12 = ops.sum(x1 * x2, dim)
    n1 = ops.sum(x1 * x1, dim)
    n2 = ops.sum(x2 * x2, dim)
    return w12 / ops.sqrt(ops.clamp(n1 * n2, min=eps * eps))


def pairwise_distance(x1, x2, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False):
    policy = policy_of(x1, x2)
    ops.tensor_argument(x1, policy, "pairwise_distance", "x1", 1)
    ops.tensor_argument(x2, policy, "pairwise_distance", "x2", 2)
    return ops.norm(x1 - x2 + eps, p, -1, keepdim=keepdim)


# ----------------------------------------------------------------------------------- losses

def _check_reduction(reduction, policy):
    if reduction not in ("none", "mean", "sum"):
        raise policy.errors.nn_reduction_invalid(reduction=reduction)


def mse_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", weight=None):
    reduction = _legacy_reduction(size_average, reduce, reduction, input.policy)
    if weight is not None:
        return _layers.reduce_loss(weight * (input - target) ** 2, reduction)
    return _layers.mse_loss(input, target, reduction)


def _pair_for_pointwise(input, target):
    if input._data.shape != target._data.shape:
        err = ops.broadcast_error(input._data.shape, target._data.shape)
        _layers._size_warning(input, target)
        if err is not None:
            raise err


def l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", weight=None):
    reduction = _legacy_reduction(size_average, reduce, reduction, input.policy)
    _check_reduction(reduction, input.policy)
    _pair_for_pointwise(input, target)
    loss = ops.abs(input - target)
    if weight is not None:
        loss = loss * weight
    return _layers.reduce_loss(loss, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", beta: float = 1.0):
    reduction = _legacy_reduction(size_average, reduce, reduction, input.policy)
    _check_reduction(reduction, input.policy)
    if beta < 0:
        raise input.policy.errors.nn_smooth_l1_beta()
    ops.refuse_complex(input, "smooth_l1_cpu")
    ops.refuse_complex(target, "smooth_l1_cpu")
    _pair_for_pointwise(input, target)
    diff = input - target
    z = ops.abs(diff)
    if beta == 0:
        return _layers.reduce_loss(z, reduction)
    loss = ops.where(z < beta, diff * diff * (0.5 / beta), z - 0.5 * beta)
    return _layers.reduce_loss(loss, reduction)


def huber_loss(input, target, reduction: str = "mean", delta: float = 1.0, weight=None):
    _check_reduction(reduction, input.policy)
    if not delta > 0:
        raise input.policy.errors.nn_huber_delta()
    _pair_for_pointwise(input, target)
    # PyTorch's kernel computes in the promoted dtype and writes into one of input's dtype
    d, r = input._data.dtype, backend.result_type((input._data.dtype, target._data.dtype), (), (),
                                                  backend.default_float())
    if backend.category(r) > backend.category(d):
        raise input.policy.errors.result_type_cast(result_scalar=r, want_scalar=d)
    if r.kind not in "fV":
        raise input.policy.errors.not_implemented_for(op="huber_cpu", dtype_scalar=r)
    diff = input - target
    z = ops.abs(diff)
    loss = ops.where(z < delta, diff * diff * 0.5, (z - 0.5 * delta) * delta)
    loss = loss if loss._data.dtype == d else ops.cast(loss, d)
    if weight is not None:
        loss = loss * weight
    return _layers.reduce_loss(loss, reduction)


def nll_loss(input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
             reduction: str = "mean"):
    reduction = _legacy_reduction(size_average, reduce, reduction, input.policy)
    return _layers.nll_loss(input, target, weight, ignore_index, reduction)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
                  reduction: str = "mean", label_smoothing: float = 0.0):
    reduction = _legacy_reduction(size_average, reduce, reduction, input.policy)
    _check_reduction(reduction, input.policy)
    ops.int_argument(ignore_index, input.policy)
    if label_smoothing > 1.0:  # PyTorch checks only this side: a negative value means no smoothing
        raise input.policy.errors.nn_label_smoothing(value=label_smoothing)
    d, td = input._data, target._data
    class_dim = 0 if d.ndim == 1 else 1
    c = d.shape[class_dim]
    logp = ops.log_softmax(input, class_dim)
    if d.shape == td.shape:  # class probabilities
        if td.dtype.kind not in "fV":
            raise input.policy.errors.nn_target_probabilities_dtype(dtype_scalar=td.dtype)
        t = target
        if label_smoothing > 0:
            t = t * (1 - label_smoothing) + label_smoothing / c
        prod = logp * t
        if weight is not None:
            prod = prod * ops.reshape(weight, (c,) + (1,) * (d.ndim - 1 - class_dim))
        if reduction == "none":
            return -ops.sum(prod, class_dim)
        if reduction == "sum":
            return -ops.sum(prod)
        return -ops.sum(prod) / (d.size / c)
    nll = _layers.nll_loss(logp, target, weight, ignore_index, reduction)
    if label_smoothing <= 0:
        return nll
    ignore = target._data == ignore_index
    if weight is not None:
        smooth = -ops.sum(logp * ops.reshape(weight, (c,) + (1,) * (d.ndim - 1 - class_dim)), class_dim)
    else:
        smooth = -ops.sum(logp, class_dim)
    if ignore.any():
        smooth = ops.masked_fill(smooth, smooth._new(ignore), 0.0)
    if reduction == "mean":
        if weight is not None:
            kept = target._data[~ignore]
            denom = float(weight._data[kept].sum())
        else:
            denom = float((~ignore).sum())
        ret = ops.sum(smooth) / denom
    elif reduction == "sum":
        ret = ops.sum(smooth)
    else:
        ret = smooth
    return nll * (1 - label_smoothing) + ret * (label_smoothing / c)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction: str = "mean"):
    reduction = _legacy_reduction(size_average, reduce, reduction, input.policy)
    return _layers.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction: str = "mean", pos_weight=None):
    reduction = _legacy_reduction(size_average, reduce, reduction, input.policy)
    return _layers.binary_cross_entropy_with_logits(input, target, weight, reduction, pos_weight)


def kl_div(input, target, size_average=None, reduce=None, reduction: str = "mean", log_target: bool = False):
    reduction = _legacy_reduction(size_average, reduce, reduction, input.policy)
    if reduction == "mean":
        warnings.warn(input.policy.errors.nn_kl_div_mean(), stacklevel=2)
    ops.flag_argument(log_target, input.policy, "kl_div", "log_target")
    kinds = (input._data.dtype.kind, target._data.dtype.kind)
    if "c" in kinds:
        raise input.policy.errors.nn_kl_div_dtype(family="Complex")
    if any(k in "biu" for k in kinds):
        raise input.policy.errors.nn_kl_div_dtype(family="Integral")
    if log_target:
        loss = ops.exp(target) * (target - input)
    else:
        pos = target > 0
        loss = ops.where(pos, target * ops.log(ops.where(pos, target, 1.0)), 0.0) - target * input
    if reduction == "batchmean":
        return ops.sum(loss) / (input._data.shape[0] if input._data.ndim else 1)
    return _layers.reduce_loss(loss, reduction)


# -------------------------------------------------------------------------------- attention
# scaled_dot_product_attention is PyTorch's math backend composed from the op table (matmul,
# softmax, masked_fill), so its gradients, to any order, are those of the ops; multi_head_attention_forward
# (nn.MultiheadAttention's functional form) lives in nn/attention.py.

from ..autograd.policy import policy_of  # noqa: E402
from ..tensor import Tensor  # noqa: E402

__all__ += ["scaled_dot_product_attention"]


def _sdpa_check_args(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa) -> None:
    """PyTorch's argument parsing: the types it accepts for each argument."""
    for position, (arg, t) in enumerate((("query", query), ("key", key), ("value", value)), 1):
        if not isinstance(t, Tensor):
            raise policy_of(query, key, value).errors.sdpa_input_type(arg=arg, position=position,
                                                     type=type(t).__name__)
    policy = query.policy
    if attn_mask is not None and not isinstance(attn_mask, Tensor):
        raise policy.errors.sdpa_arg_type(arg="attn_mask", expected="Tensor", type=type(attn_mask).__name__)
    for arg, v, kinds, expected in (("dropout_p", dropout_p, (int, float, np.integer, np.floating), "float"),
                                    ("is_causal", is_causal, (bool,), "bool"),
                                    ("scale", 0.0 if scale is None else scale, (int, float, np.integer, np.floating),
                                     "float"),
                                    ("enable_gqa", enable_gqa, (bool,), "bool")):
        if not isinstance(v, kinds):
            raise policy.errors.sdpa_arg_type(arg=arg, expected=expected, type=type(v).__name__)


def _sdpa_validate(query, key, value, attn_mask, is_causal) -> None:
    """PyTorch's checks of the inputs, in its order."""
    policy = query.policy
    qd, kd, vd = query._data, key._data, value._data
    if not qd.dtype == kd.dtype == vd.dtype:
        raise policy.errors.sdpa_dtype(query_ctype=qd.dtype, key_ctype=kd.dtype, value_ctype=vd.dtype)
    if not query.device == key.device == value.device:
        raise policy.errors.sdpa_device(query=query.device, key=key.device, value=value.device)
    if min(qd.ndim, kd.ndim, vd.ndim) < 2:
        raise policy.errors.sdpa_dims(query=qd.ndim, key=kd.ndim, value=vd.ndim)
    if attn_mask is not None:
        md = attn_mask._data
        if md.dtype not in (np.bool_, np.float32, qd.dtype):
            raise policy.errors.sdpa_mask_dtype(mask_ctype=md.dtype, query_ctype=qd.dtype)
        if md.ndim == 0:
            raise policy.errors.sdpa_dim_scalar(dim=-2)
        if md.ndim == 1:
            raise policy.errors.sdpa_dim_range(low=-1, high=0, dim=-2)
    if is_causal and attn_mask is not None:
        raise policy.errors.sdpa_causal_with_mask()
    if qd.dtype.kind not in "fV":
        raise policy.errors.sdpa_not_float(found_scalar=qd.dtype)


def _sdpa_group_heads(query, key, value):
    """Grouped-query attention: key and value heads repeated (interleaved) up to the query's."""
    policy = query.policy
    for t in (query, key, value):
        n = t._data.ndim
        if n < 3:
            raise policy.errors.sdpa_dim_range(low=-n, high=n - 1, dim=-3)
    hq, hk, hv = query._data.shape[-3], key._data.shape[-3], value._data.shape[-3]
    if hq == hk == hv:
        return key, value
    if hq % hk or hq % hv:
        raise policy.errors.sdpa_gqa_heads()

    def repeat(t, times):
        if times == 1:
            return t
        shape = t._data.shape
        wide = ops.expand(ops.unsqueeze(t, -3), *shape[:-2], times, *shape[-2:])
        return ops.reshape(wide, shape[:-3] + (shape[-3] * times,) + shape[-2:])
    return repeat(key, hq // hk), repeat(value, hq // hv)


def _safe_softmax(scores):
    """Softmax over the last dimension where a row that is all -inf gives zeros (and passes no
    gradient), as PyTorch's attention does."""
    d = scores._data
    xp = backend.namespace(d)
    dead = xp.all(d == -xp.inf, axis=-1, keepdims=True)
    if not bool(dead.any()):
        return ops.softmax(scores, -1)
    dead = scores._new(dead)
    return ops.masked_fill(ops.softmax(ops.masked_fill(scores, dead, 0.0), -1), dead, 0.0)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p: float = 0.0, is_causal: bool = False,
                                 *, scale=None, enable_gqa: bool = False):
    """softmax(Q K^T * scale + mask) V over the last two dimensions, PyTorch's math backend: a bool
    mask keeps the True positions, a float mask is added, `is_causal` keeps the lower triangle;
    a row with nothing to attend to gives zeros. Half precision runs in float32."""
    _sdpa_check_args(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)
    _sdpa_validate(query, key, value, attn_mask, is_causal)
    policy = query.policy
    origin = query._data.dtype
    if origin == np.float16:
        query, key, value = (ops.cast(t, np.float32) for t in (query, key, value))
    if enable_gqa:
        key, value = _sdpa_group_heads(query, key, value)
    xp = backend.namespace(query._data)
    dtype = query._data.dtype
    factor = (1.0 / float(np.sqrt(query._data.shape[-1])) if scale is None else abs(float(scale))) ** 0.5
    q = query * (-factor if scale is not None and scale < 0 else factor)
    scores = ops.matmul(q, ops.transpose(key, -2, -1) * factor)
    if is_causal:
        n_q, n_k = query._data.shape[-2], key._data.shape[-2]
        attn_mask = query._new(xp.tril(xp.ones((n_q, n_k), dtype=bool)))
    if attn_mask is not None:
        md = attn_mask._data
        if md.dtype == np.bool_:   # PyTorch's conversion: 0 where True, -inf where False, in query's dtype
            attn_mask = attn_mask._new(xp.where(md, 0.0, -xp.inf).astype(origin))
        shape = scores._data.shape
        err = ops.broadcast_error(shape, md.shape, policy)
        if err is not None:
            raise err
        wide = tuple(np.broadcast_shapes(shape, md.shape))
        if wide != shape:   # PyTorch adds the mask in place into the scores
            raise policy.errors.sdpa_mask_grows(out=list(shape), wide=list(wide))
        if attn_mask._data.dtype != dtype:
            attn_mask = ops.cast(attn_mask, dtype)
        scores = scores + attn_mask
    attn = _safe_softmax(scores)
    if dropout_p > 0.0:
        if dropout_p > 1.0:
            raise policy.errors.sdpa_dropout_p(p=float(dropout_p))
        attn = dropout(attn, float(dropout_p), True)
    out = ops.matmul(attn, value)
    return ops.cast(out, origin) if out._data.dtype != origin else out
