"""Random expression graphs for differential fuzzing, framework-neutral.

A `Program` is drawn by Hypothesis as data: a list of steps over a growing pool of tensors. A step
is a leaf (shape, value seed, requires_grad) or an op from `GENERATORS` applied to pool entries with drawn
parameters; shapes are tracked while drawing, so every step is valid by construction (broadcasting
from 0-d to 4-d, matmul, reshape, indexing, ...). The program ends with an engine option (plain
backward, retain_graph twice, `inputs=` subsets, `autograd.grad` with allow_unused, create_graph
with a second-order gradient, hooks that scale gradients, several roots).

`run_torch(T, program, dtype)` interprets a program with any module that speaks the torch API
(flowgrad.torch or real torch) and returns every forward value and every gradient as NumPy arrays
under stable keys, plus the "margins" of the non-smooth points it passed (how far a relu input was
from 0, a maximum's operands from each other, ...); `run_paddle(P, program, dtype)` does the same
with the paddle API for the ops and options in PADDLE_OPS / PADDLE_OPTIONS. `compare` checks two
results with dtype-aware tolerances. Inputs are kept in safe domains by construction
(`log(x*x + 0.5)`, divisors `b*b + 0.5`); examples whose oracle values overflow or sit within
rounding error of a kink are rejected with `assume`, so a difference is a bug, not noise.
"""
from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Callable

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

MAX_NUMEL = 192       # no intermediate bigger than this: keeps examples fast
MAX_NDIM = 4
VALUE_BOUND = 1e4     # oracle forward values beyond this: reject the example (overflow territory)
GRAD_BOUND = 1e7


# ------------------------------------------------------------------------------------ programs

@dataclasses.dataclass(frozen=True)
class Step:
    op: str
    args: tuple = ()
    params: tuple = ()   # sorted (key, value) pairs: hashable, printable

    @property
    def p(self) -> dict:
        return dict(self.params)


@dataclasses.dataclass(frozen=True)
class Program:
    dtype: str                 # "float32" | "float64"
    steps: tuple
    shapes: tuple              # shape of each pool entry
    requires: tuple            # requires_grad of each pool entry (symbolic)
    root: int
    option: str
    option_params: tuple = ()

    @property
    def op(self) -> dict:
        return dict(self.option_params)

    def __repr__(self):  # what Hypothesis prints for a failing example: a readable listing
        lines = [f"Program(dtype={self.dtype}, root=%{self.root}, option={self.option} {self.op})"]
        for i, s in enumerate(self.steps):
            lines.append(f"  %{i} = {s.op}({', '.join('%' + str(a) for a in s.args)}) {s.p}  "
                         f"-> {self.shapes[i]}{' rg' if self.requires[i] else ''}")
        return "\n".join(lines)


class _Builder:
    """Pool bookkeeping while a program is drawn."""

    def __init__(self, draw, paddle_quirks: bool = False):
        self.draw = draw
        self.paddle_quirks = paddle_quirks
        self.steps: list[Step] = []
        self.shapes: list[tuple] = []
        self.requires: list[bool] = []

    def add(self, op: str, args: tuple, params: dict, shape: tuple, requires: bool | None = None) -> int:
        if requires is None:
            requires = any(self.requires[a] for a in args)
        self.steps.append(Step(op, tuple(args), tuple(sorted(params.items()))))
        self.shapes.append(tuple(shape))
        self.requires.append(bool(requires))
        return len(self.steps) - 1

    def leaf(self, shape: tuple, requires: bool | None = None) -> int:
        draw = self.draw
        if requires is None:
            requires = draw(st.booleans())
        seed = draw(st.integers(0, 2**16))
        return self.add("leaf", (), {"seed": seed}, shape, requires)

    def pick(self, pred: Callable[[tuple], bool] = lambda s: True):
        """A pool entry whose shape satisfies `pred`, recent entries first (so chains grow deep)."""
        cands = [i for i in reversed(range(len(self.shapes))) if pred(self.shapes[i])]
        if not cands:
            return None
        return self.draw(st.sampled_from(cands))

    def partner(self, shape: tuple) -> int:
        """A second operand broadcast-compatible with `shape`: a pool entry or a fresh leaf."""
        def ok(s):
            try:
                out = np.broadcast_shapes(shape, s)
            except ValueError:
                return False
            return len(out) <= MAX_NDIM and math.prod(out) <= MAX_NUMEL
        if self.draw(st.booleans()):
            i = self.pick(ok)
            if i is not None:
                return i
        s = self.draw(hnp.broadcastable_shapes(shape, min_dims=0, max_dims=MAX_NDIM, min_side=1, max_side=3))
        return self.leaf(s)


def _bshape(*shapes) -> tuple:
    return tuple(np.broadcast_shapes(*shapes))


def _dims(draw, ndim: int, allow_none=True, allow_tuple=True):
    """A reduction `dim`: None, an int (possibly negative) or a tuple of distinct dims."""
    kinds = (["none"] if allow_none else []) + ["int"] + (["tuple"] if allow_tuple and ndim >= 1 else [])
    kind = draw(st.sampled_from(kinds))
    n = max(ndim, 1)
    if kind == "none":
        return None
    if kind == "int":
        return draw(st.integers(-n, n - 1))
    dims = draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True))
    return tuple(d - ndim if draw(st.booleans()) else d for d in dims)


def _reduced(shape: tuple, dim, keepdim: bool) -> tuple:
    if dim is None:
        dims = set(range(len(shape)))
    else:
        dims = {d % max(len(shape), 1) for d in ((dim,) if isinstance(dim, int) else dim)}
    if not shape:
        return ()
    return tuple((1 if keepdim else None) if i in dims else s for i, s in enumerate(shape) if keepdim or i not in dims)


def _count(shape: tuple, dim) -> int:
    if dim is None:
        return math.prod(shape)
    if not shape:
        return 1
    dims = {d % len(shape) for d in ((dim,) if isinstance(dim, int) else dim)}
    return math.prod(shape[d] for d in dims)


# Each generator gets the builder, appends its step (and any fresh leaves it needs) and returns the
# new index, or None when the op does not apply to what the pool holds.

def _g_unary(name, **fixed):
    def gen(b: _Builder):
        x = b.pick()
        return b.add(name, (x,), dict(fixed), b.shapes[x])
    return gen


def _g_clamp(b: _Builder):
    x = b.pick()
    lo = b.draw(st.sampled_from([-1.5, -1.0, -0.25, 0.0]))
    hi = lo + b.draw(st.sampled_from([0.5, 1.0, 2.0]))
    which = b.draw(st.sampled_from(["both", "min", "max"]))
    return b.add("clamp", (x,), {"lo": lo, "hi": hi, "which": which}, b.shapes[x])


def _g_pow_scalar(b: _Builder):
    x = b.pick()
    e = b.draw(st.sampled_from([2, 3, 2.0, -1.0, 0.5, 1.5, -0.5, 0.0]))
    return b.add("pow_scalar", (x,), {"e": e}, b.shapes[x])


def _g_scalar_binary(b: _Builder):
    x = b.pick()
    kind = b.draw(st.sampled_from(["add", "radd", "sub", "rsub", "mul", "rmul", "div", "rdiv", "rpow"]))
    c = b.draw(st.sampled_from([2.5, -1.5, 0.5, 3.0, -0.75]))
    if kind == "rpow":
        c = abs(c)
    return b.add("scalar_" + kind, (x,), {"c": c}, b.shapes[x])


def _g_binary(name):
    def gen(b: _Builder):
        x = b.pick()
        y = b.partner(b.shapes[x])
        if b.draw(st.booleans()):
            x, y = y, x
        params = {}
        if name in ("add", "sub"):
            params["alpha"] = b.draw(st.sampled_from([None, None, 2.0, -0.5]))
        return b.add(name, (x, y), params, _bshape(b.shapes[x], b.shapes[y]))
    return gen


def _g_where(b: _Builder):
    x = b.pick()
    y = b.partner(b.shapes[x])
    out = _bshape(b.shapes[x], b.shapes[y])
    c = b.partner(out)
    out = _bshape(out, b.shapes[c])
    if len(out) > MAX_NDIM or math.prod(out) > MAX_NUMEL:
        return None
    return b.add("where", (c, x, y), {}, out, b.requires[x] or b.requires[y])


def _g_reduce(name):
    def gen(b: _Builder):
        if name in ("var", "std") and b.paddle_quirks:
            x = b.pick(lambda s: len(s) >= 1)   # real paddle disconnects var/std of a 0-d tensor (grad None)
            if x is None:
                return None
        else:
            x = b.pick()
        shape = b.shapes[x]
        nd = len(shape)
        keepdim = b.draw(st.booleans())
        params = {"keepdim": keepdim}
        if name in ("sum", "mean", "logsumexp", "amax"):
            dim = _dims(b.draw, nd, allow_none=name not in ("logsumexp", "amax"))
        elif name in ("prod", "max", "min"):
            dim = _dims(b.draw, nd, allow_tuple=False)
        elif name in ("var", "std"):
            dim = _dims(b.draw, nd)
            corr = b.draw(st.sampled_from([0, 1]))
            if _count(shape, dim) <= corr:
                corr = 0
            params["correction"] = corr
        elif name == "norm":
            dim = _dims(b.draw, nd)
            params["p"] = b.draw(st.sampled_from([2, 3, 2.0]))
        else:
            raise AssertionError(name)
        if dim is None and name in ("max", "min", "prod"):
            keepdim = params["keepdim"] = False
        params["dim"] = dim
        return b.add(name, (x,), params, _reduced(shape, dim, keepdim))
    return gen


def _g_softmax(name):
    def gen(b: _Builder):
        x = b.pick()
        n = max(len(b.shapes[x]), 1)
        dim = b.draw(st.integers(-n, n - 1))
        return b.add(name, (x,), {"dim": dim}, b.shapes[x])
    return gen


def _g_matmul(b: _Builder):
    x = b.pick(lambda s: len(s) >= 1)
    if x is None:
        return None
    sx = b.shapes[x]
    left = b.draw(st.booleans())     # fresh @ x instead of x @ fresh
    k = sx[0] if (left and len(sx) == 1) else (sx[-2] if left else sx[-1])
    m = b.draw(st.integers(1, 3))
    form = b.draw(st.sampled_from(["vec", "mat", "batched"]))
    if form == "vec":
        sy = (k,)
    elif form == "mat":
        sy = (m, k) if left else (k, m)
    else:
        batch = b.draw(hnp.broadcastable_shapes(sx[:-2], min_dims=1, max_dims=2, min_side=1, max_side=3))
        sy = batch + ((m, k) if left else (k, m))
    y = b.leaf(sy)
    a, c = (y, x) if left else (x, y)
    try:
        out = np.matmul(np.zeros(b.shapes[a]), np.zeros(b.shapes[c])).shape
    except ValueError:
        return None
    if len(out) > MAX_NDIM or math.prod(out) > MAX_NUMEL:
        return None
    return b.add("matmul", (a, c), {}, out)


def _g_reshape(b: _Builder):
    x = b.pick()
    n = math.prod(b.shapes[x])
    k = b.draw(st.integers(0 if n == 1 else 1, MAX_NDIM))
    shape, left = [], n
    for _ in range(max(k - 1, 0)):
        divs = [d for d in range(1, left + 1) if left % d == 0]
        d = b.draw(st.sampled_from(divs))
        shape.append(d)
        left //= d
    if k >= 1:
        shape.append(left)
    spec = list(shape)
    if spec and b.draw(st.booleans()):
        spec[b.draw(st.integers(0, len(spec) - 1))] = -1
    method = b.draw(st.sampled_from(["reshape", "view_flatten"])) if len(b.shapes[x]) >= 1 else "reshape"
    if method == "view_flatten":
        return b.add("flatten", (x,), {}, (n,))
    return b.add("reshape", (x,), {"shape": tuple(spec)}, tuple(shape))


def _g_permute(b: _Builder):
    x = b.pick(lambda s: len(s) >= 1)
    if x is None:
        return None
    perm = tuple(b.draw(st.permutations(range(len(b.shapes[x])))))
    return b.add("permute", (x,), {"perm": perm}, tuple(b.shapes[x][p] for p in perm))


def _g_transpose(b: _Builder):
    x = b.pick(lambda s: len(s) >= 1)
    if x is None:
        return None
    nd = len(b.shapes[x])
    d0, d1 = b.draw(st.integers(-nd, nd - 1)), b.draw(st.integers(-nd, nd - 1))
    s = list(b.shapes[x])
    s[d0], s[d1] = s[d1], s[d0]
    return b.add("transpose", (x,), {"d0": d0, "d1": d1}, tuple(s))


def _g_expand(b: _Builder):
    x = b.pick()
    s = b.shapes[x]
    extra = b.draw(st.lists(st.integers(1, 3), max_size=MAX_NDIM - len(s)))
    spec, shape = list(extra), list(extra)
    for d in s:
        if d == 1:
            new = b.draw(st.integers(1, 3))
            spec.append(new)
            shape.append(new)
        else:
            spec.append(b.draw(st.sampled_from([d, -1])))
            shape.append(d)
    if math.prod(shape) > MAX_NUMEL:
        return None
    return b.add("expand", (x,), {"shape": tuple(spec)}, tuple(shape))


def _g_squeeze(b: _Builder):
    x = b.pick()
    s = b.shapes[x]
    if not s or b.draw(st.booleans()):
        return b.add("squeeze", (x,), {"dim": None}, tuple(d for d in s if d != 1))
    dim = b.draw(st.integers(-len(s), len(s) - 1))
    out = list(s)
    if s[dim] == 1:
        del out[dim]
    return b.add("squeeze", (x,), {"dim": dim}, tuple(out))


def _g_unsqueeze(b: _Builder):
    x = b.pick(lambda s: len(s) < MAX_NDIM)
    if x is None:
        return None
    s = b.shapes[x]
    dim = b.draw(st.integers(-len(s) - 1, len(s)))
    out = list(s)
    out.insert(dim % (len(s) + 1), 1)
    return b.add("unsqueeze", (x,), {"dim": dim}, tuple(out))


def _g_cat(b: _Builder):
    x = b.pick(lambda s: len(s) >= 1)
    if x is None:
        return None
    s = b.shapes[x]
    dim = b.draw(st.integers(-len(s), len(s) - 1))
    parts = [x]
    for _ in range(b.draw(st.integers(1, 2))):
        if b.draw(st.booleans()):
            parts.append(x)           # the same tensor twice: its gradient adds up
        else:
            t = list(s)
            t[dim] = b.draw(st.integers(1, 3))
            parts.append(b.leaf(tuple(t)))
    parts = [parts[i] for i in b.draw(st.permutations(range(len(parts))))]
    out = list(s)
    out[dim] = sum(b.shapes[p][dim] for p in parts)
    if math.prod(out) > MAX_NUMEL:
        return None
    return b.add("cat", tuple(parts), {"dim": dim}, tuple(out))


def _g_stack(b: _Builder):
    x = b.pick(lambda s: len(s) < MAX_NDIM)
    if x is None:
        return None
    s = b.shapes[x]
    dim = b.draw(st.integers(-len(s) - 1, len(s)))
    parts = [x]
    for _ in range(b.draw(st.integers(1, 2))):
        same = b.pick(lambda t: t == s) if b.draw(st.booleans()) else None
        parts.append(same if same is not None else b.leaf(s))
    out = list(s)
    out.insert(dim % (len(s) + 1), len(parts))
    if math.prod(out) > MAX_NUMEL:
        return None
    return b.add("stack", tuple(parts), {"dim": dim}, tuple(out))


def _g_getitem(b: _Builder):
    x = b.pick(lambda s: len(s) >= 1)
    if x is None:
        return None
    s = b.shapes[x]
    draw = b.draw
    idx: list = []
    advanced_used = False
    for d in s:
        kind = draw(st.sampled_from(["all", "int", "slice", "list"] if not advanced_used else ["all", "int", "slice"]))
        if kind == "int":
            idx.append(("int", draw(st.integers(-d, d - 1))))
        elif kind == "slice":
            start = draw(st.one_of(st.none(), st.integers(-d, d - 1)))
            stop = draw(st.one_of(st.none(), st.integers(-d, d)))
            step = draw(st.sampled_from([None, 1, 2]))
            idx.append(("slice", (start, stop, step)))
        elif kind == "list":
            advanced_used = True
            idx.append(("list", tuple(draw(st.lists(st.integers(-d, d - 1), min_size=1, max_size=4)))))
        else:
            idx.append(("slice", (None, None, None)))
    if advanced_used:   # NumPy and torch order the result dims differently for int + list: keep them apart
        idx = [("slice", (None, None, None)) if k == "int" else (k, v) for k, v in idx]
    cut = draw(st.integers(0, len(idx)))
    idx = idx[:cut]                       # trailing dims implicit
    if draw(st.booleans()) and len(s) < MAX_NDIM:
        idx.insert(draw(st.integers(0, len(idx))), ("none", None))
    if draw(st.booleans()) and idx:
        idx.insert(draw(st.integers(0, len(idx))), ("ellipsis", None))
    index = tuple(idx)
    try:
        out = np.zeros(s)[_np_index(index)].shape
    except IndexError:
        return None
    if math.prod(out) == 0 or len(out) > MAX_NDIM:
        return None
    return b.add("getitem", (x,), {"index": index}, out)


def _np_index(index: tuple):
    """The indexing key for a drawn index description (torch and NumPy agree on these forms)."""
    key = []
    for kind, v in index:
        if kind == "int":
            key.append(v)
        elif kind == "slice":
            key.append(slice(*v))
        elif kind == "list":
            key.append(list(v))
        elif kind == "none":
            key.append(None)
        else:
            key.append(Ellipsis)
    return tuple(key)


def _g_split(b: _Builder):
    """One or two outputs of a multi-output op (split / chunk / unbind): the others stay unused."""
    x = b.pick(lambda s: len(s) >= 1)
    if x is None:
        return None
    s = b.shapes[x]
    nd = len(s)
    dim = b.draw(st.integers(-nd, nd - 1))
    size = s[dim]
    kind = b.draw(st.sampled_from(["split", "chunk", "unbind"]))
    if kind == "unbind":
        pieces = [tuple(d for i, d in enumerate(s) if i != dim % nd)] * size
        k = b.draw(st.integers(0, size - 1))
        return b.add("unbind", (x,), {"dim": dim, "k": k}, pieces[k])
    n = b.draw(st.integers(1, max(size, 1)))
    if kind == "split":
        lens = [min(n, size - i) for i in range(0, size, n)]
    else:
        per = -(-size // n)
        lens = [min(per, size - i) for i in range(0, size, per)]
    k = b.draw(st.integers(0, len(lens) - 1))
    out = list(s)
    out[dim] = lens[k]
    return b.add(kind, (x,), {"dim": dim, "n": n, "k": k}, tuple(out))


def _g_cumsum(b: _Builder):
    x = b.pick()
    n = max(len(b.shapes[x]), 1)
    return b.add("cumsum", (x,), {"dim": b.draw(st.integers(-n, n - 1))}, b.shapes[x])


def _g_flip(b: _Builder):
    x = b.pick(lambda s: len(s) >= 1)
    if x is None:
        return None
    nd = len(b.shapes[x])
    dims = tuple(b.draw(st.lists(st.integers(-nd, nd - 1), min_size=1, max_size=nd, unique_by=lambda d: d % nd)))
    return b.add("flip", (x,), {"dims": dims}, b.shapes[x])


def _g_repeat(b: _Builder):
    x = b.pick()
    s = b.shapes[x]
    reps = tuple(b.draw(st.lists(st.integers(1, 2), min_size=len(s), max_size=min(len(s) + 1, MAX_NDIM))))
    if len(reps) < len(s) or not reps:
        return None
    padded = (1,) * (len(reps) - len(s)) + tuple(s)
    out = tuple(p * r for p, r in zip(padded, reps))
    if math.prod(out) > MAX_NUMEL:
        return None
    return b.add("repeat", (x,), {"reps": reps}, out)


def _g_narrow(b: _Builder):
    x = b.pick(lambda s: len(s) >= 1)
    if x is None:
        return None
    s = b.shapes[x]
    dim = b.draw(st.integers(-len(s), len(s) - 1))
    start = b.draw(st.integers(0, s[dim] - 1))
    length = b.draw(st.integers(1, s[dim] - start))
    out = list(s)
    out[dim] = length
    return b.add("narrow", (x,), {"dim": dim, "start": start, "length": length}, tuple(out))


def _g_index_select(b: _Builder):
    x = b.pick(lambda s: len(s) >= 1)
    if x is None:
        return None
    s = b.shapes[x]
    dim = b.draw(st.integers(-len(s), len(s) - 1))
    idx = tuple(b.draw(st.lists(st.integers(0, s[dim] - 1), min_size=1, max_size=4)))
    out = list(s)
    out[dim] = len(idx)
    return b.add("index_select", (x,), {"dim": dim, "index": idx}, tuple(out))


def _g_masked_fill(b: _Builder):
    x = b.pick()
    c = b.partner(b.shapes[x])
    if _bshape(b.shapes[x], b.shapes[c]) != b.shapes[x]:
        return None                     # masked_fill does not broadcast its input
    v = b.draw(st.sampled_from([0.0, -1.5, 2.0]))
    return b.add("masked_fill", (x, c), {"value": v}, b.shapes[x], b.requires[x])


def _g_tril(b: _Builder):
    x = b.pick(lambda s: len(s) >= 2)
    if x is None:
        return None
    return b.add(b.draw(st.sampled_from(["tril", "triu"])), (x,), {"k": b.draw(st.integers(-1, 1))}, b.shapes[x])


def _g_atan2(b: _Builder):
    x = b.pick()
    y = b.partner(b.shapes[x])
    return b.add("atan2", (x, y), {}, _bshape(b.shapes[x], b.shapes[y]))


GENERATORS: dict[str, Callable] = {
    "neg": _g_unary("neg"), "exp": _g_unary("exp"), "log": _g_unary("log"), "sin": _g_unary("sin"),
    "cos": _g_unary("cos"), "tanh": _g_unary("tanh"), "sigmoid": _g_unary("sigmoid"), "relu": _g_unary("relu"),
    "abs": _g_unary("abs"), "sqrt": _g_unary("sqrt"), "clamp": _g_clamp, "pow_scalar": _g_pow_scalar,
    "scalar_binary": _g_scalar_binary,
    "add": _g_binary("add"), "sub": _g_binary("sub"), "mul": _g_binary("mul"), "div": _g_binary("div"),
    "maximum": _g_binary("maximum"), "minimum": _g_binary("minimum"), "pow_tensor": _g_binary("pow_tensor"),
    "where": _g_where,
    "sum": _g_reduce("sum"), "mean": _g_reduce("mean"), "prod": _g_reduce("prod"), "max": _g_reduce("max"),
    "min": _g_reduce("min"), "var": _g_reduce("var"), "std": _g_reduce("std"), "norm": _g_reduce("norm"),
    "logsumexp": _g_reduce("logsumexp"), "softmax": _g_softmax("softmax"), "log_softmax": _g_softmax("log_softmax"),
    "matmul": _g_matmul, "reshape": _g_reshape, "permute": _g_permute, "transpose": _g_transpose,
    "expand": _g_expand, "squeeze": _g_squeeze, "unsqueeze": _g_unsqueeze, "cat": _g_cat, "stack": _g_stack,
    "getitem": _g_getitem,
    # beyond the issue's list: multi-output nodes, scans, index ops, more elementwise
    "split": _g_split, "cumsum": _g_cumsum, "flip": _g_flip, "repeat": _g_repeat, "narrow": _g_narrow,
    "index_select": _g_index_select, "masked_fill": _g_masked_fill, "tril": _g_tril, "atan2": _g_atan2,
    "amax": _g_reduce("amax"), "erf": _g_unary("erf"), "log1p": _g_unary("log1p"), "expm1": _g_unary("expm1"),
}
ALL_OPS = tuple(GENERATORS)

OPTIONS = ("plain", "retain_twice", "inputs", "grad_unused", "create_graph", "backward_create_graph", "hooks",
           "multi_root")


# Shape ops that real paddle may answer with an alias of their input (same autograd identity) when
# they change nothing: skipped for paddle when the shape is unchanged.
_PADDLE_ALIAS_PRONE = {"reshape", "getitem", "narrow", "expand", "squeeze", "permute", "transpose", "repeat", "cat",
                       "stack", "index_select", "flip"}


@st.composite
def programs(draw, ops=ALL_OPS, options=OPTIONS, max_ops=7, dtypes=("float32", "float64"), paddle_quirks=False):
    """A random program: leaves of mutually broadcastable shapes (0-d to 4-d), 1..max_ops ops drawn
    from `ops`, and an engine option from `options`. `paddle_quirks` steers clear of two places
    where real paddle 3.3.1 itself is inconsistent (see the paddle test module)."""
    b = _Builder(draw, paddle_quirks)
    dtype = draw(st.sampled_from(dtypes))
    n = draw(st.integers(1, 3))
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=n, min_dims=0, max_dims=MAX_NDIM, min_side=1,
                                                    max_side=3)).input_shapes
    for i, s in enumerate(shapes):
        b.leaf(s, True if i == 0 else None)
    for _ in range(draw(st.integers(1, max_ops))):
        name = draw(st.sampled_from(ops))
        before = len(b.steps)
        made = GENERATORS[name](b)
        if made is not None and paddle_quirks and name in _PADDLE_ALIAS_PRONE:
            if b.shapes[made] == b.shapes[b.steps[made].args[0]]:
                made = None
        if made is None:
            del b.steps[before:], b.shapes[before:], b.requires[before:]
    rg = [i for i, r in enumerate(b.requires) if r]
    root = rg[-1]
    option = draw(st.sampled_from(options))
    params: dict = {"seed": draw(st.integers(0, 2**16))}
    if option in ("inputs", "grad_unused", "create_graph"):
        # real paddle returns None for every other input when the output itself is among the inputs
        cands = [i for i in rg if i != root] if paddle_quirks else rg
        if not cands:
            option = "plain"
        else:
            params["inputs"] = tuple(draw(st.lists(st.sampled_from(cands), min_size=1, max_size=4, unique=True)))
    if option == "hooks":
        params["hooks"] = tuple(draw(st.lists(st.tuples(st.sampled_from(rg), st.sampled_from([2.0, -0.5, 3.0])),
                                              min_size=1, max_size=4)))
        params["retain"] = tuple(draw(st.lists(st.sampled_from(rg), max_size=3, unique=True)))
    if option == "multi_root":
        params["other"] = draw(st.sampled_from(rg))
    return Program(dtype, tuple(b.steps), tuple(b.shapes), tuple(b.requires), root, option,
                   tuple(sorted(params.items())))


# ------------------------------------------------------------------------------------ values

def leaf_values(seed: int, shape: tuple, dtype: str) -> np.ndarray:
    """The values of a leaf: uniform in [-2, 2], rounded to `dtype` (float64 runs of a float32
    program see exactly the float32 numbers)."""
    a = np.random.default_rng(seed).uniform(-2.0, 2.0, size=shape)
    return np.asarray(a.astype(dtype))


# ------------------------------------------------------------------------------------ torch interpreter

def _np(t) -> np.ndarray:
    t = t.detach().cpu()
    try:
        a = t.numpy()
    except RuntimeError:       # real torch's ZeroTensor (an efficient zero second derivative)
        a = t.numpy(force=True)
    return np.array(a, dtype=np.float64, copy=True)


def _margin_elementwise(values: np.ndarray, kinks, note) -> None:
    d = np.min(np.abs(np.subtract.outer(values, np.asarray(kinks, dtype=np.float64))), axis=-1) \
        if np.ndim(kinks) else np.abs(values - kinks)
    note(d, np.abs(values))


def _margin_extremum(values: np.ndarray, dim, note) -> None:
    """Distance of each extreme value to the nearest *different* value along the reduced dim (exact
    ties are deterministic and allowed; near ties are rounding-dependent)."""
    if dim is None or values.ndim == 0:
        rows = values.reshape(1, -1)
    else:
        dims = [d % values.ndim for d in ((dim,) if isinstance(dim, int) else dim)]
        moved = np.moveaxis(values, dims, list(range(-len(dims), 0)))
        rows = moved.reshape(-1, math.prod(values.shape[d] for d in dims))
    for row in rows:
        for ext in (row.max(), row.min()):
            others = np.abs(row[row != ext] - ext)
            if others.size:
                note(others.min(), abs(ext))


def _pos(x, c=0.5):
    return x * x + c


def _run_step(T, step: Step, xs: list, note):
    p = step.p
    op = step.op
    x = xs[0] if xs else None
    if op == "neg":
        return -x
    if op == "exp":
        return T.exp(x)
    if op == "log":
        return T.log(_pos(x))
    if op == "sin":
        return T.sin(x)
    if op == "cos":
        return x.cos()
    if op == "tanh":
        return T.tanh(x)
    if op == "sigmoid":
        return T.sigmoid(x)
    if op == "relu":
        if note:
            _margin_elementwise(_np(x), 0.0, note)
        return T.relu(x)
    if op == "abs":
        if note:
            _margin_elementwise(_np(x), 0.0, note)
        return x.abs()
    if op == "sqrt":
        return T.sqrt(_pos(x, 0.25))
    if op == "clamp":
        lo, hi, which = p["lo"], p["hi"], p["which"]
        if note:
            _margin_elementwise(_np(x), [lo, hi] if which == "both" else (lo if which == "min" else hi), note)
        if which == "both":
            return T.clamp(x, lo, hi)
        return T.clamp(x, min=lo) if which == "min" else x.clamp(max=hi)
    if op == "pow_scalar":
        e = p["e"]
        base = x if (isinstance(e, int) and e > 0) else _pos(x)
        return base ** e
    if op.startswith("scalar_"):
        c, kind = p["c"], op[7:]
        return {"add": lambda: x + c, "radd": lambda: c + x, "sub": lambda: x - c, "rsub": lambda: c - x,
                "mul": lambda: x * c, "rmul": lambda: c * x, "div": lambda: x / c, "rdiv": lambda: c / _pos(x),
                "rpow": lambda: c ** x}[kind]()
    if op in ("add", "sub", "mul", "div", "maximum", "minimum", "pow_tensor"):
        a, b = xs
        if op in ("add", "sub"):
            alpha = p.get("alpha")
            if alpha is None:
                return a + b if op == "add" else a - b
            return T.add(a, b, alpha=alpha) if op == "add" else T.sub(a, b, alpha=alpha)
        if op == "mul":
            return a * b
        if op == "div":
            return a / _pos(b)
        if op == "pow_tensor":
            return _pos(a) ** T.tanh(b)
        if note:
            note(*np.broadcast_arrays(np.abs(_np(a) - _np(b)), np.maximum(np.abs(_np(a)), np.abs(_np(b)))))
        return T.maximum(a, b) if op == "maximum" else T.minimum(a, b)
    if op == "where":
        c, a, b = xs
        if note:
            _margin_elementwise(_np(c), 0.0, note)
        return T.where(c > 0, a, b)
    if op in ("sum", "mean", "logsumexp"):
        dim, keepdim = p["dim"], p["keepdim"]
        if op == "logsumexp":
            return T.logsumexp(x, dim=dim, keepdim=keepdim)
        fn = T.sum if op == "sum" else T.mean
        return fn(x) if dim is None and not keepdim else fn(x, dim=dim, keepdim=keepdim)
    if op == "prod":
        dim, keepdim = p["dim"], p["keepdim"]
        return T.prod(x) if dim is None else T.prod(x, dim, keepdim=keepdim)
    if op in ("max", "min"):
        dim, keepdim = p["dim"], p["keepdim"]
        if note:
            _margin_extremum(_np(x), dim, note)
        fn = T.max if op == "max" else T.min
        return fn(x) if dim is None else fn(x, dim, keepdim=keepdim).values
    if op in ("var", "std"):
        out = (T.var if op == "var" else T.std)(x, dim=p["dim"], correction=p["correction"], keepdim=p["keepdim"])
        if note and op == "std":
            v = _np(out)
            note(v, np.ones_like(v))
        return out
    if op == "norm":
        out = T.norm(x, p=p["p"], dim=p["dim"], keepdim=p["keepdim"])
        if note:
            v = _np(out)
            note(v, np.ones_like(v))
        return out
    if op == "softmax":
        return T.softmax(x, dim=p["dim"])
    if op == "log_softmax":
        return x.log_softmax(p["dim"])
    if op == "matmul":
        a, b = xs
        return a @ b if len(b.shape) != 1 else T.matmul(a, b)
    if op == "reshape":
        return x.reshape(p["shape"]) if p["shape"] else T.reshape(x, ())
    if op == "flatten":
        return T.flatten(x)
    if op == "permute":
        return x.permute(*p["perm"])
    if op == "transpose":
        return T.transpose(x, p["d0"], p["d1"])
    if op == "expand":
        return x.expand(*p["shape"]) if p["shape"] else x.expand(())
    if op == "squeeze":
        return T.squeeze(x) if p["dim"] is None else x.squeeze(p["dim"])
    if op == "unsqueeze":
        return T.unsqueeze(x, p["dim"])
    if op == "cat":
        return T.cat(list(xs), dim=p["dim"])
    if op == "stack":
        return T.stack(list(xs), dim=p["dim"])
    if op == "getitem":
        return x[_np_index(p["index"])]
    if op in ("split", "chunk", "unbind"):
        if op == "unbind":
            return T.unbind(x, p["dim"])[p["k"]]
        fn = T.split if op == "split" else T.chunk
        return fn(x, p["n"], p["dim"])[p["k"]]
    if op == "cumsum":
        return T.cumsum(x, p["dim"])
    if op == "flip":
        return T.flip(x, p["dims"])
    if op == "repeat":
        return x.repeat(*p["reps"])
    if op == "narrow":
        return T.narrow(x, p["dim"], p["start"], p["length"])
    if op == "index_select":
        return T.index_select(x, p["dim"], T.tensor(list(p["index"]), dtype=T.int64))
    if op == "masked_fill":
        c = xs[1]
        if note:
            _margin_elementwise(_np(c), 0.0, note)
        return x.masked_fill(c > 0, p["value"])
    if op in ("tril", "triu"):
        return getattr(T, op)(x, p["k"])
    if op == "atan2":
        a, c = xs
        if note:   # the branch cut at c < 0, a = 0 and the singularity at the origin
            av, cv = np.broadcast_arrays(_np(a), _np(c))
            note(np.where(cv < 0, np.abs(av), np.hypot(av, cv)), np.abs(cv))
        return T.atan2(a, c)
    if op == "amax":
        if note:
            _margin_extremum(_np(x), p["dim"], note)
        return T.amax(x, p["dim"], keepdim=p["keepdim"])
    if op == "erf":
        return T.erf(x)
    if op == "log1p":
        return T.log1p(x * x)
    if op == "expm1":
        return T.expm1(x)
    raise AssertionError(f"unknown op {op}")


@dataclasses.dataclass
class Result:
    values: dict          # key -> np.ndarray | None | str (dtype names, error names)
    margins: list         # (margin, scale) arrays from the non-smooth points passed


def build(T, prog: Program, dtype: str, note=None) -> list:
    """Run the forward steps; returns the pool of tensors."""
    tdt = getattr(T, dtype)
    pool: list = []
    for step, shape, rg in zip(prog.steps, prog.shapes, prog.requires):
        if step.op == "leaf":
            t = T.tensor(leaf_values(step.p["seed"], shape, prog.dtype), dtype=tdt, requires_grad=rg)
        else:
            t = _run_step(T, step, [pool[a] for a in step.args], note)
        pool.append(t)
    return pool


def _rand_like(seed: int, k: int, shape, dtype: str) -> np.ndarray:
    return leaf_values(seed * 7919 + k, tuple(shape), dtype)


def run_torch(T, prog: Program, dtype: str | None = None, margins: bool = False) -> Result:
    """Interpret `prog` with the torch-API module `T` in `dtype` (default: the program's)."""
    dtype = dtype or prog.dtype
    tdt = getattr(T, dtype)
    ms: list = []
    note = (lambda m, s: ms.append((np.asarray(m, dtype=np.float64), np.asarray(s, dtype=np.float64)))) \
        if margins else None
    out: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pool = build(T, prog, dtype, note)
        for i, t in enumerate(pool):
            out[f"value %{i}"] = _np(t)
            out[f"dtype %{i}"] = str(t.dtype).rsplit(".", 1)[-1]
            out[f"requires_grad %{i}"] = bool(t.requires_grad)
        _run_option(T, prog, pool, tdt, dtype, out)
    return Result(out, ms)


def _leaf_grads(prog: Program, pool: list, out: dict, tag: str = "grad") -> None:
    for i, step in enumerate(prog.steps):
        if step.op == "leaf" and prog.requires[i]:
            g = pool[i].grad
            out[f"{tag} %{i}"] = None if g is None else _np(g)


def _run_option(T, prog: Program, pool: list, tdt, dtype: str, out: dict) -> None:
    o = prog.op
    seed = o["seed"]
    root = pool[prog.root]

    def seed_for(t, k=0):
        return T.tensor(_rand_like(seed, k, t.shape, dtype), dtype=tdt)

    g0 = seed_for(root)
    if prog.option == "plain":
        root.backward(g0)
        _leaf_grads(prog, pool, out)
    elif prog.option == "retain_twice":
        root.backward(g0, retain_graph=True)
        _leaf_grads(prog, pool, out, "grad after first")
        root.backward(g0)
        _leaf_grads(prog, pool, out)
    elif prog.option == "multi_root":
        other = pool[o["other"]]
        T.autograd.backward([root, other], [g0, seed_for(other, 1)])
        _leaf_grads(prog, pool, out)
    elif prog.option == "inputs":
        ins = [pool[i] for i in o["inputs"]]
        T.autograd.backward(root, g0, inputs=ins)
        _leaf_grads(prog, pool, out)
        for i, t in zip(o["inputs"], ins):
            out[f"inputs grad %{i}"] = None if t.grad is None else _np(t.grad)
    elif prog.option == "grad_unused":
        unused = T.ones(2, dtype=tdt, requires_grad=True)
        ins = [pool[i] for i in o["inputs"]] + [unused]
        gs = T.autograd.grad([root], ins, [g0], allow_unused=True)
        for k, g in enumerate(gs):
            out[f"autograd.grad[{k}]"] = None if g is None else _np(g)
        _leaf_grads(prog, pool, out)          # autograd.grad leaves every .grad alone
    elif prog.option == "create_graph":
        ins = [pool[i] for i in o["inputs"]]
        gs = T.autograd.grad([root], ins, [g0], create_graph=True, allow_unused=True)
        terms = []
        for k, g in enumerate(gs):
            out[f"first order[{k}]"] = None if g is None else _np(g)
            if g is not None and g.requires_grad:
                terms.append((g * seed_for(g, 10 + k)).sum())
        # Second order w.r.t. the leaves only: w.r.t. a non-leaf it depends on which saved values
        # (an op's own result, say) each framework's backward formulas happen to use.
        leaves = [x for x in ins if x.is_leaf]
        hs = [None] * len(leaves)
        if terms and leaves:
            s = terms[0]
            for t in terms[1:]:
                s = s + t
            hs = T.autograd.grad([s], leaves, allow_unused=True)
        for k, (h, x) in enumerate(zip(hs, leaves)):        # None and zeros are the same second derivative
            out[f"second order[{k}]"] = np.zeros(tuple(x.shape)) if h is None else _np(h)
    elif prog.option == "backward_create_graph":
        root.backward(g0, create_graph=True)
        _leaf_grads(prog, pool, out, "first order")
        terms = []
        for i, step in enumerate(prog.steps):
            if step.op == "leaf" and prog.requires[i]:
                g = pool[i].grad
                if g is not None and g.requires_grad:
                    terms.append((g * seed_for(g, 20 + i)).sum())
        if terms:
            s = terms[0]
            for t in terms[1:]:
                s = s + t
            s.backward()
        _leaf_grads(prog, pool, out)
        for t in pool:
            if t.is_leaf:
                t.grad = None            # break the parameter <-> gradient cycle
    elif prog.option == "hooks":
        for i, c in o["hooks"]:
            pool[i].register_hook(lambda g, c=c: g * c)
        for i in o["retain"]:
            pool[i].retain_grad()
        root.backward(g0)
        _leaf_grads(prog, pool, out)
        for i in o["retain"]:
            g = pool[i].grad
            out[f"retained grad %{i}"] = None if g is None else _np(g)
    else:
        raise AssertionError(prog.option)


# ------------------------------------------------------------------------------------ comparison

TOL = {"float64": dict(rtol=1e-7, atol=1e-9), "float32": dict(rtol=2e-4, atol=2e-5)}
MARGIN = {"float64": 1e-6, "float32": 2e-3}


def admissible(oracle: Result, dtype: str) -> None:
    """Reject (Hypothesis `assume`) examples the float64 oracle says are numerically unsafe: values
    overflowing, gradients non-finite, or a non-smooth point closer than rounding error."""
    for k, v in oracle.values.items():
        if isinstance(v, np.ndarray):
            bound = VALUE_BOUND if k.startswith("value") else GRAD_BOUND
            assume(np.all(np.isfinite(v)) and (v.size == 0 or np.max(np.abs(v)) < bound))
    thr = MARGIN[dtype]
    for m, s in oracle.margins:
        near = (m > 0) & (m < thr * (1.0 + s))
        assume(not np.any(near))


def compare(got: Result, ref: Result, ref64: Result | None, dtype: str, what: str = "flowgrad") -> None:
    """Every key of `ref` must be in `got` with the same None-ness, dtype, shape and close values.
    A float32 value also passes when its distance to the float64 oracle is at most 10x the
    reference framework's own float32 error (both frameworks round differently)."""
    tol = TOL[dtype]
    problems = []
    assert set(got.values) == set(ref.values), (sorted(set(ref.values) ^ set(got.values)))
    for k, r in ref.values.items():
        g = got.values[k]
        if not isinstance(r, np.ndarray) or not isinstance(g, np.ndarray):
            if (r is None) != (g is None) or (not isinstance(r, np.ndarray) and r != g):
                problems.append(f"{k}: {what} {_short(g)} vs reference {_short(r)}")
            continue
        if g.shape != r.shape:
            problems.append(f"{k}: shape {g.shape} vs reference {r.shape}")
            continue
        scale = max(1.0, float(np.max(np.abs(r)))) if r.size else 1.0
        ok = np.isclose(g, r, rtol=tol["rtol"], atol=tol["atol"] * scale, equal_nan=True)
        if not ok.all() and ref64 is not None and k in ref64.values:
            r64 = ref64.values[k]
            ok |= np.abs(g - r64) <= 10 * np.abs(r - r64) + tol["atol"] * scale
        if not ok.all():
            bad = np.argwhere(~ok)[:3]
            problems.append(f"{k}: max |diff| {np.max(np.abs(g - r)):.3g} at {bad.tolist()}; {what} "
                            f"{_short(g)} vs reference {_short(r)}")
    assert not problems, "\n".join(problems)


def _short(v) -> str:
    if isinstance(v, np.ndarray):
        s = np.array2string(v.ravel()[:6], precision=6)
        return s + (" ..." if v.size > 6 else "")
    return repr(v)


# ------------------------------------------------------------------------------------ paddle interpreter

PADDLE_OPS = ("neg", "exp", "log", "sin", "cos", "tanh", "abs", "sqrt", "clamp", "pow_scalar", "scalar_binary",
              "add", "sub", "mul", "div", "maximum", "minimum", "pow_tensor", "where", "sum", "mean", "prod", "max",
              "min", "var", "std", "logsumexp", "amax", "matmul", "reshape", "permute", "transpose", "expand",
              "squeeze", "unsqueeze", "cat", "stack", "getitem", "cumsum", "flip", "repeat", "narrow",
              "index_select", "tril", "erf", "log1p", "expm1")
PADDLE_OPTIONS = ("plain", "retain_twice", "grad_unused", "create_graph", "hooks", "multi_root")


def _np_paddle(t) -> np.ndarray:
    return np.array(t.detach().numpy(), dtype=np.float64, copy=True)


def _axis(dim):
    return list(dim) if isinstance(dim, tuple) else dim


def _run_step_paddle(P, step: Step, xs: list, note):
    p = step.p
    op = step.op
    x = xs[0] if xs else None
    simple = {"exp": P.exp, "sin": P.sin, "cos": P.cos, "tanh": P.tanh, "erf": P.erf, "expm1": P.expm1}
    if op in simple:
        return simple[op](x)
    if op == "neg":
        return -x
    if op == "log":
        return P.log(_pos(x))
    if op == "log1p":
        return P.log1p(x * x)
    if op == "sqrt":
        return P.sqrt(_pos(x, 0.25))
    if op == "abs":
        if note:
            _margin_elementwise(_np_paddle(x), 0.0, note)
        return P.abs(x)
    if op == "clamp":
        lo, hi, which = p["lo"], p["hi"], p["which"]
        if note:
            _margin_elementwise(_np_paddle(x), [lo, hi] if which == "both" else (lo if which == "min" else hi), note)
        if which == "both":
            return P.clip(x, lo, hi)
        return P.clip(x, min=lo) if which == "min" else P.clip(x, max=hi)
    if op == "pow_scalar":
        e = p["e"]
        base = x if (isinstance(e, int) and e > 0) else _pos(x)
        return base ** e
    if op.startswith("scalar_"):
        c, kind = p["c"], op[7:]
        return {"add": lambda: x + c, "radd": lambda: c + x, "sub": lambda: x - c, "rsub": lambda: c - x,
                "mul": lambda: x * c, "rmul": lambda: c * x, "div": lambda: x / c, "rdiv": lambda: c / _pos(x),
                "rpow": lambda: P.pow(P.full([], c, dtype=x.dtype), x)}[kind]()
    if op in ("add", "sub", "mul", "div", "maximum", "minimum", "pow_tensor"):
        a, b = xs
        if op in ("add", "sub"):
            alpha = p.get("alpha")
            bb = b if alpha is None else b * alpha
            return P.add(a, bb) if op == "add" else P.subtract(a, bb)
        if op == "mul":
            return P.multiply(a, b)
        if op == "div":
            return P.divide(a, _pos(b))
        if op == "pow_tensor":
            return P.pow(_pos(a), P.tanh(b))
        if note:
            av, bv = _np_paddle(a), _np_paddle(b)
            note(*np.broadcast_arrays(np.abs(av - bv), np.maximum(np.abs(av), np.abs(bv))))
        return P.maximum(a, b) if op == "maximum" else P.minimum(a, b)
    if op == "where":
        c, a, b = xs
        if note:
            _margin_elementwise(_np_paddle(c), 0.0, note)
        return P.where(c > 0, a, b)
    if op in ("sum", "mean", "logsumexp", "amax", "prod", "max", "min"):
        dim, keepdim = _axis(p["dim"]), p["keepdim"]
        if note and op in ("max", "min", "amax"):
            _margin_extremum(_np_paddle(x), p["dim"], note)
        fn = {"sum": P.sum, "mean": P.mean, "logsumexp": P.logsumexp, "amax": P.amax, "prod": P.prod, "max": P.max,
              "min": P.min}[op]
        return fn(x, axis=dim, keepdim=keepdim)
    if op in ("var", "std"):
        out = (P.var if op == "var" else P.std)(x, axis=_axis(p["dim"]), unbiased=bool(p["correction"]),
                                                keepdim=p["keepdim"])
        if note and op == "std":
            v = _np_paddle(out)
            note(v, np.ones_like(v))
        return out
    if op == "matmul":
        return P.matmul(*xs)
    if op == "reshape":
        return P.reshape(x, list(p["shape"]))
    if op == "flatten":
        return P.flatten(x)
    if op == "permute":
        return P.transpose(x, list(p["perm"]))
    if op == "transpose":
        perm = list(range(len(x.shape)))
        d0, d1 = p["d0"] % len(perm), p["d1"] % len(perm)
        perm[d0], perm[d1] = perm[d1], perm[d0]
        return P.transpose(x, perm)
    if op == "expand":
        return P.expand(x, list(p["shape"]))
    if op == "squeeze":
        return P.squeeze(x) if p["dim"] is None else P.squeeze(x, axis=p["dim"])
    if op == "unsqueeze":
        return P.unsqueeze(x, p["dim"])
    if op == "cat":
        return P.concat(list(xs), axis=p["dim"])
    if op == "stack":
        return P.stack(list(xs), axis=p["dim"])
    if op == "getitem":
        return x[_np_index(p["index"])]
    if op == "cumsum":
        return P.cumsum(x, axis=p["dim"])
    if op == "flip":
        return P.flip(x, axis=list(p["dims"]))
    if op == "repeat":
        return P.tile(x, list(p["reps"]))
    if op == "narrow":
        key = [slice(None)] * len(x.shape)
        key[p["dim"]] = slice(p["start"], p["start"] + p["length"])
        return x[tuple(key)]
    if op == "index_select":
        return P.index_select(x, P.to_tensor(list(p["index"]), dtype="int64"), axis=p["dim"])
    if op in ("tril", "triu"):
        return getattr(P, op)(x, p["k"])
    raise AssertionError(f"op {op} has no paddle form here")


def run_paddle(P, prog: Program, dtype: str | None = None, margins: bool = False) -> Result:
    """Interpret `prog` with the paddle-API module `P` (flowgrad.paddle or real paddle)."""
    dtype = dtype or prog.dtype
    ms: list = []
    note = (lambda m, s: ms.append((np.asarray(m, dtype=np.float64), np.asarray(s, dtype=np.float64)))) \
        if margins else None
    out: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pool: list = []
        for step, shape, rg in zip(prog.steps, prog.shapes, prog.requires):
            if step.op == "leaf":
                t = P.to_tensor(leaf_values(step.p["seed"], shape, prog.dtype), dtype=dtype, stop_gradient=not rg)
            else:
                t = _run_step_paddle(P, step, [pool[a] for a in step.args], note)
            pool.append(t)
        for i, t in enumerate(pool):
            out[f"value %{i}"] = _np_paddle(t)
            out[f"dtype %{i}"] = str(t.dtype).rsplit(".", 1)[-1]
            out[f"requires_grad %{i}"] = not t.stop_gradient
        _run_option_paddle(P, prog, pool, dtype, out)
    return Result(out, ms)


def _paddle_leaf_grads(prog: Program, pool: list, out: dict, tag: str = "grad") -> None:
    for i, step in enumerate(prog.steps):
        if step.op == "leaf" and prog.requires[i]:
            g = pool[i].grad
            out[f"{tag} %{i}"] = None if g is None else _np_paddle(g)


def _run_option_paddle(P, prog: Program, pool: list, dtype: str, out: dict) -> None:
    o = prog.op
    seed = o["seed"]
    root = pool[prog.root]

    def seed_for(t, k=0):
        return P.to_tensor(_rand_like(seed, k, tuple(t.shape), dtype), dtype=dtype)

    g0 = seed_for(root)
    option = prog.option
    if option == "multi_root" and o["other"] == prog.root:
        option = "plain"          # paddle refuses the same tensor twice among the roots
    if option == "plain":
        root.backward(g0)
        _paddle_leaf_grads(prog, pool, out)
    elif option == "retain_twice":
        root.backward(g0, retain_graph=True)
        _paddle_leaf_grads(prog, pool, out, "grad after first")
        root.backward(g0)
        _paddle_leaf_grads(prog, pool, out)
    elif option == "multi_root":
        other = pool[o["other"]]
        P.autograd.backward([root, other], [g0, seed_for(other, 1)])
        _paddle_leaf_grads(prog, pool, out)
    elif option == "grad_unused":
        unused = P.ones([2], dtype=dtype)
        unused.stop_gradient = False
        ins = [pool[i] for i in o["inputs"]] + [unused]
        gs = P.grad([root], ins, [g0], allow_unused=True)
        for k, g in enumerate(gs):
            out[f"autograd.grad[{k}]"] = None if g is None else _np_paddle(g)
        _paddle_leaf_grads(prog, pool, out)
    elif option == "create_graph":
        ins = [pool[i] for i in o["inputs"]]
        gs = P.grad([root], ins, [g0], create_graph=True, allow_unused=True)
        terms = []
        for k, g in enumerate(gs):
            out[f"first order[{k}]"] = None if g is None else _np_paddle(g)
            if g is not None and not g.stop_gradient:
                terms.append(P.sum(g * seed_for(g, 10 + k)))
        leaves = [x for x in ins if x.is_leaf]      # see run_torch
        hs = [None] * len(leaves)
        if terms and leaves:
            s = terms[0]
            for t in terms[1:]:
                s = s + t
            hs = P.grad([s], leaves, allow_unused=True)
        for k, (h, x) in enumerate(zip(hs, leaves)):
            out[f"second order[{k}]"] = np.zeros(tuple(x.shape)) if h is None else _np_paddle(h)
    elif option == "hooks":
        for i, c in o["hooks"]:
            pool[i].register_hook(lambda g, c=c: g * c)
        root.backward(g0)
        _paddle_leaf_grads(prog, pool, out)
    else:
        raise AssertionError(option)
