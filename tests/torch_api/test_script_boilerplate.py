"""The boilerplate of PyTorch scripts against real torch 2.13: torch.backends flags, thread counts,
finfo / iinfo, dtype predicates, matmul precision, deterministic algorithms, compile and jit,
autocast and GradScaler, the cuda memory queries without CUDA, and Generator seeding and state.
Each case runs on flowgrad.torch and on real torch; values, exception types and messages, and
warnings must agree (where flowgrad differs on purpose, the test says so and checks flowgrad's
own answer)."""
from __future__ import annotations

import copy
import json
import pickle
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import flowgrad.torch as ft
from flowgrad._check.support import Support
from flowgrad.facade import cuda_memory, threads

torch = pytest.importorskip("torch")

no_cuda = pytest.mark.skipif(cuda_memory.available(), reason="compares the answers of a machine without CUDA")


def outcome(fn) -> tuple:
    """(('ok', value) or (exception type name, message), the distinct (warning category, message)s)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("ok", fn())
        except Exception as exc:  # noqa: BLE001 - the exception is the observation
            result = (type(exc).__name__, str(exc))
    return result, sorted({(w.category.__name__, str(w.message).split(" (Triggered internally at")[0]) for w in caught})


def same(case) -> tuple:
    """The outcome of `case(T)` on flowgrad.torch, asserted equal to real torch's, returned."""
    got, want = outcome(lambda: case(ft)), outcome(lambda: case(torch))
    assert got == want
    return got


def run_python(code: str) -> str:
    res = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    return res.stdout


# ------------------------------------------------------------------------------------- inventory

# the preamble names this file covers: every one exists in real torch and in flowgrad.torch, and
# `flowgrad check` counts each as supported (or supported with a known difference)
BOILERPLATE = [
    "backends.cudnn.enabled", "backends.cudnn.benchmark", "backends.cudnn.deterministic", "backends.cudnn.allow_tf32",
    "backends.cudnn.is_available", "backends.cudnn.version", "backends.mps.is_available", "backends.mps.is_built",
    "backends.cuda.matmul.allow_tf32", "backends.cuda.is_built", "backends.opt_einsum.is_available",
    "set_num_threads", "get_num_threads", "set_num_interop_threads", "get_num_interop_threads", "finfo", "iinfo",
    "is_complex", "is_floating_point", "set_float32_matmul_precision", "get_float32_matmul_precision",
    "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
    "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode", "get_deterministic_debug_mode",
    "compile", "jit.script", "jit.trace", "jit.is_scripting", "jit.is_tracing", "jit.ignore", "jit.unused",
    "autocast", "amp.autocast", "cpu.amp.autocast", "amp.GradScaler", "cpu.amp.GradScaler", "cuda.amp.autocast",
    "cuda.amp.GradScaler", "cpu.is_available",
    "cpu.device_count", "cuda.empty_cache", "cuda.memory_allocated", "cuda.max_memory_allocated",
    "cuda.memory_reserved", "cuda.max_memory_reserved", "cuda.reset_peak_memory_stats", "cuda.get_device_name",
    "Generator", "Generator.manual_seed", "Generator.initial_seed", "Generator.get_state", "Generator.set_state",
    "Generator.seed", "Generator.clone_state", "manual_seed", "initial_seed", "seed", "get_rng_state",
    "set_rng_state", "default_generator",
]


def _resolve(mod, dotted: str):
    for part in dotted.split("."):
        mod = getattr(mod, part)
    return mod


@pytest.mark.parametrize("name", BOILERPLATE)
def test_the_preamble_names_exist_and_flowgrad_check_supports_them(name):
    _resolve(torch, name)
    _resolve(ft, name)
    status, reason = Support().status(f"torch.{name}", "torch")
    assert status in ("supported", "differs"), reason


def test_submodules_import_by_name():
    import flowgrad.torch.backends.cudnn as cudnn
    import flowgrad.torch.backends.opt_einsum as opt_einsum
    import flowgrad.torch.cpu.amp as cpu_amp
    import flowgrad.torch.cuda.amp as cuda_amp
    import flowgrad.torch.jit as jit
    assert cudnn is ft.backends.cudnn and opt_einsum is ft.backends.opt_einsum
    assert cpu_amp.autocast is ft.cpu.amp.autocast and jit.script is ft.jit.script
    assert cuda_amp.GradScaler is ft.cuda.amp.GradScaler


# -------------------------------------------------------------------------------------- backends

@pytest.fixture
def restore_flags():
    saved = [(T, {n: getattr(T.backends.cudnn, n) for n in ("enabled", "benchmark", "deterministic", "allow_tf32")},
              T.get_float32_matmul_precision(),
              {n: getattr(T.backends.cuda.matmul, n) for n in ("allow_fp16_reduced_precision_reduction",
                                                                 "allow_bf16_reduced_precision_reduction")})
             for T in (ft, torch)]
    yield
    for T, flags, precision, reductions in saved:
        for n, v in flags.items():
            setattr(T.backends.cudnn, n, v)
        T.set_float32_matmul_precision(precision)
        for n, v in reductions.items():
            setattr(T.backends.cuda.matmul, n, v)


@no_cuda
def test_backends_report_what_a_cpu_build_reports():
    same(lambda T: (T.backends.cudnn.enabled, T.backends.cudnn.benchmark, T.backends.cudnn.deterministic,
                    T.backends.cudnn.allow_tf32, T.backends.cudnn.is_available(), T.backends.cudnn.version(),
                    T.backends.cudnn.benchmark_limit, T.backends.mps.is_available(), T.backends.mps.is_built(),
                    T.backends.cuda.matmul.allow_tf32, T.backends.cuda.is_built(),
                    T.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
                    T.backends.cuda.matmul.allow_bf16_reduced_precision_reduction_split_k))


@pytest.mark.parametrize("flag", ["enabled", "benchmark", "deterministic", "allow_tf32"])
@pytest.mark.parametrize("value", [True, False, 1, 0, "x", None, 1.5, np.bool_(True)], ids=repr)
def test_cudnn_flags_take_bools_only(flag, value, restore_flags):
    def case(T):
        setattr(T.backends.cudnn, flag, value)
        return getattr(T.backends.cudnn, flag)
    same(case)


def test_cudnn_flags_refuse_a_tensor_and_other_names_are_free(restore_flags):
    same(lambda T: setattr(T.backends.cudnn, "benchmark", T.tensor(True)))
    same(lambda T: (setattr(T.backends.cudnn, "my_note", 3), T.backends.cudnn.my_note))


@pytest.mark.parametrize("attr, value", [
    ("allow_tf32", True), ("allow_tf32", 2), ("allow_tf32", "yes"),
    ("allow_fp16_reduced_precision_reduction", False), ("allow_fp16_reduced_precision_reduction", (False, False)),
    ("allow_fp16_reduced_precision_reduction", [True]), ("allow_bf16_reduced_precision_reduction", ()),
    ("allow_bf16_reduced_precision_reduction", (True, False, True)),
    ("allow_bf16_reduced_precision_reduction", (1, True)), ("allow_bf16_reduced_precision_reduction", (True, 0)),
    ("allow_bf16_reduced_precision_reduction", 1), ("no_such_flag", True),
], ids=str)
def test_cuda_matmul_flags(attr, value, restore_flags):
    def case(T):
        setattr(T.backends.cuda.matmul, attr, value)
        return [getattr(T.backends.cuda.matmul, n) for n in (
            "allow_tf32", "allow_fp16_reduced_precision_reduction",
            "allow_fp16_reduced_precision_reduction_split_k", "allow_bf16_reduced_precision_reduction",
            "allow_bf16_reduced_precision_reduction_split_k")]
    same(case)
    same(lambda T: T.backends.cuda.matmul.no_such_flag)


def test_opt_einsum_matches_a_torch_without_opt_einsum():
    """flowgrad's einsum never uses opt_einsum: it answers as PyTorch does where it is not installed."""
    probe = """
        import json, sys
        {prelude}
        def outcome(fn):
            try:
                return ["ok", repr(fn())]
            except Exception as e:
                return [type(e).__name__, str(e)]
        oe = T.backends.opt_einsum
        def set_enabled(v):
            oe.enabled = v
            return oe.enabled
        print(json.dumps([outcome(oe.is_available), outcome(lambda: oe.enabled), outcome(lambda: oe.strategy),
                          outcome(lambda: set_enabled(False)), outcome(lambda: set_enabled(True)),
                          outcome(oe.get_opt_einsum)]))
    """
    real = run_python(probe.format(prelude="sys.modules['opt_einsum'] = None\n        import torch as T"))
    ours = run_python(probe.format(prelude="import flowgrad.torch as T"))
    assert json.loads(ours) == json.loads(real)


# --------------------------------------------------------------------------------------- threads

@pytest.mark.parametrize("value", [0, -1, 1.5, "2", True, None, np.float64(2.0)], ids=repr)
def test_set_num_threads_checks_like_torch(value):
    same(lambda T: T.set_num_threads(value))
    same(lambda T: T.set_num_threads(T.tensor(2)))
    same(lambda T: T.set_num_interop_threads(value))


@pytest.fixture
def thread_state(monkeypatch):
    for key, value in list(threads._state.items()):
        monkeypatch.setitem(threads._state, key, value)
    before = ft.get_num_threads()
    yield
    ft.set_num_threads(before)


def test_set_num_threads_sizes_numpys_blas_pool(thread_state):
    threadpoolctl = pytest.importorskip("threadpoolctl")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ft.set_num_threads(1)
        assert ft.get_num_threads() == 1
        ft.set_num_threads(np.int64(2))
    assert ft.get_num_threads() == 2
    pools = [p for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]
    assert pools and all(p["num_threads"] == 2 for p in pools)


def test_without_threadpoolctl_the_count_is_recorded_with_one_warning(thread_state, monkeypatch):
    monkeypatch.setitem(sys.modules, "threadpoolctl", None)    # import threadpoolctl -> ImportError
    monkeypatch.setitem(threads._state, "warned", False)
    with pytest.warns(UserWarning) as caught:
        ft.set_num_threads(3)
    assert [str(w.message) for w in caught] == [
        "set_num_threads(3): flowgrad computes with NumPy and cannot resize NumPy's BLAS thread pool in this process "
        "(threadpoolctl is not installed: pip install threadpoolctl); the count is recorded for get_num_threads() "
        "but the pool keeps its size. Pin the threads before Python starts instead: OMP_NUM_THREADS=3 python "
        "your_script.py"]
    assert ft.get_num_threads() == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")       # one warning per process
        ft.set_num_threads(1)
    assert ft.get_num_threads() == 1


def test_interop_threads_can_be_set_once():
    probe = """
        import json
        import {module} as T
        def outcome(fn):
            try:
                return ["ok", fn()]
            except Exception as e:
                return [type(e).__name__, str(e)]
        print(json.dumps([outcome(lambda: T.set_num_interop_threads(0)), outcome(lambda: T.set_num_interop_threads(2)),
                          outcome(T.get_num_interop_threads), outcome(lambda: T.set_num_interop_threads(3)),
                          outcome(T.get_num_interop_threads)]))
    """
    assert json.loads(run_python(probe.format(module="flowgrad.torch"))) == \
        json.loads(run_python(probe.format(module="torch")))


# ---------------------------------------------------------------------------------- finfo, iinfo

INFO_CASES = {
    "finfo32": lambda T: T.finfo(T.float32), "finfo64": lambda T: T.finfo(T.float64),
    "finfo16": lambda T: T.finfo(T.float16), "finfo_default": lambda T: T.finfo(),
    "finfo_kw": lambda T: T.finfo(type=T.float64), "finfo_pyfloat": lambda T: T.finfo(float),
    "finfo_pycomplex": lambda T: T.finfo(complex), "iinfo8": lambda T: T.iinfo(T.int8),
    "iinfo16": lambda T: T.iinfo(T.int16), "iinfo32": lambda T: T.iinfo(T.int32), "iinfo64": lambda T: T.iinfo(T.int64),
    "iinfo_u8": lambda T: T.iinfo(T.uint8), "iinfo_pyint": lambda T: T.iinfo(int),
}


@pytest.mark.parametrize("name", sorted(INFO_CASES))
def test_finfo_iinfo_values_and_repr(name):
    def case(T):
        info = INFO_CASES[name](T)
        fields = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype") \
            if name.startswith("finfo") else ("bits", "max", "min", "dtype")
        values = [(f, getattr(info, f), type(getattr(info, f)).__name__) for f in fields]
        return repr(info), str(info), values, type(info).__name__
    same(case)


def test_finfo_follows_the_default_dtype():
    try:
        for T in (ft, torch):
            T.set_default_dtype(T.float64)
        same(lambda T: repr(T.finfo()))
    finally:
        for T in (ft, torch):
            T.set_default_dtype(T.float32)


@pytest.mark.parametrize("case", [
    lambda T: T.finfo(T.int32), lambda T: T.finfo(T.bool), lambda T: T.finfo(T.uint8), lambda T: T.iinfo(T.float32),
    lambda T: T.iinfo(T.bool), lambda T: T.iinfo(float), lambda T: T.finfo(int), lambda T: T.finfo("float32"),
    lambda T: T.finfo(np.float32), lambda T: T.finfo(None), lambda T: T.iinfo(None), lambda T: T.iinfo(),
    lambda T: T.iinfo(T.int32, 1), lambda T: T.finfo(1), lambda T: T.iinfo(complex),
    lambda T: setattr(T.finfo(T.float32), "bits", 3), lambda T: setattr(T.iinfo(T.int8), "max", 3),
    lambda T: pickle.dumps(T.finfo(T.float32)),
    lambda T: (T.finfo(T.float32) == T.finfo(T.float32), T.finfo(T.float32) == T.finfo(T.float64),
               T.finfo(T.float32) != T.finfo(), T.iinfo(T.int8) == T.iinfo(T.int8), T.finfo(T.float32) == 3,
               T.finfo(T.float32).__hash__ is None),
], ids=lambda c: c.__code__.co_firstlineno)
def test_finfo_iinfo_errors_and_comparisons(case):
    same(case)


@pytest.mark.parametrize("case", [
    lambda T: (T.is_complex(T.ones(2)), T.is_floating_point(T.ones(2)), T.is_floating_point(T.ones(2, dtype=T.int64)),
               T.is_complex(input=T.ones(1)), T.is_floating_point(input=T.ones(1))),
    lambda T: T.is_complex(3), lambda T: T.is_floating_point(3.0), lambda T: T.is_complex(np.zeros(2)),
    lambda T: T.is_floating_point([1.0]), lambda T: T.is_floating_point(None),
], ids=lambda c: c.__code__.co_firstlineno)
def test_dtype_predicates(case):
    same(case)


# ---------------------------------------------------------------------- matmul precision, determinism

@pytest.mark.parametrize("value", ["high", "medium", "highest", "HIGH", "low", 1, None], ids=repr)
def test_float32_matmul_precision(value, restore_flags):
    same(lambda T: (T.get_float32_matmul_precision(), T.set_float32_matmul_precision(value),
                    T.get_float32_matmul_precision(), T.backends.cuda.matmul.allow_tf32,
                    T.backends.cudnn.allow_tf32))


def test_allow_tf32_and_the_precision_are_one_setting(restore_flags):
    def case(T):
        seen = []
        for step in (lambda: setattr(T.backends.cuda.matmul, "allow_tf32", True),
                     lambda: setattr(T.backends.cuda.matmul, "allow_tf32", False),
                     lambda: T.set_float32_matmul_precision("high")):
            step()
            seen.append((T.get_float32_matmul_precision(), T.backends.cuda.matmul.allow_tf32))
        return seen
    same(case)


def test_float32_matmuls_compute_in_float32_at_every_precision(restore_flags):
    a = ft.tensor(np.random.default_rng(0).standard_normal((16, 16)), dtype=ft.float32)
    results = []
    for precision in ("highest", "high", "medium"):
        ft.set_float32_matmul_precision(precision)
        results.append((a @ a).numpy())
    want = a.numpy() @ a.numpy()
    assert all(r.dtype == np.float32 and np.array_equal(r, want) for r in results)


@pytest.fixture
def restore_determinism():
    saved = [(T, T.get_deterministic_debug_mode(), T.is_deterministic_algorithms_warn_only_enabled()) for T in (ft, torch)]
    yield
    for T, mode, warn_only in saved:
        T.use_deterministic_algorithms(mode != 0, warn_only=warn_only)


@pytest.mark.parametrize("calls", [
    [lambda T: T.use_deterministic_algorithms(True)],
    [lambda T: T.use_deterministic_algorithms(True, warn_only=True)],
    [lambda T: T.use_deterministic_algorithms(True, warn_only=True), lambda T: T.use_deterministic_algorithms(False)],
    [lambda T: T.use_deterministic_algorithms(True, warn_only=True),
     lambda T: T.use_deterministic_algorithms(False, warn_only=True)],
    [lambda T: T.use_deterministic_algorithms(1)], [lambda T: T.use_deterministic_algorithms(None)],
    [lambda T: T.use_deterministic_algorithms("x")], [lambda T: T.use_deterministic_algorithms(True, warn_only=1)],
    [lambda T: T.use_deterministic_algorithms(True, 1)], [lambda T: T.use_deterministic_algorithms()],
    [lambda T: T.use_deterministic_algorithms(mode=True)], [lambda T: T.use_deterministic_algorithms(False, foo=1)],
    [lambda T: T.set_deterministic_debug_mode("warn")], [lambda T: T.set_deterministic_debug_mode("error")],
    [lambda T: T.set_deterministic_debug_mode(2), lambda T: T.set_deterministic_debug_mode("default")],
    [lambda T: T.set_deterministic_debug_mode("x")], [lambda T: T.set_deterministic_debug_mode(5)],
    [lambda T: T.set_deterministic_debug_mode(1.0)], [lambda T: T.set_deterministic_debug_mode(True)],
], ids=lambda calls: str(calls[-1].__code__.co_firstlineno))
def test_deterministic_algorithms(calls, restore_determinism):
    def case(T):
        seen = []
        for call in calls:
            try:
                call(T)
                seen.append("ok")
            except Exception as e:  # noqa: BLE001
                seen.append((type(e).__name__, str(e).replace("use_deterministic_algorithms.<locals>.", "")))
            seen.append((T.are_deterministic_algorithms_enabled(), T.is_deterministic_algorithms_warn_only_enabled(),
                         T.get_deterministic_debug_mode()))
        return seen
    same(case)


def test_flowgrad_is_deterministic_on_the_cpu(restore_determinism):
    ft.use_deterministic_algorithms(True)
    x = ft.tensor(np.random.default_rng(1).standard_normal((64, 32)), dtype=ft.float32, requires_grad=True)
    idx = ft.tensor(np.random.default_rng(2).integers(0, 64, 200))
    grads = []
    for _ in range(2):
        x.grad = None
        (x[idx] ** 2).sum().backward()      # index backward: a scatter-add over repeated indices
        grads.append(x.grad.numpy().copy())
    assert np.array_equal(grads[0], grads[1])


# --------------------------------------------------------------------------------- compile, jit

def _double(x):
    return x * 2


COMPILE_CASES = [
    lambda T: T.compile(_double), lambda T: T.compile(_double, mode="max-autotune"),
    lambda T: T.compile(_double, mode="reduce-overhead", fullgraph=True, dynamic=False),
    lambda T: T.compile(_double, mode="fast"), lambda T: T.compile(_double, mode=3),
    lambda T: T.compile(_double, mode=""), lambda T: T.compile(_double, backend="nope"),
    lambda T: T.compile(_double, backend="EAGER"), lambda T: T.compile(_double, backend="eager", mode="fast"),
    lambda T: T.compile(_double, backend="aot_eager"), lambda T: T.compile(_double, backend=lambda gm, ex: gm),
    lambda T: T.compile(_double, mode="default", options={}),
    lambda T: T.compile(_double, backend="nope", mode="fast", options={}),
    lambda T: T.compile(_double, options={"max_autotune": True}), lambda T: T.compile(_double, options=3),
    lambda T: T.compile(_double, backend="eager", options={"x": 1}), lambda T: T.compile(_double, dynamic="x"),
    lambda T: T.compile(_double, backend="eager", dynamic=1), lambda T: T.compile(3),
    lambda T: T.compile(3, mode="fast"), lambda T: T.compile(3, backend="nope"), lambda T: T.compile(None),
    lambda T: T.compile()(None), lambda T: T.compile(mode="fast"), lambda T: T.compile(mode="fast")(_double),
    lambda T: T.compile(_double, 1), lambda T: T.compile(_double, foo=True), lambda T: T.compile(_double, disable=True),
    lambda T: T.compile(T.nn.Linear(2, 2)),
]


@pytest.mark.parametrize("case", COMPILE_CASES, ids=lambda c: str(c.__code__.co_firstlineno))
def test_compile_checks_its_arguments_like_torch(case):
    def kind(T):
        try:
            res = case(T)
        except Exception as e:  # noqa: BLE001
            return type(e).__name__, str(e).replace("build_compile.<locals>.", "")
        return "ok", callable(res)
    # real torch's first torch.compile turns distribution argument validation off process-wide (its
    # compiler patches torch on first use): put the default back so later tests see PyTorch's default
    validating = torch.distributions.Distribution._validate_args
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")     # real torch's imports of its compiler warn
            assert kind(ft) == kind(torch)
    finally:
        torch.distributions.Distribution.set_default_validate_args(validating)


def test_compile_returns_the_model_itself_with_and_without_arguments():
    model = ft.nn.Linear(3, 2)
    assert ft.compile(model) is model and ft.compile(model, mode="max-autotune", backend="inductor") is model

    @ft.compile
    def f(x):
        return x + 1

    @ft.compile(mode="reduce-overhead", fullgraph=True)
    def g(x):
        return x * 3

    assert f.__name__ == "f" and g.__name__ == "g" and ft.compile(_double) is _double
    x = ft.tensor([1.0, 2.0], requires_grad=True)
    g(f(x)).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0] and list(ft.compile(model).state_dict()) == ["weight", "bias"]


def _poly(x):
    return x * x + 1


def test_jit_script_returns_what_it_is_given_with_torchs_warning():
    for obj in (_poly, ft.nn.Linear(2, 2), [1, 2], {"a": 1}):
        with pytest.warns(DeprecationWarning) as caught:
            assert ft.jit.script(obj) is obj
    with warnings.catch_warnings(record=True) as real:
        warnings.simplefilter("always")
        scripted = torch.jit.script(_poly)
    assert [str(w.message) for w in caught] == [str(w.message) for w in real if w.category is DeprecationWarning]
    x = [1.0, -2.0]
    with pytest.warns(DeprecationWarning):
        assert ft.jit.script(_poly)(ft.tensor(x)).tolist() == scripted(torch.tensor(x)).tolist()
    assert ft.jit.is_scripting() is torch.jit.is_scripting() is False
    assert ft.jit.is_tracing() is torch.jit.is_tracing() is False
    assert ft.jit.ignore(_poly) is _poly and ft.jit.ignore(drop=True)(_poly) is _poly and ft.jit.unused(_poly) is _poly


@pytest.mark.parametrize("case", [
    lambda T: T.jit.script(3), lambda T: T.jit.script("abc"), lambda T: T.jit.script(None),
    lambda T: T.jit.trace(3, T.ones(2)), lambda T: T.jit.trace(_poly), lambda T: T.jit.trace(_poly, 3),
    lambda T: T.jit.trace(_poly, {"x": T.ones(2)}),
    lambda T: T.jit.trace(_poly, T.ones(2))(T.tensor([2.0, 3.0])).tolist(),
    lambda T: T.jit.trace(_poly, (T.ones(2),))(T.tensor([2.0])).tolist(),
    lambda T: T.jit.trace(_poly, [T.ones(2)])(T.tensor([-1.0])).tolist(),
], ids=lambda c: str(c.__code__.co_firstlineno))
def test_jit_errors_and_trace_results_match_torch(case):
    same(case)


def test_jit_trace_runs_the_function_once_and_returns_it():
    calls = []

    def f(x, y):
        calls.append(1)
        return x + y if x.sum().item() > 0 else x - y

    with pytest.warns(DeprecationWarning, match="`torch.jit.trace` is deprecated"):
        traced = ft.jit.trace(f, (ft.ones(2), ft.ones(2)))
    assert traced is f and calls == [1]
    assert traced(-ft.ones(2), ft.ones(2)).tolist() == [-2.0, -2.0]   # the Python branch runs again


# -------------------------------------------------------------------------------------- autocast

def _matmul_in(ctx_factory):
    def case(T):
        with ctx_factory(T) as ctx:
            x = T.ones(2, 2)
            return type(ctx).__name__, str((x @ x).dtype)
    return case


@pytest.mark.parametrize("make", [
    lambda T: T.autocast("cpu", enabled=False), lambda T: T.autocast("cpu", dtype=T.float32),
    lambda T: T.autocast("cpu", dtype=T.float64), lambda T: T.autocast("cpu", dtype=T.int32),
    lambda T: T.autocast("cpu", dtype=T.float16, enabled=False), lambda T: T.amp.autocast("cpu", enabled=False),
    lambda T: T.autocast(device_type="cpu", dtype=T.float32, cache_enabled=False),
    lambda T: T.autocast("cpu", dtype=None, enabled=False), lambda T: T.cpu.amp.autocast(enabled=False),
    lambda T: T.cpu.amp.autocast(dtype=T.float32), lambda T: T.autocast(3), lambda T: T.autocast(),
], ids=lambda c: str(c.__code__.co_firstlineno))
def test_autocast_that_changes_nothing_matches_torch(make):
    same(_matmul_in(make))


@no_cuda
def test_autocast_cuda_without_cuda_disables_itself():
    same(_matmul_in(lambda T: T.autocast("cuda")))
    same(_matmul_in(lambda T: T.autocast("cuda", dtype=T.float32)))
    same(_matmul_in(lambda T: T.cuda.amp.autocast()))
    same(_matmul_in(lambda T: T.cuda.amp.autocast(enabled=False, dtype=T.float32)))


@pytest.mark.parametrize("kwargs", ["dict(enabled=1)", "dict(dtype='x')", "dict(dtype=T.float32, cache_enabled=1)",
                                    "dict(enabled=False, dtype='x')", "dict(enabled=False, cache_enabled='x')"])
def test_autocast_checks_its_arguments_when_entered(kwargs):
    # real torch changes its autocast state before some of these raise: it runs in its own process
    probe = """
        import json, warnings
        import {module} as T
        KWARGS = {kwargs}
        warnings.simplefilter("always")
        out = []
        with warnings.catch_warnings(record=True) as caught:
            ctx = T.autocast("cpu", **KWARGS)
            out.append([str(w.message) for w in caught])
        try:
            with ctx:
                out.append("entered")
        except Exception as e:
            out.append([type(e).__name__, str(e)])
        print(json.dumps(out))
    """
    probe = probe.replace("{kwargs}", kwargs)
    assert json.loads(run_python(probe.replace("{module}", "flowgrad.torch"))) == \
        json.loads(run_python(probe.replace("{module}", "torch")))


def test_autocast_as_a_decorator():
    def case(T):
        @T.autocast("cpu", enabled=False)
        def f(x):
            return x @ x
        return f.__name__, str(f(T.ones(2, 2)).dtype)
    same(case)
    same(lambda T: T.autocast("cpu", enabled=False)(3))


@pytest.mark.parametrize("make, dtype", [
    (lambda T: T.autocast("cpu"), "torch.bfloat16"), (lambda T: T.autocast("cpu", dtype=T.float16), "torch.float16"),
    (lambda T: T.amp.autocast(device_type="cpu", enabled=True), "torch.bfloat16"),
], ids=["default", "float16", "amp"])
def test_autocast_that_would_convert_raises(make, dtype):
    """Where PyTorch runs the block's matmuls in a lower precision, flowgrad refuses to pretend."""
    with torch.autocast("cpu", dtype=getattr(torch, dtype.split(".")[1])):
        assert (torch.ones(2, 2) @ torch.ones(2, 2)).dtype == getattr(torch, dtype.split(".")[1])
    with pytest.raises(NotImplementedError) as err:
        make(ft)
    assert str(err.value) == (
        f"flowgrad does not autocast: autocast(device_type='cpu', dtype={dtype}, enabled=True) asks to run eligible "
        f"ops in {dtype}, and flowgrad runs every op in its inputs' dtype (it has no automatic mixed precision). "
        "Pass enabled=False, or cast the model and its inputs yourself.")


def test_cpu_amp_autocast_warns_then_refuses_its_default_bfloat16():
    with pytest.warns(FutureWarning, match=r"`torch.cpu.amp.autocast\(args...\)` is deprecated"):
        with pytest.raises(NotImplementedError, match="flowgrad does not autocast"):
            ft.cpu.amp.autocast()


def test_autocast_devices_flowgrad_lacks_are_refused():
    """PyTorch accepts 'mps', 'xpu', ... on any build; flowgrad has no such devices."""
    for device in ("mps", "xpu", "meta", "xyz"):
        with pytest.raises(RuntimeError, match=f"User specified an unsupported autocast device_type '{device}'"):
            ft.autocast(device)


# ------------------------------------------------------------------------------------ GradScaler

def _train(T, scaler_kwargs, steps=6, blowup=(2,), unscale_at=(3,)):
    """A small loop with the scaler; step `blowup` makes the gradients inf (skipped step)."""
    gen = np.random.default_rng(0)
    model = T.nn.Linear(4, 3)
    with T.no_grad():
        model.weight.copy_(T.tensor(gen.standard_normal((3, 4)), dtype=T.float32))
        model.bias.copy_(T.tensor(gen.standard_normal(3), dtype=T.float32))
    opt = T.optim.SGD(model.parameters(), lr=0.1)
    scaler = T.amp.GradScaler("cpu", **scaler_kwargs)
    x = T.tensor(gen.standard_normal((5, 4)), dtype=T.float32)
    seen = []
    for i in range(steps):
        opt.zero_grad()
        loss = (model(x * (1e38 if i in blowup else 1.0)) ** 2).mean()
        scaled = scaler.scale(loss)
        scaled.backward()
        if i in unscale_at:
            scaler.unscale_(opt)
            seen.append(model.weight.grad.abs().sum().item())
        scaler.step(opt)
        scaler.update()
        seen.append((str(scaled.dtype), scaler.get_scale(), scaler._get_growth_tracker(), scaler.state_dict()))
    return seen, [p.detach().numpy().tolist() for p in model.parameters()]


@pytest.mark.parametrize("kwargs", [dict(), dict(init_scale=2.0 ** 10, growth_interval=2),
                                    dict(init_scale=3.0, growth_factor=1.5, backoff_factor=0.25, growth_interval=1),
                                    dict(enabled=False)], ids=str)
def test_grad_scaler_training_matches_torch(kwargs):
    with np.errstate(over="ignore", invalid="ignore"):     # the blown-up step overflows on purpose
        (seen_f, params_f), (seen_t, params_t) = _train(ft, kwargs), _train(torch, kwargs)
    assert [s[:3] if isinstance(s, tuple) else None for s in seen_f] == \
        [s[:3] if isinstance(s, tuple) else None for s in seen_t]
    assert [s[3] for s in seen_f if isinstance(s, tuple)] == [s[3] for s in seen_t if isinstance(s, tuple)]
    np.testing.assert_allclose([s for s in seen_f if not isinstance(s, tuple)],
                               [s for s in seen_t if not isinstance(s, tuple)], rtol=1e-5)
    for a, b in zip(params_f, params_t):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def _scaler_setup(T):
    p = T.nn.Parameter(T.ones(2))
    opt = T.optim.SGD([p], lr=0.1)
    return p, opt, T.amp.GradScaler("cpu")


def _twice_unscale(T):
    p, opt, s = _scaler_setup(T)
    s.scale(p.sum()).backward()
    s.unscale_(opt)
    s.unscale_(opt)


def _unscale_after_step(T):
    p, opt, s = _scaler_setup(T)
    s.scale(p.sum()).backward()
    s.step(opt)
    s.unscale_(opt)


def _step_twice(T):
    p, opt, s = _scaler_setup(T)
    s.scale(p.sum()).backward()
    s.step(opt)
    s.step(opt)


def _closure(T):
    p, opt, s = _scaler_setup(T)
    s.scale(p.sum()).backward()
    s.step(opt, closure=lambda: 0)


def _fp16_grads(T):
    p = T.ones(2, dtype=T.float16, requires_grad=True)
    opt = T.optim.SGD([p], lr=0.1)
    s = T.amp.GradScaler("cpu")
    s.scale(p.sum()).backward()
    s.step(opt)


def _pickle_mid_iteration(T):
    p, opt, s = _scaler_setup(T)
    s.scale(p.sum()).backward()
    s.unscale_(opt)
    pickle.dumps(s)


def _new_scale(T):
    p, opt, s = _scaler_setup(T)
    s.scale(p.sum()).backward()
    s.step(opt)
    s.update(new_scale=8.0)
    first = s.get_scale()
    s.update(T.tensor(4.0))
    return first, s.get_scale()


def _roundtrip(T):
    p, opt, s = _scaler_setup(T)
    s.scale([p.sum(), (p.sum() * 2, [p.sum()])])
    s2 = pickle.loads(pickle.dumps(s))
    s3 = T.amp.GradScaler("cpu", init_scale=5.0)
    s3.load_state_dict(s.state_dict())
    return s2.get_scale(), s2.state_dict(), s3.state_dict(), copy.deepcopy(s3).get_scale()


@pytest.mark.parametrize("case", [
    _twice_unscale, _unscale_after_step, _step_twice, _closure, _fp16_grads, _pickle_mid_iteration, _new_scale,
    _roundtrip,
    lambda T: T.amp.GradScaler("cpu").step(T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1)),
    lambda T: T.amp.GradScaler("cpu").update(), lambda T: T.amp.GradScaler("cpu").unscale_(None),
    lambda T: T.amp.GradScaler("cpu").scale(3), lambda T: T.amp.GradScaler("cpu").scale([T.ones(1), 3]),
    lambda T: type(T.amp.GradScaler("cpu").scale(iter([T.ones(1)]))).__name__,
    lambda T: T.amp.GradScaler("cpu", growth_factor=1.0), lambda T: T.amp.GradScaler("cpu", backoff_factor=1.0),
    lambda T: T.amp.GradScaler("cpu", growth_factor=1.0, enabled=False).is_enabled(),
    lambda T: T.amp.GradScaler("cpu").load_state_dict({}),
    lambda T: (T.amp.GradScaler("cpu").get_scale(), T.amp.GradScaler("cpu").state_dict()),
    lambda T: str(T.amp.GradScaler("cpu", init_scale=4.0).scale(T.tensor(2.0, dtype=T.float16)).dtype),
    lambda T: str(T.amp.GradScaler("cpu", init_scale=4.0).scale(T.tensor([2.0], dtype=T.float16)).dtype),
    lambda T: T.amp.GradScaler("cpu").scale(T.tensor(2.0, dtype=T.float64)).tolist(),
    lambda T: T.cpu.amp.GradScaler(init_scale=4.0).get_scale(),
], ids=lambda c: getattr(c, "__name__", "") + str(c.__code__.co_firstlineno))
def test_grad_scaler_errors_and_state(case):
    same(case)


@no_cuda
def test_grad_scaler_for_cuda_without_cuda_disables_itself():
    def case(T):
        p = T.nn.Parameter(T.ones(2))
        opt = T.optim.SGD([p], lr=0.5)
        scaler = T.amp.GradScaler()
        loss = scaler.scale(p.sum())
        loss.backward()
        scaler.step(opt)
        scaler.update()
        return scaler.is_enabled(), scaler.get_scale(), scaler.state_dict(), loss.item(), p.tolist()
    same(case)


@no_cuda
@pytest.mark.parametrize("enabled", [True, False])
def test_the_deprecated_cuda_amp_grad_scaler_warns_and_steps_as_torch_does(enabled):
    """nanoGPT-style training scripts build `torch.cuda.amp.GradScaler(enabled=...)` on any machine."""
    def case(T):
        p = T.nn.Parameter(T.ones(2))
        opt = T.optim.SGD([p], lr=0.5)
        scaler = T.cuda.amp.GradScaler(init_scale=8.0, enabled=enabled)
        scaler.scale(p.sum()).backward()
        scaler.unscale_(opt)
        scaler.step(opt)
        scaler.update()
        return type(scaler).__name__, scaler.is_enabled(), scaler.get_scale(), p.grad.tolist(), p.tolist()
    same(case)


# -------------------------------------------------------------------------------- cuda memory

@no_cuda
@pytest.mark.parametrize("call", [
    lambda T: T.cuda.empty_cache(), lambda T: T.cuda.memory_allocated(), lambda T: T.cuda.memory_allocated(0),
    lambda T: T.cuda.memory_allocated("cuda:1"), lambda T: T.cuda.memory_allocated("cpu"),
    lambda T: T.cuda.memory_allocated(device=0), lambda T: T.cuda.max_memory_allocated(),
    lambda T: T.cuda.max_memory_allocated("cuda"), lambda T: T.cuda.memory_reserved(),
    lambda T: T.cuda.max_memory_reserved(), lambda T: T.cuda.reset_peak_memory_stats(),
    lambda T: T.cuda.reset_peak_memory_stats(0), lambda T: T.cuda.reset_peak_memory_stats("cpu"),
    lambda T: T.cuda.reset_peak_memory_stats(T.device("cpu")), lambda T: T.cuda.get_device_name(),
    lambda T: T.cuda.get_device_name(0), lambda T: T.cuda.get_device_name("cuda:0"),
], ids=lambda c: str(c.__code__.co_firstlineno))
def test_cuda_memory_queries_without_cuda(call):
    same(call)


# ------------------------------------------------------------------------------------- Generator

@pytest.fixture
def restore_rng():
    saved = [(T, T.get_rng_state()) for T in (ft, torch)]
    yield
    for T, state in saved:
        T.set_rng_state(state)


@pytest.mark.parametrize("seed", [3, 0, -1, -2 ** 63, -2 ** 63 - 1, 2 ** 64 - 1, 2 ** 64, 1.5, "3", True, None,
                                  np.int64(4), np.uint64(5)], ids=repr)
def test_generator_manual_seed(seed, restore_rng):
    same(lambda T: T.Generator(device="cpu").manual_seed(seed).initial_seed())
    same(lambda T: (lambda g: g.manual_seed(seed) is g)(T.Generator()))
    same(lambda T: T.manual_seed(seed).initial_seed())
    same(lambda T: T.Generator().manual_seed(T.tensor(3)))


def test_generator_chains_and_honours_generator_arguments(restore_rng):
    def case(T):
        g = T.Generator(device="cpu").manual_seed(7)
        a = T.randn(3, 2, generator=g)
        b = T.rand(4, generator=T.Generator().manual_seed(7))
        T.randn(5)                                   # the default stream is another stream
        g.manual_seed(7)
        return (g.initial_seed(), T.equal(a, T.randn(3, 2, generator=g)),
                T.equal(b, T.rand(4, generator=T.Generator().manual_seed(7))),
                T.equal(T.randperm(6, generator=T.Generator().manual_seed(1)),
                        T.randperm(6, generator=T.Generator().manual_seed(1))),
                T.equal(T.randn(8, generator=T.Generator().manual_seed(1)),
                        T.randn(8, generator=T.Generator().manual_seed(2))),
                str(g.device), type(T.default_generator) is T.Generator, type(g).__name__)
    same(case)


def test_generator_state_round_trips(restore_rng):
    def case(T):
        g = T.Generator().manual_seed(11)
        T.randn(3, generator=g)
        state = g.get_state()
        a = T.randn(4, generator=g)
        g.manual_seed(12)
        again = g.set_state(state) is g
        b = T.randn(4, generator=g)
        state[0] = 0                                 # get_state hands out a copy
        T.manual_seed(5)
        s = T.get_rng_state()
        c = T.rand(3)
        T.set_rng_state(s)
        return (again, T.equal(a, b), g.initial_seed(), T.initial_seed(), T.equal(c, T.rand(3)),
                state.dtype == T.uint8, state.dim(), T.equal(g.get_state(), g.clone_state().get_state()),
                g.clone_state().initial_seed(), T.set_rng_state(s))
    same(case)
    assert ft.get_rng_state().numel() == 48        # flowgrad's state: the seed and PCG64's, not MT19937's 5056 bytes


@pytest.mark.parametrize("case", [
    lambda T: T.Generator().set_state(3), lambda T: T.Generator().set_state([0] * 48),
    lambda T: T.Generator().set_state(T.zeros(T.get_rng_state().numel())),
    lambda T: T.Generator().set_state(T.zeros(2 * T.get_rng_state().numel(), dtype=T.uint8)[::2]),
    lambda T: T.set_rng_state(3), lambda T: T.manual_seed(object()), lambda T: str(T.Generator(T.device("cpu")).device),
], ids=lambda c: str(c.__code__.co_firstlineno))
def test_generator_argument_checks(case, restore_rng):
    same(case)


def test_generator_state_size_is_checked(restore_rng):
    """The same check as PyTorch's; the sizes differ (flowgrad's state is 48 bytes)."""
    for T, n in ((ft, 48), (torch, 5056)):
        with pytest.raises(RuntimeError) as err:
            T.Generator().set_state(T.zeros(3, dtype=T.uint8))
        assert str(err.value) == f"Expected a CPUGeneratorImplState of size {n} but found the input RNG state size " \
                                 "to be 3"


def test_generators_pickle_and_copy(restore_rng):
    def case(T):
        g = T.Generator().manual_seed(21)
        T.rand(2, generator=g)
        g2, g3 = pickle.loads(pickle.dumps(g)), copy.deepcopy(g)
        return (g2.initial_seed(), T.equal(T.rand(3, generator=g2), T.rand(3, generator=g3)),
                T.equal(T.rand(3, generator=g), T.rand(3, generator=g2)))
    same(case)
