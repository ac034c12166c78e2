"""`flowgrad port --verify`: the original runs on the source facade and the port on the target
facade, each in its own process (record.py) with the same seeds; their records are compared in
order, step by step, within a tolerance. The gradients of layers laid out differently in a known way
are recorded in PyTorch's layout (record.py, table.PARAMETER_LAYOUTS); another 2-D gradient whose
shape is the other's transposed is compared transposed too."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

import numpy as np

from ..messages.port import text


@dataclass
class Verdict:
    equivalent: bool
    steps: int
    compared: int
    rtol: float
    atol: float
    difference: dict | None = None
    failure: dict | None = None
    message: str = field(default="")

    def text(self) -> str:
        return self.message

    def as_json(self) -> dict:
        out = {"equivalent": self.equivalent, "steps": self.steps, "tensors_compared": self.compared,
               "rtol": self.rtol, "atol": self.atol, "message": self.message}
        if self.difference is not None:
            out["difference"] = self.difference
        if self.failure is not None:
            out["failure"] = self.failure
        return out


def _record(framework: str, path: str, folder: str, workdir: str) -> dict:
    """Run one side in its own process (cwd and import path: the original script's folder)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = os.path.join(workdir, f"{framework}.pickle")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    env.pop("FLOWGRAD_SHIM", None)
    proc = subprocess.run([sys.executable, "-m", "flowgrad.port.record", framework, path, out, folder], env=env,
                          cwd=folder, capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.exists(out):
        return {"records": [], "error": proc.stderr or f"exit status {proc.returncode}"}
    with open(out, "rb") as f:
        return pickle.load(f)


def verify(script: str, original: str, ported: str, source: str, target: str, *, steps: int | None = None,
           rtol: float = 1e-5, atol: float = 1e-7) -> Verdict:
    """Run both and compare. The port (and the original where it is not the script's text) runs from a
    temporary file under the script's name, with the script's folder as its working directory and on
    its import path."""
    folder = os.path.dirname(os.path.abspath(script))
    with open(script, encoding="utf-8") as f:
        as_written = f.read() == original
    with tempfile.TemporaryDirectory() as work:
        paths = []
        for side, code in (("original", original), ("ported", ported)):
            os.mkdir(os.path.join(work, side))
            paths.append(os.path.join(work, side, os.path.basename(script)))
            with open(paths[-1], "w", encoding="utf-8") as f:
                f.write(code)
        a = _record(source, os.path.abspath(script) if as_written else paths[0], folder, work)
        b = _record(target, paths[1], folder, work)
    for side, fw, rec in (("original", source, a), ("ported", target, b)):
        if rec["error"]:
            message = text("script_failed", side=side, framework=fw, traceback=rec["error"].rstrip())
            return Verdict(False, 0, 0, rtol, atol, failure={"side": side, "framework": fw,
                                                             "traceback": rec["error"]}, message=message)
    return compare(a["records"], b["records"], steps, rtol, atol)


def _steps(records: list) -> dict[int, list]:
    out: dict[int, list] = {}
    for step, label, array in records:
        out.setdefault(step, []).append((label, array))
    return out


def _aligned(x: np.ndarray, y: np.ndarray, rtol: float, atol: float) -> np.ndarray | None:
    """`y` in `x`'s layout (a 2-D weight may be transposed: paddle's Linear keeps [in, out], a square
    one too), the layout that agrees first; None where the shapes do not correspond."""
    layouts = [v for v in (y, y.T if y.ndim == 2 else None) if v is not None and v.shape == x.shape]
    return next((v for v in layouts if _close(x, v, rtol, atol)), layouts[0] if layouts else None)


def _close(x: np.ndarray, y: np.ndarray, rtol: float, atol: float) -> bool:
    return np.allclose(x.astype(np.float64), y.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)


def _pair(a: list, b: list, rtol: float, atol: float) -> list[tuple]:
    """Pair one step's records: printed tensors in print order; leaf gradients by shape, the one
    that agrees first (the frameworks may reach a step's leaves in another order: paddle's Linear
    adds its bias after the product, PyTorch's addmm takes it first)."""
    prints_a = [r for r in a if r[0].startswith("print")]
    prints_b = [r for r in b if r[0].startswith("print")]
    pairs = list(zip(prints_a, prints_b))
    free = [r for r in b if not r[0].startswith("print")]
    for label, x in (r for r in a if not r[0].startswith("print")):
        fits = [i for i, (_, y) in enumerate(free) if _aligned(x, y, rtol, atol) is not None]
        good = next((i for i in fits if _close(x, _aligned(x, free[i][1], rtol, atol), rtol, atol)), None)
        pick = good if good is not None else (fits[0] if fits else None)
        pairs.append(((label, x), free.pop(pick) if pick is not None else None))
    return pairs


def compare(a: list, b: list, steps: int | None, rtol: float, atol: float) -> Verdict:
    """The first step and tensor where the records differ beyond the tolerance, or equivalence."""
    sa, sb = _steps(a), _steps(b)
    order = sorted(set(sa) | set(sb))
    if steps is not None:
        order = [s for s in order if s <= steps]
    compared = 0
    for step in order:
        ra, rb = sa.get(step, []), sb.get(step, [])
        if len(ra) != len(rb):
            message = text("verify_count", step=step, source_count=len(ra), target_count=len(rb))
            return Verdict(False, step, compared, rtol, atol, {"step": step}, message=message)
        for (label, x), other in _pair(ra, rb, rtol, atol):
            y = _aligned(x, other[1], rtol, atol) if other is not None else None
            if y is None:
                message = text("verify_shape", step=step, tensor=label, source_shape=x.shape,
                               target_shape=other[1].shape if other is not None else None)
                return Verdict(False, step, compared, rtol, atol, {"step": step, "tensor": label}, message=message)
            if not _close(x, y, rtol, atol):
                diff = float(np.nanmax(np.abs(x.astype(np.float64) - y.astype(np.float64)))) if x.size else 0.0
                message = text("verify_differs", step=step, tensor=label, difference=diff, rtol=rtol, atol=atol)
                return Verdict(False, step, compared, rtol, atol, {"step": step, "tensor": label, "max_abs": diff},
                               message=message)
            compared += 1
    n = len([s for s in order if s > 0])
    return Verdict(True, n, compared, rtol, atol, message=text("verify_equivalent", steps=n, tensors=compared,
                                                                  rtol=rtol, atol=atol))
