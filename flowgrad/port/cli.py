"""`flowgrad port SCRIPT --from torch --to paddle [-o OUT] [--force] [--diff] [--verify] [--json]`:
rewrite a script's framework API uses into another framework's, flag the autograd behaviour that
differs, and with --verify run both on flowgrad's facades and compare them step by step.

Exit status: 0 when the port is written (and, with --verify, equivalent); 1 when --verify finds a
difference or a script fails under it; 2 for bad input (a file that does not parse, an output that
exists without --force, the same framework on both sides, an unknown framework, no libcst).
"""
from __future__ import annotations

import difflib
import json
import os
import sys

from ..cli import ArgumentParser
from ..messages.port import text
from . import table

PROG = "flowgrad port"


def parser() -> ArgumentParser:
    p = ArgumentParser(prog=PROG, description="Translate a script from one framework's API to another's (torch, "
                       "paddle, oneflow), flag autograd behaviour that differs, optionally verify the port on "
                       "flowgrad's facades.",
                       epilog="Exit status: 0 written (and equivalent with --verify), 1 --verify found a difference "
                              "or a script failed, 2 bad input. --json prints {\"port\": ..., \"verify\": ...}: see "
                              "docs/PORT.md.")
    p.add_argument("script", help="the Python script to translate")
    p.add_argument("--from", dest="source", required=True, metavar="FRAMEWORK", help="torch, paddle or oneflow")
    p.add_argument("--to", dest="target", required=True, metavar="FRAMEWORK", help="torch, paddle or oneflow")
    p.add_argument("-o", "--output", metavar="OUT", help="where to write the port (default: print it)")
    p.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    p.add_argument("--diff", action="store_true", help="print a unified diff instead of the ported script")
    p.add_argument("--verify", action="store_true",
                   help="run the original on the source facade and the port on the target facade and compare every "
                        "parameter gradient and printed tensor at each step")
    p.add_argument("--steps", type=int, default=None, metavar="N", help="with --verify, compare at most N steps")
    p.add_argument("--rtol", type=float, default=1e-5, help="relative tolerance of --verify (default 1e-5)")
    p.add_argument("--atol", type=float, default=1e-7, help="absolute tolerance of --verify (default 1e-7)")
    p.add_argument("--json", action="store_true", help="print the summary (and verification) as JSON")
    return p


def _fail(kind: str, status: int = 2, **facts) -> int:
    print(f"{PROG}: {text(kind, **facts)}", file=sys.stderr)
    return status


def main(argv: list[str]) -> int:
    opts = parser().parse_args(argv)
    for fw in (opts.source, opts.target):
        if fw not in table.FRAMEWORKS:
            return _fail("unknown_framework", framework=fw, choices=", ".join(table.FRAMEWORKS))
    if opts.source == opts.target:
        return _fail("same_framework", framework=opts.source)
    if not os.path.isfile(opts.script):
        return _fail("missing_file", path=os.path.abspath(opts.script))
    if opts.output and os.path.exists(opts.output) and not opts.force:
        return _fail("output_exists", path=opts.output)
    try:
        from .summary import as_json, text as summary_text
        from .translate import cst, port_source
    except ImportError:
        return _fail("needs_libcst")
    with open(opts.script, encoding="utf-8") as f:
        code = f.read()
    try:
        ported, outcome = port_source(code, opts.source, opts.target)
    except (cst.ParserSyntaxError, SyntaxError) as exc:
        line = getattr(exc, "editor_line", None) or getattr(exc, "lineno", None)
        col = getattr(exc, "editor_column", None) or getattr(exc, "offset", None)
        message = getattr(exc, "message", None) or getattr(exc, "msg", None) or str(exc)
        return _fail("parse_error", path=opts.script, line=line, column=col, error=message)
    if opts.output:
        with open(opts.output, "w", encoding="utf-8") as f:
            f.write(ported)
    report: dict = {"port": as_json(outcome, opts.source, opts.target)}
    out = sys.stdout if opts.output and not opts.diff else sys.stderr   # stdout may carry the code
    if opts.diff:
        sys.stdout.writelines(difflib.unified_diff(code.splitlines(True), ported.splitlines(True), opts.script,
                                                   opts.output or f"{opts.script} ({opts.target})"))
    elif not opts.output and not opts.json:
        sys.stdout.write(ported)
    status = 0
    verdict = None
    if opts.verify:
        from .verify import verify
        verdict = verify(opts.script, code, ported, opts.source, opts.target, steps=opts.steps, rtol=opts.rtol,
                         atol=opts.atol)
        report["verify"] = verdict.as_json()
        status = 0 if verdict.equivalent else 1
    if opts.json:
        print(json.dumps(report, indent=2))
    else:
        print(summary_text(outcome, opts.source, opts.target), file=out)
        if verdict is not None:
            print(verdict.text(), file=sys.stderr if verdict.failure else out)
    return status
