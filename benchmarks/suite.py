"""The suite: the workloads in the targets' order, the correctness phase (every contender against
hand-written NumPy, before anything is timed) and the measuring phase."""
from __future__ import annotations

import sys
import traceback

from . import chain, conv, gpu, mlp, rnn, second_order, startup, transformer
from .harness import (CONTENDERS, CheckFailed, NotAvailable, Unsupported, check, interleaved, load_contenders,
                      ratio, reference_grads)

_BY_NAME = {w.name: w for w in mlp.WORKLOADS + chain.WORKLOADS + conv.WORKLOADS + second_order.WORKLOADS
            + rnn.WORKLOADS + transformer.WORKLOADS + gpu.WORKLOADS + startup.WORKLOADS}
ORDER = ("mlp-f64", "mlp-f32", "chain", "chain-1", "chain-60k", "memory", "convnet", "classifier", "hvp", "fan-in",
         "import", "lstm", "transformer", "mlp-cuda")
WORKLOADS = [_BY_NAME[n] for n in ORDER]


def select(only: str | None):
    """Workloads named in a comma-separated list (exact names, or a unique prefix); by default every
    workload this machine can run (the GPU ones where CuPy sees a CUDA device)."""
    if not only:
        return [w for w in WORKLOADS if not w.unavailable()]
    picked = []
    for want in (s.strip() for s in only.split(",") if s.strip()):
        hits = ([w for w in WORKLOADS if w.name == want]
                or [w for w in WORKLOADS if w.name.startswith(want) and not w.unavailable()])
        if not hits:
            raise SystemExit(f"unknown workload {want!r}; known: {', '.join(ORDER)}")
        picked += [w for w in hits if w not in picked]
    return picked


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def check_all(workloads, contenders: dict, scale: str, log=_log) -> dict:
    """{workload name: {contender: cell}} where a cell is {'status': 'ok'|'n/a'|'not available'|
    'not installed'|'FAILED', 'note': str}; 'ok' means its gradients match NumPy's."""
    cells = {}
    for w in workloads:
        row = cells[w.name] = {}
        why = w.unavailable()
        if why:
            row.update({name: {"status": "not available", "note": why} for name in contenders})
            log(f"  skipped {w.name:<11} {why}")
            continue
        d = w.data(**w.sizes[scale])
        ref = reference_grads(w, d)
        for name, c in contenders.items():
            if c.missing:
                row[name] = {"status": "not installed", "note": c.missing}
                continue
            try:
                check(w, name, d, ref)
                row[name] = {"status": "ok", "note": ""}
            except Unsupported as e:
                row[name] = {"status": "n/a", "note": str(e)}
            except NotAvailable as e:
                row[name] = {"status": "not available", "note": str(e)}
            except CheckFailed as e:
                row[name] = {"status": "FAILED", "note": str(e)}
            except Exception as e:  # noqa: BLE001  (a crash is a failed check too, reported whole)
                tb = traceback.extract_tb(e.__traceback__)[-1]
                row[name] = {"status": "FAILED", "note": f"{type(e).__name__}: {e} "
                                                         f"(at {tb.filename.split('/')[-1]}:{tb.lineno})"}
        log(f"  checked {w.name:<11} " + "  ".join(f"{n}={row[n]['status']}" for n in contenders))
    return cells


def measure(workloads, contenders: dict, cells: dict, scale: str, repeats: int, threads: int | None,
            log=_log, clock: str = "wall") -> list[dict]:
    """Time (or weigh) every contender whose check passed. Returns one record per workload."""
    records = []
    for w in workloads:
        row = cells[w.name]
        ok = [n for n in contenders if row[n]["status"] == "ok"]
        rec = {"name": w.name, "title": w.title, "unit": w.unit, "kind": w.kind, "size": w.sizes[scale],
               "section": w.section, "results": {n: dict(row[n]) for n in contenders},
               "clock": w.clock or clock, "device": w.describe_device() if ok else "",
               "target_x_torch": w.target_x_torch}
        d = w.data(**w.sizes[scale]) if ok else None
        if ok and w.kind != "time":          # memory, start-up: the workload measures itself
            for n in ok:
                try:
                    value, method = w.measure(n, d, threads, rec["clock"])
                    rec["results"][n].update(value=value, method=method, **w.details(n))
                except (NotAvailable, RuntimeError) as e:
                    rec["results"][n].update(status="not available", note=str(e))
        elif ok:
            steps = {n: w.build(n, d) for n in ok}
            log(f"  timing  {w.name:<11} {repeats} interleaved runs of {', '.join(ok)}")
            timings = interleaved(steps, repeats, clock=rec["clock"])
            per = w.ops_for(d)
            for n, t in timings.items():
                rec["results"][n].update(value=t.median * w.unit_scale / per, inner=t.inner,
                                         samples=[s * w.unit_scale / per for s in t.samples])
        base_np = rec["results"].get("numpy", {}).get("value")
        base_t = rec["results"].get("torch", {}).get("value")
        for r in rec["results"].values():
            if "value" in r:
                r["x_numpy"] = ratio(r["value"], base_np)
                r["x_torch"] = ratio(r["value"], base_t)
        records.append(rec)
    return records


def run(only=None, names=CONTENDERS, scale="full", repeats=40, threads=None, keep_going=False, log=_log,
        clock="wall"):
    """Check, then measure. Returns (contenders, cells, records or None when a check failed and
    keep_going is off)."""
    workloads = select(only)
    contenders = load_contenders(names, threads)
    log(f"checking gradients against hand-written NumPy ({scale} sizes)")
    cells = check_all(workloads, contenders, scale, log)
    failed = [(w, n, c["note"]) for w, row in cells.items() for n, c in row.items() if c["status"] == "FAILED"]
    if failed:
        log("\n" + "!" * 100)
        log("GRADIENT CHECK FAILED: these contenders do not compute hand-written NumPy's gradients:")
        for w, n, note in failed:
            log(f"  [{w}] {n}: {note}")
        log("!" * 100)
        if not keep_going:
            log("nothing was timed (pass --keep-going to time the others and mark these FAILED)")
            return contenders, cells, None
        log("--keep-going: timing the contenders that passed; the failed ones are marked FAILED\n")
    return contenders, cells, measure(workloads, contenders, cells, scale, repeats, threads, log, clock)
