"""Paddle's parameter attributes and the silent differences they used to hide: weight_attr forms,
paddle.create_parameter, per-parameter learning rates and regularizers in the optimizers, paddle's
accumulator state dicts, LayerNorm's flat parameters, cross_entropy's mean, paddle.Size equality
and the refusal to promote an integer tensor with a float one. Each case runs on flowgrad's facade
and on real paddle 3.3.1."""
from __future__ import annotations

import re

import numpy as np
import pytest


# ----------------------------------------------------------------------- parameters

@pytest.mark.parametrize("attr", ["initializer", "param_attr"])
def test_weight_attr_initializer_is_applied(paddle, attr):
    init = paddle.nn.initializer.Constant(0.5)
    weight_attr = init if attr == "initializer" else paddle.ParamAttr(initializer=init)
    layer = paddle.nn.Linear(2, 3, weight_attr=weight_attr, bias_attr=paddle.nn.initializer.Constant(0.25))
    assert layer.weight.tolist() == [[0.5] * 3] * 2
    assert layer.bias.tolist() == [0.25] * 3


def test_weight_attr_forms_and_errors(paddle):
    assert paddle.nn.Linear(2, 2, bias_attr=False).bias is None
    assert paddle.nn.Linear(2, 2, bias_attr=True).bias.tolist() == [0.0, 0.0]
    named = paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name="my_weight", trainable=False))
    assert named.weight.name == "my_weight" and named.weight.stop_gradient and not named.weight.trainable
    assert named.bias.optimize_attr == {"learning_rate": 1.0} and named.bias.regularizer is None
    assert named.bias.need_clip and named.bias.do_model_average
    with pytest.raises(TypeError, match=re.escape("<class 'int'> cast to ParamAttr")):
        paddle.nn.Linear(2, 2, weight_attr=3)
    with pytest.raises(ValueError, match="name of ParamAttr can not be empty str"):
        paddle.ParamAttr(name="")


def test_create_parameter(paddle):
    p = paddle.create_parameter([2, 3], "float32")
    assert re.fullmatch(r"create_parameter_\d+\.w_0", p.name)
    assert not p.stop_gradient and p.trainable and p.shape == [2, 3] and p.numpy().std() > 0
    b = paddle.create_parameter([2], "float32", is_bias=True)
    assert re.fullmatch(r"create_parameter_\d+\.b_0", b.name) and b.tolist() == [0.0, 0.0]
    frozen = paddle.create_parameter([2], "float32", name="frozen_p", attr=paddle.ParamAttr(trainable=False))
    assert frozen.name.startswith("frozen_p.w_") and frozen.stop_gradient
    frozen.trainable = True
    assert not frozen.stop_gradient
    frozen.stop_gradient = True
    assert not frozen.trainable
    ints = paddle.create_parameter([2], "int64", default_initializer=paddle.nn.initializer.Constant(3))
    assert ints.tolist() == [3, 3] and str(ints.dtype) == "paddle.int64"
    with pytest.raises(TypeError, match=re.escape("Can not create parameter with default initializer when dtype is "
                                                  "not ['float16', 'float32', 'float64', 'bfloat16', 'float'] type. "
                                                  "Set default_initializer to fit the parameter dtype!")):
        paddle.create_parameter([2], "int64")


def test_layer_norm_parameters_are_flat(paddle):
    ln = paddle.nn.LayerNorm([3, 4])
    assert ln.weight.shape == [12] and ln.bias.shape == [12]
    x = paddle.to_tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7, stop_gradient=False)
    ln.weight.set_value(np.linspace(0.5, 1.5, 12).astype(np.float32))
    y = ln(x)
    (y * y).sum().backward()
    mean = x.numpy().reshape(2, 12).mean(1, keepdims=True)
    var = x.numpy().reshape(2, 12).var(1, keepdims=True)
    want = ((x.numpy().reshape(2, 12) - mean) / np.sqrt(var + 1e-5) * np.linspace(0.5, 1.5, 12)).reshape(2, 3, 4)
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-5, atol=1e-6)
    assert ln.weight.grad.shape == [12] and x.grad.shape == [2, 3, 4]
    out = paddle.nn.functional.layer_norm(x, [3, 4], paddle.ones([12]), paddle.zeros([12]))
    assert out.shape == [2, 3, 4]


# ----------------------------------------------------------------------- cross entropy

LOGITS = np.array([[1., 2, 3], [0, 1, 0], [2, 2, 1], [0.5, 0, 1]], dtype=np.float32)


@pytest.mark.parametrize("label, kwargs", [
    ([0, -100, 2, 1], {}),  # the default ignore_index: paddle 3.3.1 divides by all four labels
    ([0, 1, 2, 1], {"ignore_index": 1}),  # a non-negative one: by the kept labels
    ([0, -100, 2, 1], {"weight": [1., 2., 3.]}),
    ([0, 1, 2, 1], {"ignore_index": 1, "weight": [1., 2., 3.]}),
    ([-100, -100, -100, -100], {}),
    ([1, 1, 1, 1], {"ignore_index": 1}),
    ([[0], [-100], [2], [1]], {}),
])
def test_cross_entropy_mean_with_ignored_labels(paddle, label, kwargs):
    x = paddle.to_tensor(LOGITS, stop_gradient=False)
    if "weight" in kwargs:
        kwargs = dict(kwargs, weight=paddle.to_tensor(kwargs["weight"]))
    loss = paddle.nn.functional.cross_entropy(x, paddle.to_tensor(label), **kwargs)
    loss.backward()
    logp = LOGITS - np.log(np.exp(LOGITS).sum(1, keepdims=True))
    flat = np.array(label).reshape(-1)
    ignore = kwargs.get("ignore_index", -100)
    w = np.array([1., 2., 3.]) if "weight" in kwargs else np.ones(3)
    kept = flat != ignore
    terms = np.array([-logp[i, c] * w[c] if k else 0.0 for i, (c, k) in enumerate(zip(flat, kept))])
    if ignore >= 0 or "weight" in kwargs:
        denom = sum(w[c] for c, k in zip(flat, kept) if k) or 1.0
    else:
        denom = len(flat)
    np.testing.assert_allclose(float(loss), terms.sum() / denom, rtol=1e-5)
    assert x.grad.shape == [4, 3]


# ----------------------------------------------------------------------- Size and promotion

def test_shape_equals_tuples_and_lists(paddle):
    s = paddle.ones([2, 3]).shape
    assert s == (2, 3) and (2, 3) == s and s == [2, 3] and not s != (2, 3) and s != (2, 4)
    assert isinstance(s, list) and not isinstance(s, tuple)
    assert repr(s + (4,)) == "paddle.Size([2, 3, 4])" and repr(s[:1]) == "paddle.Size([2])"
    assert s.numel() == 6 and s[-1] == 3
    assert paddle.ones([]).shape == ()


PROMOTION = "(InvalidType) Type promotion only support calculations between floating-point numbers and between " \
            "complex and real numbers. But got different data type x: {}, y: {}. (at " \
            "/paddle/paddle/phi/common/type_promotion.h:220)\n"


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "lt", "eq", "maximum", "where", "iadd"])
def test_integer_and_float_tensors_do_not_promote(paddle, op):
    a, b = paddle.to_tensor([1, 2]), paddle.to_tensor([1.5, 2.5])
    call = {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b, "div": lambda: a / b,
            "lt": lambda: a < b, "eq": lambda: a == b, "maximum": lambda: paddle.maximum(a, b),
            "where": lambda: paddle.where(paddle.to_tensor([True, False]), a, b),
            "iadd": lambda: a.add_(b)}[op]
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value) == PROMOTION.format("int64", "float32")
    assert a.tolist() == [1, 2]


def test_promotion_that_paddle_allows(paddle):
    f32, i64 = paddle.to_tensor([1., 2.]), paddle.to_tensor([1, 2])
    assert str((f32 + paddle.to_tensor([1., 2.], dtype="float64")).dtype) == "paddle.float64"
    assert str((paddle.to_tensor(1) + f32).dtype) == "paddle.float32"  # a 0-d tensor acts as a scalar
    assert str((paddle.to_tensor(1, dtype="int32") + i64).dtype) == "paddle.int64"
    assert str((i64 + 2.5).dtype) == "paddle.float32" and str((i64 / 2).dtype) == "paddle.float32"
    with pytest.raises(TypeError) as info:
        paddle.to_tensor([1], dtype="int32") + paddle.to_tensor([1])
    assert str(info.value) == PROMOTION.format("int32", "int64")
    x = paddle.to_tensor([0.5, 2.], stop_gradient=False)
    paddle.clip(x * 3, -1.5, 2.5).sum().backward()  # backward formulas mix masks and floats freely
    assert x.grad.tolist() == [3.0, 0.0]


# ----------------------------------------------------------------------- optimizers

def _one_step(paddle, make, attr):
    layer = paddle.nn.Linear(1, 1, weight_attr=attr, bias_attr=False)
    layer.weight.set_value(np.array([[2.0]], dtype=np.float32))
    opt = make(paddle, layer.parameters())
    layer(paddle.ones([1, 1])).sum().backward()
    opt.step()
    return float(layer.weight.numpy().reshape(-1)[0])


STEPS = {
    "sgd": lambda p, ps: p.optimizer.SGD(0.1, parameters=ps),
    "sgd_wd": lambda p, ps: p.optimizer.SGD(0.1, parameters=ps, weight_decay=0.25),
    "sgd_group": lambda p, ps: p.optimizer.SGD(0.1, parameters=[{"params": ps}], weight_decay=0.25),
    "sgd_group_wd": lambda p, ps: p.optimizer.SGD(0.1, parameters=[{"params": ps, "weight_decay": 0.125}],
                                                  weight_decay=0.25),
    "adam_wd": lambda p, ps: p.optimizer.Adam(0.1, parameters=ps, weight_decay=0.25),
    "momentum_wd": lambda p, ps: p.optimizer.Momentum(0.1, parameters=ps, weight_decay=0.25),
    "momentum_group": lambda p, ps: p.optimizer.Momentum(
        0.1, parameters=[{"params": ps, "momentum": 0.5, "learning_rate": 2.0}], weight_decay=0.25),
    "adam_group": lambda p, ps: p.optimizer.Adam(
        0.1, parameters=[{"params": ps, "beta1": 0.5, "epsilon": 0.5, "learning_rate": 2.0}], weight_decay=0.25),
}


@pytest.mark.parametrize("attr", ["regularizer", "learning_rate"])
@pytest.mark.parametrize("name", sorted(STEPS))
def test_per_parameter_rate_and_regularizer(fpaddle, real_paddle, name, attr):
    """The rate is the optimizer's times the parameter's factor (its ParamAttr's, or its group's), and
    a parameter's regularizer replaces the optimizer's weight_decay (a group's weight_decay replaces it)."""
    def make_attr(p):
        return p.ParamAttr(regularizer=p.regularizer.L2Decay(0.5)) if attr == "regularizer" else \
            p.ParamAttr(learning_rate=3.0)

    got = _one_step(fpaddle, STEPS[name], make_attr(fpaddle))
    want = _one_step(real_paddle, STEPS[name], make_attr(real_paddle))
    assert got == pytest.approx(want, rel=1e-6)


def test_adamw_uses_the_parameters_rate_for_decoupled_decay(fpaddle, real_paddle):
    def make(p, ps):
        return p.optimizer.AdamW(0.1, parameters=ps, weight_decay=0.25)

    got = _one_step(fpaddle, make, fpaddle.ParamAttr(learning_rate=3.0))
    assert got == pytest.approx(_one_step(real_paddle, make, real_paddle.ParamAttr(learning_rate=3.0)), rel=1e-6)


def test_adamw_refuses_what_it_does_not_build(fpaddle):
    layer = fpaddle.nn.Linear(1, 1, weight_attr=fpaddle.ParamAttr(regularizer=fpaddle.regularizer.L2Decay(0.5)))
    with pytest.raises(NotImplementedError, match="regularizer"):
        fpaddle.optimizer.AdamW(0.1, parameters=layer.parameters())
    with pytest.raises(NotImplementedError, match="lr_ratio"):
        fpaddle.optimizer.AdamW(0.1, parameters=fpaddle.nn.Linear(1, 1).parameters(), lr_ratio=lambda p: 0.5)


def _stepped(paddle, make, steps=2):
    layer = paddle.nn.Linear(2, 2, weight_attr=paddle.nn.initializer.Constant(1.0))
    opt = make(paddle, layer.parameters())
    for _ in range(steps):
        (layer(paddle.to_tensor([[1., 2.]])) ** 2).sum().backward()
        opt.step()
        opt.clear_grad()
    return layer, opt


STATES = {
    "sgd": (lambda p, ps: p.optimizer.SGD(0.1, parameters=ps), []),
    "momentum": (lambda p, ps: p.optimizer.Momentum(0.1, parameters=ps, use_nesterov=True), ["velocity"]),
    "adam": (lambda p, ps: p.optimizer.Adam(0.1, parameters=ps),
             ["moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc"]),
    "adamw_amsgrad": (lambda p, ps: p.optimizer.AdamW(0.1, parameters=ps, amsgrad=True),
                      ["moment1", "moment2", "moment2_max", "beta1_pow_acc", "beta2_pow_acc"]),
}


@pytest.mark.parametrize("name", sorted(STATES))
def test_state_dict_holds_paddles_accumulators(fpaddle, real_paddle, name):
    make, accs = STATES[name]
    values = []
    for paddle in (fpaddle, real_paddle):
        layer, opt = _stepped(paddle, make)
        assert make(paddle, layer.parameters()).state_dict() == {}
        sd = opt.state_dict()
        names = [p.name for p in layer.parameters()]
        assert [re.sub(r"_\d+$", "", k) for k in sd] == [f"{n}_{a}" for a in accs for n in names]
        assert all(v.name == k and v.stop_gradient for k, v in sd.items())
        values.append([v.numpy() for v in sd.values()])
    for got, want in zip(*values):
        np.testing.assert_allclose(got, want, rtol=1e-4)


def test_set_state_dict_continues_training(paddle):
    make = STATES["adam"][0]
    layer, opt = _stepped(paddle, make)
    saved, weights = opt.state_dict(), layer.state_dict()
    renamed = {}
    fresh = paddle.nn.Linear(2, 2)
    fresh.set_state_dict(weights)
    opt2 = make(paddle, fresh.parameters())
    for old, new in zip(layer.parameters(), fresh.parameters()):  # as loading in a new process would name them
        for k, v in saved.items():
            if k.startswith(old.name + "_"):
                renamed[new.name + k[len(old.name):]] = v
    opt2.set_state_dict(renamed)
    assert sorted(opt2.state_dict()) == sorted(renamed)
    for lay, o in ((fresh, opt2), (layer, opt)):  # opt2 reads the held (live) accumulators at its first step
        (lay(paddle.to_tensor([[1., 2.]])) ** 2).sum().backward()
        o.step()
    np.testing.assert_allclose(fresh.weight.numpy(), layer.weight.numpy(), rtol=1e-6)
    with pytest.raises(AssertionError, match=re.escape(f"optimizer Tensor {fresh.weight.name}_moment1_")):
        opt2.set_state_dict({})
    layer3 = paddle.nn.Linear(2, 2)
    opt3 = make(paddle, layer3.parameters())
    opt3.set_state_dict({"unrelated": paddle.ones([1])})
    layer3(paddle.ones([1, 2])).sum().backward()
    with pytest.raises(AssertionError, match=re.escape(f"Optimizer set error, {layer3.weight.name}_moment1_")):
        opt3.step()


@pytest.mark.parametrize("make, shape, bound", [
    (lambda I: I.XavierUniform(), [40, 60], (6 / 100) ** 0.5),
    (lambda I: I.KaimingUniform(), [40, 60], (6 / 40) ** 0.5),
    (lambda I: I.KaimingUniform(nonlinearity="tanh"), [40, 60], 5 / 3 * (3 / 40) ** 0.5),
    (lambda I: I.Uniform(-0.25, 0.5), [40, 60], None),
    (lambda I: I.XavierUniform(), [8, 4, 3, 3], (6 / (4 * 9 + 8 * 9)) ** 0.5),
    (lambda I: I.TruncatedNormal(1.0, 0.5, 0.25, 1.5), [40, 60], None),
])
def test_initializers_draw_from_paddles_ranges(paddle, make, shape, bound):
    """Bounds (and for the uniform ones, the spread) as paddle's fans and gains give them."""
    p = paddle.create_parameter(shape, "float32", default_initializer=make(paddle.nn.initializer))
    values = p.numpy()
    if bound is not None:
        assert np.abs(values).max() <= bound + 1e-6 and np.abs(values).max() > 0.9 * bound
        assert abs(values.std() - bound / 3 ** 0.5) < 0.1 * bound
    elif values.min() >= 0:  # the truncated normal: absolute bounds [0.25, 1.5]
        assert values.min() >= 0.25 - 1e-6 and values.max() <= 1.5 + 1e-6 and values.min() < 0.3
    else:
        assert values.min() >= -0.25 and values.max() <= 0.5


@pytest.mark.parametrize("make, std", [
    (lambda I: I.XavierNormal(), (2 / 100) ** 0.5),
    (lambda I: I.KaimingNormal(), (2 / 40) ** 0.5),
    (lambda I: I.Normal(0.5, 2.0), 2.0),
])
def test_normal_initializers_spread(paddle, make, std):
    p = paddle.create_parameter([40, 60], "float32", default_initializer=make(paddle.nn.initializer))
    assert abs(p.numpy().std() - std) < 0.1 * std


def test_assign_initializer(paddle):
    value = np.array([[1., 2.], [3., 4.]], dtype=np.float32)
    p = paddle.create_parameter([2, 2], "float32", default_initializer=paddle.nn.initializer.Assign(value))
    assert p.tolist() == [[1., 2.], [3., 4.]]


def test_assign_initializer_of_another_shape_is_refused(fpaddle):
    with pytest.raises(NotImplementedError, match=re.escape("needs a value of the parameter's shape [2, 2], got [4]")):
        fpaddle.create_parameter([2, 2], "float32", default_initializer=fpaddle.nn.initializer.Assign([1., 2., 3., 4.]))


@pytest.mark.parametrize("clip", ["global", "norm", "value"])
def test_gradient_clipping_skips_parameters_without_need_clip(paddle, clip):
    layer = paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(need_clip=False,
                                                                initializer=paddle.nn.initializer.Constant(1.0)))
    make = {"global": paddle.nn.ClipGradByGlobalNorm, "norm": paddle.nn.ClipGradByNorm,
            "value": paddle.nn.ClipGradByValue}[clip]
    opt = paddle.optimizer.SGD(1.0, parameters=layer.parameters(), grad_clip=make(0.1))
    (layer(paddle.to_tensor([[1., 2.]])) * 3).sum().backward()
    opt.step()
    assert layer.weight.tolist() == [[-2., -2.], [-5., -5.]]
    np.testing.assert_allclose(layer.bias.numpy(), [-0.1 / 2 ** 0.5 if clip != "value" else -0.1] * 2, rtol=1e-5)


@pytest.mark.parametrize("default", ["float64", "float32"])
def test_parameters_take_paddles_default_dtype(paddle, default):
    """Built-in layers and a layer's own create_parameter make parameters of paddle's default
    dtype; the `dtype` a Layer is constructed with does not change that, as in paddle."""

    class Own(paddle.nn.Layer):
        def __init__(self):
            super().__init__(dtype="float16")
            self.w = self.create_parameter([2])

    before = paddle.get_default_dtype()
    paddle.set_default_dtype(default)
    try:
        layers = [paddle.nn.Linear(2, 3), paddle.nn.Conv2D(1, 1, 1), paddle.nn.LayerNorm(2), paddle.nn.Embedding(3, 2),
                  paddle.nn.LSTM(2, 2), Own()]
        got = {str(p.dtype) for layer in layers for p in layer.parameters()}
    finally:
        paddle.set_default_dtype(before)
    assert got == {f"paddle.{default}"}
