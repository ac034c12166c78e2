"""torch's array functions beside the op table's core against real torch: cross, cov / corrcoef,
gcd / lcm, rot90, tensor_split, take / put (values, gradients, dtypes, node names, and the errors of
bad arguments, type and text)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from tensor_op_parity import ftorch, same, same_error, same_nodes

R = np.random.default_rng(5)
M34, M43, V5 = R.normal(size=(3, 4)), R.normal(size=(4, 3)), R.normal(size=5)
INTS = np.array([[12, -18, 0], [7, 0, 5]])


CASES = {
    "cross": (lambda T, a, b: T.cross(a, b, dim=1), M43, M43[::-1].copy()),
    "cross_broadcast": (lambda T, a, b: T.cross(a[:1], b, dim=-1), M43, M43 + 1),
    "linalg_cross_method": (lambda T, a, b: a.cross(b, 1), M43, M43 * 2),
    "cov": (lambda T, a: T.cov(a), M34),
    "cov_1d_correction": (lambda T, a: T.cov(a[0], correction=0), M34),
    "cov_weights": (lambda T, a: T.cov(a, fweights=T.tensor([1, 2, 0, 3]), aweights=T.tensor([0.5, 1.0, 2.0, 1.5]),
                                       correction=2), M34),
    "cov_aweights_method": (lambda T, a: a.cov(aweights=T.tensor([0.5, 1.0, 2.0, 1.5])), M34),
    "corrcoef": (lambda T, a: T.corrcoef(a), M34),
    "corrcoef_1d_method": (lambda T, a: a[0].corrcoef(), M34),
    "rot90": (lambda T, a: T.rot90(a), M34),
    "rot90_k2": (lambda T, a: T.rot90(a[None], 2, [2, 1]), M34),
    "rot90_k3_neg": (lambda T, a: a.rot90(-5, (-1, 0)), M34),
    "rot90_k0": (lambda T, a: T.rot90(a, 4), M34),
    "tensor_split_sections": (lambda T, a: T.tensor_split(a, 3, dim=1), M34),
    "tensor_split_indices": (lambda T, a: a.tensor_split([5, 2, 9, -1], 1), M34),
    "tensor_split_tensor": (lambda T, a: T.tensor_split(a, T.tensor([1, -1])), M34),
    "tensor_split_tensor_sections": (lambda T, a: T.tensor_split(a, T.tensor(2), -1), M34),
    "take": (lambda T, a: T.take(a, T.tensor([[0, 11], [-1, -12], [3, 3]])), M34),
    "take_method": (lambda T, a: a.take(T.tensor([5, 5, 5])), M34),
    "put": (lambda T, a, s: T.put(a, T.tensor([[0, -1]]), s[:2]), M34, V5),
    "put_accumulate": (lambda T, a, s: T.put(a, T.tensor([1, 1, 4, -3, 1]), s, accumulate=True), M34, V5),
    "put_method": (lambda T, a, s: a.put(T.tensor([1, 1]), s[:2].reshape(1, 2)), M34, V5),
    "put_inplace": (lambda T, a, s: (a * 1).put_(T.tensor([2, 0]), s[1:3]), M34, V5),
    "put_inplace_accumulate": (lambda T, a, s: (a * 1).put_(T.tensor([2, 2]), s[1:3], True), M34, V5),
}


@pytest.mark.parametrize("name", list(CASES))
def test_values_gradients_and_nodes(name):
    fn, *arrays = CASES[name]
    same(fn, *arrays)
    same_nodes(fn, *arrays)


def test_cross_default_dim_warns():
    # (PyTorch warns once a process, so only flowgrad's warning is looked at here)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ftorch.cross(ftorch.ones(2, 3, 3), ftorch.ones(2, 3, 3))
    assert str(caught[0].message).startswith("Using torch.cross without specifying the dim arg is deprecated.\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(lambda T, a, b: T.cross(a, b), np.stack([M43[:3]] * 2), np.stack([M43[1:]] * 2))


def test_cov_dtypes_and_degrees_of_freedom():
    same(lambda T, a: (T.cov(a.long()), T.corrcoef(a.long()), T.cov(a.to(T.complex64)),
                       T.corrcoef(a.to(T.complex128)), T.cov(a.float(), aweights=T.ones(4).double())),
         M34 * 3, grad=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(lambda T, a: (T.cov(a[:, :1]), T.cov(a, correction=4), T.cov(a[:, :0]), T.corrcoef(a[:1, :1])), M34)


@pytest.mark.parametrize("pair", [
    lambda T, a, b: (T.gcd(a, b), T.lcm(a, b), a.gcd(b[0]), a.lcm(b)),
    lambda T, a, b: (T.gcd(a.int(), b), T.lcm(a.abs().to(T.uint8), b.abs().to(T.uint8)), T.gcd(a, T.tensor(4))),
    lambda T, a, b: (a.int().gcd_(b), a.clone().lcm_(b)),
])
def test_gcd_lcm(pair):
    same(pair, INTS, INTS[::-1] * 3, grad=False)


@pytest.mark.parametrize("fn", [
    lambda T, a, i: T.cross(a, a[:, :2], dim=1),
    lambda T, a, i: T.cross(a, a.double(), dim=1),
    lambda T, a, i: T.cross(a[0], a, dim=0),
    lambda T, a, i: T.cross(a[:2], a[:2]),
    lambda T, a, i: T.cov(a[None, None]),
    lambda T, a, i: T.cov(a > 0),
    lambda T, a, i: T.cov(a, correction=0.5),
    lambda T, a, i: T.cov(a, fweights=T.ones(4)),
    lambda T, a, i: T.cov(a, fweights=T.tensor([1, -1, 1, 1])),
    lambda T, a, i: T.cov(a, fweights=T.ones(1, 4, dtype=T.long)),
    lambda T, a, i: T.cov(a, fweights=T.ones(3, dtype=T.long)),
    lambda T, a, i: T.cov(a, aweights=T.ones(4, dtype=T.long)),
    lambda T, a, i: T.cov(a, aweights=-T.ones(4)),
    lambda T, a, i: T.cov(a, aweights=T.zeros(4)),
    lambda T, a, i: T.corrcoef(a[None, None]),
    lambda T, a, i: T.gcd(i, i.float()),
    lambda T, a, i: T.lcm(i > 0, i > 0),
    lambda T, a, i: T.cross(a[:1], a[:, :3], dim=1),
    lambda T, a, i: T.cross(a[:2, :3], a[:, :3], dim=1),
    lambda T, a, i: T.cross(a[:, :3], a[:, :3].double(), dim=1),
    lambda T, a, i: T.gcd(i, 4),
    lambda T, a, i: T.rot90(a[0]),
    lambda T, a, i: T.rot90(a, 1, [0, 1, 2]),
    lambda T, a, i: T.rot90(a, 1, [0, -2]),
    lambda T, a, i: T.rot90(a, 1, [0, 2]),
    lambda T, a, i: T.rot90(a, 1, [-3, 1]),
    lambda T, a, i: T.tensor_split(a[0, 0], 2),
    lambda T, a, i: T.tensor_split(a, 0),
    lambda T, a, i: T.tensor_split(a, T.tensor([[1]])),
    lambda T, a, i: T.tensor_split(a, T.tensor([1.0])),
    lambda T, a, i: T.tensor_split(a, 2, dim=2),
    lambda T, a, i: T.take(a, T.tensor([12])),
    lambda T, a, i: T.take(a, T.tensor([-13])),
    lambda T, a, i: T.take(a, T.tensor([1], dtype=T.int32)),
    lambda T, a, i: T.take(a[:0], T.tensor([0])),
    lambda T, a, i: T.put(a, T.tensor([0, 1]), a[0, :1]),
    lambda T, a, i: T.put(a, T.tensor([0]), a[0, :1].double()),
    lambda T, a, i: T.put(a, T.tensor([12]), a[0, :1]),
    lambda T, a, i: T.put(a, T.tensor([0], dtype=T.int32), a[0, :1]),
    lambda T, a, i: a.put_(T.tensor([0, 13]), a[0, :2].clone()),
], ids=lambda f: "")
@pytest.mark.filterwarnings("ignore:Using torch.cross without specifying the dim")
def test_errors(fn):
    same_error(fn, M34.astype(np.float32), INTS)
