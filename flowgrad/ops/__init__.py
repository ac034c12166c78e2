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
                    flag_argument, int_argument, is_int_tensor, normalize_dim, normalize_dims, reraise_broadcast,
                    tensor_argument)
from ._declare import OpNode, derivative, edge, identity, recording, save, save_output, variant  # noqa: F401
from ..tensor import Tensor

from . import elementwise, shape, complex_numbers, indexing, reduction, linalg, nn, special
from . import index_ops, cumulative, search, sets, tiling, einsum_notation, distance, rnn_cell, random_grads
from . import products, arrangement, integers, statistics, integration
from .elementwise import *  # noqa: F401,F403
from .shape import *  # noqa: F401,F403
from .complex_numbers import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .reduction import *  # noqa: F401,F403
from .linalg import *  # noqa: F401,F403
from .products import *  # noqa: F401,F403
from .arrangement import *  # noqa: F401,F403
from .integers import *  # noqa: F401,F403
from .statistics import *  # noqa: F401,F403
from .integration import *  # noqa: F401,F403
from .nn import *  # noqa: F401,F403
from .index_ops import *  # noqa: F401,F403
from .cumulative import *  # noqa: F401,F403
from .search import *  # noqa: F401,F403
from .sets import *  # noqa: F401,F403
from .tiling import *  # noqa: F401,F403
from .einsum_notation import *  # noqa: F401,F403
from .distance import *  # noqa: F401,F403
from .special import *  # noqa: F401,F403
from .rnn_cell import *  # noqa: F401,F403
from .random_grads import *  # noqa: F401,F403

for _mod in (elementwise, reduction, shape, complex_numbers, indexing, linalg, nn, index_ops, cumulative, search, sets,
             tiling, special, products, arrangement, integers, statistics):
    for _name, _fn in getattr(_mod, "METHODS", {}).items():
        setattr(Tensor, _name, _fn)
del _mod, _name, _fn


# ------------------------------------------------------------------- in-place methods

def _inplace_method(fn, name: str):
    def method(self, *args, **kwargs):
        return inplace(self, fn, *args, **kwargs)
    method.__name__ = name
    return method


_INPLACE = {"add": add, "sub": sub, "subtract": sub, "mul": mul, "multiply": mul, "div": div, "divide": div,
            "pow": pow, "clamp": clamp, "clip": clamp, "relu": relu, "exp": exp, "log": log, "neg": neg,
            "abs": abs, "sqrt": sqrt, "sigmoid": sigmoid, "tanh": tanh, "sin": sin, "cos": cos, "floor": floor,
            "tan": tan, "asin": asin, "arcsin": asin, "acos": acos, "arccos": acos, "atan": atan, "arctan": atan,
            "sinh": sinh, "cosh": cosh, "asinh": asinh, "arcsinh": asinh, "acosh": acosh, "arccosh": acosh,
            "atanh": atanh, "arctanh": atanh,
            "ceil": ceil, "round": round, "sign": sign, "reciprocal": reciprocal, "masked_fill": masked_fill,
            "fill": fill, "copy": copy_from, "scatter": scatter, "scatter_add": scatter_add, "tril": tril,
            "triu": triu, "remainder": remainder, "clamp_min": lambda x, m: clamp(x, min=m),
            "clamp_max": lambda x, m: clamp(x, max=m), "index_put": index_put_values, "index_add": index_add,
            "index_copy": index_copy, "index_fill": index_fill, "scatter_reduce": scatter_reduce,
            "cumprod": cumprod_inplace, "cumsum": cumsum_inplace, "gcd": gcd, "lcm": lcm,
            # comparisons in place: 1 / 0 (True / False) in self's dtype
            "eq": eq, "ne": ne, "not_equal": ne, "lt": lt, "less": lt, "le": le, "less_equal": le, "gt": gt,
            "greater": gt, "ge": ge, "greater_equal": ge}
for _name, _fn in _INPLACE.items():
    setattr(Tensor, _name + "_", _inplace_method(_fn, _name + "_"))
for _name, _fn in (("__iadd__", add), ("__isub__", sub), ("__imul__", mul), ("__itruediv__", div),
                   ("__ipow__", pow)):
    setattr(Tensor, _name, _inplace_method(_fn, _fn.__name__ + "_"))


def _abs_inplace(self):
    if self._data.dtype.kind == "c":    # (|z| is real: PyTorch writes no real result into a complex tensor)
        raise self.policy.errors.abs_complex_inplace()
    return inplace(self, abs)


_abs_inplace.__name__ = "abs_"
Tensor.abs_ = _abs_inplace
Tensor.zero_ = lambda self: inplace(self, indexing.fill_zero)
Tensor.copy_ = lambda self, src, non_blocking=False: inplace(self, copy_from, src)
del _name, _fn
