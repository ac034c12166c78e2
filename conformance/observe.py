"""Running one scenario on one adapter and turning what happened into plain, JSON-ready data.

An observation is one of
    {"status": "ok", "values": {label: value, ...}}
    {"status": "unsupported", "detail": "..."}
    {"status": "error", "detail": "Type: message", "traceback": "..."}
Values: tensors become {"tensor": {"dtype", "shape", "data"}}, step outcomes {"ok": true} or
{"raised": {"type", "builtin", "message"}}, warnings {"warning": {"category", "message"}};
non-finite floats are the strings "nan", "inf", "-inf".
"""
from __future__ import annotations

import builtins
import math
import re
import tempfile
import traceback
import warnings
from typing import Any

import numpy as np

from .adapters.base import Adapter, StepRecord, Unsupported, WarningRecord
from .scenario import Scenario

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_PADDLE_NAMES = re.compile(r"\b(generated_tensor|eager_tmp|tmp)_\d+\b")
_PADDLE_AT = re.compile(r"\s*\(at [^)]*\)\s*$")
_TMP = re.compile(r"(?:%s|/tmp)/tmp\w+" % re.escape(tempfile.gettempdir()))
_STACK_BLOCK = re.compile(r"\n[ \t]*At:\n(?:[ \t]+\S.*\(\d+\): .*(?:\n|$))*")   # paddle's Python stack


def normalize_message(message: str) -> str:
    """The comparable part of an exception message: ANSI colours, C++ locations and hints, object
    addresses and auto-generated tensor names removed; OneFlow's appended C++ frames cut."""
    text = _STACK_BLOCK.sub("\n", _ANSI.sub("", message))
    for cut in ("\n  [Hint:", "\n[Hint:", "  [Hint:", "\n  File \"", "\nError Type: oneflow"):
        pos = text.find(cut)
        if pos >= 0:
            text = text[:pos]
    text = re.sub(r"\s*\(Triggered internally at [^)]*\)", "", text)
    text = _PADDLE_AT.sub("", text)
    text = _TMP.sub("<tmpdir>", text)        # before addresses: a temp name may hold "0x1f"
    text = _HEX.sub("0x?", text)
    text = _PADDLE_NAMES.sub(lambda m: f"{m.group(1)}_?", text)
    if text.startswith("Error: "):          # OneFlow's RuntimeError-typed messages
        text = text[len("Error: "):]
    return text.strip()


def builtin_base(exc_type: type) -> str:
    """The nearest builtin class in the exception's MRO ("RuntimeError" for GradcheckError)."""
    for cls in exc_type.__mro__:
        if getattr(builtins, cls.__name__, None) is cls:
            return cls.__name__
    return "Exception"


def encode_exception(exc: BaseException) -> dict:
    t = type(exc)
    return {"type": f"{t.__module__}.{t.__qualname__}" if t.__module__ != "builtins" else t.__qualname__,
            "builtin": builtin_base(t), "message": normalize_message(str(exc))}


class EncodeError(TypeError):
    """A scenario returned something that is not comparable data."""


def _float(v: float) -> Any:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def encode(value: Any, fw: Adapter) -> Any:
    """Plain data for one returned value (see the module docstring)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return _float(float(value))
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, StepRecord):
        return {"ok": True} if value.ok else {"raised": encode_exception(value.exception)}
    if isinstance(value, WarningRecord):
        return {"warning": {"category": value.category, "message": normalize_message(value.message)}}
    if isinstance(value, (list, tuple)):
        return [encode(v, fw) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v, fw) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return encode_array(value)
    if fw.is_tensor(value):
        return encode_array(fw.to_numpy(value))
    raise EncodeError(f"cannot compare a {type(value).__module__}.{type(value).__qualname__}")


def encode_array(arr: np.ndarray) -> dict:
    dtype = str(arr.dtype)
    flat = arr.reshape(-1).tolist()
    if arr.dtype.kind == "f":
        flat = [_float(v) for v in flat]
    return {"tensor": {"dtype": dtype, "shape": list(arr.shape), "data": flat}}


def observe(sc: Scenario, fw: Adapter) -> dict:
    """Run `sc` on `fw` and return its observation (never raises for a scenario's own failure)."""
    missing = sorted(f for f in sc.needs if not fw.supports(f))
    if missing:
        return {"status": "unsupported", "detail": f"{fw.family} has no " + ", ".join(missing)}
    fw.begin()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # fw.warns() records the warnings a scenario asks for
            returned = sc.fn(fw)
        values = {label: encode(rec, fw) for label, rec in fw.recorded().items()}
        if returned is not None:
            if not isinstance(returned, dict):
                raise EncodeError(f"a scenario returns a dict of values, not {type(returned).__name__}")
            for key, value in returned.items():
                if key in values:
                    raise EncodeError(f"returned key {key!r} is also a step label")
                values[key] = encode(value, fw)
        if not values:
            raise EncodeError("the scenario observed nothing (no steps, no values)")
        return {"status": "ok", "values": values}
    except Unsupported as exc:
        return {"status": "unsupported", "detail": str(exc)}
    except Exception as exc:  # noqa: BLE001 - a scenario's failure is its error cell
        first = (str(exc).strip().splitlines() or [""])[0]
        return {"status": "error", "detail": f"{type(exc).__name__}: {first}",
                "traceback": _short_traceback(exc)}
    finally:
        try:
            fw.reset()
        except Exception:  # noqa: BLE001 - a broken reset must not hide the observation
            pass


def _short_traceback(exc: BaseException, limit: int = 6) -> str:
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-limit)
    return "".join(lines)[-4000:]


def observe_function(fn, fw: Adapter, needs: tuple = ()) -> dict:
    """Observe a plain scenario function (as a reproducer program does)."""
    from .scenario import Scenario
    return observe(Scenario(f"adhoc.{fn.__name__}", "adhoc", "", fn, needs=frozenset(needs)), fw)
