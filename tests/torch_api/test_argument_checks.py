"""Arguments PyTorch refuses before computing (dtypes, shapes, ranges, reduce modes), and the
results it computes where a NumPy-backed op could silently differ; real torch is the oracle."""
from __future__ import annotations

import re
import warnings

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def _raises(fn, cls, msg: str) -> None:
    with pytest.raises(cls, match=exact(msg)):
        fn()


# ------------------------------------------------------------------------------ scatter / gather

@pytest.mark.parametrize("reduce,want", [("add", [5., 0., 0.]), ("multiply", [6., 1., 1.])])
def test_scatter_reduce_combines_repeated_indices(torch, reduce, want):
    base = torch.ones(3) if reduce == "multiply" else torch.zeros(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = base.scatter(0, torch.tensor([0, 0]), torch.tensor([3., 2.]), reduce=reduce)
        inplace = base.clone().scatter_(0, torch.tensor([0, 0]), torch.tensor([3., 2.]), reduce=reduce)
    assert out.tolist() == want and inplace.tolist() == want
    value = torch.ones(3).scatter_(0, torch.tensor([0, 0]), 2.0, reduce=reduce)
    assert value.tolist() == ([5., 1., 1.] if reduce == "add" else [4., 1., 1.])
    ints = torch.zeros(3, dtype=torch.int64).scatter(0, torch.tensor([0, 0]), 2, reduce=reduce)
    assert ints.dtype == torch.int64 and ints.tolist() == ([4, 0, 0] if reduce == "add" else [0, 0, 0])


def test_scatter_reduce_refuses_other_modes(torch):
    x = torch.zeros(3)
    for call in (lambda: x.scatter(0, torch.tensor([0]), torch.ones(1), reduce="mean"),
                 lambda: x.scatter_(0, torch.tensor([0]), 1.0, reduce="sum"),
                 lambda: torch.scatter(x, 0, torch.tensor([0]), torch.ones(1), reduce="foo")):
        _raises(call, RuntimeError, "reduce argument must be either add or multiply.")
    assert x.tolist() == [0., 0., 0.]


def test_scatter_reduce_has_no_derivative(torch):
    x = torch.zeros(3, requires_grad=True)
    y = x.scatter(0, torch.tensor([0, 0]), 2.0, reduce="add")
    assert y.tolist() == [4., 0., 0.] and type(y.grad_fn).__name__ == "NotImplemented"
    _raises(lambda: y.sum().backward(), RuntimeError, "derivative for aten::scatter is not implemented")


def test_gather_scatter_index_checks(torch):
    x = torch.zeros(3)
    _raises(lambda: x.gather(0, torch.tensor([0.])), RuntimeError, "gather(): Expected dtype int32/int64 for index")
    _raises(lambda: x.scatter(0, torch.tensor([0], dtype=torch.int16), 1.0), RuntimeError,
            "scatter(): Expected dtype int32/int64 for index")
    _raises(lambda: x.scatter_add(0, torch.tensor([0.]), torch.ones(1)), RuntimeError,
            "scatter(): Expected dtype int32/int64 for index")
    for call in (lambda: x.gather(0, torch.tensor([5])), lambda: x.scatter_add(0, torch.tensor([5]), torch.ones(1))):
        _raises(call, RuntimeError, "index 5 is out of bounds for dimension 0 with size 3")
    for call in (lambda: x.gather(0, torch.tensor([-1])), lambda: x.scatter(0, torch.tensor([-1]), 1.0)):
        _raises(call, RuntimeError, "index -1 is out of bounds for dimension 0 with size 3")
    _raises(lambda: x.scatter(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64)), RuntimeError,
            "scatter(): Expected self.dtype to be equal to src.dtype")
    _raises(lambda: x.scatter_add(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64)), RuntimeError,
            "scatter(): Expected self.dtype to be equal to src.dtype")
    _raises(lambda: x.gather(0, torch.tensor([[0]])), RuntimeError,
            "Index tensor must have the same number of dimensions as input tensor")
    _raises(lambda: x.scatter(0, torch.tensor([[0]]), 1.0), RuntimeError,
            "Index tensor must have the same number of dimensions as self tensor")
    assert x.gather(0, torch.tensor([2, 1], dtype=torch.int32)).tolist() == [0., 0.]
    assert x.tolist() == [0., 0., 0.]


# ------------------------------------------------------------------------------------ division

@pytest.mark.parametrize("op", ["floordiv", "mod", "div_floor", "div_trunc", "fmod", "remainder", "rfloordiv",
                                "rmod", "uint8"])
def test_integer_division_by_zero(torch, op):
    a, z = torch.tensor([5, -5]), torch.tensor([1, 0])
    call = {"floordiv": lambda: a // 0, "mod": lambda: a % z, "div_floor": lambda: torch.div(a, z, rounding_mode="floor"),
            "div_trunc": lambda: torch.div(a, 0, rounding_mode="trunc"), "fmod": lambda: torch.fmod(a, z),
            "remainder": lambda: torch.remainder(a, 0), "rfloordiv": lambda: 5 // z, "rmod": lambda: 5 % z,
            "uint8": lambda: torch.tensor([5], dtype=torch.uint8) % 0}[op]
    _raises(call, RuntimeError, "ZeroDivisionError")


def test_no_warning_dividing_by_numbers(torch):
    assert _silent(lambda: torch.tensor([1., 0.]) / 2).tolist() == [.5, 0.]
    assert _silent(lambda: torch.tensor([-1.]) ** 0.5).isnan().all()
    assert _silent(lambda: torch.tensor([0.]) / 0).isnan().all()
    assert _silent(lambda: torch.tensor([3.]) ** 2).tolist() == [9.]


def test_division_results(torch):
    a = torch.tensor([5, -5, 7])
    trunc = torch.div(a, 2, rounding_mode="trunc")
    assert trunc.dtype == torch.int64 and trunc.tolist() == [2, -2, 3]
    assert torch.div(a, torch.tensor([-2, 2, -3]), rounding_mode="trunc").tolist() == [-2, -2, -2]
    assert torch.div(a, -2, rounding_mode="floor").tolist() == [-3, 2, -4]
    assert torch.div(torch.tensor([5., -5.]), 2, rounding_mode="trunc").tolist() == [2., -2.]
    inf = torch.div(torch.tensor([5, -5]), 0.0, rounding_mode="trunc")
    assert inf.dtype == torch.float32 and inf.tolist() == [float("inf"), float("-inf")]
    assert (torch.tensor([5.]) % 0).isnan().all() and torch.fmod(torch.tensor([5]), 0.0).isnan().all()


def _silent(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn()


def test_no_floating_point_warnings(torch):
    z = torch.tensor([0., 1., -1.])
    assert _silent(lambda: torch.log(z)).tolist()[0] == float("-inf")
    assert _silent(lambda: z / torch.zeros(3)).isnan().tolist() == [True, False, False]
    assert _silent(lambda: z ** -1).tolist() == [float("inf"), 1., -1.]
    assert _silent(lambda: torch.sqrt(z)).isnan().tolist() == [False, False, True]
    for fn in (torch.log2, torch.log10, torch.log1p, torch.rsqrt, torch.reciprocal, torch.exp, torch.expm1):
        _silent(lambda: fn(torch.tensor([0., -2., 1e30])))
    _silent(lambda: z // 0.)
    _silent(lambda: z % 0.)
    _silent(lambda: torch.div(z, 0., rounding_mode="trunc"))
    infs = torch.tensor([float("inf"), float("-inf")])
    for fn in (torch.sum, torch.mean, torch.nansum):
        assert _silent(lambda: fn(infs)).isnan().item()


# ------------------------------------------------------------------------------------ creation

def test_tensor_of_python_ints_beyond_int64(torch):
    for data in (2 ** 63, [2 ** 63], -2 ** 63 - 1, [True, 2 ** 63], [[1], [2 ** 64]]):
        _raises(lambda: torch.tensor(data), ValueError, "Overflow when unpacking long long")
    assert torch.tensor(-2 ** 63).item() == -2 ** 63 and torch.tensor(2 ** 63 - 1).item() == 2 ** 63 - 1
    assert torch.tensor([1.5, 2 ** 63]).dtype == torch.float32
    assert torch.tensor(2 ** 64, dtype=torch.float32).item() == float(2 ** 64)


def test_tensor_values_outside_the_dtype(torch):
    for value, dtype, name in ((2 ** 40, torch.int32, "int32"), (300, torch.uint8, "uint8"), ([300], torch.int8, "int8"),
                               (-256, torch.uint8, "uint8"), ([1.5e10], torch.int32, "int32")):
        _raises(lambda: torch.tensor(value, dtype=dtype), RuntimeError,
                f"value cannot be converted to type {name} without overflow")
    _raises(lambda: torch.as_tensor([300], dtype=torch.uint8), RuntimeError,
            "value cannot be converted to type uint8 without overflow")
    assert torch.tensor(-1, dtype=torch.uint8).item() == 255
    assert torch.tensor(1e300, dtype=torch.float32).item() == float("inf")


def test_tensor_of_tensors_takes_them_as_scalars(torch):
    _raises(lambda: torch.tensor([torch.tensor([1., 2.]), torch.tensor([3., 4.])]), ValueError,
            "only one element tensors can be converted to Python scalars")
    _raises(lambda: torch.tensor([[torch.tensor([1., 2.])]]), ValueError,
            "only one element tensors can be converted to Python scalars")
    one = torch.tensor([torch.tensor([1.]), torch.tensor([3.])])
    assert one.shape == (2,) and one.tolist() == [1., 3.]
    assert torch.tensor([torch.tensor(1., dtype=torch.float64), torch.tensor(2.)]).dtype == torch.float64
    assert torch.tensor([torch.tensor([1], dtype=torch.int32), torch.tensor([2], dtype=torch.int32)]).dtype == torch.int32
    assert torch.tensor([[torch.tensor(1.)], [torch.tensor(3.)]]).shape == (2, 1)
    # after a number
    assert torch.tensor([1., torch.tensor([2.])]).tolist() == [1., 2.]
    assert torch.tensor([1, torch.tensor(2.5)]).tolist() == [1., 2.5]
    _raises(lambda: torch.tensor([1., torch.tensor([2., 3.])]), ValueError,
            "only one element tensors can be converted to Python scalars")


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty", "rand", "randn"])
def test_size_arguments(torch, fn):
    f = getattr(torch, fn)
    _raises(lambda: f(2.5), TypeError, f"{fn}(): argument 'size' (position 1) must be tuple of ints, not float")
    _raises(lambda: f(None), TypeError, f"{fn}(): argument 'size' (position 1) must be tuple of ints, not NoneType")
    _raises(lambda: f(True), TypeError, f"{fn}(): argument 'size' (position 1) must be tuple of ints, not bool")
    _raises(lambda: f(torch.tensor([2, 3])), TypeError,
            f"{fn}(): argument 'size' (position 1) must be tuple of ints, not Tensor")
    _raises(lambda: f([2.5, 2]), TypeError,
            f"{fn}(): argument 'size' (position 1) must be tuple of ints, but found element of type float at pos 0")
    unpack = f"{fn}(): argument 'size' failed to unpack the object at pos 3 with error \"type must be tuple of ints,but got float\""
    _raises(lambda: f((2, 3, 2.5)), TypeError, unpack)
    _raises(lambda: f(2, 3, 2.5), TypeError, unpack)
    if fn not in ("rand", "randn"):   # (whose overloads word it otherwise)
        _raises(lambda: f(2.5, 2), TypeError, f"{fn}() takes 1 positional argument but 2 were given")
    negative = "zeros: Dimension size must be non-negative." if fn == "zeros" else \
        "Trying to create tensor with negative dimension -1: [2, -1]"
    _raises(lambda: f(2, -1), RuntimeError, negative)
    assert f(2, torch.tensor(3)).shape == (2, 3) and f((2, torch.tensor(3))).shape == (2, 3)
    assert f(torch.Size([2, 3])).shape == (2, 3) and f(()).shape == () and f([]).shape == ()


def test_full_size_argument(torch):
    _raises(lambda: torch.full(2, 1.), TypeError, "full(): argument 'size' (position 1) must be tuple of ints, not int")
    _raises(lambda: torch.full((2.5,), 1.), TypeError,
            "full(): argument 'size' (position 1) must be tuple of ints, but found element of type float at pos 0")
    _raises(lambda: torch.full((-1,), 1.), RuntimeError, "Trying to create tensor with negative dimension -1: [-1]")
    assert torch.full([2], 1.).tolist() == [1., 1.]


@pytest.mark.parametrize("dtype,name", [("int64", "Long"), ("int32", "Int"), ("bool", "Bool")])
def test_random_floats_of_integer_dtypes(torch, dtype, name):
    dt = getattr(torch, dtype)
    ints = torch.zeros(2, dtype=dt)
    for call in (lambda: torch.randn(2, dtype=dt), lambda: torch.randn_like(ints), lambda: ints.normal_()):
        _raises(call, NotImplementedError, f"\"normal_kernel_cpu\" not implemented for '{name}'")
    for call in (lambda: torch.rand(2, dtype=dt), lambda: torch.rand_like(ints), lambda: ints.uniform_()):
        _raises(call, NotImplementedError, f"\"check_uniform_bounds\" not implemented for '{name}'")
    assert ints.tolist() == [0, 0] or ints.tolist() == [False, False]
    assert torch.rand(2, dtype=torch.float16).dtype == torch.float16


# ------------------------------------------------------------------------------------ indexing

def test_float_index_is_refused(torch):
    import numpy as np
    x = torch.arange(5)
    _raises(lambda: x[torch.tensor(1.5)], IndexError, "tensors used as indices must be long, int, byte or bool tensors")
    _raises(lambda: x[torch.tensor([1., 2.])], IndexError,
            "tensors used as indices must be long, int, byte or bool tensors")
    _raises(lambda: x[torch.tensor([1], dtype=torch.int16)], IndexError,
            "tensors used as indices must be long, int, byte or bool tensors")
    msg = "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got {})"
    _raises(lambda: x[1.5], IndexError, msg.format("float"))
    _raises(lambda: x[np.float64(1.5)], IndexError, msg.format("numpy.float64"))
    _raises(lambda: torch.zeros(2, 3)[:, 1.0], IndexError, msg.format("float"))

    def write():
        x[1.5] = 7
    _raises(write, IndexError, msg.format("float"))
    assert x.tolist() == [0, 1, 2, 3, 4]
    # a Python sequence or NumPy array of floats indexes truncated, in PyTorch too
    assert x[[1.5, 2.7]].tolist() == [1, 2] and x[np.array([3.5])].tolist() == [3]
    assert x[torch.tensor([1, 2], dtype=torch.int32)].tolist() == [1, 2]


def test_index_select_checks(torch):
    x = torch.arange(5)
    _raises(lambda: x.index_select(0, torch.tensor([1.])), RuntimeError,
            "index_select(): Expected dtype int32 or int64 for index")
    _raises(lambda: x.index_select(0, torch.tensor([1], dtype=torch.int16)), RuntimeError,
            "index_select(): Expected dtype int32 or int64 for index")
    _raises(lambda: x.index_select(0, torch.tensor([[1]])), IndexError, "index_select(): Index is supposed to be a vector")
    for bad in (5, -1):
        _raises(lambda: x.index_select(0, torch.tensor([bad])), IndexError, "index out of range in self")
    assert x.index_select(0, torch.tensor([4, 0], dtype=torch.int32)).tolist() == [4, 0]


# ------------------------------------------------------------------------- products and dtypes

_SHAPES = {"1": (2,), "2": (2, 2), "3": (1, 2, 2), "4": (1, 1, 2, 2)}


@pytest.mark.parametrize("a,b", [("2", "2"), ("1", "1"), ("2", "1"), ("1", "2"), ("3", "3"), ("3", "2"), ("2", "3"),
                                 ("3", "1"), ("1", "3"), ("4", "2")])
@pytest.mark.parametrize("da,db", [("int64", "float32"), ("float32", "int64"), ("float64", "float32"),
                                   ("int32", "int64")])
def test_products_promote_no_dtype(torch, a, b, da, db):
    scalar = {"int64": "Long", "float32": "Float", "float64": "Double", "int32": "Int"}
    ctype = {"int64": "long int", "float32": "float", "float64": "double", "int32": "int"}
    x, y = torch.ones(_SHAPES[a], dtype=getattr(torch, da)), torch.ones(_SHAPES[b], dtype=getattr(torch, db))
    if a == "1" and b == "1":
        msg = f"dot : expected both vectors to have same dtype, but found {scalar[da]} and {scalar[db]}"
    elif b == "1":
        msg = f"addmv input tensors must have the same dtype, but got {scalar[db]}, {scalar[da]}, and {scalar[db]}"
    elif b == "3":
        msg = f"expected scalar type {scalar[da]} but found {scalar[db]}"
    else:
        msg = f"expected m1 and m2 to have the same dtype, but got: {ctype[da]} != {ctype[db]}"
    _raises(lambda: torch.matmul(x, y), RuntimeError, msg)


def test_named_products_check_dtypes(torch):
    i, f = torch.ones(2, 2, dtype=torch.int64), torch.ones(2, 2)
    _raises(lambda: torch.mm(i, f), RuntimeError, "expected m1 and m2 to have the same dtype, but got: long int != float")
    _raises(lambda: torch.bmm(i[None], f[None]), RuntimeError, "expected scalar type Long but found Float")
    _raises(lambda: torch.mv(i, f[0]), RuntimeError,
            "addmv input tensors must have the same dtype, but got Float, Long, and Float")
    _raises(lambda: torch.dot(i[0], f[0]), RuntimeError,
            "dot : expected both vectors to have same dtype, but found Long and Float")
    assert (i @ i).dtype == torch.int64 and torch.dot(i[0], i[0]).item() == 2


@pytest.mark.parametrize("shape", [(1, 2), (2,), (1, 1, 2)])
def test_linear_checks_dtypes(torch, shape):
    F = torch.nn.functional
    w = torch.ones(2, 2)
    for dt, scalar, ctype in ((torch.int64, "Long", "long int"), (torch.float64, "Double", "double")):
        x = torch.ones(shape, dtype=dt)
        _raises(lambda: F.linear(x, w, torch.ones(2)), RuntimeError,
                f"mat1 and mat2 must have the same dtype, but got {scalar} and Float")
        _raises(lambda: F.linear(x, w), RuntimeError,
                f"expected m1 and m2 to have the same dtype, but got: {ctype} != float")
    _raises(lambda: F.linear(torch.ones(shape), w, torch.ones(2, dtype=torch.float64)), RuntimeError,
            "self and mat2 must have the same dtype, but got Double and Float")
    ints = F.linear(torch.ones(shape, dtype=torch.int64), torch.ones(2, 2, dtype=torch.int64),
                    torch.ones(2, dtype=torch.int64))
    assert ints.dtype == torch.int64 and ints.reshape(-1).tolist()[:2] == [3, 3]
    _raises(lambda: torch.nn.Linear(2, 2)(torch.ones(shape, dtype=torch.int64)), RuntimeError,
            "mat1 and mat2 must have the same dtype, but got Long and Float")


def test_moments_of_integers(torch):
    x = torch.tensor([1, 2, 3])
    for call in (lambda: torch.std(x), lambda: x.var(0), lambda: torch.tensor([True]).std()):
        _raises(call, RuntimeError, "std and var only support floating point and complex dtypes")
    _raises(lambda: torch.var_mean(x), RuntimeError, "var_mean only support floating point and complex dtypes")
    _raises(lambda: torch.std_mean(x), RuntimeError, "std_mean only support floating point and complex dtypes")


def test_softmax_of_integers(torch):
    F = torch.nn.functional
    x, m = torch.tensor([1, 2]), torch.ones(2, 2, dtype=torch.int32)
    _raises(lambda: torch.softmax(x, 0), NotImplementedError,
            "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'")
    _raises(lambda: F.softmax(m, dim=0), NotImplementedError, "\"softmax_kernel_impl\" not implemented for 'Int'")
    _raises(lambda: torch.log_softmax(m, -1), NotImplementedError,
            "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Int'")
    _raises(lambda: F.cross_entropy(torch.ones(1, 2, dtype=torch.int64), torch.tensor([0])), NotImplementedError,
            "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'")
    assert torch.softmax(x, 0, dtype=torch.float32).dtype == torch.float32


def test_nll_loss_dtypes(torch):
    F = torch.nn.functional
    _raises(lambda: F.nll_loss(torch.ones(1, 2, dtype=torch.int64), torch.tensor([0])), NotImplementedError,
            "\"nll_loss_out_frame\" not implemented for 'Long'")
    _raises(lambda: F.nll_loss(torch.ones(1, 2, 2, dtype=torch.int64), torch.zeros(1, 2, dtype=torch.int64)),
            NotImplementedError, "\"nll_loss2d_forward_out_frame\" not implemented for 'Long'")
    _raises(lambda: F.nll_loss(torch.ones(1, 2), torch.tensor([0]), weight=torch.ones(2, dtype=torch.float64)),
            RuntimeError, "expected scalar type Float but found Double")
    assert F.nll_loss(torch.ones(1, 2, dtype=torch.float64), torch.tensor([0])).dtype == torch.float64


# ----------------------------------------------------------------------- shapes, ranges, values

def test_meshgrid_xy_indexing(torch):
    a, b, c = torch.arange(2), torch.arange(3), torch.arange(4)
    gx, gy = torch.meshgrid(a, b, indexing="xy")
    assert gx.shape == (3, 2) and gx.tolist() == [[0, 1]] * 3 and gy.tolist() == [[0, 0], [1, 1], [2, 2]]
    assert [g.shape for g in torch.meshgrid(a, b, c, indexing="xy")] == [(3, 2, 4)] * 3
    assert [g.shape for g in torch.meshgrid(a, b, indexing="ij")] == [(2, 3)] * 2
    assert torch.meshgrid(a, indexing="xy")[0].tolist() == [0, 1]


def test_view_as_another_dtype_reinterprets_bits(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    v = x.view(torch.int32)
    assert v.tolist() == [1065353216, 1073741824] and v.grad_fn is None and not v.requires_grad
    assert x.view(torch.float64).tolist() == [2.0000004731118679]
    assert x.view(torch.float16).shape == (4,) and torch.tensor([1.]).view(torch.bool).tolist() == [False, False,
                                                                                                     True, True]
    assert torch.tensor(1.).view(torch.int32).item() == 1065353216
    z = torch.zeros(3)
    w = z.view(torch.int32)
    w[0] = 1065353216
    assert z.tolist() == [1., 0., 0.] and z._version == w._version == 1
    _raises(lambda: torch.tensor([1., 2., 3.]).view(torch.float64), RuntimeError,
            "self.size(-1) must be divisible by 2 to view Float as Double (different element sizes), but got 3")
    _raises(lambda: torch.tensor(1.).view(torch.int8), RuntimeError,
            "self.dim() cannot be 0 to view Float as Char (different element sizes)")
    _raises(lambda: torch.zeros(2, 4)[:, ::2].view(torch.float64), RuntimeError,
            "self.stride(-1) must be 1 to view Float as Double (different element sizes), but got 2")


def test_sign(torch):
    s = torch.sign(torch.tensor([float("nan"), -0., 2., float("-inf")]))
    assert s.tolist() == [0., 0., 1., -1.]
    assert torch.tensor([float("nan")], dtype=torch.float64).sign().tolist() == [0.]
    assert torch.sign(torch.tensor([-3, 0, 2])).tolist() == [-1, 0, 1]
    b = torch.sign(torch.tensor([True, False]))
    assert b.dtype == torch.bool and b.tolist() == [True, False]


def test_relu_passes_the_gradient_of_a_nan(torch):
    """relu's backward zeroes where its result is <= 0, so a NaN result passes its gradient (first and
    second order)."""
    x = torch.tensor([float("nan"), 1., -1., 0.], dtype=torch.float64, requires_grad=True)
    y = torch.relu(x * 1)
    v = torch.ones(4, dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(y, x, v, create_graph=True)
    gg, = torch.autograd.grad(g.sum(), v)
    assert g.tolist() == gg.tolist() == [1., 1., 0., 0.]


# (no NaN: PyTorch's vectorised and scalar kernels disagree on it for all but relu, by tensor length)
_EDGES = [float("inf"), float("-inf"), -6., -3., -1., 0., 1., 3., 6., -0.75, 0.25]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("call", ["F.hardtanh(x)", "F.relu6(x)", "F.hardswish(x)", "F.hardsigmoid(x)",
                                  "F.elu(x)", "torch.logit(x / 4)", "torch.logit(x / 4, 0.1)",
                                  "F.hardtanh(x * 1, inplace=True)", "F.hardswish(x * 1, inplace=True)"])
def test_activation_gradients_at_bounds_and_nan(real_torch, call, dtype):
    """The recorded node, values and gradient at the activations' bounds and at +-inf, where
    PyTorch's formulas pick a side, against real torch."""
    import flowgrad.torch as flowgrad_torch

    def run(torch):
        x = torch.tensor(_EDGES, dtype=getattr(torch, dtype), requires_grad=True)
        y = eval(call, {"torch": torch, "F": torch.nn.functional, "x": x})
        y.sum().backward()
        return type(y.grad_fn).__name__, y.tolist(), x.grad.tolist()

    node, values, grads = run(flowgrad_torch)
    want_node, want_values, want_grads = run(real_torch)
    rel = 1e-6 if dtype == "float32" else 1e-15   # (float32: the libraries' expm1 differ in the last bit)
    assert node == want_node and values == pytest.approx(want_values, rel=rel, nan_ok=True) and grads == pytest.approx(want_grads, rel=rel, nan_ok=True)


def test_arange_checks_its_range(torch):
    for args in ((0, 5, -1), (5., 0., 1.)):
        _raises(lambda: torch.arange(*args), RuntimeError, "upper bound and lower bound inconsistent with step sign")
    _raises(lambda: torch.arange(0, float("inf")), RuntimeError, "unsupported range: 0 -> inf")
    assert torch.arange(5, 5, -1).tolist() == [] and torch.arange(5, 0, -2).tolist() == [5, 3, 1]


def test_narrow_checks(torch):
    x = torch.arange(5.)
    assert x.narrow(0, -2, 2).tolist() == [3., 4.] and x.narrow(0, 5, 0).tolist() == []
    assert x.narrow(0, torch.tensor(1), 2).tolist() == [1., 2.]
    _raises(lambda: x.narrow(0, -6, 1), IndexError, "start out of range (expected to be in range of [-5, 5], but got -6)")
    _raises(lambda: x.narrow(0, 0, -1), RuntimeError, "narrow(): length must be non-negative.")
    _raises(lambda: torch.narrow(x, 0, 3, 3), RuntimeError, "start (3) + length (3) exceeds dimension size (5).")
    _raises(lambda: torch.tensor(1.).narrow(0, 0, 1), RuntimeError, "narrow() cannot be applied to a 0-dim tensor.")


def test_topk_kthvalue_ranges(torch):
    x = torch.arange(5.)
    for k in (6, -1):
        _raises(lambda: x.topk(k), RuntimeError, "selected index k out of range")
    _raises(lambda: torch.tensor(1.).topk(2), RuntimeError, "selected index k out of range")
    assert x.topk(0).values.tolist() == [] and torch.tensor(1.).topk(1).values.item() == 1.
    for k in (0, 6):
        _raises(lambda: x.kthvalue(k), RuntimeError, "kthvalue(): selected number k out of range for dimension 0")
    _raises(lambda: torch.ones(2, 3).kthvalue(3, 0), RuntimeError,
            "kthvalue(): selected number k out of range for dimension 0")
    _raises(lambda: torch.ones(2, 3).kthvalue(4, -1), RuntimeError,
            "kthvalue(): selected number k out of range for dimension 1")
    assert x.kthvalue(2).values.item() == 1. and torch.tensor(3.).kthvalue(1).values.item() == 3.


def test_python_ints_wrap_into_an_integer_tensors_dtype(torch):
    u8 = torch.tensor([50], dtype=torch.uint8)
    assert (u8 + 300).tolist() == [94] and (u8 + 300).dtype == torch.uint8
    assert (u8 < 300).tolist() == [False] and (u8 == 306).tolist() == [True]
    assert (u8 // 300).tolist() == [1] and (u8 % 300).tolist() == [6]
    assert (torch.tensor([1]) + 2 ** 63).tolist() == [-2 ** 63 + 1]
    assert (torch.tensor([5], dtype=torch.int16) * 70000).tolist() == [22320]
    assert (torch.tensor([5], dtype=torch.int8) - 200).tolist() == [61]


def test_clamp_of_integers_by_floats(torch):
    r = torch.clamp(torch.tensor([1, 5]), 1.5, 3.5)
    assert r.dtype == torch.float32 and r.tolist() == [1.5, 3.5]
    i = torch.clamp(torch.tensor([1, 5]), 2, 3)
    assert i.dtype == torch.int64 and i.tolist() == [2, 3]


@pytest.mark.parametrize("dtype,value,name", [("int8", 300, "int8_t"), ("int16", 70000, "int16_t"),
                                              ("int32", 2 ** 40, "int"), ("uint8", -300, "uint8_t")])
def test_writing_ints_that_do_not_fit(torch, dtype, value, name):
    dt = getattr(torch, dtype)
    msg = f"value cannot be converted to type {name} without overflow"
    x = torch.zeros(2, dtype=dt)

    def write():
        x[0] = value
    for call in (lambda: x.fill_(value), write, lambda: x.masked_fill(torch.tensor([True, False]), value),
                 lambda: torch.full((1,), value, dtype=dt), lambda: torch.full_like(x, value)):
        _raises(call, RuntimeError, msg)
    assert x.tolist() == [0, 0]
    _raises(lambda: torch.full((1,), 2 ** 64), OverflowError, "int too big to convert")
    assert torch.zeros(1, dtype=torch.uint8).fill_(-1).tolist() == [255]
    assert torch.zeros(1, dtype=torch.bool).fill_(5).tolist() == [True]


@pytest.mark.parametrize("mode", ["floor", "trunc"])
def test_division_with_rounding_records_zero_gradients(torch, mode):
    x = torch.tensor([3.5, -1.5], requires_grad=True)
    y = torch.tensor([2., 2.], requires_grad=True)
    out = torch.div(x, y, rounding_mode=mode)
    assert type(out.grad_fn).__name__ == "DivBackward2" and out.grad_fn._saved_rounding_mode == mode
    out.sum().backward()
    assert x.grad.tolist() == [0., 0.] and y.grad.tolist() == [0., 0.]
    scalar = torch.div(x, 2, rounding_mode=mode)
    assert type(scalar.grad_fn).__name__ == "DivBackward2"


@pytest.mark.parametrize("fn", ["maximum", "minimum", "atan2", "hypot"])
def test_two_tensor_ops_refuse_a_number(torch, fn):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(TypeError, match=re.escape(f"{fn}(): argument 'other' (position 2) must be Tensor, not float")):
        getattr(torch, fn)(x, 2.0)
    with pytest.raises(TypeError, match=re.escape(f"{fn}(): argument 'input' (position 1) must be Tensor, not float")):
        getattr(torch, fn)(2.0, x)
    getattr(torch, fn)(x, torch.tensor(2.0)).sum().backward()      # two tensors: computed, differentiable
    assert x.grad.shape == (2,)
