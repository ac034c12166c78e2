"""Reference §1.22: anomaly detection (detect_anomaly, set_detect_anomaly, NaN checks, forward tracebacks)."""
from __future__ import annotations

import re
import warnings

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


ENABLED = ("Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled for "
           "debugging.")
HINT_ANOMALY = ("Hint: the backtrace further above shows the operation that failed to compute its gradient. The "
                "variable in question was changed in there or anywhere later. Good luck!")
TRIGGERED = r" \(Triggered internally at [^)]*\.\)$"


def anomaly_warnings(record) -> list[str]:
    return [str(w.message) for w in record if issubclass(w.category, UserWarning)
            and str(w.message).startswith("Error detected in")]


def test_defaults(torch):
    assert torch.is_anomaly_enabled() is False
    assert torch.is_anomaly_check_nan_enabled() is True


def test_detect_anomaly_warns_and_switches_on_within_the_block(torch):
    with pytest.warns(UserWarning, match=exact(ENABLED)):
        ctx = torch.autograd.detect_anomaly()
    with ctx:
        assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (True, True)
    assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (False, True)
    with pytest.warns(UserWarning, match=exact(ENABLED)):
        with torch.autograd.detect_anomaly(check_nan=False):
            assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (True, False)
    assert torch.is_anomaly_check_nan_enabled() is True


def test_detect_anomaly_is_not_a_decorator(torch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ctx = torch.autograd.detect_anomaly()
    with pytest.raises(TypeError, match=exact("'detect_anomaly' object is not callable")):
        ctx(lambda: None)


def test_set_detect_anomaly_sets_now_and_restores_as_context_manager(torch):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.autograd.set_detect_anomaly(True)
        try:
            assert torch.is_anomaly_enabled() is True
        finally:
            torch.autograd.set_detect_anomaly(False)
        assert torch.is_anomaly_enabled() is False
        with torch.autograd.set_detect_anomaly(True, check_nan=False):
            assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (True, False)
        assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (False, True)


def test_nan_in_backward_raises_after_warning_with_forward_traceback(torch):
    x = torch.tensor([0., 1.], requires_grad=True)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly():
            y = (x.sqrt() * 0).sum()
            with pytest.raises(RuntimeError, match=exact("Function 'SqrtBackward0' returned nan values in its 0th "
                                                         "output.")):
                y.backward()
    (msg,) = anomaly_warnings(record)
    assert msg.startswith("Error detected in SqrtBackward0. Traceback of forward call that caused the error:\n")
    assert '  File "' + __file__ + '"' in msg
    assert "\n    y = (x.sqrt() * 0).sum()\n" in msg
    assert re.search(TRIGGERED, msg)
    assert x.grad is None


def test_nan_grads_pass_silently_without_anomaly_mode_or_with_check_nan_off(torch):
    x = torch.tensor([0., 1.], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (x.sqrt() * 0).sum().backward()
        assert x.grad[0].item() != x.grad[0].item() and x.grad[1].item() == 0.
        x.grad = None
        with torch.autograd.detect_anomaly(check_nan=False):
            (x.sqrt() * 0).sum().backward()
    assert x.grad[0].item() != x.grad[0].item()


def test_inplace_error_in_anomaly_mode_changes_hint_and_names_the_node(torch):
    a = torch.tensor([1., 2.], requires_grad=True)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly():
            b = a * 2
            c = b ** 2
            b.add_(1)
            with pytest.raises(RuntimeError, match=exact(
                    "one of the variables needed for gradient computation has been modified by an inplace operation: "
                    "[torch.FloatTensor [2]], which is output 0 of Add, is at version 1; expected version 0 instead. "
                    + HINT_ANOMALY)):
                c.sum().backward()
    (msg,) = anomaly_warnings(record)
    assert msg.startswith("Error detected in PowBackward0. Traceback of forward call that caused the error:\n")
    assert "\n    c = b ** 2\n" in msg


def test_node_recorded_outside_anomaly_mode_has_no_traceback(torch):
    x = torch.tensor([0., 1.], requires_grad=True)
    y = (x.sqrt() * 0).sum()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly():
            with pytest.raises(RuntimeError, match="returned nan values"):
                y.backward()
    (msg,) = anomaly_warnings(record)
    assert re.match(r"^Error detected in SqrtBackward0\. No forward pass information available\. Enable detect "
                    r"anomaly during forward pass for more information\." + TRIGGERED, msg)


def test_error_in_custom_backward_is_reported_then_propagates(torch):
    class Boom(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            raise ValueError("boom")

    x = torch.ones(2, requires_grad=True)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly():
            y = Boom.apply(x).sum()
            with pytest.raises(ValueError, match=exact("boom")):
                y.backward(retain_graph=True)
    (msg,) = anomaly_warnings(record)
    assert msg.startswith("Error detected in BoomBackward. Traceback of forward call that caused the error:\n")
    assert "\n    y = Boom.apply(x).sum()\n" in msg
    assert x.grad is None


def test_graph_stays_usable_after_anomaly_error_with_retain_graph(torch):
    x = torch.tensor([0., 1.], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly():
            y = (x.sqrt() * 0).sum()
            with pytest.raises(RuntimeError, match="returned nan values"):
                y.backward(retain_graph=True)
        y.backward()
    assert x.grad[1].item() == 0.
