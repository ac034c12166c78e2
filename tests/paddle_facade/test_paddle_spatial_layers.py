"""paddle.nn's convolution, normalisation, pooling and interpolation layers against real paddle:
outputs, input and parameter gradients, parameter shapes and names, running statistics, reprs."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

# paddle's BatchNorm warns at every training forward; checked once below, kept out of the output elsewhere
TRAINING_NOTE = "When training, we now always track global mean and variance."
pytestmark = pytest.mark.filterwarnings(f"ignore:{TRAINING_NOTE}:UserWarning")

RNG = np.random.default_rng(0)
X1 = RNG.standard_normal((2, 4, 7)).astype(np.float32)
X2 = RNG.standard_normal((2, 4, 6, 5)).astype(np.float32)
X1L, X2L = X1.transpose(0, 2, 1).copy(), X2.transpose(0, 2, 3, 1).copy()  # channels-last: NLC, NHWC
X3L = RNG.standard_normal((2, 3, 4, 3, 4)).astype(np.float32)  # NDHWC

LAYERS = {
    "conv1d": (lambda nn: nn.Conv1D(4, 6, 3, stride=2, padding=1), X1),
    "conv1d_groups": (lambda nn: nn.Conv1D(4, 6, 3, groups=2, dilation=2), X1),
    "conv2d_transpose": (lambda nn: nn.Conv2DTranspose(4, 6, 3, stride=2, padding=1, output_padding=1), X2),
    "conv2d_transpose_groups": (lambda nn: nn.Conv2DTranspose(4, 6, (2, 3), groups=2), X2),
    "batch_norm1d": (lambda nn: nn.BatchNorm1D(4), X1),
    "batch_norm2d": (lambda nn: nn.BatchNorm2D(4, momentum=0.8, epsilon=1e-3), X2),
    "group_norm": (lambda nn: nn.GroupNorm(2, 4), X2),
    "max_pool2d": (lambda nn: nn.MaxPool2D(3, 2, 1, ceil_mode=True), X2),
    "max_pool2d_plain": (lambda nn: nn.MaxPool2D(2), X2),
    "avg_pool2d": (lambda nn: nn.AvgPool2D(3, 2, 1), X2),
    "avg_pool2d_inclusive": (lambda nn: nn.AvgPool2D(3, 2, 1, exclusive=False), X2),
    "adaptive_avg_pool2d": (lambda nn: nn.AdaptiveAvgPool2D((4, 3)), X2),
    "conv2d": (lambda nn: nn.Conv2D(4, 6, 3, stride=2, padding=1, dilation=1), X2),
    "conv1d_nlc": (lambda nn: nn.Conv1D(4, 6, 3, stride=2, padding=1, data_format="NLC"), X1L),
    "conv1d_circular": (lambda nn: nn.Conv1D(4, 6, 3, padding=2, padding_mode="circular"), X1),
    "conv1d_reflect_nlc": (lambda nn: nn.Conv1D(4, 6, 3, padding=1, padding_mode="reflect", data_format="NLC"), X1L),
    "conv2d_nhwc": (lambda nn: nn.Conv2D(4, 6, 3, padding=1, data_format="NHWC"), X2L),
    "conv2d_reflect": (lambda nn: nn.Conv2D(4, 6, 3, padding=1, padding_mode="reflect"), X2),
    "conv2d_replicate_nhwc": (lambda nn: nn.Conv2D(4, 6, 3, stride=2, padding=2, padding_mode="replicate",
                                                   data_format="NHWC"), X2L),
    "conv2d_circular": (lambda nn: nn.Conv2D(4, 6, (2, 3), padding=1, padding_mode="circular", groups=2), X2),
    "conv2d_transpose_nhwc": (lambda nn: nn.Conv2DTranspose(4, 6, 3, stride=2, data_format="NHWC"), X2L),
    "batch_norm1d_nlc": (lambda nn: nn.BatchNorm1D(4, data_format="NLC"), X1L),
    "batch_norm2d_nhwc": (lambda nn: nn.BatchNorm2D(4, momentum=0.8, data_format="NHWC"), X2L),
    "batch_norm3d_ndhwc": (lambda nn: nn.BatchNorm3D(4, data_format="NDHWC"), X3L),
    "max_pool2d_nhwc": (lambda nn: nn.MaxPool2D(3, 2, 1, data_format="NHWC"), X2L),
    "avg_pool2d_nhwc": (lambda nn: nn.AvgPool2D(2, data_format="NHWC"), X2L),
    "adaptive_avg_pool2d_nhwc": (lambda nn: nn.AdaptiveAvgPool2D((4, 3), data_format="NHWC"), X2L),
    "group_norm_nhwc": (lambda nn: nn.GroupNorm(2, 4, data_format="NHWC"), X2L),
    "group_norm_nlc": (lambda nn: nn.GroupNorm(2, 4, data_format="NLC"), X1L),
    "max_pool1d": (lambda nn: nn.MaxPool1D(3, 2, 1, ceil_mode=True), X1),
    "avg_pool1d": (lambda nn: nn.AvgPool1D(3, 2, 1), X1),
    "avg_pool1d_inclusive": (lambda nn: nn.AvgPool1D(2, exclusive=False, padding=1), X1),
    "max_pool3d": (lambda nn: nn.MaxPool3D(2, 1), X3L),
    "max_pool3d_ndhwc": (lambda nn: nn.MaxPool3D(2, 2, 1, data_format="NDHWC"), X3L),
    "avg_pool3d_ndhwc": (lambda nn: nn.AvgPool3D(2, 1, data_format="NDHWC"), X3L),
    "avg_pool3d_divisor": (lambda nn: nn.AvgPool3D(2, divisor_override=3), X3L),
    "adaptive_avg_pool1d": (lambda nn: nn.AdaptiveAvgPool1D(3), X1),
    "adaptive_avg_pool3d_ndhwc": (lambda nn: nn.AdaptiveAvgPool3D((2, 3, 1), data_format="NDHWC"), X3L),
    "adaptive_max_pool1d": (lambda nn: nn.AdaptiveMaxPool1D(4), X1),
    "adaptive_max_pool2d": (lambda nn: nn.AdaptiveMaxPool2D((4, 2)), X2),
}


def _run(paddle, name):
    make, x = LAYERS[name]
    paddle.seed(1)
    layer = make(paddle.nn)
    for i, p in enumerate(layer.parameters()):
        if not p.stop_gradient:
            p.set_value(np.linspace(-1, 1, int(np.prod(p.shape)), dtype=np.float32).reshape(p.shape) + 0.1 * i)
    xt = paddle.to_tensor(x, stop_gradient=False)
    y = layer(xt)
    (y * paddle.to_tensor(np.cos(np.arange(y.size, dtype=np.float32)).reshape(y.shape))).sum().backward()
    params = [(n, list(p.shape), str(p.dtype), p.stop_gradient, p.numpy(),
               None if p.grad is None else p.grad.numpy()) for n, p in layer.named_parameters()]
    layer.eval()
    return y.numpy(), str(y.dtype), xt.grad.numpy(), params, layer(xt).numpy(), repr(layer), list(layer.state_dict())


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_matches_real_paddle(fpaddle, real_paddle, name):
    got, want = _run(fpaddle, name), _run(real_paddle, name)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-5)
    assert got[1] == want[1]
    np.testing.assert_allclose(got[2], want[2], rtol=1e-5, atol=1e-5)
    assert [p[:4] for p in got[3]] == [p[:4] for p in want[3]]
    for g, w in zip(got[3], want[3]):
        np.testing.assert_allclose(g[4], w[4], rtol=1e-5, atol=1e-6)
        if w[5] is not None:
            np.testing.assert_allclose(g[5], w[5], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[4], want[4], rtol=1e-5, atol=1e-5)
    assert got[5:] == want[5:]


def test_batch_norm_warns_at_a_training_forward_as_paddle(paddle):
    bn = paddle.nn.BatchNorm2D(4)
    x = paddle.to_tensor(X2)
    with pytest.warns(UserWarning, match=re.escape(TRAINING_NOTE)):
        bn(x)
    bn.eval()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bn(x)


def test_batch_norm_checks_and_repr(paddle):
    bn = paddle.nn.BatchNorm1D(4)
    assert repr(bn) == "BatchNorm1D(num_features=4, momentum=0.9, epsilon=1e-05, data_format=NCL)"
    with pytest.raises(ValueError, match=re.escape("expected 2D or 3D input (got 4D input)")):
        bn(paddle.to_tensor(X2))
    with pytest.warns(UserWarning, match="When training, we now always track global mean and variance."):
        bn(paddle.to_tensor(X1))
    assert repr(bn) == "BatchNorm1D(num_features=4, momentum=0.9, epsilon=1e-05)"
    with pytest.raises(ValueError, match=re.escape("expected 4D input (got 3D input)")):
        paddle.nn.BatchNorm2D(4)(paddle.to_tensor(X1))


def test_parameter_names_and_default_inits(paddle):
    bn = paddle.nn.BatchNorm2D(3)
    assert [(n, p.name.split(".")[-1], p.stop_gradient) for n, p in bn.named_parameters()] == [
        ("weight", "w_0", False), ("bias", "b_0", False), ("_mean", "w_1", True), ("_variance", "w_2", True)]
    assert bn.weight.name.startswith("batch_norm2d_")
    assert bn._variance.tolist() == [1., 1., 1.] and bn._mean.tolist() == [0., 0., 0.]
    t = paddle.nn.Conv2DTranspose(4, 6, 3, groups=2)
    assert t.weight.name.startswith("conv2d_transpose_") and t.weight.shape == [4, 3, 3, 3]
    assert abs(t.weight.numpy()).max() <= np.sqrt(6 / (27 + 36)) and t.bias.tolist() == [0.] * 6
    c = paddle.nn.Conv1D(4, 6, 3)
    assert c.weight.name.startswith("conv1d_") and c.weight.shape == [6, 4, 3]
    assert paddle.nn.Conv2D(2, 3, 3).weight.name.startswith("conv2d_")


def test_use_global_stats_and_functional_batch_norm(fpaddle, real_paddle):
    def run(paddle):
        x = paddle.to_tensor(X2)
        bn = paddle.nn.BatchNorm2D(4, use_global_stats=True)
        out = bn(x)
        rm, rv = paddle.zeros([4]), paddle.ones([4])
        f = paddle.nn.functional.batch_norm(x, rm, rv, training=True, momentum=0.5)
        return out.numpy(), f.numpy(), rm.numpy(), rv.numpy()
    for g, w in zip(run(fpaddle), run(real_paddle)):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


INTERP = [
    dict(size=[9, 7], mode="nearest"),
    dict(scale_factor=2, mode="nearest"),
    dict(size=[9, 7], mode="bilinear"),
    dict(size=[9, 7], mode="bilinear", align_corners=True),
    dict(scale_factor=[1.5, 0.5], mode="bilinear"),
    dict(size=[3, 2], mode="area"),
    dict(size=[9, 3], mode="bicubic"),
    dict(scale_factor=[1.7, 0.6], mode="bicubic"),
    dict(size=[9, 7], mode="bicubic", align_corners=True),
    dict(size=[9, 7], mode="bilinear", align_mode=1),
    dict(scale_factor=1.5, mode="bilinear", align_mode=1),
    dict(size=[3, 4], mode="bilinear", align_mode=1),
    dict(size=[9, 7], mode="bilinear", data_format="NHWC"),
    dict(size=[8, 3], mode="bicubic", data_format="NHWC"),
    dict(size=[11], mode="linear", align_mode=1),
    dict(size=[9], mode="linear", align_mode=1, data_format="NWC"),
    dict(size=[4, 3, 7], mode="trilinear", align_mode=1),
]


@pytest.mark.parametrize("kwargs", INTERP, ids=[str(k) for k in INTERP])
def test_interpolate(fpaddle, real_paddle, kwargs):
    def run(paddle):
        data = {1: X1, 2: X2, 3: X3L}[len(kwargs.get("size", [0, 0]))]
        data = data.transpose(0, 2, 1) if kwargs.get("data_format") == "NWC" else data
        data = data.transpose(0, 2, 3, 1) if kwargs.get("data_format") == "NHWC" else data
        x = paddle.to_tensor(np.ascontiguousarray(data), stop_gradient=False)
        y = paddle.nn.functional.interpolate(x, **kwargs)
        (y * y).sum().backward()
        return y.numpy(), x.grad.numpy()
    for g, w in zip(run(fpaddle), run(real_paddle)):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def test_interpolate_linear_1d(fpaddle, real_paddle):
    def run(paddle):
        return paddle.nn.functional.interpolate(paddle.to_tensor(X1), size=[11], mode="linear",
                                                data_format="NCW").numpy()
    np.testing.assert_allclose(run(fpaddle), run(real_paddle), rtol=1e-5, atol=1e-6)


INTERP_ERRORS = [
    (dict(size=[4, 4], mode="cubic"), ValueError, "The 'resample' of image_resize can only be 'area', 'linear', "
                                                  "'bilinear', 'trilinear',  'bicubic' or 'nearest' currently."),
    (dict(size=[4], mode="linear"), ValueError, "'linear' only support 3-D tensor."),
    (dict(mode="nearest"), ValueError, "One of size and scale_factor must not be None."),
    (dict(size=[4, 4, 4], mode="nearest"), ValueError, "The x and size should satisfy rank(x) - 2 == len(size)."),
    (dict(size=[4, 4], mode="nearest", align_corners=True), ValueError,
     "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear"),
    (dict(size=[4, 4], mode="bilinear", align_mode=2), ValueError, "align_mode can only be 0 or 1"),
    (dict(size=[4, 4], mode="bilinear", align_corners=1), TypeError, "Attr align_corners should be a bool value"),
    (dict(scale_factor=2, mode="area"), ValueError, "output size can not be None in AREA mode"),
    (dict(size=[4, 4], mode="bilinear", data_format="NCW"), ValueError,
     "Got wrong value for param `data_format`: NCW received but only `NCHW` or `NHWC` supported for 4-D input."),
]


@pytest.mark.parametrize("kwargs, exc, text", INTERP_ERRORS)
def test_interpolate_errors(paddle, kwargs, exc, text):
    with pytest.raises(exc, match="^" + re.escape(text) + "$"):
        paddle.nn.functional.interpolate(paddle.to_tensor(X2), **kwargs)


def test_pool_masks_match_real_paddle(fpaddle, real_paddle):
    def run(paddle):
        x = paddle.to_tensor(X2)
        outs = [paddle.nn.MaxPool1D(2, return_mask=True)(paddle.to_tensor(X1)),
                paddle.nn.AdaptiveMaxPool2D(3, return_mask=True)(x), paddle.nn.AdaptiveMaxPool1D(3, return_mask=True)(
                    paddle.to_tensor(X1)), paddle.nn.functional.max_pool3d(paddle.to_tensor(X3L), 2, return_mask=True)]
        return [t.numpy() for pair in outs for t in pair] + [repr(paddle.nn.AdaptiveMaxPool1D(3, return_mask=True))]
    for g, w in zip(run(fpaddle), run(real_paddle)):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("call, message", [
    (lambda p: p.nn.functional.group_norm(p.ones([1, 2, 3]), 1, data_format="X"), "unsupported data layout:X"),
    (lambda p: p.nn.MaxPool3D(2, data_format="NCHW")(p.ones([1, 2, 4, 4, 4])),
     "Attr(data_format) should be 'NCDHW' or 'NDHWC'. Received Attr(data_format): NCHW"),
    (lambda p: p.nn.functional.max_pool3d(p.ones([1, 4, 4, 4, 2]), 2, return_mask=True, data_format="NDHWC"),
     "When setting return_mask to true, data_format must be set to NCDHW in API:max_pool3d"),
    (lambda p: p.nn.AdaptiveAvgPool3D(2, data_format="NCHW")(p.ones([1, 2, 4, 4, 4])),
     "Attr(data_format) should be 'NCDHW' or 'NDHWC'. Received Attr(data_format): NCHW."),
])
def test_pool_and_group_norm_layout_errors(paddle, call, message):
    with pytest.raises(ValueError) as info:
        call(paddle)
    assert str(info.value) == message


@pytest.mark.parametrize("shape, pad, mode, data_format", [
    ((1, 2, 3, 4), [1, 0, 2, 1], "constant", "NCHW"),
    ((1, 3, 3, 4), [1, 0, 2, 1], "reflect", "NHWC"),
    ((1, 2, 3, 4), [1, 0, 0, 2, 1, 1, 0, 1], "constant", "NCHW"),
    ((1, 2, 3, 4), [1, 2], "constant", "NHWC"),
    ((1, 2, 3), [2, 1], "replicate", "NLC"),
    ((1, 2, 3, 4, 5), [1, 0, 0, 1, 1, 1], "circular", "NDHWC"),
])
def test_pad_layouts(fpaddle, real_paddle, shape, pad, mode, data_format):
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    got, want = (m.nn.functional.pad(m.to_tensor(x), pad, mode=mode, value=-1.0, data_format=data_format).numpy()
                 for m in (fpaddle, real_paddle))
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape, pad", [
    ((2, 3, 4, 5), [1, 2]), ((2, 3, 4, 5), [1, 0, 2, 0, 3, 0]), ((2, 3, 4, 5), [1, 0, 0, 2, 1, 1, 0, 1]),
    ((2, 3, 4), [1, 2]), ((2, 3, 4), [1, 2, 3, 4]), ((2, 3, 4), [1, 0, 2, 0, 3, 0]), ((3, 4), [1, 2]),
    ((3, 4), [1, 2, 3, 4]),
])
def test_pad_reads_a_full_list_from_the_first_dimension_a_shorter_one_from_the_last(fpaddle, real_paddle, shape, pad):
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    got, want = (m.nn.functional.pad(m.to_tensor(x), pad, value=-1.0).numpy() for m in (fpaddle, real_paddle))
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("call, error, message", [
    (lambda p: p.nn.functional.conv1d(p.ones([1, 2, 5]), p.ones([3, 2, 3]), data_format="NCHW"), ValueError,
     "Attr(data_format) should be 'NCL' or 'NLC'. Received Attr(data_format): NCHW."),
    (lambda p: p.nn.Conv1D(2, 3, 3, data_format="NHWC")(p.ones([1, 2, 5])), ValueError,
     "Attr(data_format) should be 'NCL' or 'NLC'. Received Attr(data_format): NHWC."),
    (lambda p: p.nn.functional.conv2d(p.ones([1, 2, 5, 5]), p.ones([3, 2, 3, 3]), data_format="NCL"), ValueError,
     "Attr(data_format) should be 'NCHW' or 'NHWC'. Received Attr(data_format): NCL."),
    (lambda p: p.nn.Conv2D(2, 3, 3, data_format="XYZ"), ValueError, "data_format must be one of {"),
    (lambda p: p.nn.Conv2D(2, 3, 3, padding_mode="zero"), ValueError, "padding_mode must be one of {"),
    (lambda p: p.nn.Conv2D(2, 3, 3, padding=[1, 1], padding_mode="reflect"), TypeError,
     "when padding_mode in ['reflect', 'replicate', 'circular'], type of padding must be int"),
    (lambda p: p.nn.functional.conv2d_transpose(p.ones([1, 2, 5, 5]), p.ones([2, 3, 3, 3]), data_format="NCL"),
     ValueError, "Attr(data_format) of conv2d_transpose got wrong value: received NCL, but only 'NCHW' or 'NHWC' are "
                 "supported."),
    (lambda p: p.nn.BatchNorm2D(2, data_format="NLC")(p.ones([1, 2, 3, 3])), ValueError,
     "expected NCHW or NHWC for data_format input"),
    (lambda p: p.nn.BatchNorm1D(2, data_format="NCHW")(p.ones([1, 2, 3, 3])), ValueError,
     "expected 2D or 3D input (got 4D input)"),
    (lambda p: p.nn.BatchNorm1D(2, data_format="NDHWC")(p.ones([1, 2, 3])), ValueError,
     "expected NC , NCL, NLC or None for data_format input"),
    (lambda p: p.nn.BatchNorm3D(2, data_format="NLC")(p.ones([1, 2, 3, 3, 3])), ValueError,
     "expected NCDHW, NDHWC or None for data_format input"),
    (lambda p: p.nn.functional.batch_norm(p.ones([1, 2, 3]), p.zeros([2]), p.ones([2]), data_format="NWC"),
     ValueError, "data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', 'NLC', 'NHWC', 'NDHWC' but receive NWC"),
    (lambda p: p.nn.MaxPool2D(2, data_format="NLC")(p.ones([1, 2, 4, 4])), ValueError,
     "Attr(data_format) should be 'NCHW' or 'NHWC'. Received Attr(data_format): NLC."),
    (lambda p: p.nn.functional.max_pool2d(p.ones([1, 4, 4, 2]), 2, return_mask=True, data_format="NHWC"), ValueError,
     "When setting return_mask to true, data_format must be set to NCHW in API:max_pool2d"),
    (lambda p: p.nn.functional.avg_pool2d(p.ones([1, 2, 4, 4]), 2, data_format="NCL"), ValueError,
     "Attr(data_format) should be 'NCHW' or 'NHWC'. Received Attr(data_format): NCL"),
    (lambda p: p.nn.AdaptiveAvgPool2D(2, data_format="X")(p.ones([1, 2, 4, 4])), ValueError,
     "Attr(data_format) should be 'NCHW' or 'NHWC'. Received Attr(data_format): X."),
])
def test_layout_errors(paddle, call, error, message):
    with pytest.raises(error) as info:
        call(paddle)
    assert str(info.value).startswith(message)


def test_channels_last_reprs(paddle):
    assert repr(paddle.nn.Conv2D(4, 6, 3, stride=2, padding=1, padding_mode="reflect", data_format="NHWC")) == (
        "Conv2D(4, 6, kernel_size=[3, 3], stride=[2, 2], padding=1, padding_mode=reflect, data_format=NHWC)")
    bn = paddle.nn.BatchNorm1D(4, data_format="NLC")
    bn.eval()
    bn(paddle.ones([2, 3, 4]))
    assert repr(bn) == "BatchNorm1D(num_features=4, momentum=0.9, epsilon=1e-05, data_format=NHWC)"


@pytest.mark.parametrize("output_size, stride, padding, data_format", [
    ([11, 12], 2, 0, "NCHW"), (12, 2, 0, "NCHW"), ([10, 9], 2, 1, "NCHW"), ([14, 15], 3, 1, "NHWC"),
])
def test_conv2d_transpose_output_size(fpaddle, real_paddle, output_size, stride, padding, data_format):
    x = X2[:, :, :5, :5] if data_format == "NCHW" else X2L[:, :5, :5, :]
    w = np.linspace(-1, 1, 4 * 3 * 9, dtype=np.float32).reshape(4, 3, 3, 3)
    results = []
    for m in (fpaddle, real_paddle):
        xt, wt = m.to_tensor(x, stop_gradient=False), m.to_tensor(w, stop_gradient=False)
        size = m.to_tensor(output_size) if isinstance(output_size, list) and m is fpaddle else output_size
        y = m.nn.functional.conv2d_transpose(xt, wt, stride=stride, padding=padding, output_size=size,
                                             data_format=data_format)
        (y * y).sum().backward()
        results.append((y.numpy(), xt.grad.numpy(), wt.grad.numpy()))
    for got, want in zip(*results):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_conv2d_transpose_layer_output_size(paddle):
    layer = paddle.nn.Conv2DTranspose(4, 3, 3, stride=2)
    assert layer(paddle.to_tensor(X2[:, :, :5, :5]), output_size=[12, 11]).shape == [2, 3, 12, 11]


@pytest.mark.parametrize("kwargs, message", [
    ({"output_size": [13, 13]}, "(InvalidArgument) output_size of Op(ConvTransposeOp) should be less than inferred "
                                "size + stride. But received output_size = [[13, 13]], whose dim 0 is not less than "
                                "the inferred output size (11) + stride (2) = 13\n  [Hint: Expected output_size[i] < "
                                "infer_shape + strides[i], but received output_size[i]:13 >= infer_shape + "
                                "strides[i]:13.] (at /paddle/paddle/phi/infermeta/binary.cc:886)\n"),
    ({"output_size": [11, 10]}, "(InvalidArgument) output_size of Op(ConvTransposeOp) should not be less than the "
                                "inferred output size. But received output_size = [[11, 10]], whose dim 1 is less than "
                                "the inferred output size [11]\n  [Hint: Expected output_size[i] >= infer_shape, but "
                                "received output_size[i]:10 < infer_shape:11.] (at "
                                "/paddle/paddle/phi/infermeta/binary.cc:875)\n"),
    ({"output_size": [11, 11], "output_padding": 1}, "output_padding option is mutually exclusive with output_size"),
    ({"output_size": [11, 11, 11]}, "The output_size's length must be 2. Received: [11, 11, 11]"),
])
def test_conv2d_transpose_output_size_errors(paddle, kwargs, message):
    with pytest.raises(ValueError) as info:
        paddle.nn.functional.conv2d_transpose(paddle.ones([1, 2, 5, 5]), paddle.ones([2, 3, 3, 3]), stride=2, **kwargs)
    assert str(info.value) == message
