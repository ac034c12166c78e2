"""torch.linalg against real torch: values, gradients (float64), node names, dtypes, shapes,
exception types and messages, batched inputs."""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad.torch as ft

rt = pytest.importorskip("torch")

RNG = np.random.default_rng(7)


def _pair(arr, requires_grad=True):
    return (ft.tensor(arr, requires_grad=requires_grad), rt.tensor(arr, requires_grad=requires_grad))


def _spd(*shape):
    a = RNG.standard_normal(shape)
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


def _outs(res):
    if isinstance(res, tuple):
        return list(res)
    return [res]


def _same(fn, *arrays, grad=True, atol=1e-8, names=True):
    """fn(linalg module, *tensors) on both; compares outputs, dtypes, node names and input grads."""
    fts = [ft.tensor(a, requires_grad=grad) for a in arrays]
    rts = [rt.tensor(a, requires_grad=grad) for a in arrays]
    fo, ro = _outs(fn(ft, *fts)), _outs(fn(rt, *rts))
    assert len(fo) == len(ro)
    for f, r in zip(fo, ro):
        assert tuple(f.shape) == tuple(r.shape)
        assert str(f.dtype) == str(r.dtype)
        np.testing.assert_allclose(f.detach().numpy(), r.detach().numpy(), atol=atol, rtol=1e-6)
        if names and r.grad_fn is not None:
            assert type(f.grad_fn).__name__ == type(r.grad_fn).__name__
    if grad:
        live = [(f, r) for f, r in zip(fo, ro) if r.requires_grad]
        for f, r in live:
            w = RNG.standard_normal(tuple(r.shape))
            (f * ft.tensor(w)).sum().backward(retain_graph=True)
            (r * rt.tensor(w)).sum().backward(retain_graph=True)
        for f, r in zip(fts, rts):
            if r.grad is None:
                assert f.grad is None
            else:
                np.testing.assert_allclose(f.grad.numpy(), r.grad.numpy(), atol=1e-7, rtol=1e-6)


def _raises_same(fn, *arrays, **kw):
    fts = [ft.tensor(a, **kw) if isinstance(a, np.ndarray) else a for a in arrays]
    rts = [rt.tensor(a, **kw) if isinstance(a, np.ndarray) else a for a in arrays]
    with pytest.raises(Exception) as re_:
        fn(rt, *rts)
    with pytest.raises(Exception) as fe:
        fn(ft, *fts)
    assert str(fe.value) == str(re_.value)
    assert isinstance(fe.value, RuntimeError) == isinstance(re_.value, RuntimeError)
    assert isinstance(fe.value, NotImplementedError) == isinstance(re_.value, NotImplementedError)
    if isinstance(re_.value, rt.linalg.LinAlgError):
        assert isinstance(fe.value, ft.linalg.LinAlgError)


# ------------------------------------------------------------------------------------- norms

@pytest.mark.parametrize("ord", [None, 2, 1, 3.5, float("inf"), float("-inf"), 0, -1.5])
@pytest.mark.parametrize("dim,keepdim", [(None, False), (1, False), ((0, 2), True), (-1, True)])
def test_vector_norm(ord, dim, keepdim):
    a = RNG.standard_normal((2, 3, 4)) + 0.1
    if ord is None:
        _same(lambda T, x: T.linalg.vector_norm(x, dim=dim, keepdim=keepdim), a)
    else:
        _same(lambda T, x: T.linalg.vector_norm(x, ord, dim, keepdim), a)


def test_vector_norm_dtype():
    a = RNG.standard_normal((3, 4)).astype(np.float32)
    _same(lambda T, x: T.linalg.vector_norm(x, dtype=T.float64), a)


@pytest.mark.parametrize("ord", ["fro", "nuc", 2, -2, 1, -1, float("inf"), float("-inf")])
@pytest.mark.parametrize("dim,keepdim", [((-2, -1), False), ((0, 2), True), ((2, 0), False), ((1, 2), True)])
def test_matrix_norm(ord, dim, keepdim):
    a = RNG.standard_normal((3, 4, 5))
    _same(lambda T, x: T.linalg.matrix_norm(x, ord, dim, keepdim), a, names=False)
    _same(lambda T, x: T.linalg.matrix_norm(x, ord, dim, keepdim=False), a)


@pytest.mark.parametrize("args", [(), (None, None), ("fro",), ("nuc",), (2,), (1, (0, 1)), (3, 1), (None, (0, 1)),
                                  (float("inf"), None, True)])
def test_norm(args):
    a = RNG.standard_normal((3, 4))
    _same(lambda T, x: T.linalg.norm(x, *args), a)


@pytest.mark.parametrize("fn", [
    lambda T, x: T.linalg.norm(x.long()),
    lambda T, x: T.linalg.vector_norm(x.long()),
    lambda T, x: T.linalg.matrix_norm(x.long()),
    lambda T, x: T.linalg.matrix_norm(x[0]),
    lambda T, x: T.linalg.matrix_norm(x, 3),
    lambda T, x: T.linalg.norm(x, 3),
    lambda T, x: T.linalg.norm(x[0], "fro"),
    lambda T, x: T.linalg.norm(x.unsqueeze(0), "fro"),
    lambda T, x: T.linalg.vector_norm(x, dim=(0, 0)),
    lambda T, x: T.linalg.norm(x, dim=(0, 1, 1)),
    lambda T, x: T.linalg.matrix_norm(x, dim=(0, 0)),
    lambda T, x: T.linalg.norm(x, "nuc", dim=0),
    lambda T, x: T.linalg.matrix_norm(x, dim=(0, 5)),
    lambda T, x: T.linalg.vector_norm(x[:0], -1),
])
def test_norm_errors(fn):
    _raises_same(fn, RNG.standard_normal((3, 4)))


# ------------------------------------------------------------------------- det, inv, solve

@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (2, 1, 3, 3)])
def test_det_inv_slogdet(shape):
    a = RNG.standard_normal(shape) + 2 * np.eye(shape[-1])
    _same(lambda T, x: T.linalg.det(x), a)
    _same(lambda T, x: T.linalg.inv(x), a)
    _same(lambda T, x: tuple(T.linalg.slogdet(x)), a)


def test_det_singular_gradient():
    a = np.stack([np.eye(3), np.diag([1.0, 2.0, 0.0]), np.zeros((3, 3))])
    _same(lambda T, x: T.linalg.det(x), a)


def test_slogdet_singular_gradient_is_not_finite():
    grads = []
    for T in (ft, rt):
        x = T.zeros(3, 3, dtype=T.float64, requires_grad=True)
        T.linalg.slogdet(x).logabsdet.backward()
        grads.append(x.grad.numpy())
    assert not np.isfinite(grads[0]).any() and not np.isfinite(grads[1]).any()


def test_slogdet_negative_and_fields():
    a = np.array([[0.0, 2.0], [3.0, 1.0]])
    f, r = ft.linalg.slogdet(ft.tensor(a)), rt.linalg.slogdet(rt.tensor(a))
    assert float(f.sign) == float(r.sign) == -1.0
    assert float(f.logabsdet) == pytest.approx(float(r.logabsdet))


@pytest.mark.parametrize("a_shape,b_shape", [((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 3, 3), (2, 3)),
                                             ((2, 3, 3), (3, 4)), ((3, 3), (2, 3, 1)), ((2, 3, 3), (2, 3, 2))])
def test_solve(a_shape, b_shape):
    a = RNG.standard_normal(a_shape) + 3 * np.eye(a_shape[-1])
    b = RNG.standard_normal(b_shape)
    _same(lambda T, x, y: T.linalg.solve(x, y), a, b)


def test_solve_left_false():
    a = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
    b = RNG.standard_normal((2, 3))
    _same(lambda T, x, y: T.linalg.solve(x, y, left=False), a, b, names=False)


@pytest.mark.parametrize("fn,arrays", [
    (lambda T, x: T.linalg.det(x), [np.ones((3, 3), np.int64)]),
    (lambda T, x: T.linalg.det(x), [np.ones((2, 3))]),
    (lambda T, x: T.linalg.det(x), [np.ones(3)]),
    (lambda T, x: T.linalg.det(x), [np.ones((3, 3), np.float16)]),
    (lambda T, x: T.linalg.inv(x), [np.ones((3, 3), np.int64)]),
    (lambda T, x: T.linalg.inv(x), [np.ones((2, 3))]),
    (lambda T, x: T.linalg.inv(x), [np.ones(3)]),
    (lambda T, x: T.linalg.inv(x), [np.ones((3, 3), np.float16)]),
    (lambda T, x: T.linalg.inv(x), [np.zeros((3, 3))]),
    (lambda T, x: T.linalg.inv(x), [np.ones((3, 3))]),
    (lambda T, x: T.linalg.inv(x), [np.stack([np.eye(3), np.zeros((3, 3))])]),
    (lambda T, x: T.linalg.slogdet(x), [np.ones((3, 3), np.int64)]),
    (lambda T, x: T.linalg.slogdet(x), [np.ones((2, 3))]),
    (lambda T, x, y: T.linalg.solve(x, y), [np.zeros((3, 3)), np.ones(3)]),
    (lambda T, x, y: T.linalg.solve(x, y), [np.ones((2, 3)), np.ones(3)]),
    (lambda T, x, y: T.linalg.solve(x, y), [np.eye(3), np.ones(2)]),
    (lambda T, x, y: T.linalg.solve(x, y), [np.eye(3), np.ones((2, 2))]),
    (lambda T, x, y: T.linalg.solve(x, y), [np.eye(3, dtype=np.float32), np.ones(3)]),
])
def test_errors(fn, arrays):
    _raises_same(fn, *arrays)


def test_submodule_through_the_import_shim():
    """`import torch.linalg` / `from torch.linalg import ...` under the shim reach the facade's module."""
    import os
    import subprocess
    import sys
    code = ("from flowgrad import shim\n"
            "shim.install('torch')\n"
            "import torch, torch.linalg\n"
            "from torch.linalg import det, LinAlgError\n"
            "import flowgrad.torch.linalg as mod\n"
            "assert torch.linalg is mod and det is mod.det\n"
            "try:\n"
            "    torch.linalg.inv(torch.zeros(2, 2))\n"
            "except LinAlgError as e:\n"
            "    print(type(e).__name__, e)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ("LinAlgError linalg.inv: The diagonal element 1 is zero, the inversion could not "
                                  "be completed because the input matrix is singular.")


# ------------------------------------------------------------------ decompositions (signs fixed)

def _signs(T, M, axis):
    """+1/-1 per singular / eigen vector making its largest-magnitude entry positive (a loss over
    sign-fixed vectors is independent of the LAPACK's sign choice)."""
    idx = M.detach().abs().argmax(axis, keepdim=True)
    return T.sign(M.detach().gather(axis, idx))


def _svd_fixed(T, x, full=False):
    U, Sv, Vh = T.linalg.svd(x, full_matrices=full)
    k = Sv.shape[-1]
    s = _signs(T, U[..., :k], -2)
    return U[..., :k] * s, Sv, Vh[..., :k, :] * s.transpose(-1, -2)


@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3), (2, 5, 2)])
def test_svd(shape):
    a = RNG.standard_normal(shape)
    _same(lambda T, x: _svd_fixed(T, x), a, names=False)
    _same(lambda T, x: T.linalg.svd(x)[1], a)
    _same(lambda T, x: T.linalg.svdvals(x), a)
    _same(lambda T, x: _svd_fixed(T, x, True), a, names=False)
    f, r = ft.linalg.svd(ft.tensor(a)), rt.linalg.svd(rt.tensor(a))
    assert [tuple(t.shape) for t in f] == [tuple(t.shape) for t in r]
    assert type(f).__name__ == type(r).__name__ == "linalg_svd"


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh(shape, uplo):
    a = RNG.standard_normal(shape)
    a = a + np.swapaxes(a, -1, -2)

    def fixed(T, x):
        L, V = T.linalg.eigh(x, UPLO=uplo)
        return L, V * _signs(T, V, -2)
    _same(fixed, a, names=False)
    _same(lambda T, x: T.linalg.eigh(x, uplo)[0], a)
    _same(lambda T, x: T.linalg.eigvalsh(x, uplo), a)


def test_eigh_not_symmetric_uses_one_triangle():
    a = RNG.standard_normal((3, 3))
    _same(lambda T, x: T.linalg.eigvalsh(x), a)
    _same(lambda T, x: T.linalg.eigvalsh(x, "U"), a)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(shape, upper):
    a = _spd(*shape)
    _same(lambda T, x: T.linalg.cholesky(x, upper=upper), a)


def test_cholesky_reads_lower_triangle():
    a = _spd(3, 3) + np.triu(np.ones((3, 3)), 1)
    _same(lambda T, x: T.linalg.cholesky(x), a)


@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (3, 5), (2, 4, 2)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(shape, mode):
    a = RNG.standard_normal(shape)

    def fixed(T, x):
        Q, R = T.linalg.qr(x, mode)
        k = min(shape[-2:])
        s = T.sign((R.detach()[..., :k, :k] * T.eye(k, dtype=R.dtype)).sum(-1))
        return Q[..., :k] * s.unsqueeze(-2), R[..., :k, :] * s.unsqueeze(-1)
    if mode == "complete" and shape[-2] > shape[-1]:
        _same(lambda T, x: tuple(T.linalg.qr(x, mode)), a, grad=False)
        _raises_same(lambda T, x: T.linalg.qr(x, mode)[0].sum().backward(), a, requires_grad=True)
    else:
        _same(fixed, a, names=False)


def test_qr_r_mode():
    a = RNG.standard_normal((4, 3))
    _same(lambda T, x: T.linalg.qr(x, "r")[0], a, grad=False)
    _raises_same(lambda T, x: T.linalg.qr(x, "r")[1].sum().backward(), a, requires_grad=True)


@pytest.mark.parametrize("fn,arrays", [
    (lambda T, x: T.linalg.cholesky(x), [-np.eye(3)]),
    (lambda T, x: T.linalg.cholesky(x), [np.stack([np.eye(3), np.diag([1.0, -1.0, 1.0])])]),
    (lambda T, x: T.linalg.cholesky(x), [np.ones((2, 3))]),
    (lambda T, x: T.linalg.cholesky(x), [np.ones((3, 3), np.int64)]),
    (lambda T, x: T.linalg.qr(x), [np.ones((3, 3), np.int64)]),
    (lambda T, x: T.linalg.qr(x), [np.ones(3)]),
    (lambda T, x: T.linalg.qr(x, mode="x"), [np.ones((3, 3))]),
    (lambda T, x: T.linalg.eigh(x), [np.ones((2, 3))]),
    (lambda T, x: T.linalg.eigh(x, UPLO="X"), [np.eye(3)]),
    (lambda T, x: T.linalg.eigvalsh(x), [np.ones((3, 3), np.int64)]),
    (lambda T, x: T.linalg.svd(x), [np.ones(3)]),
    (lambda T, x: T.linalg.svd(x), [np.ones((3, 3), np.int64)]),
    (lambda T, x: T.linalg.svdvals(x), [np.ones(3)]),
    (lambda T, x: T.linalg.svd(x, driver="gesvd"), [np.ones((3, 3))]),
])
def test_decomposition_errors(fn, arrays):
    _raises_same(fn, *arrays)


# ------------------------------------------------------------------ pinv, lstsq, matrix_exp

@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3)])
def test_pinv(shape):
    a = RNG.standard_normal(shape)
    _same(lambda T, x: T.linalg.pinv(x), a)


def test_pinv_tolerances_and_hermitian():
    a = np.diag([3.0, 1.0, 1e-3]) @ RNG.standard_normal((3, 3))
    _same(lambda T, x: T.linalg.pinv(x, rtol=0.1), a, grad=False)
    _same(lambda T, x: T.linalg.pinv(x, atol=0.5), a, grad=False)
    _same(lambda T, x: T.linalg.pinv(x, atol=0.01, rtol=0.2), a, grad=False)
    s = _spd(3, 3)
    _same(lambda T, x: T.linalg.pinv(x, hermitian=True), s)


@pytest.mark.parametrize("a_shape,b_shape", [((4, 3), (4, 2)), ((3, 3), (3, 1)), ((2, 5, 3), (2, 5, 2)),
                                             ((4, 3), (4,)), ((3, 4), (3, 2))])
@pytest.mark.parametrize("driver", [None, "gelsy", "gelsd", "gelss", "gels"])
def test_lstsq(a_shape, b_shape, driver):
    a, b = RNG.standard_normal(a_shape), RNG.standard_normal(b_shape)
    _same(lambda T, x, y: T.linalg.lstsq(x, y, driver=driver).solution, a, b)
    _same(lambda T, x, y: tuple(T.linalg.lstsq(x, y, driver=driver))[1:], a, b, grad=False)
    f, r = ft.linalg.lstsq(ft.tensor(a), ft.tensor(b)), rt.linalg.lstsq(rt.tensor(a), rt.tensor(b))
    assert type(f).__name__ == type(r).__name__
    for name in ("solution", "residuals", "rank", "singular_values"):
        assert tuple(getattr(f, name).shape) == tuple(getattr(r, name).shape)


@pytest.mark.parametrize("shape,scale", [((3, 3), 0.3), ((3, 3), 4.0), ((2, 4, 4), 1.0), ((1, 1), 2.0)])
def test_matrix_exp(shape, scale):
    a = RNG.standard_normal(shape) * scale
    _same(lambda T, x: T.linalg.matrix_exp(x), a, atol=1e-9)


def test_matrix_exp_float32():
    a = RNG.standard_normal((3, 3)).astype(np.float32)
    _same(lambda T, x: T.linalg.matrix_exp(x), a, atol=1e-5, grad=False)


@pytest.mark.parametrize("fn,arrays", [
    (lambda T, x, y: T.linalg.lstsq(x, y), [np.ones((2, 4, 3)), np.ones((4, 2))]),
    (lambda T, x, y: T.linalg.lstsq(x, y), [np.ones((2, 4, 3)), np.ones((3, 4, 2))]),
    (lambda T, x: T.linalg.pinv(x), [np.ones(3)]),
    (lambda T, x: T.linalg.pinv(x), [np.ones((3, 3), np.int64)]),
    (lambda T, x, y: T.linalg.lstsq(x, y, driver="x"), [np.ones((3, 3)), np.ones((3, 2))]),
    (lambda T, x, y: T.linalg.lstsq(x, y), [np.ones((3, 3)), np.ones((3, 2), np.float32)]),
    (lambda T, x, y: T.linalg.lstsq(x, y), [np.ones((4, 3)), np.ones((3, 2))]),
    (lambda T, x, y: T.linalg.lstsq(x, y), [np.ones((4, 3)), np.ones(3)]),
    (lambda T, x, y: T.linalg.lstsq(x, y), [np.ones(3), np.ones(3)]),
    (lambda T, x, y: T.linalg.lstsq(x, y), [np.ones((3, 3), np.int64), np.ones((3, 3), np.int64)]),
    (lambda T, x, y: T.linalg.lstsq(x, y, driver="gels"), [np.array([[1.0, 1, 0], [0, 0, 0], [0, 0, 1]]),
                                                           np.ones((3, 1))]),
    (lambda T, x: T.linalg.matrix_exp(x), [np.ones((3, 3), np.int64)]),
    (lambda T, x: T.linalg.matrix_exp(x), [np.ones(3)]),
    (lambda T, x: T.linalg.matrix_exp(x), [np.ones((2, 3))]),
])
def test_solver_errors(fn, arrays):
    _raises_same(fn, *arrays)


# ------------------------------------------------------------- _ex variants, compositions, aliases

def test_inv_ex_and_cholesky_ex_info():
    a = np.stack([np.eye(3) * 2, np.zeros((3, 3)), np.diag([1.0, 0.0, 1.0])])
    f, r = ft.linalg.inv_ex(ft.tensor(a)), rt.linalg.inv_ex(rt.tensor(a))
    assert f.info.tolist() == r.info.tolist() and str(f.info.dtype) == str(r.info.dtype)
    np.testing.assert_allclose(f.inverse.numpy()[0], r.inverse.numpy()[0])
    assert type(f).__name__ == type(r).__name__
    s = np.stack([_spd(3, 3), -np.eye(3), np.diag([1.0, 1.0, -1.0])])
    f, r = ft.linalg.cholesky_ex(ft.tensor(s)), rt.linalg.cholesky_ex(rt.tensor(s))
    assert f.info.tolist() == r.info.tolist() and str(f.info.dtype) == str(r.info.dtype)
    np.testing.assert_allclose(f.L.numpy()[0], r.L.numpy()[0])
    _same(lambda T, x: T.linalg.inv_ex(x)[0], a[:1])
    _same(lambda T, x: T.linalg.cholesky_ex(x, upper=True)[0], s[:1])


@pytest.mark.parametrize("n", [-3, -1, 0, 1, 2, 5])
def test_matrix_power(n):
    a = RNG.standard_normal((2, 3, 3)) + 2 * np.eye(3)
    _same(lambda T, x: T.linalg.matrix_power(x, n), a, names=n not in (0,))


def test_multi_dot_vecdot():
    a, b, c = RNG.standard_normal(3), RNG.standard_normal((3, 4)), RNG.standard_normal((4, 2))
    _same(lambda T, x, y, z: T.linalg.multi_dot([x, y, z]), a, b, c, names=False)
    _same(lambda T, x, y: T.linalg.vecdot(x, y, dim=0), b, RNG.standard_normal((3, 4)))


@pytest.mark.parametrize("fn,arrays", [
    (lambda T, x: T.linalg.inv_ex(x, check_errors=True), [np.zeros((3, 3))]),
    (lambda T, x: T.linalg.cholesky_ex(x, check_errors=True), [-np.eye(3)]),
    (lambda T, x: T.linalg.inv_ex(x), [np.zeros((3, 3), np.int64)]),
    (lambda T, x: T.linalg.cholesky_ex(x), [np.zeros((3, 2))]),
    (lambda T, x: T.linalg.multi_dot([x]), [np.eye(2)]),
    (lambda T, x: T.linalg.matrix_power(x, 2), [np.ones((2, 3))]),
    (lambda T, x: T.linalg.matrix_power(x, 2), [np.ones(3)]),
    (lambda T, x: T.linalg.matrix_power(x, -1), [np.ones((3, 3), np.int64)]),
    (lambda T, x, y: T.linalg.vecdot(x, y), [np.ones(3, np.float32), np.ones(3)]),
])
def test_more_errors(fn, arrays):
    _raises_same(fn, *arrays)


@pytest.mark.parametrize("name", ["det", "inverse", "slogdet", "logdet", "matrix_exp", "pinverse"])
def test_top_level_and_methods(name):
    a = np.stack([RNG.standard_normal((3, 3)) + 2 * np.eye(3), -np.eye(3) + 0.1 * RNG.standard_normal((3, 3))])
    _same(lambda T, x: getattr(T, name)(x), a)
    _same(lambda T, x: getattr(x, name)(), a)
    _raises_same(lambda T, x: getattr(T, name)(x), np.ones((3, 3), np.int64))


def test_top_level_return_types_and_rcond():
    a = np.diag([2.0, 1e-3, 1.0])
    f, r = ft.slogdet(ft.tensor(a)), rt.slogdet(rt.tensor(a))
    assert type(f).__name__ == type(r).__name__ == "slogdet"
    _same(lambda T, x: T.pinverse(x, rcond=0.01), a, grad=False)
    _same(lambda T, x: x.matrix_power(3), a)


# ------------------------------------------------------------- solve_triangular, cross, rank, cond

@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unit", [False, True])
def test_solve_triangular(upper, left, unit):
    a = RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    b = RNG.standard_normal((3, 2) if left else (2, 3))
    _same(lambda T, x, y: T.linalg.solve_triangular(x, y, upper=upper, left=left, unitriangular=unit), a, b,
          names=left)


def test_solve_triangular_zero_diagonal_and_promotion():
    _same(lambda T, x, y: T.linalg.solve_triangular(x, y, upper=True), np.zeros((3, 3)), np.ones((3, 3)),
          grad=False)
    f = ft.linalg.solve_triangular(ft.eye(3, dtype=ft.float64), ft.ones(3, 2), upper=True)
    r = rt.linalg.solve_triangular(rt.eye(3, dtype=rt.float64), rt.ones(3, 2), upper=True)
    assert str(f.dtype) == str(r.dtype)


@pytest.mark.parametrize("dim", [-1, 0])
def test_cross(dim):
    a, b = RNG.standard_normal((3, 3)), RNG.standard_normal((1, 3) if dim == -1 else (3, 3))
    _same(lambda T, x, y: T.linalg.cross(x, y, dim=dim), a, b)


def test_matrix_rank():
    a = RNG.standard_normal((2, 4, 3))
    a[1, :, 2] = a[1, :, 0]
    for kw in ({}, {"hermitian": False}, {"atol": 0.5}, {"rtol": 0.3}, {"atol": 0.1, "rtol": 0.2}):
        _same(lambda T, x: T.linalg.matrix_rank(x, **kw), a, grad=False)
    s = _spd(3, 3)
    _same(lambda T, x: T.linalg.matrix_rank(x, hermitian=True), s, grad=False)


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, float("inf"), float("-inf"), "fro", "nuc"])
def test_cond(p):
    a = RNG.standard_normal((2, 3, 3)) + np.eye(3)
    # PyTorch's own backward fails for the orders computed through inv (it modifies the inverse in place)
    _same(lambda T, x: T.linalg.cond(x, p), a, names=False, grad=p in (None, 2, -2, "nuc"))


@pytest.mark.parametrize("fn", [
    lambda T, x: T.linalg.matrix_norm(x, 2),
    lambda T, x: T.linalg.matrix_norm(x, "nuc"), lambda T, x: T.linalg.det(x[:, :0]),
    lambda T, x: T.linalg.svdvals(x), lambda T, x: T.linalg.pinv(x), lambda T, x: T.linalg.inv(x[:, :0]),
])
def test_empty(fn):
    _same(fn, np.zeros((0, 3)))


def test_empty_order_minus_2():
    _raises_same(lambda T, x: T.linalg.matrix_norm(x, -2), np.zeros((0, 3)))


def test_lstsq_broadcasts():
    _same(lambda T, x, y: T.linalg.lstsq(x, y).solution, RNG.standard_normal((2, 4, 3)),
          RNG.standard_normal((1, 4, 2)))


def test_cond_singular():
    _same(lambda T, x: T.linalg.cond(x, 1), np.zeros((3, 3)), grad=False)
    _same(lambda T, x: T.linalg.cond(x, "fro"), np.ones((3, 3)), grad=False)


@pytest.mark.parametrize("fn,arrays", [
    (lambda T, x, y: T.linalg.solve_triangular(x, y, upper=True), [np.ones(3), np.ones((3, 3))]),
    (lambda T, x, y: T.linalg.solve_triangular(x, y, upper=True), [np.eye(3), np.ones(3)]),
    (lambda T, x, y: T.linalg.solve_triangular(x, y, upper=True), [np.ones((2, 3)), np.ones((3, 3))]),
    (lambda T, x, y: T.linalg.solve_triangular(x, y, upper=True), [np.eye(3), np.ones((2, 3))]),
    (lambda T, x, y: T.linalg.solve_triangular(x, y, upper=True), [np.eye(3, dtype=np.int64),
                                                                   np.ones((3, 3), np.int64)]),
    (lambda T, x, y: T.linalg.cross(x, y), [np.ones((2, 2)), np.ones((2, 2))]),
    (lambda T, x, y: T.linalg.cross(x, y, dim=0), [np.ones((2, 3)), np.ones((2, 3))]),
    (lambda T, x, y: T.linalg.cross(x, y), [np.ones((2, 3)), np.ones(3)]),
    (lambda T, x, y: T.linalg.cross(x, y), [np.ones(3), np.ones(3, np.float32)]),
    (lambda T, x: T.linalg.matrix_rank(x), [np.ones((3, 3), np.int64)]),
    (lambda T, x: T.linalg.matrix_rank(x), [np.ones(3)]),
    (lambda T, x: T.linalg.cond(x, 3), [np.eye(3)]),
    (lambda T, x: T.linalg.cond(x, 1), [np.ones((2, 3))]),
    (lambda T, x: T.linalg.vector_norm(x, dtype=T.float64), [np.ones(3, np.int64)]),
])
def test_last_errors(fn, arrays):
    _raises_same(fn, *arrays)


# ------------------------------------------------------------------ a second device (the fake one)

_ON_DEVICE = [
    lambda L, a, b: L.det(a), lambda L, a, b: L.inv(a), lambda L, a, b: tuple(L.slogdet(a)),
    lambda L, a, b: L.solve(a, b), lambda L, a, b: L.svdvals(a), lambda L, a, b: L.svd(a)[1],
    lambda L, a, b: L.eigvalsh(a + a.mT), lambda L, a, b: L.cholesky(a @ a.mT), lambda L, a, b: L.qr(a)[1].abs(),
    lambda L, a, b: L.pinv(a), lambda L, a, b: L.lstsq(a, b).solution, lambda L, a, b: L.matrix_exp(a),
    lambda L, a, b: L.matrix_norm(a, 2), lambda L, a, b: L.norm(a, "nuc"), lambda L, a, b: L.vector_norm(a, 3),
    lambda L, a, b: L.solve_triangular(a, b, upper=True), lambda L, a, b: L.cross(a, b, dim=0),
    lambda L, a, b: L.matrix_rank(a), lambda L, a, b: L.cond(a, 1), lambda L, a, b: L.inv_ex(a).inverse,
    lambda L, a, b: L.cholesky_ex(a @ a.mT).L, lambda L, a, b: L.matrix_power(a, -2),
]


@pytest.mark.parametrize("index", range(len(_ON_DEVICE)))
def test_on_a_second_device(index):
    from flowgrad.testing import fake_device
    fake_device.register()
    fn = _ON_DEVICE[index]
    a = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
    b = RNG.standard_normal((3, 3))
    cpu = [ft.tensor(a, requires_grad=True), ft.tensor(b, requires_grad=True)]
    dev = [ft.tensor(a, device="fake", requires_grad=True), ft.tensor(b, device="fake", requires_grad=True)]
    want, got = _outs(fn(ft.linalg, *cpu)), _outs(fn(ft.linalg, *dev))
    for w, g in zip(want, got):
        assert g.device.type == "fake"
        np.testing.assert_allclose(g.cpu().detach().numpy(), w.detach().numpy(), atol=1e-10)
    live = [(w, g) for w, g in zip(want, got) if g.requires_grad]
    if live:
        sum(w.sum() for w, _ in live).backward()
        sum(g.sum() for _, g in live).backward()
        for c, d in zip(cpu, dev):
            assert (c.grad is None) == (d.grad is None)
            if d.grad is not None:
                assert d.grad.device.type == "fake"
                np.testing.assert_allclose(d.grad.cpu().numpy(), c.grad.numpy(), atol=1e-8)


def test_errors_on_a_second_device():
    from flowgrad.testing import fake_device
    fake_device.register()
    z = ft.zeros(2, 3, 3, dtype=ft.float64, device="fake")
    z[0] = ft.eye(3, dtype=ft.float64, device="fake")
    with pytest.raises(ft.linalg.LinAlgError, match=r"\(Batch element 1\): The diagonal element 1 is zero"):
        ft.linalg.inv(z)
    with pytest.raises(ft.linalg.LinAlgError, match=r"\(Batch element 1\): .* leading minor of order 1"):
        ft.linalg.cholesky(z)
    assert ft.linalg.inv_ex(z).info.tolist() == [0, 1]


# ------------------------------------------------------- solve_ex, diagonal, vander, tensorinv/solve

def test_solve_ex():
    a = np.stack([np.eye(3) * 2, np.zeros((3, 3))])
    f, r = ft.linalg.solve_ex(ft.tensor(a), ft.ones(3, dtype=ft.float64)), \
        rt.linalg.solve_ex(rt.tensor(a), rt.ones(3, dtype=rt.float64))
    assert f.info.tolist() == r.info.tolist() and str(f.info.dtype) == str(r.info.dtype)
    np.testing.assert_allclose(f.result.numpy()[0], r.result.numpy()[0])
    good = RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    _same(lambda T, x, y: T.linalg.solve_ex(x, y)[0], good, RNG.standard_normal((2, 3)))
    _same(lambda T, x, y: T.linalg.solve_ex(x, y, left=False, check_errors=True)[0], good,
          RNG.standard_normal((2, 2, 3)), names=False)
    f = ft.linalg.solve_ex(ft.tensor(good), ft.ones(3, dtype=ft.float64), check_errors=True)
    r = rt.linalg.solve_ex(rt.tensor(good), rt.ones(3, dtype=rt.float64), check_errors=True)
    assert f.info.tolist() == r.info.tolist()


@pytest.mark.parametrize("kw", [{}, {"offset": -1}, {"offset": 2, "dim1": 0, "dim2": 2}, {"offset": 9},
                                {"dim1": 2, "dim2": 0}])
def test_diagonal(kw):
    _same(lambda T, x: T.linalg.diagonal(x, **kw), RNG.standard_normal((2, 3, 4)), names=False)


@pytest.mark.parametrize("n", [None, 2, 5])
def test_vander(n):
    _same(lambda T, x: T.linalg.vander(x, N=n), RNG.standard_normal((2, 3)))
    _same(lambda T, x: T.linalg.vander(x.long(), N=n), np.arange(3.0), grad=False)


def test_tensorinv_tensorsolve():
    _same(lambda T, x: T.linalg.tensorinv(x, ind=2), RNG.standard_normal((4, 6, 8, 3)), names=False)
    _same(lambda T, x: T.linalg.tensorinv(x, ind=1), RNG.standard_normal((6, 2, 3)), names=False)
    _same(lambda T, x, y: T.linalg.tensorsolve(x, y), RNG.standard_normal((2, 3, 6)), RNG.standard_normal((2, 3)),
          names=False)
    _same(lambda T, x, y: T.linalg.tensorsolve(x, y, dims=(0,)), RNG.standard_normal((6, 2, 3)),
          RNG.standard_normal((2, 3)), names=False)


@pytest.mark.parametrize("fn,arrays", [
    (lambda T, x, y: T.linalg.solve_ex(x, y, check_errors=True), [np.zeros((3, 3)), np.ones(3)]),
    (lambda T, x: T.linalg.diagonal(x, dim1=1, dim2=1), [np.ones((2, 3, 4))]),
    (lambda T, x: T.linalg.diagonal(x, dim1=1, dim2=5), [np.ones((2, 3, 4))]),
    (lambda T, x: T.linalg.vander(x, N=0), [np.ones(3)]),
    (lambda T, x: T.linalg.vander(x), [np.ones(())]),
    (lambda T, x: T.linalg.vander(x, N=1), [np.ones(3)]),
    (lambda T, x: T.linalg.tensorinv(x, ind=2), [np.ones((4, 6, 8, 2))]),
    (lambda T, x: T.linalg.tensorinv(x, ind=0), [np.ones((4, 6))]),
    (lambda T, x, y: T.linalg.tensorsolve(x, y), [np.ones((2, 3, 5)), np.ones((2, 3))]),
])
def test_compositions_errors(fn, arrays):
    _raises_same(fn, *arrays)


# ---------------------------------------------------------------------------------------- lu

@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (4, 3), (3, 5), (2, 5, 2)])
def test_lu(shape):
    a = RNG.standard_normal(shape)
    _same(lambda T, x: tuple(T.linalg.lu(x)), a)
    _same(lambda T, x: T.linalg.lu_factor(x)[0], a)
    f, r = ft.linalg.lu_factor(ft.tensor(a)), rt.linalg.lu_factor(rt.tensor(a))
    assert f.pivots.tolist() == r.pivots.tolist() and str(f.pivots.dtype) == str(r.pivots.dtype)
    assert type(f).__name__ == type(r).__name__


def test_lu_factor_ex_info():
    a = np.stack([RNG.standard_normal((3, 3)), np.zeros((3, 3)), np.diag([1.0, 0.0, 2.0])])
    f, r = ft.linalg.lu_factor_ex(ft.tensor(a)), rt.linalg.lu_factor_ex(rt.tensor(a))
    for name in ("LU", "pivots", "info"):
        np.testing.assert_allclose(getattr(f, name).numpy(), getattr(r, name).numpy())
    _same(lambda T, x: tuple(T.linalg.lu(x)), a, grad=False)


@pytest.mark.parametrize("fn,arrays", [
    (lambda T, x: T.linalg.lu(x, pivot=False), [np.eye(3)]),
    (lambda T, x: T.linalg.lu(x), [np.ones(3)]),
    (lambda T, x: T.linalg.lu(x), [np.ones((3, 3), np.int64)]),
    (lambda T, x: T.linalg.lu_factor(x), [np.ones(3)]),
    (lambda T, x: T.linalg.lu_factor(x), [np.zeros((3, 3))]),
    (lambda T, x: T.linalg.lu_factor(x), [np.stack([np.eye(3), np.zeros((3, 3))])]),
    (lambda T, x: T.linalg.lu_factor_ex(x, check_errors=True), [np.zeros((3, 3))]),
])
def test_lu_errors(fn, arrays):
    _raises_same(fn, *arrays)


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("batch", [(), (2,)])
def test_lu_solve(left, adjoint, batch):
    a = RNG.standard_normal(batch + (3, 3))
    b = RNG.standard_normal(batch + ((3, 2) if left else (2, 3)))

    def fn(T, x, y):
        LU, piv = T.linalg.lu_factor(x)
        return T.linalg.lu_solve(LU, piv, y, left=left, adjoint=adjoint)
    _same(fn, a, b, names=False)


@pytest.mark.parametrize("fn", [
    lambda T, LU, piv: T.linalg.lu_solve(LU, piv, T.ones(3, dtype=T.float64)),
    lambda T, LU, piv: T.linalg.lu_solve(LU, piv, T.ones(4, 2, dtype=T.float64)),
    lambda T, LU, piv: T.linalg.lu_solve(LU, piv, T.ones(3, 2)),
    lambda T, LU, piv: T.linalg.lu_solve(LU, piv.long(), T.ones(3, 2, dtype=T.float64)),
    lambda T, LU, piv: T.linalg.lu_solve(LU[:2], piv, T.ones(2, 2, dtype=T.float64)),
    lambda T, LU, piv: T.linalg.lu_solve(LU, piv[:2], T.ones(3, 2, dtype=T.float64)),
])
def test_lu_solve_errors(fn):
    a = RNG.standard_normal((3, 3))

    def run(T, x):
        LU, piv = T.linalg.lu_factor(x)
        return fn(T, LU, piv)
    _raises_same(run, a)


# PyTorch's older overloads: matrix_rank(A, tol, hermitian) with tol absolute, pinv(A, rcond, hermitian)
# with rcond relative; None or either beside atol / rtol is no overload's; torch.matrix_rank is removed
_LEGACY_RNG = np.random.default_rng(11)
_LEGACY_A = np.diag([40.0, 15.0, 4.0, 0.3, 0.007]) @ _LEGACY_RNG.standard_normal((5, 5))
_LEGACY_SYM = np.diag([6.0, -3.0, 0.5, -0.05])[[1, 0, 3, 2]] @ np.eye(4)[[1, 0, 3, 2]]


@pytest.mark.parametrize("code", [
    "L.matrix_rank(A, 0.05)", "L.matrix_rank(A, 0.5)", "L.matrix_rank(A, 5.0)", "L.matrix_rank(A, tol=20.0)",
    "L.matrix_rank(A, T.tensor(0.5, dtype=T.float64))", "L.matrix_rank(A, T.tensor([0.1, 5.0, 50.0]))",
    "L.matrix_rank(A, T.tensor([True, False]))", "L.matrix_rank(A, T.tensor([1, 20]))", "L.matrix_rank(S, 1.0, True)",
    "L.matrix_rank(S, 1.0, hermitian=True)", "L.pinv(A, 0.05)", "L.pinv(A, rcond=0.5)", "L.pinv(S, 0.1, True)",
    "L.pinv(A, T.tensor([0.01, 0.5], dtype=T.float64))", "T.pinverse(A, 0.05)",
])
@pytest.mark.filterwarnings("ignore:An output with one or more elements was resized")   # real torch's own
def test_legacy_tolerance_overloads(code):
    outs = []
    for T in (ft, rt):
        env = {"T": T, "L": T.linalg, "A": T.tensor(_LEGACY_A), "S": T.tensor(_LEGACY_SYM)}
        outs.append(eval(code, env))
    mine, theirs = outs
    assert str(mine.dtype) == str(theirs.dtype) and tuple(mine.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), atol=1e-9)


@pytest.mark.parametrize("code,cls", [
    ("L.matrix_rank(A, None)", TypeError), ("L.matrix_rank(A, 0.5, atol=0.1)", TypeError),
    ("L.matrix_rank(A, 'a')", TypeError), ("L.pinv(A, None)", TypeError), ("L.pinv(A, 0.5, rtol=0.1)", TypeError),
    ("L.pinv(A, [1.0])", TypeError), ("T.matrix_rank(A)", RuntimeError), ("T.matrix_rank(A, 0.5, True)", RuntimeError),
])
def test_legacy_tolerance_refusals(code, cls):
    msgs = []
    for T in (ft, rt):
        with pytest.raises(cls) as info:
            eval(code, {"T": T, "L": T.linalg, "A": T.tensor(_LEGACY_A)})
        msgs.append(str(info.value))
    if "atol" in code or "rtol" in code:     # PyTorch lists keyword arguments in no fixed order
        assert msgs[0].split(" - got")[0] == msgs[1].split(" - got")[0]
    else:
        assert msgs[0] == msgs[1]
