"""Layers and nn.functional against real torch: forward values, first and second derivatives
(float64, 1e-7), plus the layer behaviours (defaults, init, modes, running statistics, errors)."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from nn_compare import compare

rng = np.random.default_rng(0)
pytestmark = pytest.mark.filterwarnings("ignore:Using padding=.same. with even kernel")


def R(*shape):
    return rng.standard_normal(shape)


def F(T):
    return T.nn.functional


CASES = {
    "conv2d": (lambda T, x, w, b: F(T).conv2d(x, w, b), [R(2, 3, 7, 6), R(4, 3, 3, 3), R(4)]),
    "conv2d_stride_pad": (lambda T, x, w, b: F(T).conv2d(x, w, b, stride=2, padding=1),
                          [R(2, 3, 7, 6), R(4, 3, 3, 3), R(4)]),
    "conv2d_mixed_geometry": (lambda T, x, w, b: F(T).conv2d(x, w, b, stride=(2, 1), padding=(2, 1), dilation=(2, 1)),
                              [R(2, 3, 9, 8), R(4, 3, 3, 2), R(4)]),
    "conv2d_groups": (lambda T, x, w, b: F(T).conv2d(x, w, b, groups=2, padding=1), [R(2, 4, 5, 5), R(6, 2, 3, 3), R(6)]),
    "conv2d_depthwise": (lambda T, x, w: F(T).conv2d(x, w, groups=4, padding=1), [R(2, 4, 5, 5), R(8, 1, 3, 3)]),
    "conv2d_same_even_kernel": (lambda T, x, w: F(T).conv2d(x, w, padding="same"), [R(2, 3, 6, 5), R(2, 3, 4, 2)]),
    "conv2d_valid": (lambda T, x, w: F(T).conv2d(x, w, padding="valid"), [R(1, 2, 5, 5), R(2, 2, 3, 3)]),
    "conv2d_unbatched": (lambda T, x, w: F(T).conv2d(x, w), [R(3, 6, 5), R(2, 3, 3, 3)]),
    "conv2d_stride_leaves_rows": (lambda T, x, w: F(T).conv2d(x, w, stride=3), [R(1, 2, 8, 7), R(2, 2, 3, 3)]),
    "conv2d_module_reflect": (lambda T, x: _conv_module(T, padding=1, padding_mode="reflect")(x), [R(2, 2, 5, 6)]),
    "conv2d_module_circular": (lambda T, x: _conv_module(T, padding=(1, 2), padding_mode="circular")(x),
                               [R(2, 2, 5, 6)]),
    "max_pool2d": (lambda T, x: F(T).max_pool2d(x, 2), [R(2, 3, 6, 5)]),
    "max_pool2d_overlap_pad": (lambda T, x: F(T).max_pool2d(x, 3, 2, 1), [R(2, 3, 7, 6)]),
    "max_pool2d_ceil": (lambda T, x: F(T).max_pool2d(x, 3, 2, 1, ceil_mode=True), [R(2, 3, 8, 6)]),
    "max_pool2d_dilation": (lambda T, x: F(T).max_pool2d(x, 2, 1, 0, dilation=2), [R(2, 3, 7, 6)]),
    "max_pool2d_unbatched": (lambda T, x: F(T).max_pool2d(x, 2), [R(3, 6, 4)]),
    "avg_pool2d": (lambda T, x: F(T).avg_pool2d(x, 2), [R(2, 3, 6, 5)]),
    "avg_pool2d_pad": (lambda T, x: F(T).avg_pool2d(x, 3, 2, 1), [R(2, 3, 7, 6)]),
    "avg_pool2d_pad_exclude": (lambda T, x: F(T).avg_pool2d(x, 3, 2, 1, count_include_pad=False), [R(2, 3, 7, 6)]),
    "avg_pool2d_ceil": (lambda T, x: F(T).avg_pool2d(x, 3, 2, 1, ceil_mode=True), [R(2, 3, 8, 6)]),
    "avg_pool2d_ceil_exclude": (lambda T, x: F(T).avg_pool2d(x, 2, 2, 0, ceil_mode=True, count_include_pad=False),
                                [R(2, 3, 7, 5)]),
    "avg_pool2d_divisor": (lambda T, x: F(T).avg_pool2d(x, 2, divisor_override=3), [R(2, 3, 6, 5)]),
    "adaptive_avg_pool2d": (lambda T, x: F(T).adaptive_avg_pool2d(x, (3, 2)), [R(2, 3, 7, 5)]),
    "adaptive_avg_pool2d_1": (lambda T, x: F(T).adaptive_avg_pool2d(x, 1), [R(2, 3, 7, 5)]),
    "pad_constant": (lambda T, x: F(T).pad(x, (1, 2, 0, 1), value=0.5), [R(2, 3, 4)]),
    "pad_negative": (lambda T, x: F(T).pad(x, (-1, 2)), [R(2, 3, 4)]),
    "pad_reflect": (lambda T, x: F(T).pad(x, (2, 1, 1, 2), mode="reflect"), [R(1, 2, 4, 5)]),
    "pad_replicate": (lambda T, x: F(T).pad(x, (2, 1, 1, 2), mode="replicate"), [R(1, 2, 4, 5)]),
    "pad_circular": (lambda T, x: F(T).pad(x, (2, 1, 1, 2), mode="circular"), [R(1, 2, 4, 5)]),
    "linear": (lambda T, x, w, b: F(T).linear(x, w, b), [R(4, 3), R(2, 3), R(2)]),
    "linear_batched": (lambda T, x, w, b: F(T).linear(x, w, b), [R(5, 4, 3), R(2, 3), R(2)]),
    "linear_vector_no_bias": (lambda T, x, w: F(T).linear(x, w), [R(3), R(2, 3)]),
    "bilinear": (lambda T, a, b, w, c: F(T).bilinear(a, b, w, c), [R(4, 2), R(4, 3), R(5, 2, 3), R(5)]),
    "gelu": (lambda T, x: F(T).gelu(x), [R(4, 3)]),
    "gelu_tanh": (lambda T, x: F(T).gelu(x, approximate="tanh"), [R(4, 3)]),
    "silu": (lambda T, x: F(T).silu(x), [R(4, 3)]),
    "elu": (lambda T, x: F(T).elu(x, 0.7), [R(4, 3)]),
    "leaky_relu": (lambda T, x: F(T).leaky_relu(x, 0.2), [R(4, 3)]),
    "softplus": (lambda T, x: F(T).softplus(x * 10, 2, 5), [R(4, 3)]),
    "mish": (lambda T, x: F(T).mish(x), [R(4, 3)]),
    "logsigmoid": (lambda T, x: F(T).logsigmoid(x * 5), [R(4, 3)]),
    "hardswish": (lambda T, x: F(T).hardswish(x * 3), [R(4, 3)]),
    "hardsigmoid": (lambda T, x: F(T).hardsigmoid(x * 3), [R(4, 3)]),
    "relu6": (lambda T, x: F(T).relu6(x * 5), [R(4, 3)]),
    "softsign": (lambda T, x: F(T).softsign(x), [R(4, 3)]),
    "softmax": (lambda T, x: F(T).softmax(x, dim=0), [R(4, 3)]),
    "log_softmax": (lambda T, x: F(T).log_softmax(x, -1), [R(4, 3)]),
    "softmin": (lambda T, x: F(T).softmin(x, 1), [R(4, 3)]),
    "layer_norm": (lambda T, x, w, b: F(T).layer_norm(x, (3,), w, b), [R(4, 3), R(3), R(3)]),
    "layer_norm_2d": (lambda T, x: F(T).layer_norm(x, (2, 3)), [R(4, 2, 3)]),
    "batch_norm_train": (lambda T, x, w, b: F(T).batch_norm(x, None, None, w, b, training=True),
                         [R(4, 3, 2, 2), R(3), R(3)]),
    "batch_norm_eval": (lambda T, x, m, v: F(T).batch_norm(x, m.detach(), v.detach().abs(), training=False),
                        [R(4, 3, 2, 2), R(3), R(3)]),
    "normalize": (lambda T, x: F(T).normalize(x, dim=1), [R(4, 3)]),
    "cosine_similarity": (lambda T, x, y: F(T).cosine_similarity(x, y), [R(4, 3), R(4, 3)]),
    "embedding_padding": (lambda T, w, i: F(T).embedding(i, w, padding_idx=1), [R(5, 3), np.array([[0, 1, 1], [4, 1, 2]])]),
    "unfold": (lambda T, x: F(T).unfold(x, 2, padding=1, stride=2), [R(2, 3, 5, 4)]),
    "dropout_eval_is_identity": (lambda T, x: F(T).dropout(x, 0.5, training=False), [R(4, 3)]),
}


def _conv_module(T, **kw):
    m = T.nn.Conv2d(2, 3, 3, **kw).double()
    with T.no_grad():
        m.weight.copy_(T.tensor(np.linspace(-1, 1, 54).reshape(3, 2, 3, 3)))
        m.bias.copy_(T.tensor([0.1, -0.2, 0.3]))
    return m


@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_and_gradient_match_torch(name, real_torch):
    fn, arrays = CASES[name]
    compare(real_torch, fn, arrays)


@pytest.mark.parametrize("name", ["conv2d_stride_pad", "conv2d_groups", "conv2d_mixed_geometry", "max_pool2d_ceil",
                                  "avg_pool2d_ceil", "linear", "gelu", "gelu_tanh", "silu", "elu", "softplus",
                                  "leaky_relu", "layer_norm", "batch_norm_train", "embedding_padding", "pad_reflect",
                                  "adaptive_avg_pool2d", "bilinear", "unfold"])
def test_second_derivatives_match_torch(name, real_torch):
    fn, arrays = CASES[name]
    compare(real_torch, lambda T, *args: fn(T, *args) ** 3, arrays, create_graph=True)


def test_one_hot(torch):
    out = torch.nn.functional.one_hot(torch.tensor([0, 3, 1]), 4)
    assert out.dtype == torch.int64 and out.tolist() == [[1, 0, 0, 0], [0, 0, 0, 1], [0, 1, 0, 0]]
    assert torch.nn.functional.one_hot(torch.tensor([2, 0])).shape == torch.Size([2, 3])


# ------------------------------------------------------------------------ node names

@pytest.mark.parametrize("expr", [
    "F.linear(x, w, b)", "F.linear(x, w)", "F.conv2d(img, k)", "F.max_pool2d(img, 2)", "F.avg_pool2d(img, 2)",
    "F.pad(img, (1, 1))", "F.gelu(x)", "F.silu(x)", "F.leaky_relu(x)", "F.elu(x)", "F.softplus(x)",
    "F.mse_loss(x, x.detach() + 1)", "F.cross_entropy(x, t)", "F.nll_loss(x, t)",
    "F.binary_cross_entropy(x.sigmoid(), x.detach().sigmoid())",
    "F.binary_cross_entropy_with_logits(x, x.detach().sigmoid())", "F.embedding(t, w.t())",
])
def test_grad_fn_names_match_torch(expr, real_torch):
    import flowgrad.torch as ft
    names = []
    for T in (ft, real_torch):
        x = T.ones(3, 3, requires_grad=True) * 0.5
        w = T.ones(2, 3, requires_grad=True)
        b = T.ones(2, requires_grad=True)
        img = T.ones(1, 3, 4, 4, requires_grad=True)
        k = T.ones(2, 3, 3, 3, requires_grad=True)
        t = T.tensor([0, 2, 1])
        out = eval(expr, {"F": T.nn.functional, "x": x, "w": w, "b": b, "img": img, "k": k, "t": t})
        names.append(out.grad_fn.name())
    assert names[0] == names[1]


# --------------------------------------------------------------------- layer behaviours

def test_linear_default_init_bounds(torch):
    torch.manual_seed(0)
    lin = torch.nn.Linear(50, 40)
    bound = 1 / math.sqrt(50)  # kaiming_uniform_(a=sqrt(5)) gives the same bound as the bias
    w, b = lin.weight.detach().numpy(), lin.bias.detach().numpy()
    assert w.shape == (40, 50) and b.shape == (40,)
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert np.abs(w).max() > 0.9 * bound and w.std() == pytest.approx(bound / math.sqrt(3), rel=0.1)
    assert lin.weight.dtype == torch.float32


def test_linear_factory_kwargs_and_no_bias(torch):
    lin = torch.nn.Linear(3, 2, bias=False, dtype=torch.float64)
    assert lin.bias is None and lin.weight.dtype == torch.float64
    assert [n for n, _ in lin.named_parameters()] == ["weight"]


def test_linear_shape_error_names_the_shapes(torch):
    lin = torch.nn.Linear(3, 2)
    with pytest.raises(RuntimeError, match=re.escape("mat1 and mat2 shapes cannot be multiplied (4x5 and 3x2)")):
        lin(torch.ones(4, 5))
    with pytest.raises(RuntimeError, match=re.escape("mat1 and mat2 shapes cannot be multiplied (8x5 and 3x2)")):
        lin(torch.ones(2, 4, 5))


def test_linear_dtype_mismatch_raises(torch):
    with pytest.raises(RuntimeError, match=re.escape("mat1 and mat2 must have the same dtype, but got Double and "
                                                     "Float")):
        torch.nn.Linear(3, 2)(torch.ones(2, 3, dtype=torch.float64))
    with pytest.raises(RuntimeError, match=re.escape("expected m1 and m2 to have the same dtype, but got: double != "
                                                     "float")):
        torch.nn.functional.linear(torch.ones(2, 3, dtype=torch.float64), torch.ones(2, 3))


def test_conv2d_errors(torch):
    conv = torch.nn.Conv2d(3, 8, 3)
    with pytest.raises(RuntimeError, match=re.escape(
            "Given groups=1, weight of size [8, 3, 3, 3], expected input[1, 4, 8, 8] to have 3 channels, but got 4 "
            "channels instead")):
        conv(torch.ones(1, 4, 8, 8))
    with pytest.raises(RuntimeError, match=re.escape(
            "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [8, 8]")):
        conv(torch.ones(8, 8))
    with pytest.raises(RuntimeError, match=re.escape(
            "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't be greater "
            "than actual input size")):
        conv(torch.ones(1, 3, 2, 2))
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        torch.nn.Conv2d(3, 8, 3, groups=2)
    with pytest.raises(ValueError, match="padding='same' is not supported for strided convolutions"):
        torch.nn.Conv2d(3, 8, 3, stride=2, padding="same")


def test_conv2d_default_init_bounds(torch):
    conv = torch.nn.Conv2d(4, 6, 3, groups=2)
    bound = 1 / math.sqrt(2 * 9)
    assert conv.weight.shape == torch.Size([6, 2, 3, 3])
    assert conv.weight.abs().max().item() <= bound and conv.bias.abs().max().item() <= bound


def test_max_pool_return_indices(torch):
    x = torch.tensor([[[[1.0, 5.0, 2.0, 0.0], [3.0, 4.0, 8.0, 1.0], [0.0, 0.0, 1.0, 1.0], [2.0, 9.0, 1.0, 3.0]]]])
    out, idx = torch.nn.MaxPool2d(2, return_indices=True)(x)
    assert out.tolist() == [[[[5.0, 8.0], [9.0, 3.0]]]] and idx.tolist() == [[[[1, 6], [13, 15]]]]
    with pytest.raises(RuntimeError, match=re.escape("Given input size: (1x2x2). Calculated output size: (1x0x0). "
                                                     "Output size is too small")):
        torch.nn.functional.max_pool2d(torch.ones(1, 1, 2, 2), 3)


def test_dropout_train_and_eval(torch):
    torch.manual_seed(0)
    drop = torch.nn.Dropout(0.5)
    x = torch.ones(2000)
    y = drop(x)
    kept = (y != 0).float().mean().item()
    assert 0.4 < kept < 0.6 and set(y.unique().tolist()) <= {0.0, 2.0} if hasattr(y, "unique") else True
    assert torch.equal(drop.eval()(x), x)
    assert torch.nn.functional.dropout(x, 1.0).abs().sum().item() == 0
    with pytest.raises(ValueError, match=re.escape("dropout probability has to be between 0 and 1, but got 1.5")):
        torch.nn.Dropout(1.5)


def test_dropout_gradient_uses_the_same_mask(torch):
    x = torch.ones(100, requires_grad=True)
    y = torch.nn.functional.dropout(x, 0.3)
    y.sum().backward()
    assert torch.equal(x.grad, y.detach())


def test_embedding_padding_row_is_zero_and_gets_no_gradient(torch):
    emb = torch.nn.Embedding(5, 3, padding_idx=0)
    assert emb.weight[0].abs().sum().item() == 0
    out = emb(torch.tensor([[0, 2, 0], [2, 4, 1]]))
    assert out.shape == torch.Size([2, 3, 3])
    out.sum().backward()
    assert emb.weight.grad[0].tolist() == [0.0, 0.0, 0.0]
    assert emb.weight.grad[2].tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(IndexError, match="index out of range in self"):
        emb(torch.tensor([5]))


def test_embedding_from_pretrained(torch):
    emb = torch.nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    assert not emb.weight.requires_grad and emb(torch.tensor([1])).tolist() == [[3.0, 4.0]]


def test_layer_norm_module_and_shape_error(torch):
    ln = torch.nn.LayerNorm(3)
    out = ln(torch.tensor([[1.0, 2.0, 3.0]]))
    assert np.allclose(out.detach().numpy(), [[-1.2247, 0.0, 1.2247]], atol=1e-4)
    with pytest.raises(RuntimeError, match=re.escape("Given normalized_shape=[4], expected input with shape [*, 4], "
                                                     "but got input of size[4, 3]")):
        torch.nn.LayerNorm(4)(torch.ones(4, 3))


def test_batchnorm_running_stats_match_torch(real_torch):
    import flowgrad.torch as ft
    data = [R(6, 3, 4, 4) * 2 + 1 for _ in range(3)]
    results = []
    for T in (ft, real_torch):
        bn = T.nn.BatchNorm2d(3, momentum=0.2).double()
        cum = T.nn.BatchNorm2d(3, momentum=None).double()
        for d in data:
            bn(T.tensor(d))
            cum(T.tensor(d))
        bn.eval()
        out = bn(T.tensor(data[0])).detach().numpy()
        results.append((bn.running_mean.numpy(), bn.running_var.numpy(), cum.running_mean.numpy(),
                        cum.running_var.numpy(), bn.num_batches_tracked.item(), out))
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_batchnorm_errors(torch):
    with pytest.raises(ValueError, match=re.escape("expected 4D input (got 2D input)")):
        torch.nn.BatchNorm2d(3)(torch.ones(2, 3))
    with pytest.raises(ValueError, match=re.escape("Expected more than 1 value per channel when training, got input "
                                                   "size torch.Size([1, 3])")):
        torch.nn.BatchNorm1d(3)(torch.ones(1, 3))
    with pytest.raises(RuntimeError, match=re.escape("running_mean should contain 3 elements not 4")):
        torch.nn.BatchNorm1d(4)(torch.ones(4, 3))


def test_batchnorm_without_running_stats_uses_batch_stats_in_eval(torch):
    bn = torch.nn.BatchNorm1d(2, track_running_stats=False, affine=False).eval()
    out = bn(torch.tensor([[1.0, 2.0], [3.0, 6.0]]))
    assert np.allclose(out.numpy(), [[-1.0, -1.0], [1.0, 1.0]], atol=1e-4)
    assert bn.running_mean is None and list(bn.state_dict()) == []


def test_flatten_unflatten_identity(torch):
    x = torch.ones(2, 3, 4)
    assert torch.nn.Flatten()(x).shape == torch.Size([2, 12])
    assert torch.nn.Flatten(0, 1)(x).shape == torch.Size([6, 4])
    assert torch.nn.Unflatten(1, (3, 1))(torch.ones(2, 3)).shape == torch.Size([2, 3, 1])
    assert torch.nn.Identity(54, unused="x")(x) is x


def test_softmax_without_dim_warns_and_picks_pytorchs_dim(torch):
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax has been deprecated"):
        out = torch.nn.Softmax()(torch.ones(2, 4))
    assert np.allclose(out.sum(1).numpy(), 1.0)


def test_activation_modules(torch):
    x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0])
    nn = torch.nn
    assert nn.ReLU()(x).tolist() == [0.0, 0.0, 0.0, 0.5, 2.0]
    assert nn.LeakyReLU(0.1)(x).tolist() == pytest.approx([-0.2, -0.05, 0.0, 0.5, 2.0])
    assert nn.Hardtanh()(x).tolist() == [-1.0, -0.5, 0.0, 0.5, 1.0]
    assert nn.Sigmoid()(x).tolist() == pytest.approx(torch.sigmoid(x).tolist())
    y = x.clone()
    assert nn.ReLU(inplace=True)(y) is y and y.tolist() == [0.0, 0.0, 0.0, 0.5, 2.0]
