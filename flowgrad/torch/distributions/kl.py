"""torch.distributions.kl (flowgrad/distributions/kl.py)."""
from ...distributions.kl import kl_divergence, register_kl  # noqa: F401

__all__ = ["register_kl", "kl_divergence"]
