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
