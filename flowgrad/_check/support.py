"""Whether flowgrad supports an API, asked of the facade itself: the attribute exists (a submodule
counts once importable), and a keyword is accepted by `inspect.signature` (`**kwargs` counts).
Answers are cached per API; facades are imported only when first asked about."""
from __future__ import annotations

import importlib
import inspect
import types
from typing import Callable, Mapping

from .. import shim

SUPPORTED, DIFFERS, UNSUPPORTED, UNRESOLVED = "supported", "differs", "unsupported", "unresolved"

_RANDOM = "random numbers come from NumPy's generator: the same distributions as {fw}, other values for a seed"
_SAVE = ("flowgrad writes and reads its own zip format (JSON + .npy): real {fw} cannot read flowgrad's files, nor "
         "flowgrad {fw}'s")

_RNG_STATE = "the state is flowgrad's own (48 bytes: the seed and NumPy's PCG64 state), not PyTorch's"
_AUTOCAST = ("flowgrad does not autocast: where PyTorch would run ops in bfloat16 / float16 it raises "
             "NotImplementedError; disabled or unsupported-dtype contexts change nothing, as in PyTorch")

#: API -> how flowgrad's facade is known to differ from the framework. The data behind
#: `known_differences`; a key is an API as `flowgrad check` names it (`torch.diag`, or a keyword:
#: `torch.diag(diagonal=)`).
KNOWN_DIFFERENCES: dict[str, dict[str, str]] = {
    "torch": {
        **{f"torch.{name}": _RANDOM.format(fw="PyTorch") for name in (
            "manual_seed", "seed", "rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like",
            "normal", "bernoulli", "multinomial", "nn.Dropout", "nn.functional.dropout")},
        "torch.save": _SAVE.format(fw="PyTorch"),
        "torch.load": _SAVE.format(fw="PyTorch"),
        "torch.diag(diagonal=)": "a non-zero offset with a vector input (building a matrix) raises NotImplementedError",
        **{f"torch.{name}": _RNG_STATE for name in ("get_rng_state", "set_rng_state", "Generator.get_state",
                                                     "Generator.set_state")},
        "torch.Generator": _RANDOM.format(fw="PyTorch"),
        "torch.compile": "checks its arguments, then returns the function or module itself: flowgrad runs eagerly "
                         "(no graph capture; the backend is never called)",
        "torch.jit.script": "returns the function, class or module unchanged: flowgrad has no TorchScript",
        "torch.jit.trace": "runs the function once on the example inputs and returns it unchanged: later calls run "
                           "the Python code again, data-dependent branches included",
        **{f"torch.{name}": _AUTOCAST for name in ("autocast", "amp.autocast", "cpu.amp.autocast",
                                                    "cuda.amp.autocast")},
        "torch.set_num_threads": "sizes NumPy's BLAS thread pool through threadpoolctl; without threadpoolctl the "
                                 "count is only recorded, with a warning",
        **{f"torch.cuda.{name}": "with CUDA, raises NotImplementedError: CuPy's memory pool keeps no peak"
           for name in ("max_memory_allocated", "max_memory_reserved", "reset_peak_memory_stats")},
    },
    "paddle": {
        **{f"paddle.{name}": _RANDOM.format(fw="Paddle") for name in (
            "seed", "rand", "randn", "randint", "randperm", "uniform", "normal", "standard_normal", "nn.Dropout",
            "nn.functional.dropout")},
        "paddle.regularizer.L1Decay": "flowgrad's paddle optimizers refuse it as weight_decay (NotImplementedError); "
                                      "L2Decay and floats work",
    },
    "oneflow": {
        **{f"oneflow.{name}": _RANDOM.format(fw="OneFlow") for name in (
            "manual_seed", "seed", "rand", "randn", "randint", "randperm", "normal", "nn.Dropout",
            "nn.functional.dropout")},
        **{f"oneflow.{name}": _SAVE.format(fw="OneFlow") for name in ("save", "load")},
        "oneflow.set_printoptions": "linewidth defaults to 80 (OneFlow takes the terminal's width)",
    },
}


def known_differences(framework: str) -> Mapping[str, str]:
    """API -> reason, for each API of `framework` that flowgrad supports but is known to run differently.
    The hook `flowgrad check` asks; it reads KNOWN_DIFFERENCES (a conformance run can extend that table)."""
    return KNOWN_DIFFERENCES.get(framework, {})


def split_keyword(api: str) -> tuple[str, str | None]:
    """"torch.zeros(dtype=)" -> ("torch.zeros", "dtype"); "torch.zeros" -> ("torch.zeros", None)."""
    if api.endswith("=)"):
        base, _, kw = api[:-2].rpartition("(")
        return base, kw
    return api, None


class Support:
    """Cached answers about one process's facades."""

    def __init__(self, differences: Callable[[str], Mapping[str, str]] = known_differences):
        self._differences = differences
        self._facades: dict[str, types.ModuleType | None] = {}
        self._objects: dict[str, tuple[object, str | None]] = {}
        self._status: dict[str, tuple[str, str | None]] = {}
        self._tensor_names: dict[str, frozenset[str]] = {}

    def facade(self, framework: str) -> types.ModuleType | None:
        """The facade module, or None where this flowgrad has none."""
        if framework not in self._facades:
            mod = None
            if shim.available(framework):
                mod = importlib.import_module(shim.FACADES[framework])
            self._facades[framework] = mod
        return self._facades[framework]

    def resolve(self, api: str) -> tuple[object, str | None]:
        """(the facade's object for a dotted API, None) or (None, why it is missing)."""
        hit = self._objects.get(api)
        if hit is not None:
            return hit
        head, _, last = api.rpartition(".")
        if not head:
            mod = self.facade(api)
            hit = (mod, None) if mod is not None else (None, f"flowgrad has no {api} facade")
        else:
            parent, why = self.resolve(head)
            hit = (None, why) if why is not None else self._attribute(parent, head, last)
        self._objects[api] = hit
        return hit

    def _attribute(self, parent: object, head: str, name: str) -> tuple[object, str | None]:
        missing = (None, f"flowgrad's {head} has no {name!r}")
        try:
            return getattr(parent, name), None
        except AttributeError:
            if not isinstance(parent, types.ModuleType):
                return missing
        except Exception as exc:  # a property or lazy loader failing counts as missing, with its reason
            return None, f"looking up {head}.{name} raised {type(exc).__name__}: {exc}"
        try:
            return importlib.import_module(f"{parent.__name__}.{name}"), None
        except ImportError:
            return missing
        except Exception as exc:
            return None, f"importing {head}.{name} raised {type(exc).__name__}: {exc}"

    def status(self, api: str, framework: str) -> tuple[str, str | None]:
        """(supported | differs | unsupported, reason) for an API or keyword API of `framework`."""
        hit = self._status.get(api)
        if hit is None:
            hit = self._status[api] = self._decide(api, framework)
        return hit

    def _decide(self, api: str, framework: str) -> tuple[str, str | None]:
        base, keyword = split_keyword(api)
        obj, why = self.resolve(base)
        if why is not None:
            return UNSUPPORTED, why
        if keyword is not None and accepts(obj, keyword) is False:
            return UNSUPPORTED, f"flowgrad's {base} takes no keyword {keyword!r}"
        reason = self._differences(framework).get(api)
        return (DIFFERS, reason) if reason else (SUPPORTED, None)

    def tensor_has(self, framework: str, name: str) -> bool:
        """Whether the facade's Tensor has attribute `name` (False without a facade)."""
        names = self._tensor_names.get(framework)
        if names is None:
            cls = getattr(self.facade(framework), "Tensor", None)
            names = self._tensor_names[framework] = frozenset(dir(cls)) if cls is not None else frozenset()
        return name in names

    def is_class(self, api: str) -> bool:
        """Whether the API names a class in the facade."""
        obj, why = self.resolve(api)
        return why is None and isinstance(obj, type)


def accepts(obj: object, keyword: str) -> bool | None:
    """Whether calling `obj` accepts `keyword`: named in its signature, or taken by `**kwargs` (followed
    through `functools.wraps` layers, whose `**kwargs` usually forward). None when no signature exists."""
    target = obj
    while True:
        try:
            params = inspect.signature(target, follow_wrapped=False).parameters
        except (TypeError, ValueError):
            return None
        param = params.get(keyword)
        if param is not None and param.kind in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
            return True
        if not any(p.kind is p.VAR_KEYWORD for p in params.values()):
            return False
        target = getattr(target, "__wrapped__", None)
        if target is None:
            return True
