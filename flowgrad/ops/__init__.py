"""THE op table. Every differentiable primitive is declared once, in one of the modules below:
a Node subclass whose `backward` is the derivative formula, written with flowgrad tensor ops (so
create_graph works to any order), and a function that runs the forward on arrays through the
tensor's namespace and records the node. This file holds the declaration helpers they share and
binds the operator methods onto Tensor when imported.
"""
from __future__ import annotations

import builtins as _builtins

import numpy as np

from .. import backend
from ..autograd import mode
from ..autograd.graph import Node, SavedTensor, _next_seq
from ..tensor import Tensor

_state = mode.state
_grad_enabled = mode.grad_enabled
_anomaly = mode.anomaly_enabled
_FORWARD_TRACES = mode.FORWARD_TRACES
_TRACING = mode.TRACING
_new = object.__new__
_ndarray = np.ndarray
_SCALARS = (bool, int, float)


# ------------------------------------------------------------------------------- recording

def edge(t: Tensor):
    """The gradient edge of a tensor: its grad_fn slot, or its leaf accumulator; None if it needs no grad."""
    if t is None or not t._requires_grad:
        return None
    fn = t.grad_fn
    if fn is not None:
        return (fn, t.output_nr)
    return (t._grad_accumulator(), 0)


_edge = edge


def make_node(node_cls, inputs: tuple, out, saved=None) -> Node:
    """A recorded node for one output `out`, with edges to `inputs` (Tensors or None)."""
    node = _new(node_cls)
    n = len(inputs)  # one- and two-input ops build the edge tuple without a list or a call per input
    if n == 1:
        t = inputs[0]
        fn = t.grad_fn
        node.next_edges = ((fn, t.output_nr) if fn is not None and t._requires_grad else _edge(t),)
    elif n == 2:
        a, b = inputs
        node.next_edges = (None if a is None else _edge(a), None if b is None else _edge(b))
    else:
        node.next_edges = tuple([_edge(t) for t in inputs])
    data = out._data
    node.out_meta = ((data.shape, data.dtype),)
    node.out_cls = type(out)
    node._saved = saved
    node.seq = _next_seq()
    node._hooks = node._metadata = None
    node._trace = _trace() if _TRACING[0] and (_FORWARD_TRACES[0] or _anomaly()) else None
    out._requires_grad = True
    out.grad_fn = node
    return node


def make_multi_node(node_cls, inputs: tuple, outs: list, saved=None) -> Node:
    """A recorded node with several outputs (split, max with indices, custom Functions)."""
    node = make_node(node_cls, inputs, outs[0], saved)
    node.out_meta = tuple((o._data.shape, o._data.dtype) for o in outs)
    for i, o in enumerate(outs):
        o._requires_grad = True
        o.grad_fn = node
        o.output_nr = i
    return node


def _trace():
    import traceback
    return traceback.format_stack()[:-3]


def save(t: Tensor) -> SavedTensor:
    """Save an input tensor for backward (version-checked at unpack)."""
    if t._extra is not None and t._extra.inference and not _state.inference:
        raise t.policy.error("inference_saved")
    return SavedTensor(t)


def save_output(t: Tensor) -> SavedTensor:
    return SavedTensor(t, is_output=True)


def recording(*tensors) -> bool:
    if not _grad_enabled():
        return False
    for t in tensors:
        if t is not None and t._requires_grad:
            return True
    return False


# ------------------------------------------------------------------------- arguments

def as_tensor_like(x, like: Tensor) -> Tensor:
    """A Python scalar or array-like as a tensor on `like`'s device and facade."""
    if isinstance(x, Tensor):
        return x
    xp = backend.namespace(like._data)
    if isinstance(x, _SCALARS):
        dt = backend.result_type((), (like._data.dtype,), (type(x),), backend.default_float())
        return like._new(xp.asarray(x, dtype=dt))
    return like._new(xp.asarray(x))


def check_same(cls, a: Tensor, b: Tensor) -> None:
    """Refuse tensors of two facades or two devices in one op."""
    if type(b)._out_cls is not cls:
        raise cls.policy.error("facade_mismatch", a=cls.__module__, b=type(b).__module__)
    if type(a._data) is not type(b._data) or (type(a._data) is not np.ndarray and a.device != b.device):
        raise cls.policy.error("device_mismatch", a=_dev_str(b), b=_dev_str(a))


def _dev_str(t: Tensor) -> str:
    d = t.device
    return "cpu" if d.type == "cpu" else f"{d.type}:{d.index or 0}"


def binary_arrays(a, b, float_result: bool = False):
    """Promote two operands (at least one a Tensor) PyTorch's way.
    Returns (facade class, array-or-scalar a, array-or-scalar b, tensor-or-None a, tensor-or-None b)."""
    if isinstance(a, Tensor):
        if (type(b) is float or type(b) is int) and a._data.dtype.kind == "f":  # float tensor, Python number: no promotion
            return a._out_cls, a._data, b, a, None
        ta, cls = a, a._out_cls
        tb = b if isinstance(b, Tensor) else None
    else:
        ta, tb, cls = None, b, b._out_cls
    if ta is not None and tb is not None:
        if type(tb)._out_cls is not cls or type(ta._data) is not type(tb._data):
            check_same(cls, ta, tb)
        da, db = ta._data, tb._data
        dta, dtb = da.dtype, db.dtype
        if dta == dtb and not (float_result and dta.kind != "f"):
            return cls, da, db, ta, tb
        dims = tuple(d.dtype for d in (da, db) if d.ndim)
        zeros = tuple(d.dtype for d in (da, db) if not d.ndim)
        dt = backend.result_type(dims, zeros, (), backend.default_float())
        if float_result and dt.kind != "f":
            dt = backend.default_float()
        return cls, (da if dta == dt else da.astype(dt)), (db if dtb == dt else db.astype(dt)), ta, tb
    t = ta if ta is not None else tb
    s = a if ta is None else b
    if not isinstance(s, _SCALARS):
        if isinstance(s, np.generic):
            s = s.item()
        else:
            s = as_tensor_like(s, t)
            return binary_arrays(a if ta is not None else s, s if ta is not None else b, float_result)
    d = t._data
    k = d.dtype.kind
    if (k == "f" or (type(s) is int and k in "iu") or type(s) is bool) and not (float_result and k != "f"):
        dt = d.dtype
    else:
        dt = backend.result_type((d.dtype,) if d.ndim else (), () if d.ndim else (d.dtype,), (type(s),),
                                 backend.default_float())
        if float_result and dt.kind != "f":
            dt = backend.default_float()
        d = d.astype(dt)
    if ta is not None:
        return cls, d, s, ta, None
    return cls, s, d, None, tb


def broadcast_error(a_shape, b_shape, policy=None) -> Exception | None:
    """The facade's error for two shapes that do not broadcast (PyTorch's by default); None when
    they do."""
    xs, ys = tuple(a_shape), tuple(b_shape)
    n = _builtins.max(len(xs), len(ys))
    a, b = (1,) * (n - len(xs)) + xs, (1,) * (n - len(ys)) + ys
    for i in range(n - 1, -1, -1):
        if a[i] != b[i] and a[i] != 1 and b[i] != 1:
            return (policy or Tensor.policy).error("broadcast", a=a[i], b=b[i], dim=i, x=list(xs), y=list(ys))
    return None


def reraise_broadcast(exc: ValueError, cls, x, y):
    """In `except ValueError` around an array op of facade `cls`: raise the facade's error when x
    and y (arrays or scalars) do not broadcast, else the original exception."""
    err = broadcast_error(getattr(x, "shape", ()), getattr(y, "shape", ()), cls.policy)
    if err is None:
        raise exc
    raise err from None


def float_array(t: Tensor):
    """The tensor's array, cast to the default float dtype when it is not floating (exp of an int tensor)."""
    d = t._data
    return d if d.dtype.kind == "f" else d.astype(backend.default_float())


def normalize_dim(dim: int, ndim: int) -> int:
    n = _builtins.max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def normalize_dims(dim, ndim: int) -> tuple:
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (int, np.integer)):
        dim = (int(dim),)
    dims = tuple(_builtins.sorted(normalize_dim(int(d), ndim) for d in dim))
    return dims if ndim else ()  # a 0-d tensor accepts dim 0 / -1 and has nothing to reduce


# ------------------------------------------------------------------------- the op modules

from . import elementwise, reduction, shape, indexing, linalg, nn  # noqa: E402

from .elementwise import *  # noqa: E402,F401,F403
from .reduction import *  # noqa: E402,F401,F403
from .shape import *  # noqa: E402,F401,F403
from .indexing import *  # noqa: E402,F401,F403
from .linalg import *  # noqa: E402,F401,F403
from .nn import *  # noqa: E402,F401,F403

for _mod in (elementwise, reduction, shape, indexing, linalg, nn):
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
Tensor.zero_ = lambda self: inplace(self, _zero)
Tensor.copy_ = lambda self, src, non_blocking=False: inplace(self, copy_from, src)
del _name, _fn


def _zero(x):
    out = x._out_cls._make(backend.namespace(x._data).zeros_like(x._data))
    if _grad_enabled() and x._requires_grad:
        make_node(indexing.ZeroBackward0, (x,), out)
    return out
