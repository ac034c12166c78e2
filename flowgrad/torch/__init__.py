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
index_put = _ops.index_put_values
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
# linalg is loaded with the namespace (its top-level names are torch's); the other submodules, and the
# names torch takes from them, load on first use (`torch.nn.Linear` after a plain `import torch`)
from . import linalg, version  # noqa: E402
globals().update(linalg._TOP_LEVEL)
matrix_rank = linalg._removed_matrix_rank
matrix_rank.__name__ = matrix_rank.__qualname__ = "matrix_rank"
for _name, _fn in linalg._TOP_LEVEL.items():
    setattr(Tensor, _name, _fn)
del _name, _fn
_kit_signatures.apply(globals(), Tensor, _torch_signatures.LINALG_TOP_LEVEL, {}, frozenset())

# PyTorch's TypeError for a mistyped argument, looked for only when a call fails
from . import _argtypes  # noqa: E402

_argtypes.guard(globals(), list(globals()))
_kit_signatures.apply(vars(linalg), Tensor, _torch_signatures.LINALG, {}, frozenset())
_argtypes.guard(vars(linalg), dir(linalg), prefix="linalg_", overloads=_argtypes.LINALG_OVERLOADS)
_argtypes.guard(Tensor, dir(Tensor), method=True, overloads=_argtypes.METHOD_OVERLOADS)

from ..facade import lazy as _lazy  # noqa: E402

_lazy.attach(globals(), ("accelerator", "amp", "autograd", "backends", "cpu", "cuda", "distributions", "func", "jit",
                         "nn", "optim", "serialization", "utils"),
             {"vmap": "func", "autocast": "amp", "load": "serialization", "save": "serialization"},
             bind=lambda name, value: _argtypes.guard({"__name__": __name__, name: value}, [name]).get(value, value))
