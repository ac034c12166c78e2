"""paddle.nn.ClipGradByGlobalNorm / ClipGradByNorm / ClipGradByValue: gradient clipping that an
optimizer applies (`grad_clip=`) to its parameters' gradients before each step."""
from __future__ import annotations

import math

from ... import backend


def _grads(params: list) -> list:
    """The parameters whose gradients are clipped: those with one, trainable, and `need_clip`."""
    return [p for p in params if p._grad is not None and not p.stop_gradient and getattr(p, "need_clip", True)]


class ClipGradByGlobalNorm:
    """Scale all gradients by `clip_norm / max(global_norm, clip_norm)`."""

    def __init__(self, clip_norm: float, group_name: str = "default_group", auto_skip_clip: bool = False) -> None:
        self.clip_norm = float(clip_norm)

    def __call__(self, params: list) -> None:
        grads = [p._grad for p in _grads(params)]
        if not grads:
            return
        total = math.sqrt(sum(float(backend.namespace(g._data).sum(g._data.astype("float64") ** 2)) for g in grads))
        scale = self.clip_norm / max(total, self.clip_norm)
        for g in grads:
            g._data *= g._data.dtype.type(scale)

    def __str__(self) -> str:
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"


class ClipGradByNorm:
    """Scale each gradient whose L2 norm exceeds `clip_norm` down to that norm."""

    def __init__(self, clip_norm: float) -> None:
        self.clip_norm = float(clip_norm)

    def __call__(self, params: list) -> None:
        for p in _grads(params):
            g = p._grad._data
            norm = math.sqrt(float(backend.namespace(g).sum(g.astype("float64") ** 2)))
            if norm > self.clip_norm:
                g *= g.dtype.type(self.clip_norm / norm)

    def __str__(self) -> str:
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"


class ClipGradByValue:
    """Clip every gradient element into [min, max] (min defaults to -max)."""

    def __init__(self, max: float, min: float | None = None) -> None:
        self.max = float(max)
        self.min = -self.max if min is None else float(min)

    def __call__(self, params: list) -> None:
        for p in _grads(params):
            g = p._grad._data
            backend.namespace(g).clip(g, self.min, self.max, out=g)

    def __str__(self) -> str:
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"
