"""Outcome classification: comparing observations and judging cells (agree, expected difference,
value/gradient/dtype/exception differs, known defect, stale, unsupported, error, baseline)."""
from __future__ import annotations

import pytest

from conformance import known_defects
from conformance.compare import diff_values, matches, value_kind
from conformance.expect import OK, Expect, Raises, Tensor
from conformance.known_defects import KnownDefect
from conformance.scenario import Scenario
from conformance.verdict import (AGREE, BASELINE, DEFECT, DTYPE, ERROR, EXCEPTION, EXPECTED, GRADIENT, SKIPPED,
                                 STALE, UNSUPPORTED, VALUE, Reference, judge)

DOC = "https://example.org/doc"


def t(data, dtype="float32", shape=None):
    return {"tensor": {"dtype": dtype, "shape": shape if shape is not None else [len(data)], "data": data}}


def raised(builtin, message):
    return {"raised": {"type": builtin, "builtin": builtin, "message": message}}


def ok(**values):
    return {"status": "ok", "values": values}


def sc(expect=()):
    return Scenario("group.case", "backward_args", "a case", lambda fw: None, tuple(expect))


TORCH = ok(step={"ok": True}, **{"x.grad": t([2., 4.])})


def cell(observation, impl="paddle", family="paddle", is_facade=False, pair=None, baseline=TORCH,
         scenario=None, is_baseline=False, version="3.3.1"):
    base = Reference("torch", baseline) if baseline is not None else None
    pair_ref = Reference(impl.replace("flowgrad.", ""), pair) if pair is not None else None
    return judge(scenario or sc(), impl, family, version, is_facade, observation, pair_ref, base, is_baseline)


def test_equal_tensors_agree_within_tolerance():
    assert value_kind(t([1.0, 2.0]), t([1.0 + 1e-7, 2.0])) is None


def test_dtype_difference_is_its_own_kind():
    assert value_kind(t([1.0]), t([1.0], dtype="float64")) == "dtype"


def test_gradient_labels_give_gradient_kind():
    diffs = diff_values({"x.grad": t([1.0]), "y": t([1.0])}, {"x.grad": t([3.0]), "y": t([5.0])})
    assert {d.key: d.kind for d in diffs} == {"x.grad": "gradient", "y": "value"}


def test_step_raising_on_one_side_is_an_exception_difference():
    assert value_kind(raised("RuntimeError", "boom"), {"ok": True}) == "exception"


def test_exception_message_or_type_difference():
    assert value_kind(raised("RuntimeError", "a"), raised("RuntimeError", "b")) == "exception"
    assert value_kind(raised("RuntimeError", "a"), raised("ValueError", "a")) == "exception"
    assert value_kind(raised("RuntimeError", "a"), raised("RuntimeError", "a")) is None


def test_nan_equals_nan_and_shapes_matter():
    assert value_kind(t(["nan", 1.0]), t(["nan", 1.0])) is None
    assert value_kind(t([1.0, 1.0], shape=[2]), t([1.0, 1.0], shape=[2, 1])) == "value"


def test_missing_key_is_a_difference():
    assert [d.key for d in diff_values({"a": 1}, {"a": 1, "b": 2})] == ["b"]


def test_matches_declared_values():
    assert matches(OK, {"ok": True})
    assert matches(Raises("RuntimeError", "^boo"), raised("RuntimeError", "boom"))
    assert matches(Raises("Exception", "boom"), raised("RuntimeError", "boom"))      # subclasses match
    assert not matches(Raises("ValueError", "boom"), raised("RuntimeError", "boom"))
    assert matches([2., 4.], t([2., 4.]))
    assert not matches([2., 5.], t([2., 4.]))
    assert matches(Tensor([2, 2], dtype="int64"), t([2, 2], dtype="int64"))
    assert not matches(Tensor([2, 2], dtype="int64"), t([2, 2]))


def test_agree():
    assert cell(TORCH).status == AGREE


def test_undeclared_differences_are_classified_by_worst_kind():
    assert cell(ok(step={"ok": True}, **{"x.grad": t([9., 9.])})).status == GRADIENT
    assert cell(ok(step={"ok": True}, **{"x.grad": t([2., 4.], dtype="float64")})).status == DTYPE
    assert cell(ok(step=raised("SystemError", "freed"), **{"x.grad": t([9., 9.])})).status == EXCEPTION
    assert cell(ok(step={"ok": True}, **{"x.grad": t([2., 4.])}, extra=1)).status == VALUE


def test_declared_difference_is_expected():
    exp = Expect("paddle", "paddle differs", DOC, {"step": Raises("SystemError", "freed")})
    c = cell(ok(step=raised("SystemError", "graph freed"), **{"x.grad": t([2., 4.])}), scenario=sc([exp]))
    assert c.status == EXPECTED and c.expect is exp


def test_declared_difference_with_other_values_is_not_expected():
    exp = Expect("paddle", "paddle differs", DOC, {"step": Raises("SystemError", "freed")})
    c = cell(ok(step=raised("ValueError", "other"), **{"x.grad": t([2., 4.])}), scenario=sc([exp]))
    assert c.status == EXCEPTION


def test_difference_beyond_the_declared_keys_fails():
    exp = Expect("paddle", "paddle differs", DOC, {"step": Raises("SystemError", "freed")})
    c = cell(ok(step=raised("SystemError", "freed"), **{"x.grad": t([7., 7.])}), scenario=sc([exp]))
    assert c.status == GRADIENT and "undeclared" in c.note


def test_expectation_that_now_agrees_is_stale_like_xpass():
    exp = Expect("paddle", "paddle differs", DOC, {"step": Raises("SystemError", "freed")})
    c = cell(TORCH, scenario=sc([exp]))
    assert c.status == STALE and c.failing


def test_partially_stale_expectation_is_stale():
    exp = Expect("paddle", "paddle differs", DOC, {"step": Raises("SystemError", "freed"), "x.grad": [1., 1.]})
    c = cell(ok(step=raised("SystemError", "freed"), **{"x.grad": t([2., 4.])}), scenario=sc([exp]))
    assert c.status == STALE and "x.grad" in c.note


def test_expectation_outside_its_version_range_does_not_apply():
    exp = Expect("paddle", "old paddle differs", DOC, {"step": Raises("SystemError", "freed")}, versions="<3")
    c = cell(ok(step=raised("SystemError", "freed"), **{"x.grad": t([2., 4.])}), scenario=sc([exp]))
    assert c.status == EXCEPTION


def test_expectation_of_another_family_does_not_apply():
    exp = Expect("oneflow", "oneflow differs", DOC, {"step": Raises("Exception", "released")})
    c = cell(ok(step=raised("SystemError", "freed"), **{"x.grad": t([2., 4.])}), scenario=sc([exp]))
    assert c.status == EXCEPTION


def test_facade_must_match_its_framework_exactly():
    real = ok(step=raised("SystemError", "freed"), **{"x.grad": t([2., 4.])})
    facade = ok(step=raised("SystemError", "freed, differently"), **{"x.grad": t([2., 4.])})
    exp = Expect("paddle", "paddle differs", DOC, {"step": Raises("SystemError", "freed")})
    c = cell(facade, impl="flowgrad.paddle", is_facade=True, pair=real, scenario=sc([exp]))
    assert c.status == EXCEPTION and c.against == "paddle"


def test_known_defect_covers_a_facade_disagreement(monkeypatch):
    defect = KnownDefect("group.case", "flowgrad.paddle", "the facade differs")
    monkeypatch.setattr(known_defects, "KNOWN_DEFECTS", (defect,))
    real = TORCH
    facade = ok(step={"ok": True}, **{"x.grad": t([0., 0.])})
    c = cell(facade, impl="flowgrad.paddle", is_facade=True, pair=real)
    assert c.status == DEFECT and not c.failing and c.defect is defect


def test_fixed_known_defect_is_stale(monkeypatch):
    monkeypatch.setattr(known_defects, "KNOWN_DEFECTS", (KnownDefect("group.case", "flowgrad.paddle", "x"),))
    c = cell(TORCH, impl="flowgrad.paddle", is_facade=True, pair=TORCH)
    assert c.status == STALE and c.failing


def test_known_defect_covers_a_facade_error(monkeypatch):
    monkeypatch.setattr(known_defects, "KNOWN_DEFECTS", (KnownDefect("group.case", "flowgrad.paddle", "x"),))
    c = cell({"status": "error", "detail": "AttributeError: x"}, impl="flowgrad.paddle", is_facade=True, pair=TORCH)
    assert c.status == DEFECT


def test_unsupported_error_baseline_skipped():
    assert cell({"status": "unsupported", "detail": "no inputs="}).status == UNSUPPORTED
    assert cell({"status": "error", "detail": "KeyError: 1"}).status == ERROR
    assert cell(TORCH, impl="torch", family="torch", is_baseline=True).status == BASELINE
    assert cell(TORCH, baseline={"status": "unsupported", "detail": ""}).status == SKIPPED


def test_expect_validates_its_data():
    with pytest.raises(ValueError):
        Expect("torch", "torch is the baseline", DOC, {"a": 1})
    with pytest.raises(ValueError):
        Expect("paddle", "no link", "see the docs", {"a": 1})
    with pytest.raises(ValueError):
        Expect("paddle", "nothing declared", DOC, {})
    with pytest.raises(ValueError):
        Expect("paddle", "bad range", DOC, {"a": 1}, versions="~3")
    with pytest.raises(ValueError):
        Raises("NoSuchError", "")


@pytest.mark.parametrize("name", ["tmpk0x1fab", "tmpabcdefg", "tmp_1234567"])
def test_temporary_paths_compare_equal_whatever_their_random_name(name):
    import tempfile

    from conformance.observe import normalize_message
    base = tempfile.gettempdir()
    assert normalize_message(f" path:'{base}/{name}/f' must be directory ") == "path:'<tmpdir>/f' must be directory"
