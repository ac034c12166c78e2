"""paddle.regularizer: weight-decay coefficients for the optimizers."""
from __future__ import annotations


class WeightDecayRegularizer:
    """Base class of the regularizers."""


class L2Decay(WeightDecayRegularizer):
    """Adds `coeff * param` to each gradient."""

    def __init__(self, coeff: float = 0.0) -> None:
        self.coeff = float(coeff)

    def __str__(self) -> str:
        return f"L2Decay, coeff={self.coeff:f}"


class L1Decay(WeightDecayRegularizer):
    """Adds `coeff * sign(param)` to each gradient (not supported by flowgrad's optimizers)."""

    def __init__(self, coeff: float = 0.0) -> None:
        self.coeff = float(coeff)

    def __str__(self) -> str:
        return f"L1Decay, coeff={self.coeff:f}"
