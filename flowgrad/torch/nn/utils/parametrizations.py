"""torch.nn.utils.parametrizations for the torch facade (flowgrad/nn/parametrizations.py)."""

from ....nn.parametrizations import spectral_norm, weight_norm  # noqa: F401

__all__ = ["weight_norm", "spectral_norm"]
