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


def get_printoptions() -> dict:
    import dataclasses
    return dataclasses.asdict(OPTS)


class printoptions:
    """Context manager: set print options for the block, restore them after."""

    def __init__(self, **kwargs):
        self.kwargs = kwargs

    def __enter__(self):
        self.old = get_printoptions()
        set_printoptions(**self.kwargs)

    def __exit__(self, *exc):
        set_printoptions(**self.old)


class _Formatter:
    """PyTorch's element formatter: one width for all elements; integer, fixed or scientific
    notation chosen from the non-zero finite values."""

    def __init__(self, values: np.ndarray):
        self.floating = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        p = OPTS.precision
        if not self.floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(str(v)))
            return
        vals = flat.astype(np.float64)
        finite = flat[np.isfinite(vals) & (vals != 0)].tolist()
        if not finite:
            return
        nz = np.abs(np.asarray(finite, dtype=np.float64))
        lo, hi = float(nz.min()), float(nz.max())
        self.int_mode = all(v == math.ceil(v) for v in finite)
        self.sci_mode = (hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4) if OPTS.sci_mode is None else OPTS.sci_mode
        if self.sci_mode:
            self.max_width = max(len(f"{v:.{p}e}") for v in finite)
        elif self.int_mode:
            self.max_width = max(len(f"{v:.0f}") + 1 for v in finite)
        else:
            self.max_width = max(len(f"{v:.{p}f}") for v in finite)

    def width(self) -> int:
        return self.max_width

    def format(self, v) -> str:
        if self.floating:
            if self.sci_mode:
                s = f"{v:{self.max_width}.{OPTS.precision}e}"
            elif self.int_mode:
                s = f"{v:.0f}"
                if not (math.isinf(v) or math.isnan(v)):
                    s += "."
            else:
                s = f"{v:.{OPTS.precision}f}"
        else:
            s = str(v)
        return (self.max_width - len(s)) * " " + s


def _summarized(a: np.ndarray) -> np.ndarray:
    """The elements a summarised print shows (what the formatter measures)."""
    e = OPTS.edgeitems
    if a.ndim == 0:
        return a
    if a.ndim == 1:
        return np.concatenate([a[:e], a[-e:]]) if a.shape[0] > 2 * e else a
    if not e:
        return a[tuple(slice(0, 0) for _ in a.shape)]
    rows = list(range(e)) + list(range(a.shape[0] - e, a.shape[0])) if a.shape[0] > 2 * e else range(a.shape[0])
    return np.stack([_summarized(a[i]) for i in rows])


def _vector_str(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    e = OPTS.edgeitems
    element_length = fmt.width() + 2
    per_line = max(1, int(math.floor((OPTS.linewidth - indent) / element_length)))
    if summarize and not e:
        data = ["..."]
    elif summarize and a.shape[0] > 2 * e:
        data = [fmt.format(v) for v in a[:e].tolist()] + [" ..."] + [fmt.format(v) for v in a[-e:].tolist()]
    else:
        data = [fmt.format(v) for v in a.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    e = OPTS.edgeitems
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        return _vector_str(a, indent, summarize, fmt)
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
    if a.dtype == np.float16:
        a = a.astype(np.float32)  # values print as PyTorch prints a half tensor (via float)
    indent = len(prefix)
    suffixes = []
    if t.device.type != "cpu":
        suffixes.append(f"device='{t.device}'")
    dt = t._data.dtype
    if a.size == 0:
        if a.ndim != 1:
            suffixes.append(f"size={tuple(a.shape)}")
        if dt != default_dtype:
            suffixes.append(f"dtype={t.dtype!r}")
        body = "[]"
    else:
        if not OPTS.edgeitems:
            suffixes.append(f"size={tuple(a.shape)}")
        if dt not in (default_dtype, np.dtype(np.int64), np.dtype(np.bool_)):
            suffixes.append(f"dtype={t.dtype!r}")
        summarize = a.size > OPTS.threshold
        fmt = _Formatter(_summarized(a) if summarize else a)
        body = _tensor_str(a, indent, summarize, fmt)
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name().rsplit('::', 1)[-1]}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
