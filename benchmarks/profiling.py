"""Where flowgrad's per-op time goes: `python -m benchmarks.profiling [--threads 1] [chain|mlp|fan-in|micro]...`

- `micro`: per-call costs (timeit, best of 7) of the pieces of one op -- a raw NumPy op, dispatch
  without recording, Tensor._make, make_node, the shape/dtype checks the engine makes per edge,
  accumulation into a leaf, the engine's cost per node -- beside torch's per-op costs.
- `chain`, `mlp`, `fan-in`: cProfile of the benchmark's flowgrad step (top functions by own time,
  with the time per call), over enough repetitions to be stable.
Run under py-spy for a sampling view without cProfile's per-call overhead:
    py-spy record -r 1000 -f raw -o chain.txt -- python -m benchmarks.profiling --spy --seconds 15 chain
    python -m benchmarks.profiling --spy-report chain.txt
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import timeit

from .threads import pin_threads_or_reexec


def _per_call_us(stmt, setup_globals, number=1000, repeat=200) -> float:
    """Best per-call time of many short runs: on a shared machine a short run often fits in one
    scheduler slice, so the minimum is close to the unloaded cost."""
    t = timeit.Timer(stmt, globals=setup_globals)
    return min(t.repeat(repeat=repeat, number=number)) / number * 1e6


def micro() -> list[tuple[str, float]]:
    import numpy as np

    import flowgrad.torch as fg
    from flowgrad.autograd import engine
    from flowgrad.autograd.policy import TORCH
    from flowgrad.ops import elementwise as E
    from flowgrad.autograd.engine import run_backward

    a = np.linspace(-1.0, 1.0, 16)
    x = fg.from_numpy(a.copy()).requires_grad_()
    xn = fg.from_numpy(a.copy())
    h = x * 1.0                          # a non-leaf: the chain's ops take these
    out = fg.from_numpy(a * 2)
    MulScalar = E.MulScalar
    g = fg.from_numpy(np.ones(16))
    meta = ((a.shape, a.dtype),)
    env = dict(np=np, a=a, x=x, h=h, xn=xn, fg=fg, out=out, MulScalar=MulScalar,
               engine=engine, g=g, meta=meta, Tensor=type(x), shape=a.shape, dtype=a.dtype)
    rows = [
        ("numpy: a * 1.0001 (16 x f64)", _per_call_us("a * 1.0001", env)),
        ("numpy: np.tanh(a)", _per_call_us("np.tanh(a)", env)),
        ("flowgrad: xn * 1.0001, no grad needed (dispatch + wrap)", _per_call_us("xn * 1.0001", env)),
        ("flowgrad: h * 1.0001, recording (dispatch + wrap + make_node)", _per_call_us("h * 1.0001", env)),
        ("flowgrad: h.tanh(), recording (+ save_output)", _per_call_us("h.tanh()", env)),
        ("flowgrad: x * 1.0001, recording, x a leaf (+ accumulator lookup)", _per_call_us("x * 1.0001", env)),
        ("flowgrad: Tensor._make(arr)", _per_call_us("Tensor._make(a)", env)),
        ("flowgrad: MulScalar.record((h, None), out, h, 1.0001) (make_node + saving)",
         _per_call_us("MulScalar.record((h, None), out, h, 1.0001)", env)),
        ("flowgrad: engine per-edge shape+dtype check (g._data.shape != shape, dtype)",
         _per_call_us("gd = g._data; gd.shape != shape; gd.dtype is not dtype and gd.dtype != dtype", env,
                      number=10000)),
        ("flowgrad: accumulate into a leaf, in place (AccumulateGrad path)",
         _per_call_us("engine.accumulate(x, g, False, False)", env)),
    ]
    x._grad = None

    # engine per node: backward through a chain of n scalar multiplications, minus the formula's own op
    def chain_backward(n):
        y = x
        for _ in range(n):
            y = y * 1.0001
        loss = y.sum()
        t0 = timeit.default_timer()
        loss.backward()
        return timeit.default_timer() - t0
    n = 300
    best = min(chain_backward(n) for _ in range(60)) / n * 1e6
    formula = _per_call_us("g * 1.0001", env)   # what MulBackward0 runs per node (grad mode off)
    rows.append(("flowgrad: backward per node, chain of x * c (engine + formula)", best))
    rows.append(("flowgrad:   of which the formula's op (g * c, no grad)", formula))
    rows.append(("flowgrad:   so the engine loop per node", best - formula))

    def run_backward_only(n):
        y = x
        for _ in range(n):
            y = y * 1.0001
        root = (y.grad_fn, 0)
        seed = fg.ones_like(y)
        t0 = timeit.default_timer()
        run_backward(TORCH, [root], [seed], retain_graph=False, create_graph=False)
        return timeit.default_timer() - t0
    rows.append(("flowgrad: run_backward per node (no sum, no API layer)",
                 min(run_backward_only(n) for _ in range(60)) / n * 1e6))
    x._grad = None
    try:
        import torch
        t = torch.from_numpy(a.copy()).requires_grad_()
        th = t * 1.0
        tn = torch.from_numpy(a.copy())
        tenv = dict(t=t, th=th, tn=tn, torch=torch)
        rows += [("torch: tn * 1.0001, no grad needed", _per_call_us("tn * 1.0001", tenv)),
                 ("torch: th * 1.0001, recording", _per_call_us("th * 1.0001", tenv)),
                 ("torch: th.tanh(), recording", _per_call_us("th.tanh()", tenv))]

        def torch_chain_backward(n):
            y = t
            for _ in range(n):
                y = y * 1.0001
            loss = y.sum()
            t0 = timeit.default_timer()
            loss.backward()
            return timeit.default_timer() - t0
        rows.append(("torch: backward per node, chain of x * c", min(torch_chain_backward(n) for _ in range(60)) / n * 1e6))
    except ImportError:
        pass
    return rows


def _flowgrad_step(name: str):
    from . import suite
    w = suite.select(name)[0]
    return w.build("flowgrad", w.data(**w.sizes["full"])), w


def profile_step(name: str, seconds: float = 3.0, top: int = 25) -> str:
    step, w = _flowgrad_step(name)
    step()
    t0 = timeit.default_timer()
    step()
    once = timeit.default_timer() - t0
    reps = max(1, int(seconds / max(once, 1e-6)))
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(reps):
        step()
    prof.disable()
    buf = io.StringIO()
    st = pstats.Stats(prof, stream=buf)
    total = sum(v[2] for v in st.stats.values())
    lines = [f"cProfile of flowgrad `{w.name}` ({w.title}): {reps} steps, {once * 1e3:.2f} ms/step unprofiled, "
             f"{total / reps * 1e3:.2f} ms/step profiled", "",
             f"{'own ms/step':>11} {'own %':>6} {'calls/step':>10} {'own us/call':>11} {'cum us/call':>11}  function"]
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:top]
    for (file, line, fn), (cc, nc, tt, ct, _) in rows:
        where = f"{file.split('flowgrad/')[-1] if 'flowgrad/' in file else file.split('/')[-1]}:{line}({fn})"
        lines.append(f"{tt / reps * 1e3:11.3f} {100 * tt / total:6.1f} {nc / reps:10.0f} {tt / nc * 1e6:11.3f} "
                     f"{ct / nc * 1e6:11.3f}  {where}")
    return "\n".join(lines)


def spy_report(path: str, top: int = 30) -> str:
    """Summarise py-spy's raw (collapsed-stack) output: own and inclusive share per function, and
    the hottest lines."""
    import collections
    import re
    own, incl, lines = collections.Counter(), collections.Counter(), collections.Counter()
    total = 0
    pat = re.compile(r"^(.*) \((.*?):(\d+)\)$")
    for raw in open(path):
        stack, _, n = raw.rstrip("\n").rpartition(" ")
        n = int(n)
        total += n
        frames = stack.split(";")
        seen = set()
        for i, fr in enumerate(frames):
            m = pat.match(fr)
            fn, file, line = (m.group(1), m.group(2), m.group(3)) if m else (fr, "?", "0")
            key = f"{file}:{fn}"
            if key not in seen:
                incl[key] += n
                seen.add(key)
            if i == len(frames) - 1:
                own[key] += n
                lines[f"{file}:{line} ({fn})"] += n
    out = [f"py-spy: {total} samples", "", f"{'own %':>6} {'incl %':>7}  function"]
    for key, n in own.most_common(top):
        out.append(f"{100 * n / total:6.1f} {100 * incl[key] / total:7.1f}  {key}")
    out += ["", f"{'own %':>6}  hottest lines"]
    out += [f"{100 * n / total:6.1f}  {k}" for k, n in lines.most_common(top)]
    return "\n".join(out)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    pin_threads_or_reexec(argv, "benchmarks.profiling")
    p = argparse.ArgumentParser(prog="python -m benchmarks.profiling")
    p.add_argument("what", nargs="*", default=["micro", "chain", "mlp"],
                   help="micro, or workload names to cProfile (chain, mlp-f64, fan-in, ...)")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--spy", action="store_true", help="just run the step(s) in a loop (for py-spy)")
    p.add_argument("--spy-report", metavar="RAW", help="summarise a py-spy `-f raw` output file and exit")
    args = p.parse_args(argv)
    if args.spy_report:
        print(spy_report(args.spy_report))
        return 0
    if args.threads:
        import torch
        torch.set_num_threads(args.threads)
    for what in args.what:
        if args.spy:
            step, _ = _flowgrad_step(what)
            t0 = timeit.default_timer()
            while timeit.default_timer() - t0 < args.seconds:
                step()
            continue
        if what == "micro":
            print("per-call costs in us (the best of many short runs):")
            for label, us in micro():
                print(f"  {us:8.3f}  {label}")
        else:
            print(profile_step("mlp-f64" if what == "mlp" else what, args.seconds))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
