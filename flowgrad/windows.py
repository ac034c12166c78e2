"""The window functions of signal processing as PyTorch defines them (hann, hamming, blackman,
bartlett, kaiser): symmetric, or periodic (the symmetric window one longer, its last value dropped)."""
from __future__ import annotations

import math

import numpy as np

from . import backend
from .autograd.policy import TORCH, Policy

KINDS = ("hann", "hamming", "blackman", "bartlett", "kaiser")


def window(kind: str, length: int, periodic: bool = True, dtype=None, device=None, *, alpha: float = 0.54,
           beta: float = 0.46, policy: Policy = TORCH):
    """The array of the `kind` window of `length` points (hamming's `alpha` / `beta`, kaiser's `beta`),
    computed in float64 and stored in `dtype` (the default float dtype by default) on `device`."""
    fn = f"{kind}_window"
    if length < 0:
        raise policy.errors.window_length(fn=fn, length=length)
    dt = backend.to_np_dtype(dtype) or backend.default_float()
    if dt.kind == "c":
        raise policy.errors.not_implemented_for(op="arange_cpu", dtype_scalar=dt)
    if dt.kind not in "fV":
        raise policy.errors.window_dtype(fn=fn, dtype_ctype=dt)
    xp = backend.xp_for_dtype(device, dt)
    if length <= 1:
        return xp.ones((length,), dtype=dt)
    n = length + 1 if periodic else length
    i = np.arange(n, dtype=np.float64)
    if kind in ("hann", "hamming"):
        a, b = (0.5, 0.5) if kind == "hann" else (alpha, beta)
        w = a - b * np.cos(2 * math.pi * i / (n - 1))
    elif kind == "blackman":
        t = math.pi * i / (n - 1)
        w = 0.08 * np.cos(4 * t) - 0.5 * np.cos(2 * t) + 0.42
    elif kind == "bartlett":
        w = 1 - np.abs(2 * i / (n - 1) - 1)
    else:
        half = (n - 1) / 2.0
        w = np.i0(beta * np.sqrt(np.maximum(0.0, 1 - ((i - half) / half) ** 2))) / np.i0(beta)
    return xp.asarray(w[:length].astype(dt))
