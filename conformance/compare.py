"""Comparing two observations value by value, and matching an observation against declared data.

A difference has a kind, in decreasing priority: "exception" (a step raised in one and not the
other, or with another builtin type or message), "dtype", "gradient" (a value whose label contains
"grad") and "value". Floats compare with rtol 1e-5, atol 1e-6; NaN equals NaN.
"""
from __future__ import annotations

import builtins
import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from .expect import OK, Raises, Tensor, _Ok

KINDS = ("exception", "dtype", "gradient", "value")
RTOL, ATOL = 1e-5, 1e-6
MISSING = {"missing": True}


@dataclass(frozen=True)
class Diff:
    """One differing value: its label, the kind of difference, and both sides (plain data)."""

    key: str
    kind: str
    observed: Any
    reference: Any

    def to_json(self) -> dict:
        return {"key": self.key, "kind": self.kind, "observed": self.observed, "reference": self.reference}


def _num(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if v in ("nan", "inf", "-inf"):
        return float(v)
    return None


def _close(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b or abs(a - b) <= ATOL + RTOL * abs(b)


def _array(data: list) -> np.ndarray:
    return np.array([float(v) if isinstance(v, str) else v for v in data])


def _tensor_kind(a: dict, b: dict, value_kind: str) -> str | None:
    if a["dtype"] != b["dtype"]:
        return "dtype"
    if a["shape"] != b["shape"]:
        return value_kind
    x, y = _array(a["data"]), _array(b["data"])
    if x.dtype.kind == "b" or y.dtype.kind == "b" or x.dtype.kind in "iu" and y.dtype.kind in "iu":
        return None if np.array_equal(x, y) else value_kind
    return None if np.allclose(x, y, rtol=RTOL, atol=ATOL, equal_nan=True) else value_kind


def value_kind(a: Any, b: Any, value_kind_: str = "value") -> str | None:
    """The kind of difference between two encoded values, or None when they agree."""
    if isinstance(a, dict) and isinstance(b, dict):
        if "tensor" in a and "tensor" in b:
            return _tensor_kind(a["tensor"], b["tensor"], value_kind_)
        if ("ok" in a or "raised" in a) and ("ok" in b or "raised" in b):
            if "ok" in a and "ok" in b:
                return None
            if "raised" in a and "raised" in b:
                ra, rb = a["raised"], b["raised"]
                same = ra["builtin"] == rb["builtin"] and ra["message"] == rb["message"]
                return None if same else "exception"
            return "exception"
        if "warning" in a and "warning" in b:
            return None if a["warning"] == b["warning"] else value_kind_
        if a.keys() != b.keys():
            return value_kind_
        kinds = [value_kind(a[k], b[k], value_kind_) for k in a]
        return _worst(kinds)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return value_kind_
        return _worst([value_kind(x, y, value_kind_) for x, y in zip(a, b)])
    na, nb = _num(a), _num(b)
    if na is not None and nb is not None:
        return None if _close(na, nb) else value_kind_
    if (isinstance(a, dict) and ("ok" in a or "raised" in a)) or (isinstance(b, dict) and ("ok" in b or "raised" in b)):
        return "exception"
    return None if a == b and type(a) is type(b) else value_kind_


def _worst(kinds: list) -> str | None:
    found = [k for k in kinds if k]
    return min(found, key=KINDS.index) if found else None


def is_gradient_label(key: str) -> bool:
    return "grad" in key.lower()


def diff_values(observed: dict, reference: dict) -> list[Diff]:
    """Every label whose value differs between two observations' values."""
    diffs = []
    for key in list(reference) + [k for k in observed if k not in reference]:
        a, b = observed.get(key, MISSING), reference.get(key, MISSING)
        kind = value_kind(a, b, "gradient" if is_gradient_label(key) else "value")
        if kind:
            diffs.append(Diff(key, kind, a, b))
    return diffs


def worst_kind(diffs: list[Diff]) -> str:
    return _worst([d.kind for d in diffs]) or "value"


# --------------------------------------------------------------------------- declared outcomes

def matches(spec: Any, observed: Any) -> bool:
    """Whether an observed (encoded) value is what an expectation declares (see expect.py)."""
    if isinstance(spec, _Ok):
        return observed == {"ok": True}
    if isinstance(spec, Raises):
        if not (isinstance(observed, dict) and "raised" in observed):
            return False
        raised = observed["raised"]
        got = getattr(builtins, raised["builtin"], None)
        want = getattr(builtins, spec.type)
        return (isinstance(got, type) and issubclass(got, want)
                and re.search(spec.match, raised["message"]) is not None)
    if isinstance(spec, Tensor):
        if not (isinstance(observed, dict) and "tensor" in observed):
            return False
        if spec.dtype and observed["tensor"]["dtype"] != spec.dtype:
            return False
        return matches(spec.data, observed)
    if isinstance(observed, dict) and "tensor" in observed:
        if not isinstance(spec, (list, int, float)) or isinstance(spec, bool):
            return False
        t = observed["tensor"]
        want = np.asarray(spec, dtype=float)
        if list(want.shape) != t["shape"]:
            return False
        return bool(np.allclose(_array(t["data"]).reshape(want.shape) if t["data"] else want, want,
                                rtol=RTOL, atol=ATOL, equal_nan=True))
    if isinstance(spec, (list, tuple)):
        return (isinstance(observed, list) and len(spec) == len(observed)
                and all(matches(s, o) for s, o in zip(spec, observed)))
    if isinstance(spec, dict):
        return (isinstance(observed, dict) and spec.keys() == observed.keys()
                and all(matches(spec[k], observed[k]) for k in spec))
    ns, no = _num(spec), _num(observed)
    if ns is not None and no is not None:
        return _close(no, ns)
    return spec == observed and type(spec) is type(observed)


def describe(value: Any, limit: int = 160) -> str:
    """A short human-readable rendering of an encoded value (for reports)."""
    if isinstance(value, dict):
        if value is MISSING or value == MISSING:
            return "(missing)"
        if "tensor" in value:
            t = value["tensor"]
            data = np.array(t["data"], dtype=object).reshape(t["shape"]).tolist() if t["data"] else []
            text = f"tensor({data}, dtype={t['dtype']})"
        elif "ok" in value:
            text = "ok"
        elif "raised" in value:
            r = value["raised"]
            text = f"raises {r['type']}: {r['message']}"
        elif "warning" in value:
            text = f"warns {value['warning']['category']}: {value['warning']['message']}"
        else:
            text = "{" + ", ".join(f"{k}: {describe(v, limit)}" for k, v in value.items()) + "}"
    elif isinstance(value, list):
        text = "[" + ", ".join(describe(v, limit) for v in value) + "]"
    else:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


__all__ = ["Diff", "KINDS", "OK", "describe", "diff_values", "matches", "value_kind", "worst_kind"]
