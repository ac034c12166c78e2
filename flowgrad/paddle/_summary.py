"""paddle.summary: one forward pass (in eval mode, without gradients) with a post-hook on every layer
that runs, printed as paddle's table of layer, input / output shapes and parameter counts."""
from __future__ import annotations

import numbers

import numpy as np

from . import _creation, _ops
from .autograd import no_grad
from .nn import LayerList, Sequential


def _is_shape(size) -> bool:
    return isinstance(size, (list, tuple)) and all(isinstance(i, numbers.Number) for i in size)


def _checked(size):
    """Nested input sizes with the batch dim's None / -1 as 1, checked as paddle checks them."""
    if not (isinstance(size, (list, tuple)) and not any(isinstance(i, (list, tuple)) for i in size)):
        return [_checked(s) for s in size]
    unknown, out = 0, []
    for item in size:
        if item is None or item == -1:
            unknown += 1
            if unknown > 1:
                raise ValueError("Option input_size only the dim of batch_size can be None or -1.")
            item = 1
        elif isinstance(item, numbers.Number) and item <= 0:
            raise ValueError(f"Expected element in input size greater than zero, but got {item}")
        out.append(item)
    return tuple(out)


def _input_size_of(input):
    if hasattr(input, "shape") and not isinstance(input, (list, tuple, dict)):
        return tuple(input.shape)
    if isinstance(input, (list, tuple)):
        return [tuple(x.shape) for x in input]
    if isinstance(input, dict):
        return [tuple(x.shape) for x in input.values()]
    raise ValueError("Input is not tensor, list, tuple and dict, unable to determine input_size, please input "
                     "input_size.")


def _shapes(x):
    if isinstance(x, (list, tuple)):
        return [_shapes(v) for v in x]
    return list(x.shape) if hasattr(x, "shape") else []


def _leaf_products(shape) -> int:
    """The elements of every shape in a nested list of shapes."""
    if _is_shape(shape):
        return int(np.prod(shape))
    return sum(_leaf_products(s) for s in shape)


def _random_inputs(size, dtypes):
    if _is_shape(size):
        dtype = dtypes[0] if isinstance(dtypes, (list, tuple)) else dtypes
        return _ops.cast(_creation.rand(list(size)), dtype)
    return [_random_inputs(s, d) for s, d in zip(size, dtypes)]


def _dtypes_for(size, dtype):
    return [dtype or "float32"] if _is_shape(size) else [_dtypes_for(s, dtype) for s in size]


@no_grad()
def _collect(net, input_size, dtypes, input) -> dict:
    """{'Linear-1': {input_shape, output_shape, params, trainable}} for each layer the forward runs,
    numbered by the layer's name counter."""
    rows, hooks = {}, []
    top_only = len(net.sublayers()) < 1

    def hook(layer, inputs, output):
        cls = type(layer).__name__
        try:
            key = f"{cls}-{int(layer.full_name().split('_')[-1]) + 1}"
        except ValueError:
            key = f"{cls}-{len(rows) + 1}"
        params = trainable = 0
        for p in layer._parameters.values():
            if p is None:
                continue
            size = np.prod(p.shape)
            params += size
            if p.trainable and not p.stop_gradient:
                trainable += size
        rows[key] = {"input_shape": _shapes(inputs), "output_shape": _shapes(output), "params": params,
                     "trainable": trainable}

    for layer in net.sublayers(include_self=True):
        if not isinstance(layer, (Sequential, LayerList)) and (layer is not net or top_only) or \
                getattr(layer, "could_use_cudnn", False):
            hooks.append(layer.register_forward_post_hook(hook))
    try:
        if input is not None:
            net(input)
        else:
            if not isinstance(dtypes, (list, tuple)):
                dtypes = _dtypes_for(input_size, dtypes)
            net(*_random_inputs(input_size, dtypes))
    finally:
        for h in hooks:
            h.remove()
    return rows


def _table(rows: dict, input_size) -> tuple[str, dict]:
    widths = [15, 20, 20, 15]
    for key, row in rows.items():
        cells = (key, str(row["input_shape"]), str(row["output_shape"]), str(row["params"]))
        widths = [max(w, len(c)) for w, c in zip(widths, cells)]
    width = max(75, sum(widths) + 5)

    def line(*cells) -> str:
        return " ".join(f"{c:^{w}}" for c, w in zip(cells, widths)) + "\n"

    text = "-" * width + "\n" + line("Layer (type)", "Input Shape", "Output Shape", "Param #") + "=" * width + "\n"
    total = trainable = outputs = 0
    for key, row in rows.items():
        text += line(key, str(row["input_shape"]), str(row["output_shape"]), f"{row['params']:,}")
        total += row["params"]
        trainable += row["trainable"]
        outputs += _leaf_products(row["output_shape"])
    mb = 4.0 / 1024 ** 2
    input_mb, output_mb, params_mb = _leaf_products(input_size) * mb, 2.0 * outputs * mb, total * mb
    text += "=" * width + "\n"
    text += f"Total params: {total:,}\nTrainable params: {trainable:,}\nNon-trainable params: {total - trainable:,}\n"
    text += "-" * width + "\n"
    text += (f"Input size (MB): {input_mb:0.2f}\nForward/backward pass size (MB): {output_mb:0.2f}\n"
             f"Params size (MB): {params_mb:0.2f}\nEstimated Total Size (MB): {input_mb + output_mb + params_mb:0.2f}\n")
    text += "-" * width + "\n"
    return text, {"total_params": total, "trainable_params": trainable}


def summary(net, input_size=None, dtypes=None, input=None) -> dict:
    """Print `net`'s layers, shapes and parameter counts for one forward pass on random inputs of
    `input_size` (or on `input`); returns {'total_params', 'trainable_params'}."""
    if input_size is None and input is None:
        raise ValueError("input_size and input cannot be None at the same time")
    if input_size is None:
        input_size = _input_size_of(input)
    if isinstance(input_size, list):
        sizes = []
        for item in input_size:
            item = (item,) if isinstance(item, int) else item
            if not isinstance(item, tuple):
                raise AssertionError(f"When input_size is list,             expect item in input_size is a tuple "
                                     f"or InputSpec, but got {type(item)}")
            sizes.append(item)
        input_size = sizes
    elif isinstance(input_size, int):
        input_size = (input_size,)
    input_size = _checked(input_size)
    if isinstance(input_size, tuple):
        input_size = [input_size]
    was_training = net.training
    if was_training:
        net.eval()
    try:
        text, counts = _table(_collect(net, input_size, dtypes, input), input_size)
    finally:
        if was_training:
            net.train()
    print(text)
    return counts


__all__ = ["summary"]
