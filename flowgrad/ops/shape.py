"""Shape primitives: reshape/view, permute, transpose, expand and its reverse sum_to,
squeeze/unsqueeze, getitem (indexing by a key), cat, stack, split/chunk/unbind, flip, repeat,
tril/triu, clone, contiguous. View results share their base's array and version counter and
remember how to re-derive themselves from the base (`_view`), so an in-place op on a view can
rebase the base's history (see `indexing.inplace`)."""
from __future__ import annotations

import math
import operator

import numpy as np

from .. import backend, user_warning
from ..autograd.mode import _GradModeGuard
from ..autograd.policy import TORCH, policy_of
from ..tensor import Tensor
from ._args import dim_ints, check_same, int_argument, normalize_dim, typename
from ._declare import _grad_enabled, derivative, identity, variant
from .iterator_layout import dense_strides_in_order

__all__ = ["reshape", "view", "flatten", "unflatten", "permute", "transpose", "t", "expand", "expand_as",
           "squeeze", "unsqueeze", "cat", "stack", "split", "chunk", "unbind", "flip", "repeat", "tril", "triu",
           "clone", "contiguous", "movedim", "narrow", "select", "broadcast_to", "hstack", "vstack",
           "as_view", "parse_shape", "tile", "swapaxes", "sum_to", "getitem", "index_into_zeros", "MemoryFormat",
           "in_memory_format", "laid_out", "in_layout_of", "like_layout", "new_layout", "channels_last_rank", "memory_format_name", "diagonal", "check_fill_diagonal", "strided_reshape",
           "unsafe_split", "unsafe_split_with_sizes", "unsafe_chunk", "swapdims", "transpose_"]


def parse_shape(shape, policy=TORCH) -> tuple:
    """`f(2, 3)` and `f((2, 3))` both give (2, 3); an element is an int (or a one-element integer
    tensor), and a tensor of sizes stands for the whole shape only where the policy says so (paddle's)."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    elif len(shape) == 1 and isinstance(shape[0], Tensor) and (policy.shape_tensors or shape[0]._data.size != 1):
        if not policy.shape_tensors:
            err = policy.errors.shape_type(type="Tensor")
            err.parser_refuses = ""       # worded by a facade's argument guard as its parser words it
            raise err
        shape = shape[0].tolist()
    return tuple(s if type(s) is int else _size_int(s, policy, i) for i, s in enumerate(shape))


def _size_int(s, policy, pos: int = 0) -> int:
    """A size given as a NumPy integer or a one-element integer tensor, or a bool after the first where
    the policy says so (PyTorch's parser checks only the first element's type; anything else: its
    TypeError)."""
    if type(s) is bool and pos and policy.later_bools_are_ints:
        return int(s)
    if isinstance(s, (np.integer, Tensor)) and not isinstance(s, (bool, np.bool_)):
        d = s._data if isinstance(s, Tensor) else s
        if getattr(d, "size", 1) == 1 and d.dtype.kind in "iu":
            return int(d.reshape(()))
    if policy.shape_tensors and isinstance(s, (float, np.floating)) and float(s).is_integer():
        return int(s)
    err = policy.errors.shape_element(type=typename(s))
    err.parser_refuses = ""       # worded by a facade's argument guard as its parser words it
    raise err


def as_view(x: Tensor, out: Tensor, fn, multi: str | None = None) -> Tensor:
    """Mark `out` as a view of `x` (shared version counter; `fn(base)` re-derives it)."""
    out._vc = x._box()
    if x._view is not None:
        base, prev, _ = x._view
        out._view = (base, lambda b: fn(prev(b)), multi)
    else:
        out._view = (x, fn, multi)
    return out


def _view_out(x, arr, fn):
    out = x._out_cls._make(arr)
    # bounds overlap is enough: `arr` was just derived from x's array, so it is a view or new memory
    # (an empty one is a view where NumPy made it one of x's array or of x's base)
    d = x._data
    if (backend.namespace(arr).may_share_memory(arr, d) if arr.size and d.size else
            arr.base is not None and (arr.base is d or arr.base is getattr(d, "base", None))):
        as_view(x, out, fn)
    return out


# ---------------------------------------------------------------------------------- reshape

ViewBackward0 = derivative("ViewBackward0", paddle="ReshapeGradNode", oneflow="reshapeBackward", keep="in_shape",
                           self=lambda grad, in_shape: reshape(grad, in_shape))
# a reshape that had to copy (non-contiguous input) is an UnsafeView in PyTorch
UnsafeViewBackward0 = variant(ViewBackward0, "UnsafeViewBackward0", paddle="ReshapeGradNode", oneflow="reshapeBackward")
# a reshape of a non-contiguous tensor that still is a view (PyTorch's _reshape_alias)
ReshapeAliasBackward0 = variant(ViewBackward0, "ReshapeAliasBackward0", paddle="ReshapeGradNode", oneflow="reshapeBackward")


def _check_shape(x, shape):
    n = x._data.size
    known = 1
    neg = 0
    for i, s in enumerate(shape):
        if s == -1:
            neg += 1
        elif s < 0:
            raise x.policy.errors.shape_dim_invalid(size=s, index=i, shape=list(shape))
        else:
            known *= s
    if neg > 1:
        raise x.policy.errors.shape_infer_twice()
    if (neg and (known == 0 or n % known)) or (not neg and known != n):
        raise x.policy.errors.shape_invalid(shape=list(shape), numel=n)


def reshape(x, *shape):
    shape = parse_shape(shape, x.policy)
    d = x._data
    if d.shape == shape:
        r = d.view()
    else:
        _check_shape(x, shape)
        r = d.reshape(shape)
    out = _view_out(x, r, lambda b: reshape(b, shape))
    if _grad_enabled() and x._requires_grad:
        (ViewBackward0 if out._view is not None or not r.size else UnsafeViewBackward0).record((x,), out, d.shape)
    return out


def strided_reshape(x, shape: tuple):
    """reshape recorded as PyTorch records it by x's strides: a view of a contiguous tensor
    (ViewBackward0), another view (ReshapeAliasBackward0), or a contiguous copy then a view of it
    (CloneBackward0, UnsafeViewBackward0)."""
    d = x._data
    if d.flags.c_contiguous:
        return view(x, shape)
    r = d.view()
    try:
        r.shape = shape
    except AttributeError:
        x = clone(x)
        out = x._out_cls._make(x._data.reshape(shape))
        node_cls = UnsafeViewBackward0
    else:
        out = _view_out(x, r, lambda b: strided_reshape(b, shape))
        node_cls = ReshapeAliasBackward0
    if _grad_enabled() and x._requires_grad:
        node_cls.record((x,), out, d.shape)
    return out


def view_dtype(x, dtype):
    """x's memory read as `dtype` (the bits reinterpreted, not the values converted): a view that
    records no gradient; elements of another size change the last dimension."""
    d = x._data
    dt = backend.to_np_dtype(dtype)
    if dt.itemsize != d.itemsize:
        policy = x.policy
        if d.ndim == 0:
            raise policy.errors.view_dtype_0d(self_scalar=d.dtype, want_scalar=dt)
        if d.strides[-1] != d.itemsize and d.shape[-1] > 1:
            raise policy.errors.view_dtype_stride(self_scalar=d.dtype, want_scalar=dt,
                                                  stride=d.strides[-1] // d.itemsize)
        if dt.itemsize > d.itemsize and d.shape[-1] % (dt.itemsize // d.itemsize):
            raise policy.errors.view_dtype_size(ratio=dt.itemsize // d.itemsize, self_scalar=d.dtype,
                                                want_scalar=dt, size=d.shape[-1])
    out = x._out_cls._make(d.view(dt))
    return as_view(x, out, lambda b: view_dtype(b, dtype))


def view(x, *shape, dtype=None):
    """`x` in another shape (or, given a dtype, positionally or as `dtype=`, its bits as that dtype)."""
    if dtype is not None:
        if shape:       # (a shape and a dtype: no overload of PyTorch's takes both)
            err = x.policy.errors.shape_type(type="torch.dtype")
            err.parser_refuses = "dtype"
            raise err
        return view_dtype(x, dtype)
    if not shape:
        raise x.policy.errors.argument_missing(fn="view", argument="size")
    if len(shape) == 1 and not isinstance(shape[0], (tuple, list, int, Tensor)):
        return view_dtype(x, shape[0])
    shape = parse_shape(shape, x.policy)
    _check_shape(x, shape)
    r = x._data.view()
    try:
        r.shape = backend.namespace(r).empty(0).reshape(0).shape if False else shape
    except AttributeError:
        raise x.policy.errors.view_stride() from None
    except ValueError:
        r = x._data.reshape(shape)
    out = x._out_cls._make(r)
    as_view(x, out, lambda b: view(b, shape))
    if _grad_enabled() and x._requires_grad:
        ViewBackward0.record((x,), out, x._data.shape)
    return out


def flatten(x, start_dim=0, end_dim=-1):
    nd = x._data.ndim
    if nd == 0:
        return reshape(x, (1,))
    s, e = normalize_dim(start_dim, nd), normalize_dim(end_dim, nd)
    if s > e:
        raise x.policy.errors.flatten_dims()
    if s == e:
        return x
    shp = x._data.shape
    n = 1
    for v in shp[s:e + 1]:
        n *= v
    return reshape(x, shp[:s] + (n,) + shp[e + 1:])


def unflatten(x, dim, sizes):
    """`x` with dim `dim` split into `sizes` (one of them may be -1)."""
    if not sizes:       # (a tensor of several sizes: its truth value's error, as PyTorch's method gives)
        raise x.policy.errors.unflatten_empty()
    if not isinstance(sizes, (tuple, list)):
        err = x.policy.errors.argument_type(fn="unflatten", argument="sizes", expected="tuple of ints",
                                            type=typename(sizes))
        err.parser_refuses = "sizes"      # (worded by the facade's argument guard, with its position)
        raise err
    dim = normalize_dim(dim, x._data.ndim)
    shp = x._data.shape
    return reshape(x, shp[:dim] + parse_shape((sizes,), x.policy) + shp[dim + 1:])


# ---------------------------------------------------------------------------------- permute

def _inverse_permutation(dims) -> list:
    inv = [0] * len(dims)
    for i, d in enumerate(dims):
        inv[d] = i
    return inv


PermuteBackward0 = derivative("PermuteBackward0", paddle="TransposeGradNode", keep="dims",
                              self=lambda grad, dims: permute(grad, _inverse_permutation(dims)))


def permute(x, *dims):
    dims = parse_shape(dims, x.policy)
    nd = x._data.ndim
    if len(dims) != nd:
        raise x.policy.errors.permute_dims(ndim=nd, given=len(dims))
    dims = tuple(normalize_dim(d, nd) for d in dims)
    out = _view_out(x, x._data.transpose(dims), lambda b: permute(b, dims))
    if _grad_enabled() and x._requires_grad:
        PermuteBackward0.record((x,), out, dims)
    return out


def movedim(x, source, destination):
    nd = x._data.ndim
    src, dst = normalize_dim(source, nd), normalize_dim(destination, nd)
    order = [i for i in range(nd) if i != src]
    order.insert(dst, src)
    return permute(x, order)


TransposeBackward0 = derivative("TransposeBackward0", keep="dim0 dim1",
                                self=lambda grad, dim0, dim1: transpose(grad, dim0, dim1))


def transpose(x, dim0, dim1):
    nd = x._data.ndim
    d0, d1 = normalize_dim(dim0, nd), normalize_dim(dim1, nd)
    out = _view_out(x, x._data.swapaxes(d0, d1) if nd else x._data.view(), lambda b: transpose(b, d0, d1))
    if _grad_enabled() and x._requires_grad:
        TransposeBackward0.record((x,), out, d0, d1)
    return out


swapaxes = swapdims = transpose


TBackward0 = derivative("TBackward0", paddle="TransposeGradNode", self=lambda grad: t(grad))


def t(x):
    nd = x._data.ndim
    if nd > 2:
        raise x.policy.errors.t_dims(op="t", ndim=nd)
    out = _view_out(x, x._data.T if nd == 2 else x._data.view(), t)
    if _grad_enabled() and x._requires_grad:
        TBackward0.record((x,), out)
    return out


# ------------------------------------------------------------- view ops in place (x.t_(), ...)

# PyTorch's names for the in-place forms
TransposeBackward1 = variant(TransposeBackward0, "TransposeBackward1")
TBackward1 = variant(TBackward0, "TBackward1")


def _view_in_place(x, view_fn, node_cls, *kept):
    """x takes the shape and strides of `view_fn(x)` (computed unrecorded): its history gains
    `node_cls` (PyTorch's in-place variant, recorded with `kept`), its version counts one change,
    and a view stays a view of its base."""
    if _grad_enabled() and x._requires_grad and x._grad_fn is None:
        raise x.policy.errors.leaf_inplace(tensor=x)
    with _GradModeGuard(False):
        out = view_fn(x)
    before = None
    if _grad_enabled() and x._requires_grad:
        before = x._new(x._data)
        before._requires_grad, before._grad_fn, before.output_nr = True, x._grad_fn, x.output_nr
    x._data = out._data
    if x._view is not None:
        x._view = out._view
    if before is not None:
        node_cls.record((before,), x, *kept)
    x._bump()
    return x


def transpose_(x, dim0, dim1):
    nd = x._data.ndim
    d0, d1 = normalize_dim(dim0, nd), normalize_dim(dim1, nd)
    return _view_in_place(x, lambda v: transpose(v, d0, d1), TransposeBackward1, d0, d1)


def t_(x):
    if x._data.ndim > 2:
        raise x.policy.errors.t_dims(op="t_", ndim=x._data.ndim)
    return _view_in_place(x, t, TBackward1)


# ----------------------------------------------------------------------------------- expand

ExpandBackward0 = derivative("ExpandBackward0", keep="in_shape", self=lambda grad, in_shape: sum_to(grad, in_shape))


def expand(x, *sizes):
    return expand_to(x, expanded_shape(x, parse_shape(sizes, x.policy)))


def expanded_shape(x, sizes: tuple) -> tuple:
    """The shape `x.expand(*sizes)` makes (-1 keeps a dim), with PyTorch's errors where `x` does not
    expand to it (the last mismatching dim named, as PyTorch checks from the right)."""
    d = x._data
    if len(sizes) < d.ndim:
        raise x.policy.errors.expand_sizes(type=x.policy.type_name(d.dtype), shape=list(d.shape), sizes=list(sizes),
                                           given=len(sizes), ndim=d.ndim)
    lead = len(sizes) - d.ndim
    shape = tuple(d.shape[i - lead] if s == -1 else s for i, s in enumerate(sizes))
    for i in reversed(range(d.ndim)):
        if d.shape[i] != 1 and d.shape[i] != shape[lead + i]:
            raise x.policy.errors.expand_size(want=shape[lead + i], have=d.shape[i], dim=lead + i,
                                              sizes=list(sizes), shape=list(d.shape))
    return shape


def expand_to(x, shape: tuple):
    """`expand` to a full, already validated shape tuple (what backward formulas call)."""
    d = x._data
    r = d.view() if shape == d.shape else backend.broadcast(d, shape)
    out = x._out_cls._make(r)
    as_view(x, out, lambda b: expand_to(b, shape))
    if _grad_enabled() and x._requires_grad:
        ExpandBackward0.record((x,), out, d.shape)
    return out


SumToSizeBackward0 = derivative("SumToSizeBackward0", keep="in_shape",
                                self=lambda grad, in_shape: expand_to(grad, in_shape))


def sum_to(x, shape: tuple):
    """Sum `x` down to `shape` (the reverse of broadcasting); the engine's one unbroadcast. `x`
    itself when it has that shape already, as in PyTorch."""
    d = x._data
    shape = tuple(shape)
    if d.shape == shape:
        return x
    lead = d.ndim - len(shape)
    if lead < 0:
        return reshape(x, shape)
    inner = tuple(i for i, s in enumerate(shape) if s == 1 and d.shape[lead + i] != 1)
    r = d.sum(axis=tuple(range(lead))) if lead else d   # no reshape: the result owns its memory
    if inner:
        r = r.sum(axis=inner, keepdims=True)
    if r.shape != shape:
        r = r.reshape(shape)
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        SumToSizeBackward0.record((x,), out, d.shape)
    return out


def expand_as(x, other):
    return expand(x, other._data.shape)


def broadcast_to(x, shape):
    return expand(x, tuple(shape) if isinstance(shape, (tuple, list)) else (shape,))


# ---------------------------------------------------------------------------- (un)squeeze

SqueezeBackward0 = variant(ViewBackward0, "SqueezeBackward0")
SqueezeBackward1 = variant(ViewBackward0, "SqueezeBackward1")
UnsqueezeBackward0 = variant(ViewBackward0, "UnsqueezeBackward0")


def squeeze(x, dim=None):
    d = x._data
    if dim is None:
        shape = tuple(s for s in d.shape if s != 1)
        node_cls = SqueezeBackward0
    else:
        dims = (dim,) if isinstance(dim, int) else dim_ints(dim)
        dims = {normalize_dim(i, d.ndim) for i in dims}
        shape = tuple(s for i, s in enumerate(d.shape) if not (i in dims and s == 1))
        node_cls = SqueezeBackward1
    out = _view_out(x, d.reshape(shape), lambda b: squeeze(b, dim))
    if _grad_enabled() and x._requires_grad:
        node_cls.record((x,), out, d.shape)
    return out


def unsqueeze(x, dim):
    d = x._data
    dim = normalize_dim(dim, d.ndim + 1)
    shape = d.shape[:dim] + (1,) + d.shape[dim:]
    out = _view_out(x, d.reshape(shape), lambda b: unsqueeze(b, dim))
    if _grad_enabled() and x._requires_grad:
        UnsqueezeBackward0.record((x,), out, d.shape)
    return out


SqueezeBackward3 = variant(ViewBackward0, "SqueezeBackward3")
SqueezeBackward4 = variant(ViewBackward0, "SqueezeBackward4")
SqueezeBackward5 = variant(ViewBackward0, "SqueezeBackward5")
UnsqueezeBackward1 = variant(ViewBackward0, "UnsqueezeBackward1")


_EVERY_DIM = object()


def squeeze_(x, dim=_EVERY_DIM):
    """x with its size-1 dims (all, or those of `dim`: an int or a sequence, not None) removed in place."""
    if dim is _EVERY_DIM:
        dim, node_cls = None, SqueezeBackward3
    else:
        node_cls = SqueezeBackward5 if isinstance(dim, (tuple, list)) else SqueezeBackward4
        dim = dim_ints(dim)
    return _view_in_place(x, lambda v: squeeze(v, dim), node_cls, x._data.shape)


def unsqueeze_(x, dim):
    return _view_in_place(x, lambda v: unsqueeze(v, dim), UnsqueezeBackward1, x._data.shape)


# ------------------------------------------------------------------------------ cat / stack

def _cat_grads(grad, dim, sizes, grad_input_mask) -> tuple:
    outs = []
    start = 0
    for needed, n in zip(grad_input_mask, sizes):
        outs.append(narrow(grad, dim, start, n) if needed and n else None)
        start += n
    return tuple(outs)


CatBackward0 = derivative("CatBackward0", paddle="ConcatGradNode", keep="dim sizes", variadic=True, tensors=_cat_grads)


def _tensors_arg(tensors, name):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise policy_of(tensors).errors.tensors_arg_type(fn=name, type=type(tensors).__name__)
    if not tensors:
        raise TORCH.errors.cat_empty() if name == "cat" else TORCH.errors.stack_empty()
    return list(tensors)


def _common(tensors):
    first = tensors[0]
    cls = first._out_cls
    dts = [t._data.dtype for t in tensors]
    dt = dts[0]
    for other in tensors[1:]:
        if type(other)._out_cls is not cls or type(other._data) is not type(first._data):
            check_same(cls, first, other)
        if other._data.dtype != dt:
            dt = backend.result_type(tuple(dts), (), (), backend.default_float())
            break
    return cls, [t._data if t._data.dtype == dt else t._data.astype(dt) for t in tensors]


def cat(tensors, dim=0):
    tensors = _tensors_arg(tensors, "cat")
    cls, arrays = _common(tensors)
    nd = max(a.ndim for a in arrays)
    keep = [(t, a) for t, a in zip(tensors, arrays) if not (a.ndim == 1 and a.shape[0] == 0 and nd > 1)]
    dim = normalize_dim(dim, nd)
    ref = keep[0][1].shape if keep else ()
    for i, (t, a) in enumerate(keep):
        if a.ndim != len(ref):
            raise t.policy.errors.cat_ndim(want=len(ref), got=a.ndim)
        for k in range(a.ndim):
            if k != dim and a.shape[k] != ref[k]:
                raise t.policy.errors.cat_sizes(dim=dim, want=ref[k], got=a.shape[k], index=i)
    xp = backend.namespace(arrays[0])
    out = cls._make(xp.concatenate([a for _, a in keep], axis=dim) if keep else arrays[0].copy())
    if _grad_enabled() and any(t._requires_grad for t in tensors):
        CatBackward0.record(tuple(tensors), out, dim, tuple(a.shape[dim] if a.ndim == nd else 0 for a in arrays))
    return out


concat = cat


StackBackward0 = derivative("StackBackward0", keep="dim", variadic=True,
                            tensors=lambda grad, dim, grad_input_mask: tuple(
                                select(grad, dim, i) if needed else None for i, needed in enumerate(grad_input_mask)))


def stack(tensors, dim=0):
    tensors = _tensors_arg(tensors, "stack")
    cls, arrays = _common(tensors)
    s0 = arrays[0].shape
    for i, a in enumerate(arrays):
        if a.shape != s0:
            raise tensors[i].policy.errors.stack_sizes(first=list(s0), other=list(a.shape), index=i)
    dim = normalize_dim(dim, arrays[0].ndim + 1)
    out = cls._make(backend.namespace(arrays[0]).stack(arrays, axis=dim))
    if _grad_enabled() and any(t._requires_grad for t in tensors):
        StackBackward0.record(tuple(tensors), out, dim)
    return out


def _tensor_sequence(tensors, fn: str) -> None:
    if not isinstance(tensors, (tuple, list)):
        raise policy_of(tensors).errors.argument_type_at(fn=fn, argument="tensors", position=1,
                                                         expected="tuple of Tensors", type=typename(tensors))


def hstack(tensors):
    _tensor_sequence(tensors, "hstack")
    return cat(tensors, 0 if tensors[0]._data.ndim == 1 else 1)


def vstack(tensors):
    _tensor_sequence(tensors, "vstack")
    return cat([t if t._data.ndim > 1 else reshape(t, (1, -1)) for t in tensors], 0)


# --------------------------------------------------------------------------- split / unbind

SplitBackward0 = derivative("SplitBackward0", paddle="SplitWithNumGradNode", keep="dim", many_outputs=True,
                            self=lambda grads, dim: cat(grads, dim))
SplitWithSizesBackward0 = variant(SplitBackward0, "SplitWithSizesBackward0", paddle="SplitGradNode")
UnbindBackward0 = derivative("UnbindBackward0", keep="dim", many_outputs=True,
                             self=lambda grads, dim: stack(grads, dim))


def _multi_views(x, arrays, node_cls, op_name, dim, fns):
    outs = [x._out_cls._make(a) for a in arrays]
    for o, fn in zip(outs, fns):
        as_view(x, o, fn, op_name)
    if _grad_enabled() and x._requires_grad:
        node_cls.record((x,), outs, dim)
    return tuple(outs)


def _split_parts(x, split_size_or_sections, dim) -> tuple:
    """(dim, the parts' arrays, their starts and sizes, whether sizes were listed) of a split."""
    d = x._data
    if not d.ndim:
        raise x.policy.errors.split_0d()
    dim = normalize_dim(dim, d.ndim)
    n = d.shape[dim]
    if isinstance(split_size_or_sections, (int, np.integer)) or (isinstance(split_size_or_sections, Tensor) and
                                                                  not split_size_or_sections._data.ndim):
        step = split_size_or_sections = int_argument(split_size_or_sections, x.policy, sym=True)
        if step < 0:
            raise x.policy.errors.split_negative(size=step)
        if step == 0 and n:
            raise x.policy.errors.split_zero(size=n)
        bounds = list(range(0, n, step)) if n else [0]
        sizes = [min(step, n - b) for b in bounds]
    else:
        sizes = list(split_size_or_sections)
        if any(s < 0 for s in sizes):
            raise x.policy.errors.split_sizes_negative(sizes=sizes)
        if sum(sizes) != n:
            raise x.policy.errors.split_sizes(size=n, dim=dim, sizes=sizes)
    starts = np.cumsum([0] + sizes[:-1]).tolist()
    arrays = [_slice_dim(d, dim, s, k) for s, k in zip(starts, sizes)]
    return dim, arrays, starts, sizes, not isinstance(split_size_or_sections, int)


def _split_size_of_tensor(x, sizes: Tensor) -> int:
    """PyTorch's Tensor.split reads a tensor of sizes as `int(sizes)`: one element of any dtype is a
    size; a tensor it cannot convert goes on as the list of sizes, which its parser refuses."""
    a = sizes._data
    if a.size == 1:
        v = a.reshape(-1)[0].item()
        v = v.real if isinstance(v, complex) else v
        if math.isfinite(v):
            return int(v)
    raise x.policy.errors.argument_type_at(fn="split_with_sizes", argument="split_sizes", position=2,
                                           expected="tuple of ints", type="Tensor")


def split(x, split_size_or_sections, dim=0):
    if isinstance(split_size_or_sections, Tensor):
        split_size_or_sections = _split_size_of_tensor(x, split_size_or_sections)
    dim, arrays, starts, sizes, listed = _split_parts(x, split_size_or_sections, dim)
    fns = [(lambda s, k: (lambda b: narrow(b, dim, s, k)))(s, k) for s, k in zip(starts, sizes)]
    return _multi_views(x, arrays, SplitWithSizesBackward0 if listed else SplitBackward0, "Split", dim, fns)


def _chunk_size(x, chunks, dim) -> int:
    if not x._data.ndim:
        raise x.policy.errors.chunk_0d()
    chunks = int_argument(chunks, x.policy)
    if chunks <= 0:
        raise x.policy.errors.chunk_count(chunks=chunks)
    n = x._data.shape[normalize_dim(dim, x._data.ndim)]
    return max(-(-n // chunks) if n else 1, 1)


def chunk(x, chunks, dim=0):
    return split(x, _chunk_size(x, chunks, dim), dim)


UnsafeSplitBackward0 = variant(SplitBackward0, "UnsafeSplitBackward0")
UnsafeSplitWithSizesBackward0 = variant(SplitBackward0, "UnsafeSplitWithSizesBackward0")


def _unsafe_parts(x, split_size_or_sections, dim) -> tuple:
    """A split whose parts autograd does not treat as views (they share x's memory all the same: an
    in-place change of x or of a part is not tracked across them)."""
    dim, arrays, _, _, listed = _split_parts(x, split_size_or_sections, dim)
    outs = [x._out_cls._make(a) for a in arrays]
    if _grad_enabled() and x._requires_grad:
        (UnsafeSplitWithSizesBackward0 if listed else UnsafeSplitBackward0).record((x,), outs, dim)
    return tuple(outs)


def unsafe_split(x, split_size: int, dim=0):
    """split into parts of `split_size` along `dim`, not views for autograd (see `_unsafe_parts`)."""
    return _unsafe_parts(x, int_argument(split_size, x.policy, sym=True), dim)


def unsafe_split_with_sizes(x, split_sizes, dim=0):
    """split into parts of the listed sizes along `dim`, not views for autograd. Anything but a list
    or tuple of integers fails with Python's own TypeError, which a facade's argument check words."""
    listed = split_sizes if isinstance(split_sizes, (list, tuple)) else None
    return _unsafe_parts(x, [operator.index(s) for s in listed], dim)


def unsafe_chunk(x, chunks, dim=0):
    """chunk through unsafe_split (PyTorch's recurrent cells split their gates so)."""
    return _unsafe_parts(x, _chunk_size(x, chunks, dim), dim)


def unbind(x, dim=0):
    d = x._data
    dim = normalize_dim(dim, d.ndim)
    arrays = [_index_dim(d, dim, i) for i in range(d.shape[dim])]
    fns = [(lambda i: (lambda b: select(b, dim, i)))(i) for i in range(d.shape[dim])]
    return _multi_views(x, arrays, UnbindBackward0, "Unbind", dim, fns)


def _slice_dim(d, dim, start, length):
    key = (slice(None),) * dim + (slice(start, start + length),)
    return d[key]


def _index_dim(d, dim, i):
    return d[(slice(None),) * dim + (i,)]


def narrow(x, dim, start, length):
    d = x._data
    policy = x.policy
    if d.ndim == 0:
        raise policy.errors.narrow_0d()
    dim = normalize_dim(dim, d.ndim)
    n = d.shape[dim]
    start, length = int_argument(start, policy), int_argument(length, policy)
    if not -n <= start <= n:
        raise policy.errors.narrow_start(low=-n, high=n, start=start)
    if start < 0:
        start += n
    if length < 0:
        raise policy.errors.narrow_length()
    if start + length > n:
        raise policy.errors.narrow_size(start=start, length=length, size=n)
    return getitem(x, (slice(None),) * dim + (slice(start, start + length),))


def select(x, dim, index):
    dim = normalize_dim(dim, x._data.ndim)
    index = int_argument(index, x.policy, sym=True)
    return getitem(x, (slice(None),) * dim + (index,))


# ------------------------------------------------------------------------------ diagonal

def _diagonal_array(d, offset: int, dim1: int, dim2: int):
    """The diagonal of array `d` over (dim1, dim2) as a strided view, moved to the last dim."""
    rows, cols = d.shape[dim1], d.shape[dim2]
    count = max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))
    if count:
        start = [0] * d.ndim
        start[dim2 if offset >= 0 else dim1] = abs(offset)
        d = d[tuple(slice(s, None) for s in start)]
    rest = [k for k in range(d.ndim) if k not in (dim1, dim2)]
    shape = tuple(d.shape[k] for k in rest) + (count,)
    strides = tuple(d.strides[k] for k in rest) + (d.strides[dim1] + d.strides[dim2],)
    return backend.namespace(d).lib.stride_tricks.as_strided(d, shape, strides)


def _diagonal_dims(x, offset, dim1, dim2) -> tuple:
    nd = x._data.ndim
    k1, k2 = normalize_dim(dim1, nd, x.policy), normalize_dim(dim2, nd, x.policy)
    if k1 == k2:
        raise x.policy.errors.diagonal_same_dims(a=dim1, b=dim2)
    return int(offset), k1, k2


DiagonalBackwardBackward0 = derivative(
    "DiagonalBackwardBackward0", keep="offset dim1 dim2",
    grad_output=lambda grad, offset, dim1, dim2: diagonal(grad, offset, dim1, dim2))


def check_fill_diagonal(x) -> None:
    """PyTorch's fill_diagonal_ checks: two dims at least, every dim of one length beyond 2-D."""
    shape = x._data.shape
    if len(shape) < 2:
        raise x.policy.errors.fill_diagonal_dims()
    if len(shape) > 2 and len(set(shape)) > 1:
        raise x.policy.errors.fill_diagonal_lengths()


def diagonal_backward(grad, in_shape: tuple, offset: int, dim1: int, dim2: int):
    """Zeros of `in_shape` holding `grad` on the diagonal (offset, dim1, dim2): diagonal's adjoint."""
    d = grad._data
    z = backend.namespace(d).zeros(in_shape, dtype=d.dtype)
    _diagonal_array(z, offset, dim1, dim2)[...] = d
    out = grad._out_cls._make(z)
    if _grad_enabled() and grad._requires_grad:
        DiagonalBackwardBackward0.record((grad,), out, offset, dim1, dim2)
    return out


DiagonalBackward0 = derivative(
    "DiagonalBackward0", complex=True, keep="self_sym_sizes offset dim1 dim2",
    self=lambda grad, self_sym_sizes, offset, dim1, dim2: diagonal_backward(grad, self_sym_sizes, offset, dim1, dim2))


def diagonal(x, offset=0, dim1=0, dim2=1):
    """PyTorch's diagonal: a view of the diagonal over (dim1, dim2), along a new last dim."""
    offset, k1, k2 = _diagonal_dims(x, offset, dim1, dim2)
    out = _view_out(x, _diagonal_array(x._data, offset, k1, k2), lambda b: diagonal(b, offset, k1, k2))
    if _grad_enabled() and x._requires_grad:
        DiagonalBackward0.record((x,), out, x._data.shape, offset, k1, k2)
    return out


# --------------------------------------------------------------------------- flip / repeat

FlipBackward0 = derivative("FlipBackward0", keep="dims", self=lambda grad, dims: flip(grad, dims))


def flip(x, *dims):
    dims = parse_shape(dims, x.policy) if dims else ()
    dims = tuple(normalize_dim(i, x._data.ndim) for i in dims)
    if len(set(dims)) != len(dims):
        raise x.policy.errors.dims_repeated(dim=next(i for i in dims if dims.count(i) > 1))
    d = x._data      # (a 0-d tensor flips along its one dim 0 / -1: unchanged)
    out = x._out_cls._make(backend.namespace(d).flip(d, axis=dims).copy() if dims and d.ndim else d.copy())
    if _grad_enabled() and x._requires_grad:
        FlipBackward0.record((x,), out, dims)
    return out


def _repeat_grad(grad, in_shape, repeats):
    """Each tile's gradient summed: the gradient as (repeat, size) pairs, summed over the repeats."""
    lead = len(repeats) - len(in_shape)
    shape = (1,) * lead + tuple(in_shape)
    split_shape, tile_shape = [], []
    for r, s in zip(repeats, shape):
        split_shape += [r, s]
        tile_shape += [1, s]
    return reshape(sum_to(reshape(grad, tuple(split_shape)), tuple(tile_shape)), in_shape)


RepeatBackward0 = derivative("RepeatBackward0", paddle="TileGradNode", keep="in_shape repeats", self=_repeat_grad)


def repeat(x, *repeats):
    repeats = parse_shape(repeats, x.policy)
    d = x._data
    if len(repeats) < d.ndim:
        raise x.policy.errors.repeat_dims()
    out = x._out_cls._make(backend.namespace(d).tile(d, repeats))
    if _grad_enabled() and x._requires_grad:
        RepeatBackward0.record((x,), out, d.shape, repeats)
    return out


def tile(x, *dims):
    dims = parse_shape(dims, x.policy)
    dims = (1,) * (x._data.ndim - len(dims)) + dims
    return repeat(x, dims)


# ----------------------------------------------------------------------------- tril / triu

TrilBackward0 = derivative("TrilBackward0", keep="diagonal", self=lambda grad, diagonal: tril(grad, diagonal))
TriuBackward0 = derivative("TriuBackward0", keep="diagonal", self=lambda grad, diagonal: triu(grad, diagonal))


def tril(x, diagonal=0):
    if x._data.ndim < 2:
        raise x.policy.errors.triangle_dims(op="tril")
    diagonal = int_argument(diagonal, x.policy)
    out = x._out_cls._make(backend.namespace(x._data).tril(x._data, diagonal))
    if _grad_enabled() and x._requires_grad:
        TrilBackward0.record((x,), out, diagonal)
    return out


def triu(x, diagonal=0):
    if x._data.ndim < 2:
        raise x.policy.errors.triangle_dims(op="triu")
    diagonal = int_argument(diagonal, x.policy)
    out = x._out_cls._make(backend.namespace(x._data).triu(x._data, diagonal))
    if _grad_enabled() and x._requires_grad:
        TriuBackward0.record((x,), out, diagonal)
    return out


# ----------------------------------------------------------------------------- clone

CloneBackward0 = derivative("CloneBackward0", paddle="AssignGradNode", self=identity)


class MemoryFormat:
    """A memory layout, PyTorch's `torch.memory_format`: contiguous_format, channels_last (rank 4),
    channels_last_3d (rank 5) or preserve_format. A facade makes the instances it names (`module`
    is its name, for the repr)."""

    __slots__ = ("name", "module")

    def __init__(self, name: str, module: str) -> None:
        self.name, self.module = name, module

    def __repr__(self) -> str:
        return f"{self.module}.{self.name}"


_CHANNELS_LAST_RANK = {"channels_last": 4, "channels_last_3d": 5}


def memory_format_name(x, memory_format, op: str):
    """The name of `memory_format` (None stays None), refusing anything that is not one."""
    if memory_format is None:
        return None
    if not isinstance(memory_format, MemoryFormat):
        raise x.policy.errors.memory_format_type(op=op, type=type(memory_format).__name__)
    rank = _CHANNELS_LAST_RANK.get(memory_format.name)
    if rank is not None and x._data.ndim != rank:
        raise x.policy.errors.memory_format_rank(rank=rank, name=memory_format.name)
    return memory_format.name


def _channels_order(ndim: int) -> tuple:
    return (0, *range(2, ndim), 1)


def in_memory_format(d, name) -> bool:
    """Whether array `d` is laid out as the named memory format (None: contiguous)."""
    if name in _CHANNELS_LAST_RANK:
        return bool(d.transpose(_channels_order(d.ndim)).flags.c_contiguous)
    return bool(d.flags.c_contiguous)


def laid_out(d, name):
    """A copy of array `d` in the named memory format (None: C-contiguous; preserve_format: the
    strides PyTorch keeps, `preserved_strides`)."""
    if name == "preserve_format":
        return in_layout_of(d, d.copy())
    if name in _CHANNELS_LAST_RANK:
        order = _channels_order(d.ndim)
        return d.transpose(order).copy().transpose(tuple(order.index(i) for i in range(d.ndim)))
    return d.copy()


def in_layout_of(d, values):
    """`values` (a new array of `d`'s shape) laid out as PyTorch's preserve_format copy of array `d`
    (the `*_like` creators' default): `values` itself where that is C order."""
    if d.flags.c_contiguous and 1 not in d.shape:    # (a size-1 dim's stride may be any)
        return values
    xp = backend.namespace(values)
    out = xp.lib.stride_tricks.as_strided(xp.empty(values.size, dtype=values.dtype), d.shape,
                                          tuple(s * values.itemsize for s in preserved_strides(d)))
    out[...] = values
    return out


def like_layout(x, values, memory_format, op: str):
    """`values` (a new array of `x`'s shape) laid out as `op(x, memory_format=...)` (a `*_like`
    creator) lays out its result: preserve_format (the default) keeps `x`'s layout."""
    name = memory_format_name(x, memory_format, op) or "preserve_format"
    if name == "preserve_format":
        return in_layout_of(x._data, values)
    return laid_out(values, name) if name in _CHANNELS_LAST_RANK else values


def new_layout(x, memory_format, op: str):
    """`x` (a new tensor) laid out in `memory_format`, as `op` (torch.empty) lays out what it makes:
    contiguous by default, preserve_format refused (there is no tensor to preserve)."""
    name = memory_format_name(x, memory_format, op)
    if name == "preserve_format":
        raise x.policy.errors.memory_format_preserve_new()
    return x._out_cls._make(laid_out(x._data, name)) if name in _CHANNELS_LAST_RANK else x


def preserved_strides(d) -> list:
    """The strides (in elements) of PyTorch's preserve_format copy of array `d`: its own where its
    elements fill a block of memory exactly (non-overlapping and dense), else dense strides in the
    order of its own (PyTorch's infer_dense_strides)."""
    sizes, strides = d.shape, [s // d.itemsize for s in d.strides]
    if _dense(sizes, strides):
        return strides

    def swap(a, b) -> int:
        if strides[a] == 0 or strides[b] == 0:
            return 0
        if strides[a] != strides[b]:
            return 1 if strides[a] > strides[b] else -1
        return 1 if sizes[a] > sizes[b] else 0

    return dense_strides_in_order(sizes, swap, empty_as_one=True)


def _dense(sizes, strides) -> bool:
    """PyTorch's is_non_overlapping_and_dense: the elements fill a block of memory exactly, in some
    order of the dims."""
    if len(sizes) == 1:
        return sizes[0] < 2 or strides[0] == 1
    need = 1
    for i in sorted(range(len(sizes)), key=lambda i: (sizes[i] < 2, strides[i] if sizes[i] >= 2 else 0)):
        if sizes[i] < 2:
            return True
        if strides[i] != need:
            return False
        need *= sizes[i]
    return True


def channels_last_rank(memory_format) -> int | None:
    """The rank a channels-last memory format applies to (None for the others)."""
    return _CHANNELS_LAST_RANK.get(memory_format.name)


def clone(x, memory_format=None):
    """A copy; `memory_format` lays it out (the default, preserve_format, keeps the strides of a
    dense tensor, as PyTorch's does)."""
    return _copy(x, memory_format_name(x, memory_format, "clone") or "preserve_format")


def _copy(x, name):
    out = x._out_cls._make(laid_out(x._data, name))
    if _grad_enabled() and x._requires_grad:
        CloneBackward0.record((x,), out)
    return out


def contiguous(x, memory_format=None):
    name = memory_format_name(x, memory_format, "contiguous")
    if in_memory_format(x._data, name):
        return x
    if name == "preserve_format":
        raise x.policy.errors.contiguous_preserve()
    return _copy(x, name)


# ---------------------------------------------------------------------------------- getitem

_INDEX_DTYPES = (np.dtype(np.int64), np.dtype(np.int32), np.dtype(np.uint8), np.dtype(np.bool_))


def _array_key(k, xp, policy):
    if isinstance(k, Tensor):
        a = k._data
        if a.dtype not in _INDEX_DTYPES:
            raise policy.errors.index_tensor_dtype()
        if a.dtype == np.uint8:   # a mask, as PyTorch still reads it
            user_warning.warn(policy.errors.index_uint8())
            return a.astype(np.bool_)
        return a
    if isinstance(k, (list, np.ndarray)):   # (a sequence or array of floats indexes truncated, as in PyTorch)
        a = xp.asarray(k)
        return a.astype(np.int64) if a.dtype.kind in "fV" else a
    if isinstance(k, (float, np.floating)):
        raise policy.errors.index_type(type=typename(k))
    return k


def normalize_key(key, xp, policy) -> tuple:
    """A tuple key with tensors/lists turned into arrays; returns (key, is_advanced)."""
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    advanced = False
    for k in key:
        k = _array_key(k, xp, policy)
        if isinstance(k, (bool, np.bool_)):
            k = xp.asarray(k)
        if hasattr(k, "dtype") and hasattr(k, "ndim"):
            advanced = True
        elif isinstance(k, slice) and k.step is not None and k.step <= 0:
            raise policy.errors.slice_step()
        out.append(k)
    return tuple(out), advanced


IndexBackward0 = derivative("IndexBackward0", paddle="IndexSelectGradNode", keep="in_shape key",
                            self=lambda grad, in_shape, key: index_into_zeros(grad, in_shape, key))
SelectBackward0 = variant(IndexBackward0, "SelectBackward0", paddle="SliceGradNode")
SliceBackward0 = variant(IndexBackward0, "SliceBackward0")
# PyTorch's names for what a basic key does: only None -> unsqueeze; only Ellipsis -> alias
UnsqueezeIndexBackward = variant(IndexBackward0, "UnsqueezeBackward0")
AliasIndexBackward = variant(IndexBackward0, "AliasBackward0")


def _node_for_key(key, advanced):
    if advanced:
        if len(key) == 1 and getattr(key[0], "ndim", 1) == 0 and key[0].dtype.kind in "iu":
            return SelectBackward0
        return IndexBackward0
    real = [k for k in key if k is not Ellipsis]
    if not real:
        return AliasIndexBackward
    if all(k is None for k in real):
        return UnsqueezeIndexBackward
    last = next((k for k in reversed(real) if k is not None), None)
    return SelectBackward0 if isinstance(last, (int, np.integer)) else SliceBackward0


def getitem(x, key):
    d = x._data
    xp = backend.namespace(d)
    key, advanced = normalize_key(key, xp, x.policy)
    try:
        r = d[key]
        if not advanced and r.ndim == 0 and not any(k is Ellipsis for k in key):
            # NumPy gives a scalar (a copy) for a key of integers only; with an Ellipsis, a 0-d view
            r = d[(*key, Ellipsis)]
    except IndexError as exc:
        raise IndexError(str(exc).replace("axis", "dimension")) from None
    out = x._out_cls._make(r)
    if not advanced:
        as_view(x, out, lambda b: getitem(b, key))
    if _grad_enabled() and x._requires_grad:
        _node_for_key(key, advanced).record((x,), out, d.shape, key)
    return out


IndexIntoZerosBackward = derivative("IndexIntoZerosBackward", keep="key", self=lambda grad, key: getitem(grad, key))


def index_into_zeros(g, shape, key):
    """Zeros of `shape` with `g` added at `key` (duplicates accumulate): the adjoint of getitem."""
    d = g._data
    xp = backend.namespace(d)
    z = xp.zeros(shape, dtype=d.dtype)
    if any(hasattr(k, "ndim") for k in key):
        xp.add.at(z, key, d)
    else:
        z[key] = d
    out = g._out_cls._make(z)
    if _grad_enabled() and g._requires_grad:
        IndexIntoZerosBackward.record((g,), out, key)
    return out


METHODS = {
    "reshape": reshape, "view": view, "flatten": flatten, "unflatten": unflatten, "permute": permute,
    "transpose": transpose, "swapaxes": transpose, "t": t, "expand": expand, "expand_as": expand_as,
    "squeeze": squeeze, "unsqueeze": unsqueeze, "split": split, "chunk": chunk, "unbind": unbind, "flip": flip,
    "repeat": repeat, "tile": tile, "tril": tril, "triu": triu, "clone": clone, "contiguous": contiguous,
    "unsafe_chunk": unsafe_chunk, "unsafe_split": unsafe_split, "unsafe_split_with_sizes": unsafe_split_with_sizes,
    "movedim": movedim, "narrow": narrow, "diagonal": diagonal, "select": select, "broadcast_to": broadcast_to,
    "__getitem__": getitem, "swapdims": transpose, "t_": t_, "transpose_": transpose_, "swapaxes_": transpose_,
    "swapdims_": transpose_, "squeeze_": squeeze_, "unsqueeze_": unsqueeze_,
    "view_as": lambda self, other: view(self, other._data.shape),
    "reshape_as": lambda self, other: reshape(self, other._data.shape),
    "T": property(lambda self: permute(self, tuple(range(self._data.ndim - 1, -1, -1)))),
    "mT": property(lambda self: transpose(self, -2, -1)),
}
