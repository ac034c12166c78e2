"""Matrix products: matmul (1-D, 2-D, batched, broadcast), mm, bmm, dot, mv, outer, einsum."""
from __future__ import annotations

import numpy as np

from .. import backend
from ..tensor import Tensor
from ._args import binary_arrays
from ._declare import _grad_enabled, derivative, variant
from . import elementwise as E
from . import shape as S

__all__ = ["matmul", "mm", "bmm", "dot", "mv", "outer"]


def _plain_product(x, a, b):
    """`a @ b` of two arrays as a tensor of `x`'s class: a formula's product when nothing records
    (the operands' dtypes and shapes are the forward's, so nothing to check, no view to track)."""
    return x._out_cls._make(backend.namespace(a).matmul(a, b))


def _matmul_self_grad(grad, other, ndims):
    """d(a @ b)/da: the 1-D operands are lifted to matrices, the product taken, the lift undone;
    broadcast batch dimensions are summed away by the engine."""
    nda, ndb = ndims
    if nda == ndb == 2 and not _grad_enabled():
        o = other._data
        return _plain_product(grad, grad._data, (o.conj() if o.dtype.kind == "c" else o).T)
    other = E.conj(other)
    if nda == 1 and ndb == 1:
        return grad * other
    g2 = S.unsqueeze(grad, -2) if nda == 1 else grad
    if ndb == 1:
        g2 = S.unsqueeze(g2, -1)
    ga = matmul(g2, S.transpose(S.unsqueeze(other, -1) if ndb == 1 else other, -1, -2))
    if nda == 1:
        ga = S.reshape(ga.sum(tuple(range(ga._data.ndim - 1))), (-1,))
    return ga


def _matmul_other_grad(grad, self, ndims):
    nda, ndb = ndims
    if nda == ndb == 2 and not _grad_enabled():
        s = self._data
        return _plain_product(grad, (s.conj() if s.dtype.kind == "c" else s).T, grad._data)
    self = E.conj(self)
    if nda == 1 and ndb == 1:
        return grad * self
    if nda == 2 and ndb == 1:   # matrix @ vector: A^T g
        return matmul(S.transpose(self, -1, -2), grad)
    g2 = S.unsqueeze(grad, -2) if nda == 1 else grad
    if ndb == 1:
        g2 = S.unsqueeze(g2, -1)
    gb = matmul(S.transpose(S.unsqueeze(self, 0) if nda == 1 else self, -1, -2), g2)
    if ndb == 1:
        gb = S.reshape(gb.sum(tuple(range(gb._data.ndim - 2))) if gb._data.ndim > 2 else gb, (-1,))
    return gb


# PyTorch names the product by case; paddle and OneFlow call every case from matmul() a matmul
MatmulBackward0 = derivative("MatmulBackward0", complex=True, paddle="MatmulGradNode", oneflow="matmulBackward", keep="ndims",
                             self=_matmul_self_grad, other=_matmul_other_grad)
MmBackward0 = variant(MatmulBackward0, "MmBackward0", paddle="MatmulGradNode", oneflow="matmulBackward",
                      aliases={"other": "mat2"})
BmmBackward0 = variant(MatmulBackward0, "BmmBackward0", aliases={"other": "mat2"})
DotBackward0 = variant(MatmulBackward0, "DotBackward0", aliases={"other": "tensor"})
MvBackward0 = variant(MatmulBackward0, "MvBackward0", aliases={"other": "vec"})
# the batched and mixed cases PyTorch records through a reshape
UnsafeViewMatmul = variant(MatmulBackward0, "UnsafeViewBackward0", paddle="MatmulGradNode", oneflow="matmulBackward")
SqueezeMatmul = variant(MatmulBackward0, "SqueezeBackward4", paddle="MatmulGradNode", oneflow="matmulBackward")
CloneMatmul = variant(MatmulBackward0, "CloneBackward0", paddle="MatmulGradNode", oneflow="matmulBackward")


_MATMUL_NODES = {(2, 2): MmBackward0, (1, 1): DotBackward0, (2, 1): MvBackward0, (1, 2): SqueezeMatmul}


def _shape_str(s):
    return "x".join(map(str, s))


def _product_dtype_error(a, da, db) -> Exception:
    """PyTorch's error for a product of two dtypes (products promote none), worded by the kernel
    the shapes lead to: dot, addmv, bmm or mm."""
    policy = a.policy
    xn, yn = da.ndim, db.ndim
    if xn == 1 and yn == 1:
        return policy.errors.dot_dtype(a_scalar=da.dtype, b_scalar=db.dtype)
    if yn == 1:
        return policy.errors.addmv_dtype(a_scalar=db.dtype, b_scalar=da.dtype)
    if yn >= 3:
        return policy.errors.expected_scalar_type(a_scalar=da.dtype, b_scalar=db.dtype)
    return policy.errors.mm_dtype(a_ctype=da.dtype, b_ctype=db.dtype)


def _product_shape_error(policy, xs, ys) -> Exception:
    """PyTorch's error for operands of a product whose shapes do not fit, worded by the kernel."""
    if not xs or not ys:
        return policy.errors.matmul_0d(a=len(xs), b=len(ys))
    if len(xs) == 1 and len(ys) == 1:
        return policy.errors.dot_sizes(a=xs[0], b=ys[0])
    if len(xs) == 2 and len(ys) == 1:
        return policy.errors.mv_sizes(rows=xs[0], mat=_shape_str(xs), vec=ys[0])
    xs = xs if len(xs) > 1 else (1,) + xs
    return policy.errors.mm_shapes(a=_shape_str((int(np.prod(xs[:-1])), xs[-1])), b=_shape_str(ys[-2:]))


def _bool_product_error(policy, xn: int, yn: int) -> Exception:
    kernel = "dot" if xn == yn == 1 else "addmv_impl_cpu" if yn == 1 else "bmm" if yn >= 3 else "addmm_impl_cpu_"
    return policy.errors.not_implemented_for(op=kernel, dtype_scalar=np.dtype(np.bool_))


def matmul(a, b, _node_cls=None):
    da, db = getattr(a, "_data", None), getattr(b, "_data", None)
    if da is not None and db is not None and da.dtype != db.dtype:
        raise _product_dtype_error(a, da, db)
    cls, x, y, ta, tb = binary_arrays(a, b)
    if x.ndim == 0 or y.ndim == 0 or x.shape[-1] != (y.shape[0] if y.ndim == 1 else y.shape[-2]):
        raise _product_shape_error(cls.policy, x.shape, y.shape)
    if x.dtype.kind == "b":     # (PyTorch's kernels have no bool products)
        raise _bool_product_error(cls.policy, x.ndim, y.ndim)
    xp = backend.namespace(x)
    r = xp.matmul(x, y)
    out = cls._make(r.astype(x.dtype) if x.dtype.kind == "V" else r)   # (bfloat16's product is float32)
    if _grad_enabled() and ((ta is not None and ta._requires_grad) or (tb is not None and tb._requires_grad)):
        nd = (x.ndim, y.ndim)
        node_cls = _node_cls or _MATMUL_NODES.get(nd)
        if node_cls is None:
            node_cls = CloneMatmul if nd[0] == 2 else UnsafeViewMatmul
        node_cls.record((ta, tb), out, nd)
    return out


def mm(a, b):
    if a._data.ndim != 2:
        raise a.policy.errors.not_a_matrix(name="self")
    if b._data.ndim != 2:
        raise a.policy.errors.not_a_matrix(name="mat2")
    return matmul(a, b)


def bmm(a, b):
    if a._data.ndim != 3:
        raise a.policy.errors.not_3d(name="batch1")
    if b._data.ndim != 3:
        raise a.policy.errors.not_3d(name="batch2")
    if a._data.shape[0] != b._data.shape[0]:
        raise a.policy.errors.bmm_sizes(want=[a._data.shape[0], a._data.shape[2]],
                                        got=[b._data.shape[0], b._data.shape[1]])
    return matmul(a, b, BmmBackward0)


def dot(a, b):
    if a._data.ndim != 1 or b._data.ndim != 1:
        raise a.policy.errors.dot_dims(a=a._data.ndim, b=b._data.ndim)
    return matmul(a, b)


def check_mv(policy, s_ndim: int, rows: int, m, v) -> None:
    """PyTorch's addmv checks of the dims and sizes (`s_ndim` / `rows`: its input's dims and size)."""
    if m.ndim != 2 or v.ndim != 1:
        raise policy.errors.addmv_dims(input=s_ndim, mat=m.ndim, vec=v.ndim)
    if m.shape[1] != v.shape[0] or (rows != 1 and rows != m.shape[0]):
        raise policy.errors.mv_sizes(rows=rows, mat=f"{m.shape[0]}x{m.shape[1]}", vec=v.shape[0])


def mv(a, b):
    """The product of a matrix and a vector, with PyTorch's checks (those of addmv into a new vector
    of the matrix's rows in the vector's dtype)."""
    m, v = a._data, b._data
    if m.ndim == 0:
        raise a.policy.errors.dim_of_0d(dim=0)
    check_mv(a.policy, 1, m.shape[0], m, v)
    if m.dtype != v.dtype:
        raise a.policy.errors.addmv_dtypes(self_scalar=v.dtype, mat_scalar=m.dtype, vec_scalar=v.dtype)
    if m.dtype.kind == "b":
        raise a.policy.errors.not_implemented_for(op="addmv_impl_cpu", dtype_scalar=m.dtype)
    return matmul(a, b)


def outer(a, b):
    for name, t in (("self", a), ("vec2", b)):
        if t._data.ndim != 1:
            raise a.policy.errors.outer_dims(name=name, ndim=t._data.ndim)
    return S.unsqueeze(a, -1) * S.unsqueeze(b, 0)


METHODS = {"__matmul__": matmul, "__rmatmul__": lambda self, other: matmul(other, self), "matmul": matmul,
           "mm": mm, "bmm": bmm, "dot": dot, "mv": mv, "outer": outer}
