"""The `flowgrad` command line (also `python -m flowgrad`).

Each subcommand is a module with `main(argv: list[str]) -> int`, imported only when that command
runs; adding one is a line in COMMANDS.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import NamedTuple, NoReturn


class Command(NamedTuple):
    module: str
    summary: str


COMMANDS: dict[str, Command] = {
    "run": Command("flowgrad.runner", "run a script or module with `import torch` / `oneflow` / `paddle` answered "
                                      "by flowgrad"),
    "check": Command("flowgrad.check", "read Python files and report which framework APIs flowgrad covers"),
    "port": Command("flowgrad.port.cli", "translate a script between torch, paddle and oneflow, flag autograd "
                                         "differences, verify the port on flowgrad's facades"),
    "bench": Command("flowgrad._bench", "flowgrad beside torch, MyGrad, HIPS autograd and hand-written NumPy"),
    "conformance": Command("conformance.cli", "run the cross-framework autograd scenarios on the facades and the "
                                              "real frameworks installed"),
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = [f"  {name:<{width}}  {cmd.summary}" for name, cmd in COMMANDS.items()]
    return ("usage: flowgrad [--version] <command> [options]\n\ncommands:\n" + "\n".join(lines) +
            "\n\n`flowgrad <command> --help` describes each command's options.")


class ArgumentParser(argparse.ArgumentParser):
    """argparse with a one-line error (`prog: error: message`) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0
    if argv[0] == "--version":
        from . import __version__
        print(f"flowgrad {__version__}")
        return 0
    command = COMMANDS.get(argv[0])
    if command is None:
        print(f"flowgrad: unknown command {argv[0]!r} (choose from {', '.join(COMMANDS)})\n\n{usage()}",
              file=sys.stderr)
        return 2
    return importlib.import_module(command.module).main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
