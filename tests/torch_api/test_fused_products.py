"""addmm, addbmm, baddbmm, addmv and addr against real torch: values, gradients, dtypes, node
names, beta / alpha (beta 0 ignores self's NaNs, integer results truncate a float coefficient),
the in-place methods, and the errors of bad arguments (type and text)."""
from __future__ import annotations

import numpy as np
import pytest

from tensor_op_parity import ftorch, same, same_error, torch

R = np.random.default_rng(3)
M23, M34, M24 = R.normal(size=(2, 3)), R.normal(size=(3, 4)), R.normal(size=(2, 4))
B223, B234 = R.normal(size=(2, 2, 3)), R.normal(size=(2, 3, 4))
V2, V3, V4 = R.normal(size=2), R.normal(size=3), R.normal(size=4)

CASES = {
    "addmm": (lambda T, s, a, b: T.addmm(s, a, b), M24, M23, M34),
    "addmm_scaled_broadcast": (lambda T, s, a, b: T.addmm(s, a, b, beta=0.5, alpha=-2), V4, M23, M34),
    "addmm_beta0_nan": (lambda T, s, a, b: T.addmm(s * np.nan, a, b, beta=0), M24, M23, M34),
    "addbmm": (lambda T, s, a, b: T.addbmm(s, a, b, beta=2, alpha=0.5), M24, B223, B234),
    "baddbmm": (lambda T, s, a, b: T.baddbmm(s, a, b, alpha=3), V4, B223, B234),
    "addmv": (lambda T, s, a, b: T.addmv(s, a, b, beta=-1), V2, M23, V3),
    "addmv_0d": (lambda T, s, a, b: T.addmv(s[0], a, b, alpha=2), V2, M23, V3),
    "addr": (lambda T, s, a, b: T.addr(s, a, b, beta=2, alpha=0.5), M23, V2, V3),
    "methods": (lambda T, s, a, b: s.addmm(a, b, alpha=2) + s.addr(a[:, 0], b[0]), M24, M23, M34),
    "inplace": (lambda T, s, a, b: (s * 1).addmm_(a, b, beta=0.5), M24, M23, M34),
    "inplace_baddbmm": (lambda T, s, a, b: (s * 1).baddbmm_(a, b), R.normal(size=(2, 2, 4)), B223, B234),
    "inplace_addmv": (lambda T, s, a, b: (s * 1).addmv_(a, b[:, 0]), V2, M23, M34),
    "inplace_addbmm_addr": (lambda T, s, a, b: (s * 1).addbmm_(a[None], b[None]).addr_(a[:, 0], b[0]), M24, M23,
                            M34),
}


@pytest.mark.parametrize("name", list(CASES))
def test_values_and_gradients(name):
    fn, *arrays = CASES[name]
    same(fn, *arrays)
    graphs = [fn(T, *[T.tensor(a, requires_grad=True) for a in arrays]).grad_fn.name() for T in (ftorch, torch)]
    assert graphs[0] == graphs[1]


@pytest.mark.parametrize("dtype", ["int64", "float16", "bfloat16", "complex128"])
def test_dtypes(dtype):
    def fn(T, s, a, b):
        dt = getattr(T, dtype)
        s, a, b = s.to(dt), a.to(dt), b.to(dt)
        alpha = 1j if dtype == "complex128" else 0.7
        out = (T.addmm(s, a, b, alpha=alpha), T.addbmm(s, a[None], b[None]), T.baddbmm(s[None], a[None], b[None]),
               T.addmv(s[:, 0], a, b[:, 0], beta=2), T.addr(s, a[:, 0], b[0], beta=2))
        assert all(o.dtype == dt for o in out)
        return [o.float() for o in out] if dtype == "bfloat16" else out
    same(fn, M24.round(), M23.round(), M34.round(), grad=False)


def test_addr_promotes_and_takes_bools():
    same(lambda T, s, a, b: T.addr(s, a, b), M23.astype(np.float32), V2, V3)
    same(lambda T, s, a, b: T.addr(s, a.long(), b), M23, V2, V3, grad=False)
    same(lambda T, s, a, b: T.addr(s > 0, a > 0, b > 0), M23, V2, V3, grad=False)
    same(lambda T, s, a, b: T.addr(s > 0, a > 0, b > 0, beta=0), M23, V2, V3, grad=False)


@pytest.mark.parametrize("fn", [
    lambda T, s, a, b, v: T.addmm(s, a, b.t()),
    lambda T, s, a, b, v: T.addmm(s, v, b),
    lambda T, s, a, b, v: T.addmm(s.t(), a, b),
    lambda T, s, a, b, v: T.addmm(s[None], a, b),
    lambda T, s, a, b, v: T.addmm(s, a.double(), b),
    lambda T, s, a, b, v: T.addmm(s.double(), a, b),
    lambda T, s, a, b, v: T.addmm(s > 0, a > 0, b > 0),
    lambda T, s, a, b, v: T.addmm(s, a, b, beta=1j),
    lambda T, s, a, b, v: T.addmm(s.long(), a.long(), b.long(), alpha=1j),
    lambda T, s, a, b, v: T.addbmm(s, a, b),
    lambda T, s, a, b, v: T.addbmm(s, v, b[None]),
    lambda T, s, a, b, v: T.addbmm(s, a[None], b[None].expand(2, 3, 4)),
    lambda T, s, a, b, v: T.addbmm(s, a[None], b.t()[None]),
    lambda T, s, a, b, v: T.addbmm(s.double(), a[None], b[None]),
    lambda T, s, a, b, v: T.baddbmm(s[None], a, b[None]),
    lambda T, s, a, b, v: T.baddbmm(s.t(), a[None], b[None]),
    lambda T, s, a, b, v: T.baddbmm(s[None], a[None].double(), b[None]),
    lambda T, s, a, b, v: T.baddbmm(s[None], a[None], b[None].expand(2, 3, 4)),
    lambda T, s, a, b, v: T.baddbmm(s[None] > 0, a[None] > 0, b[None] > 0),
    lambda T, s, a, b, v: T.addmv(v, a, v),
    lambda T, s, a, b, v: T.addmv(s, a, v),
    lambda T, s, a, b, v: T.addmv(v, b, v),
    lambda T, s, a, b, v: T.addmv(v[:2], a.double(), v),
    lambda T, s, a, b, v: T.addr(s, a, v),
    lambda T, s, a, b, v: T.addr(s, v, a),
    lambda T, s, a, b, v: T.addr(s, v[:2], v[:2]),
    lambda T, s, a, b, v: T.addr(s.long(), v.long()[:2], v.long()[:4], alpha=0.5),
    lambda T, s, a, b, v: T.addr(s, v[:2], v[:4], beta=True),
    lambda T, s, a, b, v: s.addmm_(a[:, :2], b[:2, :2]),
    lambda T, s, a, b, v: s[0].addmv_(a, v),
    lambda T, s, a, b, v: s[0, :1].addmv_(a.t(), v[:2]),
    lambda T, s, a, b, v: s[None].baddbmm_(a[None], b[None].expand(1, 3, 2)),
], ids=lambda f: "")
def test_errors(fn):
    same_error(fn, M24.astype(np.float32), M23.astype(np.float32), M34.astype(np.float32), V3.astype(np.float32))
