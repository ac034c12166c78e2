"""PyTorch's tensor print format: `tensor([1.5000, 2.2500], requires_grad=True)`."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass
class PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


OPTS = PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None,
                     sci_mode=None) -> None:
    if profile == "default":
        OPTS.__init__()
    elif profile == "short":
        OPTS.__init__(precision=2, threshold=1000, edgeitems=2, linewidth=80)
    elif profile == "full":
        OPTS.__init__(threshold=math.inf)
    for k, v in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                 ("linewidth", linewidth)):
        if v is not None:
            setattr(OPTS, k, v)
    OPTS.sci_mode = sci_mode


class _Formatter:
    def __init__(self, values: np.ndarray):
        self.floating = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        p = OPTS.precision
        flat = values.reshape(-1)
        if not self.floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(str(v)))
            return
        vals = flat.astype(np.float64)
        finite = vals[np.isfinite(vals) & (vals != 0)]
        if finite.size == 0:
            return
        nz = np.abs(finite)
        lo, hi = float(nz.min()), float(nz.max())
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        if self.int_mode:
            if hi / lo > 1000.0 or hi > 1.0e8:
                self.sci_mode = True
                strs = [f"{v:.{p}e}" for v in finite.tolist()]
            else:
                strs = [f"{v:.0f}." for v in finite.tolist()]
        else:
            if hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4:
                self.sci_mode = True
                strs = [f"{v:.{p}e}" for v in finite.tolist()]
            else:
                strs = [f"{v:.{p}f}" for v in finite.tolist()]
        self.max_width = max(len(s) for s in strs)
        if OPTS.sci_mode is not None:
            self.sci_mode = OPTS.sci_mode

    @staticmethod
    def _int_str(v: float) -> str:
        s = f"{v:.0f}"
        return s if math.isnan(v) or math.isinf(v) else s + "."

    def _value_str(self, v) -> str:
        if not self.floating:
            return str(v)
        p = OPTS.precision
        if self.sci_mode:
            return f"{v:.{p}e}"
        if self.int_mode:
            return self._int_str(v)
        return f"{v:.{p}f}"

    def format(self, v) -> str:
        s = self._value_str(v)
        return " " * (self.max_width - len(s)) + s


def _summarized(a: np.ndarray) -> np.ndarray:
    e = OPTS.edgeitems
    if a.ndim == 0:
        return a
    if a.shape[0] > 2 * e:
        a = np.concatenate([a[:e], a[-e:]])
    if a.ndim == 1:
        return a
    return np.stack([_summarized(x) for x in a]) if a.shape[0] else a


def _tensor_str(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    e = OPTS.edgeitems
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        element_length = fmt.max_width + 2
        per_line = max(1, int(math.floor((OPTS.linewidth - indent) / element_length)))
        items = a.tolist()
        if summarize and len(items) > 2 * e:
            data = [fmt.format(v) for v in items[:e]] + [" ..."] + [fmt.format(v) for v in items[-e:]]
        else:
            data = [fmt.format(v) for v in items]
        lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
        return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"
    if summarize and a.shape[0] > 2 * e:
        slices = ([_tensor_str(a[i], indent + 1, summarize, fmt) for i in range(e)] + ["..."] +
                  [_tensor_str(a[i], indent + 1, summarize, fmt) for i in range(a.shape[0] - e, a.shape[0])])
    else:
        slices = [_tensor_str(a[i], indent + 1, summarize, fmt) for i in range(a.shape[0])]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _add_suffixes(text: str, suffixes: list, indent: int) -> str:
    parts = [text]
    last = len(text) - text.rfind("\n") + 1
    for s in suffixes:
        if last + len(s) + 2 > OPTS.linewidth:
            parts.append(",\n" + " " * indent + s)
            last = indent + len(s)
        else:
            parts.append(", " + s)
            last += len(s) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(t, default_dtype, prefix: str = "tensor(") -> str:
    """The text PyTorch prints for tensor `t`."""
    a = t._host()
    indent = len(prefix)
    suffixes = []
    if a.size == 0 and a.shape != (0,):
        suffixes.append(f"size={tuple(a.shape)}")
        body = "[]"
    elif a.size == 0:
        body = "[]"
    else:
        summarize = a.size > OPTS.threshold
        fmt = _Formatter(_summarized(a) if summarize else a)
        body = _tensor_str(a, indent, summarize, fmt)
    if t.device.type != "cpu":
        suffixes.append(f"device='{t.device}'")
    dt = a.dtype
    if dt not in (default_dtype, np.dtype(np.int64), np.dtype(np.bool_)):
        suffixes.append(f"dtype={t.dtype!r}")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name().rsplit('::', 1)[-1]}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
