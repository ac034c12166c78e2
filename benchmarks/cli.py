"""Command line: `python -m benchmarks [options]` (run `--help`)."""
from __future__ import annotations

import argparse
import json
import os
import sys

from . import compare, report, suite
from .harness import CONTENDERS

RESULTS_MD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "RESULTS.md")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="flowgrad beside torch, MyGrad, HIPS autograd and hand-written NumPy. Every "
                    "contender's gradients are checked against NumPy's before anything is timed.")
    p.add_argument("--threads", type=int, default=None,
                   help="pin OMP/OPENBLAS/MKL_NUM_THREADS and torch.set_num_threads to N (re-executes the "
                        "interpreter with the variables set); default: the machine's default")
    p.add_argument("--repeats", type=int, default=None, help="interleaved runs per workload (default 40; 5 with --quick)")
    p.add_argument("--quick", action="store_true", help="5 repeats and a shorter memory chain: a fast look")
    p.add_argument("--only", metavar="NAME[,NAME]", help="run only these workloads (name or unique prefix): "
                   + ", ".join(suite.ORDER))
    p.add_argument("--contenders", metavar="NAME[,NAME]", default=",".join(CONTENDERS),
                   help="which contenders to run (default: all installed of %(default)s; numpy is always run)")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="wall: perf_counter (default); cpu: the process's CPU time, which leaves out the time "
                        "other processes hold the core on a shared machine (use with --threads 1)")
    p.add_argument("--scale", choices=("full", "quick", "tiny"), default=None,
                   help="problem sizes (default: full; quick with --quick; tiny is the CI smoke size)")
    p.add_argument("--json", action="store_true", help="print the results as JSON on stdout (progress on stderr)")
    p.add_argument("--write-results", nargs="?", const=RESULTS_MD, metavar="PATH",
                   help="also write the Markdown report (default path: benchmarks/RESULTS.md)")
    p.add_argument("--compare", nargs="?", const=RESULTS_MD, metavar="PATH",
                   help="after the table, compare flowgrad's ratios with the ones recorded in PATH (default: "
                        "benchmarks/RESULTS.md) and say which moved by more than their noise")
    p.add_argument("--keep-going", action="store_true",
                   help="when a contender's gradients are wrong, time the others and mark it FAILED "
                        "(the exit status is still 1)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    names = ["numpy"] + [n.strip() for n in args.contenders.split(",") if n.strip() and n.strip() != "numpy"]
    unknown = [n for n in names if n not in CONTENDERS]
    if unknown:
        raise SystemExit(f"unknown contender(s) {unknown}; known: {', '.join(CONTENDERS)}")
    names = [n for n in CONTENDERS if n in names]
    scale = args.scale or ("quick" if args.quick else "full")
    repeats = args.repeats or (5 if args.quick else 40)

    recorded = None
    if args.compare:
        try:
            with open(args.compare) as f:
                recorded = compare.read_recorded(f.read())
        except OSError as e:
            raise SystemExit(f"--compare: cannot read {args.compare}: {e.strerror}")
    load_before = report.load_average()
    if args.clock == "cpu" and args.threads != 1:
        print("warning: --clock cpu sums the CPU time of every thread; use it with --threads 1", file=sys.stderr)
    contenders, cells, records = suite.run(args.only, names, scale, repeats, args.threads, args.keep_going,
                                           clock=args.clock)
    if records is None:
        return 1
    failed = any(c["status"] == "FAILED" for row in cells.values() for c in row.values())
    info = report.machine(contenders, args.threads, scale, repeats, load_before)
    info["clock"] = args.clock
    argv_used = argv if argv is not None else sys.argv[1:]
    moved = note = None
    if recorded is not None:
        moved = compare.compare(records, recorded[0])
        note = compare.settings_note(recorded[1], argv_used)
    if args.json:
        doc = report.as_json(info, records, cells)
        if moved is not None:
            doc["compare"] = {"path": args.compare, "rows": moved, "warning": note}
        json.dump(doc, sys.stdout, indent=1)
        print()
    else:
        print(report.render_text(info, records, cells, names))
        if moved is not None:
            print("\n" + compare.render(moved, args.compare, note))
    if args.write_results:
        shown = [a for a in argv_used if a != args.write_results or a == "--write-results"]   # (the path: where, not how)
        command = "python -m benchmarks " + " ".join(shown)
        doc = report.render_markdown(info, records, cells, names, command.strip())
        if os.path.exists(args.write_results):
            with open(args.write_results) as f:
                doc = report.merge_results(f.read(), doc, any(not rec["section"] for rec in records))
        with open(args.write_results, "w") as f:
            f.write(doc)
        print(f"wrote {args.write_results}", file=sys.stderr)
    return 1 if failed else 0
