"""scaled_dot_product_attention, MultiheadAttention and the Transformer layers against real torch:
the same inputs (and weights: a real torch module's state dict loaded into flowgrad's), then the
outputs and the gradients of every input, float mask and parameter, in float32 and float64; plus
construction, state dicts and the error messages (each written once, checked on both)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import flowgrad.torch as ft

TOL = {"float32": 2e-5, "float64": 1e-10}


def _raises(torch, exc, message, fn):
    with pytest.raises(exc, match="^" + re.escape(message) + "$"):
        fn()


def _compare(a, b, tol):
    assert len(a) == len(b)
    for i, (x, y) in enumerate(zip(a, b)):
        name = f"result {i}"
        if isinstance(x, tuple):
            assert x[0] == y[0]
            name, x, y = x[0], x[1], y[1]
        if x is None or y is None:
            assert x is None and y is None, f"{name}: one side is None"
            continue
        assert x.shape == y.shape, f"{name}: shapes {x.shape} vs {y.shape}"
        assert x.dtype == y.dtype, f"{name}: dtypes {x.dtype} vs {y.dtype}"
        np.testing.assert_allclose(x, y, rtol=tol, atol=tol, err_msg=name)


def _loss(T, tensors):
    """A fixed random weighting of every output (the same in both frameworks)."""
    total = 0
    for i, t in enumerate(tensors):
        w = np.random.default_rng([*t.shape, i]).standard_normal(tuple(t.shape))
        total = total + (t * T.tensor(w, dtype=t.dtype)).sum()
    return total


# ------------------------------------------------------------------ scaled_dot_product_attention

def _mask(kind, shape, rng):
    """A mask of `shape`: "bool" keeps ~70% and empties row 1 (row 0 of a one-row mask) entirely;
    "float" adds noise and -inf, the same row all -inf; "float32" is the float mask in float32 (allowed beside float64 queries)."""
    row = 1 if shape[-2] > 1 else 0
    if kind == "bool":
        m = rng.random(shape) < 0.7
        m[..., row, :] = False
        m[..., 0, 0] = row == 1
        return m
    m = rng.standard_normal(shape)
    m[rng.random(shape) < 0.2] = -np.inf
    m[..., row, :] = -np.inf
    if row == 1:
        m[..., 0, 0] = 0.0
    return m.astype("float32") if kind == "float32" else m


# name: (query, key, value shapes, mask (kind, shape) or None, keyword arguments)
SDPA_CASES = {
    "4d": ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), None, {}),
    "3d": ((3, 4, 5), (3, 6, 5), (3, 6, 2), None, {}),
    "2d": ((4, 5), (6, 5), (6, 3), None, {}),
    "5d": ((2, 1, 2, 3, 4), (2, 1, 2, 5, 4), (2, 1, 2, 5, 4), None, {}),
    "batch-broadcast": ((1, 3, 4, 5), (2, 3, 6, 5), (2, 1, 6, 7), None, {}),
    "scale": ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), None, {"scale": 0.7}),
    "scale-negative": ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), None, {"scale": -1.3}),
    "scale-zero": ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), None, {"scale": 0}),
    "causal-short-query": ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), None, {"is_causal": True}),
    "causal-long-query": ((2, 3, 7, 5), (2, 3, 4, 5), (2, 3, 4, 7), None, {"is_causal": True}),
    "bool-mask-2d": ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), ("bool", (4, 6)), {}),
    "bool-mask-4d": ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), ("bool", (2, 1, 4, 6)), {}),
    "float-mask": ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), ("float", (3, 4, 6)), {}),
    "float-mask-broadcast-rows": ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), ("float", (2, 1, 1, 6)), {}),
    "float32-mask": ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), ("float32", (4, 6)), {}),
    "mask-and-scale": ((3, 4, 5), (3, 6, 5), (3, 6, 2), ("float", (4, 6)), {"scale": 2.0}),
    "gqa": ((2, 6, 4, 5), (2, 3, 6, 5), (2, 2, 6, 7), None, {"enable_gqa": True}),
    "gqa-one-kv-head": ((2, 6, 4, 5), (2, 1, 6, 5), (2, 1, 6, 7), ("bool", (4, 6)), {"enable_gqa": True}),
    "gqa-equal-heads": ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), None, {"enable_gqa": True}),
    "gqa-3d": ((6, 4, 5), (2, 6, 5), (3, 6, 5), None, {"enable_gqa": True}),
    "empty-key": ((2, 3, 4, 5), (2, 3, 0, 5), (2, 3, 0, 7), None, {}),
    "empty-query": ((2, 3, 0, 5), (2, 3, 6, 5), (2, 3, 6, 7), None, {}),
}


def _run_sdpa(T, arrays, mask, kwargs, dtype):
    q, k, v = (T.tensor(a.astype(dtype), requires_grad=True) for a in arrays)
    leaves = [q, k, v]
    m = None
    if mask is not None:
        if mask.dtype == np.bool_:
            m = T.tensor(mask)
        else:
            m = T.tensor(mask.astype(dtype if mask.dtype == np.float64 else mask.dtype), requires_grad=True)
            leaves.append(m)
    out = T.nn.functional.scaled_dot_product_attention(q, k, v, m, **kwargs)
    grads = T.autograd.grad(_loss(T, [out]), leaves, allow_unused=True)
    return [out.detach().numpy()] + [g.numpy() for g in grads]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(SDPA_CASES))
def test_sdpa_matches_torch(name, dtype, real_torch):
    qs, ks, vs, mask, kwargs = SDPA_CASES[name]
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in (qs, ks, vs)]
    m = None if mask is None else _mask(mask[0], mask[1], rng)
    a = _run_sdpa(ft, arrays, m, kwargs, dtype)
    b = _run_sdpa(real_torch, arrays, m, kwargs, dtype)
    _compare(a, b, TOL[dtype])


def test_sdpa_half_precision_runs_in_float32_and_returns_half(real_torch):
    rng = np.random.default_rng(1)
    arrays = [rng.standard_normal(s).astype("float16") for s in ((2, 4, 3), (2, 5, 3), (2, 5, 3))]
    mask = rng.random((4, 5)) < 0.8
    res = []
    for T in (ft, real_torch):
        q, k, v = (T.tensor(a) for a in arrays)
        res.append(T.nn.functional.scaled_dot_product_attention(q, k, v, T.tensor(mask)).numpy())
    assert res[0].dtype == res[1].dtype == np.float16
    np.testing.assert_allclose(res[0].astype("float64"), res[1].astype("float64"), atol=2e-3)


def test_sdpa_second_derivatives_match_torch(real_torch):
    rng = np.random.default_rng(2)
    arrays = [rng.standard_normal(s) for s in ((2, 3, 4), (2, 5, 4), (2, 5, 3))]
    mask = rng.standard_normal((3, 5))

    def run(T):
        q, k, v, m = (T.tensor(a, requires_grad=True) for a in arrays + [mask])
        out = T.nn.functional.scaled_dot_product_attention(q, k, v, m, scale=0.6)
        grads = T.autograd.grad((out ** 2).sum(), (q, k, v, m), create_graph=True)
        second = T.autograd.grad(sum((g ** 2).sum() for g in grads), (q, k, v, m))
        return [g.detach().numpy() for g in grads] + [g.numpy() for g in second]
    _compare(run(ft), run(real_torch), 1e-9)


def test_sdpa_dropout_zeroes_and_rescales_weights(torch):
    torch.manual_seed(0)
    q = torch.randn(2, 4, 3, dtype=torch.float64)
    v = torch.eye(5, dtype=torch.float64).expand(2, 5, 5)
    k = torch.randn(2, 5, 3, dtype=torch.float64)
    weights = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    dropped = torch.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
    kept = dropped != 0
    assert 0 < int(kept.sum()) < kept.numel()
    assert torch.allclose(dropped[kept], weights[kept] * 2)
    everything = torch.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=1.0)
    assert float(everything.abs().sum()) == 0.0
    # a negative probability means no dropout, as in PyTorch
    assert torch.equal(torch.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=-1.0), weights)


def _sdpa_errors(torch):
    F = torch.nn.functional
    r = torch.randn
    q, k, v = r(2, 3, 4, 5), r(2, 3, 6, 5), r(2, 3, 6, 7)
    b = torch.bool
    return [
        (lambda: F.scaled_dot_product_attention(q, k.double(), v), RuntimeError,
         "Expected query, key, and value to have the same dtype, but got query.dtype: float key.dtype: double and "
         "value.dtype: float instead."),
        (lambda: F.scaled_dot_product_attention(q.long(), k, v.half()), RuntimeError,
         "Expected query, key, and value to have the same dtype, but got query.dtype: long int key.dtype: float and "
         "value.dtype: c10::Half instead."),
        (lambda: F.scaled_dot_product_attention(q[0, 0, 0], k, v), RuntimeError,
         "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: 1 key.dim: 4 and "
         "value.dim: 4 instead."),
        (lambda: F.scaled_dot_product_attention(q, k, v, torch.ones(4, 6, dtype=torch.int64)), RuntimeError,
         "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: long int "
         "and  query.dtype: float instead."),
        (lambda: F.scaled_dot_product_attention(q, k, v, torch.ones(4, 6, dtype=torch.float64)), RuntimeError,
         "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: double "
         "and  query.dtype: float instead."),
        (lambda: F.scaled_dot_product_attention(q, k, v, torch.ones(6)), IndexError,
         "Dimension out of range (expected to be in range of [-1, 0], but got -2)"),
        (lambda: F.scaled_dot_product_attention(q, k, v, torch.ones(())), IndexError,
         "Dimension specified as -2 but tensor has no dimensions"),
        (lambda: F.scaled_dot_product_attention(q, k, v, torch.ones(4, 6, dtype=b), is_causal=True), RuntimeError,
         "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"),
        (lambda: F.scaled_dot_product_attention(q.long(), k.long(), v.long()), RuntimeError,
         "expected scalar type Float but found Long"),
        (lambda: F.scaled_dot_product_attention(q, k, v, torch.ones(4, 5)), RuntimeError,
         "The size of tensor a (6) must match the size of tensor b (5) at non-singleton dimension 3"),
        (lambda: F.scaled_dot_product_attention(q, k, v, torch.ones(1, 2, 3, 4, 6, dtype=b)), RuntimeError,
         "output with shape [2, 3, 4, 6] doesn't match the broadcast shape [1, 2, 3, 4, 6]"),
        (lambda: F.scaled_dot_product_attention(q, k, v, dropout_p=1.5), RuntimeError,
         "dropout probability has to be between 0 and 1, but got 1.5"),
        (lambda: F.scaled_dot_product_attention(r(2, 6, 4, 5), r(2, 4, 6, 5), r(2, 4, 6, 5), enable_gqa=True),
         RuntimeError, "Number of heads in key and value must divide the number of heads in "),
        (lambda: F.scaled_dot_product_attention(r(4, 5), r(6, 5), r(6, 5), enable_gqa=True), IndexError,
         "Dimension out of range (expected to be in range of [-2, 1], but got -3)"),
        (lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=[1.0]), TypeError,
         "scaled_dot_product_attention(): argument 'attn_mask' must be Tensor, not list"),
        (lambda: F.scaled_dot_product_attention(q, k, v, dropout_p=None), TypeError,
         "scaled_dot_product_attention(): argument 'dropout_p' must be float, not NoneType"),
        (lambda: F.scaled_dot_product_attention(q, k, v, is_causal=1), TypeError,
         "scaled_dot_product_attention(): argument 'is_causal' must be bool, not int"),
        (lambda: F.scaled_dot_product_attention(q, k, v, scale="a"), TypeError,
         "scaled_dot_product_attention(): argument 'scale' must be float, not str"),
        (lambda: F.scaled_dot_product_attention(q, k, v, enable_gqa=None), TypeError,
         "scaled_dot_product_attention(): argument 'enable_gqa' must be bool, not NoneType"),
        (lambda: F.scaled_dot_product_attention([1.0], k, v), TypeError,
         "scaled_dot_product_attention(): argument 'query' (position 1) must be Tensor, not list"),
        (lambda: F.scaled_dot_product_attention(q, k, 2.0), TypeError,
         "scaled_dot_product_attention(): argument 'value' (position 3) must be Tensor, not float"),
        (lambda: F.scaled_dot_product_attention(q, k, v, None, 0.0, False, None), TypeError,
         "scaled_dot_product_attention() takes from 3 to 6 positional arguments but 7 were given"),
    ]


N_SDPA_ERRORS = 22


@pytest.mark.parametrize("case", range(N_SDPA_ERRORS))
def test_sdpa_errors(case, torch):
    fn, exc, message = _sdpa_errors(torch)[case]
    _raises(torch, exc, message, fn)


def test_error_tables_are_fully_parametrized():
    assert len(_sdpa_errors(ft)) == N_SDPA_ERRORS
