"""torch.linalg: PyTorch's linear-algebra names over flowgrad's op table."""

import numbers as _numbers

from ..autograd.policy import policy_of as _policy_of
from ..messages.linalg import LinAlgError  # noqa: F401
from ..ops import linalg_decomp as _L
from ..ops.linalg import matmul as _matmul
from ..facade.argtypes import parser_words as _parser_words
from ..facade.surface import _return_type
from ..tensor import Tensor as _CoreTensor

_slogdet = _return_type("torch", "linalg_slogdet", ("sign", "logabsdet"))
_svd = _return_type("torch", "linalg_svd", ("U", "S", "Vh"))
_eigh = _return_type("torch", "linalg_eigh", ("eigenvalues", "eigenvectors"))
_qr = _return_type("torch", "linalg_qr", ("Q", "R"))
_inv_ex = _return_type("torch", "linalg_inv_ex", ("inverse", "info"))
_cholesky_ex = _return_type("torch", "linalg_cholesky_ex", ("L", "info"))
_solve_ex = _return_type("torch", "linalg_solve_ex", ("result", "info"))
_lu = _return_type("torch", "linalg_lu", ("P", "L", "U"))
_lu_factor = _return_type("torch", "linalg_lu_factor", ("LU", "pivots"))
_lu_factor_ex = _return_type("torch", "linalg_lu_factor_ex", ("LU", "pivots", "info"))
_lstsq = _return_type("torch", "linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))

det = _L.linalg_det
svdvals = _L.linalg_svdvals
eigvalsh = _L.linalg_eigvalsh
matrix_exp = _L.linalg_matrix_exp
matrix_power = _L.matrix_power
multi_dot = _L.multi_dot
cond = _L.cond
tensorinv = _L.tensorinv
norm = _L.linalg_norm


def _check_flags(A, fn: str, **flags) -> None:
    """PyTorch's parser's TypeError for a bool parameter given anything but a bool."""
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise _policy_of(A).errors.argument_type(fn=fn, argument=name, expected="bool", type=type(value).__name__)


def solve(A, B, *, left=True):
    """X with A X = B (left=False: X A = B) for a (batch of) square matrices A."""
    _check_flags(A, "linalg_solve", left=left)
    return _L.linalg_solve(A, B, left)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    """X with A X = B (left=False: X A = B) for a (batch of) triangular matrices A."""
    _check_flags(A, "linalg_solve_triangular", upper=upper, left=left, unitriangular=unitriangular)
    return _L.solve_triangular(A, B, upper=upper, left=left, unitriangular=unitriangular)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """The ord-norm of x over `dim` (all of x by default), as vectors."""
    _check_flags(x, "linalg_vector_norm", keepdim=keepdim)
    return _L.vector_norm(x, ord, dim, keepdim, dtype=dtype)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """The ord-norm of the matrices of A over the two dims `dim`."""
    _check_flags(A, "linalg_matrix_norm", keepdim=keepdim)
    return _L.matrix_norm(A, ord, dim, keepdim, dtype=dtype)


def vecdot(x, y, *, dim=-1):
    """The dot product of x and y (the first conjugated) along `dim`."""
    if dim is None:
        raise _policy_of(x).errors.argument_type(fn="linalg_vecdot", argument="dim", expected="int", type="NoneType")
    return _L.vecdot(x, y, dim)


def slogdet(A):
    """(sign, logabsdet) of a (batch of) square matrices, as torch.return_types.slogdet."""
    return _slogdet(*_L.linalg_slogdet(A))


def svd(A, full_matrices=True, *, driver=None):
    """(U, S, Vh) of a (batch of) matrices, as torch.return_types.linalg_svd."""
    if not isinstance(full_matrices, bool):
        raise A.policy.errors.argument_type_at(fn="linalg_svd", argument="full_matrices", position=2,
                                               expected="bool", type=type(full_matrices).__name__)
    return _svd(*_L.linalg_svd(A, full_matrices, driver))


def eigh(A, UPLO="L"):
    """(eigenvalues, eigenvectors) of a (batch of) symmetric matrices, as torch.return_types.linalg_eigh."""
    return _eigh(*_L.linalg_eigh(A, UPLO))


def qr(A, mode="reduced"):
    """(Q, R) of a (batch of) matrices, as torch.return_types.linalg_qr."""
    return _qr(*_L.linalg_qr(A, mode))


def cholesky(A, *, upper=False):
    """The lower (upper=True: upper) Cholesky factor of a (batch of) positive-definite matrices."""
    _check_flags(A, "linalg_cholesky", upper=upper)
    return _L.linalg_cholesky(A, upper)


def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None):
    """The pseudoinverse of a (batch of) matrices; singular values at or below
    max(atol, rtol * largest) are treated as zero. PyTorch's older overload `pinv(A, rcond,
    hermitian=False)` takes a relative tolerance: rtol=rcond, atol=0."""
    _check_flags(A, "linalg_pinv", hermitian=hermitian)
    if rcond is None:
        return _L.linalg_pinv(A, atol, rtol, hermitian)
    _check_legacy(A, "linalg_pinv", "rcond", rcond, atol, rtol)
    return _L.linalg_pinv(A, None, rcond, hermitian)


def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None):
    """The number of singular (|eigen| for hermitian) values above max(atol, rtol * largest).
    PyTorch's older overload `matrix_rank(A, tol, hermitian=False)` takes an absolute tolerance:
    atol=tol, rtol=0."""
    if tol is None:
        return _L.matrix_rank(A, atol=atol, rtol=rtol, hermitian=hermitian)
    _check_legacy(A, "linalg_matrix_rank", "tol", tol, atol, rtol)
    return _L.matrix_rank(A, atol=tol, rtol=0.0, hermitian=hermitian)


def _check_legacy(A, fn: str, argument: str, value, atol, rtol) -> None:
    """The older overload's tolerance: a Tensor or a number, with neither atol nor rtol (else no
    overload of PyTorch's parser takes the call)."""
    if atol is not None or rtol is not None or not isinstance(value, (_CoreTensor, _numbers.Real)):
        raise _parser_words(_policy_of(A).errors.linalg_legacy_tolerance(fn=fn, argument=argument), argument)


def lstsq(input, b, rcond=None, *, driver=None):
    """(solution, residuals, rank, singular_values) of min ||AX - B||, as torch.return_types.linalg_lstsq."""
    return _lstsq(*_L.linalg_lstsq(input, b, rcond, driver))


# PyTorch's parser names these parameters `input` and `other` (its documentation's `A`, `B`, `x`, `y`)

def tensorsolve(input, other, dims=None):
    """X with tensordot(input, X, X.ndim) = other."""
    return _L.tensorsolve(input, other, dims)


def cross(input, other, *, dim=-1):
    """The cross product of 3-vectors along `dim`."""
    return _L.linalg_cross(input, other, dim=dim)


def matmul(input, other):
    """The matrix product (torch.matmul)."""
    return _matmul(input, other)


def inv_ex(A, *, check_errors=False):
    """(inverse, info): info is the 1-based index of a zero pivot per matrix (0: inverted); where it
    is not 0 the inverse is NaN. check_errors=True raises as inv does."""
    if check_errors:
        return _inv_ex(_L.linalg_inv(A, "linalg.inv_ex"), _zero_info(A))
    return _inv_ex(*_L.linalg_inv(A, "linalg.inv_ex", False))


def cholesky_ex(A, *, upper=False, check_errors=False):
    """(L, info): info is the order of the first leading minor that is not positive-definite (0:
    factored); where it is not 0, L is NaN. check_errors=True raises as cholesky does."""
    if check_errors:
        return _cholesky_ex(_L.linalg_cholesky(A, upper, "linalg.cholesky_ex"), _zero_info(A))
    return _cholesky_ex(*_L.linalg_cholesky(A, upper, "linalg.cholesky_ex", False))


def _zero_info(A):
    return A._new(A._data[..., 0, 0].astype("int32") * 0)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """The diagonals of A over (dim1, dim2) along a new last dim."""
    return _L.diagonal(A, offset, dim1, dim2)


def inv(A):
    """The inverse of each square matrix of A."""
    return _L.linalg_inv(A)


def vander(x, *, N=None):
    """The Vandermonde matrix of x: its powers 0 .. N-1 along a new last dim."""
    return _L.vander(x, N)


def solve_ex(A, B, *, left=True, check_errors=False):
    """(result, info): info is the 1-based index of a zero pivot per matrix (0: solved); where it
    is not 0 the result is NaN. check_errors=True raises as solve does."""
    return _solve_ex(*_L.linalg_solve(A, B, left, check_errors, "torch.linalg.solve_ex", True))


def lu(A, *, pivot=True):
    """(P, L, U) with A = P L U, as torch.return_types.linalg_lu."""
    return _lu(*_L.linalg_lu(A, pivot))


def lu_factor(A, *, pivot=True):
    """(LU, pivots): the compact LU factorization; an exactly zero pivot raises."""
    LU, pivots, _ = _L.linalg_lu_factor(A, pivot, True)
    return _lu_factor(LU, pivots)


def lu_factor_ex(A, *, pivot=True, check_errors=False):
    """(LU, pivots, info): info is the 1-based index of the first zero pivot per matrix (0: none)."""
    return _lu_factor_ex(*_L.linalg_lu_factor(A, pivot, check_errors, "torch.linalg.lu_factor_ex"))


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    """X with AX = B (left=False: XA = B; adjoint: A^H in place of A) from lu_factor's output."""
    return _L.lu_solve(LU, pivots, B, left, adjoint)


# ------------------------------------------- the torch.* functions and Tensor methods of the same ops

_plain_slogdet = _return_type("torch", "slogdet", ("sign", "logabsdet"))


def _top_slogdet(input):
    return _plain_slogdet(*_L.linalg_slogdet(input))


def _pinverse(input, rcond=1e-15):
    if not isinstance(rcond, (int, float)) or isinstance(rcond, bool):
        raise input.policy.errors.argument_type(fn="pinverse", argument="rcond", expected="float",
                                                type=type(rcond).__name__)
    return _L.linalg_pinv(input, rtol=rcond)


def _removed_matrix_rank(input, tol=None, symmetric=False, *, out=None):
    """Removed from PyTorch (since 1.9): raises as PyTorch's does, pointing to linalg.matrix_rank."""
    raise _policy_of(input).errors.matrix_rank_removed()


def _cholesky_solve(input, input2, upper=False):
    """X with A X = input for A = input2 input2^H (upper: input2^H input2)."""
    if not isinstance(upper, bool):     # (worded, with its position, by the facade's argument guard)
        raise _parser_words(_policy_of(input).errors.argument_type(
            fn="cholesky_solve", argument="upper", expected="bool", type=type(upper).__name__), "upper")
    return _L.cholesky_solve(input, input2, upper)


_TOP_LEVEL = {"cholesky_solve": _cholesky_solve, "det": det, "inverse": inv, "slogdet": _top_slogdet, "logdet": _L.logdet, "matrix_exp": matrix_exp,
             "pinverse": _pinverse, "matrix_power": matrix_power}
