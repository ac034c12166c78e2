"""flowgrad's PyTorch facade: `import flowgrad.torch as torch`.

PyTorch's names, signatures, defaults, messages and print format over flowgrad's one engine; the
namespace is built by the facade kit (`flowgrad.facade`) from the classes in `_tensor`.
"""

from ..facade import populate_torch_family as _populate
from ._tensor import DTYPES as _DTYPES
from ._tensor import PRINTER as _PRINTER
from ._tensor import Size, Tensor, device, dtype
from .version import __version__


_populate(globals(), __name__, Tensor, _DTYPES, methods_only=("expand", "repeat"))
# complex numbers: the ops PyTorch offers as functions (Tensor methods come with the op table)
from .. import ops as _ops  # noqa: E402
globals().update({_name: getattr(_ops, _name) for _name in (
    "real", "imag", "angle", "conj", "conj_physical", "resolve_conj", "complex", "view_as_real", "view_as_complex")})
from ..facade import signatures as _kit_signatures  # noqa: E402
from . import _signatures as _torch_signatures  # noqa: E402

Tensor.bernoulli, Tensor.multinomial = bernoulli, multinomial     # PyTorch's methods of the same draws

_kit_signatures.apply(globals(), Tensor, _torch_signatures.FUNCTIONS, _torch_signatures.METHODS,
                  _torch_signatures.WRITES_OUT)
set_printoptions = _PRINTER.set_printoptions
from ..facade.naming import memory_formats as _memory_formats  # noqa: E402
globals().update(_memory_formats(__name__, "torch"))

# the settings and queries every script's preamble touches (threads, dtype limits, determinism, compile)
from ..facade import adopt as _adopt  # noqa: E402
from ..facade import compiling as _compiling, dtypeinfo as _dtypeinfo, settings as _settings  # noqa: E402
from ..facade import threads as _threads  # noqa: E402

_runtime = {**_threads.build(Tensor.policy), **_dtypeinfo.build(__name__, _DTYPES, Tensor.policy),
            **_settings.build(Tensor.policy), "compile": _compiling.build_compile(Tensor.policy)}
_adopt(_runtime, __name__)
globals().update(_runtime)

# ---------------------------------------------------------------------------- submodules
from . import autograd  # noqa: E402
from . import cuda  # noqa: E402
from . import accelerator  # noqa: E402
from . import utils  # noqa: E402
from . import version  # noqa: E402
from . import nn  # noqa: E402
from . import optim  # noqa: E402
from . import linalg  # noqa: E402
from . import func  # noqa: E402
from . import distributions  # noqa: E402
from .func import vmap  # noqa: E402,F401
globals().update(linalg._TOP_LEVEL)
matrix_rank = linalg._removed_matrix_rank
matrix_rank.__name__ = matrix_rank.__qualname__ = "matrix_rank"
for _name, _fn in linalg._TOP_LEVEL.items():
    setattr(Tensor, _name, _fn)
del _name, _fn
_kit_signatures.apply(globals(), Tensor, _torch_signatures.LINALG_TOP_LEVEL, {}, frozenset())
from . import amp, backends, cpu, jit  # noqa: E402
from .amp import autocast  # noqa: E402,F401
from .serialization import load, save  # noqa: E402,F401

# PyTorch's TypeError for a mistyped argument, looked for only when a call fails
from ..facade import argtypes as _argtypes_kit  # noqa: E402
from . import _argtypes  # noqa: E402


def _guard(namespace, names, method=False, prefix="", overloads=_argtypes.OVERLOADS):
    return _argtypes_kit.guard_all(namespace, names, _argtypes.KINDS, Tensor.policy, Tensor, dtype, method,
                                   _argtypes.OVERRIDES, overloads, prefix, _argtypes.UNPACKING if method else None)


def _public(names):
    return [n for n in names if not n.startswith("_")]


_guard(globals(), _public(list(globals())))
_adapted = _kit_signatures.apply(vars(nn.functional), Tensor, _torch_signatures.FUNCTIONAL, {}, frozenset())
_guarded = _guard(vars(nn.functional), _public(dir(nn.functional)), overloads={})
nn.Module._facade_functions.update({**_guarded, **{neutral: _guarded.get(fn, fn) for neutral, fn in _adapted.items()}})
_kit_signatures.apply(vars(linalg), Tensor, _torch_signatures.LINALG, {}, frozenset())
_guard(vars(linalg), _public(dir(linalg)), prefix="linalg_", overloads=_argtypes.LINALG_OVERLOADS)
_guard(Tensor, _public(dir(Tensor)), method=True, overloads=_argtypes.METHOD_OVERLOADS)
del _guard, _public, _adapted, _guarded
