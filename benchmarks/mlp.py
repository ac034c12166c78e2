"""Matmul-bound workloads: the MLP 784-256-256-10 forward+backward (float64 and float32) and a
softmax cross-entropy classifier training step (forward, backward, SGD update)."""
from __future__ import annotations

import numpy as np

from .harness import Workload, frozen


def _init(rng, sizes, dtype):
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        params.append((rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)).astype(dtype))
        params.append((rng.standard_normal(fan_out) * 0.1).astype(dtype))
    return params


# ------------------------------------------------------------------------------------ MLP

def hand_written_step(xp, x, y, params):
    """The MLP's forward and backward written by hand in the array module `xp` (NumPy or CuPy)."""
    W1, b1, W2, b2, W3, b3 = params

    def step():
        z1 = x @ W1 + b1
        h1 = xp.maximum(z1, 0)
        z2 = h1 @ W2 + b2
        h2 = xp.maximum(z2, 0)
        diff = h2 @ W3 + b3 - y
        loss = (diff * diff).sum()  # noqa: F841  (computed, as the libraries do)
        g = 2 * diff
        gW3, gb3 = h2.T @ g, g.sum(0)
        g = (g @ W3.T) * (z2 > 0)
        gW2, gb2 = h1.T @ g, g.sum(0)
        g = (g @ W2.T) * (z1 > 0)
        gW1, gb1 = x.T @ g, g.sum(0)
        return [gW1, gb1, gW2, gb2, gW3, gb3]
    return step


class MLP(Workload):
    """relu(x W1 + b1) -> relu(. W2 + b2) -> . W3 + b3, loss = sum((out - y)^2); gradients of the
    six parameters (the input needs none)."""

    unit = "ms"
    dtype = np.float64
    sizes = {"full": dict(batch=64, dims=(784, 256, 256, 10)),
             "quick": dict(batch=64, dims=(784, 256, 256, 10)),
             "tiny": dict(batch=4, dims=(12, 8, 8, 3))}

    def data(self, batch, dims):
        rng = np.random.default_rng(0)
        x = rng.standard_normal((batch, dims[0])).astype(self.dtype)
        y = rng.standard_normal((batch, dims[-1])).astype(self.dtype)
        return frozen({"x": x, "y": y, "params": _init(rng, dims, self.dtype)})

    def impl_numpy(self, d):
        return hand_written_step(np, d["x"], d["y"], d["params"])

    def torchlike(self, torch, d):
        x, y = self.tensor(torch, d["x"]), self.tensor(torch, d["y"])
        params = [self.tensor(torch, p).requires_grad_() for p in d["params"]]
        W1, b1, W2, b2, W3, b3 = params
        wait = torch.cuda.synchronize if self.device == "cuda" else None

        def step():
            for p in params:
                p.grad = None
            h = (x @ W1 + b1).relu()
            h = (h @ W2 + b2).relu()
            diff = h @ W3 + b3 - y
            (diff * diff).sum().backward()
            if wait is not None:
                wait()                  # the GPU's work is done when the step returns
            return [p.grad for p in params]
        return step

    def impl_mygrad(self, d):
        import mygrad as mg
        from mygrad.nnet.activations import relu
        x, y = d["x"], d["y"]
        params = [mg.tensor(p.copy()) for p in d["params"]]
        W1, b1, W2, b2, W3, b3 = params

        def step():
            h = relu(mg.matmul(x, W1) + b1)
            h = relu(mg.matmul(h, W2) + b2)
            diff = mg.matmul(h, W3) + b3 - y
            (diff * diff).sum().backward()
            return [p.grad for p in params]
        return step

    def impl_autograd(self, d):
        import autograd
        import autograd.numpy as anp
        x, y = d["x"], d["y"]
        params = [p.copy() for p in d["params"]]

        def loss(ps):
            W1, b1, W2, b2, W3, b3 = ps
            h = anp.maximum(anp.dot(x, W1) + b1, 0.0)
            h = anp.maximum(anp.dot(h, W2) + b2, 0.0)
            diff = anp.dot(h, W3) + b3 - y
            return anp.sum(diff * diff)
        grad = autograd.grad(loss)

        def step():
            return list(grad(params))
        return step


class MLP64(MLP):
    name = "mlp-f64"
    title = "MLP 784-256-256-10, batch 64, fwd+bwd, float64"
    dtype = np.float64
    rtol, atol = 1e-7, 1e-10


class MLP32(MLP):
    name = "mlp-f32"
    title = "MLP 784-256-256-10, batch 64, fwd+bwd, float32"
    dtype = np.float32
    rtol, atol = 2e-3, 2e-5


# ------------------------------------------------------------------------------------ classifier

class Classifier(Workload):
    """One SGD step of a 784-128-10 relu classifier, float32: logits -> log_softmax -> mean NLL of
    integer labels (gather / fancy indexing), backward, then p -= lr * grad. Returns the gradients
    of the step (checked on the first step from the shared initial weights)."""

    name = "classifier"
    title = "softmax cross-entropy classifier step 784-128-10, batch 64, float32 (fwd+bwd+SGD)"
    unit = "ms"
    stateful = True
    rtol, atol = 2e-3, 2e-5
    lr = 0.01
    sizes = {"full": dict(batch=64, dims=(784, 128, 10)),
             "quick": dict(batch=64, dims=(784, 128, 10)),
             "tiny": dict(batch=5, dims=(12, 8, 4))}

    def data(self, batch, dims):
        rng = np.random.default_rng(1)
        x = rng.standard_normal((batch, dims[0])).astype(np.float32)
        labels = rng.integers(0, dims[-1], batch).astype(np.int64)
        return frozen({"x": x, "labels": labels, "params": _init(rng, dims, np.float32)})

    def impl_numpy(self, d):
        x, labels, lr = d["x"], d["labels"], self.lr
        params = [p.copy() for p in d["params"]]
        rows = np.arange(len(labels))

        def step():
            W1, b1, W2, b2 = params
            z1 = x @ W1 + b1
            h = np.maximum(z1, 0)
            logits = h @ W2 + b2
            shifted = logits - logits.max(1, keepdims=True)
            logp = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
            loss = -logp[rows, labels].mean()  # noqa: F841
            g = np.exp(logp)                    # d loss / d logits = (softmax - onehot) / batch
            g[rows, labels] -= 1
            g /= len(labels)
            gW2, gb2 = h.T @ g, g.sum(0)
            g = (g @ W2.T) * (z1 > 0)
            gW1, gb1 = x.T @ g, g.sum(0)
            grads = [gW1, gb1, gW2, gb2]
            for p, gp in zip(params, grads):
                p -= lr * gp
            return grads
        return step

    def torchlike(self, torch, d):
        x = torch.from_numpy(d["x"].copy())
        labels = torch.from_numpy(d["labels"].copy()).unsqueeze(1)
        params = [torch.from_numpy(p.copy()).requires_grad_() for p in d["params"]]
        W1, b1, W2, b2 = params
        lr = self.lr

        def step():
            for p in params:
                p.grad = None
            h = (x @ W1 + b1).relu()
            logp = (h @ W2 + b2).log_softmax(1)
            loss = -logp.gather(1, labels).mean()
            loss.backward()
            with torch.no_grad():
                for p in params:
                    p -= lr * p.grad
            return [p.grad for p in params]
        return step

    def impl_mygrad(self, d):
        import mygrad as mg
        from mygrad.nnet.activations import logsoftmax, relu
        x, labels, lr = d["x"], d["labels"], self.lr
        params = [mg.tensor(p.copy()) for p in d["params"]]
        rows = np.arange(len(labels))

        def step():
            W1, b1, W2, b2 = params
            h = relu(mg.matmul(x, W1) + b1)
            logp = logsoftmax(mg.matmul(h, W2) + b2)
            loss = -logp[rows, labels].mean()
            loss.backward()
            grads = [p.grad for p in params]
            for p, g in zip(params, grads):
                p.data -= lr * g                # writable again once backward has cleared the graph
            return grads
        return step

    def impl_autograd(self, d):
        import autograd
        import autograd.numpy as anp
        x, labels, lr = d["x"], d["labels"], self.lr
        params = [p.copy() for p in d["params"]]
        rows = np.arange(len(labels))

        def loss(ps):
            W1, b1, W2, b2 = ps
            h = anp.maximum(anp.dot(x, W1) + b1, 0.0)
            logits = anp.dot(h, W2) + b2
            shifted = logits - anp.max(logits, axis=1, keepdims=True)
            logp = shifted - anp.log(anp.sum(anp.exp(shifted), axis=1, keepdims=True))
            return -anp.mean(logp[rows, labels])
        grad = autograd.grad(loss)

        def step():
            grads = list(grad(params))
            for p, g in zip(params, grads):
                p -= lr * g
            return grads
        return step


WORKLOADS = [MLP64(), MLP32(), Classifier()]
