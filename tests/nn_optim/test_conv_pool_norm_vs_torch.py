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
    # at least 64 output positions and few channels: the per-image shifted products; more channels:
    # the channels-last rows
    "conv1d_per_image": (lambda T, x, w, b: F(T).conv1d(x, w, b, padding=3, dilation=2), [R(2, 2, 70), R(3, 2, 3),
                                                                                         R(3)]),
    "conv2d_per_image_padding_only_offset": (lambda T, x, w: F(T).conv2d(x, w, padding=(1, 3), stride=(1, 3)),
                                             [R(1, 2, 40, 2), R(2, 2, 3, 3)]),
    "conv2d_per_image": (lambda T, x, w, b: F(T).conv2d(x, w, b, stride=(1, 2), padding=(2, 1), dilation=(2, 1)),
                         [R(2, 3, 12, 11), R(4, 3, 3, 3), R(4)]),
    "conv2d_rows_many_channels": (lambda T, x, w, b: F(T).conv2d(x, w, b, padding=1), [R(1, 17, 8, 8), R(2, 17, 3, 3),
                                                                                      R(2)]),
    "conv3d_per_image": (lambda T, x, w: F(T).conv3d(x, w, padding=(1, 1, 0), dilation=(1, 2, 1)),
                         [R(1, 2, 4, 5, 5), R(2, 2, 3, 2, 2)]),
    "conv_transpose2d_per_image": (lambda T, x, w: F(T).conv_transpose2d(x, w), [R(1, 2, 7, 8), R(2, 3, 3, 3)]),
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


@pytest.mark.parametrize("name", ["conv1d_geometry", "conv3d_geometry", "conv_transpose1d_geometry", "conv2d_per_image",
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
    (lambda T: F(T).conv_transpose1d(T.ones(1, 2, 5), T.ones(2, 2, 3), padding=(1.5,)), TypeError,
     "conv_transpose1d(): argument 'padding' must be tuple of ints, not tuple"),
    (lambda T: F(T).conv_transpose1d(T.ones(1, 2, 5), T.ones(2, 2, 3), stride="a"), TypeError,
     "conv_transpose1d(): argument 'stride' must be tuple of ints, not str"),
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
    ("F.adaptive_avg_pool3d(x3, 1)", "MeanBackward1"), ("F.adaptive_avg_pool3d(x3, 2)", "AdaptiveAvgPool3DBackward0"),
    ("F.adaptive_avg_pool2d(x3[0], (2, 3))", "AdaptiveAvgPool2DBackward0"),
    ("F.adaptive_avg_pool1d(x1, 3)", "SqueezeBackward1"), ("F.adaptive_max_pool1d(x1, 3)", "SqueezeBackward1"),
    ("F.adaptive_max_pool2d(x3[0], (2, 3))", "AdaptiveMaxPool2DBackward0"),
    ("F.adaptive_max_pool3d(x3, 3)", "AdaptiveMaxPool3DBackward0"),
    ("F.max_unpool3d(*F.max_pool3d(x3, 2, return_indices=True), 2)", "MaxUnpool3DBackward0"),
    ("F.max_unpool2d(*F.max_pool2d(x3[0], 2, return_indices=True), 2)", "MaxUnpool2DBackward0"),
    ("F.max_unpool1d(*F.max_pool1d(x1, 2, return_indices=True), 2)", "SqueezeBackward1"),
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
    (lambda F, T: F.max_pool1d(T.ones(2, 3, 4), 2, stride=(1, 2)),
     "max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but got size 2"),
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
    kind = {"reflect": "Reflection", "replicate": "Replication"}[mode]
    assert out.grad_fn.name() == f"{kind}Pad{dims}DBackward0"


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
    (lambda T: F(T).pad(T.ones(2, 3, 4), (-3, -2), mode="replicate"), RuntimeError,
     "input (W: 4) is too small. Calculated output W: -1"),
    (lambda T: F(T).pad(T.ones(2, 3, 4), (-3, -1), mode="reflect"), RuntimeError,
     "input (W: 4) is too small. Calculated output W: 0"),
    (lambda T: F(T).pad(T.ones(2, 3, 4), (-3, -2), mode="circular"), RuntimeError,
     "Negative padding value is resulting in an empty dimension"),
    (lambda T: F(T).pad(T.ones(2, 3, 4, 4), (0, 0, -3, -2), mode="replicate"), RuntimeError,
     "Trying to create tensor with negative dimension -1: [2, 3, -1, 4]"),
]


@pytest.mark.parametrize("i", range(len(PAD_ERRORS)))
def test_padding_errors(torch, i):
    fn, exc, msg = PAD_ERRORS[i]
    with pytest.raises(exc, match=exact(msg)):
        fn(torch)


# ---------------------------------------------------------------- normalisation, shuffles, PReLU

NORM = {
    "group_norm": (lambda T, x, w, b: F(T).group_norm(x, 3, w, b, eps=1e-3), [R(2, 6, 3, 4), R(6), R(6)]),
    "group_norm_no_affine_2d": (lambda T, x: F(T).group_norm(x, 2), [R(3, 4)]),
    "group_norm_3d_input": (lambda T, x, w: F(T).group_norm(x, 1, w), [R(2, 3, 5), R(3)]),
    "instance_norm": (lambda T, x: F(T).instance_norm(x), [R(2, 3, 4, 5)]),
    "instance_norm_affine": (lambda T, x, w, b: F(T).instance_norm(x, weight=w, bias=b, eps=1e-2), [R(2, 3, 7), R(3),
                                                                                                     R(3)]),
    "instance_norm_running": (lambda T, x: F(T).instance_norm(x, T.tensor([0.5, -1.0, 0.25], dtype=T.float64),
                                                              T.tensor([1.5, 0.5, 2.0], dtype=T.float64),
                                                              use_input_stats=False), [R(2, 3, 4)]),
    "local_response_norm_3d": (lambda T, x: F(T).local_response_norm(x, 3, alpha=0.1, beta=0.6, k=2.0), [R(2, 5, 4)]),
    "local_response_norm_4d": (lambda T, x: F(T).local_response_norm(x, 2), [R(2, 5, 3, 4)]),
    "local_response_norm_5d": (lambda T, x: F(T).local_response_norm(x, 4, alpha=0.5), [R(1, 6, 2, 3, 2)]),
    "pixel_shuffle": (lambda T, x: F(T).pixel_shuffle(x, 2), [R(2, 8, 3, 4)]),
    "pixel_shuffle_extra_dims": (lambda T, x: F(T).pixel_shuffle(x, 3), [R(2, 1, 9, 2, 3)]),
    "pixel_unshuffle": (lambda T, x: F(T).pixel_unshuffle(x, 2), [R(2, 3, 4, 6)]),
    "pixel_unshuffle_unbatched": (lambda T, x: F(T).pixel_unshuffle(x, 3), [R(2, 3, 6)]),
    "prelu_channels": (lambda T, x, w: F(T).prelu(x, w), [R(2, 3, 4), R(3)]),
    "prelu_one": (lambda T, x, w: F(T).prelu(x, w), [R(2, 3, 4, 2), R(1)]),
    "prelu_1d": (lambda T, x, w: F(T).prelu(x, w), [R(5), R(1)]),
}


@pytest.mark.parametrize("name", sorted(NORM))
def test_norm_and_shuffle_match_torch(name, real_torch):
    fn, arrays = NORM[name]
    compare(real_torch, fn, arrays)


@pytest.mark.parametrize("name", ["group_norm", "instance_norm_affine", "local_response_norm_4d", "prelu_channels"])
def test_norm_second_derivatives_match_torch(name, real_torch):
    fn, arrays = NORM[name]
    compare(real_torch, lambda T, *args: fn(T, *args) ** 3, arrays, create_graph=True)


NORM_MODULES = {
    "GroupNorm": (lambda T: T.nn.GroupNorm(2, 4), (2, 4, 3, 3), True),
    "GroupNorm_no_bias": (lambda T: T.nn.GroupNorm(4, 4, eps=1e-3, bias=False), (3, 4, 5), True),
    "InstanceNorm1d": (lambda T: T.nn.InstanceNorm1d(3), (2, 3, 5), True),
    "InstanceNorm1d_unbatched_affine": (lambda T: T.nn.InstanceNorm1d(3, affine=True), (3, 5), True),
    "InstanceNorm2d_tracking_train": (lambda T: T.nn.InstanceNorm2d(3, affine=True, track_running_stats=True,
                                                                    momentum=0.3), (2, 3, 4, 4), True),
    "InstanceNorm2d_tracking_eval": (lambda T: T.nn.InstanceNorm2d(3, track_running_stats=True), (2, 3, 4, 4), False),
    "InstanceNorm3d": (lambda T: T.nn.InstanceNorm3d(2, affine=True), (2, 2, 3, 2, 3), True),
    "LocalResponseNorm": (lambda T: T.nn.LocalResponseNorm(3, alpha=0.2), (2, 4, 3, 3), True),
    "PixelShuffle": (lambda T: T.nn.PixelShuffle(2), (2, 4, 2, 3), True),
    "PixelUnshuffle": (lambda T: T.nn.PixelUnshuffle(2), (2, 1, 4, 2), True),
    "PReLU": (lambda T: T.nn.PReLU(), (2, 3, 4), True),
    "PReLU_channels": (lambda T: T.nn.PReLU(3, init=0.1), (2, 3, 4), True),
}


@pytest.mark.parametrize("name", sorted(NORM_MODULES))
def test_norm_modules_match_torch(name, real_torch):
    make, shape, train = NORM_MODULES[name]
    compare_module(real_torch, make, R(*shape), train=train)
    assert repr(make(real_torch)) == repr(make(ft))


def test_instance_norm_running_statistics_after_steps(real_torch):
    x = [R(2, 3, 5), R(2, 3, 5)]
    stats = []
    for T in (real_torch, ft):
        m = T.nn.InstanceNorm1d(3, track_running_stats=True, momentum=None).double()
        for a in x:
            m(T.tensor(a))
        stats.append([m.running_mean.numpy(), m.running_var.numpy(), m.num_batches_tracked.item()])
    np.testing.assert_allclose(stats[1][0], stats[0][0], rtol=1e-12)
    np.testing.assert_allclose(stats[1][1], stats[0][1], rtol=1e-12)
    assert stats[1][2] == stats[0][2]


def test_instance_norm_feature_mismatch_warns_without_affine(torch):
    with pytest.warns(UserWarning, match=exact("input's size at dim=1 does not match num_features. You can silence "
                                               "this warning by not passing in num_features, which is not used "
                                               "because affine=False")):
        torch.nn.InstanceNorm1d(4)(torch.ones(2, 3, 5))


NORM_ERRORS = [
    (lambda T: F(T).group_norm(T.ones(2, 8, 3), 3), RuntimeError,
     "Expected number of channels in input to be divisible by num_groups, but got input of shape [2, 8, 3] and "
     "num_groups=3"),
    (lambda T: F(T).group_norm(T.ones(2, 8, 3), 4, T.ones(3)), RuntimeError,
     "Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape [3] "
     "and input of shape [2, 8, 3]"),
    (lambda T: F(T).group_norm(T.ones(4), 4), RuntimeError,
     "Expected at least 2 dimensions for input tensor but received 1"),
    (lambda T: T.nn.GroupNorm(3, 8), ValueError, "num_channels (8) must be divisible by num_groups (3)"),
    (lambda T: F(T).instance_norm(T.ones(2, 3, 1)), ValueError,
     "Expected more than 1 spatial element when training, got input size torch.Size([2, 3, 1])"),
    (lambda T: T.nn.InstanceNorm1d(4)(T.ones(4, 3, 3, 3)), ValueError, "expected 2D or 3D input (got 4D input)"),
    (lambda T: T.nn.InstanceNorm3d(4)(T.ones(4, 3)), ValueError, "expected 4D or 5D input (got 2D input)"),
    (lambda T: T.nn.InstanceNorm1d(4, affine=True)(T.ones(2, 3, 5)), ValueError,
     "expected input's size at dim=1 to match num_features (4), but got: 3."),
    (lambda T: F(T).local_response_norm(T.ones(3, 4), 2), ValueError,
     "Expected 3D or higher dimensionality                          input (got 2 dimensions)"),
    (lambda T: F(T).pixel_shuffle(T.ones(2, 8, 3, 4), 3), RuntimeError,
     "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but "
     "input.size(-3)=8 is not divisible by 9"),
    (lambda T: F(T).pixel_shuffle(T.ones(3, 4), 2), RuntimeError,
     "pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 dimension(s)"),
    (lambda T: F(T).pixel_shuffle(T.ones(2, 4, 3, 4), 0), RuntimeError,
     "pixel_shuffle expects a positive upscale_factor, but got 0"),
    (lambda T: F(T).pixel_unshuffle(T.ones(2, 8, 3, 4), 2), RuntimeError,
     "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=3 is not divisible by "
     "2"),
    (lambda T: F(T).pixel_unshuffle(T.ones(2, 8, 3, 4), 3), RuntimeError,
     "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=4 is not divisible by 3"),
    (lambda T: F(T).prelu(T.ones(2, 8, 3), T.ones(2)), RuntimeError,
     "Mismatch of parameter numbers and input channel size. Found parameter numbers = 2 and channel size = 8."),
    (lambda T: T.nn.PReLU(3)(T.ones(4)), RuntimeError,
     "Mismatch of parameter numbers and input channel size. Found parameter numbers = 3 and channel size = 1."),
    (lambda T: T.nn.PReLU(3)(T.tensor(2.0)), RuntimeError, "Not allow zero-dim input tensor."),
]


@pytest.mark.parametrize("i", range(len(NORM_ERRORS)))
def test_norm_and_shuffle_errors(torch, i):
    fn, exc, msg = NORM_ERRORS[i]
    with pytest.raises(exc, match=exact(msg)):
        fn(torch)


# ------------------------------------------------------------------------------------ interpolate

def _interp(**kw):
    return lambda T, x: F(T).interpolate(x, **kw)


INTERP = {
    "nearest_1d_scale": (_interp(scale_factor=2.5), [R(2, 3, 4)]),
    "nearest_1d_size_down": (_interp(size=3), [R(2, 3, 7)]),
    "nearest_2d_double": (_interp(scale_factor=2), [R(1, 2, 3, 4)]),
    "nearest_2d_size": (_interp(size=(5, 7)), [R(1, 2, 3, 4)]),
    "nearest_2d_odd_scales": (_interp(scale_factor=(1.3, 0.7)), [R(1, 2, 7, 9)]),
    "nearest_2d_recompute": (_interp(scale_factor=(1.3, 0.7), recompute_scale_factor=True), [R(1, 2, 7, 9)]),
    "nearest_3d": (_interp(size=(3, 2, 5)), [R(1, 2, 2, 3, 4)]),
    "nearest_exact_2d": (_interp(scale_factor=1.5, mode="nearest-exact"), [R(1, 2, 3, 5)]),
    "nearest_exact_1d_down": (_interp(size=4, mode="nearest-exact"), [R(1, 2, 9)]),
    "linear": (_interp(scale_factor=2.3, mode="linear"), [R(2, 3, 4)]),
    "linear_align": (_interp(size=9, mode="linear", align_corners=True), [R(2, 3, 4)]),
    "linear_down": (_interp(size=3, mode="linear"), [R(2, 3, 8)]),
    "bilinear": (_interp(size=(5, 7), mode="bilinear"), [R(2, 2, 3, 4)]),
    "bilinear_align": (_interp(scale_factor=(2, 1.5), mode="bilinear", align_corners=True), [R(2, 2, 3, 4)]),
    "bilinear_scale": (_interp(scale_factor=(0.6, 1.7), mode="bilinear"), [R(1, 2, 6, 5)]),
    "bilinear_align_to_one": (_interp(size=(1, 3), mode="bilinear", align_corners=True), [R(1, 2, 4, 5)]),
    "trilinear": (_interp(scale_factor=(1.5, 2, 0.5), mode="trilinear"), [R(1, 2, 2, 3, 4)]),
    "area_2d": (_interp(size=(2, 3), mode="area"), [R(1, 2, 5, 7)]),
    "area_1d_scale": (_interp(scale_factor=0.5, mode="area"), [R(1, 2, 7)]),
    "bicubic": (_interp(size=(8, 3), mode="bicubic"), [R(2, 2, 5, 4)]),
    "bicubic_scale": (_interp(scale_factor=(1.7, 0.6), mode="bicubic"), [R(1, 2, 5, 6)]),
    "bicubic_align": (_interp(size=(7, 9), mode="bicubic", align_corners=True), [R(1, 1, 4, 4)]),
}


@pytest.mark.parametrize("name", sorted(INTERP))
def test_interpolate_matches_torch(name, real_torch):
    fn, arrays = INTERP[name]
    compare(real_torch, fn, arrays)


def test_interpolate_float32_matches_torch(real_torch):
    x = R(1, 2, 5, 7).astype(np.float32)
    for kw in (dict(scale_factor=1.37), dict(scale_factor=(0.61, 1.9), mode="bilinear"),
               dict(size=(9, 4), mode="nearest-exact")):
        a = F(ft).interpolate(ft.tensor(x), **kw).numpy()
        b = F(real_torch).interpolate(real_torch.tensor(x), **kw).numpy()
        assert a.dtype == b.dtype == np.float32
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


UPSAMPLE_MODULES = {
    "Upsample_nearest": (lambda T: T.nn.Upsample(scale_factor=2), (1, 2, 3, 3)),
    "Upsample_bilinear": (lambda T: T.nn.Upsample(size=(4, 5), mode="bilinear"), (1, 2, 3, 3)),
    "Upsample_trilinear_align": (lambda T: T.nn.Upsample(scale_factor=(2, 1, 1.5), mode="trilinear",
                                                         align_corners=True), (1, 1, 2, 3, 2)),
    "UpsamplingNearest2d": (lambda T: T.nn.UpsamplingNearest2d(size=5), (2, 1, 3, 2)),
    "UpsamplingBilinear2d": (lambda T: T.nn.UpsamplingBilinear2d(scale_factor=2), (2, 1, 3, 2)),
}


@pytest.mark.parametrize("name", sorted(UPSAMPLE_MODULES))
def test_upsample_modules_match_torch(name, real_torch):
    make, shape = UPSAMPLE_MODULES[name]
    compare_module(real_torch, make, R(*shape))
    assert repr(make(real_torch)) == repr(make(ft))


INTERP_ERRORS = [
    (lambda T: F(T).interpolate(T.ones(1, 1, 3), size=4, align_corners=True), ValueError,
     "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear"),
    (lambda T: F(T).interpolate(T.ones(1, 1, 3), size=4, scale_factor=2), ValueError,
     "only one of size or scale_factor should be defined"),
    (lambda T: F(T).interpolate(T.ones(1, 1, 3)), ValueError, "either size or scale_factor should be defined"),
    (lambda T: F(T).interpolate(T.ones(1, 1, 3), size=(4, 5)), ValueError,
     "Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of [3] "
     "and output size of (4, 5). Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
     "(o1, o2, ...,oK) format."),
    (lambda T: F(T).interpolate(T.ones(1, 1, 3, 3), scale_factor=[2.0]), ValueError,
     "Input and scale_factor must have the same number of spatial dimensions, but got input with spatial dimensions "
     "of [3, 3] and scale_factor of shape [2.0]. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
     "scale_factor in (s1, s2, ...,sK) format."),
    (lambda T: F(T).interpolate(T.ones(1, 1, 3), size=4, recompute_scale_factor=True), ValueError,
     "recompute_scale_factor is not meaningful with an explicit size."),
    (lambda T: F(T).interpolate(T.ones(1, 1, 3), size=4, mode="bilinear"), NotImplementedError,
     "Got 3D input, but bilinear mode needs 4D input"),
    (lambda T: F(T).interpolate(T.ones(1, 1, 3), size=4, mode="bicubic"), NotImplementedError,
     "Input Error: Only 3D, 4D and 5D input Tensors supported (got 3D) for the modes: nearest | linear | bilinear | "
     "bicubic | trilinear | lanczos | area | nearest-exact (got bicubic)"),
    (lambda T: F(T).interpolate(T.ones(1, 1, 3, 3), size=4, mode="trilinear"), NotImplementedError,
     "Got 4D input, but trilinear mode needs 5D input"),
    (lambda T: F(T).interpolate(T.ones(1, 1, 3, 3, 3), size=4, mode="linear"), NotImplementedError,
     "Got 5D input, but linear mode needs 3D input"),
    (lambda T: F(T).interpolate(T.ones(1, 1, 3, 3), size=4, mode="foo"), NotImplementedError,
     "Input Error: Only 3D, 4D and 5D input Tensors supported (got 4D) for the modes: nearest | linear | bilinear | "
     "bicubic | trilinear | lanczos | area | nearest-exact (got foo)"),
    (lambda T: F(T).interpolate(T.ones(1, 3), size=4), NotImplementedError,
     "Input Error: Only 3D, 4D and 5D input Tensors supported (got 2D) for the modes: nearest | linear | bilinear | "
     "bicubic | trilinear | lanczos | area | nearest-exact (got nearest)"),
    (lambda T: F(T).interpolate(T.ones(1, 1, 3), scale_factor=0.2), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (W: 3) and output (W: 0)"),
    (lambda T: F(T).interpolate(T.ones(1, 1, 3, 3), scale_factor=0.2, mode="bilinear"), RuntimeError,
     "Input and output sizes should be greater than 0, but got input (H: 3, W: 3) output (H: 0, W: 0)"),
]


@pytest.mark.parametrize("i", range(len(INTERP_ERRORS)))
def test_interpolate_errors(torch, i):
    fn, exc, msg = INTERP_ERRORS[i]
    with pytest.raises(exc, match=exact(msg)):
        fn(torch)


def test_interpolate_modes_not_built_say_so():
    with pytest.raises(NotImplementedError, match="antialias"):
        F(ft).interpolate(ft.ones(1, 1, 3, 3), size=4, mode="bilinear", antialias=True)


# ----------------------------------------------------------------------------------- unfold / fold

FOLD = {
    "unfold": (lambda T, x: F(T).unfold(x, (2, 3), dilation=(2, 1), padding=(1, 0), stride=(1, 2)), [R(2, 3, 5, 6)]),
    "unfold_unbatched": (lambda T, x: F(T).unfold(x, 2), [R(3, 4, 4)]),
    "fold": (lambda T, x: F(T).fold(x, (5, 6), 2), [R(2, 12, 20)]),
    "fold_geometry": (lambda T, x: F(T).fold(x, (6, 5), (2, 3), dilation=(2, 1), padding=1, stride=(2, 1)),
                      [R(2, 12, 15)]),
    "fold_unbatched": (lambda T, x: F(T).fold(x, 4, 3, padding=1), [R(9, 16)]),
    "fold_of_unfold": (lambda T, x: F(T).fold(F(T).unfold(x, 3, padding=1, stride=2), (5, 5), 3, padding=1, stride=2),
                       [R(1, 2, 5, 5)]),
}


@pytest.mark.parametrize("name", sorted(FOLD))
def test_unfold_and_fold_match_torch(name, real_torch):
    fn, arrays = FOLD[name]
    compare(real_torch, fn, arrays)
    compare(real_torch, lambda T, *args: fn(T, *args) ** 3, arrays, create_graph=True)


@pytest.mark.parametrize("make, shape", [
    (lambda T: T.nn.Unfold(3, padding=1), (2, 2, 4, 4)),
    (lambda T: T.nn.Fold((4, 5), 2), (2, 8, 12)),
    (lambda T: T.nn.Fold(4, 2, stride=2), (2, 4, 4)),
])
def test_unfold_and_fold_modules(real_torch, make, shape):
    compare_module(real_torch, make, R(*shape))
    assert repr(make(real_torch)) == repr(make(ft))


@pytest.mark.parametrize("expr, name", [("F.unfold(x, 2)", "Im2ColBackward0"),
                                        ("F.fold(c, (3, 3), 2)", "Col2ImBackward0")])
def test_unfold_and_fold_node_names(torch, expr, name):
    env = {"F": torch.nn.functional, "x": torch.ones(1, 2, 3, 3, requires_grad=True),
           "c": torch.ones(1, 8, 4, requires_grad=True)}
    assert eval(expr, env).grad_fn.name() == name


FOLD_ERRORS = [
    (lambda T: F(T).unfold(T.ones(2, 3, 5, 6), (2, 2, 2)), "It is expected kernel_size equals to 2, but got size 3"),
    (lambda T: F(T).unfold(T.ones(2, 3, 5, 6), 7), "Given input with spatial size (5, 6), kernel_size=(7, 7), "
                                                   "dilation=(1, 1), padding=(0, 0), calculated shape of the array of "
                                                   "sliding blocks as (-1, 0), but its components must be at least "
                                                   "one."),
    (lambda T: F(T).unfold(T.ones(2, 3, 5, 6), 0), "kernel size should be greater than zero, but got kernel_height: 0 "
                                                   "kernel_width: 0"),
    (lambda T: F(T).unfold(T.ones(2, 3, 4, 4), 2, stride=0, dilation=0, padding=-1),
     "dilation should be greater than zero, but got dilation_height: 0 dilation_width: 0"),
    (lambda T: F(T).unfold(T.ones(2, 3, 4, 4), 2, stride=0, padding=-1),
     "padding should be non-negative, but got pad_height: -1 pad_width: -1"),
    (lambda T: F(T).unfold(T.ones(2, 3, 4, 4), 2, stride=0), "stride should be greater than zero, but got "
                                                             "stride_height: 0 stride_width: 0"),
    (lambda T: F(T).unfold(T.ones(1, 2, 3, 3, 3), 2), "Expected 3D or 4D (batch mode) tensor with possibly 0 batch "
                                                      "size and other non-zero dimensions for input, but got: [1, 2, "
                                                      "3, 3, 3]"),
    (lambda T: F(T).fold(T.ones(2, 12, 20), (5, 6), 3), "Expected size of input's dimension 1 to be divisible by the "
                                                        "product of kernel_size, but got input.size(1)=12 and "
                                                        "kernel_size=(3, 3)."),
    (lambda T: F(T).fold(T.ones(2, 12, 20), (5, 7), 2), "Given output_size=(5, 7), kernel_size=(2, 2), "
                                                        "dilation=(1, 1), padding=(0, 0), stride=(1, 1), expected size "
                                                        "of input's dimension 2 to match the calculated number of "
                                                        "sliding blocks 4 * 6 = 24, but got input.size(2)=20."),
    (lambda T: F(T).fold(T.ones(2, 12, 20), (5, 6, 1), 2), "It is expected output_size equals to 2, but got size 3"),
    (lambda T: F(T).fold(T.ones(20), (5, 6), 2), "Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                                                 "batch size and non-zero dimensions for input, but got: [20]"),
    (lambda T: F(T).fold(T.ones(2, 12, 20), (5, 6), 2, padding=(1, 2, 3)), "It is expected padding equals to 2, but "
                                                                           "got size 3"),
]


@pytest.mark.parametrize("i", range(len(FOLD_ERRORS)))
def test_unfold_and_fold_errors(torch, i):
    fn, msg = FOLD_ERRORS[i]
    with pytest.raises(RuntimeError, match=exact(msg)):
        fn(torch)


# ---------------------------------------------------------------------------------- EmbeddingBag

def _bag(T, w, idx, offsets=None, psw=None, **kw):
    return F(T).embedding_bag(T.tensor(idx), w, None if offsets is None else T.tensor(offsets),
                              per_sample_weights=psw, **kw)


IDX = np.array([1, 2, 4, 5, 4, 3, 2, 9, 0, 2])
BAGS = {
    "mean": (lambda T, w: _bag(T, w, IDX, [0, 4, 7]), [R(10, 3)]),
    "sum_2d": (lambda T, w: _bag(T, w, IDX.reshape(2, 5), mode="sum"), [R(10, 3)]),
    "max": (lambda T, w: _bag(T, w, IDX, [0, 3, 3, 9], mode="max"), [R(10, 3)]),
    "mean_empty_bag_padding_idx": (lambda T, w: _bag(T, w, IDX, [0, 4, 4, 8], padding_idx=2), [R(10, 3)]),
    "max_padding_idx_only": (lambda T, w: _bag(T, w, IDX, [0, 1, 2], mode="max", padding_idx=2), [R(10, 3)]),
    "sum_per_sample_weights": (lambda T, w, p: _bag(T, w, IDX, [0, 5], p, mode="sum"), [R(10, 3), R(10)]),
    "sum_include_last_offset": (lambda T, w: _bag(T, w, IDX, [0, 2, 6, 8], mode="sum", include_last_offset=True),
                                [R(10, 3)]),
    "mean_negative_padding_idx": (lambda T, w: _bag(T, w, IDX.reshape(5, 2), padding_idx=-8), [R(10, 3)]),
}


@pytest.mark.parametrize("name", sorted(BAGS))
def test_embedding_bag_matches_torch(name, real_torch):
    fn, arrays = BAGS[name]
    compare(real_torch, fn, arrays)


@pytest.mark.parametrize("kw, shape", [
    (dict(mode="sum"), (2, 4)), (dict(mode="max", padding_idx=3), (3, 3)),
    (dict(max_norm=1.0, norm_type=1.5), (2, 4)), (dict(mode="mean", include_last_offset=True), (7,)),
])
def test_embedding_bag_module_matches_torch(real_torch, kw, shape):
    idx = np.array([1, 3, 0, 5, 3, 2, 1, 4, 5, 0, 1, 2])[:int(np.prod(shape))].reshape(shape)
    offsets = [0, 3, 5] if len(shape) == 1 else None
    outs = []
    for T in (real_torch, ft):
        m = T.nn.EmbeddingBag(6, 3, **kw).double()
        with T.no_grad():
            m.weight.copy_(T.tensor(np.linspace(-2, 2, 18).reshape(6, 3)))
        out = m(T.tensor(idx), None if offsets is None else T.tensor(offsets))
        out.backward(T.tensor(np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape))))
        outs.append((out.detach().numpy(), m.weight.grad.numpy(), m.weight.detach().numpy(), repr(m)))
    for a, b in zip(*outs):
        if isinstance(a, str):
            assert a == b
        else:
            np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-7)


BAG_ERRORS = [
    (lambda T: F(T).embedding_bag(T.tensor([[1, 2]]), T.ones(4, 2), [0]), ValueError,
     "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length sequences. "
     "However, found offsets of type <class 'list'>"),
    (lambda T: F(T).embedding_bag(T.tensor([1, 2]), T.ones(4, 2)), ValueError,
     "offsets has to be a 1D Tensor but got None"),
    (lambda T: F(T).embedding_bag(T.tensor([1, 2]), T.ones(4, 2), T.tensor([[0]])), ValueError,
     "offsets has to be a 1D Tensor"),
    (lambda T: F(T).embedding_bag(T.tensor([[[1, 2]]]), T.ones(4, 2)), ValueError,
     "input has to be 1D or 2D Tensor, but got Tensor of dimension 3"),
    (lambda T: F(T).embedding_bag(T.tensor([1, 2]), T.ones(4, 2), T.tensor([0]), mode="foo"), ValueError,
     "mode has to be one of sum, mean or max"),
    (lambda T: F(T).embedding_bag(T.tensor([1, 2]), T.ones(4, 2), T.tensor([0]), per_sample_weights=T.ones(2)),
     NotImplementedError, "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
                          "mode='sum' (got mode='mean'). Please open a feature request on GitHub."),
    (lambda T: F(T).embedding_bag(T.tensor([1, 2]), T.ones(4, 2), T.tensor([0]), per_sample_weights=T.ones(3)),
     ValueError, "embedding_bag: If per_sample_weights (torch.Size([3])) is not None, then it must have the same "
                 "shape as the input (torch.Size([2]))"),
    (lambda T: F(T).embedding_bag(T.tensor([1, 2]), T.ones(4, 2, 1), T.tensor([0])), ValueError,
     "weight has to be a 2D Tensor, but got Tensor of dimension 3"),
    (lambda T: F(T).embedding_bag(T.tensor([1, 2]), T.ones(4, 2), T.tensor([0]), mode="max",
                                  scale_grad_by_freq=True), ValueError,
     "max mode does not support scaling the gradient by the frequency"),
    (lambda T: F(T).embedding_bag(T.tensor([1.0, 2.0]), T.ones(4, 2), T.tensor([0])), RuntimeError,
     "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got "
     "torch.FloatTensor instead (while checking arguments for embedding_bag)"),
    (lambda T: F(T).embedding_bag(T.tensor([1, 2]), T.ones(4, 2), T.tensor([0]), padding_idx=4), RuntimeError,
     "padding_idx must be within the number of embeddings, -4 through 3, but got 4"),
    (lambda T: F(T).embedding_bag(T.tensor([1, 2]), T.ones(4, 2), T.tensor([0, 3])), RuntimeError,
     "offsets[-1] can not be greater than input's length 2 but got offsets[-1] of 3"),
    (lambda T: T.nn.EmbeddingBag(4, 2, padding_idx=4), AssertionError, "padding_idx must be within num_embeddings"),
]


@pytest.mark.parametrize("i", range(len(BAG_ERRORS)))
def test_embedding_bag_errors(torch, i):
    fn, exc, msg = BAG_ERRORS[i]
    with pytest.raises(exc, match=exact(msg)):
        fn(torch)


def test_embedding_bag_options_not_built_say_so():
    for kw in (dict(sparse=True), dict(scale_grad_by_freq=True)):
        with pytest.raises(NotImplementedError, match=next(iter(kw))):
            F(ft).embedding_bag(ft.tensor([1, 2]), ft.ones(4, 2), ft.tensor([0]), **kw)


# ------------------------------------------------------------------------------------- float32

FLOAT32 = [
    (lambda T, x, w: F(T).conv1d(x, w, padding="same"), [(2, 3, 7), (4, 3, 3)]),
    (lambda T, x, w: F(T).conv_transpose2d(x, w, stride=2, output_padding=1), [(1, 3, 4, 4), (3, 2, 3, 3)]),
    (lambda T, x, w: F(T).conv3d(x, w, groups=3), [(1, 3, 3, 4, 3), (3, 1, 2, 2, 2)]),
    (lambda T, x: F(T).max_pool3d(x, 2, ceil_mode=True), [(1, 2, 3, 5, 4)]),
    (lambda T, x: F(T).avg_pool1d(x, 3, padding=1, count_include_pad=False), [(2, 3, 7)]),
    (lambda T, x: F(T).adaptive_max_pool2d(x, (2, 3)), [(1, 2, 5, 7)]),
    (lambda T, x: F(T).pad(x, (1, 2, 2, 1), mode="reflect"), [(1, 2, 4, 4)]),
    (lambda T, x: F(T).group_norm(x, 2), [(2, 4, 3)]),
    (lambda T, x: F(T).instance_norm(x), [(2, 3, 5)]),
    (lambda T, x: F(T).local_response_norm(x, 3), [(2, 4, 3)]),
    (lambda T, x: F(T).fold(x, (4, 4), 2), [(1, 8, 9)]),
    (lambda T, x: F(T).interpolate(x, scale_factor=1.5, mode="linear", align_corners=True), [(1, 2, 5)]),
]


@pytest.mark.parametrize("i", range(len(FLOAT32)))
def test_float32_results_and_gradients_keep_the_dtype(real_torch, i):
    fn, shapes = FLOAT32[i]
    arrays = [R(*s).astype(np.float32) for s in shapes]
    results = []
    for T in (ft, real_torch):
        ts = [T.tensor(a, requires_grad=True) for a in arrays]
        out = fn(T, *ts)
        out.backward(T.ones_like(out))
        results.append([out.detach().numpy()] + [t.grad.numpy() for t in ts])
    for a, b in zip(*results):
        assert a.dtype == b.dtype == np.float32 and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-5)


def test_convolution_refuses_non_integer_geometry(torch):
    for kw in (dict(padding=1.5), dict(stride=(1.5,)), dict(dilation=True)):
        with pytest.raises(TypeError):
            torch.nn.functional.conv1d(torch.ones(1, 2, 5), torch.ones(2, 2, 3), **kw)


@pytest.mark.parametrize("name, kw", [("upsample", {}), ("upsample_nearest", {}), ("upsample_bilinear", {})])
def test_deprecated_upsample_names_warn_and_interpolate(real_torch, name, kw):
    x = R(1, 2, 3, 3)
    outs = []
    for T in (ft, real_torch):
        with pytest.warns(UserWarning, match=exact(f"`nn.functional.{name}` is deprecated. Use "
                                                   "`nn.functional.interpolate` instead.")):
            outs.append(getattr(T.nn.functional, name)(T.tensor(x), scale_factor=2).numpy())
    np.testing.assert_allclose(outs[0], outs[1], rtol=1e-7, atol=1e-7)


# ------------------------------------------------- LP pooling, unpooling, ChannelShuffle, BatchNorm3d

EXTRA = {
    "lp_pool1d": (lambda T, x: F(T).lp_pool1d(x, 2, 3, stride=2), [np.abs(R(2, 3, 7)) + 0.1]),
    "lp_pool2d_ceil": (lambda T, x: F(T).lp_pool2d(x, 1.5, (2, 3), ceil_mode=True), [np.abs(R(1, 2, 5, 7)) + 0.1]),
    "lp_pool3d": (lambda T, x: F(T).lp_pool3d(x, 3, 2), [np.abs(R(1, 2, 4, 4, 2)) + 0.1]),
    "lp_pool2d_inf": (lambda T, x: F(T).lp_pool2d(x, float("inf"), 2), [R(1, 2, 4, 4)]),
    "max_unpool1d": (lambda T, x: F(T).max_unpool1d(*F(T).max_pool1d(x, 2, return_indices=True), 2), [R(2, 3, 8)]),
    "max_unpool2d": (lambda T, x: F(T).max_unpool2d(*F(T).max_pool2d(x, 2, stride=2, padding=1, return_indices=True),
                                                    2, stride=2, padding=1), [R(2, 3, 6, 6)]),
    "max_unpool2d_output_size": (lambda T, x: F(T).max_unpool2d(*F(T).max_pool2d(x, 2, return_indices=True), 2,
                                                                output_size=(5, 7)), [R(1, 2, 5, 7)]),
    "max_unpool3d": (lambda T, x: F(T).max_unpool3d(*F(T).max_pool3d(x, 2, return_indices=True), 2),
                     [R(1, 2, 4, 4, 2)]),
    "channel_shuffle": (lambda T, x: F(T).channel_shuffle(x, 3), [R(2, 6, 2, 3)]),
}


@pytest.mark.parametrize("name", sorted(EXTRA))
def test_lp_pool_unpool_and_shuffle_match_torch(name, real_torch):
    fn, arrays = EXTRA[name]
    compare(real_torch, fn, arrays)


EXTRA_MODULES = {
    "LPPool1d": (lambda T: T.nn.LPPool1d(2, 2), (2, 3, 6)),
    "LPPool2d": (lambda T: T.nn.LPPool2d(1.5, 3, stride=1), (1, 2, 4, 4)),
    "LPPool3d": (lambda T: T.nn.LPPool3d(2, (1, 2, 2)), (1, 2, 2, 4, 4)),
    "ChannelShuffle": (lambda T: T.nn.ChannelShuffle(2), (2, 4, 3)),
    "BatchNorm3d": (lambda T: T.nn.BatchNorm3d(2, momentum=0.3), (2, 2, 2, 3, 2)),
}


@pytest.mark.parametrize("name", sorted(EXTRA_MODULES))
def test_lp_pool_shuffle_and_batch_norm3d_modules(real_torch, name):
    make, shape = EXTRA_MODULES[name]
    x = np.abs(R(*shape)) + 0.1
    compare_module(real_torch, make, x)
    assert repr(make(real_torch)) == repr(make(ft))


def test_max_unpool_modules(real_torch):
    x = R(2, 3, 4, 6)
    outs = []
    for T in (real_torch, ft):
        pool, unpool = T.nn.MaxPool2d(2, return_indices=True), T.nn.MaxUnpool2d(2)
        xt = T.tensor(x, requires_grad=True)
        out = unpool(*pool(xt), output_size=xt.size())
        out.backward(T.tensor(x))
        outs.append((out.detach().numpy(), xt.grad.numpy(), repr(unpool)))
    np.testing.assert_allclose(outs[0][0], outs[1][0])
    np.testing.assert_allclose(outs[0][1], outs[1][1])
    assert outs[0][2] == outs[1][2]


EXTRA_ERRORS = [
    (lambda T: F(T).max_unpool2d(T.ones(2, 3, 2, 2), T.zeros(1, 3, 2, 2, dtype=T.int64), 2), RuntimeError,
     "Expected shape of indices to be same as that of the input tensor ([2, 3, 2, 2]) but got indices tensor with "
     "shape: [1, 3, 2, 2]"),
    (lambda T: F(T).max_unpool2d(T.ones(2, 3, 2, 2), T.zeros(2, 3, 2, 2, dtype=T.int32), 2), RuntimeError,
     "elements in indices should be type int64 but got: Int"),
    (lambda T: F(T).max_unpool2d(T.ones(1, 1, 2, 2), T.tensor([[[[0, 1], [34, 2]]]]), 2), RuntimeError,
     "Found an invalid max index: 34 (output volumes are of size 4x4)"),
    (lambda T: F(T).max_unpool2d(T.ones(1, 1, 2, 2), T.zeros(1, 1, 2, 2, dtype=T.int64), 2, output_size=(9, 9)),
     ValueError, 'invalid output_size "(9, 9)" (dim 0 must be between 2 and 6)'),
    (lambda T: F(T).max_unpool2d(T.ones(1, 1, 2, 2), T.zeros(1, 1, 2, 2, dtype=T.int64), 2, output_size=(1, 2, 3)),
     ValueError, "output_size should be a sequence containing 2 or 4 elements, but it has a length of '3'"),
    (lambda T: F(T).channel_shuffle(T.ones(2, 4), 2), RuntimeError,
     "channel_shuffle expects input with > 2 dims, but got input with sizes [2, 4]"),
    (lambda T: F(T).channel_shuffle(T.ones(2, 4, 3), 0), RuntimeError,
     "Number of groups to divide channels in must be positive. Value of groups:0"),
    (lambda T: F(T).channel_shuffle(T.ones(2, 4, 3), 3), RuntimeError,
     "Number of channels must be divisible by groups. Got 4 channels and 3 groups."),
    (lambda T: T.nn.BatchNorm3d(3)(T.ones(2, 3, 2, 2)), ValueError, "expected 5D input (got 4D input)"),
]


@pytest.mark.parametrize("i", range(len(EXTRA_ERRORS)))
def test_lp_pool_unpool_and_shuffle_errors(torch, i):
    fn, exc, msg = EXTRA_ERRORS[i]
    with pytest.raises(exc, match=exact(msg)):
        fn(torch)


@pytest.mark.parametrize("call, op", [
    (lambda T: T.nn.functional.interpolate(T.ones(1, 2, 5, dtype=T.int64), scale_factor=2),
     "compute_indices_weights_nearest"),
    (lambda T: T.nn.functional.interpolate(T.ones(1, 2, 5, dtype=T.int64), size=3, mode="linear"),
     "compute_indices_weights_linear"),
    (lambda T: T.nn.functional.group_norm(T.ones(1, 2, 5, dtype=T.int64), 1), "GroupNormKernelImpl"),
])
def test_integer_inputs_are_refused_where_pytorch_has_no_kernel(torch, call, op):
    with pytest.raises(RuntimeError, match=exact(f'"{op}" not implemented for \'Long\'')):
        call(torch)


@pytest.mark.parametrize("mode, shape, stem", [
    ("nearest", (1, 1, 3), "UpsampleNearest1D"), ("nearest", (1, 1, 3, 3), "UpsampleNearest2D"),
    ("nearest", (1, 1, 2, 2, 2), "UpsampleNearest3D"), ("nearest-exact", (1, 1, 3), "UpsampleNearestExact1D"),
    ("nearest-exact", (1, 1, 3, 3), "UpsampleNearestExact2D"),
    ("nearest-exact", (1, 1, 2, 2, 2), "UpsampleNearestExact3D"), ("linear", (1, 1, 3), "UpsampleLinear1D"),
    ("bilinear", (1, 1, 3, 3), "UpsampleBilinear2D"), ("trilinear", (1, 1, 2, 2, 2), "UpsampleTrilinear3D"),
    ("bicubic", (1, 1, 3, 3), "UpsampleBicubic2D"),
])
def test_interpolate_node_names(torch, mode, shape, stem):
    x = torch.ones(shape, dtype=torch.float64, requires_grad=True)
    y = torch.nn.functional.interpolate(x, scale_factor=2, mode=mode)
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert y.grad_fn.name() == f"{stem}Backward0"
    assert g.grad_fn.name() == f"{stem}BackwardBackward0"


@pytest.mark.parametrize("call, name", [
    (lambda F, x: F.pixel_shuffle(x, 2), "PixelShuffleBackward0"),
    (lambda F, x: F.pixel_unshuffle(x, 2), "PixelUnshuffleBackward0"),
    (lambda F, x: F.channel_shuffle(x, 2), "ChannelShuffleBackward0"),
])
def test_shuffle_node_names(torch, call, name):
    x = torch.ones(1, 4, 2, 2, requires_grad=True)
    assert call(torch.nn.functional, x).grad_fn.name() == name


def test_prelu_node_name(torch):
    x = torch.ones(2, 3, requires_grad=True)
    assert torch.nn.functional.prelu(x, torch.full((3,), 0.2)).grad_fn.name() == "PreluKernelBackward0"


def test_group_norm_node_name(torch):
    x = torch.ones(2, 4, 3, requires_grad=True)
    assert torch.nn.functional.group_norm(x, 2).grad_fn.name() == "NativeGroupNormBackward0"


@pytest.mark.parametrize("spatial, kw", [((5,), dict(padding=1)), ((5, 4), dict(padding=1, groups=2)),
                                         ((4, 5), dict(stride=2)), ((3, 4, 3), dict(padding=(1, 0, 1)))])
def test_convolution_results_are_contiguous_as_in_torch(real_torch, spatial, kw):
    """Outputs and gradients have PyTorch's (contiguous) strides, so `.view` works on them."""
    nd = len(spatial)
    conv = getattr(F(ft), f"conv{nd}d")
    x = ft.tensor(R(2, 4, *spatial), requires_grad=True)
    w = ft.tensor(R(6, 4 // kw.get("groups", 1), *(3,) * nd), requires_grad=True)
    out = conv(x, w, **kw)
    want = getattr(F(real_torch), f"conv{nd}d")(real_torch.tensor(x.detach().numpy()),
                                                  real_torch.tensor(w.detach().numpy()), **kw)
    assert out.is_contiguous() and out.stride() == want.stride()
    out.view(2, -1).sum().backward()
    assert x.grad.is_contiguous() and w.grad.is_contiguous()
