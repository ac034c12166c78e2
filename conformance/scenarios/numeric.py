"""Numeric gradients of the common ops under broadcasting, in float32 and float64.

Each scenario is generated from the tables below as plain code (so its source stands alone): leaves
with fixed values, the op, a weighted sum of the result, backward; it compares the result and every
input's gradient across implementations.
"""
from __future__ import annotations

import zlib

import numpy as np

from ..scenario import register

# name: (expression over a, b, input shapes, value ranges for a and b)
BINARY = {
    "add_2x3_by_2x3": ("a + b", (2, 3), (2, 3)),
    "add_2x3_by_3": ("a + b", (2, 3), (3,)),
    "add_3_by_scalar": ("a + b", (3,), ()),
    "sub_2x1_by_1x3": ("a - b", (2, 1), (1, 3)),
    "sub_1_by_2x2": ("a - b", (1,), (2, 2)),
    "mul_2x3_by_2x3": ("a * b", (2, 3), (2, 3)),
    "mul_2x1_by_1x3": ("a * b", (2, 1), (1, 3)),
    "mul_2x3x4_by_3x1": ("a * b", (2, 3, 4), (3, 1)),
    "mul_scalar_by_3": ("a * b", (), (3,)),
    "div_2x3_by_3": ("a / b", (2, 3), (3,), "positive_b"),
    "div_2x1_by_1x3": ("a / b", (2, 1), (1, 3), "positive_b"),
    "div_scalar_by_2x2": ("a / b", (), (2, 2), "positive_b"),
    "pow_2x3_by_3": ("fw.pow(a, b)", (2, 3), (3,), "positive_a"),
    "pow_3_by_scalar": ("fw.pow(a, b)", (3,), (), "positive_a"),
    "maximum_2x3_by_3": ("fw.maximum(a, b)", (2, 3), (3,)),
    "maximum_2x1_by_1x3": ("fw.maximum(a, b)", (2, 1), (1, 3)),
    "minimum_2x3_by_2x3": ("fw.minimum(a, b)", (2, 3), (2, 3)),
    "where_2x3_by_3": ("fw.where(a > b, a * 2., b * b)", (2, 3), (3,)),
    "where_2x1_by_1x3": ("fw.where(a > b, a, b)", (2, 1), (1, 3)),
    "matmul_3_by_3": ("fw.matmul(a, b)", (3,), (3,)),
    "matmul_2x3_by_3": ("fw.matmul(a, b)", (2, 3), (3,)),
    "matmul_3_by_3x2": ("fw.matmul(a, b)", (3,), (3, 2)),
    "matmul_2x3_by_3x2": ("fw.matmul(a, b)", (2, 3), (3, 2)),
    "matmul_2x2x3_by_3x2": ("fw.matmul(a, b)", (2, 2, 3), (3, 2)),
    "matmul_2x2x3_by_1x3x2": ("fw.matmul(a, b)", (2, 2, 3), (1, 3, 2)),
}

UNARY = {
    "exp": ("fw.exp(a)", (2, 3)),
    "log": ("fw.log(a)", (2, 3), "positive_a"),
    "sin": ("fw.sin(a)", (2, 3)),
    "cos": ("fw.cos(a)", (2, 3)),
    "tanh": ("fw.tanh(a)", (2, 3)),
    "sigmoid": ("fw.sigmoid(a)", (2, 3)),
    "relu": ("fw.relu(a)", (2, 3)),
    "sqrt": ("fw.sqrt(a)", (2, 3), "positive_a"),
    "abs": ("fw.abs(a)", (2, 3)),
    "pow_scalar": ("fw.pow(a, 3.)", (2, 3)),
    "clamp": ("fw.clamp(a, -0.5, 0.5)", (2, 3)),
    "sum_dim1_keepdim": ("fw.sum(a, 1, keepdim=True)", (2, 3)),
    "sum_dim0": ("fw.sum(a, 0)", (2, 3, 2)),
    "mean_last_dim": ("fw.mean(a, -1)", (2, 3)),
    "mean_all": ("fw.mean(a)", (2, 3)),
    "max_dim1": ("fw.max(a, 1)", (2, 3)),
    "softmax_dim1": ("fw.softmax(a, 1)", (2, 3)),
    "log_softmax_dim0": ("fw.log_softmax(a, 0)", (2, 3)),
    "reshape": ("fw.reshape(a, [3, 2])", (2, 3)),
    "transpose": ("fw.transpose(a, [2, 0, 1])", (2, 3, 2)),
    "expand": ("fw.expand(a, [2, 3])", (1, 3)),
    "unsqueeze_squeeze": ("fw.squeeze(fw.unsqueeze(a, 1), 1) * fw.unsqueeze(a, 0)", (3,)),
    "cat_dim1": ("fw.cat([a, a * 2.], 1)", (2, 3)),
    "stack_dim0": ("fw.stack([a, fw.exp(a)], 0)", (2, 3)),
    "getitem_slice": ("a[:, 1:] * 3.", (2, 3)),
    "getitem_row": ("a[1] * a[0]", (2, 3)),
    "chain_tanh_matmul_sum": ("fw.sum(fw.tanh(fw.matmul(a, fw.transpose(a, [1, 0]))), 0)", (2, 3)),
}

FLOAT64 = {
    "mul_2x1_by_1x3_float64": ("a * b", (2, 1), (1, 3)),
    "matmul_2x3_by_3x2_float64": ("fw.matmul(a, b)", (2, 3), (3, 2)),
    "div_2x3_by_3_float64": ("a / b", (2, 3), (3,), "positive_b"),
}
UNARY64 = {
    "exp_float64": ("fw.exp(a)", (2, 3)),
    "softmax_dim1_float64": ("fw.softmax(a, 1)", (2, 3)),
}


def _values(name: str, shape: tuple, positive: bool) -> np.ndarray:
    rng = np.random.RandomState(zlib.crc32(name.encode()))
    low, high = (0.5, 2.0) if positive else (-2.0, 2.0)
    vals = np.round(rng.uniform(low, high, size=shape), 2)
    if not positive:     # keep away from kinks and ties (relu, abs, max at 0 or equal values)
        vals = np.where(np.abs(vals) < 0.1, 0.37, vals)
        flat = vals.reshape(-1)
        for i in range(flat.size):
            while list(flat[:i]).count(flat[i]):
                flat[i] = round(flat[i] + 0.013, 3)
        vals = flat.reshape(shape)
    return vals


def _literal(arr: np.ndarray) -> str:
    return repr(arr.tolist()) if arr.shape else repr(float(arr))


def _result_shape(expr: str, a: np.ndarray, b: np.ndarray | None) -> tuple:
    scope = {"a": a, "b": b, "fw": _NumpyOps}
    return np.shape(eval(expr, scope))    # noqa: S307 - our own table, evaluated on NumPy


class _NumpyOps:
    """Just enough NumPy behind fw.* names to compute result shapes for the weights."""

    pow = staticmethod(np.power)
    maximum = staticmethod(np.maximum)
    minimum = staticmethod(np.minimum)
    matmul = staticmethod(np.matmul)
    exp = log = sin = cos = tanh = sigmoid = relu = sqrt = abs = staticmethod(lambda x: np.asarray(x))

    @staticmethod
    def where(c, x, y): return np.where(c, x, y)
    @staticmethod
    def clamp(x, lo, hi): return np.clip(x, lo, hi)
    @staticmethod
    def sum(x, dim=None, keepdim=False): return np.sum(x, axis=dim, keepdims=keepdim)
    @staticmethod
    def mean(x, dim=None, keepdim=False): return np.mean(x, axis=dim, keepdims=keepdim)
    @staticmethod
    def max(x, dim=None): return np.max(x, axis=dim)
    @staticmethod
    def softmax(x, dim): return np.asarray(x)
    log_softmax = softmax
    @staticmethod
    def reshape(x, shape): return np.reshape(x, shape)
    @staticmethod
    def transpose(x, perm): return np.transpose(x, perm)
    @staticmethod
    def expand(x, shape): return np.broadcast_to(x, shape)
    @staticmethod
    def unsqueeze(x, d): return np.expand_dims(x, d)
    @staticmethod
    def squeeze(x, d): return np.squeeze(x, d)
    @staticmethod
    def cat(xs, d=0): return np.concatenate(xs, d)
    @staticmethod
    def stack(xs, d=0): return np.stack(xs, d)


def _generate(name: str, expr: str, shape_a: tuple, shape_b: tuple | None, flags: tuple, dtype: str) -> None:
    a = _values(name + ":a", shape_a, "positive_a" in flags)
    b = None if shape_b is None else _values(name + ":b", shape_b, "positive_b" in flags)
    out_shape = _result_shape(expr, a, b)
    w = _values(name + ":w", out_shape, False)
    lines = [f"def {name}(fw):",
             f"    a = fw.leaf({_literal(a)}, dtype={dtype!r})"]
    if b is not None:
        lines.append(f"    b = fw.leaf({_literal(b)}, dtype={dtype!r})")
    lines += [f"    y = {expr}",
              f"    fw.backward(fw.sum(y * fw.tensor({_literal(w)}, dtype={dtype!r})))",
              "    return {\"y\": y, \"a.grad\": fw.read_grad(a)"
              + (", \"b.grad\": fw.read_grad(b)}" if b is not None else "}")]
    src = "\n".join(lines) + "\n"
    namespace: dict = {}
    exec(compile(src, f"<scenario numeric.{name}>", "exec"), namespace)
    shapes = f"{list(shape_a)}" + (f" and {list(shape_b)}" if shape_b is not None else "")
    register("numeric", name, f"{expr.replace('fw.', '')} on {shapes} ({dtype}): result and gradients",
             namespace[name], source=src, expect=EXPECT.get(name, ()))


EXPECT: dict = {}   # scenario name -> expected differences (none needed so far)


def _build() -> None:
    for name, (expr, sa, sb, *flags) in BINARY.items():
        _generate(name, expr, sa, sb, tuple(flags), "float32")
    for name, (expr, sa, *flags) in UNARY.items():
        _generate(name, expr, sa, None, tuple(flags), "float32")
    for name, (expr, sa, sb, *flags) in FLOAT64.items():
        _generate(name, expr, sa, sb, tuple(flags), "float64")
    for name, (expr, sa, *flags) in UNARY64.items():
        _generate(name, expr, sa, None, tuple(flags), "float64")


def _ties() -> None:
    """max over tied values: how the gradient is shared."""
    src = ("def max_all_ties(fw):\n"
           "    a = fw.leaf([1., 1., 0.])\n"
           "    y = fw.max(a)\n"
           "    fw.backward(y)\n"
           "    return {\"y\": y, \"a.grad\": fw.read_grad(a)}\n")
    namespace: dict = {}
    exec(compile(src, "<scenario numeric.max_all_ties>", "exec"), namespace)
    register("numeric", "max_all_ties", "max over tied values: how the gradient is shared",
             namespace["max_all_ties"], source=src, expect=EXPECT.get("max_all_ties", ()))


_build()
_ties()
