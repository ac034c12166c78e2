"""The torch family's function namespace over the op table: the ops under PyTorch's names and
aliases (OneFlow uses the same), `out=` where PyTorch takes it, comparisons, dtype promotion
queries, grad-mode switches and the math constants."""
from __future__ import annotations

import builtins
import functools
import math

import numpy as np

from .. import backend
from .. import ops
from ..autograd.mode import (enable_grad, inference_mode, is_anomaly_check_nan_enabled, is_anomaly_enabled,
                             is_grad_enabled, is_inference_mode_enabled, no_grad, set_grad_enabled)
from ..nn import functional as F
from ..tensor import Tensor as _CoreTensor
from .signatures import write_out

# op-table functions under the names the torch family uses
OPS = ("abs", "add", "amax", "amin", "argmax", "argmin", "atan2", "bmm", "cat", "ceil", "chunk", "clamp", "clone",
       "cos", "cumsum", "div", "dot", "einsum", "eq", "erf", "exp", "expand", "expm1", "flatten", "flip", "floor",
       "floor_divide", "gather", "ge", "gt", "index_select", "isfinite", "isinf", "isnan", "le", "log", "log1p",
       "log2", "log10", "log_softmax", "logical_and", "logical_not", "logical_or", "logical_xor", "logsumexp", "lt",
       "masked_fill", "masked_select", "matmul", "maximum", "mean", "minimum", "mm", "movedim", "mul", "mv",
       "narrow", "ne", "neg", "nonzero", "norm", "outer", "permute", "pow", "prod", "reciprocal", "relu",
       "remainder", "repeat", "reshape", "round", "rsqrt", "scatter", "scatter_add", "select", "sigmoid", "sign",
       "sin", "softmax", "split", "sqrt", "squeeze", "stack", "std", "std_mean", "sub", "sum", "t",
       "take_along_dim", "tan", "tanh", "tile", "transpose", "tril", "triu", "trunc", "unbind", "unsqueeze", "var",
       "var_mean", "where", "count_nonzero", "addmm", "addbmm", "baddbmm", "addmv", "addr", "swapaxes", "hstack",
       "vstack", "broadcast_to", "median",
        "max", "min", "all", "any", "index_add", "index_copy", "index_fill", "scatter_reduce", "cumprod", "cummax",
        "cummin", "repeat_interleave", "bucketize", "searchsorted", "histc", "kron", "unique",
        "unique_consecutive", "cdist", "lgamma", "digamma", "polygamma", "xlogy", "erfinv", "asin", "acos", "atan",
        "sinh", "cosh", "asinh", "acosh", "atanh", "diagonal", "logaddexp", "logaddexp2", "logcumsumexp",
        "unsafe_chunk", "unsafe_split", "unsafe_split_with_sizes", "swapdims", "rot90", "tensor_split", "take", "put",
        "gcd", "lcm", "cov", "corrcoef", "cross", "quantile",
        "nanquantile", "cartesian_prod", "combinations", "vander", "isin", "histogram", "trapezoid",
        "cumulative_trapezoid")
ALIASES = {"concat": "cat", "concatenate": "cat", "multiply": "mul", "subtract": "sub", "divide": "div",
           "true_divide": "div", "negative": "neg", "clip": "clamp", "absolute": "abs", "greater": "gt",
           "less": "lt", "greater_equal": "ge", "less_equal": "le", "not_equal": "ne", "arcsin": "asin",
           "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
           "trapz": "trapezoid"}
# functions that take PyTorch's `out=` keyword
WITH_OUT = ("add", "sub", "mul", "div", "pow", "matmul", "mm", "bmm", "exp", "log", "sin", "cos", "tanh", "sigmoid",
            "sqrt", "abs", "neg", "sum", "mean", "prod", "cat", "stack", "maximum", "minimum", "clamp", "where", "relu",
            "remainder", "floor_divide", "cumsum", "multiply", "subtract", "divide", "cumprod", "logaddexp",
            "logaddexp2", "logcumsumexp")


def _with_out(fn):
    """PyTorch's `out=` keyword: results are copied into `out`, refused when autograd would need them."""

    @functools.wraps(fn)
    def wrapper(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        return write_out(fn.__name__, out, lambda: fn(*args, **kwargs), (*args, *kwargs.values()))
    wrapper._out_target = fn
    return wrapper


def build(Tensor: type, dtypes: dict) -> dict:
    """The function namespace of a torch-family facade whose tensors are `Tensor`."""

    def is_tensor(obj) -> builtins.bool:
        return isinstance(obj, _CoreTensor)

    def is_floating_point(t) -> builtins.bool:
        return t._data.dtype.kind in "fV"

    def numel(t) -> builtins.int:
        return t.numel()

    def detach(x):
        return x.detach()

    def result_type(a, b):
        _, x, y, _, _ = ops.binary_arrays(a, b)
        return dtypes[x.dtype if hasattr(x, "dtype") else y.dtype]

    def promote_types(a, b):
        return dtypes[backend.result_type((a.np, b.np), (), (), backend.default_float())]

    def can_cast(from_, to) -> builtins.bool:
        return np.can_cast(from_.np, to.np, "same_kind")

    def is_inference(t) -> builtins.bool:
        return t.is_inference()

    def block_diag(*tensors):
        return ops.block_diag(*tensors, empty_cls=Tensor)

    # activations torch offers at top level too: without F's `inplace=`, the `_` forms in place
    def selu(input):
        return F.selu(input)

    def selu_(input):
        return F.selu(input, True)

    def celu(input, alpha=1.0):
        return F.celu(input, alpha)

    def celu_(input, alpha=1.0):
        return F.celu(input, alpha, True)

    def threshold(input, threshold, value):
        return F.threshold(input, threshold, value)

    def threshold_(input, threshold, value):
        return F.threshold(input, threshold, value, True)

    def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
        return F.rrelu_drawn(input, lower, upper, training, False, generator)

    def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
        return F.rrelu_drawn(input, lower, upper, training, True, generator)

    def hardshrink(input, lambd=0.5):
        return F.hardshrink(input, lambd)

    namespace = {name: value for name, value in locals().items() if name not in ("Tensor", "dtypes")}
    namespace.update({name: getattr(ops, name) for name in OPS})
    namespace.update({alias: namespace[name] for alias, name in ALIASES.items()})
    namespace["square"] = lambda x: ops.pow(x, 2)
    for name in WITH_OUT:
        namespace[name] = _with_out(namespace[name])
    namespace.update(enable_grad=enable_grad, inference_mode=inference_mode, is_grad_enabled=is_grad_enabled,
                     is_inference_mode_enabled=is_inference_mode_enabled, no_grad=no_grad,
                     set_grad_enabled=set_grad_enabled, is_anomaly_enabled=is_anomaly_enabled,
                     is_anomaly_check_nan_enabled=is_anomaly_check_nan_enabled,
                     e=math.e, pi=math.pi, inf=math.inf, nan=math.nan)
    return namespace
