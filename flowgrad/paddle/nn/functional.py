"""paddle.nn.functional: paddle's names and arguments (`axis`, `label`, `epsilon`, ...) over
flowgrad's framework-neutral functional forms. `linear(x, weight, bias)` is `x @ weight + bias`
with paddle's `[in, out]` weight."""
from __future__ import annotations

from ... import ops
from ...nn import functional as F
from ...nn import functional_resample as resample
from ...nn import layout
from ...nn.functional_conv import transposed_size
from .. import _ops as P
from .._creation import ones_like, zeros_like


def relu(x, name=None):
    return F.relu(x)


def relu6(x, name=None):
    return F.relu6(x)


def leaky_relu(x, negative_slope: float = 0.01, name=None):
    return F.leaky_relu(x, negative_slope)


def elu(x, alpha: float = 1.0, name=None):
    return F.elu(x, alpha)


def gelu(x, approximate: bool = False, name=None):
    return F.gelu(x, approximate="tanh" if approximate else "none")


def silu(x, name=None):
    return F.silu(x)


swish = silu


def mish(x, name=None):
    return F.mish(x)


def sigmoid(x, name=None):
    return F.sigmoid(x)


def tanh(x, name=None):
    return F.tanh(x)


def softplus(x, beta: float = 1, threshold: float = 20, name=None):
    return F.softplus(x, beta, threshold)


def softsign(x, name=None):
    return F.softsign(x)


def hardtanh(x, min: float = -1.0, max: float = 1.0, name=None):
    return F.hardtanh(x, min, max)


def hardsigmoid(x, slope: float = 0.1666667, offset: float = 0.5, name=None):
    return P.clip(x * slope + offset, 0.0, 1.0)


def hardswish(x, name=None):
    return F.hardswish(x)


def log_sigmoid(x, name=None):
    return F.logsigmoid(x)


def tanhshrink(x, name=None):
    return F.tanhshrink(x)


def softmax(x, axis: int = -1, dtype=None, name=None):
    return ops.softmax(x, axis, dtype)


def log_softmax(x, axis: int = -1, dtype=None, name=None):
    return ops.log_softmax(x, axis, dtype)


def linear(x, weight, bias=None, name=None):
    out = P.matmul(x, weight)
    return out if bias is None else P.add(out, bias)


def dropout(x, p: float = 0.5, axis=None, training: bool = True, mode: str = "upscale_in_train", name=None):
    if mode == "downscale_in_infer":
        return F.dropout(x, p, training) * (1 - p) if training else x * (1 - p)
    return F.dropout(x, p, training)


def embedding(x, weight, padding_idx=None, sparse: bool = False, name=None):
    return F.embedding(x, weight, padding_idx)


def one_hot(x, num_classes: int, name=None):
    return ops.cast(F.one_hot(ops.cast(x, "int64"), num_classes), "float32")


def pad(x, pad, mode: str = "constant", value: float = 0.0, data_format: str = "NCHW", name=None):
    """`pad` of length 2 * ndim pads every dim, the first dim first; of length 2 * (ndim - 2), the
    spatial dims of `data_format` (channels-last: NLC, NHWC, NDHWC), the last first; otherwise the
    last dims, the last first."""
    pad = pad.tolist() if hasattr(pad, "tolist") else list(pad)
    if len(pad) == 2 * x.ndim:
        pad = [p for d in reversed(range(x.ndim)) for p in pad[2 * d:2 * d + 2]]
    last = len(pad) == 2 * (x.ndim - 2) and data_format in ("NLC", "NHWC", "NDHWC")
    return layout.in_channels_first(F.pad, x, last, pad, mode, value if mode == "constant" else None)


def normalize(x, p: float = 2, axis: int = 1, epsilon: float = 1e-12, name=None):
    return F.normalize(x, p, axis, epsilon)


def cosine_similarity(x1, x2, axis: int = 1, eps: float = 1e-8):
    return F.cosine_similarity(x1, x2, axis, eps)


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon: float = 1e-05, name=None):
    """`weight` and `bias` are flat (`[prod(normalized_shape)]`), as paddle's."""
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    weight, bias = (None if t is None else P.reshape(t, shape) for t in (weight, bias))
    return F.layer_norm(x, shape, weight, bias, epsilon)


_CHANNELS_FIRST = ("NC", "NCL", "NCW", "NCHW", "NCDHW")


def _channels_first(data_format: str, api: str) -> None:
    """flowgrad computes the channels-first layouts only (of the layers not taking channels-last)."""
    if data_format not in _CHANNELS_FIRST:
        raise NotImplementedError(f"flowgrad's paddle {api} supports the channels-first data_format (NCL, NCHW, "
                                  f"NCDHW), not {data_format}")


def _last(data_format: str, first: str, last: str, end: str = ".") -> bool:
    """Whether `data_format` is the channels-last one of the pair paddle takes (its error otherwise)."""
    if data_format not in (first, last):
        raise ValueError(f"Attr(data_format) should be '{first}' or '{last}'. Received Attr(data_format): "
                         f"{data_format}{end}")
    return data_format == last


def _padding(padding):
    return padding.lower() if isinstance(padding, str) else padding


def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups: int = 1, data_format: str = "NCL",
           name=None):
    return layout.in_channels_first(F.conv1d, x, _last(data_format, "NCL", "NLC"), weight, bias, stride,
                                    _padding(padding), dilation, groups)


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups: int = 1, data_format: str = "NCHW",
           name=None):
    return layout.in_channels_first(F.conv2d, x, _last(data_format, "NCHW", "NHWC"), weight, bias, stride,
                                    _padding(padding), dilation, groups)


def _transposed_padding(x, weight, stride, padding, dilation, output_size, last: bool) -> list:
    """The output padding that makes a transposed convolution's output `output_size` (paddle's checks)."""
    if hasattr(output_size, "tolist"):
        output_size = output_size.tolist()
    output_size = [output_size] * 2 if isinstance(output_size, int) else list(output_size)
    if len(output_size) != 2:
        raise ValueError(f"The output_size's length must be 2. Received: {output_size}")
    pair = lambda v: [v] * 2 if isinstance(v, int) else list(v)  # noqa: E731
    stride = pair(stride)
    spatial = x.shape[1:3] if last else x.shape[2:]
    inferred = transposed_size(spatial, weight.shape[2:], stride, pair(padding), pair(dilation))
    for i, (size, low) in enumerate(zip(output_size, inferred)):
        if size < low:
            raise ValueError(f"(InvalidArgument) output_size of Op(ConvTransposeOp) should not be less than the "
                             f"inferred output size. But received output_size = [{output_size}], whose dim {i} is "
                             f"less than the inferred output size [{low}]\n  [Hint: Expected output_size[i] >= "
                             f"infer_shape, but received output_size[i]:{size} < infer_shape:{low}.] (at "
                             f"/paddle/paddle/phi/infermeta/binary.cc:875)\n")
        if size >= low + stride[i]:
            raise ValueError(f"(InvalidArgument) output_size of Op(ConvTransposeOp) should be less than inferred size "
                             f"+ stride. But received output_size = [{output_size}], whose dim {i} is not less than "
                             f"the inferred output size ({low}) + stride ({stride[i]}) = {low + stride[i]}\n  [Hint: "
                             f"Expected output_size[i] < infer_shape + strides[i], but received output_size[i]:{size} "
                             f">= infer_shape + strides[i]:{low + stride[i]}.] (at "
                             f"/paddle/paddle/phi/infermeta/binary.cc:886)\n")
    return [size - low for size, low in zip(output_size, inferred)]


def conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, dilation=1, groups: int = 1,
                     output_size=None, data_format: str = "NCHW", name=None):
    """weight `[in, out // groups, kh, kw]`, as PyTorch's; `output_size` picks the output padding."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"Attr(data_format) of conv2d_transpose got wrong value: received {data_format}, but only "
                         "'NCHW' or 'NHWC' are supported.")
    last = data_format == "NHWC"
    if output_size is not None:
        if output_padding != 0:
            raise ValueError("output_padding option is mutually exclusive with output_size")
        output_padding = _transposed_padding(x, weight, stride, padding, dilation, output_size, last)
    return layout.in_channels_first(F.conv_transpose2d, x, last, weight, bias, stride, padding, output_padding,
                                    groups, dilation)


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training: bool = False, momentum: float = 0.9,
               epsilon: float = 1e-05, data_format: str = "NCHW", use_global_stats=None, name=None):
    """paddle's momentum weighs the running statistics (running = momentum * running + (1 - momentum) *
    batch) and the running variance takes the biased batch variance."""
    if x.ndim < 2:
        raise AssertionError("input dim must be larger than 1")
    if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError("data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', 'NLC', 'NHWC', 'NDHWC' but "
                         f"receive {data_format}")
    if use_global_stats is not None:
        training = not use_global_stats
    return layout.in_channels_first(F.batch_norm, x, data_format[1] != "C", running_mean, running_var, weight, bias,
                                    training, 1.0 - momentum, epsilon, unbiased_running_var=False)


def group_norm(x, num_groups: int, epsilon: float = 1e-05, weight=None, bias=None, data_format: str = "NCHW",
               name=None):
    """Channels on axis 1 (NCL, NCHW, NCDHW) or last (NLC, NHWC, NDHWC), whatever the input's rank."""
    if data_format not in ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError(f"unsupported data layout:{data_format}")
    return layout.in_channels_first(F.group_norm, x, data_format.endswith("C"), num_groups, weight, bias, epsilon)


def interpolate(x, size=None, scale_factor=None, mode: str = "nearest", align_corners: bool = False,
                align_mode: int = 0, data_format=None, recompute_scale_factor=None, antialias: bool = False,
                name=None):
    """paddle's modes and checks over the neutral resampling: linear modes sample at cell centres
    (`align_mode=0`) or corners (`align_mode=1`) unless `align_corners`; channels-last formats (NWC,
    NHWC, NDHWC) run between two transposes."""
    mode, ndim = mode.lower(), x.ndim
    if mode not in ("nearest", "linear", "bilinear", "trilinear", "bicubic", "area"):
        raise ValueError("The 'resample' of image_resize can only be 'area', 'linear', 'bilinear', 'trilinear', "
                         " 'bicubic' or 'nearest' currently.")
    if mode == "linear" and ndim != 3:
        raise ValueError("'linear' only support 3-D tensor.")
    if mode == "nearest" and ndim not in (4, 5):
        raise ValueError("'NEAREST' only support 4-D  or 5-D tensor.")
    if mode in ("bilinear", "bicubic") and ndim != 4:
        raise ValueError("'bilinear' and 'bicubic' only support 4-D tensor.")
    if mode == "trilinear" and ndim != 5:
        raise ValueError("'trilinear'only support 5-D tensor.")
    if size is None and scale_factor is None:
        raise ValueError("One of size and scale_factor must not be None.")
    if hasattr(size, "tolist"):  # a Tensor
        size = size.tolist()
    if isinstance(size, (tuple, list)) and len(size) != ndim - 2:
        raise ValueError("The x and size should satisfy rank(x) - 2 == len(size).")
    if not isinstance(align_corners, bool):
        raise TypeError("Attr align_corners should be a bool value")
    if align_mode not in (0, 1):
        raise ValueError("align_mode can only be 0 or 1")
    if align_corners and mode == "nearest":
        raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                         "bicubic | trilinear")
    if mode == "area" and size is None:
        raise ValueError("output size can not be None in AREA mode")
    formats = {3: ("NCW", "NWC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}.get(ndim, ("NCHW", "NHWC"))
    data_format = formats[0] if data_format is None else data_format
    if data_format not in formats:
        raise ValueError(f"Got wrong value for param `data_format`: {data_format} received but only `{formats[0]}` or "
                         f"`{formats[1]}` supported for {ndim}-D input.")
    if isinstance(size, (list, tuple)):
        size = [int(s) for s in size]
    return layout.in_channels_first(resample.interpolate_from, x, data_format == formats[1], size, scale_factor, mode,
                                    None if mode in ("nearest", "area") else align_corners, recompute_scale_factor,
                                    antialias, half_pixel=align_mode == 0)


def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask: bool = False, ceil_mode: bool = False,
               data_format: str = "NCHW", name=None):
    last = _last(data_format, "NCHW", "NHWC")
    if return_mask and last:
        raise ValueError("When setting return_mask to true, data_format must be set to NCHW in API:max_pool2d")
    return layout.in_channels_first(F.max_pool2d, x, last, kernel_size, stride, padding, 1, ceil_mode, return_mask)


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode: bool = False, exclusive: bool = True,
               divisor_override=None, data_format: str = "NCHW", name=None):
    return layout.in_channels_first(F.avg_pool2d, x, _last(data_format, "NCHW", "NHWC", end=""), kernel_size, stride,
                                    padding, ceil_mode, not exclusive, divisor_override)


def max_pool1d(x, kernel_size, stride=None, padding=0, return_mask: bool = False, ceil_mode: bool = False,
               name=None):
    return F.max_pool1d(x, kernel_size, stride, padding, 1, ceil_mode, return_mask)


def avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive: bool = True, ceil_mode: bool = False, name=None):
    return F.avg_pool1d(x, kernel_size, stride, padding, ceil_mode, not exclusive)


def max_pool3d(x, kernel_size, stride=None, padding=0, return_mask: bool = False, ceil_mode: bool = False,
               data_format: str = "NCDHW", name=None):
    last = _last(data_format, "NCDHW", "NDHWC", end="")
    if return_mask and last:
        raise ValueError("When setting return_mask to true, data_format must be set to NCDHW in API:max_pool3d")
    return layout.in_channels_first(F.max_pool3d, x, last, kernel_size, stride, padding, 1, ceil_mode, return_mask)


def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode: bool = False, exclusive: bool = True,
               divisor_override=None, data_format: str = "NCDHW", name=None):
    return layout.in_channels_first(F.avg_pool3d, x, _last(data_format, "NCDHW", "NDHWC", end=""), kernel_size,
                                    stride, padding, ceil_mode, not exclusive, divisor_override)


def adaptive_avg_pool1d(x, output_size: int, name=None):
    return F.adaptive_avg_pool1d(x, output_size)


def adaptive_avg_pool3d(x, output_size, data_format: str = "NCDHW", name=None):
    return layout.in_channels_first(F.adaptive_avg_pool3d, x, _last(data_format, "NCDHW", "NDHWC"), output_size)


def adaptive_max_pool1d(x, output_size, return_mask: bool = False, name=None):
    return F.adaptive_max_pool1d(x, output_size, return_mask)


def adaptive_max_pool2d(x, output_size, return_mask: bool = False, name=None):
    return F.adaptive_max_pool2d(x, output_size, return_mask)


def adaptive_avg_pool2d(x, output_size, data_format: str = "NCHW", name=None):
    last = _last(data_format, "NCHW", "NHWC")
    if x.ndim not in (3, 4):  # checked for any output size (PyTorch skips the check for 1x1)
        raise x.policy.errors.nn_adaptive_pool_input_dim(fn="adaptive_avg_pool2d", unbatched=3, batched=4,
                             size=list(x.shape))
    return layout.in_channels_first(F.adaptive_avg_pool2d, x, last, output_size)


# ------------------------------------------------------------------------------ losses

def mse_loss(input, label, reduction: str = "mean", name=None):
    return F.mse_loss(input, label, reduction=reduction)


def l1_loss(input, label, reduction: str = "mean", name=None):
    return F.l1_loss(input, label, reduction=reduction)


def smooth_l1_loss(input, label, reduction: str = "mean", delta: float = 1.0, name=None):
    return F.huber_loss(input, label, reduction, delta)


def _class_index_label(input, label, axis: int):
    """Paddle's hard labels may carry a trailing 1 (`[N, 1]`); flowgrad's forms want `[N]`."""
    if label.ndim == input.ndim and label.shape[axis] == 1 and label._data.dtype.kind in "iu":
        label = P.squeeze(label, axis)
    return ops.cast(label, "int64")


def nll_loss(input, label, weight=None, ignore_index: int = -100, reduction: str = "mean", name=None):
    return F.nll_loss(input, _class_index_label(input, label, 1 if input.ndim > 1 else 0), weight,
                      ignore_index=ignore_index, reduction=reduction)


def cross_entropy(input, label, weight=None, ignore_index: int = -100, reduction: str = "mean",
                  soft_label: bool = False, axis: int = -1, use_softmax: bool = True, label_smoothing: float = 0.0,
                  name=None):
    """Softmax cross entropy over `axis`. With reduction='none' the result keeps a size-1 class
    axis for soft labels and for hard labels given with one, as paddle's does; soft labels get no
    gradient."""
    axis = axis % input.ndim
    keep_axis = soft_label or (label.ndim == input.ndim and label.shape[axis] == 1)
    if soft_label:
        label = label.detach()
    if input.ndim > 1 and axis != 1:  # flowgrad's forms want classes on axis 1
        perm = [0, axis] + [i for i in range(1, input.ndim) if i != axis]
        input = P.transpose(input, perm)
        if label.ndim == len(perm):
            label = P.transpose(label, perm)
    class_axis = 1 if input.ndim > 1 else 0
    if not use_softmax:
        input = P.log(input)
        if soft_label:
            loss = -P.sum(label * input, class_axis)
            loss = _reduce(loss, reduction)
        else:
            loss = nll_loss(input, label, weight, ignore_index, reduction)
    else:
        if not soft_label:
            label = _class_index_label(input, label, class_axis)
        if label_smoothing < 0:  # refused (PyTorch takes a negative value as no smoothing)
            raise input.policy.errors.nn_label_smoothing(value=label_smoothing)
        if reduction == "mean" and not soft_label and label_smoothing == 0:
            loss = _mean_over_labels(F.cross_entropy(input, label, weight, ignore_index=ignore_index,
                                                     reduction="sum"), label, weight, ignore_index)
        else:
            loss = F.cross_entropy(input, label, weight, ignore_index=ignore_index, reduction=reduction,
                                   label_smoothing=label_smoothing)
    if reduction == "none" and keep_axis:
        loss = P.unsqueeze(loss, axis)
    return loss


def _mean_over_labels(total, label, weight, ignore_index: int):
    """paddle 3.3.1's mean of hard-label cross entropy: the sum over the kept labels (or their
    weights) with a non-negative `ignore_index` or a `weight`, else over all labels, ignored ones
    included; a zero divisor counts as one."""
    if ignore_index < 0 and weight is None:
        return total / max(label.size, 1)
    kept = ops.cast(label != ignore_index, total.dtype)
    if weight is not None:
        kept = kept * P.gather(weight, P.where(label != ignore_index, label, zeros_like(label)).flatten()
                               ).reshape(label.shape)
    count = float(P.sum(kept))
    return total / (count if count != 0 else 1.0)


def _reduce(loss, reduction: str):
    if reduction == "mean":
        return P.mean(loss)
    if reduction == "sum":
        return P.sum(loss)
    return loss


def softmax_with_cross_entropy(logits, label, soft_label: bool = False, ignore_index: int = -100,
                               numeric_stable_mode: bool = True, return_softmax: bool = False, axis: int = -1):
    loss = cross_entropy(logits, label, ignore_index=ignore_index, reduction="none", soft_label=soft_label,
                         axis=axis)
    if loss.ndim < logits.ndim:
        loss = P.unsqueeze(loss, axis % logits.ndim)
    return (loss, softmax(logits, axis)) if return_softmax else loss


def binary_cross_entropy(input, label, weight=None, reduction: str = "mean", name=None):
    return F.binary_cross_entropy(input, label.detach(), weight, reduction=reduction)


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction: str = "mean", pos_weight=None,
                                     name=None):
    return F.binary_cross_entropy_with_logits(logit, label.detach(), weight, reduction=reduction,
                                              pos_weight=pos_weight)


def kl_div(input, label, reduction: str = "mean", log_target: bool = False, name=None):
    label = label.detach()  # paddle's label gets no gradient
    loss = P.exp(label) * (label - input) if log_target else \
        P.where(label > 0, label * P.log(P.where(label > 0, label, ones_like(label))), zeros_like(label)) - \
        label * input
    if reduction == "batchmean":
        return P.sum(loss) / (input.shape[0] if input.ndim else 1)
    return _reduce(loss, reduction)


def square_error_cost(input, label):
    return P.square(input - label)
