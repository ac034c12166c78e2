"""Constant padding (convolution is in conv_nd, pooling in pooling, reflection and replication
padding in padding)."""
from __future__ import annotations

from .. import backend
from ._declare import _grad_enabled, derivative

__all__ = ["constant_pad"]


# -------------------------------------------------------------------------------------- padding

# padding's adjoint is the opposite crop (and a crop's is zero padding): pad by the negation
ConstantPadNdBackward0 = derivative("ConstantPadNdBackward0", complex=True, keep="pad",
                                    self=lambda grad, pad: constant_pad(grad, tuple(-p for p in pad), 0))


def constant_pad(x, pad, value=0):
    """PyTorch's F.pad(mode='constant'): `pad` lists (before, after) pairs from the last dim back;
    negative amounts crop."""
    d = x._data
    xp = backend.namespace(d)
    nd = d.ndim
    if len(pad) % 2 or len(pad) // 2 > nd:
        raise x.policy.errors.pad_length_dims(length=len(pad), ndim=nd)
    widths = [(0, 0)] * nd
    crop = [slice(None)] * nd
    for i in range(len(pad) // 2):
        dim = nd - 1 - i
        lo, hi = int(pad[2 * i]), int(pad[2 * i + 1])
        crop[dim] = slice(-lo if lo < 0 else 0, d.shape[dim] + hi if hi < 0 else d.shape[dim])
        widths[dim] = (max(lo, 0), max(hi, 0))
        if d.shape[dim] + lo + hi < 0:
            raise x.policy.errors.narrow_length()   # (PyTorch 2.13 crops with narrow)
    r = d[tuple(crop)]
    if any(a or b for a, b in widths):
        r = xp.pad(r, widths, constant_values=value)
    else:
        r = r.copy()
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        ConstantPadNdBackward0.record((x,), out, tuple(int(p) for p in pad))
    return out
