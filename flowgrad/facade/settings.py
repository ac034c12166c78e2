"""Process-wide numeric settings with PyTorch's checks: the float32 matmul precision and the
deterministic-algorithms switches.

flowgrad runs every float32 matmul in float32 (NumPy's BLAS, or cuBLAS through CuPy without
TF32), which is what "highest" asks for; "high" and "medium" permit a faster, less precise
computation and never require one, so they are recorded and reported (and read back through
`backends.cuda.matmul.allow_tf32`, as in PyTorch) without changing a result.

flowgrad is deterministic on the CPU: NumPy computes each op the same way on every run, so the same
inputs and seed give bitwise the same results, and `use_deterministic_algorithms(True)` has nothing
to switch off there. On CUDA, the scatter-adds behind index and gather backward (CuPy's `add.at`)
use atomic additions whose float summation order can vary between runs; flowgrad does not refuse
or warn about them when the switch is on, as PyTorch would for its nondeterministic CUDA kernels.
"""
from __future__ import annotations

import builtins
import warnings

from .argcheck import typename

_PRECISIONS = ("highest", "high", "medium")
_state: dict = {"precision": "highest", "deterministic": False, "warn_only": False}


def matmul_allows_tf32() -> bool:
    """`backends.cuda.matmul.allow_tf32`: whether the precision set permits TF32 (not "highest")."""
    return _state["precision"] != "highest"


def set_matmul_allows_tf32(allow: bool) -> None:
    _state["precision"] = "high" if allow else "highest"


def build(policy) -> dict:
    """The functions of the settings, raising with a facade's `policy`."""

    def set_float32_matmul_precision(precision: str) -> None:
        """Record the float32 matmul precision: "highest" (the default), "high" or "medium". flowgrad
        always computes float32 matmuls in float32, which every setting permits."""
        if not isinstance(precision, str):
            raise policy.errors.matmul_precision_type(type=typename(precision))
        if precision not in _PRECISIONS:
            warnings.warn(policy.errors.matmul_precision_value(value=precision), stacklevel=2)
            return
        _state["precision"] = precision

    def get_float32_matmul_precision() -> str:
        """The float32 matmul precision set (see set_float32_matmul_precision)."""
        return _state["precision"]

    def use_deterministic_algorithms(mode: builtins.bool, *, warn_only: builtins.bool = False) -> None:
        """Record whether deterministic algorithms are required. flowgrad's ops are deterministic on the
        CPU whatever the switch says; on CUDA the atomic scatter-adds of CuPy's `add.at` are not, and
        flowgrad does not refuse them when the switch is on."""
        if not isinstance(mode, builtins.bool):
            raise policy.errors.deterministic_mode_type(type=typename(mode))
        if not isinstance(warn_only, builtins.bool):
            raise policy.errors.deterministic_warn_only_type(type=typename(warn_only))
        _state["deterministic"], _state["warn_only"] = mode, warn_only

    def are_deterministic_algorithms_enabled() -> builtins.bool:
        """Whether use_deterministic_algorithms(True) is in force (flowgrad computes deterministically on
        the CPU either way)."""
        return _state["deterministic"]

    def is_deterministic_algorithms_warn_only_enabled() -> builtins.bool:
        """Whether use_deterministic_algorithms was last given warn_only=True."""
        return _state["warn_only"]

    def set_deterministic_debug_mode(debug_mode: builtins.str | builtins.int) -> None:
        """0 / "default": off; 1 / "warn": deterministic, warn only; 2 / "error": deterministic."""
        if not isinstance(debug_mode, (builtins.int, builtins.str)):
            raise policy.errors.debug_mode_type(type_repr=type(debug_mode))
        if isinstance(debug_mode, builtins.str):
            if debug_mode not in ("default", "warn", "error"):
                raise policy.errors.debug_mode_name(value=debug_mode)
            debug_mode = ("default", "warn", "error").index(debug_mode)
        if debug_mode not in (0, 1, 2):
            raise policy.errors.debug_mode_number(value=debug_mode)
        # PyTorch's 0 leaves warn_only as it was
        _state["deterministic"] = debug_mode != 0
        if debug_mode:
            _state["warn_only"] = debug_mode == 1

    def get_deterministic_debug_mode() -> builtins.int:
        """0, 1 or 2, as set_deterministic_debug_mode takes them."""
        if not _state["deterministic"]:
            return 0
        return 1 if _state["warn_only"] else 2

    return {fn.__name__: fn for fn in (
        set_float32_matmul_precision, get_float32_matmul_precision, use_deterministic_algorithms,
        are_deterministic_algorithms_enabled, is_deterministic_algorithms_warn_only_enabled,
        set_deterministic_debug_mode, get_deterministic_debug_mode)}
