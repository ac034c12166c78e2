"""torch.linalg: PyTorch's linear-algebra names over flowgrad's op table."""
from __future__ import annotations

from ..messages.linalg import LinAlgError  # noqa: F401
from ..ops import linalg_decomp as _L
from ..ops.linalg import matmul  # noqa: F401
from ..facade.surface import _return_type

_slogdet = _return_type("torch", "linalg_slogdet", ("sign", "logabsdet"))
_svd = _return_type("torch", "linalg_svd", ("U", "S", "Vh"))
_eigh = _return_type("torch", "linalg_eigh", ("eigenvalues", "eigenvectors"))
_qr = _return_type("torch", "linalg_qr", ("Q", "R"))
_lstsq = _return_type("torch", "linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))

inv = _L.linalg_inv
det = _L.linalg_det
solve = _L.linalg_solve
svdvals = _L.linalg_svdvals
eigvalsh = _L.linalg_eigvalsh
matrix_exp = _L.linalg_matrix_exp
vector_norm = _L.vector_norm
matrix_norm = _L.matrix_norm
norm = _L.linalg_norm


def slogdet(A):
    """(sign, logabsdet) of a (batch of) square matrices, as torch.return_types.slogdet."""
    return _slogdet(*_L.linalg_slogdet(A))


def svd(A, full_matrices=True, *, driver=None):
    """(U, S, Vh) of a (batch of) matrices, as torch.return_types.linalg_svd."""
    return _svd(*_L.linalg_svd(A, full_matrices))


def eigh(A, UPLO="L"):
    """(eigenvalues, eigenvectors) of a (batch of) symmetric matrices, as torch.return_types.linalg_eigh."""
    return _eigh(*_L.linalg_eigh(A, UPLO))


def qr(A, mode="reduced"):
    """(Q, R) of a (batch of) matrices, as torch.return_types.linalg_qr."""
    return _qr(*_L.linalg_qr(A, mode))


def cholesky(A, *, upper=False):
    """The lower (upper=True: upper) Cholesky factor of a (batch of) positive-definite matrices."""
    return _L.linalg_cholesky(A, upper)


def pinv(A, *, atol=None, rtol=None, hermitian=False):
    """The pseudoinverse of a (batch of) matrices; singular values at or below
    max(atol, rtol * largest) are treated as zero."""
    return _L.linalg_pinv(A, atol, rtol, hermitian)


def lstsq(A, B, rcond=None, *, driver=None):
    """(solution, residuals, rank, singular_values) of min ||AX - B||, as torch.return_types.linalg_lstsq."""
    return _lstsq(*_L.linalg_lstsq(A, B, rcond, driver))
