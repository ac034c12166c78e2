"""`compile` and the `jit` entry points many scripts call, for a facade whose framework has them.

flowgrad runs eagerly: there is no graph capture, no code generation and no TorchScript. `compile`
checks its arguments as PyTorch does before compiling (the mode, the backend's name against the
backends PyTorch 2.13 registers, mode together with options, `dynamic`, a callable model) and then
returns the function or module itself, so results, gradients and `state_dict()` keys are those of
the uncompiled model; the backend is never called and `options` are not checked against Inductor's
option names. `jit.script` returns functions, classes, modules, lists and dicts unchanged;
`jit.trace` calls the function once on the example inputs (as tracing does, so errors surface the
same) and returns it unchanged, so later calls run the Python code again, data-dependent branches
included, where a real trace would replay the recorded ops. Both warn as PyTorch 2.13 does that
they are deprecated.
"""
from __future__ import annotations

import warnings
from typing import Any, Callable

from ..tensor import Tensor as _CoreTensor

# torch._dynamo.list_backends(exclude_tags=None) in PyTorch 2.13 (CPU build)
BACKENDS = ("aot_eager", "aot_eager_decomp_partition", "aot_eager_decomp_partition_crossref",
            "aot_eager_decomp_partition_with_mode", "aot_eager_default_partitioner", "aot_ts", "cudagraphs",
            "dynamo_accuracy_minifier_backend", "dynamo_minifier_backend", "eager", "eager_debug", "eager_noexcept",
            "inductor", "invoke_subgraph", "non_leaf_compile_error_TESTING_ONLY", "openxla", "openxla_eval",
            "pre_dispatch_eager", "relu_accuracy_error_TESTING_ONLY", "relu_compile_error_TESTING_ONLY",
            "relu_runtime_error_TESTING_ONLY", "ts", "tvm")
# the modes Inductor knows (torch._inductor.list_mode_options())
MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")


def build_compile(policy) -> Callable:
    """`compile`, raising with a facade's `policy`."""

    def compile(model: Callable | None = None, *, fullgraph: bool = False, dynamic: bool | None = None,
                backend: str | Callable | None = None, mode: str | None = None,
                options: dict | None = None, name: str | None = None, disable: bool = False,
                recompile_limit: int | None = None, isolate_recompiles: bool = False, shapes_spec: Any = None):
        """Check the arguments as PyTorch's compile does, then return `model` itself: flowgrad runs
        eagerly. Without a model, a decorator doing the same."""
        if backend is None:
            backend = "inductor"
        if model is None:
            def decorate(model):
                if model is None:
                    raise policy.errors.compile_model_none()
                return compile(model, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                               options=options, name=name, disable=disable, recompile_limit=recompile_limit,
                               isolate_recompiles=isolate_recompiles, shapes_spec=shapes_spec)
            return decorate
        if mode is not None and options is not None:
            raise policy.errors.compile_mode_and_options()
        if mode is None and options is None:
            mode = "default"
        if isinstance(backend, str):
            if backend not in BACKENDS:
                raise policy.errors.compile_backend(backend=backend)
            if backend == "inductor":
                if mode and mode not in MODES:
                    raise policy.errors.compile_mode(mode=mode, modes=", ".join(MODES))
                if options is not None and not hasattr(options, "items"):
                    raise policy.errors.compile_options_type(type=type(options).__name__)
        if dynamic is not None and not isinstance(dynamic, bool):
            raise policy.errors.compile_dynamic(type_repr=type(dynamic))
        if not callable(model):
            raise policy.errors.compile_not_callable(type_repr=type(model))
        return model

    return compile


def build_jit(policy, Module: type, module: str) -> dict:
    """`script`, `trace`, `is_scripting`, `is_tracing`, `ignore`, `unused` for the facade `module`."""

    def _deprecated(fn: str) -> None:
        warnings.warn(policy.errors.jit_deprecated(fn=fn), stacklevel=3)

    def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
        """Return `obj` (a function, class, module, list or dict) unchanged: flowgrad has no TorchScript,
        and runs the Python code eagerly (`.code`, `.graph` and `.save` do not exist)."""
        _deprecated("script")
        if callable(obj) or isinstance(obj, (Module, list, dict)):
            return obj
        if type(obj).__module__ == "builtins":
            raise policy.errors.jit_script_builtin(type_repr=type(obj))
        raise policy.errors.jit_script_object(type_repr=type(obj))

    def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-05,
              strict=True, _force_outplace=False, _module_class=None, _compilation_unit=None,
              example_kwarg_inputs=None, _store_inputs=True):
        """Call `func` once on the example inputs, as tracing does, and return `func` unchanged: later
        calls run its Python code again (no recorded graph is replayed, so nothing is checked)."""
        _deprecated("trace")
        if not callable(func):
            raise policy.errors.jit_trace_not_callable()
        if example_kwarg_inputs is not None:
            func(**example_kwarg_inputs)
            return func
        if isinstance(example_inputs, (dict, _CoreTensor)):
            example_inputs = (example_inputs,)
        try:
            args = tuple(example_inputs)
        except TypeError:
            raise policy.errors.jit_trace_inputs(type=type(example_inputs).__name__) from None
        func(*args)
        return func

    def is_scripting() -> bool:
        """False: flowgrad never runs code as TorchScript."""
        return False

    def is_tracing() -> bool:
        """False: flowgrad never traces."""
        return False

    def ignore(drop=False, **kwargs):
        """Mark a function to be left as Python by the compiler: in flowgrad, everything is."""
        if callable(drop):
            return drop
        return lambda fn: fn

    def unused(fn):
        """Mark a method to be left out of compilation: in flowgrad, it is returned unchanged."""
        return fn

    namespace = {"script": script, "trace": trace, "is_scripting": is_scripting, "is_tracing": is_tracing,
                 "ignore": ignore, "unused": unused}
    for name, fn in namespace.items():
        fn.__module__, fn.__qualname__ = module, name
    return namespace
