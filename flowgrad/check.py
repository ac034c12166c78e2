"""`flowgrad check PATH... [--as NAMES] [--json | --format table|parsable|json] [--fail-under PCT]`:
read Python files without running them and report which torch / oneflow / paddle APIs they use and
whether flowgrad's facades support each (asked of the facade itself), with a coverage figure.

Exit status: 0 when no used API is unsupported (or coverage by use >= --fail-under), 1 otherwise,
2 for bad input (a missing path, a directory without Python files, an unknown framework, a file
that does not parse: reported with its line, the other files still checked).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Callable, Iterable, Sequence

from . import __version__, shim
from ._check.files import CheckError, find_files, scan_files
from ._check.report import Result, as_json, parsable, rows, table, Progress
from ._check.scan import resolve
from ._check.support import KNOWN_DIFFERENCES, Support, known_differences
from .cli import ArgumentParser
from .messages.own import text as own_text

__all__ = ["check_paths", "find_files", "known_differences", "KNOWN_DIFFERENCES", "CheckError", "Result", "main"]

PROG = "flowgrad check"
FRAMEWORKS: tuple[str, ...] = tuple(shim.FACADES)


def check_paths(paths: Sequence[str], frameworks: Iterable[str] = FRAMEWORKS, *, support: Support | None = None,
                progress: Callable[[int], None] | None = None) -> Result:
    """Check the Python files at or under `paths` for uses of `frameworks`' APIs. Raises CheckError
    for an unknown framework, a missing path or a directory without Python files."""
    frameworks = tuple(dict.fromkeys(frameworks))
    for fw in frameworks or ("",):
        if fw not in shim.FACADES:
            raise CheckError(own_text("unknown_framework", framework=fw, where="", choices=", ".join(shim.FACADES)))
    files = find_files(paths)
    support = support or Support()
    raw, errors = scan_files(files, frozenset(frameworks), progress)
    uses = resolve(raw, support)
    used = {u.framework for u in uses}
    missing = tuple(fw for fw in frameworks if fw in used and support.facade(fw) is None)
    return Result(frameworks, len(files), rows(uses, support), errors, missing)


def parser() -> ArgumentParser:
    p = ArgumentParser(prog=PROG, description="Read Python files without running them and report which framework "
                       "APIs they use and whether flowgrad supports each (asked of the facades themselves).",
                       epilog="Exit status: 0 when nothing used is unsupported (or coverage by use >= --fail-under), "
                              "1 otherwise, 2 for bad input. A `# flowgrad: ignore` comment skips its line. The JSON "
                              "schema is in docs/CHECK.md.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="Python files, or directories to search for them")
    p.add_argument("--as", dest="names", metavar="NAMES",
                   help="comma-separated frameworks to look for, from torch, oneflow, paddle (default: all)")
    p.add_argument("--format", choices=("table", "parsable", "json"), default="table",
                   help="table (default); parsable: one path:line:col line per use of an unsupported or differing "
                        "API; json: see docs/CHECK.md")
    p.add_argument("--json", action="store_const", const="json", dest="format", help="the same as --format json")
    p.add_argument("--fail-under", type=_percent, metavar="PCT",
                   help="exit 0 when coverage by use is at least PCT (0-100), even with unsupported APIs")
    return p


def _percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(own_text("not_a_number", text=text)) from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(own_text("not_a_percentage", text=text))
    return value


def main(argv: list[str]) -> int:
    opts = parser().parse_args(argv)
    frameworks = FRAMEWORKS
    if opts.names is not None:
        frameworks = tuple(n.strip() for n in opts.names.split(",") if n.strip())
    try:
        files = find_files(opts.paths)
        bar = Progress(len(files))
        try:
            result = check_paths(files, frameworks, progress=bar.update)
        finally:
            bar.close()
    except CheckError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    for err in result.errors:
        print(f"{PROG}: {err} (not checked; the other files were)", file=sys.stderr)
    if opts.format == "json":
        print(json.dumps(as_json(result, __version__), indent=2))
    elif opts.format == "parsable":
        text = parsable(result)
        if text:
            print(text)
    else:
        print(table(result))
    if result.errors:
        return 2
    coverage = result.coverage()
    if opts.fail_under is not None:
        return 0 if (coverage.uses_percent if coverage.uses_total else 100.0) >= opts.fail_under else 1
    return 1 if result.gaps() else 0
