"""Finding, reading and scanning the files, on every core for a large tree. Scanning is syntax only
(no facade is imported here), so worker processes start light."""
from __future__ import annotations

import ast
import gc
import io
import multiprocessing
import os
import threading
import tokenize
from typing import Callable, NamedTuple, Sequence

from ..messages.own import text
from .scan import Use, scan

PARALLEL_FROM = 200    # files; a smaller set is scanned in this process


class CheckError(Exception):
    """Bad input to check: the message is the one line `flowgrad check` prints."""


class FileError(NamedTuple):
    """A file that could not be checked."""
    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}" if self.line else f"{self.path}: {self.message}"


def find_files(paths: Sequence[str]) -> list[str]:
    """The Python files named or under the directories named (hidden directories, __pycache__ and
    virtual environments skipped), in a stable order. Raises CheckError for a missing path or a
    directory without Python files."""
    files: list[str] = []
    for path in paths:
        if os.path.isfile(path):
            files.append(os.path.normpath(path))
        elif os.path.isdir(path):
            found = []
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__"
                                 and not os.path.exists(os.path.join(root, d, "pyvenv.cfg")))
                found += [os.path.normpath(os.path.join(root, n)) for n in sorted(names) if n.endswith(".py")]
            if not found:
                raise CheckError(text("no_python_files", path=path))
            files += found
        else:
            raise CheckError(text("no_such_path", path=path))
    return list(dict.fromkeys(files))


def read(path: str) -> str:
    """A source file's text (UTF-8, or the encoding its coding line declares)."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
        return data.decode(encoding)


def scan_file(path: str, frameworks: frozenset[str]) -> list[Use]:
    """The raw uses in one file; raises SyntaxError, ValueError or OSError when it cannot be read."""
    source = read(path)
    tree = ast.parse(source, filename=path)
    if not any(fw in source for fw in frameworks):
        return []
    return scan(tree, source, path, frameworks)


def scan_chunk(paths: Sequence[str], frameworks: frozenset[str]) -> tuple[list[Use], list[FileError]]:
    """Scan files one after another: their raw uses and the files that could not be checked."""
    uses: list[Use] = []
    errors: list[FileError] = []
    collecting = gc.isenabled()
    gc.disable()          # syntax trees have no cycles: reference counting frees them, and GC passes cost 20%
    try:
        for path in paths:
            try:
                uses += scan_file(path, frameworks)
            except SyntaxError as exc:
                errors.append(FileError(path, exc.lineno, f"syntax error: {exc.msg}"))
            except (ValueError, OSError, UnicodeError, RecursionError, MemoryError) as exc:
                errors.append(FileError(path, None, f"cannot read: {type(exc).__name__}: {exc}"))
    finally:
        if collecting:
            gc.enable()
    return uses, errors


def _scan_chunk_plain(args: tuple[Sequence[str], frozenset[str]]) -> tuple[list[tuple], list[FileError]]:
    """scan_chunk in a worker: plain tuples travel back about 4 times faster than named ones."""
    uses, errors = scan_chunk(*args)
    return [tuple(u) for u in uses], errors


def jobs() -> int:
    """Worker processes for a large tree: the cores this process may use, when fork is available
    and no other thread runs (forking a threaded process is unsafe); 1 otherwise."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    if cores < 2 or "fork" not in multiprocessing.get_all_start_methods() or threading.active_count() > 1:
        return 1
    return cores


def scan_files(paths: Sequence[str], frameworks: frozenset[str],
               progress: Callable[[int], None] | None = None) -> tuple[list[Use], list[FileError]]:
    """Scan every file, in order, in worker processes when the set is large; `progress(done)` after
    each chunk."""
    n = jobs() if len(paths) >= PARALLEL_FROM else 1
    size = max(1, min(64, len(paths) // (n * 8) or 1))
    chunks = [paths[i:i + size] for i in range(0, len(paths), size)]
    uses: list[Use] = []
    errors: list[FileError] = []
    if n == 1:
        results = (scan_chunk(chunk, frameworks) for chunk in chunks)
        _gather(results, chunks, uses, errors, progress)
        return uses, errors
    with multiprocessing.get_context("fork").Pool(n) as pool:
        results = ((list(map(Use._make, plain)), errs)
                   for plain, errs in pool.imap(_scan_chunk_plain, [(chunk, frameworks) for chunk in chunks]))
        _gather(results, chunks, uses, errors, progress)
    return uses, errors


def _gather(results, chunks, uses, errors, progress) -> None:
    done = 0
    for chunk, (chunk_uses, chunk_errors) in zip(chunks, results):
        uses += chunk_uses
        errors += chunk_errors
        done += len(chunk)
        if progress is not None:
            progress(done)
