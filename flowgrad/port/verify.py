"""`flowgrad port --verify`: the original runs on the source facade and the port on the target
facade, each in its own process (record.py) with the same seeds; their records are compared in
order, step by step, within a tolerance. A 2-D gradient whose shape is the other's transposed is
compared transposed (paddle's Linear keeps its weight as [in, out], PyTorch's as [out, in])."""
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


def _record(framework: str, path: str, workdir: str) -> dict:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = os.path.join(workdir, f"{framework}-{os.getpid()}-{abs(hash(path))}.pickle")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    env.pop("FLOWGRAD_SHIM", None)
    proc = subprocess.run([sys.executable, "-m", "flowgrad.port.record", framework, path, out], env=env,
                          cwd=os.path.dirname(os.path.abspath(path)), capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.exists(out):
        return {"records": [], "error": proc.stderr or f"exit status {proc.returncode}"}
    with open(out, "rb") as f:
        return pickle.load(f)


def verify(script: str, original: str, ported: str, source: str, target: str, *, steps: int | None = None,
           rtol: float = 1e-5, atol: float = 1e-7) -> Verdict:
    """Run both and compare (the port is written beside the script, under a hidden name, for the run)."""
    folder = os.path.dirname(os.path.abspath(script))
    with tempfile.TemporaryDirectory() as work:
        port_path = os.path.join(folder, f".flowgrad-port-{os.getpid()}-{os.path.basename(script)}")
        with open(port_path, "w", encoding="utf-8") as f:
            f.write(ported)
        try:
            a = _record(source, os.path.abspath(script), work)
            b = _record(target, port_path, work)
        finally:
            os.unlink(port_path)
    for side, fw, rec in (("original", source, a), ("ported", target, b)):
        if rec["error"]:
            message = text("script_failed", side=side, framework=fw, traceback=rec["error"].rstrip())
            return Verdict(False, 0, 0, rtol, atol, failure={"side": side, "framework": fw,
                                                             "traceback": rec["error"]}, message=message)
    return compare(a["records"], b["records"], steps, rtol, atol)


def compare(a: list, b: list, steps: int | None, rtol: float, atol: float) -> Verdict:
    if steps is not None:
        a = [r for r in a if r[0] <= steps]
        b = [r for r in b if r[0] <= steps]
    compared = 0
    for (step, label, x), (step_b, _, y) in zip(a, b):
        if step != step_b:
            return _count(a, b, min(step, step_b), compared, rtol, atol)
        if x.shape != y.shape and x.ndim == 2 and x.T.shape == y.shape:
            y = y.T
        if x.shape != y.shape:
            message = text("verify_shape", step=step, tensor=label, source_shape=x.shape, target_shape=y.shape)
            return Verdict(False, step, compared, rtol, atol, {"step": step, "tensor": label}, message=message)
        xf, yf = x.astype(np.float64), y.astype(np.float64)
        if not np.allclose(xf, yf, rtol=rtol, atol=atol, equal_nan=True):
            diff = float(np.nanmax(np.abs(xf - yf))) if xf.size else 0.0
            message = text("verify_differs", step=step, tensor=label, difference=diff, rtol=rtol, atol=atol)
            return Verdict(False, step, compared, rtol, atol, {"step": step, "tensor": label, "max_abs": diff},
                           message=message)
        compared += 1
    if len(a) != len(b):
        last = min(len(a), len(b))
        step = (a if len(a) > len(b) else b)[last][0]
        return _count(a, b, step, compared, rtol, atol)
    n = max((r[0] for r in a), default=0)
    return Verdict(True, n, compared, rtol, atol, message=text("verify_equivalent", steps=n, tensors=compared,
                                                                  rtol=rtol, atol=atol))


def _count(a, b, step, compared, rtol, atol) -> Verdict:
    na = sum(1 for r in a if r[0] == step)
    nb = sum(1 for r in b if r[0] == step)
    message = text("verify_count", step=step, source_count=na, target_count=nb)
    return Verdict(False, step, compared, rtol, atol, {"step": step}, message=message)
