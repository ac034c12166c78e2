"""Recurrent workloads: one LSTM or GRU layer over a short sequence, forward + backward, float32:

    LSTM: gates_t = x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh      (i, f, g, o)
          c_t = sigmoid(f) c_{t-1} + sigmoid(i) tanh(g),  h_t = sigmoid(o) tanh(c_t)
    GRU:  (xr, xz, xn) = x_t W_ih^T + b_ih,  (hr, hz, hn) = h_{t-1} W_hh^T + b_hh
          r = sigmoid(xr + hr), z = sigmoid(xz + hz), n = tanh(xn + r hn),  h_t = (1 - z) n + z h_{t-1}
    loss = sum_t |h_t - y_t|^2

torch and flowgrad run `nn.LSTM` / `nn.GRU`, MyGrad and HIPS autograd the same recurrence written
with their primitives (the LSTM; HIPS autograd the GRU too), hand-written NumPy the forward and the
backward through time. Reported apart from the targeted workloads (their own heading, no target)."""
from __future__ import annotations

import numpy as np

from .harness import Workload, frozen


def _sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))


class _RecurrentLayer(Workload):
    """What the LSTM and GRU steps share: sizes, data (`gates` blocks of `hidden` rows per weight,
    PyTorch's uniform init) and the torch-style step over `nn.<module>`."""
    section = "Recurrent networks"
    unit = "ms"
    rtol, atol = 1e-3, 1e-5
    sizes = {"full": dict(steps=20, batch=8, features=16, hidden=32),
             "quick": dict(steps=20, batch=8, features=16, hidden=32),
             "tiny": dict(steps=3, batch=2, features=3, hidden=4)}
    module, gates, seed = "", 0, 0

    def data(self, steps, batch, features, hidden):
        rng = np.random.default_rng(self.seed)
        f32 = np.float32
        bound = 1 / np.sqrt(hidden)
        rows = self.gates * hidden
        params = [rng.uniform(-bound, bound, shape).astype(f32)
                  for shape in ((rows, features), (rows, hidden), (rows,), (rows,))]
        return frozen({"x": rng.standard_normal((steps, batch, features)).astype(f32),
                       "y": (rng.standard_normal((steps, batch, hidden)) * 0.5).astype(f32), "params": params})

    def torchlike(self, torch, d):
        w_ih, w_hh, b_ih, b_hh = d["params"]
        layer = getattr(torch.nn, self.module)(w_ih.shape[1], w_hh.shape[1])
        layer.load_state_dict({name: torch.from_numpy(a.copy()) for name, a in
                               zip(("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"), d["params"])})
        params = list(layer.parameters())
        x, y = torch.from_numpy(d["x"].copy()), torch.from_numpy(d["y"].copy())

        def step():
            for p in params:
                p.grad = None
            out, _ = layer(x)
            ((out - y) ** 2).sum().backward()
            return [p.grad for p in params]
        return step


class LSTMStep(_RecurrentLayer):
    name = "lstm"
    title = "LSTM step: 1 layer, input 16, hidden 32, 20 steps, batch 8, fwd+bwd, float32"
    module, gates, seed = "LSTM", 4, 5

    def impl_numpy(self, d):
        x, y = d["x"], d["y"]
        w_ih, w_hh, b_ih, b_hh = d["params"]
        steps, batch, _ = x.shape
        hidden = w_hh.shape[1]

        def step():
            xw = x @ w_ih.T + b_ih
            h = np.zeros((batch, hidden), x.dtype)
            c = np.zeros_like(h)
            tape = []
            for t in range(steps):
                a = xw[t] + h @ w_hh.T + b_hh
                i, f, g, o = (_sigmoid(a[:, :hidden]), _sigmoid(a[:, hidden:2 * hidden]),
                              np.tanh(a[:, 2 * hidden:3 * hidden]), _sigmoid(a[:, 3 * hidden:]))
                c_prev, h_prev = c, h
                c = f * c_prev + i * g
                tc = np.tanh(c)
                h = o * tc
                tape.append((i, f, g, o, c_prev, h_prev, tc))
            dh_next = np.zeros_like(h)
            dc_next = np.zeros_like(c)
            das = np.empty_like(xw)
            gw_hh = np.zeros_like(w_hh)
            for t in range(steps - 1, -1, -1):
                i, f, g, o, c_prev, h_prev, tc = tape[t]
                dh = 2 * (o * tc - y[t]) + dh_next
                dc = dc_next + dh * o * (1 - tc * tc)
                da = np.concatenate([dc * g * i * (1 - i), dc * c_prev * f * (1 - f), dc * i * (1 - g * g),
                                     dh * tc * o * (1 - o)], axis=1)
                das[t] = da
                gw_hh += da.T @ h_prev
                dh_next = da @ w_hh
                dc_next = dc * f
            flat = das.reshape(-1, 4 * hidden)
            gb = flat.sum(0)
            return [flat.T @ x.reshape(-1, x.shape[2]), gw_hh, gb, gb.copy()]
        return step

    def impl_mygrad(self, d):
        import mygrad as mg
        from mygrad.nnet.activations import sigmoid
        x, y = d["x"], d["y"]
        params = [mg.tensor(p.copy()) for p in d["params"]]
        w_ih, w_hh, b_ih, b_hh = params
        hidden = d["params"][1].shape[1]

        def step():
            xw = mg.matmul(x, w_ih.T) + b_ih
            h = c = np.zeros((x.shape[1], hidden), x.dtype)
            loss = 0
            for t in range(x.shape[0]):
                a = xw[t] + mg.matmul(h, w_hh.T) + b_hh
                c = sigmoid(a[:, hidden:2 * hidden]) * c + sigmoid(a[:, :hidden]) * mg.tanh(a[:, 2 * hidden:3 * hidden])
                h = sigmoid(a[:, 3 * hidden:]) * mg.tanh(c)
                loss = loss + ((h - y[t]) ** 2).sum()
            loss.backward()
            return [p.grad for p in params]
        return step

    def impl_autograd(self, d):
        import autograd
        import autograd.numpy as anp
        x, y = d["x"], d["y"]
        hidden = d["params"][1].shape[1]

        def sig(a):
            return 1.0 / (1.0 + anp.exp(-a))

        def loss(ps):
            w_ih, w_hh, b_ih, b_hh = ps
            xw = anp.dot(x, w_ih.T) + b_ih
            h = c = np.zeros((x.shape[1], hidden), x.dtype)
            total = 0.0
            for t in range(x.shape[0]):
                a = xw[t] + anp.dot(h, w_hh.T) + b_hh
                c = sig(a[:, hidden:2 * hidden]) * c + sig(a[:, :hidden]) * anp.tanh(a[:, 2 * hidden:3 * hidden])
                h = sig(a[:, 3 * hidden:]) * anp.tanh(c)
                total = total + anp.sum((h - y[t]) ** 2)
            return total
        grad = autograd.grad(loss)
        params = [p.copy() for p in d["params"]]

        def step():
            return list(grad(params))
        return step


class GRUStep(_RecurrentLayer):
    name = "gru"
    title = "GRU step: 1 layer, input 16, hidden 32, 20 steps, batch 8, fwd+bwd, float32"
    module, gates, seed = "GRU", 3, 7

    def impl_numpy(self, d):
        x, y = d["x"], d["y"]
        w_ih, w_hh, b_ih, b_hh = d["params"]
        steps, batch, _ = x.shape
        hidden = w_hh.shape[1]
        r_, z_, n_ = slice(0, hidden), slice(hidden, 2 * hidden), slice(2 * hidden, 3 * hidden)

        def step():
            xw = x @ w_ih.T + b_ih
            h = np.zeros((batch, hidden), x.dtype)
            tape = []
            for t in range(steps):
                hw = h @ w_hh.T + b_hh
                r = _sigmoid(xw[t][:, r_] + hw[:, r_])
                z = _sigmoid(xw[t][:, z_] + hw[:, z_])
                n = np.tanh(xw[t][:, n_] + r * hw[:, n_])
                tape.append((h, r, z, n, hw[:, n_]))
                h = (h - n) * z + n
            dh_next = np.zeros_like(h)
            dxw = np.empty_like(xw)
            dhw_sum = np.zeros((3 * hidden,), x.dtype)
            gw_hh = np.zeros_like(w_hh)
            for t in range(steps - 1, -1, -1):
                h_prev, r, z, n, hn = tape[t]
                dh = 2 * ((h_prev - n) * z + n - y[t]) + dh_next
                da_n = dh * (1 - z) * (1 - n * n)
                da_r = da_n * hn * r * (1 - r)
                da_z = dh * (h_prev - n) * z * (1 - z)
                dxw[t] = np.concatenate([da_r, da_z, da_n], axis=1)
                dhw = np.concatenate([da_r, da_z, da_n * r], axis=1)
                gw_hh += dhw.T @ h_prev
                dhw_sum += dhw.sum(0)
                dh_next = dh * z + dhw @ w_hh
            flat = dxw.reshape(-1, 3 * hidden)
            return [flat.T @ x.reshape(-1, x.shape[2]), gw_hh, flat.sum(0), dhw_sum]
        return step

    def impl_autograd(self, d):
        import autograd
        import autograd.numpy as anp
        x, y = d["x"], d["y"]
        hidden = d["params"][1].shape[1]

        def sig(a):
            return 1.0 / (1.0 + anp.exp(-a))

        def loss(ps):
            w_ih, w_hh, b_ih, b_hh = ps
            xw = anp.dot(x, w_ih.T) + b_ih
            h = np.zeros((x.shape[1], hidden), x.dtype)
            total = 0.0
            for t in range(x.shape[0]):
                hw = anp.dot(h, w_hh.T) + b_hh
                r = sig(xw[t][:, :hidden] + hw[:, :hidden])
                z = sig(xw[t][:, hidden:2 * hidden] + hw[:, hidden:2 * hidden])
                n = anp.tanh(xw[t][:, 2 * hidden:] + r * hw[:, 2 * hidden:])
                h = (h - n) * z + n
                total = total + anp.sum((h - y[t]) ** 2)
            return total
        grad = autograd.grad(loss)
        params = [p.copy() for p in d["params"]]

        def step():
            return list(grad(params))
        return step


WORKLOADS = [LSTMStep(), GRUStep()]
