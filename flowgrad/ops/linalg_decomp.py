"""torch.linalg's decompositions, solvers and matrix functions, batched over leading dims: inv, det,
slogdet, solve, solve_triangular, cholesky, qr, eigh, svd, pinv, lstsq, lu, lu_factor, matrix_exp,
cross (primitives), and the norms, logdet, matrix_power, lu_solve, cond, ... (compositions).

Each primitive runs on the tensor's array namespace and records PyTorch's node (LinalgInvExBackward0,
...) with formulas in flowgrad tensor code, so gradients of any order come from the same rows. The
norms are compositions (as in PyTorch: matrix_norm(ord=2) is an amax over svdvals).
"""
from __future__ import annotations

from .. import backend
import numpy as np
from ..autograd.policy import policy_of
from ._args import broadcast_error, int_argument, normalize_dim
from ._declare import _grad_enabled, derivative, save_output
from . import elementwise as E
from . import reduction as R
from . import shape as S
from .indexing import getitem
from .linalg import matmul

__all__ = ["linalg_inv", "linalg_det", "linalg_slogdet", "linalg_solve", "vector_norm", "matrix_norm",
           "linalg_norm", "linalg_svd", "linalg_svdvals", "linalg_eigh", "linalg_eigvalsh", "linalg_cholesky",
           "linalg_qr", "linalg_pinv", "linalg_lstsq", "linalg_matrix_exp", "logdet", "matrix_power", "multi_dot",
           "vecdot", "solve_triangular", "linalg_cross", "matrix_rank", "cond", "diagonal", "vander", "tensorinv",
           "tensorsolve", "linalg_lu", "linalg_lu_factor", "lu_solve"]

_LOW = ("float16", "bfloat16")


# ----------------------------------------------------------------------------------- helpers

def _mT(x):
    return S.transpose(x, -1, -2)


def _eye_like(x, n):
    d = x._data
    return x._new(backend.namespace(d).eye(n, dtype=d.dtype))


def _diag_embed(v):
    """Batched diagonal matrices from the last dim of `v` (differentiable: a broadcast product)."""
    return S.unsqueeze(v, -1) * _eye_like(v, v._data.shape[-1])


def _diagonal(a):
    """The main diagonals of a batch of square matrices (differentiable: a masked sum)."""
    return R.sum(a * _eye_like(a, a._data.shape[-1]), -1)


def _check_float(x, op, low=False):
    """PyTorch's dtype checks of a linalg function: float or complex input; `low` refuses half types."""
    d = x._data
    if d.dtype.kind not in "fcV":
        raise x.policy.errors.linalg_float(op=op, dtype_scalar=d.dtype)
    if low and str(d.dtype) in _LOW:
        raise x.policy.errors.linalg_low_precision(op=op, dtype_scalar=d.dtype)


def _check_matrix(x, op, name="A", square=True):
    d = x._data
    if d.ndim < 2:
        raise x.policy.errors.linalg_min_2d(op=op, name=name)
    if square and d.shape[-1] != d.shape[-2]:
        raise x.policy.errors.linalg_square(op=op, rows=d.shape[-2], cols=d.shape[-1])


def _square_float(x, op, low=False):
    _check_float(x, op, low=low)
    _check_matrix(x, op)


def _singular_pivot(xp, a) -> int:
    """1-based index of the first zero pivot of LU with partial pivoting on one matrix (0 if none)."""
    a = xp.array(a, copy=True)
    n = a.shape[-1]
    for k in range(n):
        p = k + int(xp.argmax(xp.abs(a[k:, k])))
        if a[p, k] == 0:
            return k + 1
        if p != k:
            a[[k, p]] = a[[p, k]]
        a[k + 1:, k:] -= xp.outer(a[k + 1:, k] / a[k, k], a[k, k:])
    return 0


def _each(d):
    """(batch index, matrix) over the leading dims of a batch of matrices."""
    flat = d.reshape((-1,) + d.shape[-2:])
    return enumerate(flat)


def _inv_error(x, op):
    d = x._data
    xp = backend.namespace(d)
    for b, m in _each(d):
        index = _singular_pivot(xp, m)
        if index:
            if d.ndim > 2:
                return x.policy.errors.linalg_inv_singular_batch(op=op, batch=b, index=index)
            return x.policy.errors.linalg_inv_singular(op=op, index=index)
    return x.policy.errors.linalg_inv_singular(op=op, index=d.shape[-1])


def _lin_alg_error(xp):
    return getattr(getattr(xp, "linalg", None), "LinAlgError", ())


# ------------------------------------------------------------------------------------- inverse

LinalgInvExBackward0 = derivative("LinalgInvExBackward0", aliases={"result": "inverse"},
                                  self=lambda grad, result: -matmul(matmul(_mT(result), grad), _mT(result)))


def _per_matrix(x, fn, info_of):
    """fn over each matrix of x's batch: the failed ones NaN, with info_of(matrix) as their info."""
    d = x._data
    xp = backend.namespace(d)
    flat = d.reshape((-1,) + d.shape[-2:])
    outs, infos = [], []
    for m in flat:
        try:
            outs.append(fn(m))
            infos.append(0)
        except _lin_alg_error(xp):
            outs.append(xp.full(m.shape, float("nan"), dtype=d.dtype))
            infos.append(info_of(m))
    r = xp.stack(outs).reshape(d.shape) if outs else xp.zeros(d.shape, d.dtype)
    return r, xp.asarray(infos, dtype="int32").reshape(d.shape[:-2])


def linalg_inv(x, _op="linalg.inv", check_errors=True):
    """The inverse; `check_errors=False` (inv_ex) returns (inverse, info) with NaN where singular.
    `_op` names the function in a singularity error (the argument checks are linalg.inv's)."""
    _square_float(x, "linalg.inv", low=True)
    d = x._data
    xp = backend.namespace(d)
    try:
        r = xp.linalg.inv(d)
        info = xp.zeros(d.shape[:-2], dtype="int32")
    except _lin_alg_error(xp):
        if check_errors:
            raise _inv_error(x, _op) from None
        r, info = _per_matrix(x, xp.linalg.inv, lambda m: _singular_pivot(xp, m))
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        LinalgInvExBackward0.record((x,), out)
    return out if check_errors else (out, x._out_cls._make(info))


# --------------------------------------------------------------------------------- determinants

def _det_grad(grad, self, result):
    """det(A) A^{-T} g; an exactly singular matrix gets a zero gradient, as in PyTorch."""
    singular = result._data == 0
    if bool(backend.namespace(singular).any(singular)):
        mask = result._new(singular[..., None, None])
        self = E.where(mask, _eye_like(self, self._data.shape[-1]), self)
    return S.unsqueeze(S.unsqueeze(grad * result, -1), -1) * _mT(linalg_inv(self))


LinalgDetBackward0 = derivative("LinalgDetBackward0", aliases={"self": "A"}, self=_det_grad)


def linalg_det(x):
    _check_float(x, "linalg.det")
    _check_matrix(x, "linalg.det")
    d = x._data
    if str(d.dtype) in _LOW:
        raise x.policy.errors.linalg_not_implemented(kernel="lu_cpu", dtype_scalar=d.dtype)
    out = x._out_cls._make(backend.namespace(d).linalg.det(d))
    if _grad_enabled() and x._requires_grad:
        LinalgDetBackward0.record((x,), out)
    return out


def _slogdet_grad(grads, self):
    """g A^{-T}: not finite at a singular matrix (as PyTorch's), rather than an error."""
    return S.unsqueeze(S.unsqueeze(grads[1], -1), -1) * _mT(linalg_inv(self, check_errors=False)[0])


LinalgSlogdetBackward0 = derivative("LinalgSlogdetBackward0", aliases={"self": "A"}, many_outputs=True,
                                    self=_slogdet_grad)


def linalg_slogdet(x):
    _check_float(x, "linalg.slogdet")
    _check_matrix(x, "linalg.slogdet")
    _check_float(x, "linalg.slogdet", low=True)     # (after the shape, as PyTorch checks)
    d = x._data
    xp = backend.namespace(d)
    with backend.quiet(xp):
        sign, logabs = xp.linalg.slogdet(d)
    if d.dtype.kind != "c":     # a NaN determinant has sign 0, as LAPACK's pivots give PyTorch
        sign = xp.where(xp.isnan(logabs), 0, sign)
    outs = [x._out_cls._make(sign.astype(d.dtype)), x._out_cls._make(logabs.astype(d.real.dtype))]
    if _grad_enabled() and x._requires_grad:
        LinalgSlogdetBackward0.record((x,), outs)     # the sign gets no gradient, as in PyTorch
    return tuple(outs)


# ------------------------------------------------------------------------------------- solve

def _solve_b_grad(grad, A, vector):
    return _solve_arrays_grad(A, grad, vector)


def _solve_arrays_grad(A, grad, vector):
    g = S.unsqueeze(grad, -1) if vector else grad
    gb = linalg_solve(_mT(A), g)
    return S.squeeze(gb, -1) if vector else gb


def _solve_a_grad(grad, A, result, vector):
    gb = _solve_arrays_grad(A, grad, vector)
    if vector:
        return -S.unsqueeze(gb, -1) * S.unsqueeze(result, -2)
    return -matmul(gb, _mT(result))


LinalgSolveExBackward0 = derivative("LinalgSolveExBackward0", keep="vector", aliases={"result": "result"},
                                    A=_solve_a_grad, B=_solve_b_grad)


def linalg_solve(A, B, left=True, check_errors=True, _op="torch.linalg.solve", _info=False):
    """X with AX = B (`left=False`: XA = B); B is a (batch of) vector(s) when it has one dim fewer
    than A and A's leading shape. `_info` (solve_ex) returns (X, info); without `check_errors`, X
    is NaN where A is singular; `_op` names the function in a singularity error."""
    op = "linalg.solve"
    if not left:
        res = linalg_solve(_mT(A), _mT(B), True, check_errors, _op, _info)
        return (_mT(res[0]), res[1]) if _info else _mT(res)
    _check_float(A, op)
    _check_matrix(A, op)
    da, db = A._data, B._data
    if da.dtype != db.dtype:
        raise A.policy.errors.linalg_same_dtype(op=op, a_scalar=da.dtype, b_scalar=db.dtype)
    vector = db.ndim == 1 or (db.ndim == da.ndim - 1 and db.shape == da.shape[:-1])
    n = da.shape[-1]
    b_rows = db.shape[-1] if vector else db.shape[-2]
    if db.ndim == 0 or b_rows != n:
        raise A.policy.errors.linalg_solve_shapes(op=op, a_rows=n, a_cols=n, b_rows=b_rows if db.ndim else 1,
                                                  b_cols=1 if vector or db.ndim < 2 else db.shape[-1])
    xp = backend.namespace(da)
    bb = db[..., None] if vector else db
    batch = xp.broadcast_shapes(da.shape[:-2], bb.shape[:-2])
    a_full, b_full = xp.broadcast_to(da, batch + da.shape[-2:]), xp.broadcast_to(bb, batch + bb.shape[-2:])
    info = xp.zeros(batch, dtype="int32")
    try:
        r = xp.linalg.solve(a_full, b_full)
    except _lin_alg_error(xp):
        if check_errors:
            raise A.policy.errors.linalg_solve_singular(op=_op) from None
        inv, info = _per_matrix(A._new(a_full), xp.linalg.inv, lambda m: _singular_pivot(xp, m))
        r = inv @ b_full
    out = A._out_cls._make(r[..., 0] if vector else r)
    if _grad_enabled() and (A._requires_grad or B._requires_grad):
        LinalgSolveExBackward0.record((A, B), out, vector)
    return (out, A._out_cls._make(info)) if _info else out


# --------------------------------------------------------------------------------------- norms

def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    d = x._data
    if d.dtype.kind not in "fcV":
        raise x.policy.errors.norm_dtype(dtype_scalar=d.dtype)
    if dtype is not None:
        x = x.to(dtype)
        d = x._data
    dims = None
    if dim is not None:
        dims = [dim] if isinstance(dim, int) else list(dim)
        seen = set()
        for k in dims:
            k = normalize_dim(k, d.ndim, x.policy)
            if k in seen:
                raise x.policy.errors.linalg_dim_repeated(dim=k)
            seen.add(k)
        dims = tuple(dims)
    if d.size == 0 and (ord < 0 or ord == float("inf")):
        if dims is None or any(d.shape[k] == 0 for k in dims):
            raise x.policy.errors.linalg_norm_empty(ord=ord)
    return R.norm(x, ord, dim=dims, keepdim=keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    op = "linalg.matrix_norm"
    if dtype is not None and A._data.dtype.kind in "fcV":
        A = A.to(dtype)
    d = A._data
    if d.ndim < 2:
        raise A.policy.errors.linalg_min_2d(op=op, name="A")
    if isinstance(dim, int) or len(dim) != 2:
        raise A.policy.errors.linalg_matrix_norm_dim(dim=dim)
    d0, d1 = (normalize_dim(k, d.ndim, A.policy) for k in dim)
    if d0 == d1:
        raise A.policy.errors.linalg_matrix_norm_same_dims(a=dim[0], b=dim[1])
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise A.policy.errors.linalg_matrix_norm_ord(ord=ord)
    elif ord not in (1, -1, 2, -2, float("inf"), float("-inf")):
        raise A.policy.errors.linalg_matrix_norm_ord(ord=ord)
    if d.dtype.kind not in "fcV":
        raise A.policy.errors.linalg_float(op=op, dtype_scalar=d.dtype)
    if ord == "fro":
        return R.norm(A, 2, dim=(d0, d1), keepdim=keepdim)
    if ord in ("nuc", 2, -2):
        perm = [k for k in range(d.ndim) if k not in (d0, d1)] + [d0, d1]
        moved = S.permute(A, perm) if perm != list(range(d.ndim)) else A
        sv = linalg_svdvals(moved)
        if ord == "nuc" or (ord == 2 and sv._data.shape[-1] == 0):      # PyTorch: 0 (order -2 raises)
            out = R.sum(sv, -1)
        else:
            out = R.amax(sv, -1) if ord == 2 else R.amin(sv, -1)
        if keepdim:
            lo, hi = sorted((d0, d1))
            out = S.unsqueeze(S.unsqueeze(out, lo), hi)
        return out
    # 1 / inf: the largest absolute column / row sum (-1 / -inf: the smallest)
    inner, outer = (d0, d1) if abs(ord) == 1 else (d1, d0)
    sums = R.norm(A, 1, dim=(inner,), keepdim=keepdim)
    if not keepdim and inner < outer:
        outer -= 1
    if ord > 0 and sums._data.shape[outer] == 0:     # the largest of no sums: 0
        return R.sum(sums, outer, keepdim=keepdim)
    return R.amax(sums, outer, keepdim=keepdim) if ord > 0 else R.amin(sums, outer, keepdim=keepdim)


def linalg_norm(x, ord=None, dim=None, keepdim=False, *, dtype=None):
    d = x._data
    if dim is not None:
        dims = [dim] if isinstance(dim, int) else list(dim)
        if len(dims) not in (1, 2):
            raise x.policy.errors.linalg_norm_dim_len(dim=dims)
    elif ord is not None:
        if d.ndim not in (1, 2):
            raise x.policy.errors.linalg_norm_ndim(ndim=d.ndim)
        if isinstance(ord, str) or d.ndim == 2:
            return matrix_norm(x, ord, (-2, -1), keepdim, dtype=dtype)
        dims = [0]
    else:
        dims = None
    if dims is not None and (len(dims) == 2 or isinstance(ord, str)):
        if isinstance(ord, str) and len(dims) != 2:
            raise x.policy.errors.linalg_matrix_norm_dim(dim=dim)
        return matrix_norm(x, "fro" if ord is None else ord, dims, keepdim, dtype=dtype)
    return vector_norm(x, 2 if ord is None else ord, dims, keepdim, dtype=dtype)


# --------------------------------------------------------------------- spectral decompositions

def _absent(g) -> bool:
    """A gradient the engine materialised as zeros for an unused output (PyTorch's undefined grad)."""
    return not g._requires_grad and not bool(backend.namespace(g._data).any(g._data))


def _outputs(x, arrays):
    outs = [x._out_cls._make(a) for a in arrays]
    for i, o in enumerate(outs):
        o.output_nr = i
    return outs


def _skew(x):
    return x - _mT(x)


def _svd_grad(grads, U, Sv, Vh):
    """PyTorch's svd_backward for real inputs (full matrices narrowed to the first k vectors)."""
    gU, gS, gVh = grads
    m, n, k = U._data.shape[-2], Vh._data.shape[-1], Sv._data.shape[-1]
    if U._data.shape[-1] != k:
        U, gU = S.narrow(U, -1, 0, k), S.narrow(gU, -1, 0, k)
    if Vh._data.shape[-2] != k:
        Vh, gVh = S.narrow(Vh, -2, 0, k), S.narrow(gVh, -2, 0, k)
    use_u, use_v = not _absent(gU), not _absent(gVh)
    if not use_u and not use_v:
        return matmul(U * S.unsqueeze(gS, -2), Vh)
    V, gV = _mT(Vh), _mT(gVh)
    S2 = Sv * Sv
    eye = _eye_like(Sv, k)
    Em = S.unsqueeze(S2, -2) - S.unsqueeze(S2, -1) + eye
    UhgU = _skew(matmul(_mT(U), gU)) if use_u else None
    VhgV = _skew(matmul(Vh, gV)) if use_v else None
    if use_u and use_v:
        ret = (UhgU * S.unsqueeze(Sv, -2) + S.unsqueeze(Sv, -1) * VhgV) / Em
    elif use_u:
        ret = (UhgU / Em) * S.unsqueeze(Sv, -2)
    else:
        ret = S.unsqueeze(Sv, -1) * (VhgV / Em)
    ret = ret + _diag_embed(gS)
    if m > k and use_u:
        gUSinv = gU / S.unsqueeze(Sv, -2)
        gA = matmul(U, ret) + gUSinv - matmul(U, matmul(_mT(U), gUSinv))
        return matmul(gA, Vh)
    if n > k and use_v:
        gVSinv = gV / S.unsqueeze(Sv, -2)
        gA = matmul(ret, Vh) + _mT(gVSinv) - matmul(matmul(_mT(gVSinv), V), Vh)
        return matmul(U, gA)
    return matmul(matmul(U, ret), Vh)


LinalgSvdBackward0 = derivative("LinalgSvdBackward0", many_outputs=True, save="U Sv Vh", aliases={"Sv": "S"},
                                self=_svd_grad)


def _real(dt):
    """The dtype of singular values and eigenvalues of a Hermitian matrix: real, of dt's precision."""
    return np.dtype(dt.char.lower()) if dt.kind == "c" else dt


def linalg_svd(x, full_matrices=True, driver=None, _op="linalg.svd"):
    if driver is not None and backend.device_of(x._data).type != "cuda":
        raise x.policy.errors.linalg_svd_driver()
    _check_float(x, _op)
    _check_matrix(x, _op, square=False)
    d = x._data
    u, s, vh = backend.namespace(d).linalg.svd(d, full_matrices=full_matrices)
    outs = _outputs(x, [u.astype(d.dtype), s.astype(_real(d.dtype)), vh.astype(d.dtype)])
    if _grad_enabled() and x._requires_grad:
        LinalgSvdBackward0.record((x,), outs, *[save_output(o) for o in outs])
    return tuple(outs)


def linalg_svdvals(x):
    """The singular values, recorded as PyTorch does: output 1 of a reduced svd."""
    if _grad_enabled() and x._requires_grad:
        return linalg_svd(x, False)[1]
    _check_float(x, "linalg.svd")
    _check_matrix(x, "linalg.svd", square=False)
    d = x._data
    return x._out_cls._make(backend.namespace(d).linalg.svd(d, compute_uv=False).astype(_real(d.dtype)))


def _eigh_grad(grads, L, V):
    gL, gV = grads
    ret = _diag_embed(gL)
    if not _absent(gV):
        n = L._data.shape[-1]
        VhgV = _skew(matmul(_mT(V), gV)) * 0.5
        Em = S.unsqueeze(L, -2) - S.unsqueeze(L, -1) + _eye_like(L, n)
        ret = ret + VhgV / Em
    return matmul(matmul(V, ret), _mT(V))


LinalgEighBackward0 = derivative("LinalgEighBackward0", many_outputs=True, save="L V",
                                 aliases={"L": "eigenvalues", "V": "eigenvectors"}, self=_eigh_grad)


def linalg_eigh(x, UPLO="L", _op="linalg.eigh"):
    if UPLO not in ("L", "U"):
        raise x.policy.errors.linalg_uplo(uplo=UPLO)
    d = x._data
    _check_matrix(x, _op, square=False)   # (dims before the dtype, as PyTorch checks)
    if d.dtype.kind not in "fcV":
        raise x.policy.errors.linalg_not_implemented(kernel="linalg_eigh_cpu", dtype_scalar=d.dtype)
    _check_matrix(x, _op)
    w, v = backend.namespace(d).linalg.eigh(d, UPLO=UPLO)
    outs = _outputs(x, [w.astype(_real(d.dtype)), v.astype(d.dtype)])
    if _grad_enabled() and x._requires_grad:
        LinalgEighBackward0.record((x,), outs, *[save_output(o) for o in outs])
    return tuple(outs)


def linalg_eigvalsh(x, UPLO="L"):
    if _grad_enabled() and x._requires_grad:
        return linalg_eigh(x, UPLO)[0]
    if UPLO not in ("L", "U"):
        raise x.policy.errors.linalg_uplo(uplo=UPLO)
    d = x._data
    _check_matrix(x, "linalg.eigh", square=False)
    if d.dtype.kind not in "fcV":
        raise x.policy.errors.linalg_not_implemented(kernel="linalg_eigh_cpu", dtype_scalar=d.dtype)
    _check_matrix(x, "linalg.eigh")
    return x._out_cls._make(backend.namespace(d).linalg.eigvalsh(d, UPLO=UPLO).astype(_real(d.dtype)))


# ---------------------------------------------------------------------------------- cholesky

def _tril_inverse_solve(L, X):
    """L^{-T} X L^{-1} for lower-triangular L (through solve: differentiable to any order)."""
    Y = linalg_solve(_mT(L), X)
    return _mT(linalg_solve(_mT(L), _mT(Y)))


def _cholesky_grad(grad, result, upper):
    L, gL = (_mT(result), _mT(grad)) if upper else (result, grad)
    phi = S.tril(matmul(_mT(L), gL))
    phi = phi - 0.5 * _diag_embed(_diagonal(phi))
    gA = _tril_inverse_solve(L, phi)
    return 0.5 * (gA + _mT(gA))


LinalgCholeskyExBackward0 = derivative("LinalgCholeskyExBackward0", keep="upper", aliases={"result": "L"},
                                       self=_cholesky_grad)


def _cholesky(xp, m):
    """The namespace's Cholesky factor, failing as LAPACK's does where a pivot is NaN (NumPy's
    returns NaNs)."""
    low = xp.linalg.cholesky(m)
    if xp.isnan(xp.diagonal(low, axis1=-2, axis2=-1)).any():
        raise _lin_alg_error(xp)()      # (caught by the callers, as NumPy's own failure)
    return low


def _not_pd_error(x, op):
    d = x._data
    xp = backend.namespace(d)
    for b, m in _each(d):
        try:
            _cholesky(xp, m)
        except _lin_alg_error(xp):
            order = _leading_minor(xp, m)
            if d.ndim > 2:
                return x.policy.errors.linalg_not_pd_batch(op=op, batch=b, order=order)
            return x.policy.errors.linalg_not_pd(op=op, order=order)
    return x.policy.errors.linalg_not_pd(op=op, order=d.shape[-1])


def _leading_minor(xp, m) -> int:
    for k in range(1, m.shape[-1] + 1):
        try:
            _cholesky(xp, m[:k, :k])
        except _lin_alg_error(xp):
            return k
    return m.shape[-1]


def linalg_cholesky(x, upper=False, _op="linalg.cholesky", check_errors=True):
    """The Cholesky factor of the lower triangle; `check_errors=False` (cholesky_ex) returns
    (L, info) with NaN where not positive-definite. `_op` names the function in a factorization
    error (the argument checks are linalg.cholesky's)."""
    _square_float(x, "linalg.cholesky")
    d = x._data
    xp = backend.namespace(d)
    sym = xp.tril(d) + xp.swapaxes(xp.tril(d, -1), -1, -2)
    try:
        low = _cholesky(xp, sym)
        info = xp.zeros(d.shape[:-2], dtype="int32")
    except _lin_alg_error(xp):
        if check_errors:
            raise _not_pd_error(x, _op) from None
        low, info = _per_matrix(x._new(sym), lambda m: _cholesky(xp, m), lambda m: _leading_minor(xp, m))
        low = xp.tril(low)      # (the other triangle stays zero, as LAPACK leaves it)
    out = x._out_cls._make(xp.swapaxes(low, -1, -2).copy() if upper else low)
    if _grad_enabled() and x._requires_grad:
        LinalgCholeskyExBackward0.record((x,), out, upper)
    return out if check_errors else (out, x._out_cls._make(info))


# ---------------------------------------------------------------------------------------- qr

def _copyltu(M):
    return S.tril(M, -1) + _mT(S.tril(M))


def _qr_grad(grads, Q, R, mode):
    gQ, gR = grads
    if mode == "r":
        raise Q.policy.errors.linalg_qr_r_backward()
    m, n = Q._data.shape[-2], R._data.shape[-1]
    if mode == "complete" and m > n:
        raise Q.policy.errors.linalg_qr_complete_backward()
    if m >= n:
        M = matmul(R, _mT(gR)) - matmul(_mT(gQ), Q)
        B = gQ + matmul(Q, _copyltu(M))
        return _mT(linalg_solve(R, _mT(B)))        # B R^{-T}
    U, gU = S.narrow(R, -1, 0, m), S.narrow(gR, -1, 0, m)
    gV = S.narrow(gR, -1, m, n - m)
    gQ2 = gQ + matmul(matmul(Q, S.narrow(R, -1, m, n - m)), _mT(gV))     # + Y gV^T, Y = A's right block
    M = matmul(U, _mT(gU)) - matmul(_mT(gQ2), Q)
    B = gQ2 + matmul(Q, _copyltu(M))
    return S.cat([_mT(linalg_solve(U, _mT(B))), matmul(Q, gV)], -1)


LinalgQrBackward0 = derivative("LinalgQrBackward0", many_outputs=True, save="Q R", keep="mode", self=_qr_grad)


def linalg_qr(x, mode="reduced"):
    if mode not in ("reduced", "r", "complete"):
        raise x.policy.errors.linalg_qr_mode(mode=mode)
    _check_float(x, "linalg.qr")
    _check_matrix(x, "linalg.qr", square=False)
    d = x._data
    xp = backend.namespace(d)
    q, r = xp.linalg.qr(d, mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        q = xp.zeros((0,), dtype=d.dtype)
    outs = _outputs(x, [q.astype(d.dtype), r.astype(d.dtype)])
    if _grad_enabled() and x._requires_grad:
        LinalgQrBackward0.record((x,), outs, *[save_output(o) for o in outs], mode)
    return tuple(outs)


# -------------------------------------------------------------------------------------- pinv

def _pinv_grad(grad, self, result):
    """PyTorch's pinv_backward: products arranged so the inner dimension is the smaller one."""
    A, P = self, result
    m, n = A._data.shape[-2], A._data.shape[-1]
    Ph, gh = _mT(P), _mT(grad)
    if m <= n:
        K = matmul(gh, P)
        KPh = matmul(K, Ph)
        return (-_mT(matmul(P, K)) + KPh - matmul(matmul(A, P), KPh)
                + matmul(matmul(Ph, P), gh - matmul(K, A)))
    K = matmul(P, gh)
    PhK = matmul(Ph, K)
    return (-_mT(matmul(K, P)) + matmul(matmul(gh - matmul(A, K), P), Ph) + PhK
            - matmul(matmul(PhK, P), A))


LinalgPinvBackward0 = derivative("LinalgPinvBackward0", self=_pinv_grad)


def _tolerance(xp, value, like):
    if value is None:
        return None
    return value._data if hasattr(value, "_data") else xp.asarray(value, dtype=like.dtype)


def linalg_pinv(x, atol=None, rtol=None, hermitian=False):
    d = x._data
    if d.ndim < 2 or d.dtype.kind not in "fcV" or str(d.dtype) in _LOW:
        raise x.policy.errors.linalg_pinv_dtype(dtype_scalar=d.dtype, shape=", ".join(map(str, d.shape)))
    xp = backend.namespace(d)
    m, n = d.shape[-2:]
    at, rt = _tolerance(xp, atol, d), _tolerance(xp, rtol, d)
    if rt is None:
        rt = xp.asarray(xp.finfo(d.dtype).eps * max(m, n) if at is None or not bool(xp.all(at > 0)) else 0.0,
                        dtype=_real(d.dtype))
    if at is None:
        at = xp.zeros((), dtype=_real(d.dtype))
    if hermitian and m != n:
        if d.size:
            raise x.policy.errors.linalg_square(op="linalg.eigh", rows=m, cols=n)
        hermitian = False       # (an empty matrix: the zeros of its transpose's shape, as PyTorch gives)
    if hermitian:
        w, v = xp.linalg.eigh(d)
        mag = xp.abs(w)
        top = xp.max(mag, axis=-1, keepdims=True) if w.shape[-1] else xp.zeros(w.shape[:-1] + (1,), d.dtype)
        tol = xp.maximum(at[..., None], rt[..., None] * top)
        inv = xp.where(mag > tol, 1 / xp.where(mag > tol, w, 1), 0)
        r = (v * inv[..., None, :]) @ xp.conj(xp.swapaxes(v, -1, -2))
    else:
        u, s, vh = xp.linalg.svd(d, full_matrices=False)
        top = s[..., :1] if s.shape[-1] else xp.zeros(s.shape[:-1] + (1,), d.dtype)
        tol = xp.maximum(at[..., None], rt[..., None] * top)
        inv = xp.where(s > tol, 1 / xp.where(s > tol, s, 1), 0)
        r = (xp.conj(xp.swapaxes(vh, -1, -2)) * inv[..., None, :]) @ xp.conj(xp.swapaxes(u, -1, -2))
    out = x._out_cls._make(r.astype(d.dtype))
    if _grad_enabled() and x._requires_grad:
        LinalgPinvBackward0.record((x,), out)
    return out


# ------------------------------------------------------------------------------------- lstsq

_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _lstsq_a_grad(grad, self, b, vector):
    P = linalg_pinv(self)
    B = S.unsqueeze(b, -1) if vector else b
    g = S.unsqueeze(grad, -1) if vector else grad
    return _pinv_grad(matmul(g, _mT(B)), self, P)


def _lstsq_b_grad(grad, self, vector):
    P = linalg_pinv(self)
    g = S.unsqueeze(grad, -1) if vector else grad
    gb = matmul(_mT(P), g)
    return S.squeeze(gb, -1) if vector else gb


LinalgLstsqBackward0 = derivative("LinalgLstsqBackward0", keep="vector", self=_lstsq_a_grad, b=_lstsq_b_grad)


def linalg_lstsq(A, B, rcond=None, driver=None):
    """(solution, residuals, rank, singular_values) as PyTorch's CPU drivers report them; the
    solution is the minimum-norm least-squares one (through the pseudoinverse)."""
    op = "torch.linalg.lstsq"
    da, db = A._data, B._data
    if da.dtype.kind not in "fV" or db.dtype.kind not in "fV":
        raise A.policy.errors.linalg_lstsq_dtype()
    if da.dtype != db.dtype:
        raise A.policy.errors.linalg_lstsq_same_dtype(op=op, a_scalar=da.dtype, b_scalar=db.dtype)
    if da.ndim < 2:
        raise A.policy.errors.linalg_lstsq_min_2d(op=op)
    if not 0 <= da.ndim - db.ndim <= 1:
        raise A.policy.errors.linalg_lstsq_dims(op=op)
    vector = db.ndim == da.ndim - 1
    err = broadcast_error(da.shape[:-2], db.shape[:-1] if vector else db.shape[:-2], A.policy)
    if err is not None:
        raise err
    if vector and db.shape[-1] != da.shape[-2]:
        raise A.policy.errors.linalg_lstsq_rows(op=op, b_dim=-1)
    if not vector and (db.ndim < 2 or db.shape[-2] != da.shape[-2]):
        raise A.policy.errors.linalg_lstsq_rows(op=op, b_dim=-2)
    driver = "gelsy" if driver is None else driver
    if driver not in _DRIVERS:
        raise A.policy.errors.linalg_lstsq_driver(op=op)
    xp = backend.namespace(da)
    m, n = da.shape[-2:]
    sv = xp.linalg.svd(da, compute_uv=False)
    cut = rcond if rcond is not None and rcond > 0 else xp.finfo(da.dtype).eps * max(m, n)
    top = sv[..., :1] if sv.shape[-1] else xp.zeros(sv.shape[:-1] + (1,), da.dtype)
    rank = xp.sum(sv > cut * top, axis=-1).astype("int64")
    if db.shape[-1] == 0 and not vector:     # (no right-hand side: the drivers return before factoring)
        rank = xp.zeros_like(rank)
    Bm = db[..., None] if vector else db
    if driver == "gels" and m >= n:     # LAPACK's QR solve: an exactly zero pivot of R fails
        q, r = xp.linalg.qr(da)
        diag = xp.abs(xp.diagonal(r, axis1=-2, axis2=-1))
        if bool(xp.any(diag == 0)):
            raise A.policy.errors.linalg_lstsq_rank(op=op, code=int(xp.argmax(xp.any(
                diag.reshape(-1, n) == 0, axis=0))) + 1)
        sol = xp.linalg.solve(r, xp.swapaxes(q, -1, -2) @ Bm)
    else:
        sol = linalg_pinv(A.detach(), rtol=cut)._data @ Bm
    out = A._out_cls._make((sol[..., 0] if vector else sol).astype(da.dtype))
    if _grad_enabled() and (A._requires_grad or B._requires_grad):
        LinalgLstsqBackward0.record((A, B), out, vector)
    empty = A._out_cls._make(xp.zeros((0,), dtype=da.dtype))
    residuals = empty
    if driver != "gelsy" and m > n and bool(xp.all(rank == n)):
        fit = matmul(A, S.unsqueeze(out, -1) if vector else out)
        res = fit - (S.unsqueeze(B, -1) if vector else B)
        residuals = R.sum(res * res, -2)     # a vector B counts as one column, as in PyTorch
    ranks = A._out_cls._make(rank if driver != "gels" else xp.zeros((0,), dtype="int64"))
    svals = A._out_cls._make(sv.astype(da.dtype)) if driver in ("gelsd", "gelss") else \
        A._out_cls._make(xp.zeros((0,), dtype=da.dtype))
    return out, residuals, ranks, svals


# -------------------------------------------------------------------------------- matrix_exp

def _expm_array(xp, d):
    """exp of a batch of matrices: scaling and squaring over a degree-18 Taylor sum."""
    n = d.shape[-1]
    norm = xp.max(xp.sum(xp.abs(d), axis=-2), axis=-1) if d.size else xp.zeros(d.shape[:-2], d.dtype)
    top = float(xp.max(norm)) if norm.size else 0.0
    squarings = max(0, int(xp.ceil(xp.log2(top / 0.5)))) if top > 0.5 else 0
    a = d / (2.0 ** squarings)
    eye = xp.broadcast_to(xp.eye(n, dtype=d.dtype), d.shape)
    out = eye.copy()
    term = eye.copy()
    for k in range(1, 19):
        term = term @ a / k
        out = out + term
    for _ in range(squarings):
        out = out @ out
    return out


def _matrix_exp_grad(grad, self):
    """The upper-right block of exp([[A^T, g], [0, A^T]]) (differentiable to any order)."""
    n = self._data.shape[-1]
    At = _mT(self)
    top = S.cat([At, grad], -1)
    bottom = S.cat([grad * 0, At], -1)
    big = linalg_matrix_exp(S.cat([top, bottom], -2))
    return S.narrow(S.narrow(big, -2, 0, n), -1, n, n)


LinalgMatrixExpBackward0 = derivative("LinalgMatrixExpBackward0", self=_matrix_exp_grad)


def linalg_matrix_exp(x):
    _square_float(x, "linalg.matrix_exp")
    d = x._data
    xp = backend.namespace(d)
    work = d.astype("float32") if str(d.dtype) in _LOW else d
    out = x._out_cls._make(_expm_array(xp, work).astype(d.dtype))
    if _grad_enabled() and x._requires_grad:
        LinalgMatrixExpBackward0.record((x,), out)
    return out


# ------------------------------------------------------------------------------ compositions

def logdet(x):
    """log det A: the log of |det| where the sign is positive, NaN where negative (PyTorch's where);
    of a complex matrix, log(sign) + log |det|."""
    _check_float(x, "logdet")
    _check_matrix(x, "logdet")
    _check_float(x, "logdet", low=True)
    sign, logabs = linalg_slogdet(x)
    if sign._data.dtype.kind == "c":
        return E.log(sign) + logabs
    return E.where(sign._new(sign._data < 0), float("nan"), logabs)


def matrix_power(x, n):
    """A^n by repeated squaring over matmul (A^{-1} for negative n)."""
    op = "linalg.matrix_power"
    n = int_argument(n, x.policy)
    _check_matrix(x, op)
    if n == 0:
        d = x._data
        eye = backend.namespace(d).broadcast_to(backend.namespace(d).eye(d.shape[-1], dtype=d.dtype), d.shape)
        return x * 0 + x._new(eye.copy()) if x._requires_grad and _grad_enabled() else x._new(eye.copy())
    if n == 1:
        return S.clone(x)
    base = linalg_inv(x) if n < 0 else x
    n = abs(n)
    out = None
    while n:
        if n & 1:
            out = base if out is None else matmul(out, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return out


def multi_dot(tensors):
    """The product of a chain of matrices (the first may be a row vector, the last a column vector)."""
    ts = list(tensors)
    if len(ts) < 2:
        raise policy_of(ts).errors.linalg_multi_dot_count(count=len(ts))
    out = ts[0]
    for t in ts[1:]:
        out = matmul(out, t)
    return out


def vecdot(x, y, dim=-1):
    """Sum over `dim` of x * y (real inputs)."""
    if x._data.dtype != y._data.dtype:
        raise x.policy.errors.linalg_vecdot_dtype(a_scalar=x._data.dtype, b_scalar=y._data.dtype)
    return R.sum(x * y, dim)



# --------------------------------------------------------------------------- solve_triangular

def _triangle(xp, a, upper, unit):
    t = xp.triu(a) if upper else xp.tril(a)
    if unit:
        n = a.shape[-1]
        t = xp.where(xp.eye(n, dtype=bool), xp.ones((), dtype=a.dtype), t)
    return t


def _substitute(xp, a, b, upper):
    """X with AX = B for triangular A by substitution (a zero diagonal gives inf / NaN, as LAPACK)."""
    n = a.shape[-1]
    x = xp.zeros(xp.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:], dtype=b.dtype)
    with backend.quiet(xp):
        for i in (range(n - 1, -1, -1) if upper else range(n)):
            acc = b[..., i, :] - xp.einsum("...k,...kj->...j", a[..., i, :], x)
            x[..., i, :] = acc / a[..., i, i:i + 1]
    return x


def _solve_tri_b_grad(grad, self, upper, unitriangular):
    return solve_triangular(_mT(self), grad, upper=not upper, unitriangular=unitriangular)


def _solve_tri_a_grad(grad, self, result, upper, unitriangular):
    gb = solve_triangular(_mT(self), grad, upper=not upper, unitriangular=unitriangular)
    ga = -matmul(gb, _mT(result))
    offset = 1 if unitriangular else 0
    return S.triu(ga, offset) if upper else S.tril(ga, -offset)


LinalgSolveTriangularBackward0 = derivative("LinalgSolveTriangularBackward0", keep="upper unitriangular",
                                            self=_solve_tri_a_grad, B=_solve_tri_b_grad)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    """X with AX = B (left=False: XA = B) reading only A's upper or lower triangle."""
    op = "linalg.solve_triangular"
    if not left:
        return _mT(solve_triangular(_mT(A), _mT(B), upper=not upper, unitriangular=unitriangular))
    da, db = A._data, B._data
    if da.dtype.kind not in "fcV" or str(da.dtype) in _LOW:     # (B is cast to A's dtype)
        raise A.policy.errors.linalg_not_implemented(kernel="triangular_solve_cpu", dtype_scalar=da.dtype)
    _check_matrix(A, op)
    if db.ndim < 2:
        raise A.policy.errors.linalg_min_2d(op=op, name="B")
    if db.shape[-2] != da.shape[-1]:
        raise A.policy.errors.linalg_solve_shapes(a_rows=da.shape[-2], a_cols=da.shape[-1], b_rows=db.shape[-2],
                                                  b_cols=db.shape[-1], op=op)
    xp = backend.namespace(da)
    # PyTorch solves in A's dtype; a complex B with a real A is promoted (PyTorch drops its imaginary part)
    dtype = xp.promote_types(da.dtype, db.dtype) if db.dtype.kind == "c" else da.dtype
    a = _triangle(xp, da.astype(dtype), upper, unitriangular)
    out = A._out_cls._make(_substitute(xp, a, db.astype(dtype), upper))
    if _grad_enabled() and (A._requires_grad or B._requires_grad):
        LinalgSolveTriangularBackward0.record((A, B), out, upper, unitriangular)
    return out


# ---------------------------------------------------------------------------- cholesky_solve

def _mH(x):
    return E._conj(_mT(x))


def _cholesky_solve_l_grad(grad, input2, result, upper):
    common = matmul(cholesky_solve(grad, input2, upper), _mH(result))
    common = common + _mH(common)
    return -(matmul(input2, common) if upper else matmul(common, input2))


CholeskySolveBackward0 = derivative(
    "CholeskySolveBackward0", keep="upper",
    self=lambda grad, input2, upper: cholesky_solve(grad, input2, upper), input2=_cholesky_solve_l_grad)


def cholesky_solve(B, L, upper=False):
    """X with A X = B for A = L L^H (upper: U^H U) given its Cholesky factor."""
    db, dl = B._data, L._data
    for t, name in ((db, "b"), (dl, "u")):
        if t.ndim < 2:
            raise B.policy.errors.cholesky_solve_min_2d(name=name, ndim=t.ndim)
    if db.dtype != dl.dtype:
        raise B.policy.errors.cholesky_solve_dtype(b_scalar=db.dtype, a_scalar=dl.dtype)
    if dl.shape[-1] != dl.shape[-2]:
        raise B.policy.errors.cholesky_solve_square(rows=dl.shape[-2], cols=dl.shape[-1])
    if db.shape[-2] != dl.shape[-1]:
        raise B.policy.errors.cholesky_solve_sizes(rows=dl.shape[-1], b_rows=db.shape[-2], b_cols=db.shape[-1])
    if db.dtype.kind not in "fcV" or str(db.dtype) in _LOW:
        raise B.policy.errors.linalg_not_implemented(kernel="cholesky_solve_cpu", dtype_scalar=db.dtype)
    err = broadcast_error(db.shape[:-2], dl.shape[:-2], B.policy)
    if err is not None:
        raise err
    b, lo = B.detach(), L.detach()
    if upper:
        x = solve_triangular(lo, solve_triangular(_mH(lo), b, upper=False), upper=True)
    else:
        x = solve_triangular(_mH(lo), solve_triangular(lo, b, upper=False), upper=True)
    out = B._out_cls._make(x._data)
    if _grad_enabled() and (B._requires_grad or L._requires_grad):
        CholeskySolveBackward0.record((B, L), out, upper)
    return out


# ------------------------------------------------------------------------------------- cross

LinalgCrossBackward0 = derivative("LinalgCrossBackward0", keep="dim",
                                  self=lambda grad, other, dim: linalg_cross(other, grad, dim=dim),
                                  other=lambda grad, self, dim: linalg_cross(grad, self, dim=dim))


def linalg_cross(x, y, *, dim=-1):
    dx, dy = x._data, y._data
    if dx.ndim != dy.ndim:
        raise x.policy.errors.linalg_cross_ndim()
    k = normalize_dim(dim, dx.ndim, x.policy)
    if dx.shape[k] != 3 or dy.shape[k] != 3:
        raise x.policy.errors.linalg_cross_length(dim=dim, a=dx.shape[k], b=dy.shape[k])
    if dx.dtype.kind == "b":        # the kernel dispatches on input's dtype before reading other's
        raise x.policy.errors.not_implemented_for(op="cross", dtype_scalar=dx.dtype)
    if dx.dtype != dy.dtype:
        raise x.policy.errors.expected_scalar_type(a_scalar=dx.dtype, b_scalar=dy.dtype)
    xp = backend.namespace(dx)
    err = broadcast_error(dx.shape, dy.shape, x.policy)
    if err is not None:
        raise err
    shape = xp.broadcast_shapes(dx.shape, dy.shape)
    out = x._out_cls._make(xp.cross(xp.broadcast_to(dx, shape), xp.broadcast_to(dy, shape), axis=k))
    if _grad_enabled() and (x._requires_grad or y._requires_grad):
        LinalgCrossBackward0.record((x, y), out, k)
    return out


# ---------------------------------------------------------------------------- rank, condition

def matrix_rank(A, *, atol=None, rtol=None, hermitian=False):
    """The number of singular (|eigen| for hermitian) values above max(atol, rtol * largest)."""
    d = A._data
    if d.ndim >= 2 and d.dtype.kind not in "fcV":
        raise A.policy.errors.linalg_lstsq_dtype()
    if d.ndim < 2:
        raise A.policy.errors.linalg_min_2d(op="torch.linalg.matrix_rank", name="input")
    xp = backend.namespace(d)
    sv = xp.abs(xp.linalg.eigvalsh(d)) if hermitian else xp.linalg.svd(d, compute_uv=False)
    real = _real(d.dtype)
    at, rt = _tolerance(xp, atol, sv), _tolerance(xp, rtol, sv)
    if rt is None:
        rt = xp.asarray(xp.finfo(real).eps * max(d.shape[-2:]) if at is None or not bool(xp.all(at > 0)) else 0.0,
                        dtype=real)
    if at is None:
        at = xp.zeros((), dtype=real)
    top = xp.max(sv, axis=-1, keepdims=True) if sv.shape[-1] else xp.zeros(sv.shape[:-1] + (1,), real)
    tol = xp.maximum(at[..., None], rt[..., None] * top)
    return A._out_cls._make(xp.sum(sv > tol, axis=-1).astype("int64"))


def cond(A, p=None):
    """The condition number: a ratio of singular values (p None, 2, -2) or norm(A) * norm(inv(A))."""
    if p not in (None, 2, -2, 1, -1, float("inf"), float("-inf"), "fro", "nuc"):
        raise A.policy.errors.linalg_cond_ord(ord=p)
    _check_float(A, "linalg.cond")
    _check_matrix(A, "linalg.cond", square=False)
    if isinstance(p, str):      # (PyTorch checks the named norms' square matrices first)
        _check_matrix(A, f"linalg.cond(ord={p})")
    d = A._data
    if d.shape[-1] * d.shape[-2] == 0:      # an empty matrix: 0, as PyTorch returns (no gradient)
        return A._out_cls._make(backend.namespace(d).zeros(d.shape[:-2], dtype=_real(d.dtype)))
    if p in (None, 2, -2):
        sv = linalg_svdvals(A)
        top, bottom = R.amax(sv, -1), R.amin(sv, -1)
        with backend.quiet(backend.namespace(A._data)):
            return top / bottom if p != -2 else bottom / top
    _check_matrix(A, f"linalg.cond(ord={p})")
    inv, info = linalg_inv(A, check_errors=False)
    out = matrix_norm(A, p) * matrix_norm(inv, p)
    singular = (info._data != 0) | backend.namespace(out._data).isnan(out._data)
    if bool(backend.namespace(singular).any(singular)):     # a singular matrix: infinite condition number
        out = E.where(out._new(singular), float("inf"), out)
    return out



# ------------------------------------------------------------------ more compositions

def diagonal(A, offset=0, dim1=-2, dim2=-1):
    """linalg.diagonal: the diagonal view over the last two dims by default."""
    return S.diagonal(A, offset, dim1, dim2)


def vander(x, N=None):
    """Powers x^0 .. x^(N-1) along a new last dim (a cat of running products)."""
    d = x._data
    if d.dtype.kind in "bV" or d.dtype == np.float16:
        raise x.policy.errors.vander_dtype(dtype_scalar=d.dtype)
    if d.dtype.kind in "iu" and d.dtype != np.int64:     # (PyTorch's powers of integers are int64)
        x = E.cast(x, np.dtype(np.int64))
        d = x._data
    if d.ndim == 0:     # (one value: a vector of one)
        x = S.reshape(x, (1,))
        d = x._data
    n = d.shape[-1] if N is None else N
    if n <= 1:
        raise x.policy.errors.linalg_vander_n()
    cols = [x._new(backend.namespace(d).ones(d.shape + (1,), dtype=d.dtype)), S.unsqueeze(x, -1)]
    for _ in range(n - 2):
        cols.append(cols[-1] * S.unsqueeze(x, -1))
    return S.cat(cols, -1)


def _prod(shape) -> int:
    out = 1
    for s in shape:
        out *= s
    return out


def tensorinv(A, ind=2):
    d = A._data
    if ind <= 0:
        raise A.policy.errors.linalg_tensorinv_ind(ind=ind)
    rows, cols = _prod(d.shape[:ind]), _prod(d.shape[ind:])
    if rows != cols:
        raise A.policy.errors.linalg_tensor_prod(what="ind", a=cols, b=rows)
    return S.reshape(linalg_inv(S.reshape(A, (rows, cols))), d.shape[ind:] + d.shape[:ind])


def tensorsolve(A, B, dims=None):
    d = A._data
    if dims is not None:
        ks = [normalize_dim(k, d.ndim, A.policy) for k in dims]
        A = S.permute(A, [k for k in range(d.ndim) if k not in ks] + ks)
        d = A._data
    nb = B._data.ndim
    rows, cols = _prod(d.shape[:nb]), _prod(d.shape[nb:])
    if rows != cols:
        raise A.policy.errors.linalg_tensor_prod(what="other.ndim", a=cols, b=rows)
    x = linalg_solve(S.reshape(A, (rows, cols)), S.reshape(B, (rows,)))
    return S.reshape(x, d.shape[nb:])


# ---------------------------------------------------------------------------------------- lu

def _lu_arrays(xp, d):
    """LAPACK getrf on a batch: (packed LU, 1-based int32 pivots, permutation, info)."""
    m, n = d.shape[-2:]
    k = min(m, n)
    batch = d.shape[:-2]
    a = d.reshape((_prod(batch), m, n)).copy()      # (-1 is ambiguous for an empty matrix)
    nb = a.shape[0]
    rows = xp.arange(nb)
    perm = xp.broadcast_to(xp.arange(m), (nb, m)).copy()
    piv = xp.zeros((nb, k), dtype="int32")
    info = xp.zeros((nb,), dtype="int32")
    with backend.quiet(xp):
        for j in range(k):
            p = j + xp.argmax(xp.abs(a[:, j:, j]), axis=1) if m > j else xp.zeros((nb,), dtype="int64")
            piv[:, j] = p + 1
            top, low = a[rows, j].copy(), a[rows, p].copy()
            a[rows, j], a[rows, p] = low, top
            pt, pl = perm[rows, j].copy(), perm[rows, p].copy()
            perm[rows, j], perm[rows, p] = pl, pt
            pivot = a[:, j, j]
            zero = pivot == 0
            info = xp.where(zero & (info == 0), j + 1, info).astype("int32")
            scale = xp.where(zero[:, None], 0, a[:, j + 1:, j] / xp.where(zero, 1, pivot)[:, None])
            a[:, j + 1:, j] = xp.where(zero[:, None], a[:, j + 1:, j], scale)
            a[:, j + 1:, j + 1:] -= scale[:, :, None] * a[:, j, None, j + 1:]
    return (a.reshape(d.shape), piv.reshape(batch + (k,)), perm.reshape(batch + (m,)), info.reshape(batch))


def _unpack_lu(xp, lu, perm):
    m, n = lu.shape[-2:]
    k = min(m, n)
    low = xp.tril(lu[..., :, :k], -1) + xp.eye(m, k, dtype=lu.dtype)
    up = xp.triu(lu[..., :k, :])
    eye = xp.eye(m, dtype=lu.dtype)
    p = xp.swapaxes(eye[perm], -1, -2)          # A = P L U
    return p, low, up


def _lu_grad_core(P, L, U, gL, gU):
    """PyTorch's linalg_lu_backward (square, wide and tall cases)."""
    m, n = L._data.shape[-2], U._data.shape[-1]
    k = min(m, n)
    if m == n:
        gA = S.tril(matmul(_mT(L), gL), -1) + S.triu(matmul(gU, _mT(U)))
        gA = solve_triangular(_mT(U), gA, upper=False, left=False)
        gA = solve_triangular(_mT(L), gA, upper=True, unitriangular=True)
    elif m < n:
        U1, U2g = S.narrow(U, -1, 0, k), S.narrow(gU, -1, k, n - k)
        gA = matmul(_mT(L), gL) - matmul(S.triu(gU), _mT(U))
        gA = solve_triangular(_mT(U1), S.tril(gA, -1), upper=False, left=False)
        gA = S.cat([gA + S.triu(S.narrow(gU, -1, 0, k)), U2g], -1)
        gA = solve_triangular(_mT(L), gA, upper=True, unitriangular=True)
    else:
        L1, L2g = S.narrow(L, -2, 0, k), S.narrow(gL, -2, k, m - k)
        gA = matmul(gU, _mT(U)) - matmul(_mT(L), S.tril(gL, -1))
        gA = solve_triangular(_mT(L1), S.triu(gA), upper=True, unitriangular=True)
        gA = S.cat([gA + S.tril(S.narrow(gL, -2, 0, k), -1), L2g], -2)
        gA = solve_triangular(_mT(U), gA, upper=False, left=False)
    return matmul(P, gA)


LinalgLuBackward0 = derivative("LinalgLuBackward0", many_outputs=True, save="P L U",
                               A=lambda grads, P, L, U: _lu_grad_core(P, L, U, grads[1], grads[2]))


def _lu_factor_grad(grads, P, LU):
    m, n = LU._data.shape[-2:]
    k = min(m, n)
    L = S.tril(S.narrow(LU, -1, 0, k), -1) + _eye_rect(LU, m, k)
    U = S.triu(S.narrow(LU, -2, 0, k))
    g = grads[0]
    return _lu_grad_core(P, L, U, S.tril(S.narrow(g, -1, 0, k), -1), S.triu(S.narrow(g, -2, 0, k)))


def _eye_rect(x, m, k):
    d = x._data
    return x._new(backend.namespace(d).eye(m, k, dtype=d.dtype))


LinalgLuFactorExBackward0 = derivative("LinalgLuFactorExBackward0", many_outputs=True, save="P LU",
                                       self=_lu_factor_grad)


def _check_lu(A, op):
    d = A._data
    if d.ndim < 2:
        raise A.policy.errors.linalg_lu_dims(op=op, shape=list(d.shape))
    if d.dtype.kind not in "fcV" or str(d.dtype) in _LOW:
        raise A.policy.errors.linalg_not_implemented(kernel="lu_cpu", dtype_scalar=d.dtype)


def linalg_lu(A, pivot=True):
    """(P, L, U) with A = P L U (partial pivoting, as LAPACK's getrf)."""
    if not pivot:
        raise A.policy.errors.linalg_lu_no_pivot()
    _check_lu(A, "linalg.lu")
    d = A._data
    xp = backend.namespace(d)
    lu, _, perm, _ = _lu_arrays(xp, d)
    p, low, up = _unpack_lu(xp, lu, perm)
    outs = _outputs(A, [p, low, up])
    if _grad_enabled() and A._requires_grad:
        LinalgLuBackward0.record((A,), outs, A._new(p), *[save_output(o) for o in outs[1:]])
        outs[0]._requires_grad, outs[0]._grad_fn = False, None     # P is constant
    return tuple(outs)


def linalg_lu_factor(A, pivot=True, check_errors=False, _op="torch.linalg.lu_factor"):
    """(LU, pivots, info): L below the diagonal (unit diagonal implied), U on and above it."""
    if not pivot:
        raise A.policy.errors.linalg_lu_no_pivot()
    _check_lu(A, "torch.lu_factor")
    d = A._data
    xp = backend.namespace(d)
    lu, piv, perm, info = _lu_arrays(xp, d)
    if check_errors and bool(xp.any(info)):
        flat = info.reshape(-1)
        b = int(xp.argmax(flat != 0))
        if d.ndim > 2:
            raise A.policy.errors.linalg_lu_factor_singular_batch(op=_op, batch=b, index=int(flat[b]))
        raise A.policy.errors.linalg_lu_factor_singular(op=_op, index=int(flat[b]))
    outs = _outputs(A, [lu, piv])
    if _grad_enabled() and A._requires_grad:
        p, _, _ = _unpack_lu(xp, lu, perm)
        LinalgLuFactorExBackward0.record((A,), outs, A._new(p), save_output(outs[0]))
        outs[1]._requires_grad, outs[1]._grad_fn = False, None      # pivots are integers
    return outs[0], outs[1], A._out_cls._make(info)


def _pivots_to_perm(xp, piv, m):
    """The row permutation LAPACK's 1-based swap list `piv` stands for (batched)."""
    batch = piv.shape[:-1]
    p = piv.reshape((-1, piv.shape[-1])).astype("int64") - 1
    nb = p.shape[0]
    rows = xp.arange(nb)
    perm = xp.broadcast_to(xp.arange(m), (nb, m)).copy()
    for j in range(p.shape[-1]):
        a, b = perm[rows, j].copy(), perm[rows, p[:, j]].copy()
        perm[rows, j], perm[rows, p[:, j]] = b, a
    return perm.reshape(batch + (m,))


def lu_solve(LU, pivots, B, left=True, adjoint=False):
    """X with AX = B for A = P L U given as lu_factor's (LU, pivots) (left=False: XA = B; adjoint:
    A^T in place of A); composed from solve_triangular, so gradients reach LU and B."""
    op = "linalg.lu_solve"
    dl, dp, db = LU._data, pivots._data, B._data
    if dl.ndim < 2:
        raise LU.policy.errors.linalg_min_2d(op=op, name="LU")
    if dl.shape[-1] != dl.shape[-2]:
        raise LU.policy.errors.linalg_square(op="torch." + op, rows=dl.shape[-2], cols=dl.shape[-1])
    if db.ndim < 2:
        raise LU.policy.errors.linalg_min_2d(op=op, name="B")
    n = dl.shape[-1]
    if (db.shape[-2] if left else db.shape[-1]) != n:
        raise LU.policy.errors.linalg_solve_shapes(op=op, a_rows=n, a_cols=n, b_rows=db.shape[-2], b_cols=db.shape[-1])
    if dl.dtype != db.dtype:
        raise LU.policy.errors.linalg_lu_solve_dtype(a_scalar=dl.dtype, b_scalar=db.dtype)
    if str(dp.dtype) != "int32":
        raise LU.policy.errors.linalg_lu_solve_pivots()
    if dp.shape[-1] != n:
        raise LU.policy.errors.linalg_lu_solve_pivots_count()
    xp = backend.namespace(dl)
    perm = _pivots_to_perm(xp, dp, n)
    P = LU._new(xp.swapaxes(xp.eye(n, dtype=dl.dtype)[perm], -1, -2))
    L = S.tril(LU, -1) + _eye_like(LU, n)
    U = S.triu(LU)
    if left and not adjoint:        # U^{-1} L^{-1} P^T B
        Y = solve_triangular(L, matmul(_mT(P), B), upper=False, unitriangular=True)
        return solve_triangular(U, Y, upper=True)
    if left:                        # P L^{-T} U^{-T} B
        Y = solve_triangular(_mT(U), B, upper=False)
        return matmul(P, solve_triangular(_mT(L), Y, upper=True, unitriangular=True))
    if not adjoint:                 # B U^{-1} L^{-1} P^T
        Y = solve_triangular(U, B, upper=True, left=False)
        return matmul(solve_triangular(L, Y, upper=False, left=False, unitriangular=True), _mT(P))
    Y = matmul(B, P)                # B P L^{-T} U^{-T}
    Y = solve_triangular(_mT(L), Y, upper=True, left=False, unitriangular=True)
    return solve_triangular(_mT(U), Y, upper=False, left=False)
