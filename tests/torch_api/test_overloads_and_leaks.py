"""Overloads and small behaviours written once as PyTorch code and run on flowgrad.torch and real torch:
comparison aliases and their in-place forms, `tensor == None`, scatter_ without a source, bernoulli(input, p),
pow(self=<number>, ...), pin_memory (its deprecated device too) / share_memory_, floor division under autograd, embedding's
scale_grad_by_freq / sparse, softmax of an all -inf row, round(decimals=)."""
from __future__ import annotations

import math
import re
import warnings

import pytest


def _raises(fn, cls, msg: str | None = None):
    with pytest.raises(cls) as info:
        fn()
    if msg is not None:
        assert str(info.value) == msg
    return info.value


@pytest.mark.parametrize("name,want", [("not_equal", [True, False, True]), ("greater_equal", [False, True, True]),
                                       ("less_equal", [True, True, False]), ("greater", [False, False, True]),
                                       ("less", [True, False, False])])
def test_comparison_aliases_and_in_place_forms(torch, name, want):
    x, two = torch.tensor([1., 2., 3.]), torch.tensor(2.)
    assert getattr(x, name)(two).tolist() == want and getattr(torch, name)(x, 2).tolist() == want
    y = x.clone()
    assert getattr(y, name + "_")(two) is y and y.dtype == torch.float32
    assert y.tolist() == [float(w) for w in want]
    short = {"not_equal": "ne", "greater_equal": "ge", "less_equal": "le", "greater": "gt", "less": "lt"}[name]
    z = x.clone()
    assert getattr(z, short + "_")(2).tolist() == y.tolist()


def test_equality_with_what_is_no_operand(torch):
    x = torch.tensor([1., 2.])
    assert (x == None) is False and (x != None) is True  # noqa: E711 (what is tested)
    assert (x == "abc") is False and (x == [1., 2.]) is False
    for call in (lambda: x < None, lambda: x + [1., 2.], lambda: x * "a", lambda: x.eq([1., 2.]),
                 lambda: x.add("a")):
        _raises(call, TypeError)
    assert x.tolist() == [1., 2.]


def test_scatter_needs_a_source(torch):
    x = torch.zeros(3)
    for call in (lambda: x.scatter_(0, torch.tensor([0])), lambda: x.scatter(0, torch.tensor([0]))):
        _raises(call, TypeError)
    assert x.tolist() == [0., 0., 0.]


def test_bernoulli_with_one_probability(torch):
    x = torch.full((4,), 0.5)
    assert torch.bernoulli(x, 1.0).tolist() == [1.] * 4 and torch.bernoulli(x, p=0.0).tolist() == [0.] * 4
    ints = torch.bernoulli(torch.tensor([1, 2]), 1.0)
    assert ints.dtype == torch.int64 and ints.tolist() == [1, 1]
    draws = torch.bernoulli(torch.full((2000,), 0.0), 0.3)
    assert 0.2 < draws.mean().item() < 0.4
    _raises(lambda: torch.bernoulli(x, 1.5), RuntimeError, "bernoulli_ expects p to be in [0, 1], but got p=1.5")
    _raises(lambda: x.clone().bernoulli_(-0.5), RuntimeError, "bernoulli_ expects p to be in [0, 1], but got p=-0.5")
    _raises(lambda: torch.bernoulli(torch.tensor([2.])), RuntimeError)
    _raises(lambda: torch.bernoulli(torch.tensor([1, 2])), NotImplementedError,
            "\"bernoulli_tensor_cpu_p_\" not implemented for 'Long'")


def test_pow_of_a_number(torch):
    e = torch.tensor([1., 2., 3.], requires_grad=True)
    y = torch.pow(self=2, exponent=e)
    assert y.tolist() == [2., 4., 8.] and type(y.grad_fn).__name__ == "PowBackward2"
    y.sum().backward()
    assert e.grad.tolist() == pytest.approx([2 * math.log(2), 4 * math.log(2), 8 * math.log(2)])
    assert torch.pow(2, e).tolist() == [2., 4., 8.] and torch.pow(input=e, exponent=2).tolist() == [1., 4., 9.]
    _raises(lambda: torch.pow(self=2, input=e, exponent=e), TypeError)
    _raises(lambda: torch.pow(exponent=e), TypeError)


def test_pin_memory_and_share_memory(torch):
    x = torch.ones(2)
    if not torch.cuda.is_available():
        _raises(lambda: x.pin_memory(), RuntimeError, "Cannot access accelerator device when none is available.")
    assert x.share_memory_() is x
    _raises(lambda: x.share_memory_(True), TypeError)


_PIN_DEPRECATED = "The argument 'device' of Tensor.{}() is deprecated. Please do not pass this argument."


def test_pin_memory_deprecated_device(torch):
    x = torch.ones(2)
    if torch.cuda.is_available():
        pytest.skip("checks the CPU build's errors")
    for device in ("cpu", torch.device("cpu")):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _raises(lambda: x.pin_memory(device), RuntimeError, "CPU device type not an accelerator.")
        assert [w.category for w in caught] == [DeprecationWarning] * 2
        assert [str(w.message).split(" (Triggered")[0] for w in caught] == [
            _PIN_DEPRECATED.format("pin_memory"), _PIN_DEPRECATED.format("is_pinned")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        _raises(lambda: x.pin_memory(device="cpu"), RuntimeError, "CPU device type not an accelerator.")
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # neither None nor an accelerator's index warns
        for device in (None, 0):
            _raises(lambda: x.pin_memory(device), RuntimeError, "Cannot access accelerator device when none is "
                                                                  "available.")
    _raises(lambda: x.pin_memory("abc"), RuntimeError)
    for bad, name in (([1.], "list"), (True, "bool"), (torch.ones(2), "Tensor"), (1.5, "float")):
        _raises(lambda: x.pin_memory(bad), TypeError,
                f"pin_memory(): argument 'device' (position 1) must be torch.device, not {name}")
    assert x.tolist() == [1., 1.]


def test_floor_division_records_a_node_without_derivative(torch):
    a = torch.tensor([3., 5.], requires_grad=True)
    for y in (a // torch.tensor([2., 2.]), a // 2, 7 // a, torch.floor_divide(a, 2.)):
        assert y.requires_grad and type(y.grad_fn).__name__ == "NotImplemented"
        _raises(lambda: y.sum().backward(), RuntimeError, "derivative for aten::floor_divide is not implemented")
    assert (a // 2).tolist() == [1., 2.] and a.grad is None
    assert (torch.tensor([3, 5]) // 2).grad_fn is None


def test_embedding_scale_grad_by_freq(torch):
    w = torch.arange(15.).reshape(5, 3).requires_grad_()
    i = torch.tensor([[0, 1, 1], [4, 1, 0]])
    g = torch.arange(18.).reshape(2, 3, 3)
    y = torch.nn.functional.embedding(i, w, scale_grad_by_freq=True)
    assert y.grad_fn._saved_scale_grad_by_freq is True
    y.backward(g)
    assert w.grad.tolist() == [[7.5, 8.5, 9.5], [7., 8., 9.], [0., 0., 0.], [0., 0., 0.], [9., 10., 11.]]
    w.grad = None
    torch.nn.functional.embedding(i, w, padding_idx=1, scale_grad_by_freq=True).backward(g)
    assert w.grad.tolist() == [[7.5, 8.5, 9.5], [0., 0., 0.], [0., 0., 0.], [0., 0., 0.], [9., 10., 11.]]
    layer = torch.nn.Embedding(3, 2, scale_grad_by_freq=True)
    layer(torch.tensor([0, 0, 2])).sum().backward()
    assert layer.weight.grad.tolist() == [[1., 1.], [0., 0.], [1., 1.]]


def test_embedding_sparse_is_refused(torch):
    if torch.__name__ != "flowgrad.torch":
        pytest.skip("flowgrad has no sparse tensors; PyTorch builds sparse gradients")
    w = torch.ones(3, 2, requires_grad=True)
    msg = "embedding(): flowgrad does not support sparse=True (only the default, sparse=False)"
    _raises(lambda: torch.nn.functional.embedding(torch.tensor([0]), w, sparse=True), NotImplementedError, msg)
    _raises(lambda: torch.nn.Embedding(3, 2, sparse=True), NotImplementedError,
            "Embedding(): flowgrad does not support sparse=True (only the default, sparse=False)")


def test_softmax_of_an_all_minus_inf_row_is_nan_silently(torch):
    x = torch.tensor([[-math.inf] * 3, [1., 2., 3.]], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = torch.softmax(x, 1)
        logs = torch.log_softmax(x, 1)
        y.sum().backward()
    assert all(math.isnan(v) for v in y[0].tolist() + logs[0].tolist() + x.grad[0].tolist())
    assert y[1].tolist() == pytest.approx([0.09003057, 0.24472847, 0.66524096])


@pytest.mark.parametrize("decimals", [-2, -1, 1, 2, 3])
def test_round_decimals(torch, decimals):
    values = [1.2345, 2.5, 3.5, -0.125, 0.005, 1.005, 2.675, 15., 25., 1234.5, -0.5]
    x = torch.tensor(values, requires_grad=True)
    y = x.round(decimals=decimals)
    assert type(y.grad_fn).__name__ == "RoundBackward1"
    want = {-2: [0., 0., 0., -0., 0., 0., 0., 0., 0., 1200., -0.],
            -1: [0., 0., 0., -0., 0., 0., 0., 20., 20., 1230., -0.],
            1: [1.2, 2.5, 3.5, -0.1, 0., 1., 2.7, 15., 25., 1234.5, -0.5],
            2: [1.23, 2.5, 3.5, -0.12, 0., 1., 2.68, 15., 25., 1234.5, -0.5],
            3: [1.234, 2.5, 3.5, -0.125, 0.005, 1.005, 2.675, 15., 25., 1234.5, -0.5]}[decimals]
    assert y.tolist() == pytest.approx(want, abs=1e-6)
    y.sum().backward()
    assert x.grad.tolist() == [0.] * len(values)
    z = x.detach().clone()
    assert z.round_(decimals=decimals) is z and z.tolist() == y.tolist()
    assert torch.round(x.detach(), decimals=decimals).tolist() == y.tolist()


def test_round_refuses_integers_and_bools(torch):
    assert torch.tensor([1, 25]).round().tolist() == [1, 25]
    _raises(lambda: torch.tensor([1, 25]).round(decimals=1), NotImplementedError,
            "\"round_cpu\" not implemented for 'Long'")
    for name in ("round", "floor", "ceil", "trunc"):
        _raises(lambda: getattr(torch.tensor([True]), name)(), NotImplementedError,
                f"\"{name}_vml_cpu\" not implemented for 'Bool'")
    assert torch.tensor([1, 2]).floor().tolist() == [1, 2]


def test_mistyped_argument_names_it(torch):
    x = torch.ones(2, 3)
    err = _raises(lambda: torch.exp([1.]), TypeError)
    assert re.search(r"exp\(\): argument 'input' \(position 1\) must be Tensor, not list", str(err))
    err = _raises(lambda: x.sum("a"), TypeError)
    assert "dim" in str(err)
    err = _raises(lambda: torch.clamp([1.], 0, 1), TypeError)
    assert "clamp" in str(err) and "list" in str(err)
    _raises(lambda: torch.cat([1.0]), TypeError)
    _raises(lambda: x.argmax(torch.ones(2)), TypeError)


@pytest.mark.parametrize("dtype,call,message", [
    ("float32", lambda x: x.random_(0), "random_ expects 'from' to be less than 'to', but got from=0 >= to=0"),
    ("float32", lambda x: x.random_(-1), "random_ expects 'from' to be less than 'to', but got from=0 >= to=-1"),
    ("float32", lambda x: x.random_(5, 5), "random_ expects 'from' to be less than 'to', but got from=5 >= to=5"),
    ("int64", lambda x: x.random_(3, 2), "random_ expects 'from' to be less than 'to', but got from=3 >= to=2"),
    ("float32", lambda x: x.random_(to=0), "random_ expects 'from' to be less than 'to', but got from=0 >= to=0"),
    ("uint8", lambda x: x.random_(-1, 3), "from is out of bounds for unsigned char"),
    ("bool", lambda x: x.random_(0, 3), "to - 1 is out of bounds for bool"),
    ("int8", lambda x: x.random_(0, 300), "to - 1 is out of bounds for signed char"),
    ("int32", lambda x: x.random_(-5, 2 ** 40), "to - 1 is out of bounds for int"),
    ("float16", lambda x: x.random_(0, 70000), "to - 1 is out of bounds for c10::Half"),
    ("complex64", lambda x: x.random_(3), "check_random_bounds handles only integral, floating-point and boolean types"),
])
def test_random_refuses_an_empty_or_unrepresentable_range(torch, dtype, call, message):
    x = torch.zeros(3, dtype=getattr(torch, dtype))
    _raises(lambda: call(x), RuntimeError, message)
    assert x.tolist() == torch.zeros(3, dtype=getattr(torch, dtype)).tolist()
    _raises(lambda: call(torch.zeros(0, dtype=getattr(torch, dtype))), RuntimeError, message)


def test_random_overloads_draw_in_their_ranges(torch):
    torch.manual_seed(0)
    x = torch.zeros(2000)
    assert set(x.random_(3).tolist()) == {0., 1., 2.}
    assert set(x.random_(-2, 2).tolist()) == {-2., -1., 0., 1.}
    assert set(x.random_(to=2).tolist()) == {0., 1.}
    assert min(x.random_(5, None).tolist()) >= 5 and max(x.tolist()) > 2 ** 20      # up to 2^24
    assert set(torch.zeros(200, dtype=torch.bool).random_().tolist()) == {False, True}
    assert set(torch.zeros(200, dtype=torch.int8).random_(-128, 128).tolist()) <= set(range(-128, 128))
    for call in (lambda: x.random_(None), lambda: x.random_(to=None), lambda: x.random_(None, 5)):
        _raises(call, TypeError)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x.random_(2 ** 60, 2 ** 60 + 5)
    assert [str(w.message).split(" (Triggered")[0] for w in caught] == [
        f"{name} is out of bounds [-(2^24), 2^24]. Due to precision limitations float can support discrete uniform "
        "distribution only within this range. This warning will become an error in version 1.7 release, please fix "
        "the code in advance" for name in ("from", "to - 1")]


def test_bernoulli_of_probabilities_that_require_grad(torch):
    p = torch.tensor([0.2, 0.7], requires_grad=True)
    y = torch.bernoulli(p)
    assert y.requires_grad and type(y.grad_fn).__name__ == "BernoulliBackward0"
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["AccumulateGrad"]
    (y * torch.tensor([3., 4.])).sum().backward()
    assert p.grad.tolist() == [0., 0.]
    z = torch.bernoulli(p, 0.5)
    assert type(z.grad_fn).__name__ == "NotImplemented"
    assert [type(n).__name__ for n, _ in z.grad_fn.next_functions] == ["AccumulateGrad"]
    _raises(lambda: z.sum().backward(), RuntimeError, "derivative for aten::bernoulli is not implemented")
    with torch.no_grad():
        assert torch.bernoulli(p).grad_fn is None
    assert type(p.bernoulli().grad_fn).__name__ == "BernoulliBackward0"
    assert p.bernoulli(1.0).tolist() == [1., 1.] and p.bernoulli(p=torch.tensor(0.0)).tolist() == [0., 0.]
    assert torch.bernoulli(p, torch.tensor(1.0)).tolist() == [1., 1.]
    _raises(lambda: p.bernoulli(torch.tensor([0.5, 0.5])), TypeError)
    assert sorted(p.multinomial(2).tolist()) == [0, 1] and p.multinomial(3, True).shape == (3,)


@pytest.mark.parametrize("view", [
    "T.arange(24.).reshape(4, 6)[:, ::2].t()", "T.arange(24.).reshape(2, 3, 4).permute(1, 2, 0)",
    "T.arange(24.).reshape(2, 3, 4)[:, 1:, :]", "T.arange(120.).reshape(2, 3, 4, 5).permute(0, 2, 3, 1)",
    "T.arange(120.).reshape(2, 3, 4, 5).permute(0, 2, 3, 1)[:, :, ::2]", "T.arange(6.).reshape(1, 6).t()",
    "T.arange(6.).reshape(6, 1).expand(6, 3)", "T.arange(4.).expand(3, 4)", "T.arange(8.).reshape(2, 1, 4).permute(2, 1, 0)",
    "T.arange(720.).reshape(2, 3, 4, 5, 6).permute(0, 2, 3, 4, 1)[:, :, 1:]", "T.arange(12.).reshape(3, 4).t()[::2]",
    "T.arange(24.).reshape(2, 3, 4).transpose(0, 2)[1:]", "T.arange(4.)",
])
def test_clone_preserves_the_layout_as_torch(view):
    real = pytest.importorskip("torch")
    import flowgrad.torch as ft
    mine, theirs = eval(view, {"T": ft}), eval(view, {"T": real})
    for fmt in (None, "preserve_format", "contiguous_format"):
        kw = {} if fmt is None else {"memory_format": getattr(ft, fmt)}
        a = mine.clone(**kw)
        b = theirs.clone(**({} if fmt is None else {"memory_format": getattr(real, fmt)}))
        assert a.stride() == b.stride() and a.tolist() == b.tolist()
        assert a.is_contiguous() == b.is_contiguous()


def test_randint_like_takes_its_device_dtype_and_requires_grad(torch):
    x = torch.zeros(3)
    y = torch.randint_like(x, 5, requires_grad=True)
    assert y.requires_grad and y.dtype == torch.float32 and y.device == x.device
    assert set(y.tolist()) <= {0.0, 1.0, 2.0, 3.0, 4.0}
    with pytest.raises(RuntimeError, match="Only Tensors of floating point"):
        torch.randint_like(x, 5, dtype=torch.int64, requires_grad=True)
    assert torch.randint_like(x, 5, device="cpu").device.type == "cpu"
