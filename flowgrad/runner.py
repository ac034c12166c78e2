"""`flowgrad run [--as NAMES] [--report] SCRIPT [ARGS...]` (or `-m MODULE [ARGS...]`): run a program as
`python SCRIPT` would (sys.argv, `__main__`, sys.path[0], exit status, tracebacks that start at the
program's own lines), with `import torch` / `oneflow` / `paddle` answered by flowgrad's facades."""
from __future__ import annotations

import builtins
import importlib.machinery
import os
import runpy
import sys
import types
import zipfile

from . import shim
from .cli import ArgumentParser
from .messages.own import text

PROG = "flowgrad run"
_SKIP_FILES = {os.path.abspath(__file__), os.path.abspath(runpy.__file__)}
_SHIM_FILE = os.path.abspath(shim.__file__)


def parser() -> ArgumentParser:
    p = ArgumentParser(prog=PROG, usage=f"{PROG} [-h] [--as NAMES] [--report] (SCRIPT | -m MODULE) [ARGS ...]",
                       description="Run a Python program with its framework imports answered by "
                       "flowgrad, as `python SCRIPT ARGS` (or `python -m MODULE ARGS`) would run it.",
                       epilog="FLOWGRAD_SHIM=0 in the environment runs the program without aliasing.")
    p.add_argument("--as", dest="names", metavar="NAMES",
                   help="comma-separated frameworks to alias, from torch, oneflow, paddle (default: every facade "
                        "this flowgrad has)")
    p.add_argument("--report", action="store_true",
                   help="at exit, print every framework API the run asked for that flowgrad lacks (to stderr)")
    p.add_argument("-m", dest="module", metavar="MODULE", help="run a library module as a script, as python -m does")
    p.add_argument("script", nargs="?", help="the program to run; every argument after it goes to the program")
    return p


def split_argv(argv: list[str]) -> tuple[list[str], list[str]]:
    """flowgrad's own options (with the script, or -m and its module) | the program's arguments."""
    own: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--as" or arg == "-m":
            own += argv[i:i + 2]
            i += 2
            if arg == "-m":
                break
        elif arg.startswith("-m") and len(arg) > 2:
            own += ["-m", arg[2:]]
            i += 1
            break
        elif arg == "--":
            own += argv[i:i + 2]
            i += 2
            break
        elif arg.startswith("-"):
            own.append(arg)
            i += 1
        else:
            own.append(arg)
            i += 1
            break
    return own, argv[i:]


def frameworks(names: str | None) -> tuple[str, ...]:
    """The names in `--as` (validated), or every available facade."""
    if names is None:
        return tuple(n for n in shim.FACADES if shim.available(n))
    chosen = tuple(dict.fromkeys(n.strip() for n in names.split(",") if n.strip()))
    for n in chosen or ("",):
        if n not in shim.FACADES:
            raise ValueError(text("unknown_framework", framework=n, where=" in --as", choices=", ".join(shim.FACADES)))
        if not shim.available(n):
            raise ValueError(text("facade_unavailable", framework=n, module=shim.FACADES[n]))
    return chosen


def main(argv: list[str]) -> int:
    own, args = split_argv(argv)
    opts = parser().parse_args(own)
    if (opts.script is None) == (opts.module is None):
        parser().error("give a script to run, or -m MODULE")
    try:
        names = () if shim.disabled() else frameworks(opts.names)
    except ValueError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    if opts.script is not None and not os.path.exists(opts.script):
        print(f"{PROG}: can't open file {os.path.abspath(opts.script)!r}: [Errno 2] No such file or directory",
              file=sys.stderr)
        return 2
    try:
        shim.install(*names, watch_tensors=opts.report)
    except (ImportError, shim.ShimError) as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    try:
        if opts.module is not None:
            sys.argv = [opts.module, *args]
            sys.path[0] = os.getcwd()
            runpy.run_module(opts.module, run_name="__main__", alter_sys=True)
        else:
            sys.argv = [opts.script, *args]
            run_path(opts.script)
    except SystemExit:
        raise
    except BaseException as exc:   # noqa: B036  (printed as Python prints an uncaught exception)
        tb = user_traceback(exc.__traceback__)
        if tb is None and isinstance(exc, ImportError) and opts.module is not None:
            print(f"{PROG}: {exc}", file=sys.stderr)
            return 1
        sys.excepthook(type(exc), exc.with_traceback(tb), tb)
        return 130 if isinstance(exc, KeyboardInterrupt) else 1
    finally:
        if opts.report:
            print_report(names)
    return 0


def run_path(path: str) -> None:
    """Run a script file (or a directory / zip with __main__.py) as python's command line does."""
    if os.path.isdir(path) or zipfile.is_zipfile(path):
        sys.path[0] = path
        runpy.run_path(path, run_name="__main__")
        return
    filename = os.path.abspath(path)
    sys.path[0] = os.path.dirname(os.path.realpath(path))
    main_module = types.ModuleType("__main__")
    main_module.__dict__.update(__file__=filename, __builtins__=builtins, __cached__=None,
                                __loader__=importlib.machinery.SourceFileLoader("__main__", filename))
    with open(filename, "rb") as f:
        code = compile(f.read(), filename, "exec", dont_inherit=True)
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = main_module
    try:
        exec(code, main_module.__dict__)
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved


def user_traceback(tb: types.TracebackType | None) -> types.TracebackType | None:
    """The traceback without its leading frames from this runner, runpy and importlib, and without the
    import hook's frame that raised a flowgrad ModuleNotFoundError: the program's lines only."""
    while tb is not None:
        path = tb.tb_frame.f_code.co_filename
        if path not in _SKIP_FILES and not path.startswith("<frozen "):
            break
        tb = tb.tb_next
    entries = []
    while tb is not None:
        if tb.tb_frame.f_code.co_filename != _SHIM_FILE:
            entries.append((tb.tb_frame, tb.tb_lasti, tb.tb_lineno))
        tb = tb.tb_next
    for frame, lasti, lineno in reversed(entries):
        tb = types.TracebackType(tb, frame, lasti, lineno)
    return tb


def print_report(names: tuple[str, ...]) -> None:
    """What the run asked of the aliased frameworks that flowgrad lacks, most frequent first (stderr)."""
    out = sys.stderr
    if not names:
        print(f"{PROG} --report: no framework was aliased ({shim.ENV}=0), nothing to report", file=out)
        return
    gaps = shim.missing()
    head = f"{PROG} --report (aliased: {', '.join(names)})"
    if not gaps:
        print(f"{head}: flowgrad provided every framework API the run asked for", file=out)
        return
    print(f"{head}: {len(gaps)} framework API{'s' * (len(gaps) != 1)} the run asked for "
          f"{'are' if len(gaps) != 1 else 'is'} missing from flowgrad", file=out)
    width = max(len(g.api) for g in gaps)
    kind_width = max(len(g.kind) for g in gaps)
    print(f"  {'uses':>5}  {'API':<{width}}  {'kind':<{kind_width}}  first place", file=out)
    for g in gaps:
        print(f"  {g.count:>5}  {g.api:<{width}}  {g.kind:<{kind_width}}  {_relative(g.first)}", file=out)


def _relative(where: str) -> str:
    path, sep, line = where.rpartition(":")
    if not sep or not os.path.isabs(path):
        return where
    rel = os.path.relpath(path)
    return f"{rel if not rel.startswith(os.pardir) else path}:{line}"
