"""torch.func against real torch: grad / grad_and_value (argnums, has_aux, pytrees, nesting, composing
with ordinary autograd), vjp, jvp, jacrev, jacfwd, hessian, vmap (in_dims / out_dims, nested
structures, per-sample gradients) and functional_call, with PyTorch's errors."""
from __future__ import annotations

import numpy as np
import pytest

X = [[0.3, -1.2, 0.7], [1.1, 0.4, -0.5]]


def _close(a, b):
    np.testing.assert_allclose(np.asarray(a.detach().numpy()), np.asarray(b), rtol=1e-6, atol=1e-8)


def _f(torch):
    return lambda x: (torch.sin(x) * x ** 2).sum()


def test_grad_matches_autograd(torch):
    x = torch.tensor(X, dtype=torch.float64)
    g = torch.func.grad(_f(torch))(x)
    assert not g.requires_grad and g.shape == x.shape
    _close(g, (torch.cos(x) * x ** 2 + 2 * x * torch.sin(x)).numpy())


def test_grad_argnums_has_aux_and_pytrees(torch):
    x = torch.tensor(X[0], dtype=torch.float64)
    y = torch.tensor(X[1], dtype=torch.float64)

    def f(a, b):
        out = (a * b).sum() + (a ** 2).sum()
        return out, {"out": out, "n": (out * 2,)}

    (ga, gb), aux = torch.func.grad(f, argnums=(0, 1), has_aux=True)(x, y)
    _close(ga, (y + 2 * x).numpy())
    _close(gb, x.numpy())
    assert float(aux["n"][0]) == 2 * float(aux["out"]) and not aux["out"].requires_grad
    g, value = torch.func.grad_and_value(lambda p: (p["w"] * p["v"][0]).sum())({"w": x, "v": [y]})
    assert set(g) == {"w", "v"} and isinstance(g["v"], list)
    _close(g["w"], y.numpy())
    _close(g["v"][0], x.numpy())
    _close(value, (x * y).sum().numpy())
    gneg = torch.func.grad(lambda a, b: (a * b * b).sum(), argnums=-1)(x, y)
    _close(gneg, (2 * x * y).numpy())


def test_unused_input_gets_zeros(torch):
    x = torch.tensor(X[0])
    ga, gb = torch.func.grad(lambda a, b: a.sum(), argnums=(0, 1))(x, x * 2)
    assert gb.tolist() == [0.0, 0.0, 0.0] and ga.tolist() == [1.0, 1.0, 1.0]


def test_nested_grad_and_composition_with_autograd(torch):
    x = torch.tensor(0.7, dtype=torch.float64)
    f = lambda t: torch.sin(t) * t ** 3  # noqa: E731
    g2 = torch.func.grad(torch.func.grad(f))(x)
    expect = -np.sin(0.7) * 0.7 ** 3 + 6 * np.cos(0.7) * 0.7 ** 2 + 6 * 0.7 * np.sin(0.7)
    assert abs(float(g2) - expect) < 1e-12
    w = torch.tensor([1.5, -0.5], dtype=torch.float64, requires_grad=True)
    g = torch.func.grad(lambda v: (w * v ** 2).sum())(torch.tensor([0.2, 0.3], dtype=torch.float64))
    assert g.requires_grad
    g.sum().backward()
    _close(w.grad, [0.4, 0.6])


def test_grad_errors(torch):
    x = torch.tensor(X[0])
    cases = [
        (lambda: torch.func.grad(lambda a: a)(x), RuntimeError,
         "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with 1 dims. Maybe you "
         "wanted to use the vjp or jacrev APIs instead?"),
        (lambda: torch.func.grad(lambda a: 3.0)(x), RuntimeError,
         "grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got <class 'float'>"),
        (lambda: torch.func.grad(lambda a: a.sum(), has_aux=True)(x), RuntimeError,
         "grad_and_value(f)(*args): output of function f should be a tuple: (output, aux) if has_aux is True"),
        (lambda: torch.func.grad(lambda a: (a.sum(), 3), has_aux=True)(x), RuntimeError,
         "Expected tensors, got unsupported type <class 'int'>"),
        (lambda: torch.func.grad(lambda a: a.sum(), argnums=1)(x), RuntimeError,
         "Got argnum=1, but only 1 positional inputs"),
        (lambda: torch.func.grad(lambda a: a.sum(), argnums=1.5)(x), RuntimeError,
         "argnums must be int or Tuple[int, ...], got: <class 'float'>"),
        (lambda: torch.func.grad(lambda a: a.sum(), argnums=())(x), RuntimeError, "argnums must be non-empty"),
        (lambda: torch.func.grad(lambda a, b: a.sum(), argnums=(0, -2))(x, x), RuntimeError,
         "argnums elements must be unique, got (0, 0)"),
        (lambda: torch.func.grad(lambda a: a.sum())(3.0), ValueError,
         "Thing passed to transform API must be Tensor, got <class 'float'>"),
    ]
    for fn, exc, msg in cases:
        with pytest.raises(exc) as info:
            fn()
        assert str(info.value) == msg


def test_vjp(torch):
    x = torch.tensor(X, dtype=torch.float64)
    y = torch.tensor(X[0], dtype=torch.float64)
    out, vjp_fn = torch.func.vjp(lambda a, b: (a * b, (a ** 2).sum()), x, y)
    assert not out[0].requires_grad
    ct = (torch.ones_like(x) * 2, torch.tensor(3.0, dtype=torch.float64))
    ga, gb = vjp_fn(ct)
    _close(ga, (2 * y + 6 * x).numpy())
    _close(gb, (2 * x).sum(0).numpy())
    again = vjp_fn(ct)   # the graph is kept for further calls
    _close(again[0], ga.numpy())
    out, fn, aux = torch.func.vjp(lambda a: (a.exp(), a.sum()), y, has_aux=True)
    _close(fn(torch.ones(3, dtype=torch.float64))[0], y.exp().numpy())
    with pytest.raises(RuntimeError) as info:
        vjp_fn(torch.ones_like(x))
    assert str(info.value) == ("Expected pytree structure of cotangents to be the same as pytree structure of "
                               "outputs to the function. cotangents: *, primal output: (*, *)")
    with pytest.raises(RuntimeError, match=r"vjp\(f, \*primals\): expected f\(\*primals\) to return only tensors, "
                                           r"got unsupported type <class 'int'>"):
        torch.func.vjp(lambda a: 3, y)


def test_jvp(torch):
    x = torch.tensor(X[0], dtype=torch.float64)
    t = torch.tensor([1.0, 2.0, -1.0], dtype=torch.float64)
    out, tangent = torch.func.jvp(lambda a: torch.sin(a) * a, (x,), (t,))
    _close(out, (np.sin(X[0]) * np.array(X[0])))
    _close(tangent, (np.cos(X[0]) * np.array(X[0]) + np.sin(X[0])) * np.array([1.0, 2.0, -1.0]))
    with pytest.raises(RuntimeError) as info:
        torch.func.jvp(lambda a: a, x, (t,))
    assert str(info.value) == ("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it should be valid to "
                               "call f(*primals).")
    with pytest.raises(RuntimeError) as info:
        torch.func.jvp(lambda a: a, (x,), (t, t))
    assert "Got primals with structure TreeSpec(tuple, None, [*]) and tangents with structure TreeSpec(tuple, None, " \
           "[*,\n  *])" in str(info.value)
    with pytest.raises(RuntimeError, match=r"Tensor is of size \[3\] while the given forward gradient is of size "
                                           r"\[2\]\."):
        torch.func.jvp(lambda a: a, (x,), (torch.ones(2, dtype=torch.float64),))


def test_jacobians_and_hessian(torch):
    x = torch.tensor(X[0], dtype=torch.float64)
    y = torch.tensor(X[1][:2], dtype=torch.float64)
    f = lambda a, b: torch.outer(torch.sin(a), b)  # noqa: E731
    for jac in (torch.func.jacrev, torch.func.jacfwd):
        ja, jb = jac(f, argnums=(0, 1))(x, y)
        assert tuple(ja.shape) == (3, 2, 3) and tuple(jb.shape) == (3, 2, 2)
        expect = np.einsum("ij,k->ikj", np.diag(np.cos(X[0])), np.array(X[1][:2]))
        _close(ja, expect)
    h = torch.func.hessian(lambda a: (a ** 3).sum() * a[0])(x)
    expect = torch.autograd.functional.hessian(lambda a: (a ** 3).sum() * a[0], x)
    _close(h, expect.numpy())
    out = torch.func.jacrev(lambda a: {"s": a.sum(), "v": a * 2})(x)
    assert tuple(out["s"].shape) == (3,) and tuple(out["v"].shape) == (3, 3)
    with pytest.raises(ValueError, match="^jacrev: `chunk_size` should be greater than 0.$"):
        torch.func.jacrev(lambda a: a, chunk_size=0)(x)


def test_vmap(torch):
    x = torch.tensor(X, dtype=torch.float64)
    w = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)
    out = torch.func.vmap(torch.dot, in_dims=(0, None))(x, w)
    _close(out, np.array(X) @ np.array([0.5, -1.0, 2.0]))
    out = torch.vmap(lambda a: (a * 2, a.sum()), in_dims=1, out_dims=(1, 0))(x)
    _close(out[0], 2 * np.array(X))
    _close(out[1], np.array(X).sum(0))
    nested = torch.func.vmap(lambda d: d["a"] + d["b"][0], in_dims=({"a": 0, "b": [1]},))(
        {"a": x, "b": [x.t()]})
    _close(nested, 2 * np.array(X))
    per_sample = torch.func.vmap(torch.func.grad(lambda v: (v ** 3).sum()))(x)
    _close(per_sample, 3 * np.array(X) ** 2)
    kw = torch.func.vmap(lambda a, scale: a * scale)(x, scale=3.0)
    _close(kw, 3 * np.array(X))


def test_vmap_keeps_gradients(torch):
    x = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    torch.func.vmap(lambda a: (a ** 2).sum())(x).sum().backward()
    _close(x.grad, 2 * np.array(X))


def test_vmap_errors(torch):
    x = torch.ones(3)
    cases = [
        (lambda: torch.func.vmap(lambda a, b: a)(x, torch.ones(4)), ValueError,
         "vmap: Expected all tensors to have the same size in the mapped dimension, got sizes [3, 4] for the mapped "
         "dimension"),
        (lambda: torch.func.vmap(lambda a: a, in_dims=1)(x), ValueError,
         "vmap(<lambda>, in_dims=1, ...)(<inputs>): Got in_dim=1 for some input, but that input is a Tensor of "
         "dimensionality 1 so expected in_dim to satisfy -1 <= in_dim < 1."),
        (lambda: torch.func.vmap(lambda a: a, in_dims=(0, 0))(x), ValueError,
         "vmap(<lambda>, in_dims=(0, 0), ...)(<inputs>): in_dims is not compatible with the structure of `inputs`. "
         "in_dims has structure TreeSpec(tuple, None, [*,\n  *]) but inputs has structure TreeSpec(tuple, None, "
         "[*])."),
        (lambda: torch.func.vmap(lambda a: 3)(x), ValueError,
         "vmap(<lambda>, ...): `<lambda>` must only return Tensors, got type <class 'int'>. Did you mean to set "
         "out_dims= to None for output?"),
        (lambda: torch.func.vmap(lambda a: a, randomness="bad")(x), RuntimeError,
         "Only allowed values for randomness are 'error', 'different', or 'same'. Got bad"),
        (lambda: torch.func.vmap(lambda a: a, in_dims=[0])(x), ValueError,
         "vmap(<lambda>, in_dims=[0], ...)(<inputs>): expected `in_dims` to be int or a (potentially nested) tuple "
         "matching the structure of inputs, got: <class 'list'>."),
        (lambda: torch.func.vmap(lambda a: a)(3.0), ValueError,
         "vmap(<lambda>, in_dims=0, ...)(<inputs>): Got in_dim=0 for an input but the input is of type <class "
         "'float'>. We cannot vmap over non-Tensor arguments, please use None as the respective in_dim"),
        (lambda: torch.func.vmap(lambda a: a)(), ValueError,
         "vmap(<lambda>)(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are trying to vmap over a "
         "function with no inputs. The latter is unsupported."),
        (lambda: torch.func.vmap(lambda a: a, in_dims=(None,))(x), ValueError,
         "vmap: Expected at least one Tensor to vmap over"),
        (lambda: torch.func.vmap(lambda a: a, out_dims="a")(x), ValueError,
         "vmap(<lambda>, ..., out_dims=a): `out_dims` must be an int, None or a python collection of ints "
         "representing where in the outputs the vmapped dimension should appear."),
        (lambda: torch.func.vmap(lambda a: a, out_dims=None)(torch.arange(3.0)), ValueError,
         "vmap(<lambda>, ...): `<lambda>` can not return a BatchedTensor when out_dim is None"),
        (lambda: torch.func.vmap(lambda a: a, chunk_size=0)(x), ValueError,
         "vmap: chunk_size should be None or greater than 0. (got 0)"),
    ]
    for fn, exc, msg in cases:
        with pytest.raises(exc) as info:
            fn()
        assert str(info.value) == msg


def test_unbatched_outputs(torch):
    c = torch.ones(2)
    out, const = torch.func.vmap(lambda a: (a * 2, c), out_dims=(0, None))(torch.arange(3.0))
    assert const is c and out.tolist() == [0.0, 2.0, 4.0]
    assert torch.func.vmap(lambda a: (a, 3), out_dims=(0, None))(torch.arange(3.0))[1] == 3


def test_refused_features_say_so():
    import flowgrad.torch as fg
    with pytest.raises(NotImplementedError, match="randomness='same'"):
        fg.func.vmap(lambda a: a, randomness="same")
    with pytest.raises(NotImplementedError, match="empty batch"):
        fg.func.vmap(lambda a: a.sum())(fg.ones(0, 3))


def test_functional_call(torch):
    torch.manual_seed(0)
    m = torch.nn.Linear(2, 2)
    w0 = m.weight
    x = torch.tensor([[1.0, 2.0]])
    out = torch.func.functional_call(m, {"weight": torch.zeros(2, 2)}, x)
    _close(out, m.bias.detach().numpy()[None])
    assert m.weight is w0
    out = torch.func.functional_call(m, ({"weight": torch.eye(2)}, {"bias": torch.zeros(2)}), (x,))
    _close(out, [[1.0, 2.0]])
    params = {"weight": torch.eye(2, requires_grad=True), "bias": torch.zeros(2)}
    g = torch.func.grad(lambda p: torch.func.functional_call(m, p, x).sum())(params)
    _close(g["weight"], [[1.0, 2.0], [1.0, 2.0]])
    with pytest.raises(RuntimeError) as info:
        torch.func.functional_call(m, {"weight": torch.zeros(2, 2), "foo": torch.ones(1)}, x, strict=True)
    assert str(info.value) == ("Error(s) in reparametrizing for Linear:\n\tUnexpected key(s): 'foo'.\n\tMissing "
                               "key(s): 'bias'.")
    with pytest.raises(ValueError) as info:
        torch.func.functional_call(m, ({"weight": torch.zeros(2, 2)}, {"weight": torch.zeros(2, 2)}), x)
    assert str(info.value) == "['weight'] appeared in multiple dictionaries; behavior of functional call is ambiguous"
    with pytest.raises(TypeError, match="^3 is not an instance of torch.Tensor$"):
        torch.func.functional_call(m, {"weight": 3}, x)
    assert m.weight is w0


def test_functional_call_tied_weights(torch):
    t = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Linear(2, 2))
    t[1].weight = t[0].weight
    x = torch.tensor([[1.0, -1.0]])
    tied = torch.func.functional_call(t, {"0.weight": torch.eye(2)}, x)
    expect = (x + t[0].bias) + t[1].bias
    _close(tied, expect.detach().numpy())
    with pytest.raises(ValueError) as info:
        torch.func.functional_call(t, {"0.weight": torch.eye(2), "1.weight": torch.ones(2, 2)}, x)
    assert str(info.value) == ("functional_call got multiple values for keys ['0.weight', '1.weight'], which are "
                               "tied. Consider using tie_weights=False")


def test_linearize(torch):
    x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    out, fn = torch.func.linearize(torch.sin, x)
    _close(out, np.sin([1.0, 2.0, 3.0]))
    _close(fn(torch.ones(3, dtype=torch.float64)), np.cos([1.0, 2.0, 3.0]))
    _, fn2 = torch.func.linearize(lambda a, b: a * b, x, x)
    _close(fn2(torch.ones(3, dtype=torch.float64), torch.zeros(3, dtype=torch.float64)), [1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError) as info:
        fn(torch.ones(2, dtype=torch.float64))
    assert str(info.value) == ("tangent:0 with shape torch.Size([2]) in flattened pytree doesn't match the shape "
                               "torch.Size([3]) of the corresponding primal.")
    with pytest.raises(RuntimeError) as info:
        fn(x, x)
    assert str(info.value) == ("Expected the tangents TreeSpec(tuple, None, [*,\n  *]) to have the same argspec as "
                               "the primals TreeSpec(tuple, None, [*])")


def test_stack_module_state_with_vmap(torch):
    torch.manual_seed(0)
    models = [torch.nn.Linear(2, 3) for _ in range(4)]
    params, buffers = torch.func.stack_module_state(models)
    assert {k: tuple(v.shape) for k, v in params.items()} == {"weight": (4, 3, 2), "bias": (4, 3)}
    assert all(v.requires_grad and v.is_leaf for v in params.values()) and buffers == {}
    x = torch.tensor([[1.0, -1.0], [0.5, 2.0]])
    out = torch.func.vmap(lambda p, b, d: torch.func.functional_call(models[0], (p, b), (d,)),
                          in_dims=(0, 0, None))(params, buffers, x)
    assert tuple(out.shape) == (4, 2, 3)
    for k, m in enumerate(models):
        _close(out[k], m(x).detach().numpy())
    _, bn_buffers = torch.func.stack_module_state([torch.nn.BatchNorm1d(3) for _ in range(2)])
    assert {k: tuple(v.shape) for k, v in bn_buffers.items()} == {"running_mean": (2, 3), "running_var": (2, 3),
                                                                   "num_batches_tracked": (2,)}
    with pytest.raises(RuntimeError, match="^stack_module_state: Expected at least one model, got 0.$"):
        torch.func.stack_module_state([])
    models[1].eval()
    with pytest.raises(RuntimeError, match="^stack_module_state: Expected all models to have the same training/eval "
                                           "mode.$"):
        torch.func.stack_module_state(models)
    with pytest.raises(RuntimeError, match="^stack_module_state: Expected all models to be of the same class.$"):
        torch.func.stack_module_state([torch.nn.Linear(2, 3), torch.nn.ReLU()])


def _compositions(T):
    F = T.func
    x = T.tensor(X, dtype=T.float64)
    y = T.tensor([0.5, 2.0, -1.0], dtype=T.float64)
    f = lambda a, b: (T.sin(a) * b).sum() ** 2  # noqa: E731
    g, aux = F.vmap(F.grad(lambda a: ((a ** 2).sum(), a.mean()), has_aux=True))(x)
    return [F.hessian(f, argnums=(0, 1))(x[0], y), F.vmap(F.jacrev(lambda a: T.sin(a) * a))(x),
            F.jacrev(F.vmap(lambda a: (a ** 2).sum()))(x), F.vmap(F.grad(f), in_dims=(0, None))(x, y),
            F.vmap(F.vmap(lambda a: a * 2))(x), F.jacfwd(F.jacrev(lambda a: (a ** 3).sum()))(y), g, aux,
            F.grad(lambda a: F.vmap(lambda b: (b * a).sum())(x).sum())(y)]


def _leaves(v):
    return [w for u in v for w in _leaves(u)] if isinstance(v, (tuple, list)) else [v.detach().numpy()]


def test_transforms_compose_as_in_torch():
    import flowgrad.torch as fg
    real = pytest.importorskip("torch")
    mine, theirs = _leaves(_compositions(fg)), _leaves(_compositions(real))
    assert len(mine) == len(theirs)
    for a, b in zip(mine, theirs):
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("transform", ["vmap", "jacfwd"])
@pytest.mark.parametrize("draw", ["randn", "dropout"])
def test_random_draws_refused_in_randomness_error_mode(torch, transform, draw):
    """vmap's default randomness="error" (and jacfwd, which PyTorch runs under it) refuses any random
    operation inside, and random draws work again afterwards."""
    def f(x):
        return x * torch.randn(()) if draw == "randn" else torch.nn.functional.dropout(x, 0.5)
    with pytest.raises(RuntimeError, match=r"^vmap: called random operation while in randomness error mode\. "
                                           r"Please either use the 'same' or 'different' randomness flags"):
        getattr(torch.func, transform)(f)(torch.ones(3, 2))
    assert torch.randn(2).shape == (2,)


def test_functionalize_computes_the_same(torch):
    from_func = torch.func.functionalize

    def f(x):
        y = x.clone()
        y.add_(1)
        y[0].mul_(3)
        return y * 2

    def mutate(x):
        x.add_(1)
        return x.sum()

    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    for remove in ("mutations", "mutations_and_views"):
        g = from_func(f, remove=remove)
        assert g.__name__ == "f" and g.__wrapped__ is f
        out = g(x)
        assert out.tolist() == [12.0, 6.0]
        assert torch.autograd.grad(out.sum(), x)[0].tolist() == [6.0, 2.0]
    a = torch.tensor([1.0, 2.0])
    assert from_func(mutate)(a).item() == 5.0 and a.tolist() == [2.0, 3.0]


def test_functionalize_refuses_an_unknown_remove(torch):
    with pytest.raises(RuntimeError) as info:
        torch.func.functionalize(lambda x: x, remove="bogus")
    assert str(info.value) == (
        "functionalize(f, remove='mutations'): received invalid argument for remove=bogus. Valid options are:\n"
        "     remove='mutations': all inplace and out= operators will be removed from the program, and replaced "
        "with their out-of-place equivalents.\n     remove='mutations_and_views': In addition to the above, all "
        "aliasing operators {view} will be replaced with their non-aliasing counterparts, {view}_copy.\n")
