"""Ready-made parametrizations (PyTorch's torch.nn.utils.parametrizations): weight
normalisation and spectral normalisation, registered through `parametrize`."""
from __future__ import annotations

from .. import creation, ops
from ..autograd import mode
from ..tensor import Tensor
from . import parametrize
from .conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .functional import normalize
from .module import Module

__all__ = ["weight_norm", "spectral_norm"]


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
