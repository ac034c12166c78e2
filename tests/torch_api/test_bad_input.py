"""Bad arguments to every public function of flowgrad.torch, torch.nn.functional and torch.linalg and
to every public Tensor method, each enumerated from the facade and called as real torch is.

Each callable is called with one bad argument of each kind (a Python list where a tensor goes, a
string, None, a tensor of the wrong dtype: bool, int64, float, a wrong-shaped tensor), first as its
only argument and then after a good tensor (for a method: as its first argument; a bool / int64
tensor also calls each method with no argument). A case fails when flowgrad
- raises AttributeError / KeyError / IndexError / NameError / UnboundLocalError / AssertionError
  from inside its own modules where torch raises no exception of that type (a leak of its internals),
- raises with a message naming its internals ('_data', 'ndarray', 'numpy', ...) where torch's does not,
- raises where torch raises, but an exception of another type,
- returns a value where torch raises (a silent wrong answer), or one unequal to torch's.
One difference is accepted everywhere: where torch's exception comes from its Python layer (the
last frame inside the torch package: `torch.nn.functional` tests shapes before handing the arguments
to the C++ parser, or trips over the bad value itself with an AttributeError), flowgrad may raise its
argument-type TypeError instead, which names the mistyped argument as PyTorch's parser does.
"""
from __future__ import annotations

import inspect
import math
import os
import re
import traceback
import warnings

import pytest

real_torch = pytest.importorskip("torch")

import flowgrad  # noqa: E402
import flowgrad.torch as fg_torch  # noqa: E402

FLOWGRAD_DIR = os.path.dirname(flowgrad.__file__)
TORCH_DIR = os.path.dirname(real_torch.__file__)
ARGUMENT_TYPE = re.compile(r"\(\): argument '\w+' (\(position \d+\) )?must be ")

# callables not called, with the reason
SKIPPED = {
    # they change process-wide state (default dtype / device, threads, seeds, print options, modes)
    **dict.fromkeys(("set_default_device", "set_default_dtype", "set_num_threads", "set_num_interop_threads",
                     "manual_seed", "seed", "set_rng_state", "set_printoptions", "use_deterministic_algorithms",
                     "set_deterministic_debug_mode", "set_float32_matmul_precision"), "changes global state"),
    # their arguments are not tensors: files, modules, NumPy arrays, DLPack capsules
    **dict.fromkeys(("save", "load", "compile", "from_numpy", "from_dlpack"), "takes no tensor argument"),
}
SKIPPED_METHODS = {
    **dict.fromkeys(("backward", "register_hook", "register_post_accumulate_grad_hook", "apply_"),
                    "needs a graph or a callable, covered by the autograd suites"),
    "cuda": "needs a CUDA device", "data_ptr": "an address: never equal between frameworks",
}

# outcomes deliberately left different from torch's: reason -> the case ids it covers
_LEFT_GROUPS = {
    "a rank-deficient input (ones(4, 5, 6)): the null-space basis of qr / svd is not unique, and the "
    "condition number / pseudo-inverse differ in rounding (flowgrad's pinverse is the exact one; PyTorch's "
    "float32 result keeps singular values of 1e-8)":
        ["linalg.qr(shape)", "linalg.svd(shape)", "linalg.cond(shape)", "torch.pinverse(shape)"],
}
LEFT: dict[str, str] = {case: reason for reason, cases in _LEFT_GROUPS.items() for case in cases}

# results compared by dtype and shape only (random or uninitialised values)
RANDOM = re.compile(r"^(rand\w*|normal\w*|bernoulli\w*|poisson|multinomial|dropout|empty\w*|new_empty|exponential_|"
                    r"uniform_|random_|initial_seed|get_rng_state)$")
LEAKS = (AttributeError, KeyError, IndexError, NameError, UnboundLocalError, AssertionError)
INTERNAL_WORDS = re.compile(r"_data|ndarray|numpy|\bnp\.|_out_cls|_host|<locals>")
BUILTIN_ERRORS = (NotImplementedError, TypeError, ValueError, IndexError, KeyError, AttributeError, RuntimeError,
                  OverflowError, ZeroDivisionError, ArithmeticError, LookupError, Exception)


def _bads(T) -> dict:
    return {"list": lambda: [1.0, 2.0], "str": lambda: "abc", "none": lambda: None,
            "bool": lambda: T.tensor([True, False]), "int64": lambda: T.tensor([1, 2]),
            "float": lambda: T.tensor([1.0, 2.0]), "shape": lambda: T.ones(4, 5, 6)}


def _good(T):
    return T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]])


def _public(space) -> list[str]:
    return sorted(n for n in dir(space) if not n.startswith("_") and callable(getattr(space, n))
                  and not inspect.isclass(getattr(space, n)) and not inspect.ismodule(getattr(space, n)))


def _spaces():
    import flowgrad.torch.linalg as fg_linalg
    import flowgrad.torch.nn.functional as fg_functional
    return [("torch", fg_torch, real_torch), ("F", fg_functional, real_torch.nn.functional),
            ("linalg", fg_linalg, real_torch.linalg)]


def _cases():
    cases = []
    for prefix, mine, theirs in _spaces():
        for name in _public(mine):
            if name in SKIPPED:
                continue
            for kind in _bads(fg_torch):
                cases.append((f"{prefix}.{name}({kind})", name, mine, theirs,
                              lambda T, M, name=name, kind=kind: getattr(M, name)(_bads(T)[kind]())))
                cases.append((f"{prefix}.{name}(x,{kind})", name, mine, theirs,
                              lambda T, M, name=name, kind=kind: getattr(M, name)(_good(T), _bads(T)[kind]())))
    for name in _public(fg_torch.Tensor):
        if name in SKIPPED_METHODS:
            continue
        for kind in _bads(fg_torch):
            cases.append((f"x.{name}({kind})", name, None, None,
                          lambda T, M, name=name, kind=kind: getattr(_good(T), name)(_bads(T)[kind]())))
            if kind in ("bool", "int64"):
                cases.append((f"{kind}.{name}()", name, None, None,
                              lambda T, M, name=name, kind=kind: getattr(_bads(T)[kind](), name)()))
    return cases


CASES = _cases()


def _outcome(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "value", call()
        except Exception as exc:  # noqa: BLE001 - every exception is an outcome to compare
            frames = traceback.extract_tb(exc.__traceback__)
            return "raise", exc, frames[-1].filename if frames else ""


def _builtin_type(exc: BaseException) -> type:
    """The most specific builtin exception class of `exc` (torch and flowgrad subclass them)."""
    return next(c for c in type(exc).__mro__ if c.__module__ == "builtins")


def _plain(value):
    """A result as plain data, comparable across the two frameworks."""
    if isinstance(value, (fg_torch.Tensor, real_torch.Tensor)):
        t = value.detach()
        return ("Tensor", str(t.dtype).rpartition(".")[2], tuple(t.shape), _plain(t.tolist()))
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (bool, int, float, str, type(None))):
        return value
    if isinstance(value, (fg_torch.dtype, real_torch.dtype)):
        return str(value).rpartition(".")[2]
    return type(value).__name__


def _close(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6) or (math.isinf(a) and a == b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return a == b


def _shape_only(p):
    if isinstance(p, tuple) and p and p[0] == "Tensor":
        return p[:3]
    if isinstance(p, list):
        return [_shape_only(v) for v in p]
    return type(p).__name__


def _describe(outcome) -> str:
    if outcome[0] == "value":
        return f"returned {_plain(outcome[1])!r}"[:300]
    exc = outcome[1]
    return f"raised {type(exc).__name__}: {str(exc)[:200]!r} at {outcome[2]}"


def test_left_cases_are_cases():
    assert set(LEFT) <= {c[0] for c in CASES}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_argument(case):
    if case[0] not in LEFT:
        _compare(case)
        return
    try:
        _compare(case)
    except (AssertionError, pytest.fail.Exception):
        pytest.xfail(LEFT[case[0]])
    pytest.fail(f"{case[0]} now behaves as in torch: remove it from LEFT")


def _compare(case):
    case_id, name, mine_space, theirs_space, call = case
    mine = _outcome(lambda: call(fg_torch, mine_space))
    theirs = _outcome(lambda: call(real_torch, theirs_space))
    where = f"{case_id}: flowgrad {_describe(mine)}; torch {_describe(theirs)}"
    if mine[0] == "raise":
        exc, filename = mine[1], mine[2]
        torch_type = _builtin_type(theirs[1]) if theirs[0] == "raise" else None
        if isinstance(exc, LEAKS) and filename.startswith(FLOWGRAD_DIR) and torch_type is not _builtin_type(exc):
            pytest.fail(f"internal {type(exc).__name__} leaked: {where}")
        words = set(INTERNAL_WORDS.findall(str(exc))) - set(INTERNAL_WORDS.findall(str(theirs[1]) if theirs[0] ==
                                                                                     "raise" else ""))
        assert not words, f"message names flowgrad internals {sorted(words)}: {where}"
        if theirs[0] == "raise":
            python_layer = theirs[2].startswith(TORCH_DIR)
            if not (python_layer and type(exc) is TypeError and ARGUMENT_TYPE.search(str(exc))):
                assert _builtin_type(exc) is torch_type, f"exception type differs: {where}"
        else:
            pytest.fail(f"flowgrad refuses what torch computes: {where}")
        return
    if theirs[0] == "raise":
        pytest.fail(f"silent wrong answer: {where}")
    a, b = _plain(mine[1]), _plain(theirs[1])
    if RANDOM.match(name):
        a, b = _shape_only(a), _shape_only(b)
    assert _close(a, b), f"values differ: {where}"
