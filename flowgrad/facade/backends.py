"""The torch family's `backends` flags (`backends.cudnn`, `backends.cuda`, `backends.mps`,
`backends.opt_einsum`, `backends.mha`): modules whose flags are properties checked as PyTorch checks them, holding
the values a CPU build of PyTorch reports.

flowgrad uses neither cuDNN, MPS nor opt_einsum (its convolutions and einsum are its own ops over
NumPy / CuPy), so those report unavailable and their flags are recorded without changing a
computation, exactly as the same flags change nothing in a CPU build of PyTorch.
`backends.cuda.is_built()` says whether CuPy, flowgrad's CUDA path, is importable, and
`backends.cuda.matmul.allow_tf32` reads and writes the float32 matmul precision (`settings`).
"""
from __future__ import annotations

import sys
import types

from ..nn import attention
from . import cuda_memory, settings
from .argcheck import typename


def _flag(state: dict, key: str, setter: str, policy) -> property:
    """A bool flag: a non-bool value is refused with PyTorch's `<setter> expects a bool` error."""

    def get(self) -> bool:
        return state[key]

    def set(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise policy.errors.backends_flag_bool(setter=setter, type=typename(value))
        state[key] = value

    return property(get, set)


def _module(name: str, cls_name: str, doc: str, attrs: dict, functions: dict) -> types.ModuleType:
    """A module of class `cls_name` (its properties are `attrs`), registered as importable `name`."""
    cls = type(cls_name, (types.ModuleType,), {"__module__": name.rpartition(".")[0], **attrs})
    mod = cls(name, doc)
    mod.__dict__.update(functions)
    for fn in functions.values():
        fn.__module__ = name
    sys.modules[name] = mod
    return mod


def cudnn(package: str, policy) -> types.ModuleType:
    """`<package>.cudnn`: cuDNN is never used; the four flags keep PyTorch's defaults and checks."""
    state = {"enabled": True, "benchmark": False, "deterministic": False, "allow_tf32": True}
    attrs = {key: _flag(state, key, setter, policy) for key, setter in (
        ("enabled", "set_enabled_cudnn"), ("benchmark", "set_benchmark_cudnn"),
        ("deterministic", "set_deterministic_cudnn"), ("allow_tf32", "set_allow_tf32_cublas"))}
    attrs["benchmark_limit"] = None

    def is_available() -> bool:
        """Whether cuDNN is available to flowgrad: never (its ops do not call cuDNN)."""
        return False

    def version() -> None:
        """cuDNN's version: None, as where cuDNN is not available."""
        return None

    return _module(f"{package}.cudnn", "CudnnModule", "flowgrad uses no cuDNN: the flags are recorded only.", attrs,
                   {"is_available": is_available, "version": version})


class _CuBLAS:
    """`backends.cuda.matmul`: the cuBLAS flags by name, as PyTorch's cuBLASModule takes them."""

    _REDUCTIONS = ("allow_fp16_reduced_precision_reduction", "allow_bf16_reduced_precision_reduction")

    def __init__(self, policy):
        object.__setattr__(self, "_policy", policy)
        object.__setattr__(self, "_state", {name: (True, True) for name in self._REDUCTIONS})

    def __getattr__(self, name: str):
        state = object.__getattribute__(self, "_state")
        if name == "allow_tf32":
            return settings.matmul_allows_tf32()
        if name in self._REDUCTIONS:
            return state[name][0]
        if name.endswith("_split_k") and name[:-len("_split_k")] in self._REDUCTIONS:
            return state[name[:-len("_split_k")]][1]
        raise self._policy.errors.backends_unknown_attribute(name=name)

    def __setattr__(self, name: str, value) -> None:
        if name == "allow_tf32":
            if not isinstance(value, bool):
                raise self._policy.errors.backends_flag_bool(setter="set_allow_tf32_cublas", type=typename(value))
            settings.set_matmul_allows_tf32(value)
        elif name in self._REDUCTIONS:
            self._state[name] = self._reduction(value, name)
        else:
            raise self._policy.errors.backends_unknown_attribute(name=name)

    def _reduction(self, value, attr: str) -> tuple[bool, bool]:
        def ensure(obj, which: str) -> bool:
            if isinstance(obj, bool):
                return obj
            raise self._policy.errors.backends_reduction_item(attr=attr, which=which, type_repr=type(obj))

        if isinstance(value, bool):
            return value, True
        if not isinstance(value, (list, tuple)):
            raise self._policy.errors.backends_reduction_type(attr=attr, type_repr=type(value))
        if not value:
            raise self._policy.errors.backends_reduction_empty(attr=attr)
        if len(value) > 2:
            raise self._policy.errors.backends_reduction_long(attr=attr)
        reduced = ensure(value[0], "allow_reduced_precision")
        return reduced, True if len(value) == 1 else ensure(value[1], "allow_splitk")


def cuda(package: str, policy) -> types.ModuleType:
    """`<package>.cuda`: `is_built()` (CuPy importable) and the `matmul` flags."""

    def is_built() -> bool:
        """Whether flowgrad can run on CUDA here: CuPy, its CUDA path, is importable."""
        return cuda_memory.cupy() is not None

    mod = _module(f"{package}.cuda", "CudaModule", "CUDA flags: CuPy is flowgrad's CUDA path.", {},
                  {"is_built": is_built})
    mod.matmul = _CuBLAS(policy)
    return mod


def mps(package: str) -> types.ModuleType:
    """`<package>.mps`: flowgrad has no MPS device."""

    def is_available() -> bool:
        """Whether MPS is available to flowgrad: never."""
        return False

    def is_built() -> bool:
        """Whether flowgrad is built with MPS support: never."""
        return False

    return _module(f"{package}.mps", "MpsModule", "flowgrad has no MPS device.", {},
                   {"is_available": is_available, "is_built": is_built})


def opt_einsum(package: str) -> types.ModuleType:
    """`<package>.opt_einsum`: flowgrad's einsum contracts without opt_einsum, as PyTorch does where
    opt_einsum is not installed: unavailable, `enabled` False and `strategy` None (plain attributes
    there too, so setting them changes nothing)."""

    def is_available() -> bool:
        """Whether einsum uses opt_einsum to order its contractions: never in flowgrad."""
        return False

    def get_opt_einsum() -> None:
        """The opt_einsum package flowgrad uses: none."""
        return None

    mod = _module(f"{package}.opt_einsum", "OptEinsumModule", "flowgrad's einsum does not use opt_einsum.", {},
                  {"is_available": is_available, "get_opt_einsum": get_opt_einsum})
    mod.enabled, mod.strategy = False, None
    return mod


def mha(package: str) -> types.ModuleType:
    """`<package>.mha`: the switch of PyTorch's fused attention inference paths. flowgrad computes
    their values on the ordinary path; the one visible trait it reproduces, the nested-tensor
    encoder's zeros at padded positions, follows the switch (`flowgrad.nn.attention.FASTPATH`)."""

    def get_fastpath_enabled() -> bool:
        """Whether the fast paths of TransformerEncoder and MultiheadAttention may run."""
        return attention.FASTPATH["enabled"]

    def set_fastpath_enabled(value: bool) -> None:
        """Set whether the fast paths may run (unchecked, as in PyTorch)."""
        attention.FASTPATH["enabled"] = value

    return _module(f"{package}.mha", "MhaModule", "Config options of the fused attention paths.", {},
                   {"get_fastpath_enabled": get_fastpath_enabled, "set_fastpath_enabled": set_fastpath_enabled})
