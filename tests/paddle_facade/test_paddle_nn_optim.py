"""paddle.nn layers and paddle.optimizer over flowgrad's neutral nn/optim: paddle's shapes,
defaults, names, reprs and update formulas."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest


def test_linear_weight_is_in_by_out_with_paddle_defaults(paddle):
    layer = paddle.nn.Linear(4, 3)
    assert layer.weight.shape == [4, 3] and layer.bias.shape == [3]
    assert layer.bias.tolist() == [0., 0., 0.]
    assert np.abs(layer.weight.numpy()).max() <= math.sqrt(6 / 7)
    assert layer.weight.stop_gradient is False and layer.weight.trainable is True
    assert re.fullmatch(r"linear_\d+\.w_0", layer.weight.name) and re.fullmatch(r"linear_\d+\.b_0", layer.bias.name)
    assert repr(layer) == "Linear(in_features=4, out_features=3, dtype=float32)"


def test_linear_computes_x_at_w_plus_b(paddle):
    layer = paddle.nn.Linear(2, 1)
    layer.weight.set_value(np.array([[2.], [3.]], dtype=np.float32))
    layer.bias.set_value(np.array([1.], dtype=np.float32))
    out = layer(paddle.to_tensor([[1., 1.]]))
    assert out.tolist() == [[6.]]
    out.sum().backward()
    assert layer.weight.grad.tolist() == [[1.], [1.]] and layer.bias.grad.tolist() == [1.]


def test_parameter_prints_with_a_prefix(paddle):
    layer = paddle.nn.Linear(1, 2)
    assert str(layer.bias) == ("Parameter containing:\nTensor(shape=[2], dtype=float32, place=Place(cpu), "
                               "stop_gradient=False,\n       [0., 0.])")


def test_trainable_false_stops_gradient(paddle):
    layer = paddle.nn.Linear(2, 1)
    layer.bias.trainable = False
    assert layer.bias.stop_gradient is True
    layer(paddle.ones([1, 2])).sum().backward()
    assert layer.bias.grad is None and layer.weight.grad is not None


def test_layer_api(paddle):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(2, 2)
            self.w = self.create_parameter([2])

        def forward(self, x):
            return self.fc(x) * self.w

    net = Net()
    params = net.parameters()
    assert type(params) is list and len(params) == 3 and params[0] is net.w
    assert [n for n, _ in net.named_parameters()] == ["w", "fc.weight", "fc.bias"]
    assert list(net.state_dict().keys()) == ["w", "fc.weight", "fc.bias"]
    assert net.sublayers() == [net.fc]
    assert re.fullmatch(r"net_\d+", net.full_name())
    assert repr(net) == "Net(\n  (fc): Linear(in_features=2, out_features=2, dtype=float32)\n)"
    net.eval()
    assert net.training is False and net.fc.training is False


def test_clear_gradients_zero_fills(paddle):
    layer = paddle.nn.Linear(2, 1)
    layer(paddle.ones([1, 2])).sum().backward()
    layer.clear_gradients()
    assert layer.weight.grad.tolist() == [[0.], [0.]]


def test_set_state_dict_copies_values(paddle):
    a, b = paddle.nn.Linear(2, 2), paddle.nn.Linear(2, 2)
    b.set_state_dict(a.state_dict())
    assert b.weight.tolist() == a.weight.tolist()


def test_forward_post_hook_can_replace_output(paddle):
    layer = paddle.nn.Linear(2, 1)
    layer.register_forward_post_hook(lambda lay, inp, out: out * 0)
    assert layer(paddle.ones([1, 2])).tolist() == [[0.]]


def test_sequential_and_layer_list(paddle):
    seq = paddle.nn.Sequential(paddle.nn.Linear(2, 3), paddle.nn.ReLU(), paddle.nn.Linear(3, 1))
    assert repr(seq) == ("Sequential(\n  (0): Linear(in_features=2, out_features=3, dtype=float32)\n  (1): ReLU()\n"
                         "  (2): Linear(in_features=3, out_features=1, dtype=float32)\n)")
    assert seq(paddle.ones([4, 2])).shape == [4, 1]
    assert list(seq.state_dict().keys()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    named = paddle.nn.Sequential(("a", paddle.nn.Linear(2, 2)), ("b", paddle.nn.Tanh()))
    assert list(named.state_dict().keys()) == ["a.weight", "a.bias"]
    layers = paddle.nn.LayerList([paddle.nn.Linear(2, 2) for _ in range(3)])
    assert len(layers) == 3 and len(layers.parameters()) == 6


@pytest.mark.parametrize("make, text", [
    (lambda p: p.nn.CrossEntropyLoss(), "CrossEntropyLoss()"), (lambda p: p.nn.MSELoss(), "MSELoss()"),
    (lambda p: p.nn.Dropout(0.3), "Dropout(p=0.3, axis=None, mode=upscale_in_train, inplace=False)"),
    (lambda p: p.nn.LeakyReLU(0.2), "LeakyReLU(negative_slope=0.2)"), (lambda p: p.nn.Softmax(), "Softmax(axis=-1)"),
    (lambda p: p.nn.ReLU(), "ReLU()"), (lambda p: p.nn.Tanh(), "Tanh()"),
])
def test_layer_reprs(paddle, make, text):
    assert repr(make(paddle)) == text


def test_dropout_in_eval_is_identity(paddle):
    d = paddle.nn.Dropout(0.5)
    d.eval()
    x = paddle.ones([4])
    assert d(x).tolist() == [1., 1., 1., 1.]


def test_losses_as_layers(paddle):
    logits = paddle.to_tensor([[1., 2., 3.], [1., 0., -1.]], stop_gradient=False)
    ce = paddle.nn.CrossEntropyLoss()(logits, paddle.to_tensor([2, 0]))
    np.testing.assert_allclose(ce.item(), 0.4076059, rtol=1e-5)
    mse = paddle.nn.MSELoss(reduction="sum")(logits, paddle.zeros([2, 3]))
    assert mse.item() == 16.
    with pytest.raises(ValueError, match="should be 'sum', 'mean' or 'none'"):
        paddle.nn.MSELoss(reduction="avg")


def test_initializers_and_param_attr(paddle):
    init = paddle.nn.initializer
    layer = paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(initializer=init.Constant(0.5)),
                             bias_attr=False)
    assert layer.weight.tolist() == [[0.5, 0.5], [0.5, 0.5]] and layer.bias is None
    u = paddle.nn.Linear(3, 3, weight_attr=paddle.ParamAttr(initializer=init.Uniform(-0.1, 0.1)))
    assert np.abs(u.weight.numpy()).max() <= 0.1


# ----------------------------------------------------------------------- optimizers

W0 = np.array([[0.5, -1.], [1.5, 2.]], dtype=np.float32)
X = np.array([[1., 2.], [3., -1.], [0.5, 0.5]], dtype=np.float32)


def _train(paddle, make_opt, steps=3):
    layer = paddle.nn.Linear(2, 2)
    layer.weight.set_value(W0)
    layer.bias.set_value(np.array([0.1, -0.2], dtype=np.float32))
    opt = make_opt(paddle, layer.parameters())
    for _ in range(steps):
        loss = (layer(paddle.to_tensor(X)) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
    return layer.weight.numpy(), layer.bias.numpy()


OPTIMIZERS = {
    "sgd": lambda p, ps: p.optimizer.SGD(learning_rate=0.1, parameters=ps),
    "sgd_wd": lambda p, ps: p.optimizer.SGD(learning_rate=0.1, parameters=ps, weight_decay=0.01),
    "momentum": lambda p, ps: p.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=ps),
    "nesterov": lambda p, ps: p.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=ps,
                                                   use_nesterov=True),
    "adam": lambda p, ps: p.optimizer.Adam(learning_rate=0.1, parameters=ps),
    "adam_l2": lambda p, ps: p.optimizer.Adam(learning_rate=0.1, parameters=ps,
                                              weight_decay=p.regularizer.L2Decay(0.1)),
    "adamw": lambda p, ps: p.optimizer.AdamW(learning_rate=0.1, parameters=ps, weight_decay=0.1),
    "adam_clip": lambda p, ps: p.optimizer.Adam(learning_rate=0.1, parameters=ps,
                                                grad_clip=p.nn.ClipGradByGlobalNorm(0.5)),
    "sgd_clip": lambda p, ps: p.optimizer.SGD(learning_rate=0.1, parameters=ps,
                                              grad_clip=p.nn.ClipGradByGlobalNorm(0.5)),
    "rmsprop": lambda p, ps: p.optimizer.RMSProp(learning_rate=0.1, parameters=ps),
    "rmsprop_momentum_centered": lambda p, ps: p.optimizer.RMSProp(learning_rate=0.05, rho=0.9, epsilon=1e-4,
                                                                   momentum=0.5, centered=True, parameters=ps,
                                                                   weight_decay=0.01),
    "adagrad": lambda p, ps: p.optimizer.Adagrad(learning_rate=0.1, parameters=ps),
    "adagrad_init": lambda p, ps: p.optimizer.Adagrad(learning_rate=0.1, epsilon=1e-3, parameters=ps,
                                                      initial_accumulator_value=0.5,
                                                      weight_decay=p.regularizer.L2Decay(0.1)),
    "adamax": lambda p, ps: p.optimizer.Adamax(learning_rate=0.1, parameters=ps),
    "adamax_wd": lambda p, ps: p.optimizer.Adamax(learning_rate=0.05, beta1=0.8, beta2=0.9, epsilon=1e-3,
                                                  parameters=ps, weight_decay=0.01),
    "sgd_clip_value": lambda p, ps: p.optimizer.SGD(learning_rate=0.1, parameters=ps,
                                                    grad_clip=p.nn.ClipGradByValue(0.3)),
}


def _accumulators(paddle, name):
    layer = paddle.nn.Linear(2, 2)
    opt = OPTIMIZERS[name](paddle, layer.parameters())
    layer(paddle.ones([1, 2])).sum().backward()
    opt.step()
    prefix = layer.weight.name.split(".")[0]
    return [(k.replace(prefix, "layer"), list(v.shape)) for k, v in opt.state_dict().items()
            if k != "LR_Scheduler"]


@pytest.mark.parametrize("name", ["rmsprop", "rmsprop_momentum_centered", "adagrad", "adagrad_init", "adamax"])
def test_optimizer_accumulator_names(fpaddle, real_paddle, name):
    got, want = _accumulators(fpaddle, name), _accumulators(real_paddle, name)
    strip = [(re.sub(r"_\d+$", "", k), s) for k, s in got]
    assert strip == [(re.sub(r"_\d+$", "", k), s) for k, s in want]


def test_adamax_argument_errors(paddle):
    ps = paddle.nn.Linear(1, 1).parameters()
    with pytest.raises(ValueError, match=re.escape("Invalid value of beta1, expect beta1 in [0,1).")):
        paddle.optimizer.Adamax(0.1, beta1=1.0, parameters=ps)
    with pytest.raises(ValueError, match=re.escape("Invalid value of epsilon, expect epsilon >= 0.")):
        paddle.optimizer.Adamax(0.1, epsilon=-1.0, parameters=ps)


def test_rmsprop_argument_errors(paddle):
    ps = paddle.nn.Linear(1, 1).parameters()
    with pytest.raises(ValueError, match=re.escape("rho is not set.")):
        paddle.optimizer.RMSProp(0.1, rho=None, parameters=ps)
    with pytest.raises(ValueError, match=re.escape("Invalid value of epsilon, expect epsilon >= 0.")):
        paddle.optimizer.RMSProp(0.1, epsilon=-1.0, parameters=ps)
    with pytest.raises(ValueError, match=re.escape("Invalid value of momentum, expect momentum >= 0.")):
        paddle.optimizer.RMSProp(0.1, momentum=-1.0, parameters=ps)


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_optimizer_steps_match_real_paddle(fpaddle, real_paddle, name):
    got = _train(fpaddle, OPTIMIZERS[name])
    want = _train(real_paddle, OPTIMIZERS[name])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_optimizer_clear_grad(paddle):
    layer = paddle.nn.Linear(2, 1)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=layer.parameters())
    layer(paddle.ones([1, 2])).sum().backward()
    opt.clear_grad()
    assert layer.weight.grad.tolist() == [[0.], [0.]]
    opt.clear_grad(set_to_zero=False)
    assert layer.weight.grad is None


def test_optimizer_lr_accessors(paddle):
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=paddle.nn.Linear(1, 1).parameters())
    assert opt.get_lr() == 0.01
    opt.set_lr(0.5)
    assert opt.get_lr() == 0.5


def test_optimizer_needs_parameters(paddle):
    with pytest.raises(AttributeError, match=re.escape("parameters argument given to the Optimizer should not be None "
                                                       "in dygraph mode.")):
        paddle.optimizer.SGD()


def test_minimize_applies_computed_gradients(paddle):
    layer = paddle.nn.Linear(1, 1)
    layer.weight.set_value(np.array([[1.]], dtype=np.float32))
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=layer.parameters())
    loss = layer(paddle.ones([1, 1])).sum()
    loss.backward()
    opt.minimize(loss)
    assert layer.weight.tolist() == [[0.5]]


def test_errors_keep_the_facades_wording_where_torch_took_pytorch_2_13s(fpaddle):
    """paddle 3.3.1 words these its own way; the facade keeps the texts it has always given."""
    paddle = fpaddle
    F = paddle.nn.functional
    cases = [
        (lambda: F.conv2d(paddle.ones([1, 1, 3, 3], dtype="float64"), paddle.ones([1, 1, 1, 1])), RuntimeError,
         "Input type (Double) and weight type (Float) should be the same or input should be a MKLDNN tensor and "
         "weight is a dense tensor"),
        (lambda: F.conv2d(paddle.ones([1, 1, 3, 3]), paddle.ones([1, 1, 1, 1]), padding="foo"), RuntimeError,
         "Invalid padding string 'foo', should be one of ['valid', 'same']"),
        (lambda: F.conv2d(paddle.ones([1, 2, 3, 3]), paddle.ones([3, 1, 1, 1]), groups=2), RuntimeError,
         "Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of size [3, 1, 1, 1] "
         "instead"),
        (lambda: F.adaptive_avg_pool2d(paddle.ones([2]), 1), RuntimeError,
         "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [2]"),
        (lambda: F.cross_entropy(paddle.ones([2, 3]), paddle.to_tensor([0, 1]), label_smoothing=2.0), RuntimeError,
         "label_smoothing must be between 0.0 and 1.0. Got: 2.0"),
        (lambda: F.cross_entropy(paddle.ones([2, 3]), paddle.to_tensor([0, 1]), label_smoothing=-0.5), RuntimeError,
         "label_smoothing must be between 0.0 and 1.0. Got: -0.5"),
        (lambda: paddle.nn.LayerDict().update(3), TypeError, "'int' object is not iterable"),
        (lambda: paddle.nn.LayerDict().update([3]), ValueError,
         "ModuleDict update sequence element #0 has length unknown; 2 is required"),
    ]
    for call, cls, msg in cases:
        with pytest.raises(cls, match="^" + re.escape(msg) + "$"):
            call()


def test_optimizer_argument_errors_are_pytorchs(fpaddle):
    params = fpaddle.nn.Linear(2, 2).parameters()
    with pytest.raises(ValueError, match=re.escape("Invalid learning rate: -1.0")):
        fpaddle.optimizer.SGD(learning_rate=-1.0, parameters=params)
    with pytest.raises(ValueError, match=re.escape("optimizer got an empty parameter list")):
        fpaddle.optimizer.Adam(parameters=[])
    opt = fpaddle.optimizer.SGD(parameters=params)

    def hook(*args):
        return 5

    opt.register_step_pre_hook(hook)
    with pytest.raises(RuntimeError, match="^" + re.escape(f"{hook} must return None or a tuple of (new_args, "
                                                           "new_kwargs), but got 5.") + "$"):
        opt.step()


def test_optimizer_has_no_state_attribute(paddle):
    """paddle keeps an optimizer's accumulators out of sight: no `state` (PyTorch's), state_dict() names them."""
    layer = paddle.nn.Linear(2, 2)
    opt = paddle.optimizer.Adam(parameters=layer.parameters())
    layer(paddle.ones([1, 2])).sum().backward()
    opt.step()
    assert not hasattr(opt, "state")
    with pytest.raises(AttributeError) as info:
        opt.state
    assert str(info.value) == "'Adam' object has no attribute 'state'"
    assert sorted(k[len(layer.weight.name) + 1:] for k in opt.state_dict() if k.startswith(layer.weight.name)) == \
        ["beta1_pow_acc_0", "beta2_pow_acc_0", "moment1_0", "moment2_0"]


def _clip_case(paddle):
    layer = paddle.nn.Linear(3, 2)
    layer.weight.set_value(np.array([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]], dtype=np.float32))
    layer.bias.set_value(np.array([0.5, -0.5], dtype=np.float32))
    (layer(paddle.to_tensor([[1.0, 2.0, -3.0], [0.5, -1.0, 2.0]])) ** 2).sum().backward()
    return layer


@pytest.mark.parametrize("norm_type", [2.0, 1, float("inf"), 0])
def test_clip_grad_norm_as_paddle(fpaddle, real_paddle, norm_type):
    got = []
    for paddle in (fpaddle, real_paddle):
        layer = _clip_case(paddle)
        total = paddle.nn.utils.clip_grad_norm_(layer.parameters(), 1.5, norm_type=norm_type)
        got.append((float(total), str(total.dtype), layer.weight.grad.numpy(), layer.bias.grad.numpy()))
    assert got[0][0] == pytest.approx(got[1][0], rel=1e-6) and got[0][1] == got[1][1]
    for a, b in zip(got[0][2:], got[1][2:]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_clip_grad_value_and_clip_errors(paddle):
    layer = _clip_case(paddle)
    paddle.nn.utils.clip_grad_value_(layer.parameters(), 2.0)
    assert float(layer.weight.grad.abs().max()) == 2.0
    with pytest.raises(ValueError) as info:
        paddle.nn.utils.clip_grad_norm_(layer.parameters(), 1.0, norm_type=3)
    assert str(info.value) == "norm_type only support [inf, 0, 1, 2]"
    assert float(layer.weight.grad.abs().max()) == 2.0      # nothing clipped
    layer.bias.grad.set_value(np.array([np.inf, 0.0], dtype=np.float32))
    with pytest.raises(RuntimeError) as info:
        paddle.nn.utils.clip_grad_norm_(layer.parameters(), 1.0, error_if_nonfinite=True)
    assert str(info.value) == ("The total norm of 2.0 order of the gradients from `parameters` is non-finite, so it "
                               "cannot be clipped. In any case, disable this error and scale the gradient by "
                               "non-finite norm, set `error_if_nonfinite=False`")
    fresh = paddle.nn.Linear(2, 2)
    total = paddle.nn.utils.clip_grad_norm_(fresh.parameters(), 1.0)
    assert float(total) == 0.0 and str(total.dtype) == "paddle.float32"


def test_parameter_list_is_what_the_optimizer_was_given(paddle):
    """`_parameter_list` (what scripts read an optimizer's parameters from): the parameters as given,
    a dict per group where groups were given."""
    a, b = paddle.nn.Linear(2, 3), paddle.nn.Linear(3, 1)
    opt = paddle.optimizer.Adam(parameters=iter(a.parameters()))
    assert [p.name for p in opt._parameter_list] == [p.name for p in a.parameters()]
    groups = [{"params": a.parameters()}, {"params": b.parameters(), "learning_rate": 0.1}]
    opt = paddle.optimizer.SGD(parameters=groups)
    assert [sorted(g) for g in opt._parameter_list] == [["params"], ["learning_rate", "params"]]
    assert [p.name for p in opt._parameter_list[1]["params"]] == [p.name for p in b.parameters()]
