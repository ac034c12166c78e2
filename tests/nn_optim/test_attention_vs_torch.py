"""scaled_dot_product_attention, MultiheadAttention and the Transformer layers against real torch:
the same inputs (and weights: a real torch module's state dict loaded into flowgrad's), then the
outputs and the gradients of every input, float mask and parameter, in float32 and float64; plus
construction, state dicts and the error messages (each written once, checked on both)."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import flowgrad.torch as ft

TOL = {"float32": 2e-5, "float64": 1e-10}
pytestmark = pytest.mark.filterwarnings("ignore:enable_nested_tensor is True",
                                        "ignore:The PyTorch API of nested tensors is in prototype stage")


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
    "float" adds noise and -inf, the same row all -inf; "float32" is the float mask in float32
    (allowed beside float64 queries)."""
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




# ---------------------------------------------------------------------------- MultiheadAttention

E, HEADS, L, S, N = 8, 2, 4, 5, 3

# name: (constructor keyword arguments, inputs, forward: masks and flags)
# inputs: "self" (query is key is value), "kv" (key is value), "qkv" (three tensors); "-unbatched"
MHA_CASES = {
    "self": ({}, "self", {}),
    "self-no-weights": ({}, "self", {"need_weights": False}),
    "self-heads-weights": ({}, "self", {"average_attn_weights": False}),
    "kv": ({}, "kv", {}),
    "qkv": ({}, "qkv", {"need_weights": False}),
    "batch-first": ({"batch_first": True}, "self", {}),
    "batch-first-kv-no-weights": ({"batch_first": True}, "kv", {"need_weights": False}),
    "batch-first-qkv": ({"batch_first": True}, "qkv", {"average_attn_weights": False}),
    "no-bias": ({"bias": False}, "qkv", {}),
    "bias-kv": ({"add_bias_kv": True}, "qkv", {"attn_mask": ("bool", (L, S))}),
    "zero-attn": ({"add_zero_attn": True}, "qkv", {"key_padding_mask": "bool", "need_weights": False}),
    "bias-kv-zero-attn": ({"add_bias_kv": True, "add_zero_attn": True}, "kv",
                          {"attn_mask": ("float", (N * HEADS, L, S)), "key_padding_mask": "float"}),
    "kdim-vdim": ({"kdim": 3, "vdim": 6}, "qkv", {}),
    "kdim-vdim-no-weights-bf": ({"kdim": 3, "vdim": 6, "batch_first": True}, "qkv",
                                {"need_weights": False, "attn_mask": ("bool", (L, S))}),
    "kdim-vdim-no-bias": ({"kdim": 3, "vdim": 6, "bias": False}, "qkv", {"key_padding_mask": "bool"}),
    "bool-masks": ({}, "qkv", {"attn_mask": ("bool", (L, S)), "key_padding_mask": "bool"}),
    "bool-masks-no-weights": ({}, "qkv", {"attn_mask": ("bool", (L, S)), "key_padding_mask": "bool",
                                          "need_weights": False}),
    "float-masks": ({}, "qkv", {"attn_mask": ("float", (L, S)), "key_padding_mask": "float"}),
    "float-3d-mask-no-weights": ({}, "qkv", {"attn_mask": ("float", (N * HEADS, L, S)), "need_weights": False}),
    "padding-only": ({}, "kv", {"key_padding_mask": "float", "need_weights": False}),
    "causal": ({}, "self", {"attn_mask": ("causal", (L, L)), "is_causal": True}),
    "causal-no-weights": ({}, "self", {"attn_mask": ("causal", (L, L)), "is_causal": True, "need_weights": False}),
    "causal-padding-no-weights": ({}, "self", {"attn_mask": ("causal", (L, L)), "is_causal": True,
                                               "key_padding_mask": "bool", "need_weights": False}),
    "unbatched": ({}, "qkv-unbatched", {"attn_mask": ("float", (L, S)), "key_padding_mask": "bool"}),
    "unbatched-3d-mask": ({"batch_first": True}, "kv-unbatched", {"attn_mask": ("bool", (HEADS, L, S))}),
    "unbatched-self-no-weights": ({}, "self-unbatched", {"need_weights": False,
                                                         "attn_mask": ("float", (HEADS, L, L))}),
}


def _mha_masks(fwd, rng, batched, src_len):
    """The masks of a case as arrays: every query keeps its first key, so no row is empty."""
    out = {}
    if "attn_mask" in fwd:
        kind, shape = fwd["attn_mask"]
        shape = tuple(src_len if s == S else s for s in shape)
        if kind == "causal":
            out["attn_mask"] = np.triu(np.ones(shape, dtype=bool), 1)
        elif kind == "bool":
            out["attn_mask"] = rng.random(shape) < 0.3
            out["attn_mask"][..., 0] = False
        else:
            out["attn_mask"] = rng.standard_normal(shape)
            out["attn_mask"][rng.random(shape) < 0.2] = -np.inf
            out["attn_mask"][..., 0] = 0.0
    if "key_padding_mask" in fwd:
        shape = (N, src_len) if batched else (src_len,)
        if fwd["key_padding_mask"] == "bool":
            kpm = rng.random(shape) < 0.4
            kpm[..., 0] = False
        else:
            kpm = rng.standard_normal(shape)
            kpm[rng.random(shape) < 0.3] = -np.inf
            kpm[..., 0] = 0.0
        out["key_padding_mask"] = kpm
    return out


def _run_mha(T, ctor, state_dict, dtype, arrays, inputs, masks, flags, train):
    m = T.nn.MultiheadAttention(E, HEADS, **ctor).to(getattr(T, dtype))
    m.load_state_dict({k: T.tensor(v.astype(dtype)) for k, v in state_dict.items()})
    m.train(train)
    leaves = [T.tensor(a.astype(dtype), requires_grad=True) for a in arrays]
    if inputs.startswith("self"):
        q = k = v = leaves[0]
    elif inputs.startswith("kv"):
        q, (k, v) = leaves[0], (leaves[1], leaves[1])
    else:
        q, k, v = leaves
    kwargs = dict(flags)
    for name, mask in masks.items():
        if mask.dtype == np.bool_:
            kwargs[name] = T.tensor(mask)
        else:
            kwargs[name] = T.tensor(mask.astype(dtype), requires_grad=True)
            leaves.append(kwargs[name])
    out, weights = m(q, k, v, **kwargs)
    results = [out.detach().numpy(), None if weights is None else weights.detach().numpy()]
    grads = T.autograd.grad(_loss(T, [out] + ([] if weights is None else [weights])), leaves, allow_unused=True)
    results += [g.numpy() for g in grads]
    params = dict(m.named_parameters())
    pgrads = T.autograd.grad(_loss(T, [m(q, k, v, **kwargs)[0]]), list(params.values()))
    return results + [(name, g.numpy()) for name, g in zip(params, pgrads)]


@pytest.mark.filterwarnings("ignore:Support for mismatched key_padding_mask and attn_mask is deprecated")
@pytest.mark.parametrize("train", [True, False], ids=["train", "eval"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(MHA_CASES))
def test_multihead_attention_matches_torch(name, dtype, train, real_torch):
    ctor, inputs, fwd = MHA_CASES[name]
    real_torch.manual_seed(0)
    state_dict = {k: v.detach().numpy() for k, v in real_torch.nn.MultiheadAttention(E, HEADS, **ctor)
                  .state_dict().items()}
    rng = np.random.default_rng(3)
    batched = not inputs.endswith("unbatched")
    src_len = L if inputs.startswith("self") else S
    lead_q = ((N, L) if ctor.get("batch_first") else (L, N)) if batched else (L,)
    lead_k = ((N, src_len) if ctor.get("batch_first") else (src_len, N)) if batched else (src_len,)
    arrays = [rng.standard_normal(lead_q + (E,))]
    if inputs.startswith("kv"):
        arrays.append(rng.standard_normal(lead_k + (ctor.get("kdim", E),)))
    elif inputs.startswith("qkv"):
        arrays += [rng.standard_normal(lead_k + (ctor.get("kdim", E),)),
                   rng.standard_normal(lead_k + (ctor.get("vdim", E),))]
    masks = _mha_masks(fwd, rng, batched, src_len)
    flags = {k: v for k, v in fwd.items() if k not in masks}
    a = _run_mha(ft, ctor, state_dict, dtype, arrays, inputs, masks, flags, train)
    b = _run_mha(real_torch, ctor, state_dict, dtype, arrays, inputs, masks, flags, train)
    _compare(a, b, TOL[dtype])


@pytest.mark.parametrize("masks", ["none", "padding", "attn", "both"])
def test_multihead_attention_inference_matches_torch_fast_path(masks, real_torch):
    """Evaluation without gradients, batch_first self-attention: PyTorch's fused fast path."""
    real_torch.manual_seed(0)
    ref = real_torch.nn.MultiheadAttention(E, HEADS, batch_first=True).eval()
    state_dict = {k: v.numpy() for k, v in ref.state_dict().items()}
    rng = np.random.default_rng(4)
    x = rng.standard_normal((N, L, E)).astype("float32")
    kpm = rng.random((N, L)) < 0.4
    kpm[:, 0] = False
    am = np.triu(np.ones((L, L), dtype=bool), 1)
    res = []
    for T in (ft, real_torch):
        m = T.nn.MultiheadAttention(E, HEADS, batch_first=True).eval()
        m.load_state_dict({k: T.tensor(v) for k, v in state_dict.items()})
        kwargs = {}
        if masks in ("padding", "both"):
            kwargs["key_padding_mask"] = T.tensor(kpm)
        if masks in ("attn", "both"):
            kwargs["attn_mask"] = T.tensor(am)
        with T.no_grad():
            t = T.tensor(x)
            out, weights = m(t, t, t, **kwargs)
        res.append([out.numpy(), weights.numpy()])
    _compare(res[0], res[1], TOL["float32"])


@pytest.mark.parametrize("which", ["none", "padding", "attn-2d", "attn-3d", "both"])
def test_multihead_attention_merge_masks_matches_torch(which, real_torch):
    rng = np.random.default_rng(10)
    query = rng.standard_normal((N, L, E))
    padding = np.where(rng.random((N, L)) < 0.3, -np.inf, 0.0)
    attn = rng.standard_normal((L, L) if which != "attn-3d" else (N * HEADS, L, L))
    res = []
    for T in (ft, real_torch):
        m = T.nn.MultiheadAttention(E, HEADS, batch_first=True)
        merged, mask_type = m.merge_masks(T.tensor(attn) if which.startswith("attn") or which == "both" else None,
                                          T.tensor(padding) if which in ("padding", "both") else None,
                                          T.tensor(query))
        res.append([None if merged is None else merged.numpy(), np.array(-1 if mask_type is None else mask_type)])
    _compare(res[0], res[1], 0)


def test_multihead_attention_mismatched_mask_types_warn(torch):
    m = torch.nn.MultiheadAttention(4, 2)
    x = torch.randn(3, 2, 4)
    with pytest.warns(UserWarning) as caught:
        m(x, x, x, attn_mask=torch.zeros(3, 3), key_padding_mask=torch.zeros(2, 3, dtype=torch.bool))
    assert [str(w.message) for w in caught] == [
        "Support for mismatched key_padding_mask and attn_mask is deprecated. Use same type for both instead."]


@pytest.mark.parametrize("kwargs", [{}, {"kdim": 3, "vdim": 5, "bias": False}, {"add_bias_kv": True},
                                    {"batch_first": True, "dropout": 0.1, "add_zero_attn": True}])
def test_multihead_attention_structure_and_init_match_torch(kwargs, torch):
    torch.manual_seed(0)
    m = torch.nn.MultiheadAttention(8, 2, **kwargs)
    assert repr(m) == ("MultiheadAttention(\n  (out_proj): NonDynamicallyQuantizableLinear(in_features=8, "
                       f"out_features=8, bias={kwargs.get('bias', True)})\n)")
    assert isinstance(m.out_proj, torch.nn.Linear) and isinstance(m.out_proj.weight, torch.nn.Parameter)
    same = "kdim" not in kwargs
    names = (["in_proj_weight"] if same else ["q_proj_weight", "k_proj_weight", "v_proj_weight"])
    names += ["in_proj_bias"] if kwargs.get("bias", True) else []
    names += ["bias_k", "bias_v"] if kwargs.get("add_bias_kv") else []
    names += ["out_proj.weight"] + (["out_proj.bias"] if kwargs.get("bias", True) else [])
    assert list(m.state_dict()) == names
    assert (m.in_proj_weight is None) != same and (m.bias_k is None) != bool(kwargs.get("add_bias_kv"))
    assert (m.embed_dim, m.kdim, m.vdim, m.num_heads, m.head_dim) == (8, kwargs.get("kdim", 8), kwargs.get("vdim", 8),
                                                                     2, 4)
    assert (m.dropout, m.batch_first, m.add_zero_attn, m._qkv_same_embed_dim) == (
        kwargs.get("dropout", 0.0), kwargs.get("batch_first", False), kwargs.get("add_zero_attn", False), same)
    if kwargs.get("bias", True):   # xavier-uniform projections, zero biases
        w = m.in_proj_weight if same else m.q_proj_weight
        bound = (6 / (w.shape[0] + w.shape[1])) ** 0.5
        assert float(w.detach().abs().max()) <= bound and float(m.in_proj_bias.detach().abs().sum()) == 0.0
        assert float(m.out_proj.bias.detach().abs().sum()) == 0.0
    lead = (2, 3) if kwargs.get("batch_first") else (3, 2)
    q, k, v = (torch.randn(*lead, kwargs.get(dim, 8)) for dim in ("embed_dim", "kdim", "vdim"))
    assert tuple(m(q, k, v)[0].shape) == lead + (8,)


def test_multihead_attention_factory_kwargs(torch):
    m = torch.nn.MultiheadAttention(4, 2, kdim=3, dtype=torch.float64)
    assert {p.dtype for p in m.parameters()} == {torch.float64}
    x = torch.randn(3, 2, 4, dtype=torch.float64)
    out, weights = m(x, torch.randn(5, 2, 3, dtype=torch.float64), torch.randn(5, 2, 4, dtype=torch.float64))
    assert out.dtype == weights.dtype == torch.float64 and tuple(weights.shape) == (2, 3, 5)


def _mha_errors(torch):
    r = torch.randn
    F = torch.nn.functional
    m = torch.nn.MultiheadAttention(4, 2)
    m2 = torch.nn.MultiheadAttention(4, 2, kdim=3, vdim=5)
    x = r(3, 2, 4)
    zb = lambda *s: torch.zeros(*s, dtype=torch.bool)  # noqa: E731
    kw = dict(embed_dim_to_check=4, num_heads=2, in_proj_weight=m.in_proj_weight, in_proj_bias=m.in_proj_bias,
              bias_k=None, bias_v=None, add_zero_attn=False, dropout_p=0.0, out_proj_weight=m.out_proj.weight,
              out_proj_bias=m.out_proj.bias)
    fn = lambda **over: F.multi_head_attention_forward(x, x, x, **{**kw, **over})  # noqa: E731
    bkv = dict(bias_k=r(1, 1, 4), bias_v=r(1, 1, 4))
    sep = dict(use_separate_proj_weight=True, q_proj_weight=r(4, 4))
    A = AssertionError
    return [
        (lambda: torch.nn.MultiheadAttention(0, 2), ValueError,
         "embed_dim and num_heads must be greater than 0, got embed_dim=0 and num_heads=2 instead"),
        (lambda: torch.nn.MultiheadAttention(4, -1), ValueError,
         "embed_dim and num_heads must be greater than 0, got embed_dim=4 and num_heads=-1 instead"),
        (lambda: torch.nn.MultiheadAttention(5, 2), A, "embed_dim must be divisible by num_heads"),
        (lambda: m(r(3, 2, 2, 4), x, x), A, "query should be unbatched 2D or batched 3D tensor but received 4-D query "
                                            "tensor"),
        (lambda: m(r(4), r(4), r(4)), A, "query should be unbatched 2D or batched 3D tensor but received 1-D query "
                                         "tensor"),
        (lambda: m(x, r(3, 4), x), A, "For batched (3-D) `query`, expected `key` and `value` to be 3-D but found 2-D "
                                      "and 3-D tensors respectively"),
        (lambda: m(r(3, 4), r(3, 2, 4), r(3, 4)), A, "For unbatched (2-D) `query`, expected `key` and `value` to be "
                                                     "2-D but found 3-D and 2-D tensors respectively"),
        (lambda: m(x, x, x, key_padding_mask=zb(3)), A, "For batched (3-D) `query`, expected `key_padding_mask` to be "
                                                        "`None` or 2-D but found 1-D tensor instead"),
        (lambda: m(r(3, 4), r(3, 4), r(3, 4), key_padding_mask=zb(1, 3)), A,
         "For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D but found 2-D tensor instead"),
        (lambda: m(x, x, x, attn_mask=zb(3)), A, "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D "
                                                 "or 3-D but found 1-D tensor instead"),
        (lambda: m(r(3, 4), r(3, 4), r(3, 4), attn_mask=zb(1, 3, 3, 3)), A,
         "For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found 4-D tensor instead"),
        (lambda: m(r(3, 4), r(5, 4), r(5, 4), attn_mask=zb(2, 3, 4)), A,
         "Expected `attn_mask` shape to be (2, 3, 5) but got torch.Size([2, 3, 4])"),
        (lambda: m(x, x, x, attn_mask=torch.zeros(3, 3, dtype=torch.long)), A,
         "only bool and floating types of attn_mask are supported"),
        (lambda: m(x, x, x, key_padding_mask=torch.zeros(2, 3, dtype=torch.int32)), A,
         "only bool and floating types of key_padding_mask are supported"),
        (lambda: m(x, x, x, is_causal=True), RuntimeError,
         "Need attn_mask if specifying the is_causal hint. You may use the Transformer module method "
         "`generate_square_subsequent_mask` to create this mask."),
        (lambda: m(r(3, 2, 5), r(3, 2, 5), r(3, 2, 5)), A, "was expecting embedding dimension of 4, but got 5"),
        (lambda: m(x, r(3, 2, 4), r(4, 2, 4)), A,
         "key shape torch.Size([3, 2, 4]) does not match value shape torch.Size([4, 2, 4])"),
        (lambda: m2(x, r(3, 2, 3), r(4, 2, 5)), A,
         "key's sequence and batch dims torch.Size([3, 2]) do not match value's torch.Size([4, 2])"),
        (lambda: m(x, x, x, attn_mask=torch.zeros(3, 4)), RuntimeError,
         "The shape of the 2D attn_mask is torch.Size([3, 4]), but should be (3, 3)."),
        (lambda: m(x, x, x, attn_mask=torch.zeros(3, 3, 3)), RuntimeError,
         "The shape of the 3D attn_mask is torch.Size([3, 3, 3]), but should be (4, 3, 3)."),
        (lambda: m(x, x, x, key_padding_mask=zb(3, 3)), A, "Expected key_padded_mask.shape[0] to be 2, but got 3"),
        (lambda: m(x, x, x, key_padding_mask=zb(2, 4)), A, "Expected key_padded_mask.shape[1] to be 3, but got 4"),
        (lambda: m2(x, r(3, 2, 4), r(3, 2, 5)), A, "expecting key weights shape of (4, 4), but got torch.Size([4, 3])"),
        (lambda: m2(x, r(3, 2, 3), r(3, 2, 4)), A,
         "expecting value weights shape of (4, 4), but got torch.Size([4, 5])"),
        (lambda: fn(in_proj_weight=None), A, "use_separate_proj_weight is False but in_proj_weight is None"),
        (lambda: fn(bias_k=r(1, 1, 4)), A, "bias_k is set but bias_v is None"),
        (lambda: fn(bias_v=r(1, 1, 4)), A, "bias_v is set but bias_k is None"),
        (lambda: fn(**bkv, static_k=r(4, 3, 2)), A, "bias cannot be added to static key."),
        (lambda: fn(**bkv, static_v=r(4, 3, 2)), A, "bias cannot be added to static value."),
        (lambda: fn(static_k=r(3, 3, 2)), A, "expecting static_k.size(0) of 4, but got 3"),
        (lambda: fn(static_k=r(4, 3, 3)), A, "expecting static_k.size(2) of 2, but got 3"),
        (lambda: fn(static_v=r(5, 3, 2)), A, "expecting static_v.size(0) of 4, but got 5"),
        (lambda: fn(use_separate_proj_weight=True), A, "use_separate_proj_weight is True but q_proj_weight is None"),
        (lambda: fn(**sep), A, "use_separate_proj_weight is True but k_proj_weight is None"),
        (lambda: fn(**sep, k_proj_weight=r(4, 4), v_proj_weight=r(4, 4), in_proj_bias=r(6)), A,
         "expecting query bias shape of (4,), but got torch.Size([2])"),
        (lambda: fn(embed_dim_to_check=5), A, "was expecting embedding dimension of 5, but got 4"),
        (lambda: fn(num_heads=3), A, "embed_dim 4 not divisible by num_heads 3"),
    ]


N_MHA_ERRORS = 37


@pytest.mark.parametrize("case", range(N_MHA_ERRORS))
def test_multihead_attention_errors(case, torch):
    fn, exc, message = _mha_errors(torch)[case]
    _raises(torch, exc, message, fn)


def test_multihead_attention_is_unchanged_by_a_refused_call(torch):
    m = torch.nn.MultiheadAttention(4, 2, kdim=3, vdim=5)
    q, k, v = torch.randn(3, 2, 4), torch.randn(6, 2, 3), torch.randn(6, 2, 5)
    before = {name: t.clone() for name, t in m.state_dict().items()}
    expected = m(q, k, v)[0]
    with pytest.raises(RuntimeError):
        m(q, k, v, attn_mask=torch.zeros(3, 5))
    with pytest.raises(AssertionError):
        m(q, k, v, key_padding_mask=torch.zeros(2, 6, dtype=torch.int64))
    assert all(torch.equal(t, before[name]) for name, t in m.state_dict().items())
    assert torch.equal(m(q, k, v)[0], expected)


def test_multihead_attention_static_key_value_match_torch(real_torch):
    real_torch.manual_seed(0)
    state_dict = {k: v.detach().numpy() for k, v in real_torch.nn.MultiheadAttention(4, 2).state_dict().items()}
    rng = np.random.default_rng(5)
    arrays = [rng.standard_normal(s) for s in ((3, 2, 4), (4, 6, 2), (4, 6, 2))]

    def run(T):
        m = T.nn.MultiheadAttention(4, 2).double()
        m.load_state_dict({k: T.tensor(v) for k, v in state_dict.items()})
        x, sk, sv = (T.tensor(a, requires_grad=True) for a in arrays)
        out, weights = T.nn.functional.multi_head_attention_forward(
            x, x, x, 4, 2, m.in_proj_weight, m.in_proj_bias, None, None, True, 0.0, m.out_proj.weight,
            m.out_proj.bias, static_k=sk, static_v=sv)
        grads = T.autograd.grad(_loss(T, [out, weights]), [x, sk, sv])
        return [out.detach().numpy(), weights.detach().numpy()] + [g.numpy() for g in grads]
    _compare(run(ft), run(real_torch), TOL["float64"])


# --------------------------------------------------------------------------------- Transformer

D_MODEL, NHEAD, FF = 8, 2, 12


def _build(T, cls, kwargs):
    """One module of `cls` with dropout 0 (an activation named "tanh-module" is T.nn.Tanh())."""
    kwargs = dict(kwargs)
    if kwargs.get("activation") == "tanh-module":
        kwargs["activation"] = T.nn.Tanh()
    if kwargs.get("activation") == "silu-fn":
        kwargs["activation"] = T.nn.functional.silu
    layer_kwargs = {k: v for k, v in kwargs.items() if k not in ("num_layers", "norm")}
    if cls == "Transformer":
        return T.nn.Transformer(D_MODEL, NHEAD, 2, 2, FF, 0.0, **layer_kwargs)
    if cls in ("TransformerEncoder", "TransformerDecoder"):
        layer = getattr(T.nn, cls + "Layer")(D_MODEL, NHEAD, FF, 0.0, **layer_kwargs)
        norm = T.nn.LayerNorm(D_MODEL) if kwargs.get("norm") else None
        return getattr(T.nn, cls)(layer, kwargs.get("num_layers", 2), norm)
    return getattr(T.nn, cls)(D_MODEL, NHEAD, FF, 0.0, **layer_kwargs)


def _causal(n, kind):
    m = np.triu(np.ones((n, n), dtype=bool), 1)
    return m if kind == "bool" else np.where(m, -np.inf, 0.0)


# name: (class, constructor keyword arguments, forward keyword arguments as mask specs)
# masks: "causal-bool" / "causal-float" (n, n); "pad" a bool key padding mask of the source/target
TRANSFORMER_CASES = {
    "enc-layer": ("TransformerEncoderLayer", {}, {}),
    "enc-layer-norm-first-gelu": ("TransformerEncoderLayer", {"norm_first": True, "activation": "gelu"},
                                  {"src_mask": "causal-float"}),
    "enc-layer-masks-bf": ("TransformerEncoderLayer", {"batch_first": True},
                           {"src_mask": "causal-bool", "src_key_padding_mask": "pad"}),
    "enc-layer-causal-flag": ("TransformerEncoderLayer", {"activation": "tanh-module"},
                              {"src_mask": "causal-float", "is_causal": True}),
    "enc-layer-no-bias": ("TransformerEncoderLayer", {"bias": False, "layer_norm_eps": 1e-3},
                          {"src_key_padding_mask": "pad"}),
    "enc-layer-unbatched": ("TransformerEncoderLayer", {"activation": "silu-fn"}, {"src_mask": "causal-bool"}),
    "encoder": ("TransformerEncoder", {"norm": True}, {"mask": "causal-float", "src_key_padding_mask": "pad"}),
    "encoder-detects-causal": ("TransformerEncoder", {"batch_first": True}, {"mask": "causal-float"}),
    "encoder-norm-first-3": ("TransformerEncoder", {"norm_first": True, "num_layers": 3, "norm": True},
                             {"mask": "causal-bool", "is_causal": True}),
    "dec-layer": ("TransformerDecoderLayer", {}, {"tgt_mask": "causal-float"}),
    "dec-layer-all-masks-bf": ("TransformerDecoderLayer", {"batch_first": True, "norm_first": True},
                               {"tgt_mask": "causal-bool", "tgt_key_padding_mask": "pad",
                                "memory_key_padding_mask": "pad", "memory_mask": "float"}),
    "dec-layer-causal-flags": ("TransformerDecoderLayer", {"activation": "gelu"},
                               {"tgt_mask": "causal-float", "tgt_is_causal": True}),
    "decoder": ("TransformerDecoder", {"norm": True}, {"tgt_mask": "causal-bool", "memory_key_padding_mask": "pad"}),
    "decoder-unbatched": ("TransformerDecoder", {"bias": False}, {"tgt_mask": "causal-float"}),
    "transformer": ("Transformer", {}, {"tgt_mask": "causal-float", "src_key_padding_mask": "pad",
                                        "memory_key_padding_mask": "pad"}),
    "transformer-bf-norm-first": ("Transformer", {"batch_first": True, "norm_first": True, "activation": "gelu"},
                                  {"src_mask": "causal-bool", "tgt_mask": "causal-bool", "tgt_is_causal": True}),
    "transformer-unbatched": ("Transformer", {}, {"memory_mask": "float"}),
}
SRC_LEN, TGT_LEN, BATCH = 5, 4, 3


def _transformer_inputs(cls, ctor, fwd, name, rng):
    """The input arrays (source / target / memory) and mask arrays of a case."""
    batched = not name.endswith("unbatched")

    def seq(n):
        lead = ((BATCH, n) if ctor.get("batch_first") else (n, BATCH)) if batched else (n,)
        return rng.standard_normal(lead + (D_MODEL,))
    if cls == "Transformer":
        arrays = {"src": seq(SRC_LEN), "tgt": seq(TGT_LEN)}
    elif cls.startswith("TransformerDecoder"):
        arrays = {"tgt": seq(TGT_LEN), "memory": seq(SRC_LEN)}
    else:
        arrays = {"src": seq(SRC_LEN)}
    masks, flags = {}, {}
    for key, spec in fwd.items():
        n = TGT_LEN if key.startswith("tgt") else SRC_LEN
        if not isinstance(spec, str):
            flags[key] = spec
        elif spec.startswith("causal"):
            masks[key] = _causal(n, spec.split("-")[1])
        elif spec == "float":   # memory_mask: (target, source)
            masks[key] = rng.standard_normal((TGT_LEN, SRC_LEN))
        else:
            masks[key] = rng.random((BATCH, n) if batched else (n,)) < 0.3
            masks[key][..., 0] = False
    return arrays, masks, flags


def _run_transformer(T, cls, ctor, state_dict, dtype, arrays, masks, flags, train=True):
    m = _build(T, cls, ctor).to(getattr(T, dtype))
    m.load_state_dict({k: T.tensor(v.astype(dtype)) for k, v in state_dict.items()})
    m.train(train)
    inputs = {k: T.tensor(v.astype(dtype), requires_grad=True) for k, v in arrays.items()}
    kw = {k: T.tensor(v if v.dtype == np.bool_ else v.astype(dtype)) for k, v in masks.items()}
    out = m(*inputs.values(), **kw, **flags)
    params = dict(m.named_parameters())
    leaves = list(inputs.values()) + list(params.values())
    grads = T.autograd.grad(_loss(T, [out]), leaves)
    return [out.detach().numpy()] + [(name, g.numpy()) for name, g in zip(list(inputs) + list(params), grads)]


@pytest.mark.filterwarnings("ignore:enable_nested_tensor is True", "ignore:Support for mismatched")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(TRANSFORMER_CASES))
def test_transformer_layers_match_torch(name, dtype, real_torch):
    cls, ctor, fwd = TRANSFORMER_CASES[name]
    real_torch.manual_seed(0)
    state_dict = {k: v.detach().numpy() for k, v in _build(real_torch, cls, ctor).state_dict().items()}
    arrays, masks, flags = _transformer_inputs(cls, ctor, fwd, name, np.random.default_rng(6))
    a = _run_transformer(ft, cls, ctor, state_dict, dtype, arrays, masks, flags)
    b = _run_transformer(real_torch, cls, ctor, state_dict, dtype, arrays, masks, flags)
    _compare(a, b, TOL[dtype] * (10 if dtype == "float32" else 1))


@pytest.mark.parametrize("case", ["aligned", "not-aligned", "float-pad", "layer", "transformer", "grad",
                                  "fastpath-off"])
def test_transformer_inference_matches_torch_fused_paths(case, real_torch):
    """Evaluation without gradients: PyTorch's fused encoder layer and, with a left-aligned padding
    mask, its nested-tensor encoder, which leaves zeros at the padded positions."""
    ctor = {"batch_first": True}
    cls = {"layer": "TransformerEncoderLayer", "transformer": "Transformer"}.get(case, "TransformerEncoder")
    real_torch.manual_seed(0)
    state_dict = {k: v.detach().numpy() for k, v in _build(real_torch, cls, dict(ctor, norm=True)).state_dict().items()}
    rng = np.random.default_rng(7)
    src = rng.standard_normal((BATCH, SRC_LEN, D_MODEL)).astype("float32")
    keep = np.array([SRC_LEN, 3, 1])[:, None] > np.arange(SRC_LEN)
    if case == "not-aligned":
        keep[1, 1] = False
    pad = ~keep
    if case == "float-pad":
        pad = np.where(pad, -1.0, 0.0).astype("float32")   # any nonzero entry pads on the nested path
    res = []
    for T in (ft, real_torch):
        m = _build(T, cls, dict(ctor, norm=True)).eval()
        m.load_state_dict({k: T.tensor(v) for k, v in state_dict.items()})
        args = (T.tensor(src),) + ((T.tensor(src[:, :TGT_LEN]),) if cls == "Transformer" else ())
        key = "src_key_padding_mask"
        T.backends.mha.set_fastpath_enabled(case != "fastpath-off")
        try:
            with T.set_grad_enabled(case == "grad"):
                res.append(m(*args, **{key: T.tensor(pad)}).detach().numpy())
        finally:
            T.backends.mha.set_fastpath_enabled(True)
    _compare(res[:1], res[1:], 5 * TOL["float32"])


def test_mha_fastpath_switch(torch):
    assert torch.backends.mha.get_fastpath_enabled() is True
    torch.backends.mha.set_fastpath_enabled(False)
    try:
        assert torch.backends.mha.get_fastpath_enabled() is False
    finally:
        torch.backends.mha.set_fastpath_enabled(True)
    assert torch.backends.mha.get_fastpath_enabled() is True


def test_generate_square_subsequent_mask_matches_torch(torch):
    mask = torch.nn.Transformer.generate_square_subsequent_mask(3)
    assert mask.dtype == torch.float32 and mask.tolist() == [[0.0, -np.inf, -np.inf], [0.0, 0.0, -np.inf],
                                                             [0.0, 0.0, 0.0]]
    assert torch.nn.Transformer.generate_square_subsequent_mask(2, dtype=torch.float64).dtype == torch.float64
    assert torch.nn.Transformer.generate_square_subsequent_mask(2, dtype=torch.bool).tolist() == [[False, True],
                                                                                                  [False, False]]
    assert torch.nn.Transformer(8, 2, 1, 1, 8).generate_square_subsequent_mask(1, device="cpu").tolist() == [[0.0]]


def _built_with_warnings(T, cls, kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = _build(T, cls, kwargs)
    return module, [(w.category, str(w.message)) for w in caught]


@pytest.mark.parametrize("cls, kwargs", [
    ("Transformer", {"bias": False, "norm_first": True}), ("Transformer", {"batch_first": True}),
    ("TransformerEncoder", {"norm": True}), ("TransformerEncoder", {"batch_first": True, "activation": "gelu"}),
    ("TransformerEncoder", {"batch_first": True, "activation": "tanh-module"}),
    ("TransformerEncoder", {"batch_first": True, "bias": False}), ("TransformerDecoder", {"num_layers": 3}),
    ("TransformerDecoderLayer", {"activation": "gelu", "layer_norm_eps": 1e-3}),
])
def test_transformer_structure_and_warnings_match_torch(cls, kwargs, real_torch):
    ours, our_warnings = _built_with_warnings(ft, cls, kwargs)
    theirs, their_warnings = _built_with_warnings(real_torch, cls, kwargs)
    assert our_warnings == their_warnings
    assert repr(ours) == repr(theirs)
    assert [(k, tuple(v.shape)) for k, v in ours.state_dict().items()] == [
        (k, tuple(v.shape)) for k, v in theirs.state_dict().items()]


def test_transformer_takes_custom_encoder_and_decoder(torch):
    encoder = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(4, 2, 8), 1)
    decoder = torch.nn.TransformerDecoder(torch.nn.TransformerDecoderLayer(4, 2, 8), 1)
    model = torch.nn.Transformer(4, 2, dim_feedforward=8, custom_encoder=encoder, custom_decoder=decoder)
    assert model.encoder is encoder and model.decoder is decoder and encoder.norm is None
    assert (model.d_model, model.nhead, model.batch_first) == (4, 2, False)
    assert tuple(model(torch.randn(3, 2, 4), torch.randn(5, 2, 4)).shape) == (5, 2, 4)


def test_transformer_encoder_nested_tensor_warnings(torch):
    def warned(layer, **kwargs):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            encoder = torch.nn.TransformerEncoder(layer, 1, **kwargs)
        return encoder.use_nested_tensor, [str(w.message) for w in caught]
    prefix = "enable_nested_tensor is True, but self.use_nested_tensor is False because encoder_layer."
    layer = torch.nn.TransformerEncoderLayer(4, 2, 8, batch_first=True)
    assert warned(layer) == (True, [])
    assert warned(layer, enable_nested_tensor=False) == (False, [])
    odd = torch.nn.TransformerEncoderLayer(3, 3, 8, batch_first=True)
    assert warned(odd) == (False, [prefix + "self_attn.num_heads is odd"])
    eps = torch.nn.TransformerEncoderLayer(4, 2, 8, batch_first=True)
    eps.norm2.eps = 1e-3
    assert warned(eps) == (False, [prefix + "norm1.eps was not equal to encoder_layer.norm2.eps"])
    assert warned(torch.nn.TransformerDecoderLayer(4, 2, 8)) == (
        False, ["enable_nested_tensor is True, but self.use_nested_tensor is False because encoder_layer was not "
                "TransformerEncoderLayer"])


def test_transformer_activation_kinds(torch):
    layer = torch.nn.TransformerEncoderLayer
    assert layer(4, 2).activation_relu_or_gelu == 1 and layer(4, 2).activation is torch.nn.functional.relu
    assert layer(4, 2, activation="gelu").activation is torch.nn.functional.gelu
    assert layer(4, 2, activation=torch.nn.GELU()).activation_relu_or_gelu == 2
    assert layer(4, 2, activation=torch.tanh).activation_relu_or_gelu == 0
    assert isinstance(layer(4, 2, activation=torch.nn.ReLU()).activation, torch.nn.ReLU)
    assert torch.nn.TransformerDecoderLayer(4, 2, activation="relu").activation is torch.nn.functional.relu


def _transformer_errors(torch):
    r = torch.randn
    model = torch.nn.Transformer(4, 2, 1, 1, 8)
    model_bf = torch.nn.Transformer(4, 2, 1, 1, 8, batch_first=True)
    return [
        (lambda: torch.nn.TransformerEncoderLayer(4, 2, activation="tanh"), RuntimeError,
         "activation should be relu/gelu, not tanh"),
        (lambda: torch.nn.TransformerDecoderLayer(4, 2, activation="silu"), RuntimeError,
         "activation should be relu/gelu, not silu"),
        (lambda: torch.nn.Transformer(4, 2, 1, 1, 8, activation="elu"), RuntimeError,
         "activation should be relu/gelu, not elu"),
        (lambda: model(r(3, 2, 4), r(5, 3, 4)), RuntimeError, "the batch number of src and tgt must be equal"),
        (lambda: model_bf(r(2, 3, 4), r(3, 3, 4)), RuntimeError, "the batch number of src and tgt must be equal"),
        (lambda: model(r(3, 2, 4), r(5, 2, 6)), RuntimeError,
         "the feature number of src and tgt must be equal to d_model"),
        (lambda: model(r(3, 6), r(5, 4)), RuntimeError, "the feature number of src and tgt must be equal to d_model"),
        (lambda: model.encoder(r(3, 2, 4), src_key_padding_mask=torch.zeros(2, 3, dtype=torch.int64)),
         AssertionError, "only bool and floating types of src_key_padding_mask are supported"),
        (lambda: model.encoder.layers[0](r(3, 2, 4), src_mask=torch.zeros(3, 3, dtype=torch.int64)),
         AssertionError, "only bool and floating types of src_mask are supported"),
        (lambda: model.decoder(r(3, 2, 4), r(5, 2, 4), tgt_mask=torch.zeros(3, 3, dtype=torch.int64)),
         RuntimeError, "value cannot be converted to type int64_t without overflow"),
        (lambda: model.decoder(r(3, 2, 4), r(5, 2, 4), tgt_mask=torch.zeros(3, 3, dtype=torch.int64),
                               tgt_is_causal=False),
         AssertionError, "only bool and floating types of attn_mask are supported"),
        (lambda: torch.nn.Transformer.generate_square_subsequent_mask(2, dtype=torch.int32), RuntimeError,
         "value cannot be converted to type int without overflow"),
        (lambda: torch.nn.Transformer.generate_square_subsequent_mask(2, dtype=torch.uint8), RuntimeError,
         "value cannot be converted to type uint8_t without overflow"),
    ]


N_TRANSFORMER_ERRORS = 13


@pytest.mark.filterwarnings("ignore:enable_nested_tensor is True")
@pytest.mark.parametrize("case", range(N_TRANSFORMER_ERRORS))
def test_transformer_errors(case, torch):
    fn, exc, message = _transformer_errors(torch)[case]
    _raises(torch, exc, message, fn)


def test_error_tables_are_fully_parametrized():
    assert len(_sdpa_errors(ft)) == N_SDPA_ERRORS and len(_mha_errors(ft)) == N_MHA_ERRORS
    assert len(_transformer_errors(ft)) == N_TRANSFORMER_ERRORS


@pytest.mark.parametrize("need_weights", [True, False])
def test_multihead_attention_dropout_only_in_training(need_weights, torch):
    torch.manual_seed(0)
    m = torch.nn.MultiheadAttention(8, 2, dropout=0.5)
    x = torch.randn(4, 3, 8)
    first, second = (m(x, x, x, need_weights=need_weights)[0] for _ in range(2))
    assert not torch.allclose(first, second)
    m.eval()
    assert torch.equal(m(x, x, x, need_weights=need_weights)[0], m(x, x, x, need_weights=need_weights)[0])


def test_transformer_dropout_only_in_training(torch):
    torch.manual_seed(0)
    layer = torch.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.3)
    tgt, memory = torch.randn(4, 3, 8), torch.randn(5, 3, 8)
    assert not torch.allclose(layer(tgt, memory), layer(tgt, memory))
    layer.eval()
    assert torch.equal(layer(tgt, memory), layer(tgt, memory))


def test_multihead_attention_second_derivatives_match_torch(real_torch):
    real_torch.manual_seed(0)
    state_dict = {k: v.detach().numpy() for k, v in real_torch.nn.MultiheadAttention(4, 2, kdim=3).state_dict().items()}
    rng = np.random.default_rng(8)
    arrays = [rng.standard_normal(s) for s in ((3, 2, 4), (5, 2, 3), (5, 2, 4))]

    def run(T):
        m = T.nn.MultiheadAttention(4, 2, kdim=3).double()
        m.load_state_dict({k: T.tensor(v) for k, v in state_dict.items()})
        q, k, v = (T.tensor(a, requires_grad=True) for a in arrays)
        out, weights = m(q, k, v)
        leaves = [q, k, v, m.q_proj_weight, m.in_proj_bias]
        grads = T.autograd.grad((out ** 2).sum() + (weights ** 2).sum(), leaves, create_graph=True)
        second = T.autograd.grad(sum((g ** 2).sum() for g in grads), leaves)
        return [g.detach().numpy() for g in grads] + [g.numpy() for g in second]
    _compare(run(ft), run(real_torch), 1e-9)


def test_attention_modules_save_and_load_whole(torch, tmp_path):
    torch.manual_seed(0)
    model = torch.nn.Transformer(8, 2, 1, 1, 16, 0.0, batch_first=True, activation="gelu")
    torch.save(model, tmp_path / "model.pt")
    loaded = torch.load(tmp_path / "model.pt", weights_only=False)
    assert type(loaded.encoder.layers[0].self_attn.out_proj).__name__ == "NonDynamicallyQuantizableLinear"
    assert loaded.encoder.layers[0].activation is torch.nn.functional.gelu
    src, tgt = torch.randn(2, 5, 8), torch.randn(2, 3, 8)
    assert torch.equal(loaded(src, tgt), model(src, tgt))


@pytest.mark.filterwarnings("ignore:invalid value encountered")
@pytest.mark.parametrize("need_weights", [True, False])
def test_multihead_attention_fully_padded_sequence_matches_torch(need_weights, real_torch):
    """A sequence with every key padded: NaN through the explicit softmax (need_weights), zeros
    through scaled_dot_product_attention, as in PyTorch."""
    rng = np.random.default_rng(9)
    real_torch.manual_seed(0)
    state_dict = {k: rng.standard_normal(tuple(v.shape)) for k, v in
                  real_torch.nn.MultiheadAttention(4, 2).state_dict().items()}
    x = rng.standard_normal((3, 2, 4))
    kpm = np.array([[False, False, True], [True, True, True]])

    def run(T):
        m = T.nn.MultiheadAttention(4, 2).double()
        m.load_state_dict({k: T.tensor(v) for k, v in state_dict.items()})
        xt = T.tensor(x, requires_grad=True)
        out, weights = m(xt, xt, xt, key_padding_mask=T.tensor(kpm), need_weights=need_weights)
        out.sum().backward()
        return [out.detach().numpy(), None if weights is None else weights.detach().numpy(), xt.grad.numpy()]
    ours, theirs = run(ft), run(real_torch)
    _compare(ours, theirs, TOL["float64"])
    assert np.isnan(ours[0]).any() == need_weights
