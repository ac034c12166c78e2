"""Complex tensors apart and together: real / imag (views: a select of view_as_real, as PyTorch
records them), angle, complex(real, imag), view_as_real / view_as_complex. Gradients follow PyTorch's convention (dL/dRe + i dL/dIm); a real
gradient flowing into a complex input becomes complex, a complex one into a real input keeps its real
part (the engine's cast)."""
from __future__ import annotations

import numpy as np

from .. import backend
from ..tensor import Tensor
from ._args import broadcast_error
from ._declare import _grad_enabled, derivative
from . import elementwise as E
from . import shape as S

__all__ = ["real", "imag", "angle", "complex", "view_as_real", "view_as_complex"]


def real(x: Tensor) -> Tensor:
    """The real part: a view of a complex tensor, a real tensor itself."""
    if x._data.dtype.kind != "c":
        return x
    return S.select(view_as_real(x), -1, 0)


def imag(x: Tensor) -> Tensor:
    """The imaginary part of a complex tensor, as a view (refused for a real tensor, as in PyTorch)."""
    if x._data.dtype.kind != "c":
        raise x.policy.errors.imag_real()
    return S.select(view_as_real(x), -1, 1)


def _angle_grad(grad, self):
    """i z / |z|^2 (0 at 0) for a complex input; 0 for a real one."""
    if self._data.dtype.kind != "c":
        return grad * 0
    sq = E.abs(self) ** 2
    return E.where(sq == 0, grad * 0j, grad * self / E.where(sq == 0, sq + 1, sq) * 1j)


AngleBackward0 = derivative("AngleBackward0", self=_angle_grad)


def angle(x: Tensor) -> Tensor:
    """The argument of each element (real: 0, or pi for negatives; NaN kept); ints give the default float."""
    d = x._data
    xp = backend.namespace(d)
    if d.dtype.kind == "c":
        r = xp.angle(d)
    else:
        if d.dtype.kind not in "fV":
            d = d.astype(backend.default_float())
        r = xp.where(d < 0, np.pi, 0).astype(d.dtype)
        r = xp.where(xp.isnan(d), d, r)
    out = x._out_cls._make(r)
    if _grad_enabled() and x._requires_grad:
        AngleBackward0.record((x,), out)
    return out


ComplexBackward0 = derivative("ComplexBackward0", self=lambda grad: real(grad), other=lambda grad: imag(grad))


def complex(re: Tensor, im: Tensor) -> Tensor:
    """re + i im, of the complex dtype matching the (equal) float dtypes of both parts."""
    da, db = re._data, im._data
    policy = re.policy
    if da.dtype.kind not in "fV" or db.dtype.kind not in "fV":
        raise policy.errors.complex_parts_dtype(a_scalar=da.dtype, b_scalar=db.dtype)
    if da.dtype != db.dtype:
        raise policy.errors.complex_parts_same(a_scalar=da.dtype, b_scalar=db.dtype)
    if da.dtype == np.float16:
        raise policy.errors.complex_unsupported(op="complex32 (complex of float16 parts)")
    dt = np.dtype(np.complex128) if da.dtype == np.float64 else np.dtype(np.complex64)
    xp = backend.namespace(da)
    err = broadcast_error(da.shape, db.shape, policy)
    if err is not None:
        raise err
    shape = np.broadcast_shapes(da.shape, db.shape)
    r = xp.empty(shape, dt)
    r.real, r.imag = da, db
    out = re._out_cls._make(r)
    if _grad_enabled() and (re._requires_grad or im._requires_grad):
        ComplexBackward0.record((re, im), out)
    return out


ViewAsRealBackward0 = derivative("ViewAsRealBackward0", self=lambda grad: view_as_complex(S.contiguous(grad)))
ViewAsComplexBackward0 = derivative("ViewAsComplexBackward0", self=lambda grad: view_as_real(grad))


def view_as_real(x: Tensor) -> Tensor:
    """A complex tensor's memory as reals with a last dimension of 2 (real, imaginary): a view."""
    d = x._data
    if d.dtype.kind != "c":
        raise x.policy.errors.view_as_real_dtype()
    out = S._view_out(x, d[..., None].view(d.real.dtype), view_as_real)
    if _grad_enabled() and x._requires_grad:
        ViewAsRealBackward0.record((x,), out)
    return out


def view_as_complex(x: Tensor) -> Tensor:
    """A real tensor whose last dimension is 2 (real, imaginary) read as complex: a view."""
    d = x._data
    policy = x.policy
    if d.dtype.kind not in "fV":
        raise policy.errors.view_as_complex_dtype(dtype_scalar=d.dtype)
    if d.dtype == np.float16:
        raise policy.errors.complex_unsupported(op="view_as_complex of float16 (complex32)")
    if d.ndim == 0:
        raise policy.errors.view_as_complex_0d()
    if d.shape[-1] != 2:
        raise policy.errors.view_as_complex_last()
    if d.strides[-1] != d.itemsize:
        raise policy.errors.view_as_complex_stride()
    dt = np.dtype(np.complex128) if d.dtype == np.float64 else np.dtype(np.complex64)
    out = S._view_out(x, d.view(dt)[..., 0], view_as_complex)
    if _grad_enabled() and x._requires_grad:
        ViewAsComplexBackward0.record((x,), out)
    return out


METHODS = {"real": property(real), "imag": property(imag), "angle": angle, "conj": E.conj,
           "conj_physical": E.conj_physical, "resolve_conj": E.resolve_conj, "sgn": E.sgn}
