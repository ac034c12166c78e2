"""Paddle's tensor print format (`paddle/tensor/to_string.py` in 3.3.1):

    Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=False,
           [[12., 18.],
            [17., 25.]])

Items are formatted one by one (whole floats as `12.`, others with `precision` decimals), left
justified to the widest item of the summarised data, with a leading space for non-negative items
when any item is negative.
"""
from __future__ import annotations

import numpy as np


class PrintOptions:
    precision = 8
    threshold = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode = False


OPTS = PrintOptions()


def set_printoptions(precision: int | None = None, threshold: int | None = None, edgeitems: int | None = None,
                     sci_mode: bool | None = None, linewidth: int | None = None) -> None:
    """paddle.set_printoptions."""
    for name, value, typ in (("precision", precision, int), ("threshold", threshold, int),
                             ("edgeitems", edgeitems, int), ("linewidth", linewidth, int),
                             ("sci_mode", sci_mode, bool)):
        if value is None:
            continue
        if not isinstance(value, typ):
            raise TypeError(f"The type of '{name}' in set_printoptions must be <class '{typ.__name__}'>, but "
                            f"received {type(value)}. ")
        setattr(OPTS, name, value)


def _format_item(v, max_width: int = 0, signed: bool = False) -> str:
    if v.dtype.kind == "f":
        if OPTS.sci_mode:
            s = f"{v:.{OPTS.precision}e}"
        elif np.ceil(v) == v:
            s = f"{v:.0f}."
        else:
            s = f"{v:.{OPTS.precision}f}"
    elif v.dtype.kind == "c":
        re, im, p = np.real(v), np.imag(v), OPTS.precision
        code = "e" if OPTS.sci_mode else "f"
        s = f"({re:.{p}{code}}{'+' if im >= 0 else ''}{im:.{p}{code}}j)"
    else:
        s = f"{v}"
    if max_width > len(s):
        if signed:
            return s.ljust(max_width) if v < 0 else " " + s.ljust(max_width - 1)
        return s.ljust(max_width)
    return s


def _summary(a: np.ndarray) -> np.ndarray:
    e = OPTS.edgeitems
    if a.size == 0:
        return np.array([])
    if a.ndim == 0:
        return a
    if a.ndim == 1:
        return np.concatenate([a[:e], a[-e:]]) if a.shape[0] > 2 * e else a
    rows = list(a[:e]) + list(a[-e:]) if a.shape[0] > 2 * e else list(a)
    return np.stack([_summary(r) for r in rows])


def _max_width(a: np.ndarray) -> tuple[int, bool]:
    width, signed = 0, False
    for item in a.reshape(-1):
        if not signed and item < 0:
            signed = True
        width = max(width, len(_format_item(item)))
    return width, signed


def _format(a: np.ndarray, summary: bool, indent: int, width: int, signed: bool) -> str:
    e = OPTS.edgeitems
    if a.ndim == 0:
        return _format_item(a, width, signed)
    n = a.shape[0]
    if a.ndim == 1:
        per_line = max(1, (OPTS.linewidth - indent) // (width + 2))
        if summary and n > 2 * e:
            items = ([_format_item(a[i], width, signed) for i in range(e)] + ["..."] +
                     [_format_item(a[i], width, signed) for i in range(n - e, n)])
        else:
            items = [_format_item(a[i], width, signed) for i in range(n)]
        lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    if summary and n > 2 * e:
        parts = ([_format(a[i], summary, indent + 1, width, signed) for i in range(e)] + ["..."] +
                 [_format(a[i], summary, indent + 1, width, signed) for i in range(n - e, n)])
    else:
        parts = [_format(a[i], summary, indent + 1, width, signed) for i in range(n)]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def tensor_to_string(t, prefix: str = "Tensor") -> str:
    """The text paddle prints for tensor `t` (`str(t) == repr(t)`)."""
    indent = len(prefix) + 1
    a = t._host()
    shape = list(a.shape)
    size = 0 if a.ndim == 0 else int(np.prod(shape))
    summary = size > OPTS.threshold
    width, signed = _max_width(_summary(a))
    data = _format(a, summary, indent, width, signed)
    return (f"{prefix}(shape={shape}, dtype={a.dtype.name}, place={t.place}, stop_gradient={t.stop_gradient},\n"
            f"{' ' * indent}{data})")
