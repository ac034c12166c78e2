"""flowgrad.torch's parameter names against real PyTorch's, function by function, and calls made the
way porting tools check a mapping (all positional, all keyword, keywords shuffled, defaults left out)
with their results compared with real torch's.

PyTorch's names for a function come from, in order of authority:
1. a Python-level function's own signature (`inspect.signature`, exact);
2. otherwise `torch.overrides.get_testing_overrides()`'s lambda as a first approximation (for a
   method, less the `out` its function's lambda often carries), and the docstring's signature line
   where the two disagree;
3. where they disagree and that docstring names a parameter PyTorch's argument parser does not
   accept (its generated stubs, `torch/_C/_VariableFunctions.pyi` and `TensorBase` in
   `torch/_C/__init__.pyi`, list every overload the parser takes), the parser's names (`x.mul(value)`
   in the docstring, `other` in the parser).
A parameter matches when flowgrad's function accepts it under the same name, at the same position
among the positional parameters and keyword-only exactly where PyTorch's is (known from the docstring,
stub or signature). Operators (`__add__`, ...) are left out: Python calls them positionally.
"""
from __future__ import annotations

import ast
import inspect
import pathlib
import re

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from torch.overrides import get_testing_overrides  # noqa: E402

import flowgrad.torch as ft  # noqa: E402

_NAME = re.compile(r"[A-Za-z_]\w*")


# ----------------------------------------------------------------------------- PyTorch's names

class Sig:
    """Parameter names in order, the keyword-only ones, and whether the kinds are known."""

    def __init__(self, names, kw_only=(), kinds_known=False, var=()):
        self.names, self.kw_only, self.kinds_known, self.var = list(names), set(kw_only), kinds_known, set(var)

    def positional(self):
        return [n for n in self.names if n not in self.kw_only and n not in self.var]


def _split_top(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return parts + [cur]


def _docstring_sig(fn, name: str, method: bool):
    """The parameters of the docstring's signature line `name(...) -> ...`, if it has one."""
    for line in (getattr(fn, "__doc__", None) or "").strip().splitlines()[:4]:
        line = line.strip()
        if not line.startswith(name + "("):
            continue
        depth, end = 0, None
        for i, ch in enumerate(line[len(name):], len(name)):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0:
                end = i
                break
        if end is None:
            return None
        names, kw, var_names, star = [], set(), set(), False
        for token in _split_top(line[len(name) + 1:end]):
            token = token.strip().replace("\\*", "*")
            if not token:
                continue
            if token == "*":
                star = True
                continue
            var = token.startswith("*")
            m = _NAME.match(token.lstrip("*"))
            if not m:
                return None
            names.append(m.group())
            if var:
                var_names.add(m.group())
            elif star:
                kw.add(m.group())
            star = star or var
        if method and names and names[0] == "self":
            names = names[1:]
        return Sig(names, kw, kinds_known=True, var=var_names)
    return None


def _stubs() -> tuple[dict, dict]:
    """name -> [overload signatures] for torch's functions and TensorBase's methods."""
    root = pathlib.Path(torch.__file__).parent / "_C"
    functions, methods = {}, {}

    def sig(node: ast.FunctionDef, method: bool) -> Sig:
        a = node.args
        pos = [x.arg for x in a.posonlyargs + a.args]
        if method:
            pos = pos[1:]
        names = pos + ([a.vararg.arg] if a.vararg else []) + [x.arg for x in a.kwonlyargs]
        return Sig(names, [x.arg for x in a.kwonlyargs], kinds_known=True,
                   var=[a.vararg.arg] if a.vararg else [])

    for node in ast.parse((root / "_VariableFunctions.pyi").read_text()).body:
        if isinstance(node, ast.FunctionDef):
            functions.setdefault(node.name, []).append(sig(node, False))
    for node in ast.parse((root / "__init__.pyi").read_text()).body:
        if isinstance(node, ast.ClassDef) and node.name == "TensorBase":
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    methods.setdefault(item.name, []).append(sig(item, True))
    return functions, methods


_STUB_FUNCTIONS, _STUB_METHODS = _stubs()
_OVERRIDES = get_testing_overrides()
RESOLVED = {"signature": 0, "overrides": 0, "docstring": 0, "parser": 0}


def _parser_check(chosen: Sig, name: str, method: bool) -> Sig:
    """`chosen`, unless it names a parameter no overload of PyTorch's parser takes: then the
    overload closest to it."""
    stubs = (_STUB_METHODS if method else _STUB_FUNCTIONS).get(name)
    if not stubs or set(chosen.names) <= {n for s in stubs for n in s.names} | (set() if method else {"out"}):
        return chosen
    RESOLVED["parser"] += 1
    return max(stubs, key=lambda s: (len(set(s.names) & set(chosen.names)), bool(s.var) == bool(chosen.var),
                                     len(s.names)))


def reference(real, name: str, method: bool) -> Sig | None:
    """PyTorch's parameters for `real` (see the module docstring for the order of authority)."""
    if inspect.isfunction(real):
        params = list(inspect.signature(real).parameters.values())[1 if method else 0:]
        if not all(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
            RESOLVED["signature"] += 1
            return Sig([p.name for p in params if p.kind is not p.VAR_KEYWORD],
                       [p.name for p in params if p.kind is p.KEYWORD_ONLY], kinds_known=True,
                       var=[p.name for p in params if p.kind is p.VAR_POSITIONAL])
        real = getattr(real, "__wrapped__", real)   # a dispatching wrapper: its documented form
    lam = _OVERRIDES.get(real)
    doc = _docstring_sig(real, name, method)
    if lam is None and doc is None:
        return None
    if lam is not None:
        names = [p for p in inspect.signature(lam).parameters if p not in ("args", "kwargs")][1 if method else 0:]
        if method:   # a method's lambda is often its function's: Tensor methods take no `out=`
            names = [n for n in names if n != "out"]
        over = Sig(names)
        if doc is None or set(doc.names) == set(over.names):
            RESOLVED["overrides"] += 1
            return doc if doc is not None else over
    RESOLVED["docstring"] += 1
    return _parser_check(doc, name, method)


# ------------------------------------------------------------------------- flowgrad's names

def accepted(ours, method: bool) -> tuple[list, set, set] | None:
    """flowgrad's (positional names in order, keyword-only names, names taken only through *args)."""
    try:
        params = list(inspect.signature(ours).parameters.values())
    except (TypeError, ValueError):
        return None
    if method:
        params = params[1:]
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    kw_only = {p.name for p in params if p.kind is p.KEYWORD_ONLY}
    return positional, kw_only, {p.name for p in params if p.kind is p.VAR_POSITIONAL}


def _mismatches(ref: Sig, ours, method: bool) -> list[str]:
    got = accepted(ours, method)
    if got is None:
        return ["<no signature>"]
    positional, kw_only, var = got
    bad = []
    ref_pos = ref.positional()
    for name in ref.names:
        if name in ref.var:
            # PyTorch's `*size`: flowgrad's own varargs of that name, or varargs plus the keyword spelling
            ok = name in var or (name in kw_only and bool(var))
        elif name in positional:
            ok = not ref.kinds_known or (name not in ref.kw_only and name in ref_pos and
                                         ref_pos.index(name) == positional.index(name))
        elif name in kw_only:
            # keyword-only where PyTorch's is; or PyTorch's sequence parameter (`x.flip(dims)`) taken as
            # flowgrad's varargs at that position plus its keyword spelling (`x.flip(0, 1)` works too)
            ok = (name in ref.kw_only or (not ref.kinds_known and name == "out") or
                  (bool(var) and name in ref_pos and ref_pos.index(name) == len(positional)))
        else:
            ok = False
        if not ok:
            bad.append(name)
    return bad


def _surfaces():
    """(qualified name, real callable, flowgrad callable, is method) for every public function of
    torch, torch.nn.functional and Tensor that flowgrad provides."""
    for prefix, real_mod, ours_mod, method in (("torch", torch, ft, False),
                                              ("F", torch.nn.functional, ft.nn.functional, False),
                                              ("Tensor", torch.Tensor, ft.Tensor, True)):
        for name in sorted(dir(ours_mod)):
            if name.startswith("_"):
                continue
            ours, real = getattr(ours_mod, name, None), getattr(real_mod, name, None)
            if not callable(ours) or real is None or isinstance(ours, type) or isinstance(real, type):
                continue
            if not method and not (inspect.isfunction(ours) or inspect.isbuiltin(ours)):
                continue
            yield f"{prefix}.{name}", name, real, ours, method


# Deliberate exceptions: qualified name -> (PyTorch names flowgrad does not take as the reference
# says, why, and a probe run on real torch that shows the reason holds: code and whether it "works"
# or "raises" TypeError).
_X, _V = "torch.ones(2, 2)", "torch.ones(2)"
EXCEPTIONS = {
    # -- the reference is wrong: PyTorch's own parser disagrees with its docstring / overrides / stubs,
    #    and flowgrad follows the parser
    **{f"torch.{name}": (["tensors"], "PyTorch's Python function takes `*tensors`, as flowgrad's does (the "
                                      "reference reads one parameter `tensors`)",
                         (f"torch.{name}(torch.ones(2), torch.ones(3))", "works"))
       for name in ("block_diag", "cartesian_prod")},
    "Tensor.dot": (["other"], "docstring and overrides say `other`; the parser takes `tensor`",
                   (f"{_V}.dot(other={_V})", "raises")),
    "Tensor.copy_": (["src"], "docstring and overrides say `src`; the parser takes `other`",
                     (f"{_X}.copy_(src={_X})", "raises")),
    "Tensor.mul": (["out"], "Tensor methods take no out=", (f"{_X}.mul({_X}, out={_X})", "raises")),
    "Tensor.true_divide": (["out"], "Tensor methods take no out=", (f"{_X}.true_divide({_X}, out={_X})", "raises")),
    "Tensor.floor_divide": (["out"], "Tensor methods take no out=",
                            (f"{_X}.floor_divide({_X}, out={_X})", "raises")),
    "Tensor.nansum": (["dtype"], "the docstring shows dtype positional; the parser takes it by keyword only",
                      (f"{_X}.nansum(0, False, torch.float64)", "raises")),
    "Tensor.prod": (["dtype"], "the docstring shows dtype positional; the parser takes it by keyword only",
                    (f"{_X}.prod(0, False, torch.float64)", "raises")),
    "Tensor.round": (["decimals"], "the docstring shows decimals positional; the parser takes it by keyword only",
                     (f"{_X}.round(1)", "raises")),
    "Tensor.round_": (["decimals"], "as Tensor.round",
                      (f"{_X}.round_(1)", "raises")),
    **{f"Tensor.{n}": (["memory_format"], "the docstring shows memory_format positional; the parser takes it by "
                                          "keyword only", (f"{_X}.{n}(torch.preserve_format)", "raises"))
       for n in ("bool", "byte", "char", "double", "float", "half", "bfloat16", "int", "long", "short", "cpu",
                 "contiguous", "is_contiguous", "cfloat", "cdouble")},
    "F.gelu": (["approximate"], "the docstring shows approximate positional; the parser takes it by keyword only",
               (f"torch.nn.functional.gelu({_X}, 'tanh')", "raises")),
    "Tensor.new_tensor": (["dtype", "device", "requires_grad", "pin_memory"],
                          "the stub shows them positional; the parser takes them by keyword only",
                          (f"{_X}.new_tensor([1.0], torch.float64)", "raises")),
    "Tensor.view": (["shape"], "docstring and overrides say `*shape`; the parser's keyword is `size`",
                    (f"{_X}.view(shape=(4,))", "raises")),
    "Tensor.relu": (["inplace"], "the overrides lambda is F.relu's; Tensor.relu takes no arguments",
                    (f"{_X}.relu(inplace=False)", "raises")),
    "Tensor.relu_": (["inplace"], "as Tensor.relu", (f"{_X}.clone().relu_(inplace=False)", "raises")),
    "torch.relu": (["inplace"], "the overrides lambda is F.relu's; torch.relu takes no inplace",
                   (f"torch.relu({_X}, inplace=False)", "raises")),
    **{f"torch.{name}": (["inplace"], f"the overrides lambda is F.{name}'s; torch.{name} takes no inplace",
                         (f"torch.{name}({_X}{args}, inplace=False)", "raises"))
       for name, args in (("selu", ""), ("celu", ""), ("threshold", ", 0.5, 2.0"), ("rrelu", ""))},
    "torch.set_num_threads": (["num"], "the stub names it `num`, but PyTorch takes no keyword arguments here",
                              ("torch.set_num_threads(num=torch.get_num_threads())", "raises")),
    "torch.set_num_interop_threads": (["num"], "as set_num_threads",
                                      ("torch.set_num_interop_threads(num=1)", "raises")),
    "torch.softmax": (["dtype"], "the docstring shows dtype keyword-only; the parser takes it positionally",
                      (f"torch.softmax({_X}, 1, torch.float64)", "works")),
    "torch.unsafe_split": (["tensor", "split_size_or_sections"], "the docstring copies torch.split's names; the "
                           "parser takes `input`, `split_size`", (f"torch.unsafe_split(tensor={_V}, "
                                                                   "split_size_or_sections=1)", "raises")),
    "torch.unsafe_split_with_sizes": (["tensor", "split_size_or_sections"], "as unsafe_split; the parser takes "
                                      "`input`, `split_sizes`", (f"torch.unsafe_split_with_sizes(tensor={_V}, "
                                                                 "split_size_or_sections=[1, 1])", "raises")),
    "Tensor.unsafe_split_with_sizes": (["split_size_or_sections"], "as torch.unsafe_split_with_sizes",
                                       (f"{_V}.unsafe_split_with_sizes(split_size_or_sections=[1, 1])", "raises")),
    # -- flowgrad's choice: one signature for PyTorch's two std/var overloads. The `unbiased` overload
    #    (input, dim, unbiased, keepdim) takes keepdim positionally, so flowgrad keeps it positional where
    #    the docstring's `correction` form makes it keyword-only
    **{q: (["keepdim"], "std/var's unbiased overload takes keepdim fourth", (probe, "works")) for q, probe in (
        ("torch.std", f"torch.std({_X}, 0, True, True)"), ("torch.var", f"torch.var({_X}, 0, True, True)"),
        ("Tensor.std", f"{_X}.std(0, True, True)"), ("Tensor.var", f"{_X}.var(0, True, True)"))},
    # (their docstrings also list out=, which no overload of PyTorch's parser takes:
    # `torch.std_mean(x, 0, out=(a, b))` raises TypeError)
    **{q: (["keepdim", "out"], "keepdim as std/var; out= is the docstring's only", (probe, "works"))
       for q, probe in (("torch.std_mean", f"torch.std_mean({_X}, 0, True, True)"),
                        ("torch.var_mean", f"torch.var_mean({_X}, 0, True, True)"))},
    # -- Tensor.to parses its overloads (dtype / device / tensor, positional or keyword) itself
    "Tensor.to": (["device", "dtype", "non_blocking", "copy", "memory_format"],
                  "takes (*args, **kwargs) and parses PyTorch's three overloads itself",
                  (f"{_X}.to(dtype=torch.float64, device='cpu', non_blocking=False, copy=False)", "works")),
}


def _compare():
    compared = matching = 0
    left = {}
    for qual, name, real, ours, method in _surfaces():
        ref = reference(real, name, method)
        if ref is None or not ref.names:
            continue
        bad = _mismatches(ref, ours, method)
        compared += len(ref.names)
        matching += len(ref.names) - len(bad)
        if bad:
            left[qual] = bad
    return compared, matching, left


def test_parameter_names_match_pytorch():
    compared, matching, left = _compare()
    print(f"\nparameter names compared: {compared}, matching: {matching}, "
          f"deliberate exceptions left: {sum(len(v) for v in left.values())} in {len(left)} functions "
          f"(PyTorch's names resolved by {RESOLVED})")
    for qual, bad in sorted(left.items()):
        print(f"  {qual}: {bad}  {EXCEPTIONS[qual][1] if qual in EXCEPTIONS else '<<< not listed'}")
    assert {q: sorted(b) for q, b in left.items()} == {q: sorted(b) for q, (b, _, _) in EXCEPTIONS.items()}
    assert compared - matching == sum(len(b) for b, _, _ in EXCEPTIONS.values())
    assert compared >= 1300


@pytest.mark.parametrize("qual", sorted(EXCEPTIONS))
def test_exception_reason_holds_on_real_torch(qual):
    code, expect = EXCEPTIONS[qual][2]
    if expect == "works":
        eval(code, {"torch": torch})
    else:
        with pytest.raises(TypeError):
            eval(code, {"torch": torch})



# ---------------------------------------------------------------------------------- defaults

def _reference_defaults(real, name: str, method: bool) -> dict:
    """PyTorch's literal defaults: a Python function's own, else the docstring's signature line's."""
    if inspect.isfunction(real):
        params = inspect.signature(real).parameters.values()
        if not all(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
            return {p.name: p.default for p in params if p.default is not p.empty}
    for line in (getattr(real, "__doc__", None) or "").strip().splitlines()[:4]:
        line = line.strip()
        if line.startswith(name + "("):
            body = line[len(name) + 1:line.index("->") if "->" in line else len(line)].rstrip().rstrip(")")
            out = {}
            for token in _split_top(body):
                key, eq, value = token.strip().replace("\\*", "*").partition("=")
                if eq:
                    try:
                        out[key.split(":")[0].strip().lstrip("*")] = ast.literal_eval(value.strip())
                    except (ValueError, SyntaxError):
                        pass        # torch.strided, torch.preserve_format, ...: not literals
            return out
    return {}


# Defaults that differ from the reference on purpose: qualified name -> (parameter, why).
DEFAULT_EXCEPTIONS = {
    **{q: ("dim", "the parser's default is () (all dims); the docstring writes None")
       for q in ("torch.amax", "torch.amin", "Tensor.amax", "Tensor.amin")},
    **{q: ("dim", "the parser's default is -1 (the last dim); the docstring writes None")
       for q in ("torch.kthvalue", "torch.topk", "Tensor.kthvalue", "Tensor.topk")},
    **{q: ("correction", "None means the documented 1 unless the unbiased overload sets it: one signature serves "
                         "both overloads") for q in ("torch.std", "torch.var", "torch.std_mean", "torch.var_mean",
                                                     "Tensor.std", "Tensor.var")},
    **{q: (k, "the docstring writes None, but PyTorch's parser refuses an explicit None (its overload without the "
              "argument is another): flowgrad's default is the argument left out")
       for q, k in (("Tensor.max", "dim"), ("Tensor.min", "dim"), ("Tensor.median", "dim"), ("Tensor.prod", "dim"),
                    ("Tensor.squeeze", "dim"), ("torch.eye", "m"), ("torch.trapezoid", "x"), ("torch.trapz", "x"),
                    ("torch.cumulative_trapezoid", "x"), ("Tensor.scatter_", "reduce"))},
    "Tensor.squeeze_": ("dim", "the parser's squeeze_() takes no dim (every size-1 dim) and refuses dim=None; "
                               "the docstring writes None"),
    "Tensor.random_": ("to", "to left out (random_(to) with one argument) differs from to=None (random_(from, None): "
                             "up to the dtype's bound): flowgrad's default is the argument left out"),
    "torch.asarray": ("requires_grad", "PyTorch's None means False for a new tensor; flowgrad builds only False"),
    "torch.tril_indices": ("device", "None is the default device, the CPU"),
    "torch.triu_indices": ("device", "None is the default device, the CPU"),
    "torch.save": ("pickle_module", "None is Python's pickle"),
    **{f"F.max_pool{n}d_with_indices": ("return_indices", "the indices are returned whatever the flag, as in "
                                                          "PyTorch") for n in (1, 2, 3)},
}


def test_defaults_match_pytorch():
    compared, differ = 0, {}
    for qual, name, real, ours, method in _surfaces():
        ref = _reference_defaults(real, name, method)
        try:
            mine = inspect.signature(ours).parameters
        except (TypeError, ValueError):
            continue
        for key, value in ref.items():
            if key == "out" or key not in mine or mine[key].default is inspect.Parameter.empty:
                continue
            compared += 1
            if mine[key].default != value or type(mine[key].default) is not type(value):
                if not (isinstance(value, (int, float)) and not isinstance(value, bool) and
                        type(mine[key].default) in (int, float) and mine[key].default == value):
                    differ.setdefault(qual, set()).add(key)
    left = sum(len(keys) for keys in differ.values())
    print(f"\nliteral defaults compared: {compared}, matching: {compared - left}, deliberate exceptions left: {left}")
    assert differ == {q: {k} for q, (k, _) in DEFAULT_EXCEPTIONS.items()}
    assert compared >= 500


# --------------------------------------------------------------- calls as porting tools make them

def _data(seed=0):
    rng = np.random.default_rng(seed)
    return {"x": rng.standard_normal((3, 4)), "y": rng.standard_normal((3, 4)), "m": rng.standard_normal((4, 2)),
            "v": rng.standard_normal(4), "idx": np.array([[0, 2], [1, 3], [3, 0]]), "sel": np.array([2, 0]),
            "mask": rng.standard_normal((3, 4)) > 0, "w": rng.standard_normal((5, 4)), "b": rng.standard_normal(5)}


# (function, its parameters in PyTorch's order as (name, value); keyword-only ones after "*";
#  how many leading parameters are required). Values name arrays of _data or are plain Python values.
CALLS = [
    ("torch.sum", [("input", "x"), ("dim", 1), ("keepdim", True), "*", ("dtype", "float64")], 1),
    ("torch.mean", [("input", "x"), ("dim", 0), ("keepdim", False)], 1),
    ("torch.add", [("input", "x"), ("other", "y"), "*", ("alpha", 2)], 2),
    ("torch.sub", [("input", "x"), ("other", "y"), "*", ("alpha", 0.5)], 2),
    ("torch.div", [("input", "x"), ("other", "y"), "*", ("rounding_mode", "floor")], 2),
    ("torch.matmul", [("input", "x"), ("other", "m")], 2),
    ("torch.mm", [("input", "x"), ("mat2", "m")], 2),
    ("torch.clamp", [("input", "x"), ("min", -0.5), ("max", 0.5)], 1),
    ("torch.where", [("condition", "mask"), ("input", "x"), ("other", "y")], 3),
    ("torch.gather", [("input", "x"), ("dim", 1), ("index", "idx")], 3),
    ("torch.index_select", [("input", "x"), ("dim", 1), ("index", "sel")], 3),
    ("torch.transpose", [("input", "x"), ("dim0", 0), ("dim1", 1)], 3),
    ("torch.flip", [("input", "x"), ("dims", [0, 1])], 2),
    ("torch.permute", [("input", "x"), ("dims", (1, 0))], 2),
    ("torch.reshape", [("input", "x"), ("shape", (2, 6))], 2),
    ("torch.unsqueeze", [("input", "x"), ("dim", 1)], 2),
    ("torch.cumsum", [("input", "x"), ("dim", 1), "*", ("dtype", "float32")], 2),
    ("torch.softmax", [("input", "x"), ("dim", 1)], 2),
    ("torch.std", [("input", "x"), ("dim", 1), "*", ("correction", 0), ("keepdim", True)], 1),
    ("torch.max", [("input", "x"), ("dim", 1), ("keepdim", True)], 1),
    ("torch.max", [("input", "x"), "*", ("other", "y")], 1),       # the (input, other) overload by keyword
    ("Tensor.min", [("self", "x"), "*", ("other", "y")], 1),
    ("torch.topk", [("input", "x"), ("k", 2), ("dim", 0), ("largest", False), ("sorted", True)], 2),
    ("torch.split", [("tensor", "x"), ("split_size_or_sections", 2), ("dim", 1)], 2),
    ("torch.narrow", [("input", "x"), ("dim", 1), ("start", 1), ("length", 2)], 4),
    ("torch.masked_fill", [("input", "x"), ("mask", "mask"), ("value", 0.25)], 3),
    ("torch.broadcast_to", [("input", "v"), ("size", (3, 4))], 2),
    ("torch.zeros_like", [("input", "x"), "*", ("dtype", "float32"), ("requires_grad", False)], 1),
    ("torch.full_like", [("input", "x"), ("fill_value", 7.0), "*", ("dtype", "float64")], 2),
    ("torch.arange", [("start", 1), ("end", 7), ("step", 2), "*", ("dtype", "float64")], 1),
    ("torch.addmm", [("input", "b"), ("mat1", "x"), ("mat2", "w"), "*", ("beta", 0.5), ("alpha", 2)], 3),
    ("torch.dot", [("input", "v"), ("tensor", "v")], 2),
    ("torch.pow", [("input", "x"), ("exponent", 2)], 2),
    ("Tensor.add", [("self", "x"), ("other", "y"), "*", ("alpha", 3)], 2),
    ("Tensor.mul", [("self", "x"), ("other", "y")], 2),
    ("Tensor.gather", [("self", "x"), ("dim", 1), ("index", "idx")], 3),
    ("Tensor.broadcast_to", [("self", "v"), ("size", (2, 4))], 2),
    ("Tensor.mean", [("self", "x"), ("dim", 1), ("keepdim", True), "*", ("dtype", "float32")], 1),
    ("Tensor.sum", [("self", "x"), ("dim", 0), ("keepdim", False)], 1),
    ("Tensor.where", [("self", "x"), ("condition", "mask"), ("other", "y")], 3),
    ("Tensor.split", [("self", "x"), ("split_size", 3), ("dim", 1)], 2),
    ("Tensor.add_", [("self", "x"), ("other", "y"), "*", ("alpha", 2)], 2),
    ("Tensor.clamp_", [("self", "x"), ("min", -0.5), ("max", 0.5)], 1),
    ("Tensor.masked_fill_", [("self", "x"), ("mask", "mask"), ("value", 0.5)], 3),
    ("Tensor.scatter_", [("self", "x"), ("dim", 1), ("index", "idx"), ("src", "y")], 4),
    ("Tensor.copy_", [("self", "x"), ("other", "y"), ("non_blocking", False)], 2),
    ("F.linear", [("input", "x"), ("weight", "w"), ("bias", "b")], 2),
    ("F.mse_loss", [("input", "x"), ("target", "y"), ("size_average", None), ("reduce", None),
                    ("reduction", "sum")], 2),
    ("F.softmax", [("input", "x"), ("dim", 0)], 2),
]


def _resolve(mod, path: str, args: dict):
    prefix, name = path.split(".")
    if prefix == "Tensor":
        return getattr(args.pop("self"), name)
    return getattr(mod.nn.functional if prefix == "F" else mod, name)


def _value(mod, v, data):
    if isinstance(v, str) and v in data:
        return mod.tensor(data[v])
    if v in ("float32", "float64"):
        return getattr(mod, v)
    return v


def _plain(result):
    if isinstance(result, (tuple, list)):
        return [_plain(r) for r in result]
    return (str(result.dtype).rsplit(".", 1)[-1], tuple(result.shape), np.asarray(result.detach().numpy()))


def _run(mod, path, params, style: str, required: int):
    data = _data()
    cut = params.index("*") if "*" in params else len(params)
    pos = [(n, _value(mod, v, data)) for n, v in params[:cut]]
    kw = [(n, _value(mod, v, data)) for n, v in params[cut + 1:]]
    if style == "defaults":
        pos, kw = pos[:required], []
    args = dict(pos + kw)
    fn = _resolve(mod, path, args)
    if path.startswith("Tensor"):
        pos = pos[1:]
    if style in ("positional", "defaults"):
        return fn(*[v for _, v in pos], **dict(kw))
    items = [(n, args[n]) for n, _ in pos + kw]
    return fn(**dict(reversed(items) if style == "shuffled" else items))


@pytest.mark.parametrize("style", ["positional", "keyword", "shuffled", "defaults"])
@pytest.mark.parametrize("path,params,required", CALLS, ids=[c[0] for c in CALLS])
def test_call_styles_match_torch(path, params, required, style):
    try:
        want = _plain(_run(torch, path, params, style, required))
    except (TypeError, RuntimeError, ValueError) as e:     # e.g. clamp with neither bound: same error
        with pytest.raises(type(e)):
            _run(ft, path, params, style, required)
        return
    got = _plain(_run(ft, path, params, style, required))
    assert len(got) == len(want) if isinstance(want, list) else True
    for g, w in (zip(got, want) if isinstance(want, list) else [(got, want)]):
        assert g[:2] == w[:2]
        np.testing.assert_allclose(g[2], w[2], rtol=1e-6, atol=1e-12)


def test_call_figures():
    print(f"\ncall checks: {len(CALLS)} functions x 4 styles (positional, keyword, shuffled, defaults)")
    assert len(CALLS) >= 40


# ------------------------------------------------------------------------ out= and unbuilt arguments

def test_out_is_written_where_built():
    a, b = ft.tensor([1.0, 2.0]), ft.tensor([3.0, 4.0])
    out = ft.zeros(2)
    assert ft.add(a, b, alpha=2, out=out) is out
    ra, rb, rout = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), torch.zeros(2)
    torch.add(ra, rb, alpha=2, out=rout)
    assert out.tolist() == rout.tolist()
    z = ft.ones(3)
    assert ft.zeros(size=(3,), out=z) is z and z.tolist() == [0.0, 0.0, 0.0]


def test_out_is_refused_where_not_built():
    x, out = ft.tensor([[1.0, 2.0], [3.0, 4.0]]), ft.zeros(2, 2)
    with pytest.raises(NotImplementedError, match=r"^gather\(\): flowgrad does not support the out= argument"):
        ft.gather(x, 1, ft.tensor([[0, 0], [1, 0]]), out=out)
    assert out.tolist() == [[0.0, 0.0], [0.0, 0.0]]     # left untouched
    with pytest.raises(NotImplementedError, match="out="):
        ft.acos(x, out=out)
    with pytest.raises(NotImplementedError, match=r"^normalize\(\): flowgrad does not support the out= argument"):
        ft.nn.functional.normalize(x, out=out)
    assert out.tolist() == [[0.0, 0.0], [0.0, 0.0]]


def test_unbuilt_argument_is_refused_not_ignored():
    x = ft.tensor([[1.0, 2.0], [3.0, 4.0]])
    msg = r"^gather\(\): flowgrad does not support sparse_grad=True \(only the default, sparse_grad=False\)$"
    with pytest.raises(NotImplementedError, match=msg):
        ft.gather(x, 1, ft.tensor([[0, 0], [1, 0]]), sparse_grad=True)
    assert ft.gather(x, 1, ft.tensor([[0, 0], [1, 0]]), sparse_grad=False).tolist() == [[1.0, 1.0], [4.0, 3.0]]
    with pytest.raises(NotImplementedError, match="layout"):
        ft.zeros(2, layout="sparse")


def test_size_given_twice_is_a_type_error():
    for mod in (ft, torch):
        with pytest.raises(TypeError):
            mod.zeros(2, size=(3,))
        with pytest.raises(TypeError):
            mod.ones(2, 2).view(4, size=(4,))
