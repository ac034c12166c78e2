"""Convolution, pooling, resampling and normalisation layers against real torch: float64 forward
values, the gradients of every input and parameter (modules get real torch's weights), second
derivatives of the primitives, node names, and errors (type and exact message) on both."""
from __future__ import annotations

import re

import numpy as np
import pytest

import flowgrad.torch as ft
from nn_compare import compare

pytestmark = pytest.mark.filterwarnings("ignore:Using padding=.same. with even kernel")

rng = np.random.default_rng(7)


def R(*shape):
    return rng.standard_normal(shape)


def F(T):
    return T.nn.functional


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def compare_module(real_torch, make, x, forward=None, train=True, tol=1e-7):
    """Build the module on both sides with real torch's float64 weights, run it on `x`, and compare
    the output, the gradients of the input and of every parameter, and the buffers afterwards."""
    forward = forward or (lambda m, t: m(t))
    mods = [make(real_torch).double(), make(ft).double()]
    state = {k: v.detach().numpy().copy() for k, v in mods[0].state_dict().items()}
    mods[1].load_state_dict({k: ft.tensor(v) for k, v in state.items()})
    results = []
    for T, m in zip((real_torch, ft), mods):
        m.train(train)
        xt = T.tensor(x, requires_grad=True)
        out = forward(m, xt)
        g = np.random.default_rng(1).standard_normal(tuple(out.shape))
        out.backward(T.tensor(g))
        res = {"out": out.detach().numpy(), "x.grad": xt.grad.numpy()}
        res.update({f"{k}.grad": p.grad.numpy() for k, p in m.named_parameters()})
        res.update({k: b.numpy() for k, b in m.named_buffers()})
        results.append(res)
    assert results[0].keys() == results[1].keys()
    for k in results[0]:
        a, b = results[1][k], results[0][k]
        assert a.shape == b.shape and a.dtype == b.dtype, k
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol, err_msg=k)


# ------------------------------------------------------------------------------ convolution

CONV = {
    "conv1d": (lambda T, x, w, b: F(T).conv1d(x, w, b), [R(2, 3, 9), R(4, 3, 3), R(4)]),
    "conv1d_geometry": (lambda T, x, w, b: F(T).conv1d(x, w, b, stride=2, padding=2, dilation=2, groups=3),
                        [R(2, 6, 11), R(9, 2, 3), R(9)]),
    "conv1d_same_even": (lambda T, x, w: F(T).conv1d(x, w, padding="same", dilation=3), [R(2, 2, 8), R(3, 2, 4)]),
    "conv1d_valid": (lambda T, x, w: F(T).conv1d(x, w, padding="valid"), [R(1, 2, 6), R(3, 2, 4)]),
    "conv1d_unbatched": (lambda T, x, w: F(T).conv1d(x, w, stride=(2,)), [R(3, 8), R(2, 3, 3)]),
    "conv1d_tuple_of_one": (lambda T, x, w: F(T).conv1d(x, w, padding=[1], dilation=(2,)), [R(1, 2, 7), R(2, 2, 3)]),
    "conv2d_one_value_lists": (lambda T, x, w: F(T).conv2d(x, w, stride=[2], padding=(1,)), [R(1, 2, 6, 5),
                                                                                          R(3, 2, 3, 3)]),
    "conv3d": (lambda T, x, w, b: F(T).conv3d(x, w, b, padding=1), [R(2, 2, 4, 3, 5), R(3, 2, 3, 2, 3), R(3)]),
    "conv3d_geometry": (lambda T, x, w: F(T).conv3d(x, w, stride=(2, 1, 3), padding=(0, 2, 1), dilation=(1, 2, 1),
                                                    groups=2), [R(1, 4, 5, 4, 7), R(4, 2, 2, 2, 3)]),
    "conv3d_same": (lambda T, x, w: F(T).conv3d(x, w, padding="same"), [R(1, 2, 3, 4, 4), R(2, 2, 2, 3, 2)]),
    "conv3d_unbatched": (lambda T, x, w: F(T).conv3d(x, w), [R(2, 3, 3, 3), R(2, 2, 2, 2, 2)]),
    "conv_transpose1d": (lambda T, x, w, b: F(T).conv_transpose1d(x, w, b), [R(2, 3, 6), R(3, 4, 3), R(4)]),
    "conv_transpose1d_geometry": (
        lambda T, x, w, b: F(T).conv_transpose1d(x, w, b, stride=3, padding=2, output_padding=2, groups=2, dilation=2),
        [R(2, 4, 5), R(4, 3, 3), R(6)]),
    "conv_transpose1d_output_padding_by_dilation": (
        lambda T, x, w: F(T).conv_transpose1d(x, w, stride=2, output_padding=2, dilation=3), [R(1, 2, 4), R(2, 2, 3)]),
    "conv_transpose1d_unbatched": (lambda T, x, w: F(T).conv_transpose1d(x, w, stride=2), [R(3, 5), R(3, 2, 2)]),
    "conv_transpose2d": (lambda T, x, w, b: F(T).conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
                         [R(2, 3, 4, 5), R(3, 2, 3, 3), R(2)]),
    "conv_transpose2d_geometry": (
        lambda T, x, w: F(T).conv_transpose2d(x, w, stride=(1, 3), padding=(2, 0), output_padding=(0, 1), groups=3,
                                              dilation=(2, 1)), [R(2, 6, 4, 3), R(6, 1, 3, 2)]),
    "conv_transpose2d_unbatched": (lambda T, x, w: F(T).conv_transpose2d(x, w), [R(2, 3, 3), R(2, 3, 2, 2)]),
    "conv_transpose3d": (lambda T, x, w, b: F(T).conv_transpose3d(x, w, b, stride=(2, 1, 1), padding=(0, 1, 0)),
                         [R(1, 2, 2, 3, 3), R(2, 3, 2, 3, 2), R(3)]),
}


@pytest.mark.parametrize("name", sorted(CONV))
def test_convolution_matches_torch(name, real_torch):
    fn, arrays = CONV[name]
    compare(real_torch, fn, arrays)


@pytest.mark.parametrize("name", ["conv1d_geometry", "conv3d_geometry", "conv_transpose1d_geometry",
                                  "conv_transpose1d_output_padding_by_dilation", "conv_transpose2d_geometry"])
def test_convolution_second_derivatives_match_torch(name, real_torch):
    fn, arrays = CONV[name]
    compare(real_torch, lambda T, *args: fn(T, *args) ** 3, arrays, create_graph=True)


CONV_MODULES = {
    "Conv1d": (lambda T: T.nn.Conv1d(4, 6, 3, stride=2, padding=1, groups=2), (2, 4, 9)),
    "Conv1d_reflect": (lambda T: T.nn.Conv1d(2, 3, 3, padding=2, padding_mode="reflect"), (2, 2, 7)),
    "Conv1d_circular_same": (lambda T: T.nn.Conv1d(2, 3, 4, padding="same", padding_mode="circular"), (2, 2, 7)),
    "Conv2d_replicate": (lambda T: T.nn.Conv2d(2, 3, (3, 2), padding=(1, 2), padding_mode="replicate"), (2, 2, 5, 4)),
    "Conv3d": (lambda T: T.nn.Conv3d(2, 4, (2, 3, 2), stride=(1, 2, 1), dilation=(2, 1, 1), bias=False),
               (2, 2, 5, 6, 4)),
    "Conv3d_circular": (lambda T: T.nn.Conv3d(2, 2, 3, padding=1, padding_mode="circular"), (1, 2, 3, 4, 4)),
    "Conv3d_replicate_unbatched": (lambda T: T.nn.Conv3d(2, 2, 2, padding=(1, 0, 1), padding_mode="replicate"),
                                   (2, 3, 3, 3)),
    "ConvTranspose1d": (lambda T: T.nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2),
                        (2, 4, 5)),
    "ConvTranspose2d": (lambda T: T.nn.ConvTranspose2d(3, 2, (2, 3), stride=(2, 1), dilation=(1, 2)), (2, 3, 4, 3)),
    "ConvTranspose3d": (lambda T: T.nn.ConvTranspose3d(2, 2, 2, stride=2, bias=False), (1, 2, 2, 2, 3)),
}


@pytest.mark.parametrize("name", sorted(CONV_MODULES))
def test_convolution_modules_match_torch(name, real_torch):
    make, shape = CONV_MODULES[name]
    compare_module(real_torch, make, R(*shape))


@pytest.mark.parametrize("output_size", [[11], [12], (2, 3, 12)])
def test_conv_transpose_output_size(real_torch, output_size):
    make = lambda T: T.nn.ConvTranspose1d(4, 3, 3, stride=2, padding=1)  # noqa: E731
    compare_module(real_torch, make, R(2, 4, 6), forward=lambda m, x: m(x, output_size=output_size))


def test_conv_transpose_output_size_unbatched(real_torch):
    make = lambda T: T.nn.ConvTranspose2d(2, 3, 3, stride=2)  # noqa: E731
    compare_module(real_torch, make, R(2, 4, 3), forward=lambda m, x: m(x, output_size=(3, 10, 8)))


@pytest.mark.parametrize("make", [
    lambda T: T.nn.Conv1d(4, 6, 3, stride=2, padding=1, groups=2, bias=False, padding_mode="reflect"),
    lambda T: T.nn.Conv3d(2, 3, (1, 2, 3), padding="same", dilation=2),
    lambda T: T.nn.ConvTranspose1d(4, 2, 3, output_padding=1, stride=2, dilation=2),
    lambda T: T.nn.ConvTranspose3d(2, 4, 2, groups=2, padding=(1, 0, 1)),
])
def test_convolution_module_surface(real_torch, make):
    a, b = make(real_torch), make(ft)
    assert repr(a) == repr(b)
    assert [(k, tuple(v.shape)) for k, v in a.named_parameters()] == [(k, tuple(v.shape)) for k, v in
                                                                     b.named_parameters()]
    for attr in ("kernel_size", "stride", "padding", "dilation", "output_padding", "groups", "transposed",
                 "padding_mode", "_reversed_padding_repeated_twice"):
        assert getattr(a, attr) == getattr(b, attr), attr
    assert isinstance(b, ft.nn.Module)


def test_convolution_default_init_bounds(torch):
    m = torch.nn.ConvTranspose2d(4, 6, 3, groups=2)
    bound = 1 / (3 * 3 * 3) ** 0.5     # fan_in = weight.size(1) * kernel
    assert m.weight.shape == torch.Size([4, 3, 3, 3])
    assert m.weight.abs().max().item() <= bound and m.bias.abs().max().item() <= bound


@pytest.mark.parametrize("expr", ["F.conv1d(x1, w1)", "F.conv3d(x3, w3)", "F.conv_transpose1d(x1, wt1)",
                                  "F.conv_transpose2d(x2, wt2, bt)", "F.conv1d(x1[0], w1)"])
def test_convolution_node_names(torch, expr):
    env = {"F": torch.nn.functional, "x1": torch.ones(1, 2, 5, requires_grad=True), "w1": torch.ones(3, 2, 2),
           "x3": torch.ones(1, 2, 3, 3, 3, requires_grad=True), "w3": torch.ones(3, 2, 2, 2, 2),
           "wt1": torch.ones(2, 3, 2), "x2": torch.ones(1, 2, 3, 3), "wt2": torch.ones(2, 3, 2, 2),
           "bt": torch.ones(3, requires_grad=True)}
    out = eval(expr, env)
    names = {"F.conv1d(x1[0], w1)": "SqueezeBackward1"}
    assert out.grad_fn.name() == names.get(expr, "ConvolutionBackward0")


def test_convolution_double_backward_node_name(torch):
    x = torch.ones(1, 2, 5, requires_grad=True)
    w = torch.ones(3, 2, 2, requires_grad=True)
    g, = torch.autograd.grad(torch.nn.functional.conv1d(x, w).sum(), x, create_graph=True)
    assert g.grad_fn.name() == "ConvolutionBackwardBackward0"


CONV_ERRORS = [
    (lambda T: F(T).conv1d(T.ones(7), T.ones(3, 1, 3)), RuntimeError,
     "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [7]"),
    (lambda T: F(T).conv3d(T.ones(4, 5, 5), T.ones(6, 4, 2, 2, 2)), RuntimeError,
     "Expected 4D (unbatched) or 5D (batched) input to conv3d, but got input of size: [4, 5, 5]"),
    (lambda T: F(T).conv_transpose1d(T.ones(7), T.ones(3, 1, 3)), RuntimeError,
     "Expected 2D (unbatched) or 3D (batched) input to conv_transpose1d, but got input of size: [7]"),
    (lambda T: F(T).conv1d(T.ones(2, 4, 7), T.ones(6, 2, 3, 3)), RuntimeError,
     "Expected 4-dimensional input for 4-dimensional weight [6, 2, 3, 3], but got 3-dimensional input of size "
     "[2, 4, 7] instead"),
    (lambda T: F(T).conv1d(T.ones(2, 4, 7), T.ones(6, 2)), RuntimeError,
     "weight should have at least three dimensions"),
    (lambda T: F(T).conv2d(T.ones(2, 4, 5, 5), T.ones(6, 4, 3)), RuntimeError,
     "expected stride to be a single integer value or a list of 1 values to match the convolution dimensions, "
     "but got stride=[1, 1]"),
    (lambda T: F(T).conv3d(T.ones(1, 4, 5, 5, 5), T.ones(6, 4, 3, 3, 3), padding=(1, 2)), RuntimeError,
     "expected padding to be a single integer value or a list of 3 values to match the convolution dimensions, "
     "but got padding=[1, 2]"),
    (lambda T: F(T).conv2d(T.ones(1, 4, 5, 5), T.ones(3, 4, 3, 3), padding=2, dilation=(1, 2, 3)), RuntimeError,
     "expected dilation to be a single integer value or a list of 2 values to match the convolution dimensions, "
     "but got dilation=[1, 2, 3]"),
    (lambda T: F(T).conv_transpose2d(T.ones(1, 4, 5, 5), T.ones(4, 3, 3, 3), output_padding=(1, 0, 0)), RuntimeError,
     "expected output_padding to be a single integer value or a list of 2 values to match the convolution "
     "dimensions, but got output_padding=[1, 0, 0]"),
    (lambda T: F(T).conv1d(T.ones(2, 4, 7), T.ones(6, 2, 3), stride=0), RuntimeError,
     "non-positive stride is not supported"),
    (lambda T: F(T).conv1d(T.ones(2, 4, 7), T.ones(6, 2, 3), padding=-1), RuntimeError,
     "negative padding is not supported"),
    (lambda T: F(T).conv1d(T.ones(2, 4, 7), T.ones(6, 2, 3), stride=0, padding=-1), RuntimeError,
     "negative padding is not supported"),
    (lambda T: F(T).conv_transpose1d(T.ones(2, 4, 7), T.ones(4, 3, 3), output_padding=-1), RuntimeError,
     "negative output_padding is not supported"),
    (lambda T: F(T).conv2d(T.ones(2, 4, 5, 5), T.ones(4, 4, 3, 3), dilation=-1), RuntimeError,
     "dilation should be greater than zero"),
    (lambda T: F(T).conv1d(T.ones(2, 4, 7), T.ones(6, 2, 3), dilation=0, groups=2), RuntimeError,
     "non-positive dilation is not supported"),
    (lambda T: F(T).conv1d(T.ones(2, 4, 7), T.ones(6, 2, 3), groups=0), RuntimeError,
     "non-positive groups is not supported"),
    (lambda T: F(T).conv2d(T.ones(2, 4, 5, 5), T.ones(4, 4, 3, 3), groups=8), RuntimeError,
     "Given groups=8, expected weight to be at least 8 at dimension 0, but got weight of size [4, 4, 3, 3] instead"),
    (lambda T: F(T).conv_transpose1d(T.ones(2, 4, 7), T.ones(4, 3, 3), groups=3), RuntimeError,
     "Given groups=3, expected weight to be divisible by 3 at dimension 0, but got weight of size [[4, 3, 3]] "
     "instead"),
    (lambda T: F(T).conv1d(T.ones(2, 4, 7), T.ones(6, 2, 3)), RuntimeError,
     "Given groups=1, weight of size [6, 2, 3], expected input[2, 4, 7] to have 2 channels, but got 4 channels "
     "instead"),
    (lambda T: F(T).conv3d(T.ones(1, 4, 5, 5, 5), T.ones(6, 4, 9, 2, 2)), RuntimeError,
     "Calculated padded input size per channel: (5 x 5 x 5). Kernel size: (9 x 2 x 2). Kernel size can't be greater "
     "than actual input size"),
    (lambda T: F(T).conv1d(T.ones(2, 4, 7), T.ones(6, 2, 30), groups=2), RuntimeError,
     "Calculated padded input size per channel: (7). Kernel size: (30). Kernel size can't be greater than actual "
     "input size"),
    (lambda T: F(T).conv1d(T.ones(2, 4, 7), T.ones(6, 2, 3), T.ones(5), groups=2), RuntimeError,
     "Given weight of size [6, 2, 3], expected bias to be 1-dimensional with 6 elements, but got bias of size [5] "
     "instead"),
    (lambda T: F(T).conv1d(T.ones(2, 4, 7), T.ones(4, 4, 3), T.ones(4, dtype=T.float64)), RuntimeError,
     "Input type (float) and bias type (double) should be the same"),
    (lambda T: F(T).conv1d(T.ones(2, 4, 7), T.ones(6, 2, 3), padding="foo", groups=2), RuntimeError,
     "Invalid padding string: 'foo'"),
    (lambda T: F(T).conv1d(T.ones(2, 4, 7), T.ones(6, 2, 3), padding="same", stride=2, groups=2), RuntimeError,
     "padding='same' is not supported for strided convolutions"),
    (lambda T: F(T).conv_transpose1d(T.ones(2, 4, 7), T.ones(5, 3, 3)), RuntimeError,
     "Given transposed=1, weight of size [5, 3, 3], expected input[2, 4, 7] to have 5 channels, but got 4 channels "
     "instead"),
    (lambda T: F(T).conv_transpose2d(T.ones(2, 4, 7), T.ones(4, 3, 3, 3)), RuntimeError,
     "Given transposed=1, weight of size [4, 3, 3, 3], expected input[1, 2, 4, 7] to have 4 channels, but got 2 "
     "channels instead"),
    (lambda T: F(T).conv_transpose1d(T.ones(2, 4, 7), T.ones(4, 3, 3), T.ones(4)), RuntimeError,
     "Given transposed=1, weight of size [4, 3, 3], expected bias to be 1-dimensional with 3 elements, but got bias "
     "of size [4] instead"),
    (lambda T: F(T).conv_transpose1d(T.ones(2, 4, 7), T.ones(4, 3, 3), output_padding=1), RuntimeError,
     "output padding must be smaller than either stride or dilation, but got output_padding_height: 0 "
     "output_padding_width: 1 stride_height: 1 stride_width: 1 dilation_height: 1 dilation_width: 1"),
    (lambda T: F(T).conv_transpose2d(T.ones(2, 4, 5, 5), T.ones(4, 3, 3, 3), output_padding=(2, 0), stride=(1, 2),
                                     dilation=(2, 1)), RuntimeError,
     "output padding must be smaller than either stride or dilation, but got output_padding_height: 2 "
     "output_padding_width: 0 stride_height: 1 stride_width: 2 dilation_height: 2 dilation_width: 1"),
    (lambda T: F(T).conv_transpose3d(T.ones(2, 4, 3, 3, 3), T.ones(4, 3, 3, 3, 3), output_padding=1), RuntimeError,
     "output padding must be smaller than either stride or dilation, but got output_padding_depth: 1 "
     "output_padding_height: 1 output_padding_width: 1 stride_depth: 1 stride_height: 1 stride_width: 1 "
     "dilation_depth: 1 dilation_height: 1 dilation_width: 1"),
    (lambda T: F(T).conv_transpose1d(T.ones(2, 4, 7, dtype=T.float64), T.ones(4, 3, 3, dtype=T.float64), padding=5),
     RuntimeError, "Given input size per channel: (1 x 7). Calculated output size per channel: (1 x -1). Output size "
                   "is too small"),
    (lambda T: T.nn.ConvTranspose1d(4, 3, 3, padding_mode="reflect"), ValueError,
     'Only "zeros" padding mode is supported for ConvTranspose1d'),
    (lambda T: T.nn.Conv1d(4, 3, 3, stride=2, padding="same"), ValueError,
     "padding='same' is not supported for strided convolutions"),
    (lambda T: T.nn.Conv3d(4, 3, 3, groups=3), ValueError, "in_channels must be divisible by groups"),
    (lambda T: T.nn.ConvTranspose1d(4, 3, 3)(T.ones(2, 4, 7), output_size=[10]), ValueError,
     "requested an output size of [10], but valid sizes range from [9] to [9] (for an input of torch.Size([7]))"),
    (lambda T: T.nn.ConvTranspose2d(4, 3, 3, stride=2)(T.ones(2, 4, 5, 5), output_size=[3, 16]), ValueError,
     "requested an output size of [3, 16], but valid sizes range from [11, 11] to [12, 12] (for an input of "
     "torch.Size([5, 5]))"),
    (lambda T: T.nn.ConvTranspose1d(4, 3, 3, stride=2)(T.ones(2, 4, 7), output_size=[3, 16]), ValueError,
     "ConvTranspose1D: for 3D input, output_size must have 1 or 3 elements (got 2)"),
    (lambda T: T.nn.ConvTranspose2d(4, 3, 3, stride=2)(T.ones(4, 5, 5), output_size=(2, 3, 12, 11)), ValueError,
     "ConvTranspose2D: for 3D input, output_size must have 2 or 3 elements (got 4)"),
]


@pytest.mark.parametrize("i", range(len(CONV_ERRORS)))
def test_convolution_errors(torch, i):
    fn, exc, msg = CONV_ERRORS[i]
    with pytest.raises(exc, match=exact(msg)):
        fn(torch)


# ---------------------------------------------------------------------------------------- pooling

POOL = {
    "max_pool1d": (lambda T, x: F(T).max_pool1d(x, 3, stride=2, padding=1, dilation=2, ceil_mode=True), [R(2, 3, 11)]),
    "max_pool1d_unbatched": (lambda T, x: F(T).max_pool1d(x, 2), [R(3, 7)]),
    "max_pool3d": (lambda T, x: F(T).max_pool3d(x, (2, 3, 2), stride=(1, 2, 2), padding=(1, 1, 0), dilation=(2, 1, 1)),
                   [R(2, 2, 5, 6, 5)]),
    "max_pool3d_ceil_unbatched": (lambda T, x: F(T).max_pool3d(x, 2, ceil_mode=True), [R(2, 5, 3, 4)]),
    "avg_pool1d": (lambda T, x: F(T).avg_pool1d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
                   [R(2, 3, 10)]),
    "avg_pool1d_unbatched": (lambda T, x: F(T).avg_pool1d(x, (2,)), [R(3, 7)]),
    "avg_pool3d": (lambda T, x: F(T).avg_pool3d(x, (2, 3, 2), stride=(1, 2, 2), padding=(1, 1, 0)), [R(2, 2, 4, 6, 5)]),
    "avg_pool3d_ceil_exclude_pad": (lambda T, x: F(T).avg_pool3d(x, 3, stride=2, padding=1, ceil_mode=True,
                                                                  count_include_pad=False), [R(1, 2, 5, 6, 4)]),
    "avg_pool3d_divisor": (lambda T, x: F(T).avg_pool3d(x, 2, divisor_override=3), [R(1, 2, 4, 4, 4)]),
    "adaptive_avg_pool1d": (lambda T, x: F(T).adaptive_avg_pool1d(x, 4), [R(2, 3, 10)]),
    "adaptive_avg_pool2d_none": (lambda T, x: F(T).adaptive_avg_pool2d(x, (None, 3)), [R(2, 3, 5, 7)]),
    "adaptive_avg_pool3d": (lambda T, x: F(T).adaptive_avg_pool3d(x, (2, 3, 4)), [R(2, 2, 5, 7, 9)]),
    "adaptive_avg_pool3d_unbatched": (lambda T, x: F(T).adaptive_avg_pool3d(x, 2), [R(2, 3, 5, 4)]),
    "adaptive_max_pool1d": (lambda T, x: F(T).adaptive_max_pool1d(x, 4), [R(2, 3, 10)]),
    "adaptive_max_pool2d": (lambda T, x: F(T).adaptive_max_pool2d(x, (3, 4)), [R(2, 3, 7, 9)]),
    "adaptive_max_pool2d_grow": (lambda T, x: F(T).adaptive_max_pool2d(x, (5, None)), [R(3, 3, 4)]),
    "adaptive_max_pool3d": (lambda T, x: F(T).adaptive_max_pool3d(x, (2, 3, 2)), [R(1, 2, 5, 7, 3)]),
}


@pytest.mark.parametrize("name", sorted(POOL))
def test_pooling_matches_torch(name, real_torch):
    fn, arrays = POOL[name]
    compare(real_torch, fn, arrays)


@pytest.mark.parametrize("name", ["max_pool3d", "avg_pool3d_ceil_exclude_pad", "adaptive_max_pool2d",
                                  "adaptive_avg_pool3d"])
def test_pooling_second_derivatives_match_torch(name, real_torch):
    fn, arrays = POOL[name]
    compare(real_torch, lambda T, *args: fn(T, *args) ** 3, arrays, create_graph=True)


@pytest.mark.parametrize("call", [
    lambda F, x1, x2, x3: F.max_pool1d(x1, 3, stride=2, padding=1, ceil_mode=True, return_indices=True),
    lambda F, x1, x2, x3: F.max_pool3d(x3, 2, stride=1, padding=1, dilation=(1, 2, 1), return_indices=True),
    lambda F, x1, x2, x3: F.max_pool3d(x3[0], 2, return_indices=True),
    lambda F, x1, x2, x3: F.adaptive_max_pool1d(x1, 3, return_indices=True),
    lambda F, x1, x2, x3: F.adaptive_max_pool2d(x2, (2, 3), return_indices=True),
    lambda F, x1, x2, x3: F.adaptive_max_pool3d(x3, 2, return_indices=True),
    lambda F, x1, x2, x3: F.max_pool3d_with_indices(x3, 2),
    lambda F, x1, x2, x3: F.max_pool1d_with_indices(x1, 2),
])
def test_pooling_indices(real_torch, call):
    arrays = [R(2, 3, 9), R(2, 3, 5, 7), R(2, 2, 4, 5, 4)]
    ours = call(ft.nn.functional, *(ft.tensor(a) for a in arrays))
    theirs = call(real_torch.nn.functional, *(real_torch.tensor(a) for a in arrays))
    for a, b in zip(ours, theirs):
        assert a.dtype.__str__() == b.dtype.__str__() and tuple(a.shape) == tuple(b.shape)
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_pooling_ties_pick_the_first_maximum(real_torch):
    x = np.zeros((1, 1, 4, 4, 4))
    for T in (ft, real_torch):
        t = T.tensor(x, requires_grad=True)
        out, idx = T.nn.functional.max_pool3d(t, 2, return_indices=True)
        out.sum().backward()
        assert idx.flatten().tolist() == [0, 2, 8, 10, 32, 34, 40, 42]
        assert t.grad.sum().item() == 8


POOL_MODULES = {
    "MaxPool1d": (lambda T: T.nn.MaxPool1d(3, 2, 1), (2, 3, 9)),
    "MaxPool3d": (lambda T: T.nn.MaxPool3d((2, 1, 2), ceil_mode=True), (2, 2, 5, 3, 5)),
    "AvgPool1d": (lambda T: T.nn.AvgPool1d(2, padding=1), (2, 3, 7)),
    "AvgPool3d": (lambda T: T.nn.AvgPool3d(2, stride=1, divisor_override=5), (1, 2, 3, 4, 3)),
    "AdaptiveAvgPool1d": (lambda T: T.nn.AdaptiveAvgPool1d(3), (2, 3, 7)),
    "AdaptiveAvgPool3d": (lambda T: T.nn.AdaptiveAvgPool3d((1, None, 2)), (2, 2, 3, 4, 5)),
    "AdaptiveMaxPool1d": (lambda T: T.nn.AdaptiveMaxPool1d(4), (2, 3, 9)),
    "AdaptiveMaxPool2d": (lambda T: T.nn.AdaptiveMaxPool2d((3, None)), (2, 3, 7, 4)),
    "AdaptiveMaxPool3d": (lambda T: T.nn.AdaptiveMaxPool3d(2), (1, 2, 5, 3, 4)),
}


@pytest.mark.parametrize("name", sorted(POOL_MODULES))
def test_pooling_modules_match_torch(name, real_torch):
    make, shape = POOL_MODULES[name]
    compare_module(real_torch, make, R(*shape))
    assert repr(make(real_torch)) == repr(make(ft))


def test_pooling_modules_return_indices(torch):
    out, idx = torch.nn.AdaptiveMaxPool2d(2, return_indices=True)(torch.arange(16.).reshape(1, 4, 4))
    assert idx.tolist() == [[[5, 7], [13, 15]]]
    out, idx = torch.nn.MaxPool1d(2, return_indices=True)(torch.tensor([[1., 3., 2., 0.]]))
    assert idx.tolist() == [[1, 2]] and out.tolist() == [[3., 2.]]


@pytest.mark.parametrize("expr, name", [
    ("F.max_pool3d(x3, 2)", "MaxPool3DWithIndicesBackward0"), ("F.avg_pool3d(x3, 2)", "AvgPool3DBackward0"),
    ("F.max_pool1d(x1, 2)", "SqueezeBackward1"), ("F.avg_pool1d(x1, 2)", "SqueezeBackward1"),
    ("F.adaptive_avg_pool3d(x3, 1)", "MeanBackward1"),
])
def test_pooling_node_names(torch, expr, name):
    env = {"F": torch.nn.functional, "x1": torch.ones(1, 2, 4, requires_grad=True),
           "x3": torch.ones(1, 2, 4, 4, 4, requires_grad=True)}
    assert eval(expr, env).grad_fn.name() == name


POOL_ERRORS = [
    (lambda F, T: F.max_pool3d(T.ones(2, 3, 2, 2, 2), 3), "Given input size: (3x2x2x2). Calculated output size: "
                                                          "(3x0x0x0). Output size is too small"),
    (lambda F, T: F.avg_pool3d(T.ones(2, 3, 2, 2, 2), 3), "input image (T: 2 H: 2 W: 2) smaller than kernel size "
                                                          "(kT: 3 kH: 3 kW: 3)"),
    (lambda F, T: F.max_pool3d(T.ones(3, 4, 4, 4, 4, 4), 2), "non-empty 4D or 5D (batch mode) tensor expected for "
                                                             "input"),
    (lambda F, T: F.max_pool2d(T.ones(4, 4), 2), "non-empty 3D or 4D (batch mode) tensor expected for input"),
    (lambda F, T: F.max_pool3d(T.ones(2, 3, 4, 4, 4), 2, padding=2), "pad should be at most half of effective "
                                                                     "kernel size, but got pad=2, kernel_size=2 and "
                                                                     "dilation=1"),
    (lambda F, T: F.max_pool3d(T.ones(2, 3, 4, 4, 4), 2, stride=0), "stride should not be zero"),
    (lambda F, T: F.avg_pool3d(T.ones(2, 3, 4, 4, 4), 0), "stride should not be zero"),
    (lambda F, T: F.max_pool3d(T.ones(2, 3, 4, 4, 4), 0, stride=1), "kernel size should be greater than zero, but "
                                                                    "got kT: 0 kH: 0 kW: 0"),
    (lambda F, T: F.max_pool2d(T.ones(2, 3, 4, 4), 0, stride=1), "kernel size should be greater than zero, but got "
                                                                 "kH: 0 kW: 0"),
    (lambda F, T: F.max_pool3d(T.ones(2, 3, 4, 4, 4), 2, dilation=0), "dilation should be greater than zero, but "
                                                                      "got dilationT: 0 dilationH: 0 dilationW: 0"),
    (lambda F, T: F.max_pool3d(T.ones(2, 3, 4, 4, 4), (2, 2)), "max_pool3d: kernel_size must either be a single int, "
                                                               "or a tuple of three ints"),
    (lambda F, T: F.max_pool3d(T.ones(2, 3, 4, 4, 4), 2, stride=(1, 2)), "max_pool3d: stride must either be "
                                                                         "omitted, a single int, or a tuple of three "
                                                                         "ints"),
    (lambda F, T: F.max_pool3d(T.ones(2, 3, 4, 4, 4), 2, dilation=(1, 1)), "max_pool3d: dilation must be either a "
                                                                           "single int, or a tuple of three ints"),
    (lambda F, T: F.max_pool2d(T.ones(2, 3, 4, 4), (2, 2, 2)), "max_pool2d: kernel_size must either be a single "
                                                               "int, or a tuple of two ints"),
    (lambda F, T: F.avg_pool2d(T.ones(2, 3, 4, 4), 2, padding=(1, 2, 1)), "avg_pool2d: padding must either be a "
                                                                          "single int, or a tuple of two ints"),
    (lambda F, T: F.avg_pool3d(T.ones(2, 3, 4, 4, 4), (2, 2)), "avg_pool3d: kernel_size must be a single int, or a "
                                                               "tuple of three ints"),
    (lambda F, T: F.avg_pool3d(T.ones(2, 3, 4, 4, 4), 2, stride=(1, 2)), "avg_pool3d: stride must be omitted, a "
                                                                         "single int, or a tuple of three ints"),
    (lambda F, T: F.avg_pool3d(T.ones(2, 3, 4, 4, 4), 2, divisor_override=0), "divisor must be not zero"),
    (lambda F, T: F.max_pool1d(T.ones(2, 3, 4), 2, padding=2), "max_pool1d() padding should be at most half of "
                                                               "kernel size, but got padding=2 and kernel_size=2"),
    (lambda F, T: F.max_pool1d(T.ones(2, 3, 4), 2, padding=-1), "max_pool1d() padding must be non-negative, but got "
                                                                "-1"),
    (lambda F, T: F.max_pool1d(T.ones(2, 3, 1, requires_grad=True), 2), "max_pool1d() Invalid computed output size: "
                                                                        "0"),
    (lambda F, T: F.max_pool1d(T.ones(2, 3, 3, 3), 2), "max_pool1d: Expected 2D or 3D (batch mode) tensor with "
                                                       "optional 0 dim batch size for input, but got:[2, 3, 3, 3]"),
    (lambda F, T: F.max_pool1d(T.ones(2, 3, 4), (2, 2)), "max_pool1d() kernel_size must be an int, list of ints or "
                                                         "tuple of ints of size 1 but got size 2"),
    (lambda F, T: F.max_pool1d(T.ones(2, 3, 4), 2, stride=(1, 2)), "max_pool1d() stride must be None, an int, list "
                                                                   "of ints, or tuple of ints of size 1 but got size 2"),
    (lambda F, T: F.max_pool1d(T.ones(2, 3, 4), 0), "max_pool1d() kernel_size must be greater than zero, but got 0"),
    (lambda F, T: F.max_pool1d(T.ones(2, 3, 4), 2, dilation=0), "max_pool1d() dilation must be greater than zero, "
                                                                "but got 0"),
    (lambda F, T: F.avg_pool1d(T.ones(2, 3, 1), 2), "Given input size: (3x1x1). Calculated output size: (3x1x0). "
                                                    "Output size is too small"),
    (lambda F, T: F.avg_pool1d(T.ones(3), 2), "Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument "
                                              "#1 'self' (while checking arguments for avg_pool1d)"),
    (lambda F, T: F.avg_pool1d(T.ones(2, 3, 4), (2, 2)), "avg_pool1d() argument 'kernel_size' should contain one int "
                                                         "(got 2)"),
    (lambda F, T: F.adaptive_avg_pool1d(T.ones(2, 3, 4, 4), 2), "Expected 2 to 3 dimensions, but got 4-dimensional "
                                                                "tensor for argument #1 'self' (while checking "
                                                                "arguments for adaptive_avg_pool1d)"),
    (lambda F, T: F.adaptive_max_pool1d(T.ones(3, 4, 3), (2, 3)), "adaptive_max_pool1d() argument 'output_size' "
                                                                  "should contain one int (got 2)"),
    (lambda F, T: F.adaptive_avg_pool3d(T.ones(2, 3, 4), 2), "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but "
                                                             "got [2, 3, 4]"),
    (lambda F, T: F.adaptive_avg_pool3d(T.ones(2, 3, 0, 4), 2), "adaptive_avg_pool3d(): Expected input to have "
                                                                "non-zero size for non-batch dimensions, but input has "
                                                                "sizes [2, 3, 0, 4] with dimension 2 being empty"),
    (lambda F, T: F.adaptive_avg_pool3d(T.ones(3, 4, 4, 4), (2, 3)), "adaptive_avg_pool3d: output_size must be 3"),
    (lambda F, T: F.adaptive_max_pool2d(T.ones(3, 4), 2), "adaptive_max_pool2d(): Expected 3D or 4D tensor, but "
                                                          "got: [3, 4]"),
    (lambda F, T: F.adaptive_max_pool3d(T.ones(3, 4, 0, 3, 3), 2), "adaptive_max_pool3d(): Expected input to have "
                                                                   "non-zero size for non-batch dimensions, but input "
                                                                   "has sizes [3, 4, 0, 3, 3] with dimension 2 being "
                                                                   "empty"),
]


@pytest.mark.parametrize("i", range(len(POOL_ERRORS)))
def test_pooling_errors(torch, i):
    fn, msg = POOL_ERRORS[i]
    with pytest.raises(RuntimeError, match=exact(msg)):
        fn(torch.nn.functional, torch)


# ---------------------------------------------------------------------------------------- padding

PAD = {
    "reflect_1d": (lambda T, x: F(T).pad(x, (3, 2), mode="reflect"), [R(2, 3, 5)]),
    "reflect_1d_unbatched_crop": (lambda T, x: F(T).pad(x, (-1, 3), mode="reflect"), [R(3, 5)]),
    "reflect_2d": (lambda T, x: F(T).pad(x, (1, 2, 3, 0), mode="reflect"), [R(2, 3, 4, 5)]),
    "reflect_3d": (lambda T, x: F(T).pad(x, (1, 2, 0, 1, 2, 1), mode="reflect"), [R(1, 2, 3, 4, 3)]),
    "replicate_1d": (lambda T, x: F(T).pad(x, (4, 1), mode="replicate"), [R(2, 3, 3)]),
    "replicate_2d_unbatched": (lambda T, x: F(T).pad(x, (2, 2, 0, 3), mode="replicate"), [R(3, 4, 2)]),
    "replicate_3d": (lambda T, x: F(T).pad(x, (1, 0, 2, 1, 0, 2), mode="replicate"), [R(2, 1, 2, 3, 3)]),
    "circular_2d": (lambda T, x: F(T).pad(x, (2, 1, 3, 0), mode="circular"), [R(2, 3, 3, 4)]),
    "circular_1d_crop": (lambda T, x: F(T).pad(x, (-1, 2), mode="circular"), [R(2, 3, 4)]),
    "constant_3d": (lambda T, x: F(T).pad(x, (1, 2, 0, 1, 2, 1), value=-0.5), [R(1, 2, 3, 4, 3)]),
}


@pytest.mark.parametrize("name", sorted(PAD))
def test_padding_matches_torch(name, real_torch):
    fn, arrays = PAD[name]
    compare(real_torch, fn, arrays)
    compare(real_torch, lambda T, *args: fn(T, *args) ** 3, arrays, create_graph=True)


PAD_MODULES = {
    "ReflectionPad1d": (lambda T: T.nn.ReflectionPad1d(2), (2, 3, 4)),
    "ReflectionPad2d": (lambda T: T.nn.ReflectionPad2d((1, 2, 3, 0)), (2, 3, 4, 4)),
    "ReflectionPad3d": (lambda T: T.nn.ReflectionPad3d(1), (1, 2, 3, 3, 2)),
    "ReplicationPad1d": (lambda T: T.nn.ReplicationPad1d((1, 3)), (2, 3, 4)),
    "ReplicationPad2d": (lambda T: T.nn.ReplicationPad2d(2), (3, 4, 4)),
    "ReplicationPad3d": (lambda T: T.nn.ReplicationPad3d((1, 0, 1, 0, 0, 2)), (1, 2, 3, 3, 2)),
    "ZeroPad1d": (lambda T: T.nn.ZeroPad1d((2, 0)), (2, 3)),
    "ZeroPad2d": (lambda T: T.nn.ZeroPad2d((1, 2, 0, 1)), (2, 3, 4, 4)),
    "ZeroPad3d": (lambda T: T.nn.ZeroPad3d(1), (1, 2, 2, 3)),
    "ConstantPad1d": (lambda T: T.nn.ConstantPad1d(2, 3.5), (2, 3, 4)),
    "ConstantPad2d": (lambda T: T.nn.ConstantPad2d((1, 0, 2, 0), -1), (2, 3, 4)),
    "ConstantPad3d": (lambda T: T.nn.ConstantPad3d((1, 2, 0, 1, 1, 0), 0.25), (1, 2, 3, 3, 2)),
    "CircularPad1d": (lambda T: T.nn.CircularPad1d(2), (2, 3, 4)),
    "CircularPad2d": (lambda T: T.nn.CircularPad2d((1, 2, 0, 1)), (2, 3, 4, 4)),
    "CircularPad3d": (lambda T: T.nn.CircularPad3d(1), (1, 2, 3, 3, 2)),
}


@pytest.mark.parametrize("name", sorted(PAD_MODULES))
def test_padding_modules_match_torch(name, real_torch):
    make, shape = PAD_MODULES[name]
    compare_module(real_torch, make, R(*shape))
    a, b = make(real_torch), make(ft)
    assert repr(a) == repr(b) and a.padding == b.padding and getattr(a, "value", None) == getattr(b, "value", None)


@pytest.mark.parametrize("mode, dims", [("reflect", 1), ("reflect", 2), ("reflect", 3), ("replicate", 1),
                                        ("replicate", 2), ("replicate", 3)])
def test_padding_node_names(torch, mode, dims):
    x = torch.ones((1, 2) + (3,) * dims, requires_grad=True)
    out = torch.nn.functional.pad(x, (1, 1) * dims, mode=mode)
    assert out.grad_fn.name() == f"{mode.capitalize().replace('Reflect', 'Reflection').replace('Replicate', 'Replication')}Pad{dims}DBackward0"


PAD_ERRORS = [
    (lambda T: F(T).pad(T.ones(2, 3, 4, 5), (1, 2), mode="reflect"), NotImplementedError,
     "Padding size 2 is not supported for 4D input tensor.\nSupported combinations for non-constant padding:\n"
     "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
     "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
     "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"),
    (lambda T: F(T).pad(T.ones(2, 3, 4), (1, 2, 1), mode="reflect"), RuntimeError,
     "Padding length must be divisible by 2"),
    (lambda T: F(T).pad(T.ones(2, 3, 4), (1, 2), mode="foo"), NotImplementedError, "Unrecognised padding mode foo"),
    (lambda T: F(T).pad(T.ones(2, 3, 4), (1, 2), mode="reflect", value=1.0), RuntimeError,
     'Padding mode "reflect" doesn\'t take in value argument'),
    (lambda T: F(T).pad(T.ones(2, 3, 4), (4, 2), mode="reflect"), RuntimeError,
     "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (4, 2) at "
     "dimension 2 of input [2, 3, 4]"),
    (lambda T: F(T).pad(T.ones(2, 3, 4), (1, 1, 3, 2), mode="reflect"), RuntimeError,
     "Argument #6: Padding size should be less than the corresponding input dimension, but got: padding (3, 2) at "
     "dimension 1 of input [2, 3, 4]"),
    (lambda T: F(T).pad(T.ones(2, 3, 4), (5, 2), mode="circular"), RuntimeError,
     "Padding value causes wrapping around more than once."),
    (lambda T: F(T).pad(T.ones(2, 3, 4, 5), (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)), RuntimeError,
     "Padding length should be less than or equal to two times the input dimension but got padding length 10 and "
     "input of dimension 4"),
    (lambda T: T.nn.CircularPad2d(1)(T.ones(2, 2)), ValueError, "expected 3D or 4D input (got 2D input)"),
]


@pytest.mark.parametrize("i", range(len(PAD_ERRORS)))
def test_padding_errors(torch, i):
    fn, exc, msg = PAD_ERRORS[i]
    with pytest.raises(exc, match=exact(msg)):
        fn(torch)
