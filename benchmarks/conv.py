"""A ResNet-ish small conv net training step (forward + backward), float32:

    x -> conv3x3(3->C) -> relu = h1 -> conv3x3 -> relu -> conv3x3 -> (+ h1) -> relu
      -> global average pool -> linear C->10 -> log_softmax -> mean NLL

torch and flowgrad use `nn.Conv2d` (flowgrad's is picked up as soon as `flowgrad.torch.nn.Conv2d`
exists), MyGrad its `conv_nd`, HIPS autograd (no conv primitive) a sum of nine shifted tensordots,
hand-written NumPy an im2col view (sliding_window_view) with tensordot forward and backward."""
from __future__ import annotations

import importlib

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .harness import NotAvailable, Workload, frozen

PAD = ((0, 0), (0, 0), (1, 1), (1, 1))


def _conv_fwd(x, W, b):
    cols = sliding_window_view(np.pad(x, PAD), (3, 3), axis=(2, 3))          # (B, C, H, W, 3, 3)
    out = np.tensordot(cols, W, axes=([1, 4, 5], [1, 2, 3])).transpose(0, 3, 1, 2) + b[:, None, None]
    return out, cols


def _conv_bwd(g, cols, W, need_input_grad=True):
    gW = np.tensordot(g, cols, axes=([0, 2, 3], [0, 2, 3]))                  # (O, C, 3, 3)
    gb = g.sum((0, 2, 3))
    if not need_input_grad:
        return None, gW, gb
    gcols = np.tensordot(g, W, axes=([1], [0]))                               # (B, H, W, C, 3, 3)
    B, _, H, Wd = g.shape
    gxp = np.zeros((B, W.shape[1], H + 2, Wd + 2), g.dtype)
    for i in range(3):
        for j in range(3):
            gxp[:, :, i:i + H, j:j + Wd] += gcols[..., i, j].transpose(0, 3, 1, 2)
    return gxp[:, :, 1:-1, 1:-1], gW, gb


class ConvNet(Workload):
    name = "convnet"
    title = "ResNet-ish conv net step: 3 conv3x3 (C=16) + residual + pool + linear, batch 16x3x16x16, float32"
    unit = "ms"
    rtol, atol = 2e-3, 2e-5
    sizes = {"full": dict(batch=16, size=16, channels=16), "quick": dict(batch=16, size=16, channels=16),
             "tiny": dict(batch=2, size=5, channels=4)}

    def data(self, batch, size, channels):
        rng = np.random.default_rng(3)
        f32 = np.float32

        def conv_w(cin, cout):
            return (rng.standard_normal((cout, cin, 3, 3)) * np.sqrt(2.0 / (9 * cin))).astype(f32)
        params = [conv_w(3, channels), (rng.standard_normal(channels) * 0.1).astype(f32),
                  conv_w(channels, channels), (rng.standard_normal(channels) * 0.1).astype(f32),
                  conv_w(channels, channels), (rng.standard_normal(channels) * 0.1).astype(f32),
                  (rng.standard_normal((channels, 10)) / np.sqrt(channels)).astype(f32),
                  (rng.standard_normal(10) * 0.1).astype(f32)]
        return frozen({"x": rng.standard_normal((batch, 3, size, size)).astype(f32),
                       "labels": rng.integers(0, 10, batch).astype(np.int64), "params": params})

    def impl_numpy(self, d):
        x, labels = d["x"], d["labels"]
        W1, b1, W2, b2, W3, b3, Wf, bf = d["params"]
        rows = np.arange(len(labels))

        def step():
            z1, c1 = _conv_fwd(x, W1, b1)
            h1 = np.maximum(z1, 0)
            z2, c2 = _conv_fwd(h1, W2, b2)
            h2 = np.maximum(z2, 0)
            z3, c3 = _conv_fwd(h2, W3, b3)
            s = h1 + z3
            h = np.maximum(s, 0)
            p = h.mean((2, 3))
            logits = p @ Wf + bf
            shifted = logits - logits.max(1, keepdims=True)
            logp = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
            loss = -logp[rows, labels].mean()  # noqa: F841
            g = np.exp(logp)
            g[rows, labels] -= 1
            g /= len(labels)
            gWf, gbf = p.T @ g, g.sum(0)
            gp = g @ Wf.T
            gs = np.broadcast_to(gp[:, :, None, None] / (h.shape[2] * h.shape[3]), h.shape) * (s > 0)
            gh2, gW3, gb3 = _conv_bwd(gs, c3, W3)
            gh1b, gW2, gb2 = _conv_bwd(gh2 * (z2 > 0), c2, W2)
            _, gW1, gb1 = _conv_bwd((gs + gh1b) * (z1 > 0), c1, W1, need_input_grad=False)
            return [gW1, gb1, gW2, gb2, gW3, gb3, gWf, gbf]
        return step

    def torchlike(self, torch, d):
        try:
            nn = importlib.import_module(torch.__name__ + ".nn")
        except ImportError:
            nn = None
        if nn is None or not hasattr(nn, "Conv2d"):
            raise NotAvailable(f"{torch.__name__}.nn.Conv2d not available yet")
        W1, b1, W2, b2, W3, b3, Wf, bf = d["params"]
        convs = []
        for W, b in ((W1, b1), (W2, b2), (W3, b3)):
            conv = nn.Conv2d(W.shape[1], W.shape[0], 3, padding=1)
            with torch.no_grad():
                conv.weight.copy_(torch.from_numpy(W.copy()))
                conv.bias.copy_(torch.from_numpy(b.copy()))
            convs.append(conv)
        c1, c2, c3 = convs
        Wf_t = torch.from_numpy(Wf.copy()).requires_grad_()
        bf_t = torch.from_numpy(bf.copy()).requires_grad_()
        params = [t for c in convs for t in (c.weight, c.bias)] + [Wf_t, bf_t]
        x = torch.from_numpy(d["x"].copy())
        labels = torch.from_numpy(d["labels"].copy()).unsqueeze(1)

        def step():
            for p in params:
                p.grad = None
            h1 = c1(x).relu()
            h = (h1 + c3(c2(h1).relu())).relu()
            logp = (h.mean((2, 3)) @ Wf_t + bf_t).log_softmax(1)
            (-logp.gather(1, labels).mean()).backward()
            return [p.grad for p in params]
        return step

    def impl_mygrad(self, d):
        import mygrad as mg
        from mygrad.nnet.activations import logsoftmax, relu
        from mygrad.nnet.layers import conv_nd
        x, labels = d["x"], d["labels"]
        params = [mg.tensor(p.copy()) for p in d["params"]]
        W1, b1, W2, b2, W3, b3, Wf, bf = params
        rows = np.arange(len(labels))

        def conv(v, W, b):
            return conv_nd(v, W, stride=1, padding=1) + b[:, None, None]

        def step():
            h1 = relu(conv(x, W1, b1))
            h = relu(h1 + conv(relu(conv(h1, W2, b2)), W3, b3))
            logp = logsoftmax(mg.matmul(h.mean(axis=(2, 3)), Wf) + bf)
            (-logp[rows, labels].mean()).backward()
            return [p.grad for p in params]
        return step

    def impl_autograd(self, d):
        import autograd
        import autograd.numpy as anp
        x, labels = d["x"], d["labels"]
        params = [p.copy() for p in d["params"]]
        rows = np.arange(len(labels))
        H, Wd = x.shape[2:]

        def conv(v, W, b):
            vp = anp.pad(v, PAD, mode="constant")
            out = 0.0
            for i in range(3):
                for j in range(3):       # (B, C, H, W) x (O, C) -> (B, H, W, O)
                    out = out + anp.tensordot(vp[:, :, i:i + H, j:j + Wd], W[:, :, i, j], axes=([1], [1]))
            return anp.transpose(out, (0, 3, 1, 2)) + b[:, None, None]

        def loss(ps):
            W1, b1, W2, b2, W3, b3, Wf, bf = ps
            h1 = anp.maximum(conv(x, W1, b1), 0.0)
            h = anp.maximum(h1 + conv(anp.maximum(conv(h1, W2, b2), 0.0), W3, b3), 0.0)
            logits = anp.dot(anp.mean(h, axis=(2, 3)), Wf) + bf
            shifted = logits - anp.max(logits, axis=1, keepdims=True)
            logp = shifted - anp.log(anp.sum(anp.exp(shifted), axis=1, keepdims=True))
            return -anp.mean(logp[rows, labels])
        grad = autograd.grad(loss)

        def step():
            return list(grad(params))
        return step


WORKLOADS = [ConvNet()]
