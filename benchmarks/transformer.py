"""An attention workload: one post-norm `nn.TransformerEncoderLayer` (ReLU feed-forward, no
dropout, batch first) under a causal mask, forward + backward, float32:

    a = softmax(q k^T / sqrt(d_head) + causal) v      per head, q k v = x W_in^T + b_in
    h = LayerNorm1(x + a W_o^T + b_o),  out = LayerNorm2(h + relu(h W_1^T + b_1) W_2^T + b_2)
    loss = sum |out - y|^2

torch and flowgrad run the layer itself, hand-written NumPy the forward and the backward. Reported
apart from the targeted workloads (its own heading, no target)."""
from __future__ import annotations

import numpy as np

from .harness import Workload, frozen

PARAMS = ("self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight",
          "self_attn.out_proj.bias", "linear1.weight", "linear1.bias", "linear2.weight", "linear2.bias",
          "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias")
EPS = 1e-5


def _layer_norm(z, g, b):
    mu = z.mean(-1, keepdims=True)
    rstd = 1.0 / np.sqrt(((z - mu) ** 2).mean(-1, keepdims=True) + EPS)
    zhat = (z - mu) * rstd
    return zhat * g + b, (zhat, rstd)


def _layer_norm_back(dout, g, saved):
    zhat, rstd = saved
    dzhat = dout * g
    dz = rstd * (dzhat - dzhat.mean(-1, keepdims=True) - zhat * (dzhat * zhat).mean(-1, keepdims=True))
    return dz, (dout * zhat).sum((0, 1)), dout.sum((0, 1))


def _flat(a):
    return a.reshape(-1, a.shape[-1])


class EncoderLayerStep(Workload):
    name = "transformer"
    title = "Transformer encoder layer: d_model 32, 2 heads, ff 64, batch 8, seq 16, causal, fwd+bwd, float32"
    section = "Attention"
    unit = "ms"
    rtol, atol = 1e-3, 1e-5
    sizes = {"full": dict(batch=8, seq=16, d_model=32, heads=2, ff=64),
             "quick": dict(batch=8, seq=16, d_model=32, heads=2, ff=64),
             "tiny": dict(batch=2, seq=3, d_model=4, heads=2, ff=6)}

    def data(self, batch, seq, d_model, heads, ff):
        rng = np.random.default_rng(11)
        f32 = np.float32

        def uniform(shape, fan_in):
            bound = 1 / np.sqrt(fan_in)
            return rng.uniform(-bound, bound, shape).astype(f32)
        params = [uniform((3 * d_model, d_model), d_model), uniform((3 * d_model,), d_model),
                  uniform((d_model, d_model), d_model), uniform((d_model,), d_model),
                  uniform((ff, d_model), d_model), uniform((ff,), d_model),
                  uniform((d_model, ff), ff), uniform((d_model,), ff)]
        params += [(1 + 0.1 * rng.standard_normal(d_model)).astype(f32), (0.1 * rng.standard_normal(d_model)).astype(f32),
                   (1 + 0.1 * rng.standard_normal(d_model)).astype(f32), (0.1 * rng.standard_normal(d_model)).astype(f32)]
        return frozen({"x": rng.standard_normal((batch, seq, d_model)).astype(f32),
                       "y": rng.standard_normal((batch, seq, d_model)).astype(f32), "params": params,
                       "heads": heads, "ff": ff})

    def impl_numpy(self, d):
        x, y, heads = d["x"], d["y"], d["heads"]
        w_in, b_in, w_o, b_o, w_1, b_1, w_2, b_2, g_1, c_1, g_2, c_2 = d["params"]
        batch, seq, d_model = x.shape
        hd = d_model // heads
        scale = x.dtype.type(1 / np.sqrt(hd))
        causal = np.triu(np.full((seq, seq), -np.inf, np.float32), 1)

        def split(a):                          # (B, T, D) -> (B, H, T, hd)
            return a.reshape(batch, seq, heads, hd).transpose(0, 2, 1, 3)

        def merge(a):
            return a.transpose(0, 2, 1, 3).reshape(batch, seq, d_model)

        def step():
            q, k, v = (split(t) for t in np.split(x @ w_in.T + b_in, 3, axis=-1))
            s = q @ k.transpose(0, 1, 3, 2) * scale + causal
            p = np.exp(s - s.max(-1, keepdims=True))
            p /= p.sum(-1, keepdims=True)
            o = merge(p @ v)
            h, ln1 = _layer_norm(x + o @ w_o.T + b_o, g_1, c_1)
            a1 = h @ w_1.T + b_1
            r = np.maximum(a1, 0)
            out, ln2 = _layer_norm(h + r @ w_2.T + b_2, g_2, c_2)

            dz2, dg_2, dc_2 = _layer_norm_back(2 * (out - y), g_2, ln2)
            dw_2, db_2 = _flat(dz2).T @ _flat(r), dz2.sum((0, 1))
            da1 = (dz2 @ w_2) * (a1 > 0)
            dw_1, db_1 = _flat(da1).T @ _flat(h), da1.sum((0, 1))
            dz1, dg_1, dc_1 = _layer_norm_back(dz2 + da1 @ w_1, g_1, ln1)
            dw_o, db_o = _flat(dz1).T @ _flat(o), dz1.sum((0, 1))
            do = split(dz1 @ w_o)
            dp = do @ v.transpose(0, 1, 3, 2)
            ds = p * (dp - (dp * p).sum(-1, keepdims=True)) * scale
            dqkv = np.concatenate([merge(ds @ k), merge(ds.transpose(0, 1, 3, 2) @ q),
                                   merge(p.transpose(0, 1, 3, 2) @ do)], axis=-1)
            dw_in, db_in = _flat(dqkv).T @ _flat(x), dqkv.sum((0, 1))
            return [dw_in, db_in, dw_o, db_o, dw_1, db_1, dw_2, db_2, dg_1, dc_1, dg_2, dc_2]
        return step

    def torchlike(self, torch, d):
        d_model = d["x"].shape[-1]
        layer = torch.nn.TransformerEncoderLayer(d_model, d["heads"], d["ff"], dropout=0.0, batch_first=True)
        layer.load_state_dict({name: torch.from_numpy(a.copy()) for name, a in zip(PARAMS, d["params"])})
        named = dict(layer.named_parameters())
        params = [named[name] for name in PARAMS]
        x, y = torch.from_numpy(d["x"].copy()), torch.from_numpy(d["y"].copy())
        mask = torch.nn.Transformer.generate_square_subsequent_mask(x.shape[1])

        def step():
            for p in params:
                p.grad = None
            out = layer(x, src_mask=mask)
            ((out - y) ** 2).sum().backward()
            return [p.grad for p in params]
        return step


WORKLOADS = [EncoderLayerStep()]
