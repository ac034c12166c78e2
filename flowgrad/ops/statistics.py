"""Statistics composed of the op table as PyTorch composes them (so they record its nodes): cov
(frequency and analytic weights, a correction) and corrcoef."""
from __future__ import annotations

import warnings

from ..tensor import Tensor
from . import complex_numbers as C
from . import elementwise as E
from . import linalg as L
from . import reduction as R
from . import shape as S

__all__ = ["cov", "corrcoef"]


def _check_weights(x, w, name: str, observations: int) -> None:
    policy, d = x.policy, w._data
    if d.ndim > 1:
        raise policy.errors.cov_weights_ndim(name=name, ndim=d.ndim)
    integral = d.dtype.kind in "iu"
    if integral != (name == "fweights") or (not integral and d.dtype.kind not in "fV"):
        raise policy.errors.cov_weights_dtype(name=name, dtype_scalar=d.dtype,
                                              wanted="integral" if name == "fweights" else "floating point")
    if d.size != observations:
        raise policy.errors.cov_weights_numel(name=name, numel=d.size, observations=observations)
    if observations and bool((d < 0).any()):
        raise policy.errors.cov_weights_negative(name=name)


def cov(input, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in `input`'s rows (a 1-D input: one variable), each
    observation weighted by `fweights * aweights`, normalised by the weights' sum less `correction`."""
    policy, d = input.policy, input._data
    if d.ndim > 2:
        raise policy.errors.stat_ndim(op="cov", ndim=d.ndim)
    if d.dtype.kind == "b":
        raise policy.errors.cov_bool()
    if not isinstance(correction, int) or isinstance(correction, bool):
        raise policy.errors.cov_correction_type(type=type(correction).__name__)
    x = S.reshape(input, (1, -1)) if d.ndim < 2 else input
    observations = x._data.shape[1]
    w = None
    for name, weights in (("fweights", fweights), ("aweights", aweights)):
        if weights is not None:
            _check_weights(input, weights, name, observations)
            w = weights if w is None else w * weights
    if w is None:
        w_sum = observations
        avg = E.div(R.sum(x, 1), w_sum)
        factor = w_sum - correction
    else:
        w_sum = R.sum(w)
        if not bool(w_sum._data != 0):
            raise policy.errors.cov_weights_zero()
        avg = R.sum(x * w, 1) / w_sum
        factor = (w_sum - correction * R.sum(w * aweights) / w_sum) if aweights is not None and correction \
            else w_sum - correction
    if bool(factor <= 0 if not isinstance(factor, Tensor) else (factor._data <= 0)):
        warnings.warn(policy.errors.cov_dof())
        factor = 0 if not isinstance(factor, Tensor) else factor * 0
    x = x - S.unsqueeze(avg, 1)
    c = L.mm(x, E.conj(S.t(x * w if w is not None else x)))
    return S.squeeze(E.div(c, factor))


def corrcoef(input):
    """Pearson's correlation coefficients of the variables in `input`'s rows, clipped to [-1, 1]
    (a complex one: its real and imaginary parts each)."""
    d = input._data
    if d.ndim > 2:
        raise input.policy.errors.stat_ndim(op="corrcoef", ndim=d.ndim)
    c = cov(input)
    if c._data.ndim == 0:
        return c / c
    diag = S.diagonal(c)
    std = E.sqrt(C.real(diag) if diag._data.dtype.kind == "c" else diag)
    c = c / S.unsqueeze(std, 1)
    c = c / S.unsqueeze(std, 0)
    if c._data.dtype.kind == "c":
        return C.complex(E.clamp(C.real(c), -1, 1), E.clamp(C.imag(c), -1, 1))
    return E.clamp(c, -1, 1)


METHODS = {"cov": cov, "corrcoef": corrcoef}
