"""GroupNorm, InstanceNorm1d/2d/3d and LocalResponseNorm with PyTorch's constructors, parameters,
buffers, checks and `extra_repr`."""
from __future__ import annotations

import warnings

from . import functional as F
from . import init
from .layers import _BatchNorm
from .module import Module


class GroupNorm(Module):
    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True, device=None,
                 dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise self._tensor_cls.policy.errors.group_norm_channels(channels=num_channels, groups=num_groups)
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if affine:
            self.weight = self._new_parameter((num_channels,), dtype, device)
            if bias:
                self.bias = self._new_parameter((num_channels,), dtype, device)
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class _InstanceNorm(_BatchNorm):
    """Instance normalisation: the statistics of each sample and channel; running statistics (when
    tracked) average the batch's, and are used in eval mode."""
    _spatial = 1

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1, affine: bool = False,
                 track_running_stats: bool = False, device=None, dtype=None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def _check_input_dim(self, input) -> None:
        ndim = input._data.ndim
        if ndim not in (self._spatial + 1, self._spatial + 2):
            raise self._tensor_cls.policy.errors.instance_norm_input_dim(dims=f"{self._spatial + 1}D or {self._spatial + 2}D", ndim=ndim)

    def forward(self, input):
        self._check_input_dim(input)
        policy = self._tensor_cls.policy
        ndim = input._data.ndim
        feature_dim = ndim - (self._spatial + 1)
        got = input._data.shape[feature_dim]
        if got != self.num_features:
            if self.affine:
                raise policy.errors.instance_norm_features(dim=feature_dim, features=self.num_features, got=got)
            warnings.warn(policy.errors.instance_norm_features_warning(dim=feature_dim), stacklevel=2)
        unbatched = ndim == self._spatial + 1
        x = input.unsqueeze(0) if unbatched else input
        out = F.instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                              self.training or not self.track_running_stats,
                              self.momentum if self.momentum is not None else 0.0, self.eps)
        return out.squeeze(0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    _spatial = 1


class InstanceNorm2d(_InstanceNorm):
    _spatial = 2


class InstanceNorm3d(_InstanceNorm):
    _spatial = 3


class LocalResponseNorm(Module):
    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)
