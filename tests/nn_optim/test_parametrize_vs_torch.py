"""torch.nn.utils.parametrize and parametrizations (weight_norm, spectral_norm) against real
torch: parametrized values and gradients, state-dict keys, assignment through right_inverse,
cached(), chains, removal, training steps, and the errors (messages compared with torch's)."""
from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

W = np.arange(9.0).reshape(3, 3) / 4 - 1


def _both(real_torch, program):
    import flowgrad.torch as ft
    return program(ft), program(real_torch)


def _modules(T):
    class Symmetric(T.nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

        def right_inverse(self, A):
            return A.triu()

    class Scale(T.nn.Module):
        def forward(self, X):
            return X * 2

        def right_inverse(self, A):
            return A / 2

    class Split(T.nn.Module):
        def forward(self, A, B):
            return A + B

        def right_inverse(self, X):
            return X / 4, X * 3 / 4

    return Symmetric, Scale, Split


def _linear(T):
    lin = T.nn.Linear(3, 3)
    with T.no_grad():
        lin.weight.copy_(T.tensor(W, dtype=T.float32))
        lin.bias.fill_(0.5)
    return lin


def _np(t):
    return t.detach().numpy().copy()


def test_register_access_grad_assign_and_remove(real_torch):
    def program(T):
        P = T.nn.utils.parametrize
        Symmetric, Scale, _ = _modules(T)
        lin = _linear(T)
        P.register_parametrization(lin, "weight", Symmetric())
        P.register_parametrization(lin, "weight", Scale())
        rows = [type(lin).__name__, P.type_before_parametrizations(lin).__name__, P.is_parametrized(lin),
                P.is_parametrized(lin, "bias"), sorted(lin.state_dict()), [n for n, _ in lin.named_parameters()],
                _np(lin.weight), repr(lin)]
        (lin(T.ones(2, 3)) ** 2).sum().backward()
        rows.append(_np(lin.parametrizations.weight.original.grad))
        lin.weight = T.tensor(np.ones((3, 3)) * 4, dtype=T.float32)
        rows.append(_np(lin.parametrizations.weight.original))
        with P.cached():
            rows.append(lin.weight is lin.weight)
        rows.append(lin.weight is lin.weight)
        P.remove_parametrizations(lin, "weight", leave_parametrized=False)
        rows += [type(lin).__name__, hasattr(lin, "parametrizations"), _np(lin.weight), type(lin.weight).__name__,
                 sorted(lin.state_dict())]
        return rows

    mine, theirs = _both(real_torch, program)
    assert len(mine) == len(theirs)
    for a, b in zip(mine, theirs):
        if isinstance(a, np.ndarray):
            np.testing.assert_allclose(a, b, rtol=1e-6)
        else:
            assert a == b


def test_sequence_right_inverse_and_leave_parametrized(real_torch):
    def program(T):
        P = T.nn.utils.parametrize
        _, _, Split = _modules(T)
        lin = _linear(T)
        P.register_parametrization(lin, "weight", Split())
        p = lin.parametrizations.weight
        rows = [sorted(lin.state_dict()), _np(p.original0), _np(p.original1), p.original0.requires_grad]
        lin.weight = T.tensor(np.full((3, 3), 8.0), dtype=T.float32)
        rows += [_np(p.original0), _np(p.original1)]
        with pytest.raises(ValueError) as info:
            P.remove_parametrizations(lin, "weight", leave_parametrized=False)
        rows.append(str(info.value))
        P.remove_parametrizations(lin, "weight")
        rows += [_np(lin.weight), type(lin.weight).__name__, type(lin).__name__]
        return rows

    mine, theirs = _both(real_torch, program)
    for a, b in zip(mine, theirs):
        if isinstance(a, np.ndarray):
            np.testing.assert_allclose(a, b, rtol=1e-6)
        else:
            assert a == b


def test_training_a_parametrized_module_matches_torch(real_torch):
    def program(T):
        Symmetric, _, _ = _modules(T)
        lin = _linear(T)
        T.nn.utils.parametrize.register_parametrization(lin, "weight", Symmetric())
        T.nn.utils.parametrizations.weight_norm(lin, "bias", dim=None)
        opt = T.optim.Adam(lin.parameters(), lr=0.1)
        x = T.tensor(np.linspace(-1, 1, 6).reshape(2, 3), dtype=T.float32)
        for _ in range(4):
            opt.zero_grad()
            (lin(x).tanh() ** 2).sum().backward()
            opt.step()
        return [_np(lin.weight), _np(lin.bias), [n for n, _ in lin.named_parameters()]]

    mine, theirs = _both(real_torch, program)
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mine[1], theirs[1], rtol=1e-5, atol=1e-6)
    assert mine[2] == theirs[2]


def test_copies_and_pickling(real_torch):
    def program(T):
        Symmetric, _, _ = _modules(T)
        lin = _linear(T)
        T.nn.utils.parametrize.register_parametrization(lin, "weight", Symmetric())
        twin = copy.deepcopy(lin)
        with pytest.raises(RuntimeError) as info:
            pickle.dumps(lin)
        other = T.nn.Linear(3, 3)
        T.nn.utils.parametrize.transfer_parametrizations_and_params(lin, other)
        return [type(twin).__name__, _np(twin.weight), twin.parametrizations.weight.original is not
                lin.parametrizations.weight.original, str(info.value), _np(other.weight),
                other.parametrizations.weight.original is lin.parametrizations.weight.original]

    mine, theirs = _both(real_torch, program)
    for a, b in zip(mine, theirs):
        if isinstance(a, np.ndarray):
            np.testing.assert_allclose(a, b)
        else:
            assert a == b


def _errors(T):
    P = T.nn.utils.parametrize
    Symmetric, Scale, _ = _modules(T)

    class Flatten(T.nn.Module):
        def forward(self, X):
            return X.reshape(-1)

    class Double(T.nn.Module):
        def forward(self, X):
            return X.double()

    class NoInverse(T.nn.Module):
        def forward(self, X):
            return X

    def assign_without_inverse():
        lin = _linear(T)
        P.register_parametrization(lin, "weight", NoInverse())
        lin.weight = T.zeros(3, 3)

    def appended_shape():
        lin = _linear(T)
        P.register_parametrization(lin, "weight", Scale())
        P.register_parametrization(lin, "weight", Flatten())

    return [
        lambda: P.register_parametrization(_linear(T), "weight", Flatten()),
        lambda: P.register_parametrization(_linear(T), "weight", Double()),
        lambda: P.register_parametrization(_linear(T), "nothing", Scale()),
        lambda: P.remove_parametrizations(_linear(T), "weight"),
        assign_without_inverse,
        appended_shape,
        lambda: T.nn.utils.parametrize.ParametrizationList([], T.zeros(2)),
        lambda: T.nn.utils.parametrizations.spectral_norm(_linear(T), "nothing"),
        lambda: T.nn.utils.parametrizations.spectral_norm(_linear(T), dim=2),
        lambda: T.nn.utils.parametrizations.spectral_norm(_linear(T), n_power_iterations=0),
    ]


@pytest.mark.parametrize("case", range(10))
def test_errors_match_torch(case, real_torch):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        with pytest.raises(Exception) as info:
            _errors(T)[case]()
        out.append((type(info.value).__name__, str(info.value)))
    assert out[0] == out[1]


@pytest.mark.parametrize("dim", [0, 1, None, -1])
def test_weight_norm_matches_torch(dim, real_torch):
    def program(T):
        conv = T.nn.Conv1d(2, 3, 2)
        with T.no_grad():
            conv.weight.copy_(T.tensor(np.arange(12.0).reshape(3, 2, 2) / 5 - 1, dtype=T.float32))
            conv.bias.fill_(0.25)
        T.nn.utils.parametrizations.weight_norm(conv, dim=dim)
        p = conv.parametrizations.weight
        out = conv(T.tensor(np.linspace(-1, 1, 10).reshape(1, 2, 5), dtype=T.float32))
        (out ** 2).sum().backward()
        return [sorted(conv.state_dict()), tuple(p.original0.shape), _np(p.original0), _np(conv.weight),
                _np(p.original0.grad), _np(p.original1.grad)]

    mine, theirs = _both(real_torch, program)
    assert mine[:2] == theirs[:2]
    for a, b in zip(mine[2:], theirs[2:]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make", ["conv_transpose", "linear_dim1"])
def test_spectral_norm_matches_torch(make, real_torch):
    def program(T):
        if make == "conv_transpose":
            mod = T.nn.ConvTranspose2d(3, 2, 2)
            T.nn.utils.parametrizations.spectral_norm(mod, n_power_iterations=2)
        else:
            mod = T.nn.Linear(4, 3)
            T.nn.utils.parametrizations.spectral_norm(mod, dim=1, eps=1e-6)
        sn = mod.parametrizations.weight[0]
        with T.no_grad():   # the random start of the power iteration, set alike
            original = mod.parametrizations.weight.original
            original.copy_(T.tensor(np.cos(np.arange(original.numel())).reshape(original.shape), dtype=T.float32))
            sn._u.copy_(T.ones(sn._u.shape) / sn._u.numel() ** 0.5)
            sn._v.copy_(T.tensor(np.linspace(1, 2, sn._v.numel()), dtype=T.float32))
        rows = [sorted(mod.state_dict()), sn.dim, tuple(sn._u.shape), tuple(sn._v.shape)]
        w1 = _np(mod.weight)
        w2 = mod.weight
        w2.sum().backward()
        rows += [w1, _np(w2), _np(mod.parametrizations.weight.original.grad)]
        mod.eval()
        rows += [_np(mod.weight), _np(sn._u), _np(sn._v)]
        return rows

    mine, theirs = _both(real_torch, program)
    assert mine[:4] == theirs[:4]
    for a, b in zip(mine[4:], theirs[4:]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_spectral_norm_of_a_vector_normalizes_it(real_torch):
    def program(T):
        mod = T.nn.Linear(3, 2)
        with T.no_grad():
            mod.bias.copy_(T.tensor([3.0, 4.0]))
        T.nn.utils.parametrizations.spectral_norm(mod, "bias")
        return _np(mod.bias), sorted(mod.state_dict())

    mine, theirs = _both(real_torch, program)
    np.testing.assert_allclose(mine[0], theirs[0])
    assert mine[1] == theirs[1]


_RNG = np.random.default_rng(0)
SQUARE, TALL = _RNG.standard_normal((4, 4)), _RNG.standard_normal((5, 3))
ORTHOGONAL = [((4, 4), None, True), ((4, 4), "cayley", True), ((4, 4), "householder", True),
              ((4, 4), "householder", False), ((5, 3), "householder", False), ((3, 5), None, False),
              ((3, 5), None, True)]


@pytest.mark.parametrize("shape, orthogonal_map, trivialization", ORTHOGONAL,
                         ids=[f"{s[0]}x{s[1]}-{m}-{t}" for s, m, t in ORTHOGONAL])
def test_orthogonal_matches_torch(shape, orthogonal_map, trivialization, real_torch):
    # (a non-square matrix under trivialization draws random columns for its base: only its value
    # and orthogonality are compared there)
    random_base = trivialization and shape[0] != shape[1]

    def program(T):
        lin = T.nn.Linear(shape[1], shape[0], bias=False).double()
        with T.no_grad():
            lin.weight.copy_(T.tensor(SQUARE if shape == (4, 4) else (TALL if shape == (5, 3) else TALL.T)))
        T.nn.utils.parametrizations.orthogonal(lin, orthogonal_map=orthogonal_map,
                                               use_trivialization=trivialization)
        W = lin.weight
        x = T.tensor(np.linspace(-1, 1, shape[1] * 2).reshape(2, shape[1]))
        (lin(x) ** 3).sum().backward()
        p = lin.parametrizations.weight
        gram = W @ W.T if shape[0] < shape[1] else W.T @ W
        rows = [sorted(lin.state_dict()), _np(W), _np(gram)]
        if not random_base:
            rows.append(_np(p.original.grad))
            opt = T.optim.SGD(lin.parameters(), lr=0.1)
            opt.step()
            rows.append(_np(lin.weight))
        return rows

    mine, theirs = _both(real_torch, program)
    assert mine[0] == theirs[0]
    np.testing.assert_allclose(mine[2], np.eye(min(shape)), atol=1e-12)
    for a, b in zip(mine[1:], theirs[1:]):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_orthogonal_assignment_and_errors(real_torch):
    def program(T):
        rows = []
        lin = T.nn.Linear(4, 4, bias=False).double()
        T.nn.utils.parametrizations.orthogonal(lin)
        lin.weight = T.tensor(SQUARE)
        rows.append(_np(lin.weight))
        for call in (lambda: setattr(lin, "weight", T.zeros(3, 3, dtype=T.float64)),
                     lambda: T.nn.utils.parametrizations.orthogonal(T.nn.Linear(2, 2), "bias"),
                     lambda: T.nn.utils.parametrizations.orthogonal(T.nn.Linear(2, 2), orthogonal_map="qr"),
                     lambda: T.nn.utils.parametrizations.orthogonal(T.nn.Linear(2, 2), "nothing")):
            with pytest.raises(Exception) as info:
                call()
            rows.append((type(info.value).__name__, str(info.value)))
        fixed = T.nn.Linear(3, 3, bias=False)
        T.nn.utils.parametrizations.orthogonal(fixed, use_trivialization=False)
        with pytest.raises(NotImplementedError) as info:
            fixed.weight = T.eye(3)
        rows.append(str(info.value))
        return rows

    mine, theirs = _both(real_torch, program)
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-10, atol=1e-12)
    assert mine[1:] == theirs[1:]
