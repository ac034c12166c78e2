"""Ready-made parametrizations (PyTorch's torch.nn.utils.parametrizations): weight
normalisation, spectral normalisation and orthogonal matrices, registered through `parametrize`."""
from __future__ import annotations

from .. import backend, creation, ops
from ..ops import linalg_decomp
from ..autograd import mode
from ..tensor import Tensor
from . import parametrize
from .conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .functional import normalize
from .module import Module

__all__ = ["orthogonal", "weight_norm", "spectral_norm"]

ORTHOGONAL_MAPS = ("matrix_exp", "cayley", "householder")


def norm_except_dim(v: Tensor, dim: int) -> Tensor:
    """The 2-norm of `v` over every dim but `dim`, kept as size-1 dims (the whole norm for -1)."""
    if dim == -1:
        return ops.norm(v)
    return ops.norm(v, 2, [d for d in range(v.dim()) if d != dim], keepdim=True)


class _WeightNorm(Module):
    """weight = g * v / ||v|| (the norm over all dims but `dim`), from the originals (g, v)."""

    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        return weight_v * (weight_g / norm_except_dim(weight_v, self.dim))

    def right_inverse(self, weight: Tensor):
        return norm_except_dim(weight, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int = 0) -> Module:
    """Parametrize `module.<name>` by its magnitude (`original0`) and direction (`original1`)."""
    parametrize.register_parametrization(module, name, module._layer(_WeightNorm)(dim), unsafe=True)
    return module


class _SpectralNorm(Module):
    """weight / sigma, sigma the largest singular value estimated by power iteration (one
    iteration per forward in training; `_u`, `_v` are buffers)."""

    def __init__(self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        super().__init__()
        policy = weight.policy
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise policy.errors.param_spectral_dim(low=-ndim, high=ndim - 1, dim=dim)
        if n_power_iterations <= 0:
            raise policy.errors.param_power_iterations(n=n_power_iterations)
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            xp_data = weight_mat._data
            u = weight_mat._new(creation.normal_like(xp_data[:, 0], 0.0, 1.0))
            v = weight_mat._new(creation.normal_like(xp_data[0, :], 0.0, 1.0))
            self.register_buffer("_u", normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            weight = ops.permute(weight, self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return ops.flatten(weight, 1)

    def _power_method(self, weight_mat: Tensor, n_power_iterations: int) -> None:
        with mode.no_grad():
            for _ in range(n_power_iterations):
                self._u = normalize(ops.mv(weight_mat, self._v), dim=0, eps=self.eps)
                self._v = normalize(ops.mv(ops.transpose(weight_mat, 0, 1), self._u), dim=0, eps=self.eps)

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = ops.dot(u, ops.mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: int | None = None) -> Module:
    """Parametrize `module.<name>` as itself divided by its spectral norm (power iteration)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise module._tensor_cls.policy.errors.param_spectral_no_tensor(module=module, name=name)
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    parametrize.register_parametrization(module, name,
                                         module._layer(_SpectralNorm)(weight, n_power_iterations, dim, eps))
    return module


def _eye_like(X: Tensor, n: int) -> Tensor:
    d = X._data
    return X._new(backend.namespace(d).eye(n, dtype=d.dtype))


def _mT(X: Tensor) -> Tensor:
    return ops.transpose(X, -2, -1)


def householder_product(A: Tensor, tau: Tensor) -> Tensor:
    """The first k columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^T with v_i column i of A below
    the diagonal and 1 on it (LAPACK's orgqr), composed of differentiable ops."""
    n, k = A.shape[-2], A.shape[-1]
    d = A._data
    xp = backend.namespace(d)
    unit = A._new(xp.eye(n, k, dtype=d.dtype))
    V = ops.tril(A, -1) + unit
    Q = _eye_like(A, n)
    for i in range(k):
        v = V[..., :, i:i + 1]
        Q = Q - ops.matmul(ops.matmul(Q, v), _mT(v)) * ops.unsqueeze(ops.unsqueeze(tau[..., i], -1), -1)
    return Q[..., :, :k]


def _make_orthogonal(A: Tensor) -> Tensor:
    """The Q of A's QR decomposition with R's diagonal made positive."""
    Q, R = linalg_decomp.linalg_qr(A)
    return Q * ops.unsqueeze(ops.sign(linalg_decomp.diagonal(R)), -2)


def _is_orthogonal(Q: Tensor) -> bool:
    n, k = Q.shape[-2], Q.shape[-1]
    d = Q._data
    xp = backend.namespace(d)
    eps = 10.0 * n * float(xp.finfo(d.dtype).eps)
    return bool(xp.allclose(ops.matmul(_mT(Q), Q)._data, xp.eye(k, dtype=d.dtype), atol=eps))


class _Orthogonal(Module):
    """An orthogonal (semi-orthogonal) matrix from an unconstrained one: the exponential or the
    Cayley map of its skew-symmetric part, or a product of Householder reflections; with
    `use_trivialization`, relative to the buffer `base`."""

    def __init__(self, weight: Tensor, orthogonal_map: str, *, use_trivialization: bool = True) -> None:
        super().__init__()
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X: Tensor) -> Tensor:
        n, k = X.shape[-2], X.shape[-1]
        transposed = n < k
        if transposed:
            X = _mT(X)
            n, k = k, n
        if self.orthogonal_map in ("matrix_exp", "cayley"):
            X = ops.tril(X)
            if n != k:
                d = X._data
                zeros = X._new(backend.namespace(d).zeros((*X.shape[:-2], n, n - k), dtype=d.dtype))
                X = ops.cat([X, zeros], -1)
            A = X - _mT(X)
            if self.orthogonal_map == "matrix_exp":
                Q = linalg_decomp.linalg_matrix_exp(A)
            else:
                Id = _eye_like(A, n)
                Q = linalg_decomp.linalg_solve(Id - A * 0.5, Id + A * 0.5)
            if n != k:
                Q = Q[..., :k]
        else:
            A = ops.tril(X, -1)
            tau = 2.0 / (1.0 + ops.sum(A * A, -2))
            Q = householder_product(A, tau)
            diag = linalg_decomp.diagonal(X)
            Q = Q * ops.unsqueeze(diag._new(diag._data.astype("int32")), -2)
        if hasattr(self, "base"):
            Q = ops.matmul(self.base, Q)
        if transposed:
            Q = _mT(Q)
        return Q

    def right_inverse(self, Q: Tensor) -> Tensor:
        policy = Q.policy
        if Q.shape != self.shape:
            raise policy.errors.param_orthogonal_shape(expected=self.shape, got=Q.shape)
        with mode.no_grad():
            Q_init = Q
            n, k = Q.shape[-2], Q.shape[-1]
            transpose = n < k
            if transpose:
                Q = _mT(Q)
                n, k = k, n
            if not hasattr(self, "base"):
                if self.orthogonal_map in ("matrix_exp", "cayley"):
                    raise policy.errors.param_orthogonal_assign()
                A = _geqrf_compact(Q)
                return _mT(A) if transpose else A
            if n == k:
                Q = _make_orthogonal(Q) if not _is_orthogonal(Q) else ops.clone(Q)
            else:
                d = Q._data
                N = Q._new(creation.normal_like(backend.namespace(d).empty((*Q.shape[:-2], n, n - k), d.dtype),
                                                0.0, 1.0))
                Q = _make_orthogonal(ops.cat([Q, N], -1))
            self.base = Q
            d = Q_init._data
            xp = backend.namespace(d)
            neg_Id = xp.zeros_like(d)
            diag = xp.arange(min(d.shape[-2:]))
            neg_Id[..., diag, diag] = -1.0
            return Q_init._new(neg_Id)


def _geqrf_compact(Q: Tensor) -> Tensor:
    """LAPACK's geqrf storage of Q's QR (R on and above the diagonal, the reflectors below), with
    the diagonal replaced by the signs PyTorch keeps there (negated where tau is 0)."""
    d = Q._data
    xp = backend.namespace(d)
    flat = d.reshape(-1, *d.shape[-2:])
    out = xp.empty_like(flat)
    for b in range(flat.shape[0]):
        h, tau = xp.linalg.qr(flat[b], mode="raw")
        a = h.T.copy()
        i = xp.arange(tau.shape[0])
        a[i, i] = xp.where(tau == 0.0, -xp.sign(a[i, i]), xp.sign(a[i, i]))
        out[b] = a
    return Q._new(out.reshape(d.shape))


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Parametrize `module.<name>` (a matrix or a batch of them) as an orthogonal matrix."""
    policy = module._tensor_cls.policy
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise policy.errors.param_spectral_no_tensor(module=module, name=name)
    if weight.ndim < 2:
        raise policy.errors.param_orthogonal_ndim(ndim=weight.ndim)
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.shape[-2] == weight.shape[-1] else "householder"
    if orthogonal_map not in ORTHOGONAL_MAPS:
        raise policy.errors.param_orthogonal_map(got=orthogonal_map)
    orth = module._layer(_Orthogonal)(weight, orthogonal_map, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module
