"""Double backward: a Hessian-vector product of f(w) = sum(tanh(A w)) (a one-layer tanh
network), by differentiating <grad f(w), v> once more."""
from __future__ import annotations

import numpy as np

from .harness import Unsupported, Workload, frozen


class HVP(Workload):
    name = "hvp"
    title = "Hessian-vector product (double backward) of sum(tanh(A w)), A 256x128, float64"
    unit = "ms"
    rtol, atol = 1e-8, 1e-11
    sizes = {"full": dict(m=256, n=128), "quick": dict(m=256, n=128), "tiny": dict(m=6, n=4)}

    def data(self, m, n):
        rng = np.random.default_rng(2)
        return frozen({"A": rng.standard_normal((m, n)) / np.sqrt(n), "w": rng.standard_normal(n),
                       "v": rng.standard_normal(n)})

    def impl_numpy(self, d):
        A, w, v = d["A"], d["w"], d["v"]

        def step():
            t = np.tanh(A @ w)
            s = 1.0 - t * t                 # grad f = A^T s
            g = A.T @ s  # noqa: F841        (the first backward, as the libraries compute it)
            hv = A.T @ (-2.0 * t * s * (A @ v))
            return [hv]
        return step

    def torchlike(self, torch, d):
        A, v = torch.from_numpy(d["A"].copy()), torch.from_numpy(d["v"].copy())
        w = torch.from_numpy(d["w"].copy()).requires_grad_()

        def step():
            f = (A @ w).tanh().sum()
            (g,) = torch.autograd.grad(f, w, create_graph=True)
            (hv,) = torch.autograd.grad((g * v).sum(), w)
            return [hv]
        return step

    def impl_mygrad(self, d):
        raise Unsupported("MyGrad has no higher-order derivatives")

    def impl_autograd(self, d):
        import autograd
        import autograd.numpy as anp
        A, w, v = d["A"], d["w"].copy(), d["v"]
        grad_f = autograd.grad(lambda u: anp.sum(anp.tanh(anp.dot(A, u))))
        hvp = autograd.grad(lambda u: anp.dot(grad_f(u), v))

        def step():
            return [hvp(w)]
        return step


WORKLOADS = [HVP()]
