"""paddle.nn.MultiHeadAttention and TransformerEncoderLayer against real paddle with equal
weights: outputs, attention weights, input and parameter gradients, parameter names and shapes."""
from __future__ import annotations

import re

import numpy as np
import pytest

RNG = np.random.default_rng(5)
Q = RNG.standard_normal((2, 4, 8)).astype(np.float32)
KV = RNG.standard_normal((2, 3, 6)).astype(np.float32)
BOOL_MASK = np.array([[True, True, False], [True, False, True], [True, True, True], [False, True, True]])
FLOAT_MASK = np.where(np.tril(np.ones((4, 4))) > 0, 0.0, -np.inf).astype(np.float32)

CASES = {
    "mha_self": (lambda nn: nn.MultiHeadAttention(8, 2, need_weights=True), lambda p: (p.to_tensor(Q),), {}),
    "mha_kv_bool_mask": (lambda nn: nn.MultiHeadAttention(8, 4, kdim=6, vdim=6),
                         lambda p: (p.to_tensor(Q), p.to_tensor(KV), p.to_tensor(KV)),
                         {"attn_mask": BOOL_MASK}),
    "encoder_post_norm": (lambda nn: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), lambda p: (p.to_tensor(Q),),
                          {"src_mask": FLOAT_MASK}),
    "encoder_pre_norm_gelu": (lambda nn: nn.TransformerEncoderLayer(8, 4, 12, dropout=0.0, activation="gelu",
                                                                    normalize_before=True),
                              lambda p: (p.to_tensor(Q),), {}),
    "encoder_stack_pre_norm": (lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(
        8, 2, 12, dropout=0.0, activation="gelu", normalize_before=True), 2, norm=nn.LayerNorm(8)),
        lambda p: (p.to_tensor(Q),), {"src_mask": FLOAT_MASK}),
    "encoder_stack_post_norm_bool_mask": (lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(
        8, 4, 16, dropout=0.0), 3), lambda p: (p.to_tensor(Q),), {"src_mask": np.tril(np.ones((4, 4))) > 0}),
}


def _run(paddle, name, weights=None):
    make, inputs, kwargs = CASES[name]
    layer = make(paddle.nn)
    params = dict(layer.named_parameters())
    if weights is None:
        weights = {k: np.linspace(-0.5, 0.5, int(np.prod(p.shape)), dtype=np.float32).reshape(p.shape)
                   * (1 + 0.1 * i) for i, (k, p) in enumerate(params.items())}
    for k, v in weights.items():
        params[k].set_value(v)
    args = list(inputs(paddle))
    for a in args:
        a.stop_gradient = False
    kw = {k: paddle.to_tensor(v) for k, v in kwargs.items()}
    out = layer(*args, **kw)
    outs = list(out) if isinstance(out, tuple) else [out]
    sum((o * o).sum() for o in outs).backward()
    return (weights, [o.numpy() for o in outs], [a.grad.numpy() for a in args],
            {k: p.grad.numpy() for k, p in params.items()}, {k: list(p.shape) for k, p in params.items()})


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_real_paddle(fpaddle, real_paddle, name):
    got = _run(fpaddle, name)
    want = _run(real_paddle, name, got[0])
    assert got[4] == want[4]
    for g, w in zip(got[1] + got[2], want[1] + want[2]):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)
    scale = max(float(np.abs(w).max()) for w in want[3].values())  # k_proj.bias's is 0 up to float32 noise
    for k in want[3]:
        np.testing.assert_allclose(got[3][k], want[3][k], rtol=1e-4, atol=1e-5 * scale + 1e-5, err_msg=k)


def test_structure_and_errors(paddle):
    layer = paddle.nn.TransformerEncoderLayer(8, 2, 16)
    assert [n for n, _ in layer.named_sublayers()] == ["self_attn", "self_attn.q_proj", "self_attn.k_proj",
                                                       "self_attn.v_proj", "self_attn.out_proj", "linear1", "dropout",
                                                       "linear2", "norm1", "norm2", "dropout1", "dropout2"]
    with pytest.raises(AssertionError, match=re.escape("embed_dim must be divisible by num_heads")):
        paddle.nn.MultiHeadAttention(8, 3)
    with pytest.raises(AssertionError, match=re.escape("Expected num_heads to be greater than 0, but received 0")):
        paddle.nn.MultiHeadAttention(8, 0)


def _weights(layer):
    return {k: np.linspace(-0.5, 0.5, int(np.prod(p.shape)), dtype=np.float32).reshape(p.shape) * (1 + 0.1 * i)
            for i, (k, p) in enumerate(layer.named_parameters())}


def _decode(paddle, kind):
    """Two incremental steps through a Cache (or one through a StaticCache): outputs, cache shapes,
    the query's gradient."""
    layer = (paddle.nn.MultiHeadAttention(8, 2, need_weights=kind == "weights")
             if kind != "encoder" else paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0))
    for k, v in _weights(layer).items():
        dict(layer.named_parameters())[k].set_value(v)
    q = paddle.to_tensor(Q, stop_gradient=False)
    results = []
    if kind == "static":
        cache = layer.gen_cache(paddle.to_tensor(Q[:, :3]), paddle.to_tensor(Q[:, 1:]), type=layer.StaticCache)
        out, cache2 = layer(q, cache=cache)
        assert type(cache2).__name__ == "StaticCache" and cache2 is cache
        results += [out.numpy(), list(cache.k.shape)]
    else:
        cache = layer.gen_cache(q)
        assert type(cache).__name__ == "Cache" and list(cache.k.shape) == [2, 2, 0, 4]
        out = None
        for t in range(2):
            step = layer(q[:, t:t + 1], cache=cache)
            out, cache = step[0], step[-1]
            if kind == "weights":
                results.append(list(step[1].shape))
            results += [out.numpy(), list(cache.k.shape), list(cache.v.shape)]
    (out * out).sum().backward()
    return results + [q.grad.numpy()]


@pytest.mark.parametrize("kind", ["cache", "weights", "static", "encoder"])
def test_cache_matches_real_paddle(fpaddle, real_paddle, kind):
    for g, w in zip(_decode(fpaddle, kind), _decode(real_paddle, kind)):
        if isinstance(w, np.ndarray):
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)
        else:
            assert g == w


def test_gen_cache_of_given_tensors(paddle):
    mha = paddle.nn.MultiHeadAttention(8, 2)
    k, v = paddle.ones([2, 2, 3, 4]), paddle.zeros([2, 2, 3, 4])
    cache = mha.gen_cache(k, v)
    assert isinstance(cache, mha.Cache) and cache.k is k and cache.v is v
    out, grown = mha(paddle.to_tensor(Q), cache=cache)
    assert list(grown.k.shape) == [2, 2, 7, 4] and list(out.shape) == [2, 4, 8]


def test_encoder_stacks_its_layer_and_fresh_ones(paddle):
    """The first layer is the one given; the others are new layers of its configuration, with their
    own parameters (own names, own initial values)."""
    paddle.seed(3)
    layer = paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
    encoder = paddle.nn.TransformerEncoder(layer, 3)
    assert encoder.layers[0] is layer and len(encoder.layers) == 3 and encoder.num_layers == 3
    assert encoder.norm is None and type(encoder.layers[2]) is type(layer)
    names = [n for n, _ in encoder.named_parameters()]
    assert names[:2] == ["layers.0.self_attn.q_proj.weight", "layers.0.self_attn.q_proj.bias"] and len(names) == 48
    first, second = (dict(encoder.layers[i].named_parameters()) for i in (0, 1))
    assert not np.array_equal(first["linear1.weight"].numpy(), second["linear1.weight"].numpy())
    assert first["linear1.weight"].name != second["linear1.weight"].name
    assert [type(c).__name__ for c in encoder.gen_cache(paddle.to_tensor(Q))] == ["Cache"] * 3


def test_encoder_decodes_through_its_caches(fpaddle, real_paddle):
    outs = []
    for paddle in (fpaddle, real_paddle):
        encoder = paddle.nn.TransformerEncoder(paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2)
        for k, v in _weights(encoder).items():
            dict(encoder.named_parameters())[k].set_value(v)
        cache = encoder.gen_cache(paddle.to_tensor(Q))
        first, cache = encoder(paddle.to_tensor(Q[:, :1]), cache=cache)
        second, cache = encoder(paddle.to_tensor(Q[:, 1:2]), cache=cache)
        outs.append([first.numpy(), second.numpy(), [list(c.k.shape) for c in cache]])
    np.testing.assert_allclose(outs[0][0], outs[1][0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[0][1], outs[1][1], rtol=1e-5, atol=1e-6)
    assert outs[0][2] == outs[1][2] == [[2, 2, 2, 4]] * 2
