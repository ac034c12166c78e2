"""Messages of the runtime settings every script touches (flowgrad/facade: threads, backends flags,
finfo / iinfo, determinism and matmul precision, compile / jit, autocast and GradScaler, the cuda
memory queries, Generator seeding and state)."""


class InvalidBackend(RuntimeError):
    """`compile(backend=...)` names no registered backend (PyTorch's torch._dynamo.exc.InvalidBackend)."""


_NO_AUTOCAST = ("flowgrad does not autocast: autocast(device_type={device!r}, dtype={dtype}, enabled=True) asks to "
                "run eligible ops in {dtype}, and flowgrad runs every op in its inputs' dtype (it has no automatic "
                "mixed precision). Pass enabled=False, or cast the model and its inputs yourself.")

MESSAGES: dict[str, tuple[type, str]] = {
    # torch.__version__ comparisons (facade/naming.py): packaging's InvalidVersion is a ValueError
    "version_invalid": (ValueError, "Invalid version: '{value}'"),
    # thread counts (flowgrad/facade/threads.py)
    "threads_type": (RuntimeError, "{fn} expects an int, but got {type}"),
    "threads_positive": (RuntimeError, "{fn} expects a positive integer"),
    "threads_interop_once": (RuntimeError, "Error: cannot set number of interop threads after parallel work has "
                                           "started or set_num_interop_threads called"),
    "threads_not_applied": (UserWarning, "set_num_threads({n}): flowgrad computes with NumPy and cannot resize "
                                         "NumPy's BLAS thread pool in this process ({reason}); the count is recorded "
                                         "for get_num_threads() but the pool keeps its size. Pin the threads before "
                                         "Python starts instead: OMP_NUM_THREADS={n} python your_script.py"),
    # backends flags (flowgrad/facade/backends.py)
    "backends_flag_bool": (RuntimeError, "{setter} expects a bool, but got {type}"),
    "backends_unknown_attribute": (AttributeError, "Unknown attribute {name}"),
    "backends_reduction_type": (TypeError, "{attr} expects a bool or a tuple/list of bools, but got {type_repr}"),
    "backends_reduction_item": (TypeError, "{attr} expects a bool for {which}, but got {type_repr}"),
    "backends_reduction_empty": (TypeError, "{attr} expects at least one boolean argument"),
    "backends_reduction_long": (TypeError, "{attr} expects at most two boolean arguments"),
    # finfo / iinfo and dtype predicates (flowgrad/facade/dtypeinfo.py)
    "finfo_not_float": (TypeError, "{module}.finfo() requires a floating point input type. Use {module}.iinfo to "
                                   "handle '{module}.finfo'"),
    "iinfo_not_int": (TypeError, "{module}.iinfo() requires an integer input type. Use {module}.finfo to handle "
                                 "'{module}.iinfo'"),
    "iinfo_bool": (TypeError, "{module}.bool is not supported by {module}.iinfo"),
    "dtypeinfo_arg_type": (TypeError, "{fn}(): argument 'type' (position 1) must be {module}.dtype, not {type}"),
    "dtypeinfo_missing": (TypeError, "{fn}() missing 1 required positional arguments: \"type\""),
    "dtypeinfo_arity": (TypeError, "{fn}() takes 1 positional argument but {given} were given"),
    "dtypeinfo_readonly": (AttributeError, "attribute '{name}' of '{module}.{fn}' objects is not writable"),
    "dtypeinfo_pickle": (TypeError, "cannot pickle '{module}.{fn}' object"),
    "accelerator_unavailable": (RuntimeError, "Cannot access accelerator device when none is available."),
    "pin_memory_device_deprecated": (DeprecationWarning, "The argument 'device' of Tensor.{method}() is deprecated. "
                                                         "Please do not pass this argument. (Triggered internally at "
                                                         "flowgrad/facade/surface.py.)"),
    "pin_memory_cpu_device": (RuntimeError, "CPU device type not an accelerator."),
    "predicate_not_tensor": (TypeError, "{fn}(): argument 'input' (position 1) must be Tensor, not {type}"),
    # matmul precision and determinism (flowgrad/facade/settings.py)
    "matmul_precision_type": (RuntimeError, "set_float32_matmul_precision expects a str, but got {type}"),
    "matmul_precision_value": (UserWarning, "{value} is not one of 'highest', 'high', or 'medium'; the "
                                            "currentsetFloat32MatmulPrecision call has no effect. (Triggered "
                                            "internally at flowgrad/facade/settings.py.)"),
    "deterministic_mode_type": (TypeError, "_set_deterministic_algorithms(): argument 'mode' (position 1) must be "
                                           "bool, not {type}"),
    "deterministic_warn_only_type": (TypeError, "_set_deterministic_algorithms(): argument 'warn_only' must be "
                                                "bool, not {type}"),
    "debug_mode_type": (TypeError, "debug_mode must be str or int, but got {type_repr}"),
    "debug_mode_name": (RuntimeError, "invalid value of debug_mode, expected one of `default`, `warn`, `error`, but "
                                      "got {value}"),
    "debug_mode_number": (RuntimeError, "invalid value of debug_mode, expected 0, 1, or 2, but got {value}"),
    # compile and jit (flowgrad/facade/compiling.py)
    "compile_mode": (RuntimeError, "Unrecognized mode={mode}, should be one of: {modes}"),
    "compile_backend": (InvalidBackend, "Invalid backend: {backend!r}, see `torch._dynamo.list_backends()` for "
                                        "available backends."),
    "compile_mode_and_options": (RuntimeError, "Either mode or options can be specified, but both can't be "
                                               "specified at the same time."),
    "compile_options_type": (AttributeError, "'{type}' object has no attribute 'items'"),
    "compile_dynamic": (AssertionError, "Expected enable to be a bool, got {type_repr}"),
    "compile_not_callable": (AssertionError, "A callable function is expected, but {type_repr} is provided."),
    "compile_model_none": (RuntimeError, "Model can't be None"),
    "jit_deprecated": (DeprecationWarning, "`torch.jit.{fn}` is deprecated. Please switch to `torch.compile` or "
                                           "`torch.export`."),
    "jit_script_builtin": (TypeError, "{type_repr} is a built-in class"),
    "jit_script_object": (TypeError, "flowgrad's torch.jit.script returns functions, classes, modules, lists and "
                                     "dicts unchanged (flowgrad has no TorchScript); it cannot script a "
                                     "{type_repr} instance"),
    "jit_trace_not_callable": (RuntimeError, "Could not get name of python class object"),
    "jit_trace_inputs": (TypeError, "'{type}' object is not iterable"),
    # autocast and GradScaler (flowgrad/facade/amp.py)
    "autocast_device_type": (ValueError, "Expected `device_type` of type `str`, got: `{type_repr}`"),
    "autocast_device_unsupported": (RuntimeError, "User specified an unsupported autocast device_type '{device}'"),
    "autocast_no_cuda": (UserWarning, "CUDA is not available or torch_xla is imported. Disabling autocast."),
    "autocast_dtype_unsupported": (UserWarning, "In {device} autocast, but the target dtype is not supported. "
                                                "Disabling autocast.\n{device} Autocast only supports dtypes of "
                                                "{module}.bfloat16, {module}.float16 currently."),
    "autocast_not_performed": (NotImplementedError, _NO_AUTOCAST),
    "autocast_enabled_type": (TypeError, "set_autocast_enabled(): argument 'enabled' (position 2) must be bool, not "
                                         "{type}"),
    "autocast_dtype_type": (TypeError, "set_autocast_dtype(): argument 'dtype' (position 2) must be {module}.dtype, "
                                       "not {type}"),
    "autocast_cache_type": (TypeError, "enabled must be a bool (got {type})"),
    "autocast_not_callable": (TypeError, "autocast()(func) requires a callable, but got {type}. Did you mean to use "
                                         "autocast as a context manager? For example:\n    with "
                                         "{module}.autocast(device_type=...):\n        output = model(input)"),
    "autocast_deprecated": (FutureWarning, "`torch.{device}.amp.autocast(args...)` is deprecated. Please use "
                                           "`torch.amp.autocast('{device}', args...)` instead."),
    "scaler_deprecated": (FutureWarning, "`torch.{device}.amp.GradScaler(args...)` is deprecated. Please use "
                                         "`torch.amp.GradScaler('{device}', args...)` instead."),
    "scaler_no_cuda": (UserWarning, "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."),
    "scaler_growth_factor": (AssertionError, "The growth factor must be > 1.0."),
    "scaler_backoff_factor": (AssertionError, "The backoff factor must be < 1.0."),
    "scaler_not_scaled": (AssertionError, "Attempted {fn} but _scale is None.  This may indicate your script did not "
                                          "use scaler.scale(loss or outputs) earlier in the iteration."),
    "scaler_outputs_type": (ValueError, "outputs must be a Tensor or an iterable of Tensors"),
    "scaler_param_type": (AssertionError, "expected param to be torch.Tensor, got {type}"),
    "scaler_fp16_grads": (ValueError, "Attempting to unscale FP16 gradients."),
    "scaler_unscale_twice": (RuntimeError, "unscale_() has already been called on this optimizer since the last "
                                           "update()."),
    "scaler_unscale_after_step": (RuntimeError, "unscale_() is being called after step()."),
    "scaler_closure": (RuntimeError, "Closure use is not currently supported if GradScaler is enabled."),
    "scaler_step_twice": (RuntimeError, "step() has already been called since the last update()."),
    "scaler_no_inf_checks": (AssertionError, "No inf checks were recorded for this optimizer."),
    "scaler_no_inf_checks_update": (AssertionError, "No inf checks were recorded prior to update."),
    "scaler_new_scale": (AssertionError, "new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                                         "torch.FloatTensor with requires_grad=False."),
    "scaler_empty_state": (RuntimeError, "The source state dict is empty, possibly because it was saved from a "
                                         "disabled instance of GradScaler."),
    "scaler_pickle_mid_iteration": (AssertionError, "A GradScaler instance may only be pickled at the beginning of "
                                                    "an iteration, or at the end after scaler.update()."),
    # cuda memory queries (flowgrad/facade/cuda_memory.py)
    "cuda_not_compiled": (AssertionError, "Torch not compiled with CUDA enabled"),
    "cuda_expected_device": (ValueError, "Expected a cuda device, but got: {device}"),
    "cuda_no_reset_peak": (AttributeError, "module 'torch._C' has no attribute '_cuda_resetPeakMemoryStats'"),
    "cuda_no_peak": (NotImplementedError, "{fn}: flowgrad allocates CUDA memory through CuPy's memory pool, which "
                                          "keeps no peak statistics; memory_allocated() and memory_reserved() report "
                                          "the pool's current use"),
    # Generator seeding and state (flowgrad/facade/generator.py)
    "generator_seed_type": (RuntimeError, "manual_seed expected a long, but got {type}"),
    "generator_seed_integer": (TypeError, "an integer is required"),
    "generator_seed_overflow": (ValueError, "Overflow when unpacking long long"),
    "rng_state_type": (TypeError, "expected a torch.ByteTensor, but got {type}"),
    "rng_state_dtype": (TypeError, "RNG state must be a torch.ByteTensor"),
    "rng_state_contiguous": (RuntimeError, "RNG state must be contiguous"),
    "rng_state_size": (RuntimeError, "Expected a CPUGeneratorImplState of size {expected} but found the input RNG "
                                     "state size to be {got}"),
}
