"""`flowgrad conformance`: run the catalogue and report where the implementations agree.

    flowgrad conformance [--impl NAMES] [--only PATTERN] [--json FILE] [--html FILE]
                         [--list] [--record]

Exit status: 0 when every comparison holds (agreements, declared differences, listed known facade
defects), 1 when any cell differs, errors or is stale, 2 for bad usage.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from . import adapters

PROG = "flowgrad conformance"


class UsageError(Exception):
    """Bad command-line input: one line to stderr, exit 2."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="Run the cross-framework autograd conformance suite.")
    p.add_argument("--impl", metavar="NAMES",
                   help="comma-separated implementations (default: the three facades and every real "
                        f"framework installed); known: {', '.join(adapters.IMPLEMENTATIONS)}")
    p.add_argument("--only", metavar="PATTERN",
                   help="scenarios whose id contains PATTERN (or matches it as a glob, e.g. 'grad_api.*')")
    p.add_argument("--json", metavar="FILE", help="write the full results as JSON")
    p.add_argument("--html", metavar="FILE", help="write a self-contained HTML report")
    p.add_argument("--list", action="store_true", help="list the scenarios and exit")
    p.add_argument("--record", action="store_true",
                   help="record the installed real frameworks' outcomes as the references used where "
                        "they are not installed")
    p.add_argument("--no-details", action="store_true", help="print the matrix and summary only")
    return p


def _impls(value: str | None) -> list[str] | None:
    if value is None:
        return None
    names = [n.strip() for n in value.split(",") if n.strip()]
    if not names:
        raise UsageError("--impl needs at least one implementation name")
    for n in names:
        try:
            adapters.get(n)
        except adapters.UnknownImplementation as exc:
            raise UsageError(str(exc)) from None
    return names


def _check_writable(path: str, option: str) -> None:
    target = os.path.abspath(path)
    parent = os.path.dirname(target) or "."
    if os.path.isdir(target):
        raise UsageError(f"{option} {path}: is a directory")
    if not os.path.isdir(parent):
        raise UsageError(f"{option} {path}: directory {parent} does not exist")
    if os.path.exists(target) and not os.access(target, os.W_OK) or not os.access(parent, os.W_OK):
        raise UsageError(f"{option} {path}: not writable")


def _write(path: str, text: str, option: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise UsageError(f"{option} {path}: {exc.strerror or exc}") from None


def run_cli(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    from .scenario import load_all, select
    scenarios = select(load_all(), args.only)
    if args.only and not scenarios:
        raise UsageError(f"--only {args.only!r} matches no scenario")
    if args.list:
        for sc in scenarios:
            print(f"{sc.id:55s} {sc.checks}")
        print(f"{len(scenarios)} scenarios")
        return 0
    impls = _impls(args.impl)
    for path, option in ((args.json, "--json"), (args.html, "--html")):
        if path:
            _check_writable(path, option)
    if args.record:
        return _record(scenarios, impls)
    from .progress import ProgressBar
    from .runner import run
    from .text_report import write_report
    bar = ProgressBar()
    try:
        result = run(impls, scenarios, progress=bar)
    finally:
        bar.close()
    write_report(result, details=not args.no_details)
    if args.json:
        from .json_report import to_json_text
        _write(args.json, to_json_text(result), "--json")
    if args.html:
        from .html_report import to_html
        _write(args.html, to_html(result), "--html")
    return result.exit_code


def _record(scenarios, impls: list[str] | None) -> int:
    from . import recordings
    from .progress import ProgressBar
    from .runner import run
    real = [n for n in (impls or adapters.REAL) if not adapters.get(n).is_facade]
    real = [n for n in real if adapters.is_installed(n)]
    if not real:
        raise UsageError("--record needs an installed real framework (torch, paddle or oneflow)")
    bar = ProgressBar()
    try:
        result = run(real, scenarios, progress=bar, use_recordings=False)
    finally:
        bar.close()
    for state in result.ran():
        obs = {sc.id: result.observations[sc.id][state.name] for sc in scenarios}
        path = recordings.write(state.family, state.version, scenarios, obs)
        print(f"recorded {len(obs)} outcomes of {state.name} {state.version} in {path}")
    for state in result.impls:
        if not state.ran:
            print(f"{state.name}: {state.state} {state.detail}".rstrip())
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `flowgrad conformance`; returns the exit status, never a traceback."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        return run_cli(argv)
    except UsageError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # noqa: BLE001 - a clear line instead of a traceback
        print(f"{PROG}: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
