"""The products PyTorch fuses with a scaled addition, `beta * self + alpha * product`, each one node
with PyTorch's name: addmm (matrix), addbmm (batch of matrices summed), baddbmm (batched), addmv
(matrix-vector) and addr (outer product). With beta 0, `self` is not read (its NaNs do not spread).
Also torch.cross, linalg.cross with its older default dim.
"""
from __future__ import annotations

import warnings

from .. import backend
from ._args import _C_INT_NAMES, check_same
from ._declare import derivative, recording
from . import elementwise as E
from . import indexing as I
from . import linalg as L
from . import linalg_decomp as LD
from . import shape as S

__all__ = ["addmm", "addbmm", "baddbmm", "addmv", "addr", "cross"]


def _scaled(grad, value):
    """PyTorch's `maybe_multiply(grad, conj(value))`: the gradient itself when `value` is 1."""
    return grad if value == 1 else grad * value.conjugate()


def _mh(t):
    """The conjugate transpose of a matrix or a batch of matrices."""
    return E.conj(S.transpose(t, -1, -2))


AddmmBackward0 = derivative(
    "AddmmBackward0", complex=True, keep="beta alpha",
    self=lambda grad, beta: _scaled(grad, beta),
    mat1=lambda grad, mat2, alpha: _scaled(L.matmul(grad, _mh(mat2)), alpha),
    mat2=lambda grad, mat1, alpha: _scaled(L.matmul(_mh(mat1), grad), alpha))
BaddbmmBackward0 = derivative(
    "BaddbmmBackward0", complex=True, keep="beta alpha",
    self=lambda grad, beta: _scaled(grad, beta),
    batch1=lambda grad, batch2, alpha: _scaled(L.matmul(grad, _mh(batch2)), alpha),
    batch2=lambda grad, batch1, alpha: _scaled(L.matmul(_mh(batch1), grad), alpha))


def _batched(grad, batch):
    return S.expand_to(S.unsqueeze(grad, 0), (batch,) + tuple(grad._data.shape))


AddbmmBackward0 = derivative(
    "AddbmmBackward0", complex=True, keep="beta alpha batch",
    self=lambda grad, beta: _scaled(grad, beta),
    batch1=lambda grad, batch2, alpha, batch: _scaled(L.matmul(_batched(grad, batch), _mh(batch2)), alpha),
    batch2=lambda grad, batch1, alpha, batch: _scaled(L.matmul(_mh(batch1), _batched(grad, batch)), alpha))
AddmvBackward0 = derivative(
    "AddmvBackward0", complex=True, keep="beta alpha",
    self=lambda grad, beta: _scaled(grad, beta),
    mat=lambda grad, vec, alpha: _scaled(S.unsqueeze(grad, 1) * S.unsqueeze(E.conj(vec), 0), alpha),
    vec=lambda grad, mat, alpha: _scaled(L.matmul(_mh(mat), grad), alpha))


def _as_grad(t, grad):
    """A saved operand conjugated, in the gradient's dtype (addr's operands promote)."""
    t = E.conj(t)
    return t if t._data.dtype == grad._data.dtype else E.cast(t, grad._data.dtype)


AddrBackward0 = derivative(
    "AddrBackward0", complex=True, keep="beta alpha",
    self=lambda grad, beta: _scaled(grad, beta),
    vec1=lambda grad, vec2, alpha: _scaled(L.matmul(grad, _as_grad(vec2, grad)), alpha),
    vec2=lambda grad, vec1, alpha: _scaled(L.matmul(S.transpose(grad, 0, 1), _as_grad(vec1, grad)), alpha))


# ------------------------------------------------------------------------------ argument checks

def _size(t, dim: int) -> int:
    """`t.size(dim)` with PyTorch's IndexError for a dim the tensor lacks."""
    nd = t._data.ndim
    if not -max(nd, 1) <= dim < max(nd, 1):
        raise t.policy.errors.dim_range(low=-max(nd, 1), high=max(nd, 1) - 1, dim=dim)
    return t._data.shape[dim] if nd else 1


def _check_out(self, sizes: tuple, in_place: bool) -> None:
    """`self` expands to the product's shape (in place: is that shape, PyTorch's first check)."""
    if in_place and tuple(self._data.shape) != sizes:
        raise self.policy.errors.inplace_sizes(input=list(self._data.shape), output=list(sizes))
    S.expanded_shape(self, sizes)


def _coefficient(t, value, name: str, dtype, exact: bool = False):
    """`beta` / `alpha` for a result of `dtype`: a complex number refused for a real result, an
    integer result truncating a float (addr, `exact`, refuses it as PyTorch's addr does)."""
    policy = t.policy
    if isinstance(value, complex) and dtype.kind != "c":
        if dtype.kind in "iu":
            raise policy.errors.value_overflow_c(name=_C_INT_NAMES[str(dtype)])
        raise policy.errors.value_overflow_float(dtype_ctype=dtype)
    if dtype.kind in "iub" and isinstance(value, float):
        if exact:
            raise policy.errors.integral_coefficient(name=name)
        return int(value)
    if exact and isinstance(value, bool) and dtype.kind != "b":
        raise policy.errors.boolean_coefficient(name=name)
    return value


def _wide(d):
    """The array a product computes on: half and bfloat16 in float32, as PyTorch's CPU kernels."""
    return d.astype("float32") if d.dtype.kind == "V" or d.dtype.itemsize == 2 and d.dtype.kind == "f" else d


def _no_bool(t, kernel: str) -> None:
    if t._data.dtype.kind == "b":
        raise t.policy.errors.not_implemented_for(op=kernel, dtype_scalar=t._data.dtype)


def _combine(x, self, product, beta, alpha, node_cls, inputs, *kept):
    """`beta * self + alpha * product` on arrays (bfloat16 summed in float32, rounded once), as a
    tensor of `x`'s facade, recording `node_cls` when an input requires grad."""
    dt = x._data.dtype
    xp = backend.namespace(product)
    out = product if alpha == 1 else product * xp.asarray(alpha, dtype=product.dtype)
    if beta != 0:
        s = _wide(self._data)
        out = out + (s if beta == 1 else s * xp.asarray(beta, dtype=s.dtype))
    res = x._out_cls._make(out.astype(dt, copy=False))
    if recording(*inputs):
        node_cls.record(inputs, res, beta, alpha, *kept)
    return res


def _same(*tensors) -> None:
    first = tensors[0]
    for t in tensors[1:]:
        if type(t)._out_cls is not first._out_cls or type(t._data) is not type(first._data):
            check_same(first._out_cls, first, t)


def _mat2_dtypes(policy, s, a, b) -> None:
    """addmm's and addbmm's dtype errors, in PyTorch's order: self against mat2, then mat1 against mat2."""
    if s.dtype != b.dtype:
        raise policy.errors.addmm_bias_dtype(a_scalar=s.dtype, b_scalar=b.dtype)
    if a.dtype != b.dtype:
        raise policy.errors.linear_dtype(a_scalar=a.dtype, b_scalar=b.dtype)


# --------------------------------------------------------------------------------------- ops

def addmm(self, mat1, mat2, beta=1, alpha=1, _in_place=False):
    """`beta * self + alpha * (mat1 @ mat2)`, `self` broadcast to the product's shape."""
    _same(self, mat1, mat2)
    policy = self.policy
    for name, t in (("mat1", mat1), ("mat2", mat2)):
        if t._data.ndim != 2:
            raise policy.errors.not_a_matrix_dims(name=name, ndim=t._data.ndim)
    a, b, s = mat1._data, mat2._data, self._data
    if a.shape[1] != b.shape[0]:
        raise policy.errors.mm_shapes(a=f"{a.shape[0]}x{a.shape[1]}", b=f"{b.shape[0]}x{b.shape[1]}")
    _check_out(self, (a.shape[0], b.shape[1]), _in_place)
    _mat2_dtypes(policy, s, a, b)
    _no_bool(self, "addmm_impl_cpu_")
    beta, alpha = _coefficient(self, beta, "beta", s.dtype), _coefficient(self, alpha, "alpha", s.dtype)
    product = backend.namespace(a).matmul(_wide(a), _wide(b))
    return _combine(self, self, product, beta, alpha, AddmmBackward0, (self, mat1, mat2))


def addbmm(self, batch1, batch2, beta=1, alpha=1, _in_place=False):
    """`beta * self + alpha * sum_i(batch1[i] @ batch2[i])`."""
    _same(self, batch1, batch2)
    policy = self.policy
    _check_out(self, (_size(batch1, 1), _size(batch2, 2)), _in_place)
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        if t._data.ndim != 3:
            raise policy.errors.not_3d(name=name)
    a, b, s = batch1._data, batch2._data, self._data
    if a.shape[0] != b.shape[0]:
        raise policy.errors.batch_counts(a=a.shape[0], b=b.shape[0])
    if a.shape[2] != b.shape[1]:
        raise policy.errors.bmm_incompatible(a=f"{a.shape[1]}x{a.shape[2]}", b=f"{b.shape[1]}x{b.shape[2]}")
    _mat2_dtypes(policy, s, a, b)
    _no_bool(self, "addmm_impl_cpu_")
    beta, alpha = _coefficient(self, beta, "beta", s.dtype), _coefficient(self, alpha, "alpha", s.dtype)
    xp = backend.namespace(a)
    product = xp.matmul(_wide(a), _wide(b)).sum(0)
    return _combine(self, self, product, beta, alpha, AddbmmBackward0, (self, batch1, batch2), a.shape[0])


def baddbmm(self, batch1, batch2, beta=1, alpha=1, _in_place=False):
    """`beta * self + alpha * (batch1 @ batch2)` over a batch of matrices."""
    _same(self, batch1, batch2)
    policy = self.policy
    _check_out(self, (_size(batch1, 0), _size(batch1, 1), _size(batch2, 2)), _in_place)
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        if t._data.ndim != 3:
            raise policy.errors.not_3d(name=name)
    a, b, s = batch1._data, batch2._data, self._data
    if s.dtype != a.dtype:
        raise policy.errors.baddbmm_dtypes(self_ctype=s.dtype, a_ctype=a.dtype, b_ctype=b.dtype)
    if b.dtype != a.dtype:     # (PyTorch's result takes batch2's dtype; its kernel, batch1's)
        if _in_place:
            raise policy.errors.inplace_dtype_mismatch(self_ctype=s.dtype, out_ctype=b.dtype)
        raise policy.errors.expected_scalar_type(a_scalar=a.dtype, b_scalar=b.dtype)
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise policy.errors.bmm_sizes(want=[a.shape[0], a.shape[2]], got=[b.shape[0], b.shape[1]])
    _no_bool(self, "baddbmm")
    beta, alpha = _coefficient(self, beta, "beta", s.dtype), _coefficient(self, alpha, "alpha", s.dtype)
    product = backend.namespace(a).matmul(_wide(a), _wide(b))
    return _combine(self, self, product, beta, alpha, BaddbmmBackward0, (self, batch1, batch2))


def addmv(self, mat, vec, beta=1, alpha=1, _in_place=False):
    """`beta * self + alpha * (mat @ vec)`."""
    _same(self, mat, vec)
    policy = self.policy
    s, m, v = self._data, mat._data, vec._data
    if s.ndim > 1:
        raise policy.errors.addmv_dims(input=s.ndim, mat=m.ndim, vec=v.ndim)
    L.check_mv(policy, s.ndim, s.size, m, v)
    if _in_place and s.shape != (m.shape[0],):
        raise policy.errors.inplace_sizes(input=list(s.shape), output=[m.shape[0]])
    if not s.dtype == m.dtype == v.dtype:
        raise policy.errors.addmv_dtypes(self_scalar=s.dtype, mat_scalar=m.dtype, vec_scalar=v.dtype)
    _no_bool(self, "addmv_impl_cpu")
    beta, alpha = _coefficient(self, beta, "beta", s.dtype), _coefficient(self, alpha, "alpha", s.dtype)
    product = backend.namespace(m).matmul(_wide(m), _wide(v))
    return _combine(self, self, product, beta, alpha, AddmvBackward0, (self, mat, vec))


def addr(self, vec1, vec2, beta=1, alpha=1, _in_place=False):
    """`beta * self + alpha * outer(vec1, vec2)`, the three promoted to one dtype; on bool tensors
    the sum is an or and the products ands."""
    _same(self, vec1, vec2)
    policy = self.policy
    for name, t in (("vec1", vec1), ("vec2", vec2)):
        if t._data.ndim != 1:
            raise policy.errors.addr_dims(name=name, ndim=t._data.ndim)
    s, a, b = self._data, vec1._data, vec2._data
    _check_out(self, (a.shape[0], b.shape[0]), _in_place)
    dt = backend.result_type((a.dtype, b.dtype) + ((s.dtype,) if s.ndim else ()), (() if s.ndim else (s.dtype,)),
                             (), backend.default_float())
    beta = _coefficient(self, beta, "beta", dt, exact=True)
    alpha = _coefficient(self, alpha, "alpha", dt, exact=True)
    xp = backend.namespace(a)
    wide = _wide(xp.zeros((), dt))
    a, b = a.astype(wide.dtype, copy=False), b.astype(wide.dtype, copy=False)
    if dt.kind == "b":
        out = xp.logical_and(a[:, None], b[None, :]) if alpha else xp.zeros((a.shape[0], b.shape[0]), bool)
        if beta:
            out = xp.logical_or(out, s)
        res = self._out_cls._make(xp.broadcast_to(out, (a.shape[0], b.shape[0])).copy())
    else:
        widened = self._new(s.astype(wide.dtype, copy=False)) if s.dtype != wide.dtype else self
        res = _combine(widened, widened, a[:, None] * b[None, :], beta, alpha, AddrBackward0, ())
        if dt != wide.dtype:
            res = self._out_cls._make(res._data.astype(dt))
    if recording(self, vec1, vec2):
        AddrBackward0.record((self, vec1, vec2), res, beta, alpha)
    return res




def cross(input, other, dim=None):
    """linalg.cross over `dim`; without one (deprecated, with PyTorch's warning), over the first dim
    of size 3 of `input`."""
    if dim is None:
        warnings.warn(input.policy.errors.cross_default_dim())
        dim = next((i for i, n in enumerate(input._data.shape) if n == 3), None)
        if dim is None:
            raise input.policy.errors.cross_no_dim()
    return LD.linalg_cross(input, other, dim=dim)


def _in_place(fn):
    def method(self, *args, **kwargs):
        return I.inplace(self, fn, *args, _in_place=True, **kwargs)
    method.__name__ = fn.__name__ + "_"
    return method


METHODS = {"addmm": addmm, "addbmm": addbmm, "baddbmm": baddbmm, "addmv": addmv, "addr": addr}
METHODS.update({name + "_": _in_place(fn) for name, fn in list(METHODS.items())})
METHODS["cross"] = cross
