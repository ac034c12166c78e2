"""THE op table. Every differentiable primitive is declared once, in one of the modules below, by
a `derivative(...)` row beside its forward (see `_declare.py`): the node's names and one formula
per input, written with flowgrad tensor ops so create_graph works to any order. The forward runs
on arrays through the tensor's namespace and records the node with the row's `record`.

This package re-exports the ops and binds them onto Tensor as its operators and methods when it is
imported (the one place Tensor meets the op table).
"""
from __future__ import annotations

from . import names
from ._args import (as_tensor_like, binary_arrays, broadcast_error, check_same, float_array,  # noqa: F401
                    normalize_dim, normalize_dims, reraise_broadcast)
from ._declare import OpNode, derivative, edge, identity, recording, save, save_output, variant  # noqa: F401
from ..tensor import Tensor

from . import elementwise, shape, complex_numbers, indexing, reduction, linalg, nn
from .elementwise import *  # noqa: F401,F403
from .shape import *  # noqa: F401,F403
from .complex_numbers import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .reduction import *  # noqa: F401,F403
from .linalg import *  # noqa: F401,F403
from .nn import *  # noqa: F401,F403

for _mod in (elementwise, reduction, shape, complex_numbers, indexing, linalg, nn):
    for _name, _fn in getattr(_mod, "METHODS", {}).items():
        setattr(Tensor, _name, _fn)
del _mod, _name, _fn


# ------------------------------------------------------------------- in-place methods

def _inplace_method(fn):
    def method(self, *args, **kwargs):
        return inplace(self, fn, *args, **kwargs)
    method.__name__ = fn.__name__ + "_"
    return method


_INPLACE = {"add": add, "sub": sub, "subtract": sub, "mul": mul, "multiply": mul, "div": div, "divide": div,
            "pow": pow, "clamp": clamp, "clip": clamp, "relu": relu, "exp": exp, "log": log, "neg": neg,
            "abs": abs, "sqrt": sqrt, "sigmoid": sigmoid, "tanh": tanh, "sin": sin, "cos": cos, "floor": floor,
            "ceil": ceil, "round": round, "sign": sign, "reciprocal": reciprocal, "masked_fill": masked_fill,
            "fill": fill, "copy": copy_from, "scatter": scatter, "scatter_add": scatter_add, "tril": tril,
            "triu": triu, "remainder": remainder, "clamp_min": lambda x, m: clamp(x, min=m),
            "clamp_max": lambda x, m: clamp(x, max=m), "index_put": index_put}
for _name, _fn in _INPLACE.items():
    setattr(Tensor, _name + "_", _inplace_method(_fn))
for _name, _fn in (("__iadd__", add), ("__isub__", sub), ("__imul__", mul), ("__itruediv__", div),
                   ("__ipow__", pow)):
    setattr(Tensor, _name, _inplace_method(_fn))
Tensor.zero_ = lambda self: inplace(self, indexing.fill_zero)
Tensor.copy_ = lambda self, src, non_blocking=False: inplace(self, copy_from, src)
del _name, _fn
