"""`requires_grad` flags, `detach`, `.data` (reference §1.20) and the grad modes `no_grad`,
`enable_grad`, `set_grad_enabled`, `inference_mode` (§1.21)."""
from __future__ import annotations

import re
import threading

import pytest

_FACTORY_INT = "Only Tensors of floating point and complex dtype can require gradients"
_METHOD_INT = "only Tensors of floating point dtype can require gradients"
_SETTER_INT = "only Tensors of floating point and complex dtype can require gradients"
_NON_LEAF = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a "
    "subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)


@pytest.fixture(autouse=True)
def _grad_mode_restored(torch):
    """A failing test here must not leave grad mode off for the tests that follow."""
    yield
    setter = getattr(torch, "set_grad_enabled", None)
    if setter is not None:
        setter(True)


def _in_thread(fn):
    """Run `fn` on a fresh thread and return its result (re-raising its exception here)."""
    box = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - surfaced in the calling thread
            box["error"] = e

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


# --- §1.20 integer tensors cannot require grad ------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda torch: torch.tensor([1, 2], requires_grad=True),
        lambda torch: torch.ones(2, dtype=torch.long, requires_grad=True),
        lambda torch: torch.tensor([True], requires_grad=True),
    ],
    ids=["tensor_int_data", "ones_long", "tensor_bool"],
)
def test_factory_requires_grad_on_non_float_dtype_raises(torch, make):
    with pytest.raises(RuntimeError, match=re.escape(_FACTORY_INT)):
        make(torch)


def test_requires_grad_method_on_int_tensor_raises(torch):
    t = torch.tensor([1, 2])
    with pytest.raises(RuntimeError, match=re.escape(_METHOD_INT)):
        t.requires_grad_()
    assert t.requires_grad is False


def test_requires_grad_setter_on_int_tensor_raises(torch):
    t = torch.tensor([1, 2])
    with pytest.raises(RuntimeError, match=re.escape(_SETTER_INT)):
        t.requires_grad = True
    assert t.requires_grad is False


def test_requires_grad_false_on_int_tensor_is_fine(torch):
    t = torch.tensor([1, 2])
    assert t.requires_grad_(False) is t
    t.requires_grad = False
    assert t.requires_grad is False


def test_float16_and_complex_tensors_can_require_grad(torch):
    assert torch.ones(2, dtype=torch.float16, requires_grad=True).requires_grad is True
    if torch.__name__ == "flowgrad.torch":
        pytest.skip("flowgrad has no complex dtypes yet (float, int and bool only)")
    assert torch.ones(2, dtype=torch.complex64, requires_grad=True).requires_grad is True


def test_mixing_grad_float_and_int_tensor_gives_float_requiring_grad(torch):
    x = torch.ones(2, requires_grad=True)
    r = x * torch.tensor([1, 2])
    assert r.dtype == torch.float32
    assert r.requires_grad is True
    assert type(r.grad_fn).__name__ == "MulBackward0"


def test_comparisons_casts_to_long_and_argmax_never_require_grad(torch):
    x = torch.ones(2, requires_grad=True)
    for r in (x > 0, x == x, x.long(), x.argmax()):
        assert r.requires_grad is False
        assert r.grad_fn is None


# --- §1.20 non-leaf flags, requires_grad_ --------------------------------------------------


def test_requires_grad_false_on_non_leaf_raises(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match=re.escape(_NON_LEAF)):
        y.requires_grad_(False)
    assert y.requires_grad is True
    assert type(y.grad_fn).__name__ == "MulBackward0"


def test_requires_grad_setter_false_on_non_leaf_raises(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match=re.escape(_NON_LEAF)):
        y.requires_grad = False
    assert y.requires_grad is True
    assert y.is_leaf is False


def test_requires_grad_true_on_non_leaf_is_a_noop_returning_self(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    node = y.grad_fn
    assert y.requires_grad_(True) is y
    assert y.requires_grad is True
    assert y.grad_fn is node


def test_requires_grad_method_returns_self_and_defaults_to_true(torch):
    z = torch.ones(2)
    assert z.requires_grad_() is z
    assert z.requires_grad is True
    assert z.is_leaf is True
    assert z.requires_grad_(False) is z
    assert z.requires_grad is False


# --- §1.20 detach, .data -----------------------------------------------------------------------


def test_detach_shares_storage_and_version_counter(torch):
    x = torch.ones(2, requires_grad=True)
    d = x.detach()
    d[0] = 100.0
    assert (x._version, d._version) == (1, 1)
    assert x.tolist() == [100.0, 1.0]


def test_detach_result_flags(torch):
    x = torch.ones(2, requires_grad=True)
    d = (x * 2).detach()
    assert d.requires_grad is False
    assert d.is_leaf is True
    assert d.grad_fn is None
    assert d.tolist() == [2.0, 2.0]


def test_data_is_a_non_tracking_alias(torch):
    x = torch.ones(2, requires_grad=True)
    alias = x.data
    assert alias.requires_grad is False
    assert alias.is_leaf is True
    alias[0] = 7.0
    assert x.tolist() == [7.0, 1.0]
    assert x.requires_grad is True


def test_assigning_data_swaps_contents_and_keeps_requires_grad(torch):
    x = torch.ones(2, requires_grad=True)
    x.data = torch.zeros(3)
    assert x.tolist() == [0.0, 0.0, 0.0]
    assert tuple(x.shape) == (3,)
    assert x.requires_grad is True
    assert x.is_leaf is True


def test_assigning_int_data_to_tensor_requiring_grad_raises(torch):
    x = torch.ones(2, requires_grad=True)
    msg = "data set to a tensor that requires gradients must be floating point or complex dtype"
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        x.data = torch.tensor([1, 2])
    assert x.tolist() == [1.0, 1.0]
    assert x.dtype == torch.float32
    assert x.requires_grad is True


def test_tensor_constructor_from_tensor_requiring_grad_warns(torch):
    x = torch.ones(2, requires_grad=True)
    msg = (
        "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
        "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor)."
    )
    with pytest.warns(UserWarning, match=re.escape(msg)):
        t = torch.tensor(x)
    assert t.tolist() == [1.0, 1.0]
    assert t.requires_grad is False


def test_like_and_new_factories_do_not_inherit_requires_grad(torch):
    x = torch.ones(2, requires_grad=True)
    assert torch.zeros_like(x).requires_grad is False
    assert x.new_zeros(2).requires_grad is False
    assert torch.ones_like(x, requires_grad=True).requires_grad is True


def test_factory_with_requires_grad_inside_no_grad_makes_leaf_requiring_grad(torch):
    with torch.no_grad():
        f = torch.ones(2, requires_grad=True)
    assert f.requires_grad is True
    assert f.is_leaf is True
    assert f.grad_fn is None


def test_legacy_variable_returns_plain_tensor(torch):
    v = torch.autograd.Variable(torch.ones(2), requires_grad=True)
    assert type(v) is torch.Tensor
    assert v.requires_grad is True
    assert isinstance(torch.ones(1), torch.autograd.Variable)


# --- §1.21 no_grad / enable_grad -----------------------------------------------------------


def test_no_grad_class_reports_torch_module_path(torch):
    if torch.__name__ == "flowgrad.torch":
        pytest.skip("the grad-mode classes are shared by all facades and live in flowgrad.autograd.mode")
    assert torch.no_grad.__module__ == "torch.autograd.grad_mode"
    assert torch.no_grad.__qualname__ == "no_grad"


def test_no_grad_class_identity_and_mro(torch):
    assert torch.autograd.no_grad is torch.no_grad
    assert [c.__name__ for c in torch.no_grad.__mro__] == [
        "no_grad",
        "_NoParamDecoratorContextManager",
        "_DecoratorContextManager",
        "object",
    ]


def test_no_grad_context_binds_none(torch):
    with torch.no_grad() as r:
        assert torch.is_grad_enabled() is False
    assert r is None
    assert torch.is_grad_enabled() is True


def test_results_under_no_grad_do_not_track(torch):
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        y = x * 2
    assert y.requires_grad is False
    assert y.grad_fn is None
    assert y.is_leaf is True


def test_no_grad_restores_mode_on_exception(torch):
    with pytest.raises(ValueError):
        with torch.no_grad():
            raise ValueError("inside")
    assert torch.is_grad_enabled() is True


def test_enable_grad_inside_no_grad_re_enables_recording(torch):
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        with torch.enable_grad():
            assert torch.is_grad_enabled() is True
            y = x * 2
        assert torch.is_grad_enabled() is False
    assert y.requires_grad is True
    assert type(y.grad_fn).__name__ == "MulBackward0"


# --- §1.21 decorators --------------------------------------------------------------------------


def test_no_grad_decorator_with_and_without_parentheses(torch):
    x = torch.ones(2, requires_grad=True)

    @torch.no_grad
    def bare(t):
        return t * 2

    @torch.no_grad()
    def called(t):
        return t * 2

    assert bare(x).requires_grad is False
    assert called(x).requires_grad is False
    assert torch.is_grad_enabled() is True


def test_no_grad_called_on_function_decorates_it(torch):
    x = torch.ones(2, requires_grad=True)
    double = torch.no_grad(lambda t: t * 2)
    assert double(x).requires_grad is False
    assert (x * 2).requires_grad is True


def test_enable_grad_decorator_with_and_without_parentheses(torch):
    x = torch.ones(2, requires_grad=True)

    @torch.enable_grad
    def bare(t):
        return t * 2

    @torch.enable_grad()
    def called(t):
        return t * 2

    with torch.no_grad():
        assert bare(x).requires_grad is True
        assert called(x).requires_grad is True
        assert torch.is_grad_enabled() is False


def test_inference_mode_decorator_with_and_without_parentheses(torch):
    x = torch.ones(2, requires_grad=True)

    @torch.inference_mode
    def bare(t):
        return t * 2, torch.is_inference_mode_enabled()

    @torch.inference_mode()
    def called(t):
        return t * 2

    out, enabled = bare(x)
    assert enabled is True
    assert out.is_inference() is True
    assert out.requires_grad is False
    assert called(x).is_inference() is True
    assert torch.is_inference_mode_enabled() is False


def test_set_grad_enabled_decorator_does_not_change_mode_at_decoration(torch):
    x = torch.ones(2, requires_grad=True)

    @torch.set_grad_enabled(False)
    def f4(t):
        return t * 2

    assert torch.is_grad_enabled() is True
    assert (f4(x).requires_grad, torch.is_grad_enabled()) == (False, True)


def test_decorators_preserve_function_name(torch):
    def my_function(t):
        return t

    assert torch.no_grad()(my_function).__name__ == "my_function"
    assert torch.no_grad(my_function).__name__ == "my_function"
    assert torch.enable_grad()(my_function).__name__ == "my_function"
    assert torch.inference_mode()(my_function).__name__ == "my_function"


def test_no_grad_decorated_generator_applies_mode_around_each_resume(torch):
    def gen():
        for _ in range(2):
            yield torch.is_grad_enabled()

    seen = [(inside, torch.is_grad_enabled()) for inside in torch.no_grad()(gen)()]
    assert seen == [(False, True), (False, True)]


def test_decorating_a_class_warns(torch):
    msg = (
        "Decorating classes is deprecated and will be disabled in future versions. You should only decorate "
        "functions or methods. To preserve the current behavior of class decoration, you can directly "
        "decorate the `__init__` method and nothing else."
    )
    with pytest.warns(FutureWarning, match=re.escape(msg)):

        @torch.no_grad()
        class Decorated:
            pass


# --- §1.21 set_grad_enabled --------------------------------------------------------------------


def test_set_grad_enabled_called_as_function_persists(torch):
    try:
        torch.set_grad_enabled(False)
        assert torch.is_grad_enabled() is False
        x = torch.ones(2, requires_grad=True)
        assert (x * 2).requires_grad is False
    finally:
        torch.set_grad_enabled(True)
    assert torch.is_grad_enabled() is True


def test_set_grad_enabled_context_restores_previous_mode(torch):
    with torch.set_grad_enabled(False):
        assert torch.is_grad_enabled() is False
    assert torch.is_grad_enabled() is True
    with torch.no_grad():
        with torch.set_grad_enabled(True):
            assert torch.is_grad_enabled() is True
        assert torch.is_grad_enabled() is False


def test_set_grad_enabled_call_inside_its_context_is_undone_at_exit(torch):
    try:
        with torch.set_grad_enabled(True):
            torch.set_grad_enabled(False)
            assert torch.is_grad_enabled() is False
        assert torch.is_grad_enabled() is True
    finally:
        torch.set_grad_enabled(True)


def test_set_grad_enabled_rejects_non_bool(torch):
    msg = "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not str"
    with pytest.raises(TypeError, match=re.escape(msg)):
        torch.set_grad_enabled("yes")
    assert torch.is_grad_enabled() is True


def test_set_grad_enabled_requires_mode_argument(torch):
    msg = "set_grad_enabled.__init__() missing 1 required positional argument: 'mode'"
    with pytest.raises(TypeError, match=re.escape(msg)):
        torch.set_grad_enabled()
    assert torch.is_grad_enabled() is True


# --- §1.21 thread-locality ---------------------------------------------------------------------


def test_thread_started_inside_no_grad_has_grad_enabled(torch):
    with torch.no_grad():
        seen = _in_thread(lambda: torch.is_grad_enabled())
        assert torch.is_grad_enabled() is False
    assert seen is True


def test_thread_started_inside_inference_mode_is_not_in_inference_mode(torch):
    with torch.inference_mode():
        seen = _in_thread(lambda: (torch.is_grad_enabled(), torch.is_inference_mode_enabled()))
    assert seen == (True, False)


def test_set_grad_enabled_in_thread_does_not_affect_main_thread(torch):
    def disable():
        torch.set_grad_enabled(False)
        return torch.is_grad_enabled()

    assert _in_thread(disable) is False
    assert torch.is_grad_enabled() is True


# --- §1.21 inference_mode ----------------------------------------------------------------------


def test_inference_mode_disables_grad_and_enables_inference(torch):
    assert torch.is_inference_mode_enabled() is False
    with torch.inference_mode():
        assert torch.is_grad_enabled() is False
        assert torch.is_inference_mode_enabled() is True
    assert torch.is_grad_enabled() is True
    assert torch.is_inference_mode_enabled() is False


def test_tensors_created_in_inference_mode_are_inference_tensors(torch):
    with torch.inference_mode():
        t = torch.ones(2)
    assert t.is_inference() is True
    assert torch.is_inference(t) is True
    assert torch.ones(2).is_inference() is False


def test_inference_mode_false_nests_to_disable(torch):
    with torch.inference_mode():
        with torch.inference_mode(False):
            assert torch.is_inference_mode_enabled() is False
            assert torch.is_grad_enabled() is True
            t = torch.ones(2)
        assert torch.is_inference_mode_enabled() is True
    assert t.is_inference() is False


def test_no_grad_does_not_enable_inference_mode(torch):
    with torch.no_grad():
        assert torch.is_inference_mode_enabled() is False
        t = torch.ones(2)
    assert t.is_inference() is False


def test_inference_tensor_cannot_be_saved_for_backward(torch):
    with torch.inference_mode():
        t = torch.ones(2)
    x = torch.ones(2, requires_grad=True)
    msg = (
        "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
        "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and "
        "use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`."
    )
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        x * t
    assert x.grad is None


def test_inference_tensor_in_op_that_saves_nothing_is_fine(torch):
    with torch.inference_mode():
        t = torch.ones(2)
    x = torch.ones(2, requires_grad=True)
    y = x + t
    assert type(y.grad_fn).__name__ == "AddBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_inplace_update_of_inference_tensor_outside_inference_mode_raises(torch):
    with torch.inference_mode():
        t = torch.ones(2)
    msg = (
        "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
        "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details."
    )
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        t.add_(1)
    assert t.is_inference() is True


def test_inference_tensor_has_no_version_counter(torch):
    with torch.inference_mode():
        t = torch.ones(2)
    with pytest.raises(RuntimeError, match=re.escape("Inference tensors do not track version counter.")):
        t._version


def test_clone_of_inference_tensor_outside_is_a_normal_tensor(torch):
    with torch.inference_mode():
        t = torch.ones(2)
    c = t.clone()
    assert c.is_inference() is False
    c.add_(1)
    assert c.tolist() == [2.0, 2.0]
