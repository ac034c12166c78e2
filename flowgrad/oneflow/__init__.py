"""flowgrad's OneFlow facade: `import flowgrad.oneflow as flow`.

OneFlow's names, signatures, defaults, messages, engine policy and print format over flowgrad's one
engine: `flow.autograd.backward(tensors, grad_tensors, ...)`, grads accumulated in place, nodes
released after a pass only where they saved a tensor, used leaves showing an `accumulategrad`
grad_fn, `dtype=oneflow.float32` always printed, `device(type='cpu', index=0)`. The namespace is
built by the facade kit (`flowgrad.facade`) from the classes in `_tensor`.
"""
from __future__ import annotations

from ..ops import linalg_decomp as _linalg_decomp
from ..facade import populate_torch_family as _populate
from ..facade.naming import Version as _Version
from ._tensor import DTYPES as _DTYPES
from ._tensor import PRINTER as _PRINTER
from ._tensor import Size, Tensor, device, dtype

__version__ = _Version("0.9.0+flowgrad")

_populate(globals(), __name__, Tensor, _DTYPES)
# torch-family functions OneFlow's namespace does not have
for _name in ("addbmm", "addmv", "addr", "cov", "corrcoef", "gcd", "lcm", "nanquantile", "rot90", "block_diag",
              "cartesian_prod", "combinations", "take", "put", "isin", "histogram", "trapezoid", "trapz",
              "cumulative_trapezoid", "vander", "hamming_window", "blackman_window", "bartlett_window",
              "kaiser_window", "poisson", "inner", "vdot", "ger", "masked_scatter", "unflatten", "bitwise_left_shift",
              "bitwise_right_shift", "celu", "rrelu", "hardshrink", "selu_", "celu_", "threshold_", "rrelu_"):
    del globals()[_name]
del _name


def cross(input, other, dim=-1):
    """OneFlow's cross is linalg.cross: over the last dim by default."""
    return _linalg_decomp.linalg_cross(input, other, dim=dim)
set_printoptions = _PRINTER.set_printoptions

from ..facade import adopt as _adopt  # noqa: E402
from ..facade import dtypeinfo as _dtypeinfo, settings as _settings, threads as _threads  # noqa: E402

_runtime = {**_threads.build(Tensor.policy), **_dtypeinfo.build(__name__, _DTYPES, Tensor.policy),
            **_settings.build(Tensor.policy)}
_adopt(_runtime, __name__)
globals().update(_runtime)

# ---------------------------------------------------------------------------- submodules
from . import autograd, cuda, nn, optim, utils  # noqa: E402
from .serialization import load, save  # noqa: E402,F401
from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled  # noqa: E402,F401
