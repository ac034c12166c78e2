"""flowgrad's PaddlePaddle facade: `import flowgrad.paddle as paddle`.

Paddle 3.3.1's dynamic-graph names, signatures, defaults, messages, policy and print format over
flowgrad's one engine: `stop_gradient`, `.grad` None until the first backward, `clear_grad()`
zero-filling, implicit ones seeds for any output shape, `paddle.grad` that keeps the graph,
`PyLayer`, `dump_backward_graph_path=DIR`.
"""
from __future__ import annotations

import numpy as _np

from ..tensor import Tensor as _CoreTensor
from . import _array_functions, _ops, _ops_extra, _tensor_ops
from ._creation import (arange, empty, empty_like, eye, full, full_like, get_default_dtype, linspace, normal, ones,
                        ones_like, rand, randint, randn, randperm, seed, set_default_dtype, standard_normal, to_tensor,
                        uniform, zeros, zeros_like)
from ._flags import get_flags, set_flags
from ._ops import (abs, add, add_n, all, allclose, amax, amin, any, argmax, argmin, argsort, assign, atan2, bmm,  # noqa
                   broadcast_to, cast, ceil, chunk, clip, clone, concat, cos, count_nonzero, cumsum, divide, dot,
                   einsum, equal, equal_all, erf, exp, expand, expand_as, expm1, flatten, flip, floor, floor_divide,
                   floor_mod, gather, greater_equal, greater_than, index_select, isclose, isfinite, isinf, isnan,
                   less_equal, less_than, log, log1p, log2, log10, logical_and, logical_not, logical_or, logical_xor,
                   logsumexp, masked_fill, masked_select, matmul, max, maximum, mean, min, minimum, mm, mod, multiply,
                   mv, neg, nonzero, norm, not_equal, numel, outer, pow, prod, reciprocal, remainder, reshape, round,
                   rsqrt, scale, shape, sign, sin, sort, split, sqrt, square, squeeze, stack, std, subtract, sum, t,
                   take_along_axis, tan, tanh, tile, topk, transpose, tril, triu, trunc, unbind, unsqueeze, var, where)
from ._ops_extra import atan, diag, gather_nd, kron, lerp, meshgrid, roll, scatter, unique
from ._tensor_ops import (bucketize, cummax, cummin, cumprod, histogram, index_add, index_add_, index_fill,  # noqa
                          index_fill_, repeat_interleave, searchsorted, unique_consecutive)
from ._print import set_printoptions
from ._serialization import load, save
from ._tensor import DTYPES as _DTYPES
from ._tensor import CPUPlace, CUDAPlace, Place, Size, Tensor, TensorHookRemoveHelper, dtype
from . import autograd  # noqa: E402
from .autograd import enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: E402
from . import amp, io, linalg, metric, nn, optimizer, regularizer  # noqa: E402
from . import base, device, framework, incubate  # noqa: E402
from ._summary import summary  # noqa: E402
from .device import get_device, set_device  # noqa: E402
from .base.core import is_compiled_with_cuda  # noqa: E402
from .base.framework import in_dygraph_mode as in_dynamic_mode  # noqa: E402
from .nn import ParamAttr  # noqa: E402
from .nn.layer import create_parameter  # noqa: E402

__version__ = "3.3.1+flowgrad"

float16 = _DTYPES[_np.dtype("float16")]
float32 = _DTYPES[_np.dtype("float32")]
float64 = _DTYPES[_np.dtype("float64")]
int8 = _DTYPES[_np.dtype("int8")]
int16 = _DTYPES[_np.dtype("int16")]
int32 = _DTYPES[_np.dtype("int32")]
int64 = _DTYPES[_np.dtype("int64")]
uint8 = _DTYPES[_np.dtype("uint8")]
bool = _DTYPES[_np.dtype("bool")]  # noqa: A001  (paddle's name)

for _name, _fn in {**_ops.METHODS, **_ops_extra.METHODS, **_tensor_ops.METHODS, **_array_functions.METHODS}.items():
    setattr(Tensor, _name, _fn)
globals().update(_array_functions.FUNCTIONS)
del _name, _fn


def is_tensor(x) -> bool:
    return isinstance(x, _CoreTensor)


def disable_static(place=None) -> None:
    """flowgrad only has paddle's dynamic graph, which is always on."""


def enable_static() -> None:
    raise NotImplementedError("flowgrad's paddle facade runs paddle's dynamic graph only: static graph mode is not "
                              "provided")
