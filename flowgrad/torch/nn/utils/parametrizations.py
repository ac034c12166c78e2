"""torch.nn.utils.parametrizations for the torch facade (flowgrad/nn/parametrizations.py)."""

from ....nn.parametrizations import orthogonal, spectral_norm, weight_norm  # noqa: F401

__all__ = ["orthogonal", "weight_norm", "spectral_norm"]
