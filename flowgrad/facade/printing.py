"""The print format of the torch family (PyTorch's, and OneFlow's port of PyTorch 1.8's):
`tensor([1.5000, 2.2500], requires_grad=True)`. A `Printer` holds one facade's print options and
its style: which dtypes go unnamed, and whether inf/nan count when the notation is chosen."""
from __future__ import annotations

import dataclasses
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


@dataclass(frozen=True)
class PrintStyle:
    """What differs between the members of the family."""

    prefix: str = "tensor("
    always_dtype: bool = False        # OneFlow names every dtype; PyTorch omits the defaults
    nonfinite_in_analysis: bool = False  # OneFlow lets inf/nan choose scientific notation


class Printer:
    """One facade's print options and the `set_printoptions` family bound to them."""

    def __init__(self, style: PrintStyle = PrintStyle()):
        self.style = style
        self.opts = PrintOptions()

    def set_printoptions(self, precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None,
                         sci_mode=None) -> None:
        opts = self.opts
        if profile == "default":
            opts.__init__()
        elif profile == "short":
            opts.__init__(precision=2, threshold=1000, edgeitems=2, linewidth=80)
        elif profile == "full":
            opts.__init__(threshold=math.inf)
        for k, v in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                     ("linewidth", linewidth)):
            if v is not None:
                setattr(opts, k, v)
        opts.sci_mode = sci_mode

    def get_printoptions(self) -> dict:
        return dataclasses.asdict(self.opts)

    def printoptions(self, **kwargs) -> "_Scoped":
        """Context manager: set print options for the block, restore them after."""
        return _Scoped(self, kwargs)

    def tensor_repr(self, t, default_dtype) -> str:
        """The text the framework prints for tensor `t`."""
        opts, style = self.opts, self.style
        prefix = style.prefix
        a = t._host()
        if a.dtype == np.float16:
            a = a.astype(np.float32)  # values print as the framework prints a half tensor (via float)
        indent = len(prefix)
        suffixes = []
        if t.device.type != "cpu":
            suffixes.append(f"device='{t.device}'")
        dt = t._data.dtype
        unnamed = () if style.always_dtype else (default_dtype, np.dtype(np.int64), np.dtype(np.bool_),
                                                 np.result_type(default_dtype, np.complex64))
        if a.size == 0:
            if a.ndim != 1:
                suffixes.append(f"size={tuple(a.shape)}")
            if style.always_dtype or dt != default_dtype:
                suffixes.append(f"dtype={t.dtype!r}")
            body = "[]"
        else:
            if not opts.edgeitems:
                suffixes.append(f"size={tuple(a.shape)}")
            if dt not in unnamed:
                suffixes.append(f"dtype={t.dtype!r}")
            summarize = a.size > opts.threshold
            shown = _summarized(a, opts) if summarize else a
            if a.dtype.kind == "c":
                fmt = _ComplexFormatter(_Formatter(shown.real, opts, style.nonfinite_in_analysis),
                                        _Formatter(shown.imag, opts, style.nonfinite_in_analysis))
            else:
                fmt = _Formatter(shown, opts, style.nonfinite_in_analysis)
            body = _tensor_str(a, indent, summarize, fmt, opts)
        if t.grad_fn is not None:
            suffixes.append(f"grad_fn=<{t.grad_fn.name().rsplit('::', 1)[-1]}>")
        elif t.requires_grad:
            suffixes.append("requires_grad=True")
        return _add_suffixes(prefix + body, suffixes, indent, opts)


class _Scoped:
    def __init__(self, printer: Printer, kwargs: dict):
        self.printer, self.kwargs = printer, kwargs

    def __enter__(self):
        self.old = self.printer.get_printoptions()
        self.printer.set_printoptions(**self.kwargs)

    def __exit__(self, *exc):
        self.printer.set_printoptions(**self.old)


class _Formatter:
    """The element formatter: one width for all elements; integer, fixed or scientific notation
    chosen from the non-zero (finite, unless the style says otherwise) values."""

    def __init__(self, values: np.ndarray, opts: PrintOptions, nonfinite: bool):
        self.opts = opts
        self.floating = values.dtype.kind in "fV"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        p = opts.precision
        if not self.floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(str(v)))
            return
        vals = flat.astype(np.float64)
        keep = (vals != 0) & ~np.isnan(vals) if nonfinite else np.isfinite(vals) & (vals != 0)
        finite = flat[keep].tolist()
        if not finite:
            return
        nz = np.abs(np.asarray(finite, dtype=np.float64))
        lo, hi = float(nz.min()), float(nz.max())
        self.int_mode = all(math.isfinite(v) and v == math.ceil(v) for v in finite)
        self.sci_mode = (hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4) if opts.sci_mode is None else opts.sci_mode
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
            precision = self.opts.precision
            if self.sci_mode:
                s = f"{v:{self.max_width}.{precision}e}"
            elif self.int_mode:
                s = f"{v:.0f}"
                if not (math.isinf(v) or math.isnan(v)):
                    s += "."
            else:
                s = f"{v:.{precision}f}"
        else:
            s = str(v)
        return (self.max_width - len(s)) * " " + s


class _ComplexFormatter:
    """A complex element as PyTorch prints it: the real part in its own column width, then the
    imaginary part's (sign always shown) followed by `j`."""

    def __init__(self, real: _Formatter, imag: _Formatter):
        self.real, self.imag = real, imag

    def width(self) -> int:
        return self.real.width() + self.imag.width() + 1

    def format(self, v) -> str:
        imag = (self.imag.format(v.imag) + "j").lstrip()
        return self.real.format(v.real) + (imag if imag[0] in "+-" else "+" + imag)


def _summarized(a: np.ndarray, opts: PrintOptions) -> np.ndarray:
    """The elements a summarised print shows (what the formatter measures)."""
    e = opts.edgeitems
    if a.ndim == 0:
        return a
    if a.ndim == 1:
        return np.concatenate([a[:e], a[-e:]]) if a.shape[0] > 2 * e else a
    if not e:
        return a[tuple(slice(0, 0) for _ in a.shape)]
    rows = list(range(e)) + list(range(a.shape[0] - e, a.shape[0])) if a.shape[0] > 2 * e else range(a.shape[0])
    return np.stack([_summarized(a[i], opts) for i in rows])


def _vector_str(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter, opts: PrintOptions) -> str:
    e = opts.edgeitems
    element_length = fmt.width() + 2
    per_line = max(1, int(math.floor((opts.linewidth - indent) / element_length)))
    if summarize and not e:
        data = ["..."]
    elif summarize and a.shape[0] > 2 * e:
        data = [fmt.format(v) for v in a[:e].tolist()] + [" ..."] + [fmt.format(v) for v in a[-e:].tolist()]
    else:
        data = [fmt.format(v) for v in a.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter, opts: PrintOptions) -> str:
    e = opts.edgeitems
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        return _vector_str(a, indent, summarize, fmt, opts)
    if summarize and a.shape[0] > 2 * e:
        slices = ([_tensor_str(a[i], indent + 1, summarize, fmt, opts) for i in range(e)] + ["..."] +
                  [_tensor_str(a[i], indent + 1, summarize, fmt, opts) for i in range(a.shape[0] - e, a.shape[0])])
    else:
        slices = [_tensor_str(a[i], indent + 1, summarize, fmt, opts) for i in range(a.shape[0])]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _add_suffixes(text: str, suffixes: list, indent: int, opts: PrintOptions) -> str:
    parts = [text]
    last = len(text) - text.rfind("\n") + 1
    for s in suffixes:
        if last + len(s) + 2 > opts.linewidth:
            parts.append(",\n" + " " * indent + s)
            last = indent + len(s)
        else:
            parts.append(", " + s)
            last += len(s) + 2
    parts.append(")")
    return "".join(parts)
